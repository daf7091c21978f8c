"""Many workers on one PostgreSQL and one Redis: the leases of the live tables, the bus
between the workers (relays and forwarded requests) and the holdings counted over all
of them (docs/server.md "Many workers")."""
