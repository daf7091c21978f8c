"""The store's Alembic migrations (run by :func:`thousand.server.store.tables.migrate`)."""
