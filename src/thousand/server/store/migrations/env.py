"""Alembic's environment for the server's store.

Run by :func:`thousand.server.store.tables.migrate` through Alembic's command API with a
programmatic ``Config`` (there is no ``alembic.ini``): the open connection arrives in
``config.attributes["connection"]``; without one (``alembic`` run by hand with
``-x url=...``) an engine is made from ``sqlalchemy.url``.
"""

from __future__ import annotations

from alembic import context
from sqlalchemy import create_engine
from sqlalchemy.engine import Connection

from thousand.server.store.tables import metadata


def _run(connection: Connection) -> None:
    context.configure(
        connection=connection,
        target_metadata=metadata,
        render_as_batch=connection.dialect.name == "sqlite",
        compare_type=True,
    )
    with context.begin_transaction():
        context.run_migrations()


def run_migrations_online() -> None:
    config = context.config
    connection = config.attributes.get("connection")
    if isinstance(connection, Connection):
        _run(connection)
        return
    url = context.get_x_argument(as_dictionary=True).get("url") or config.get_main_option(
        "sqlalchemy.url"
    )
    if not url:
        raise RuntimeError("no database: give -x url=... or sqlalchemy.url")
    engine = create_engine(url)
    with engine.connect() as conn:
        _run(conn)
    engine.dispose()


if context.is_offline_mode():
    raise RuntimeError("the store's migrations run online only")
run_migrations_online()
