"""The history's page reads a fixed number of queries whatever its length (issue 16,
"Speed and scale": benchmarks/site_speed.py).  A query per game for its seats made a page
of 50 games 52 round trips: 20 ms on SQLite, more over a network to PostgreSQL."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import sqlalchemy as sa

from thousand.rules import Rules
from thousand.server.store import SeatRow, Store, TableRow


def test_a_page_of_the_history_is_three_queries_with_every_seat(tmp_path: Path) -> None:
    store = Store(f"sqlite:///{tmp_path / 'store.db'}")
    try:
        rules = Rules.preset_rules("classic").to_json()
        for i in range(30):
            store.create_table(TableRow(
                id=f"t{i:02d}", created=1000.0 + i, preset="classic", rules=rules,
                names=[f"А{i}", "Б", "В"], first_dealer=0, seed=i, clock=None,
                status="over", listed=True,
                seats=[SeatRow(0, "human", None, f"А{i}", None, f"p{i}"),
                       SeatRow(1, "bot", "heuristic", "Б"),
                       SeatRow(2, "bot", "random", "В")]))
        statements: list[str] = []

        def count(*args: Any) -> None:
            statements.append(str(args[2]))

        sa.event.listen(store.engine, "before_cursor_execute", count)
        rows, total = store.games(20, 5)
        sa.event.remove(store.engine, "before_cursor_execute", count)
        assert total == 30
        assert [r.id for r in rows] == [f"t{i:02d}" for i in range(24, 4, -1)]
        for r in rows:
            i = int(r.id[1:])
            assert [(s.seat, s.kind, s.level, s.name, s.player_id) for s in r.seats] == [
                (0, "human", None, f"А{i}", f"p{i}"), (1, "bot", "heuristic", "Б", None),
                (2, "bot", "random", "В", None)]
        assert len(statements) <= 3, statements
    finally:
        store.close()
