"""The ``time_control`` of a new table, a quick-play request and a tournament (docs/
server.md "Time controls"): a category's name (``fast``, ``normal``, ``unhurried``), or
``{"base": seconds, "increment": seconds}``, or null; the same words and bounds for the
three routes, and the default category where a route gives one."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel

from ..errors import ServerError
from ..live.time_control import (
    CATEGORIES,
    DEFAULT_CATEGORY,
    MAX_BASE,
    MAX_INCREMENT,
    TimeControl,
)

__all__ = ["TIME_CONTROL_SCHEMA", "chosen_control"]

#: The field's JSON schema, stated in the OpenAPI document (a fuzzer's schema-valid
#: request must be accepted; the lowest base is the server's least move clock).
TIME_CONTROL_SCHEMA: dict[str, Any] = {"anyOf": [
    {"type": "string", "enum": list(CATEGORIES)},
    {"type": "object", "additionalProperties": False, "required": ["base", "increment"],
     "properties": {"base": {"type": "number", "minimum": 5, "maximum": MAX_BASE},
                    "increment": {"type": "number", "minimum": 0,
                                  "maximum": MAX_INCREMENT}}},
    {"type": "null"}]}


def _bad(low: float) -> ServerError:
    return ServerError("bad_request", f"time_control: null, one of {', '.join(CATEGORIES)}, "
                       f"or {{\"base\": {low:g} to {MAX_BASE:g}, \"increment\": 0 to "
                       f"{MAX_INCREMENT:g}}}", status=400)


def _number(value: Any, low: float, high: float) -> float | None:
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None
    return float(value) if low <= value <= high else None


def _parse(value: Any, low: float) -> TimeControl | None:
    if value is None:
        return None
    if isinstance(value, str):
        if value not in CATEGORIES:
            raise _bad(low)
        return CATEGORIES[value]
    if not isinstance(value, dict) or set(value) != {"base", "increment"}:
        raise _bad(low)
    base = _number(value["base"], low, MAX_BASE)
    increment = _number(value["increment"], 0.0, MAX_INCREMENT)
    if base is None or increment is None:
        raise _bad(low)
    return TimeControl(base, increment)


def chosen_control(body: BaseModel, low: float, *, default: bool) -> TimeControl | None:
    """The time control ``body`` asks for (its ``time_control``), refused beside a move
    clock; with ``default`` the default category when it names neither (a ``clock``
    given, even null, is a choice).  ``low``: the least base (the server's least move
    clock)."""
    value = getattr(body, "time_control", None)
    control = _parse(value, low)
    clock = getattr(body, "clock", None)
    if control is not None and clock is not None:
        raise ServerError("bad_request", "clock and time_control: one or the other",
                          status=400)
    if control is None and default and not {"clock", "time_control"} & body.model_fields_set:
        return CATEGORIES[DEFAULT_CATEGORY]
    return control
