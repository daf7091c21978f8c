"""``thousand replay FILE``: check a game record move by move and show its score sheet.

Exit status says what went wrong, for scripts: 0 the record is a legal game (finished
or not), 1 a move (or a deal) breaks the rules, 2 the file is not a record at all (or
cannot be read).  Either failure is one line on stderr, never a traceback, and takes
bounded time and memory whatever the file holds: at most
:data:`~thousand.engine.record.MAX_RECORD_BYTES` are read.

``--lang`` chooses the language of everything the command prints.  Without it the sheet
is in Russian and the error lines in English (``deal 3, move 12: …``, ``error: …``), the
form scripts read; an illegal move is worded with the players' names, never "seat N".
"""

from __future__ import annotations

import json
import sys
from typing import Annotated, BinaryIO

import typer
from rich.console import Console

from thousand.cli import app
from thousand.engine.record import (
    MAX_RECORD_BYTES,
    Record,
    RecordError,
    ReplayError,
    load_record,
    replay,
)
from thousand.engine.rules import RulesError
from thousand.words.catalogue import record_error_text, replay_error_text
from thousand.words.rules import check_lang

from .common import one_line, os_reason, value_reason

#: The command's own messages: key -> (English, Russian).
MESSAGES: dict[str, tuple[str, str]] = {
    "error": ("error: {text}", "ошибка: {text}"),
    "no_file": ("{file}: no such file", "{file}: такого файла нет"),
    "directory": ("{file}: is a directory, not a record", "{file}: это папка, а не запись"),
    "unreadable": ("{file}: cannot read it: {why}", "{file}: не читается: {why}"),
    "too_large": ("{file}: larger than {mb} MB; a game record is far smaller",
                  "{file}: больше {mb} МБ; запись партии гораздо меньше"),
    "not_record": ("{file}: {why}", "{file}: это не запись партии ({why})"),
}


def message(key: str, lang: str, **params: object) -> str:
    """The message ``key`` in ``lang`` (:data:`MESSAGES`)."""
    en, ru = MESSAGES[key]
    return (ru if lang == "ru" else en).format(**params)


def _shown(path: str) -> str:
    """The file name as messages write it: short enough to leave room for the reason."""
    return one_line(path, 160)


def _fail(message: str, code: int) -> typer.Exit:
    typer.echo(one_line(message), err=True)
    return typer.Exit(code)


def _read_limited(stream: BinaryIO) -> bytes | None:
    """Up to :data:`MAX_RECORD_BYTES`; None when there is more (``/dev/zero``)."""
    data = stream.read(MAX_RECORD_BYTES + 1)
    return None if len(data) > MAX_RECORD_BYTES else data


def _read(path: str, lang: str = "en") -> bytes:
    file = _shown(path)

    def error(key: str, **params: object) -> typer.Exit:
        text = message(key, lang, file=file, **params)
        return _fail(message("error", lang, text=text), 2)

    try:
        if path == "-":
            data = _read_limited(sys.stdin.buffer)
        else:
            with open(path, "rb") as f:
                data = _read_limited(f)
    except FileNotFoundError:
        raise error("no_file") from None
    except IsADirectoryError:
        raise error("directory") from None
    except OSError as e:
        raise error("unreadable", why=os_reason(e, lang)) from None
    except ValueError as e:  # a name the system cannot take (a NUL byte)
        raise error("unreadable", why=value_reason(e, lang)) from None
    if data is None:
        raise error("too_large", mb=MAX_RECORD_BYTES // 1_000_000)
    return data


def not_a_record(shown: str, e: RecordError, lang: str) -> typer.Exit:
    """Exit 2: ``error: FILE: why`` (the reason as the record reader gives it; in Russian
    :func:`thousand.words.catalogue.record_error_text` words it)."""
    why = record_error_text(e, lang)
    return _fail(message("error", lang, text=message("not_record", lang, file=shown, why=why)),
                 2)


def said_lang(lang: str) -> str:
    """``--lang``'s value checked (ru or en), else the command's exit 2."""
    try:
        return check_lang(lang)
    except RulesError as e:
        raise _fail(f"error: {e}", 2) from None


def read_record(path: str, lang: str) -> Record:
    """The record in ``path`` (a save of ``thousand play`` too), or the command's exit 2:
    the one way ``replay``, ``verify``, ``analyse`` and ``exercises`` read their file."""
    data = _read(path, lang)
    try:
        return load_record(data)
    except RecordError as e:
        raise not_a_record(_shown(path), e, lang) from None


def replay_failure(e: ReplayError, record: Record | None, lang: str) -> typer.Exit:
    """Exit 1: the first thing the rules do not allow, one line; an illegal move worded
    with the players' names (:func:`thousand.words.catalogue.replay_error_text`)."""
    names = list(record.players) if record is not None else None
    return _fail(replay_error_text(e, lang, names), 1)


@app.command("replay")
def replay_command(
    file: Annotated[
        str, typer.Argument(metavar="FILE", help="The game record (JSON, RULES §6); - for stdin.")
    ],
    as_json: Annotated[
        bool, typer.Option("--json", help="Print the result as JSON (RULES §6).")
    ] = False,
    lang: Annotated[
        str | None,
        typer.Option("--lang", help="ru or en (without it: the sheet in Russian, errors in "
                                    "English)"),
    ] = None,
) -> None:
    """Replay a game record, checking every move, and show the score sheet.  Справка
    по-русски: thousand replay --help --lang ru."""
    try:
        said = check_lang(lang) if lang is not None else "en"
    except RulesError as e:
        raise _fail(f"error: {e}", 2) from None
    shown_lang = lang or "ru"
    data = _read(file, said)
    shown = _shown(file)
    record: Record | None = None
    try:
        record = load_record(data)
    except RecordError as e:
        raise not_a_record(shown, e, said) from None
    try:
        result = replay(record)
    except ReplayError as e:
        raise replay_failure(e, record, said) from None
    except RecordError as e:
        raise not_a_record(shown, e, said) from None

    if as_json:
        typer.echo(json.dumps(result.to_json(), ensure_ascii=False))
        return
    from thousand.terminal.sheet_view import render_sheet

    console = Console(highlight=False)
    if not console.is_terminal:
        # A file or a pipe has no edge: do not fold the sheet at 80 columns.
        console.width = max(console.width, 120)
    console.print(render_sheet(result.game, shown_lang))
