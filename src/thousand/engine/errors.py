"""Why a move is illegal, as a stable code and plain data.

The engine raises :class:`IllegalMove` with a message code and its parameters: numbers,
cards in record notation (``"KH"``), suits as letters (``"H"``) and short reason codes.
Nothing here is text for people: front ends turn a code and its parameters into Russian or
English with the message catalogue (:func:`thousand.words.catalogue.illegal_move_text`), and
the table protocol sends them as they are (docs/protocol.md), so a client in any language
can show its own words.

The engine imports no words.  ``str()`` of an :class:`IllegalMove` still reads in English
(``thousand replay`` prints it, a record's fault carries it) because the words hand the
engine their wording (:func:`word_illegal_moves`) when the package is imported
(``thousand/__init__.py``): the dependency points from the words to the engine, never back.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Literal, get_args

#: Every code an illegal move may carry (docs/protocol.md lists their parameters).
IllegalCode = Literal[
    "not_a_move",
    "deal_over",
    "wrong_phase",
    "not_in_hand",
    "must_follow",
    "must_overtake",
    "must_trump",
    "no_declare_first_lead",
    "declare_not_on_lead",
    "nothing_to_declare",
    "aces_in_row",
    "no_lead_own_trump",
    "first_bid_compulsory",
    "bid_too_low",
    "bid_step",
    "opening_exactly_100",
    "one_step",
    "bid_over_cap",
    "barred",
    "dark_outbid",
    "dark_not_allowed",
    "redeal_not_entitled",
    "contract_too_low",
    "concede_not_allowed",
    "buy_not_allowed",
    "no_two_talons",
]
ILLEGAL_CODES: tuple[str, ...] = get_args(IllegalCode)

Param = int | str | None

#: How an illegal move's code and parameters read in a language: ``(code, params, lang)``.
Wording = Callable[[str, Mapping[str, Param], str], str]


def _codes(code: str, params: Mapping[str, Param], lang: str) -> str:
    """The wording before the words are handed in: the code and its parameters as data."""
    return " ".join([code, *(f"{k}={v}" for k, v in params.items())])


_wording: list[Wording] = [_codes]


def word_illegal_moves(wording: Wording) -> None:
    """Let ``str()`` of an illegal move read through ``wording`` (the message catalogue's,
    handed in by the package's ``__init__``; the engine never imports it)."""
    _wording[0] = wording


class IllegalMove(ValueError):
    """A move the rules do not allow in this position.

    ``move`` is the move in record notation, ``code`` one of :data:`ILLEGAL_CODES`,
    ``params`` plain data.  ``str()`` gives the English text (what ``thousand replay``
    prints); :func:`thousand.words.catalogue.illegal_move_text` either language.
    """

    def __init__(self, move: str, code: IllegalCode, **params: Param) -> None:
        self.move = move
        self.code: IllegalCode = code
        self.params: dict[str, Param] = params
        super().__init__(move, code)

    def __str__(self) -> str:
        return f"{self.move}: {_wording[0](self.code, self.params, 'en')}"

    def to_json(self) -> dict[str, object]:
        """The plain-data form sent by the table protocol."""
        return {"move": self.move, "code": self.code, "params": dict(self.params)}
