"""The table protocol (docs/protocol.md): a table takes moves from seats against a version,
answers with events that name their audience, refuses everything else with a code and
changes nothing, hides what a seat may not see, rebuilds itself from its record or log,
and clones and undoes without touching another copy.

Whole random games of every preset go through the JSON form of every message, and the
protocol's JSON Schema checks each of them.
"""

from __future__ import annotations

import json
import random
from typing import Any

import fastjsonschema
import jsonschema
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from depth import examples
from test_invariants import allowed_cards
from thousand.engine import moves as mv
from thousand.engine.cards import parse_card
from thousand.engine.deal import Deal
from thousand.engine.protocol import parse_client_message, schema
from thousand.engine.rules import PRESET_NAMES, Rules
from thousand.engine.table import EVENT_TYPES, Table, TableError, audience_includes

SCHEMA = schema()
_DEFS = {k: v for k, v in SCHEMA.items() if k != "oneOf"}
#: One compiled validator per kind of message (fastjsonschema: the games below send
#: thousands of messages, each checked).
PART = {name: fastjsonschema.compile({**_DEFS, "$ref": f"#/definitions/{name}"})
        for name in ("snapshot", "event", "error", "client_message", "view")}

RULESETS = {
    **{p: Rules.preset_rules(p, max_deals=4) for p in PRESET_NAMES},
    "buyout": Rules.preset_rules("classic", talon_buy=True, concede=True, dark=True,
                                 first_bidder="dealer", cut_nines=True, max_deals=4),
}
SEATS_AND_SPECTATOR = (0, 1, 2, 3, None)


def check(name: str, message: Any) -> Any:
    """The message as a client receives it (through JSON) and valid by the schema."""
    wire = json.loads(json.dumps(message, ensure_ascii=False))
    try:
        PART[name](wire)
    except fastjsonschema.JsonSchemaException as e:
        raise AssertionError(f"{name} does not fit the schema: {e.message} in {wire}") from None
    return wire


def cards_in(value: Any) -> int:
    """Every card named anywhere in a JSON value, as a mask."""
    found = 0
    if isinstance(value, str) and len(value) == 2 and value[0] in "9JQKTA" and value[1] in "SCDH":
        return 1 << parse_card(value)
    if isinstance(value, str) and value.startswith(("give ", "discard ")):
        return cards_in(value.split()[1])
    if isinstance(value, dict):
        for k, v in value.items():
            if k not in ("type", "audience", "phase", "kind", "suit", "trump", "reason"):
                found |= cards_in(v)
    elif isinstance(value, list):
        for v in value:
            found |= cards_in(v)
    return found


def refused(table: Table, code: str, seat: Any, move: Any, version: Any) -> TableError:
    """A refused message raises its code and changes nothing, for anybody."""
    before = [json.dumps(table.snapshot(s)) for s in range(table.game.n)]
    log = len(table.log)
    with pytest.raises(TableError) as err:
        table.submit(seat, move, version)
    assert err.value.code == code, err.value
    check("error", err.value.to_json())
    assert [json.dumps(table.snapshot(s)) for s in range(table.game.n)] == before
    assert len(table.log) == log
    return err.value


def accepted(table: Table, seat: int, move: str) -> bool:
    try:
        table.clone().submit(seat, move, table.version)
    except TableError:
        return False
    return True


class Client:
    """A client that knows only what the table sent it: it rebuilds its view's public parts
    from events alone (the protocol's promise that events say everything that happens)."""

    def __init__(self, seat: int | None, n: int) -> None:
        self.seat = seat
        self.n = n
        self.scores = [0] * n
        self.new_deal()

    def new_deal(self) -> None:
        self.hand: list[str] | None = None
        self.talon: list[str] | None = None
        self.trick: list[dict[str, Any]] = []
        self.tricks: list[list[dict[str, Any]]] = []
        self.declarer: int | None = None
        self.contract: int | None = None
        self.trump: str | None = None
        self.auction: list[dict[str, Any]] = []
        self.cut: list[str | None] = []
        self.buys: list[dict[str, int]] = []

    def apply(self, e: dict[str, Any]) -> None:
        t = e["type"]
        if t == "deal_started":
            self.new_deal()
        elif t == "cut":
            self.cut = e["cards"]
        elif t == "hand":
            self.hand = e["cards"]
        elif t in ("bid", "dark") or (t == "pass" and e["phase"] == "auction"):
            move = "dark" if t == "dark" else "pass" if t == "pass" else str(e["value"])
            self.auction.append({"seat": e["seat"], "move": move})
        elif t == "redeal" and e["phase"] == "auction":
            self.auction.append({"seat": e["seat"], "move": "redeal"})
        elif t == "declarer":
            self.declarer, self.contract = e["seat"], e["bid"]
        elif t == "talon":
            self.talon = e["cards"]
        elif t == "buy":
            self.declarer, self.contract = e["seat"], e["price"]
            self.buys.append({"seat": e["seat"], "price": e["price"]})
        elif t == "give" and self.hand is not None and e["card"] is not None:
            if e["seat"] == self.seat:
                self.hand.remove(e["card"])
            elif e["to_seat"] == self.seat:
                self.hand.append(e["card"])
        elif t == "discard" and e["card"] is not None and self.hand is not None:
            self.hand.remove(e["card"])
        elif t == "contract":
            self.contract = e["value"]
        elif t == "card":
            self.trick.append({"seat": e["seat"], "card": e["card"]})
            if e["seat"] == self.seat and self.hand is not None:
                self.hand.remove(e["card"])
        elif t == "declaration" and e["trump"] is not None:
            self.trump = e["trump"]
        elif t == "trick":
            self.tricks.append(e["cards"])
            self.trick = []
        elif t == "deal_scored":
            self.scores = e["scores"]
        elif t in ("fall_reset", "samosval", "bolt_samosval", "golden_restart"):
            pass  # their effect is in the scores of the next deal_scored, or below
        if t in ("barrel_on", "fall", "knocked_off", "barrel_timeout", "penalty", "samosval",
                 "bolt_samosval", "fall_reset", "golden_restart", "game_over"):
            pass

    def agrees_with(self, view: dict[str, Any]) -> None:
        assert sorted(self.hand or []) == sorted(view["hand"] or []), "hand"
        if view["talon"] is not None or self.talon is not None:
            assert sorted(self.talon or []) == sorted(view["talon"] or []), "talon"
        assert self.trick == view["trick"], "trick"
        assert self.tricks == [t["cards"] for t in view["tricks"]], "tricks"
        assert self.declarer == view["declarer"], "declarer"
        assert self.contract == view["contract"], "contract"
        assert self.trump == view["trump"], "trump"
        assert self.auction == view["auction"], "auction"
        assert self.cut == view["cut"], "cut"
        assert self.buys == view["buys"], "buys"


def play(table: Table, rng: random.Random, steps: int | None = None, *, hostile: bool = True,
         clients: dict[Any, Client] | None = None) -> None:
    """Random legal play through the JSON form; at each step a wrong message of every kind
    is refused first (out of turn, stale version, malformed, illegal)."""
    n = table.game.n
    done = 0
    while not table.over and (steps is None or done < steps):
        seat = table.to_move
        assert seat is not None
        view = check("view", table.view_json(seat))
        legal = view["legal"]
        assert legal
        if hostile and rng.random() < 0.3:
            other = (seat + 1) % n
            refused(table, "not_your_turn", other, legal[0], table.version)
            refused(table, "stale_version", seat, legal[0], table.version + 1)
            if table.version:
                refused(table, "stale_version", seat, legal[0], table.version - 1)
            refused(table, "malformed", seat, rng.choice(["", "1e9", "²", "give", "KX", "+"]),
                    table.version)
            refused(table, "malformed", seat, rng.choice([1.5, True, None, -3, [1]]),
                    table.version)
            refused(table, "no_such_seat", rng.choice([7, -1]), legal[0], table.version)
            wrong = [m for m in ("pass", "100", "AH", "KH+", "give 9S", "buy", "concede",
                                 "contract 400", "dark", "redeal") if m not in legal]
            if view["phase"] == "dark choice":  # a bid there is the look and the bid
                wrong = [m for m in wrong if not accepted(table, seat, m)]
            err = refused(table, "illegal_move", seat, rng.choice(wrong), table.version)
            assert err.params["code"] and err.params["move"]
        move = rng.choice(legal)
        deal = table.game.deal
        assert deal is not None
        message = json.dumps({"type": "move", "move": move, "version": table.version})
        check("client_message", json.loads(message))
        events = table.submit_json(seat, message)
        assert events and all(e["type"] in EVENT_TYPES for e in events)
        check_events(table, deal, events, clients)
        done += 1


def check_events(table: Table, deal: Deal, events: list[dict[str, Any]],
                 clients: dict[Any, Client] | None) -> None:
    """Every event fits the schema, and no event shows a seat a card it may not see."""
    current = deal
    for e in events:
        check("event", e)
        if e["type"] == "deal_started":
            current = table.game.deal if table.game.deal is not None else current
        for s in SEATS_AND_SPECTATOR:
            if s is not None and s >= table.game.n:
                continue
            if audience_includes(e["audience"], s):
                leaked = cards_in(e) & ~allowed_cards(current, s)
                assert not leaked, f"seat {s} is told a card it may not see: {e}"
                if clients is not None:
                    clients[s].apply(e)


@pytest.mark.parametrize("name", sorted(RULESETS))
@settings(max_examples=examples(1, 8), deadline=None,
          suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1))
def test_whole_games_through_the_protocol(name: str, seed: int) -> None:
    """docs/protocol.md: three (four) seats and a spectator play whole games of every preset
    through JSON; wrong messages are refused with their code and change nothing; no event or
    view shows a card its seat may not see; a client that knows only the events it received
    rebuilds the view the table holds."""
    rng = random.Random(seed)
    table = Table(RULESETS[name], seed=seed)
    n = table.game.n
    clients = {s: Client(s, n) for s in (*range(n), None)}
    for s, c in clients.items():
        for e in table.events_since(s, -1):
            c.apply(e)
    check_events(table, table.game.deal, [], None)  # type: ignore[arg-type]
    while not table.over:
        play(table, rng, steps=1, clients=clients)
        for s, c in clients.items():
            if table.game.deal is not None:
                view = check("view", table.view_json(s))
                leaked = cards_in(view) & ~allowed_cards(table.game.deal, s)
                assert not leaked, f"seat {s}'s view shows a card it may not see"
                c.agrees_with(view)
    for s in clients:
        snap = check("snapshot", table.snapshot(s))
        assert snap["over"] and snap["version"] == table.version
    refused(table, "game_over", 0, "pass", table.version)


def test_events_since_a_version_are_what_was_missed() -> None:
    """docs/protocol.md "Reconnecting": a client that missed events asks for those after its
    version and gets exactly them, in order, for its seat only."""
    table = Table(Rules.preset_rules("classic"), seed=3)
    rng = random.Random(3)
    play(table, rng, steps=20, hostile=False)
    mark = table.version
    seen = len(table.log)
    play(table, rng, steps=15, hostile=False)
    for s in (0, 1, 2, None):
        missed = table.events_since(s, mark)
        assert missed == [e for e in table.log[seen:] if audience_includes(e["audience"], s)]
        assert all(e["v"] > mark for e in missed)
    with pytest.raises(TableError) as err:
        table.events_since(0, table.version + 5)
    assert err.value.code == "stale_version"


@pytest.mark.parametrize("name", sorted(RULESETS))
@settings(max_examples=examples(2, 5), deadline=None,
          suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1), cut=st.floats(0, 1))
def test_restored_table_plays_on_as_if_never_stopped(name: str, seed: int, cut: float) -> None:
    """A table restored from its record (with its seed) or its log at any move, mid-deal
    included, plays on into the next deals exactly as the uninterrupted one: the same
    versions, events, cards and scores."""
    whole = Table(RULESETS[name], seed=seed)
    play(whole, random.Random(seed), hostile=False)
    k = int(cut * len(whole.moves))
    part = Table(RULESETS[name], whole.names, whole.game.first_dealer, seed)
    for m in whole.moves[:k]:
        part.submit(part.to_move, m, part.version)  # type: ignore[arg-type]
    for restored in (
        Table.from_record(part.to_record(with_seed=True)),
        Table.from_moves(part.rules, part.names, part.game.first_dealer, seed, part.moves),
    ):
        assert restored.version <= part.version  # a record does not keep a pending look
        if restored.version < part.version:
            assert part.moves[-1] == "look"
            restored.submit(restored.to_move, "look", restored.version)  # type: ignore[arg-type]
        assert restored.log == part.log
        for m in whole.moves[k:]:
            restored.submit(restored.to_move, m, restored.version)  # type: ignore[arg-type]
        assert restored.log == whole.log
        assert restored.game.scores == whole.game.scores
        assert restored.game.winner == whole.game.winner
        assert restored.to_record() == whole.to_record()


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(name=st.sampled_from(sorted(RULESETS)), seed=st.integers(0, 2**32 - 1),
       at=st.integers(1, 400), back=st.integers(1, 60))
def test_clone_undo_apply_leaves_the_original(name: str, seed: int, at: int, back: int) -> None:
    """A clone that undoes moves (across the end of a deal too) and plays on leaves the
    original exactly as it was; undoing and replaying the same moves gives the same table."""
    rng = random.Random(seed)
    table = Table(RULESETS[name], seed=seed)
    play(table, rng, steps=at, hostile=False)
    before = [json.dumps(table.snapshot(s)) for s in (*range(table.game.n), None)]
    log, moves = list(table.log), list(table.moves)
    copy = table.clone()
    back = min(back, len(copy.moves))
    for _ in range(back):
        copy.undo()
    assert copy.version == table.version - back
    assert copy.log == [e for e in log if e["v"] <= copy.version]
    play(copy, random.Random(seed + 1), steps=30, hostile=False)
    assert [json.dumps(table.snapshot(s)) for s in (*range(table.game.n), None)] == before
    assert table.log == log and table.moves == moves
    # undo then replay the same moves: the same table
    again = table.clone()
    for _ in range(back):
        again.undo()
    for m in moves[len(moves) - back:]:
        again.submit(again.to_move, m, again.version)  # type: ignore[arg-type]
    assert again.log == table.log
    assert [json.dumps(again.snapshot(s)) for s in (*range(table.game.n), None)] == before


def test_dark_choice_counts_the_look_as_its_own_version() -> None:
    """docs/protocol.md "look": a bid sent in the dark choice is the look and the bid, two
    versions, as the look then the bid would be; the look shows the seat its hand."""
    r = Rules.preset_rules("classic", dark=True)
    a, b = Table(r, seed=1, first_dealer=0), Table(r, seed=1, first_dealer=0)
    assert a.view(1).legal == (mv.DARK, mv.LOOK)
    a.submit(1, "100", 0)
    b.submit(1, "look", 0)
    hand = [e for e in b.log if e["type"] == "hand" and e["v"] == 1]
    assert hand and hand[0]["audience"] == {"seats": [1]}
    b.submit(1, "100", 1)
    assert a.version == b.version == 2 and a.log == b.log
    err = refused(Table(r, seed=1, first_dealer=0), "illegal_move", 1, "pass", 0)
    assert err.params["code"] == "first_bid_compulsory"


def test_client_messages_are_checked() -> None:
    """docs/protocol.md "Client messages": anything but a move, sync or snapshot object is
    malformed, with a message saying what is wrong."""
    assert parse_client_message('{"type":"move","move":"105","version":3}').move == "105"
    for raw, why in [
        ("[]", "one JSON object"),
        ("{", "one JSON object"),
        ('{"type":"move","move":"105"}', "version"),
        ('{"type":"move","move":"105","version":1,"version":2}', "twice"),
        ('{"type":"move","move":105,"version":1}', "move must be"),
        ('{"type":"move","move":"105","version":true}', "version"),
        ('{"type":"jump"}', "type must be"),
        ('{"type":"snapshot","x":1}', "unknown key"),
        ("[" * 3000, "one JSON object"),
        ("[" * 5000, "at most"),
        ("x" * 10_000, "at most"),
    ]:
        with pytest.raises(ValueError, match=why):
            parse_client_message(raw)


def test_the_schema_is_a_schema_and_rejects_a_leaky_shape() -> None:
    """The JSON Schema of docs/protocol.md is valid and strict: an event with an unknown
    field or a card written another way does not fit."""
    jsonschema.Draft7Validator.check_schema(SCHEMA)
    good = {"type": "card", "audience": "all", "v": 3, "seat": 1, "card": "AH", "declare": False}
    PART["event"](good)
    for bad in ({**good, "hand": ["KS"]}, {**good, "card": "10H"}, {**good, "seat": -1}):
        with pytest.raises(fastjsonschema.JsonSchemaException):
            PART["event"](bad)
