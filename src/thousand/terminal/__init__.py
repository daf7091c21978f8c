"""The terminal game: rendering (:mod:`.render`), words (:mod:`.i18n`) and the loop
(:mod:`.session`) behind ``thousand play``, a client of the table protocol
(:mod:`thousand.engine.table`)."""

from .session import (
    QuitGame,
    TerminalGame,
    make_session,
    parse_card_text,
    parse_input,
    read_line,
)

__all__ = [
    "QuitGame",
    "TerminalGame",
    "make_session",
    "parse_card_text",
    "parse_input",
    "read_line",
]
