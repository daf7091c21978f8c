"""Why a move is illegal, as a stable code and plain data.

The engine raises :class:`IllegalMove` with a message code and its parameters: numbers,
cards in record notation (``"KH"``), suits as letters (``"H"``) and short reason codes.
Nothing here is text for people: front ends turn a code and its parameters into Russian or
English with the message catalogue :mod:`thousand.words.catalogue`, and the table protocol sends
them as they are (docs/protocol.md), so a client in any language can show its own words.
"""

from __future__ import annotations

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


class IllegalMove(ValueError):
    """A move the rules do not allow in this position.

    ``move`` is the move in record notation, ``code`` one of :data:`ILLEGAL_CODES`,
    ``params`` plain data.  ``str()`` gives the English text (what ``thousand replay``
    prints) and :meth:`text` either language, both from the catalogue.
    """

    def __init__(self, move: str, code: IllegalCode, **params: Param) -> None:
        self.move = move
        self.code: IllegalCode = code
        self.params: dict[str, Param] = params
        super().__init__(move, code)

    def __str__(self) -> str:
        return f"{self.move}: {self.text('en')}"

    def text(self, lang: str = "en") -> str:
        """The reason alone (without the move), in ``lang`` (``en`` or ``ru``)."""
        from ..words.catalogue import (
            illegal_text,  # the catalogue: the words live outside the engine
        )

        return illegal_text(self.code, self.params, lang)

    def to_json(self) -> dict[str, object]:
        """The plain-data form sent by the table protocol."""
        return {"move": self.move, "code": self.code, "params": dict(self.params)}
