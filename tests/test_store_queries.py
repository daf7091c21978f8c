"""The history's page reads a fixed number of queries whatever its length (issue 16,
"Speed and scale": benchmarks/site_speed.py).  A query per game for its seats made a page
of 50 games 52 round trips, and the page and its count read every table's row: with
100,000 games 100 ms on SQLite, a deep page a second."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import sqlalchemy as sa

from thousand.engine.rules import Rules
from thousand.server.store.tables import SeatRow, Store, TableRow


def test_a_page_of_the_history_is_three_queries_from_the_index(tmp_path: Path) -> None:
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
        statements: list[tuple[str, Any]] = []

        def count(*args: Any) -> None:
            statements.append((str(args[2]), args[3]))

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
        # the public page and its count read the index (listed, created, id), never every
        # table's row (a kilobyte of rules each; migration 0006)
        rows, total = store.games(20, 5, listed_only=True)
        assert total == 30 and rows[0].id == "t24"
        statements.clear()
        sa.event.listen(store.engine, "before_cursor_execute", count)
        store.games(20, 5, listed_only=True)
        sa.event.remove(store.engine, "before_cursor_execute", count)
        with store.engine.connect() as conn:
            for sql, params in statements[:2]:
                plan = " ".join(str(r[-1]) for r in conn.exec_driver_sql(
                    "EXPLAIN QUERY PLAN " + sql, params))
                assert "SCAN tables" not in plan, (sql, plan)
                assert "ix_tables_history" in plan, (sql, plan)
    finally:
        store.close()
