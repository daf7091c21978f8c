"""The wire form of the table protocol: a seat's view, events and errors as JSON.

Every front end (the terminal, the browser, a bot in another language, the research
environments) sees the game through these plain values, never through engine objects:

* cards and moves in record notation (RULES §6: ``"AH"``, ``"105"``, ``"give 9S"``), suits
  as letters, phases by name, ``null`` for "none" (never ``-1``);
* the rules travel once per table (:func:`table_header`), not in every view;
* events and errors are built by :mod:`thousand.engine.table`; this module turns views into
  JSON and reads what a client sends (:func:`parse_client_message`, the table protocol's
  messages as :mod:`thousand.engine.client_messages` declares them).

docs/protocol.md describes every message; ``protocol.schema.json`` beside this module is
its JSON Schema (its client messages written from their declarations), checked by the tests
against every message of whole games.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from importlib import resources
from operator import attrgetter
from typing import Any

from . import moves as mv
from .cards import SUITS, Card, Mask, card_str, cards_of
from .client_messages import (
    MAX_MESSAGE_BYTES,
    TABLE_MESSAGES,
    ClientMessage,
    MoveMessage,
    ProtocolError,
    TableMessage,
    read_client_message,
)
from .deal_data import PHASE_NAMES, DealResult
from .rules import Rules
from .strict_json import NotJson, TooDeep, TooLarge
from .view import View

__all__ = [
    "PROTOCOL_VERSION",
    "ClientMessage",
    "MoveMessage",
    "ProtocolError",
    "TableMessage",
    "cards_json",
    "parse_client_message",
    "result_json",
    "schema",
    "table_header",
    "view_changes",
    "view_json",
]

#: The protocol's version, sent in every table header.
PROTOCOL_VERSION = 1

def cards_json(mask: Mask | None) -> list[str] | None:
    """A set of cards in notation, strongest suit last (the engine's order)."""
    return None if mask is None else [card_str(c) for c in cards_of(mask)]


def _card(card: Card | None) -> str | None:
    return None if card is None else card_str(card)


def _seat(seat: int) -> int | None:
    return None if seat < 0 else seat


def _suit(suit: int) -> str | None:
    return None if suit < 0 else SUITS[suit]


def result_json(res: DealResult) -> dict[str, Any]:
    """How a deal ended (the deal values before the game's barrel and penalties)."""
    return {
        "outcome": res.outcome,
        "declarer": res.declarer,
        "bid": res.bid,
        "contract": res.contract,
        "made": res.made,
        "dark": res.dark,
        "golden": res.golden,
        "points": list(res.points),
        "tricks": list(res.tricks),
        "values": list(res.values),
        "redeal_by": res.redeal_by,
    }


def _tricks_json(view: View) -> list[dict[str, Any]]:
    return [
        {
            "leader": t.leader,
            "cards": [{"seat": s, "card": card_str(c)} for s, c in t.cards],
            "winner": t.winner,
            "points": t.points,
        }
        for t in view.tricks
    ]


def _game_json(view: View) -> dict[str, Any] | None:
    g = view.game
    if g is None:
        return None
    return {
        "deal": g.deal_number,
        "scores": list(g.scores),
        "on_barrel": list(g.on_barrel),
        "barrel_deals_left": list(g.barrel_deals_left),
        "bolts": list(g.bolts),
        "concedes": list(g.concedes),
        "falls": list(g.falls),
        "golden": g.golden,
    }


#: Each key of a view's JSON: the :class:`View` fields it is made of, and how.  One table
#: for :func:`view_json` and :func:`view_changes`, so that a patch never misses a key.
_VIEW_KEYS: tuple[tuple[str, tuple[str, ...], Callable[[View], Any]], ...] = (
    ("seat", ("seat",), lambda v: v.seat),
    ("phase", ("phase",), lambda v: PHASE_NAMES[v.phase]),
    ("dealer", ("dealer",), lambda v: v.dealer),
    ("opener", ("opener",), lambda v: v.opener),
    ("active", ("active",), lambda v: list(v.active)),
    ("golden", ("golden",), lambda v: v.golden),
    ("to_move", ("to_move", "result"), lambda v: None if v.result is not None else v.to_move),
    ("hand", ("hand",), lambda v: cards_json(v.hand)),
    ("hand_sizes", ("hand_sizes",), lambda v: list(v.hand_sizes)),
    ("talon", ("talon",), lambda v: cards_json(v.talon)),
    ("talon_known", ("talon_known",), lambda v: cards_json(v.talon_known)),
    ("talon_choice", ("talon_choice",),
     lambda v: v.talon_choice + 1 if v.talon_choice >= 0 else None),
    ("other_talon", ("other_talon",), lambda v: cards_json(v.other_talon)),
    ("cut", ("cut",), lambda v: [_card(c) for c in v.cut]),
    ("auction", ("auction",),
     lambda v: [{"seat": s, "move": mv.move_str(m)} for s, m in v.auction]),
    ("high_bid", ("high_bid",), lambda v: v.high_bid or None),
    ("high_bidder", ("high_bidder",), lambda v: _seat(v.high_bidder)),
    ("passed", ("passed",), lambda v: list(v.passed)),
    ("dark_bidder", ("dark_bidder",), lambda v: _seat(v.dark_bidder)),
    ("dark", ("dark",), lambda v: v.dark),
    ("declarer", ("declarer",), lambda v: _seat(v.declarer)),
    ("bid", ("bid",), lambda v: v.bid or None),
    ("contract", ("contract",), lambda v: v.contract or None),
    ("buys", ("buys",), lambda v: [{"seat": s, "price": p} for s, p in v.buys]),
    ("buy_price", ("buy_price",), lambda v: v.buy_price),
    ("given", ("given",), lambda v: [{"to": to, "card": _card(c)} for c, to in v.given]),
    ("discards", ("discards",), lambda v: cards_json(v.discards)),
    ("trump", ("trump",), lambda v: _suit(v.trump)),
    ("trump_declarer", ("trump_declarer",), lambda v: _seat(v.trump_declarer)),
    ("trick", ("trick",), lambda v: [{"seat": s, "card": card_str(c)} for s, c in v.trick]),
    ("tricks", ("tricks",), _tricks_json),
    ("declarations", ("declarations",), lambda v: [
        {"seat": d.seat, "kind": d.kind, "suit": SUITS[d.suit], "points": d.points,
         "trick": d.trick}
        for d in v.declarations]),
    ("taken", ("taken",), lambda v: list(v.taken)),
    ("tricks_won", ("tricks_won",), lambda v: list(v.tricks_won)),
    ("bonus", ("bonus",), lambda v: list(v.bonus)),
    ("legal", ("legal",), lambda v: [mv.move_str(m) for m in v.legal]),
    ("history", ("history",), lambda v: list(v.history)),
    ("result", ("result",), lambda v: None if v.result is None else result_json(v.result)),
    ("game", ("game",), _game_json),
)


def view_json(view: View) -> dict[str, Any]:
    """A seat's view (``view.seat`` ``None``: a spectator's) as JSON."""
    return {key: make(view) for key, _, make in _VIEW_KEYS}


def view_changes(old: View, new: View) -> dict[str, Any]:
    """The keys of ``view_json(new)`` whose value differs from ``view_json(old)``, with
    their new values: what a client holding ``old`` needs (docs/protocol.md "The view in
    the events").  Only the keys whose fields changed are built; the fields are compared
    as the engine holds them (tuples of numbers, mostly the very same objects)."""
    return {key: make(new) for key, fields, make in _VIEW_GETTERS
            if fields(old) != fields(new)}


#: :data:`_VIEW_KEYS` with an ``attrgetter`` of the fields (a C call, not a Python loop).
_VIEW_GETTERS = tuple((key, attrgetter(*fields), make) for key, fields, make in _VIEW_KEYS)


def table_header(rules: Rules, names: Sequence[str]) -> dict[str, Any]:
    """What a client learns once per table: the protocol version, the whole ruleset (RULES
    §6 form) and the players' names by seat."""
    return {
        "protocol": PROTOCOL_VERSION,
        "rules": rules.to_json(),
        "players": list(names),
    }


def parse_client_message(raw: str | bytes | Mapping[str, Any]) -> TableMessage:
    """Read a message of the table protocol (JSON text or an already decoded object):
    :func:`~thousand.engine.client_messages.read_client_message` of
    :data:`~thousand.engine.client_messages.TABLE_MESSAGES`.

    ``{"type": "move", "move": "105", "version": 12}``,
    ``{"type": "sync", "version": 12}``, ``{"type": "snapshot"}``.  Anything else raises
    :class:`ProtocolError` with a message that says what is wrong; nothing is applied.  A
    frame too large, or not JSON, is told in the words this reader has always used (a bot
    in another language may look for them): "at most … bytes", "one JSON object".
    """
    try:
        return read_client_message(raw, TABLE_MESSAGES)
    except ProtocolError as e:
        if isinstance(e.__cause__, TooLarge):
            raise ProtocolError(f"a message is at most {MAX_MESSAGE_BYTES} bytes") from None
        if isinstance(e.__cause__, NotJson | TooDeep):
            raise ProtocolError("a message is one JSON object") from None
        raise


def schema() -> dict[str, Any]:
    """The protocol's JSON Schema (``protocol.schema.json``)."""
    text = resources.files("thousand.engine").joinpath("protocol.schema.json").read_text("utf-8")
    loaded: dict[str, Any] = json.loads(text)
    return loaded
