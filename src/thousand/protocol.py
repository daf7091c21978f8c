"""The wire form of the table protocol: a seat's view, events and errors as JSON.

Every front end (the terminal, the browser, a bot in another language, the research
environments) sees the game through these plain values, never through engine objects:

* cards and moves in record notation (RULES §6: ``"AH"``, ``"105"``, ``"give 9S"``), suits
  as letters, phases by name, ``null`` for "none" (never ``-1``);
* the rules travel once per table (:func:`table_header`), not in every view;
* events and errors are built by :mod:`thousand.table`; this module turns views into
  JSON and reads what a client sends (:func:`parse_client_message`).

docs/protocol.md describes every message; ``protocol.schema.json`` beside this module is
its JSON Schema, checked by the tests against every message of whole games.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from importlib import resources
from typing import Any

from . import moves as mv
from .cards import SUITS, Card, Mask, card_str, cards_of
from .deal import PHASE_NAMES, DealResult
from .rules import Rules
from .view import View

__all__ = [
    "PROTOCOL_VERSION",
    "ClientMessage",
    "ProtocolError",
    "cards_json",
    "parse_client_message",
    "result_json",
    "schema",
    "table_header",
    "view_json",
]

#: The protocol's version, sent in every table header.
PROTOCOL_VERSION = 1

#: The longest client message read (a move is a few bytes; this bounds hostile input).
MAX_MESSAGE_BYTES = 4096


class ProtocolError(ValueError):
    """A client message that is not a message: its ``code`` is ``malformed``."""

    code = "malformed"


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


def view_json(view: View) -> dict[str, Any]:
    """A seat's view (``view.seat`` ``None``: a spectator's) as JSON."""
    out: dict[str, Any] = {
        "seat": view.seat,
        "phase": PHASE_NAMES[view.phase],
        "dealer": view.dealer,
        "opener": view.opener,
        "active": list(view.active),
        "golden": view.golden,
        "to_move": None if view.result is not None else view.to_move,
        "hand": cards_json(view.hand),
        "hand_sizes": list(view.hand_sizes),
        "talon": cards_json(view.talon),
        "talon_known": cards_json(view.talon_known),
        "cut": [_card(c) for c in view.cut],
        "auction": [{"seat": s, "move": mv.move_str(m)} for s, m in view.auction],
        "high_bid": view.high_bid or None,
        "high_bidder": _seat(view.high_bidder),
        "passed": list(view.passed),
        "dark_bidder": _seat(view.dark_bidder),
        "dark": view.dark,
        "declarer": _seat(view.declarer),
        "bid": view.bid or None,
        "contract": view.contract or None,
        "buys": [{"seat": s, "price": p} for s, p in view.buys],
        "buy_price": view.buy_price,
        "given": [{"to": to, "card": _card(c)} for c, to in view.given],
        "discards": cards_json(view.discards),
        "trump": _suit(view.trump),
        "trump_declarer": _seat(view.trump_declarer),
        "trick": [{"seat": s, "card": card_str(c)} for s, c in view.trick],
        "tricks": [
            {
                "leader": t.leader,
                "cards": [{"seat": s, "card": card_str(c)} for s, c in t.cards],
                "winner": t.winner,
                "points": t.points,
            }
            for t in view.tricks
        ],
        "declarations": [
            {"seat": d.seat, "kind": d.kind, "suit": SUITS[d.suit], "points": d.points,
             "trick": d.trick}
            for d in view.declarations
        ],
        "taken": list(view.taken),
        "tricks_won": list(view.tricks_won),
        "bonus": list(view.bonus),
        "legal": [mv.move_str(m) for m in view.legal],
        "history": list(view.history),
        "result": None if view.result is None else result_json(view.result),
        "game": None,
    }
    g = view.game
    if g is not None:
        out["game"] = {
            "deal": g.deal_number,
            "scores": list(g.scores),
            "on_barrel": list(g.on_barrel),
            "barrel_deals_left": list(g.barrel_deals_left),
            "bolts": list(g.bolts),
            "concedes": list(g.concedes),
            "falls": list(g.falls),
            "golden": g.golden,
        }
    return out


def table_header(rules: Rules, names: Sequence[str]) -> dict[str, Any]:
    """What a client learns once per table: the protocol version, the whole ruleset (RULES
    §6 form) and the players' names by seat."""
    return {
        "protocol": PROTOCOL_VERSION,
        "rules": rules.to_json(),
        "players": list(names),
    }


class ClientMessage:
    """One message from a client: ``move`` (a move in notation against a version),
    ``sync`` (the events after a version), or ``snapshot``."""

    __slots__ = ("move", "type", "version")

    def __init__(self, type_: str, move: str | None = None, version: int | None = None):
        self.type = type_
        self.move = move
        self.version = version


def _strict_object(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, value in pairs:
        if key in out:
            raise ProtocolError(f"the key {key!r} is given twice")
        out[key] = value
    return out


def _version(obj: Mapping[str, Any]) -> int:
    v = obj.get("version")
    if isinstance(v, bool) or not isinstance(v, int) or not 0 <= v < 2**31:
        raise ProtocolError("version must be a whole number from 0 (the table's version)")
    return v


def parse_client_message(raw: str | bytes | Mapping[str, Any]) -> ClientMessage:
    """Read a client message (JSON text or an already decoded object).

    ``{"type": "move", "move": "105", "version": 12}``,
    ``{"type": "sync", "version": 12}``, ``{"type": "snapshot"}``.  Anything else raises
    :class:`ProtocolError` with a message that says what is wrong; nothing is applied.
    """
    if isinstance(raw, str | bytes):
        if len(raw) > MAX_MESSAGE_BYTES:
            raise ProtocolError(f"a message is at most {MAX_MESSAGE_BYTES} bytes")
        try:
            obj = json.loads(raw, object_pairs_hook=_strict_object)
        except (ValueError, RecursionError) as e:
            if isinstance(e, ProtocolError):
                raise
            raise ProtocolError("a message is one JSON object") from None
    else:
        obj = raw
    if not isinstance(obj, Mapping):
        raise ProtocolError("a message is one JSON object")
    kind = obj.get("type")
    allowed = {"move": {"type", "move", "version"}, "sync": {"type", "version"},
               "snapshot": {"type"}}
    if kind not in allowed:
        raise ProtocolError("type must be move, sync or snapshot")
    extra = set(obj) - allowed[kind]
    if extra:
        raise ProtocolError(f"unknown key {sorted(extra)[0]!r} in a {kind} message")
    if kind == "snapshot":
        return ClientMessage("snapshot")
    version = _version(obj)
    if kind == "sync":
        return ClientMessage("sync", version=version)
    move = obj.get("move")
    if not isinstance(move, str) or not move or len(move) > 32:
        raise ProtocolError("move must be a move in notation, e.g. \"105\", \"pass\", \"AH\"")
    return ClientMessage("move", move=move, version=version)


def schema() -> dict[str, Any]:
    """The protocol's JSON Schema (``protocol.schema.json``)."""
    text = resources.files("thousand").joinpath("protocol.schema.json").read_text("utf-8")
    loaded: dict[str, Any] = json.loads(text)
    return loaded
