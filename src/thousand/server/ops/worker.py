"""Who this server process is: its worker id, named in every log line, every metric and
every lease it holds, so that a reader of many workers' output can tell them apart.

One process (the embedded default) is worker ``<host>-<pid>`` too; ``thousand serve
--workers N`` and ``--worker-id`` set it before the application starts.
"""

from __future__ import annotations

import os
import socket

__all__ = ["set_worker_id", "worker_id"]

_worker_id: str | None = None


def worker_id() -> str:
    """This process's worker id (``<host>-<pid>`` unless :func:`set_worker_id` named it)."""
    global _worker_id
    if _worker_id is None:
        _worker_id = f"{socket.gethostname()}-{os.getpid()}"
    return _worker_id


def set_worker_id(value: str) -> None:
    """Name this process (a worker started by ``--workers`` or with ``--worker-id``)."""
    global _worker_id
    if not value or len(value) > 64 or not value.replace("-", "").replace("_", "").replace(
            ".", "").isalnum():
        raise ValueError("a worker id is 1 to 64 letters, digits, '-', '_' or '.'")
    _worker_id = value
