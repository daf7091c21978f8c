"""The server's log lines: text for a person at a terminal, JSON lines for a machine
(``thousand serve --log-format json``; docs/server.md "Logs").

A JSON line is one object: ``time`` (ISO 8601, UTC, milliseconds), ``level``, ``logger``,
``message``, ``worker`` (:func:`thousand.server.ops.worker.worker_id`: which of many workers
wrote it), ``table`` when the call names one (``log.info("...", extra={"table": id})``,
or the hub's ``log.info("table %s: ...", table_id, ...)``: its first argument),
and ``exc`` with the traceback of a logged exception — each field on its own, so a log
store filters on a worker or a table without parsing sentences.

Either way the records pass through server/app.py's filter that cuts seat tokens and
query strings (``hide_secrets_in_logs``): it rewrites a record before any formatter sees
it, so the JSON ``message`` is as clean as the text line.
"""

from __future__ import annotations

import datetime as dt
import json
import logging
import sys
from typing import Literal

from .worker import worker_id

__all__ = ["FORMATS", "JsonFormatter", "LogFormat", "configure", "error_line"]

LogFormat = Literal["text", "json"]
#: The values of ``--log-format``.
FORMATS: tuple[LogFormat, ...] = ("text", "json")
#: The text format's line (the one ``thousand serve`` always had).
TEXT_FORMAT = "thousand: %(levelname)s %(message)s"
#: Record attributes (``extra=``) copied into a JSON line when a call gives them.
EXTRA_FIELDS = ("table", "seat")


def error_line(e: BaseException, limit: int = 200) -> str:
    """An error as one short line, for a log line or a health answer: a database
    driver's own words where SQLAlchemy wrapped them (not the SQL and the link it adds),
    the whitespace of a multi-line message folded, at most ``limit`` characters; the
    error's type when it says nothing."""
    text = " ".join(str(getattr(e, "orig", None) or e).split())[:limit]
    return text or type(e).__name__


class JsonFormatter(logging.Formatter):
    """One JSON object per record, on one line (a message's newlines escaped)."""

    def format(self, record: logging.LogRecord) -> str:
        moment = dt.datetime.fromtimestamp(record.created, dt.UTC)
        out: dict[str, object] = {
            "time": moment.isoformat(timespec="milliseconds").replace("+00:00", "Z"),
            "level": record.levelname.lower(),
            "logger": record.name,
            "message": record.getMessage(),
            "worker": worker_id(),
        }
        for name in EXTRA_FIELDS:
            value = record.__dict__.get(name)
            if value is not None:
                out[name] = value
        if "table" not in out and isinstance(record.msg, str) and record.msg.startswith(
                "table %s") and isinstance(record.args, tuple) and record.args:
            out["table"] = str(record.args[0])  # the hub's "table %s: ..." lines
        if record.exc_info:
            out["exc"] = self.formatException(record.exc_info)
        elif record.exc_text:
            out["exc"] = record.exc_text
        return json.dumps(out, ensure_ascii=False, default=str)


def configure(fmt: str, level: str, *, worker: str | None = None) -> bool:
    """Set up the root logger for ``fmt`` at ``level`` (``info``, ``WARNING``...).  True
    when uvicorn should keep its own text handlers (the text format); False when its
    loggers are to reach the root's JSON handler (give uvicorn ``log_config=None``).
    ``worker``: one of many workers — its text lines start with the time and its id, as
    its JSON lines always carry them, so that the lines of many workers can be merged."""
    if fmt not in FORMATS:
        raise ValueError(f"--log-format: {' or '.join(FORMATS)}")
    if fmt == "text":
        shown = TEXT_FORMAT if worker is None else (
            f"%(asctime)s thousand[{worker}]: %(levelname)s %(message)s")
        logging.basicConfig(level=level.upper(), format=shown, force=True)
        return True
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(JsonFormatter())
    root = logging.getLogger()
    for old in list(root.handlers):
        root.removeHandler(old)
    root.addHandler(handler)
    root.setLevel(level.upper())
    return False
