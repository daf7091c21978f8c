"""docs/server.md "Limits" is one table of every limit and cap; this test reads it and
holds it to the code's two declarations (``limits.LIMITS``: per client, account and
address; ``caps.CAPS``: per server, table, tournament, connection or request), so that a
limit added, renamed or changed in one place and not the other fails here, and to the
flags that set them (``thousand serve --limit NAME=…``, or a cap's own).  Small caps
given to a real server show that each flag reaches the code that keeps to it."""

from __future__ import annotations

import asyncio
import re
from contextlib import closing
from pathlib import Path
from typing import Any

from live_server import serve
from test_public_limits import guest, post, spectate
from thousand.server.caps import CAPS, PER
from thousand.server.limits import LIMITS, parse_caps, parse_overrides
from thousand.server.live.hub import Conn

DOCS = Path(__file__).parent.parent / "docs" / "server.md"
OTHER = "per server, table, tournament, connection or request"
COLUMNS = ["limit", "what it counts", "per client (guest)", "per account", "per address",
           OTHER, "flag"]


def _rows() -> dict[str, dict[str, str]]:
    """The Limits section's table: limit name -> {column: cell}.  The section has one
    table (its header is :data:`COLUMNS`), and each name one row."""
    section = DOCS.read_text("utf-8").split("\n## Limits\n")[1].split("\n## ")[0]
    tables = [line for line in section.splitlines() if line.startswith("| limit |")]
    assert len(tables) == 1, "docs/server.md \"Limits\" has one table of limits"
    cells = [c.strip() for c in tables[0].strip("|").split(" | ")]
    assert cells == COLUMNS
    rows: dict[str, dict[str, str]] = {}
    for line in section.splitlines():
        found = re.match(r"^\| `([a-z_0-9]+)` \| (.*) \|$", line)
        if found is None:
            continue
        cells = [found.group(1), *(c.strip() for c in re.split(r" \| ", found.group(2)))]
        assert len(cells) == len(COLUMNS), line
        assert found.group(1) not in rows, f"two rows for {found.group(1)}"
        rows[found.group(1)] = dict(zip(COLUMNS, cells, strict=True))
    return rows


def _cell(value: str) -> str:
    """How the table writes a limit's value: in backquotes; none: a dash."""
    return f"`{value}`" if value else "—"


def test_the_docs_table_is_every_limit_and_cap_with_its_default_and_flag() -> None:
    rows = _rows()
    assert set(rows) == set(LIMITS) | set(CAPS), (
        "in the docs only: " + ", ".join(sorted(set(rows) - set(LIMITS) - set(CAPS))),
        "in the code only: " + ", ".join(sorted((set(LIMITS) | set(CAPS)) - set(rows))))
    assert not set(LIMITS) & set(CAPS), "a limit and a cap of one name"
    for name, limit in LIMITS.items():
        row = rows[name]
        assert row["per client (guest)"] == _cell(limit.client), name
        assert row["per account"] == _cell(limit.account), name
        assert row["per address"] == _cell(limit.address), name
        assert row[OTHER] == "—", name
        assert row["flag"] == f"`--limit {name}=…`", name
    for name, cap in CAPS.items():
        row = rows[name]
        assert cap.per in PER, name
        assert [row[c] for c in COLUMNS[2:5]] == ["—"] * 3, name
        assert row[OTHER] == f"`{cap.value}` ({cap.per})", name
        assert row["flag"] == f"`{cap.flag or f'--limit {name}=…'}`", name


def test_every_flag_of_the_table_sets_its_limit() -> None:
    """``--limit NAME=…`` changes each limit and each cap without a flag of its own; a
    cap's own flag is an option of ``thousand serve`` whose default is the cap's."""
    for name, limit in LIMITS.items():
        value = "7" if limit.client.isdigit() else "7/minute"
        assert parse_overrides([f"{name}={value}"])[name].client == value
    options = _serve_defaults()
    for name, cap in CAPS.items():
        if cap.flag:
            assert options[cap.flag] == cap.value, name
        else:
            assert parse_caps([f"{name}={cap.value + 1}"])[name] == cap.value + 1


def _serve_defaults() -> dict[str, object]:
    """``thousand serve``'s options (as its ``--help`` shows them) and their defaults."""
    import typer

    from thousand.cli import app, serve_cmd

    assert serve_cmd.serve_command is not None  # imported: the command is on the app
    commands: dict[str, Any] = getattr(typer.main.get_command(app), "commands", {})
    return {opt: param.default for param in commands["serve"].params for opt in param.opts}


def test_the_caps_flags_reach_a_real_server(tmp_path: Path) -> None:
    """A real ``thousand serve --limit upload_bytes=1000 --limit body_bytes=300 --limit
    entries=3 --limit watchers=1`` keeps to those caps, not to the defaults: a record of
    1,500 bytes is refused (413) where a smaller body is read, so is a name's body of 400
    bytes, a tournament's fourth entry is refused (409 ``full``), and a table's second
    spectator is turned away (4429)."""
    caps = ("--limit", "upload_bytes=1000", "--limit", "body_bytes=300",
            "--limit", "entries=3", "--limit", "watchers=1")
    with serve(tmp_path, *caps, limited=True) as base:
        with closing(guest(base, 2, "Хозяин")) as c:
            headers = {"Content-Type": "application/json",
                       "X-CSRF-Token": c.cookies.get("thousand_csrf") or ""}
            big = c.post("/api/replay", content=b'{"pad": "' + b"x" * 1500 + b'"}',
                         headers=headers)
            small = c.post("/api/replay", content=b'{"pad": "x"}', headers=headers)
            assert (big.status_code, small.status_code) == (413, 400), (big.text, small.text)
            assert post(c, "/api/me/name", {"name": "x" * 400}).status_code == 413
            made = post(c, "/api/tournaments", {"name": "Малый кубок", "rounds": 1})
            assert made.status_code == 201, made.text
            tid = made.json()["id"]
            laid = post(c, "/api/tables", {"seats": [{"kind": "human"}] * 3})
            assert laid.status_code == 201, laid.text
            table = laid.json()["table"]
        codes = [post(guest(base, n, f"Игрок {n}"), f"/api/tournaments/{tid}/register")
                 .status_code for n in (3, 4, 5)]
        assert codes == [200, 200, 409], codes

        async def main() -> list[str]:
            both = [await spectate(base, table, 6), await spectate(base, table, 7)]
            await asyncio.gather(*(ws.close() for ws, _ in both))
            return [m.get("code", m["type"]) for _, m in both]

        assert asyncio.run(main()) == ["snapshot", "too_many_watchers"]


def test_a_connection_past_its_behind_cap_is_closed() -> None:
    """``behind`` (the application gives each table WebSocket the hub's): the message
    past it closes the connection instead of queueing without end."""
    conn = Conn(None, behind=2)
    for n in range(2):
        conn.send({"type": "n", "n": n})
    assert not conn.closed
    conn.send({"type": "n", "n": 2})
    assert conn.closed and conn.queue.qsize() == 3  # the two, and the end
