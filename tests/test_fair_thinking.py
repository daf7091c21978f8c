"""Issue 27 "Safe in public": the bots' thinking is shared fairly by address
(server/live/bot_turns.py, docs/server.md "Limits", the ``thinking`` limit).

One address lays six tables of expert bots and keeps the one bot process busy; another
address's one table of expert bots must still get its turns — about every other ask of
the process, not one in seven as first come, first served gave it.  The clients are told
apart by their loopback source address (127.0.0.x), as tests/test_public_limits.py does.
The turns' rules themselves (the caps per client, account and address; a hint first) are
checked on :class:`Turns` directly, where the order is exact.
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from live_server import serve
from test_public_limits import client, post
from thousand.server.live.bot_turns import Share, ThinkingCaps, Turns
from waiting import until

EXPERTS = [{"kind": "bot", "level": "expert"}] * 3
#: The flood's tables: with first come, first served each table (the other address's
#: too) had one ask in seven; fairly, the other address has every other one.
FLOOD = 6
#: Seconds between two looks at the tables' versions.
POLL = 0.5


@pytest.fixture
def server(tmp_path: Path) -> Iterator[str]:
    """One bot process, no pause before a bot's move: the process is the bottleneck."""
    with serve(tmp_path, "--bot-delay", "0", "--bot-processes", "1", limited=True) as base:
        yield base


def _versions(c: httpx.Client, tables: list[str]) -> list[int]:
    return [int(c.get(f"/api/tables/{t}").json()["version"]) for t in tables]


def _lay(c: httpx.Client) -> str:
    r = post(c, "/api/tables", {"seats": EXPERTS})
    assert r.status_code == 201, r.text
    return str(r.json()["table"])


def test_one_address_flooding_expert_tables_leaves_another_its_turns(server: str) -> None:
    """Address 2 lays six tables of three expert bots (within its limits) and they keep
    the bot process busy; address 3 lays one.  While address 3's table makes 12 moves
    the flood's tables make on average at most a third as many each (fairly about a
    sixth; first come, first served made them as many)."""
    with client(server, 2) as flood, client(server, 3) as other:
        assert flood.get("/api/me").status_code == 200  # a guest's session, as a page
        assert other.get("/api/me").status_code == 200
        flooded = [_lay(flood) for _ in range(FLOOD)]
        # polled twice a second: the expert bots take a good part of a second a move,
        # and each poll is requests the server answers beside them
        until(lambda: min(_versions(flood, flooded)) > 2, 180,
              "the flood's bots move", every=POLL)
        mine = _lay(other)
        until(lambda: _versions(other, [mine])[0] > 2, 120, "the other table's bots move",
              every=POLL)
        before = _versions(other, [mine, *flooded])
        until(lambda: _versions(other, [mine])[0] >= before[0] + 12, 180,
              "the other address's table made 12 moves", every=POLL)
        after = _versions(other, [mine, *flooded])
    own = after[0] - before[0]
    flood_mean = sum(a - b for a, b in zip(after[1:], before[1:], strict=True)) / FLOOD
    assert own >= 3 * flood_mean, (own, flood_mean, before, after)


# ---------------------------------------------------------------- the turns themselves


def _share(client_key: str, address: str, account: bool = False) -> Share:
    return Share(client_key, "addr:" + address, account)


def test_each_address_in_turn_and_the_new_one_first() -> None:
    """One place: an address with five asks waiting and one running, another's one ask
    comes after them and is served next; then the first address again."""

    async def main() -> list[str]:
        turns = Turns(1, 1)
        served: list[str] = []
        flood, other = _share("c:a", "a"), _share("c:b", "b")

        async def ask(share: Share, name: str) -> None:
            await turns.acquire(0, share)
            served.append(name)

        await ask(flood, "a0")
        tasks = [asyncio.create_task(ask(flood, f"a{i}")) for i in range(1, 6)]
        await asyncio.sleep(0)
        tasks.append(asyncio.create_task(ask(other, "b0")))
        await asyncio.sleep(0)
        for _ in range(3):
            turns.release(0, flood if served[-1].startswith("a") else other)
            await asyncio.sleep(0)
        for task in tasks:
            task.cancel()
        return served

    assert asyncio.run(main()) == ["a0", "b0", "a1", "a2"]


def test_no_client_nor_address_holds_more_than_its_places() -> None:
    """Four places, caps of 1 a guest, 2 an account, 3 an address: a guest's second ask
    waits while places are free, an account's third too, and a third client of the same
    address waits for its address; another address gets a place at once.  A guest's
    place freed goes to the oldest ask of that address that its client may take."""

    async def main() -> None:
        turns = Turns(1, 4, ThinkingCaps(client=1, account=2, address=3))
        guest, account = _share("c:g", "a"), _share("c:acc", "a", account=True)
        guest2, elsewhere = _share("c:g2", "a"), _share("c:x", "b")
        order: list[str] = []

        async def ask(share: Share, name: str) -> None:
            await turns.acquire(0, share)
            order.append(name)

        tasks = [asyncio.create_task(ask(s, n)) for s, n in (
            (guest, "g1"), (guest, "g2"), (account, "acc1"), (account, "acc2"),
            (account, "acc3"), (guest2, "other guest"), (elsewhere, "elsewhere"))]
        await asyncio.sleep(0)
        assert order == ["g1", "acc1", "acc2", "elsewhere"]
        assert (turns.clients["c:g"], turns.clients["c:acc"], turns.addresses["addr:a"]) \
            == (1, 2, 3)
        assert turns.waiting() == 3
        turns.release(0, guest)
        await asyncio.sleep(0)
        assert order[-1] == "g2"
        turns.release(0, elsewhere)  # a free place, but address a holds its three
        await asyncio.sleep(0)
        assert order[-1] == "g2" and turns.waiting() == 2
        for task in tasks:
            task.cancel()

    asyncio.run(main())


def test_a_hint_goes_first_and_a_cancelled_ask_leaves_its_line() -> None:
    """A person's hint is served before the bots' moves waiting; an ask cancelled while
    it waits is no longer counted (nor served)."""

    async def main() -> list[str]:
        turns = Turns(1, 1)
        bots, person = _share("c:a", "a"), _share("c:p", "p")
        served: list[str] = []

        async def ask(share: Share, name: str, urgent: bool = False) -> None:
            await turns.acquire(0, share, urgent)
            served.append(name)

        await ask(bots, "bot0")
        bot1 = asyncio.create_task(ask(bots, "bot1"))
        gone = asyncio.create_task(ask(person, "gone"))
        await asyncio.sleep(0)
        hint = asyncio.create_task(ask(bots, "hint", urgent=True))
        await asyncio.sleep(0)
        gone.cancel()
        await asyncio.sleep(0)
        assert turns.waiting() == 2
        turns.release(0, bots)
        await hint
        turns.release(0, bots)
        await bot1
        return served

    assert asyncio.run(main()) == ["bot0", "hint", "bot1"]
