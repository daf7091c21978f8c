"""docs/protocol.md "The view in the events": every ``events`` message after a move carries
the changes of its audience's view (``view`` against the version ``base``), so that a page
never asks for a snapshot after a move.

Whole games over a real server and real WebSockets, driven by nothing but the patched
views (the seat to move and its legal moves come from them): at every version each seat's
and a spectator's patched view is exactly the view a snapshot gives there (the stored move
log replayed), no patch names a card its seat may not see, and one seat that connects again
mid-game goes on patching from its new snapshot.
"""

from __future__ import annotations

import asyncio
import json
import random
from pathlib import Path
from typing import Any

import fastjsonschema
import pytest

from test_invariants import allowed_cards
from test_server import Client, Server, new_table
from test_table import _DEFS, RULESETS, cards_in, check
from thousand.engine.protocol import view_changes, view_json
from thousand.engine.rules import Rules
from thousand.engine.table import Table
from thousand.server.store.tables import Store

Msg = dict[str, Any]
EVENTS_MESSAGE = fastjsonschema.compile({**_DEFS, "$ref": "#/definitions/events_message"})


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Any:
    path: Path = tmp_path_factory.mktemp("patches") / "games.db"
    with Server(f"sqlite:///{path}") as s:
        yield s


class Held:
    """What one connection holds, as the page does: the view and its version, built from
    the first snapshot and then from the events' patches alone."""

    def __init__(self, snap: Msg) -> None:
        self.version: int = snap["version"]
        self.view: Msg = snap["view"]
        self.over: bool = snap["over"]
        self.winner: Any = snap["winner"]
        self.rematch: Any = snap["rematch"]
        self.views: dict[int, Msg] = {self.version: self.view}  # every version held
        self.patches: dict[int, Msg] = {}

    def apply(self, msg: Msg) -> None:
        assert "view" in msg and "base" in msg, f"an events message with no view: {msg}"
        EVENTS_MESSAGE(msg)  # protocol.schema.json
        assert msg["base"] == self.version, (
            f"a patch against {msg['base']} for a page at {self.version}")
        assert set(msg["view"]) <= set(self.view), "a patch of keys a view does not have"
        self.view = {**self.view, **msg["view"]}
        self.version = msg["version"]
        self.over = msg.get("over", self.over)
        self.winner = msg.get("winner", self.winner)
        assert ("rematch" in msg) == (msg.get("over") is True), "the rematch comes with the end"
        self.rematch = msg.get("rematch", self.rematch)
        self.views[self.version] = self.view
        self.patches[self.version] = msg["view"]


async def _events_after(client: Client, version: int) -> Msg:
    return await client.expect(lambda m: m["type"] == "events" and m["version"] > version)


async def _play(server: Server, table: str, tokens: dict[int, str], rng: random.Random,
                ) -> dict[Any, Held]:
    clients: dict[Any, Client] = {
        s: await Client.connect(server, table, tok, seat=s, sync=False)
        for s, tok in tokens.items()}
    clients[None] = await Client.connect(server, table, sync=False)
    held: dict[Any, Held] = {}
    for s, c in clients.items():
        assert c.snap is not None
        held[s] = Held(c.snap)
    again = rng.randrange(5, 40)  # the move before which seat 0 connects again
    moves = 0
    while not held[None].over:
        if moves == again:
            await clients[0].close()
            clients[0] = await Client.connect(server, table, tokens[0], seat=0, sync=False)
            assert clients[0].snap is not None
            fresh = Held(clients[0].snap)
            fresh.views = {**held[0].views, **fresh.views}
            fresh.patches = held[0].patches
            held[0] = fresh
        public = held[None]
        seat = public.view["to_move"]
        mine = held[seat]
        assert mine.version == public.version and mine.view["to_move"] == seat
        move = rng.choice(mine.view["legal"])
        await clients[seat].send({"type": "move", "move": move, "version": mine.version})
        for s, c in clients.items():
            held[s].apply(await _events_after(c, public.version))
        moves += 1
    for s, c in clients.items():  # at the end: what a snapshot says, to the letter
        snap = await c.snapshot()
        assert snap["version"] == held[s].version
        assert snap["view"] == held[s].view, f"seat {s}: the patched view is not the view"
        assert (snap["over"], snap["winner"]) == (held[s].over, held[s].winner)
        assert snap["rematch"] == held[s].rematch is not None
        await c.close()
    return held


@pytest.mark.parametrize("preset", ["classic", "house", "textbook"])
def test_patched_views_are_the_snapshots_views_at_every_version(server: Server,
                                                                preset: str) -> None:
    rng = random.Random(f"patches/{preset}")
    table, tokens = new_table(server, preset, options={"max_deals": 2})
    held = asyncio.run(_play(server, table, tokens, rng))

    store = Store(server.db_url)
    try:
        row = store.load(table)
    finally:
        store.close()
    assert row is not None
    shadow = Table(Rules.from_json(row.rules), row.names, row.first_dealer, row.seed)
    checked = 0

    def compare() -> None:
        nonlocal checked
        game = shadow.game
        deal = game.deal if game.deal is not None else game.last_finished_deal()
        for s, h in held.items():
            want = json.loads(json.dumps(view_json(shadow.view(s))))
            got = h.views.get(shadow.version)
            if got is None:
                continue
            assert got == want, f"seat {s} at version {shadow.version}: not the view"
            check("view", got)
            patch = h.patches.get(shadow.version, {})
            leaked = cards_in(patch) & ~allowed_cards(deal, s)
            assert not leaked, f"a patch shows seat {s} a card it may not see: {patch}"
            checked += 1

    compare()
    for move in row.moves:
        shadow.submit(shadow.to_move, move, shadow.version)  # type: ignore[arg-type]
        compare()
    assert shadow.over and held[None].over
    assert held[None].winner == shadow.game.winner
    # every audience held a view at every version it was told of (a look and its move
    # are one message: two versions, one view), and each was compared
    told = set(held[None].views)
    assert all(set(h.views) == told for h in held.values())
    assert checked == len(told) * len(held) and len(told) > 20


@pytest.mark.parametrize("ruleset", sorted(RULESETS))
def test_view_changes_are_exactly_the_keys_that_changed(ruleset: str) -> None:
    """``protocol.view_changes`` (what the server sends, built from the engine's fields)
    is, after every move of random games of every ruleset and for every seat and a
    spectator, exactly the keys of ``view_json`` whose value changed, with their values."""
    rules = RULESETS[ruleset]
    rng = random.Random(f"changes/{ruleset}")
    for game in range(3):
        table = Table(rules, [f"P{i}" for i in range(rules.players)], game % rules.players)
        audiences: list[int | None] = [*range(rules.players), None]
        views = {s: table.view(s) for s in audiences}
        while not table.over:
            seat = table.to_move
            assert seat is not None
            table.submit(seat, rng.choice(table.view(seat).legal), table.version)
            for s in audiences:
                new = table.view(s)
                old_json, new_json = view_json(views[s]), view_json(new)
                want = {k: v for k, v in new_json.items() if old_json[k] != v}
                assert view_changes(views[s], new) == want, (ruleset, s, table.version)
                views[s] = new
