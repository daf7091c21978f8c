"""Accounts' name keys become confusable skeletons (docs/server.md "Players").

A name's key was its NFKC form, casefolded: «Anna» and the Greek «Αnna» had two keys, so
both could be accounts (issue 27).  The key is now ``names.name_key``, the name's Unicode
TR39 skeleton, casefolded.  Every account's key is made again; an account whose new key
is an older account's (two names that look alike, both taken before), or whose name is no
longer a valid one, keeps its old key under ``names.LEGACY_PREFIX``, so that it still
signs in (the sign-in route tries that key too) while no new name can look like it.

Revision ID: 0010
Revises: 0009
Create Date: 2026-12-07
"""

from __future__ import annotations

from collections.abc import Callable

import sqlalchemy as sa
from alembic import op

from thousand.server.names import check_person_name, legacy_key, name_key

revision: str = "0010"
down_revision: str | None = "0009"
branch_labels: str | None = None
depends_on: str | None = None

_players = sa.table("players", sa.column("id", sa.String), sa.column("name", sa.String),
                    sa.column("name_key", sa.String), sa.column("created", sa.Float))


def _rekey(new_key: Callable[[str], str | None]) -> None:
    conn = op.get_bind()
    rows = conn.execute(sa.select(_players.c.id, _players.c.name).where(
        _players.c.name_key.is_not(None)).order_by(_players.c.created, _players.c.id)).all()
    # first free every key, so that the unique index holds at each step
    conn.execute(_players.update().where(_players.c.name_key.is_not(None))
                 .values(name_key=sa.literal("#", sa.String) + _players.c.id))
    taken: set[str] = set()
    for pid, name in rows:
        key = new_key(name)
        if key is None or key in taken:
            key = legacy_key(name)
        taken.add(key)
        conn.execute(_players.update().where(_players.c.id == pid).values(name_key=key))


def _skeleton_or_none(name: str) -> str | None:
    try:
        check_person_name(name)
    except ValueError:
        return None
    key = name_key(name)
    return key if len(key) <= 64 else None


def upgrade() -> None:
    _rekey(_skeleton_or_none)


def downgrade() -> None:
    _rekey(lambda name: legacy_key(name)[1:])
