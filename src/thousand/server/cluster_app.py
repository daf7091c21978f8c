"""The application of one worker started by ``thousand serve --workers N``.

uvicorn's supervisor (``uvicorn.supervisors.Multiprocess``) binds the socket once and
starts each worker in a fresh process, which imports the application by name: this
factory builds it there from the options the command left in
:data:`ENV` (JSON), naming the worker ``<--worker-id or host>-<pid>`` so that a worker
restarted after a crash is a new worker (its old leases simply expire).
"""

from __future__ import annotations

import json
import os
import socket
from typing import Any

from fastapi import FastAPI

from .app import create_app
from .caps import CAPS
from .limits import Limiter, parse_caps, parse_overrides, rates_storage
from .ops import logs
from .ops.mail import mailer_of
from .ops.webpush import push_keys_of
from .ops.worker import set_worker_id, worker_id
from .web_security import PRIVATE_NETWORKS

__all__ = ["ENV", "worker_app"]

#: The environment variable carrying the serve options to the workers.
ENV = "THOUSAND_SERVE_WORKER"


def worker_app() -> FastAPI:
    """The application of this worker process (uvicorn calls it: ``factory=True``)."""
    options: dict[str, Any] = json.loads(os.environ[ENV])
    base = options.get("worker_id") or socket.gethostname()
    set_worker_id(f"{base}-{os.getpid()}")
    logs.configure(str(options["log_format"]), str(options["log_level"]), worker=worker_id())
    storage, key_prefix = rates_storage(options["limits_storage"], options["redis"],
                                        options["redis_prefix"])
    limiter = Limiter(storage, parse_overrides(options["limits"]),
                      enabled=options["limits_on"], key_prefix=key_prefix)
    return create_app(options["db"], bots_threads=options["bots_threads"],
                      bot_processes=options["bot_processes"], metrics=options["metrics"],
                      bot_delay=options["bot_delay"], limiter=limiter,
                      waiting_timeout=options["waiting_timeout"],
                      adjourn_after=options["adjourn_after"], redis_url=options["redis"],
                      redis_prefix=options["redis_prefix"], lease_ttl=options["lease_ttl"],
                      tune_gc=True,
                      max_tables=options.get("max_tables", CAPS["tables"].value),
                      metrics_from=options.get("metrics_from") or PRIVATE_NETWORKS,
                      caps=parse_caps(options["limits"]),
                      mailer=mailer_of(*options.get("mail", (None, None, None))),
                      chat_filter=options.get("chat_filter"),
                      push=push_keys_of(*options.get("push", (None, None))))
