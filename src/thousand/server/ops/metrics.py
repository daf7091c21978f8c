"""The server's Prometheus metrics (``GET /metrics``, docs/server.md "Metrics").

Every metric carries the ``worker`` label (:func:`thousand.server.ops.worker.worker_id`), so
that one Prometheus scraping many workers tells them apart and sums them.  The metrics
live in a registry of their own (:data:`REGISTRY`), not in prometheus-client's global
one: ``/metrics`` shows the game server's numbers, and a program that embeds the server
keeps its own registry to itself.  The process's own numbers (CPU, memory, open files)
are there too, from prometheus-client's process and platform collectors.

The hub and the routes call the small functions below (``metrics.move_done(seconds,
"person")``) and never touch a metric object: what is measured, and how, stays here.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Literal

from prometheus_client import (
    CONTENT_TYPE_LATEST,
    CollectorRegistry,
    Counter,
    Gauge,
    Histogram,
    disable_created_metrics,
    generate_latest,
)
from prometheus_client.core import GaugeMetricFamily, Metric
from prometheus_client.platform_collector import PlatformCollector
from prometheus_client.process_collector import ProcessCollector
from prometheus_client.registry import Collector

from .worker import worker_id

__all__ = ["CONTENT_TYPE", "REGISTRY", "lease_taken_over", "move_done",
           "rate_limited", "render", "store_written", "watch", "watch_bots",
           "watch_cluster"]

#: The ``Content-Type`` of :func:`render`'s text (Prometheus' text format).
CONTENT_TYPE = CONTENT_TYPE_LATEST
# no ``*_created`` series beside each counter: a timestamp per series that no dashboard
# of this server reads, and Prometheus stores
disable_created_metrics()  # type: ignore[no-untyped-call]
#: The registry ``/metrics`` shows.
REGISTRY = CollectorRegistry(auto_describe=True)
ProcessCollector(registry=REGISTRY)
PlatformCollector(registry=REGISTRY)

#: A move's latency, in seconds: 0.5 ms (an in-memory table, nobody slow) to 5 s (a
#: store that stalls); a move slower than 5 s is in ``+Inf`` only.
MOVE_BUCKETS = (0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0,
                2.5, 5.0)
#: A store write (one move's transaction), in seconds: the same range.
WRITE_BUCKETS = MOVE_BUCKETS

_MOVES = Counter("thousand_moves", "Moves played (by a person, or by a bot or a "
                 "stand-in).", ["worker", "by"], registry=REGISTRY)
_MOVE_SECONDS = Histogram("thousand_move_seconds", "A person's move from the frame "
                          "read to the last connection's message queued; a bot's from "
                          "its submission.", ["worker", "by"], buckets=MOVE_BUCKETS,
                          registry=REGISTRY)
_TABLES = Gauge("thousand_live_tables", "Tables in this worker's memory that are not "
                "over.", ["worker"], registry=REGISTRY)
_CONNECTIONS = Gauge("thousand_connections", "Open table WebSockets (players and "
                     "spectators).", ["worker"], registry=REGISTRY)
_TAKEOVERS = Counter("thousand_lease_takeovers", "Tables whose lease this worker took "
                     "over from a worker that stopped renewing it.", ["worker"],
                     registry=REGISTRY)
_BOT_QUEUE = Gauge("thousand_bot_queue", "Bot moves and hints waiting for a bot "
                   "process (server/live/bot_pool.py).", ["worker"], registry=REGISTRY)
_BOT_BUSY = Gauge("thousand_bot_busy", "Bot moves and hints being thought now.",
                  ["worker"], registry=REGISTRY)
_BOT_RESTARTS = Gauge("thousand_bot_process_restarts", "Bot processes replaced after "
                      "they died, since the worker started.", ["worker"], registry=REGISTRY)
_STORE_SECONDS = Histogram("thousand_store_write_seconds", "One write transaction of "
                           "the store (a move, its log entries committed).", ["worker"],
                           buckets=WRITE_BUCKETS, registry=REGISTRY)
_RATE_LIMITED = Counter("thousand_rate_limited", "Requests and messages refused by a "
                        "rate limit (server/limits.py), by limit.", ["worker", "limit"],
                        registry=REGISTRY)

Who = Literal["person", "bot"]


def move_done(seconds: float, by: Who) -> None:
    """A move was played and everybody at its table told: count it, and its latency."""
    me = worker_id()
    _MOVES.labels(me, by).inc()
    _MOVE_SECONDS.labels(me, by).observe(seconds)


def store_written(seconds: float) -> None:
    """A store write (one transaction) took ``seconds``."""
    _STORE_SECONDS.labels(worker_id()).observe(seconds)


def rate_limited(limit: str) -> None:
    """A request or a message was refused by the rate limit ``limit``."""
    _RATE_LIMITED.labels(worker_id(), limit).inc()


def lease_taken_over() -> None:
    """This worker took over a table whose lease another worker let lapse."""
    _TAKEOVERS.labels(worker_id()).inc()


def watch_bots(queued: Callable[[], float], busy: Callable[[], float],
               restarts: Callable[[], float]) -> None:
    """Read the bot pool's queue, the thinking in hand and the processes replaced at
    each scrape (server/live/bot_pool.py: ``BotPool.queued``, ``busy``, ``restarts``)."""
    me = worker_id()
    _BOT_QUEUE.labels(me).set_function(queued)
    _BOT_BUSY.labels(me).set_function(busy)
    _BOT_RESTARTS.labels(me).set_function(restarts)


class _ClusterCollector(Collector):
    """The many workers' counts (server/cluster/workers.py ``Cluster.stats``), read at each
    scrape: one gauge ``thousand_cluster`` by ``what``."""

    def __init__(self, stats: Callable[[], dict[str, int]]) -> None:
        self.stats = stats

    def collect(self) -> Iterator[Metric]:
        family = GaugeMetricFamily("thousand_cluster", "This worker's part of many "
                                   "workers (server/cluster/workers.py): tables lost to another "
                                   "worker, relayed connections, forwarded requests, bus "
                                   "outages, whether the bus is up.",
                                   labels=["worker", "what"])
        me = worker_id()
        for what, value in sorted(self.stats().items()):
            family.add_metric([me, what], value)
        yield family


def watch_cluster(stats: Callable[[], dict[str, int]]) -> None:
    """Show the cluster's counts (``Cluster.stats``) as ``thousand_cluster{what=...}``."""
    REGISTRY.register(_ClusterCollector(stats))


def watch(tables: Callable[[], float], connections: Callable[[], float]) -> None:
    """Read the live tables and the open connections from the hub at each scrape (its
    own numbers, so the gauges never drift from them), and show every metric of this
    worker from zero at once (a counter that appears only at its first count hides
    that first count from Prometheus' ``rate``)."""
    me = worker_id()
    _TABLES.labels(me).set_function(tables)
    _CONNECTIONS.labels(me).set_function(connections)
    for by in ("person", "bot"):
        _MOVES.labels(me, by)
        _MOVE_SECONDS.labels(me, by)
    _TAKEOVERS.labels(me)
    _STORE_SECONDS.labels(me)


def render() -> bytes:
    """Every metric in Prometheus' text format."""
    return generate_latest(REGISTRY)
