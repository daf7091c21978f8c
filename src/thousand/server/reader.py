"""The strict reading of every HTTP body a client sends.

A body used to be read with ``json.loads`` by each route: a duplicate key was taken (the
last won), a body nested a few thousand levels deep ran out of stack and answered 500 with
a traceback.  Here one function, :func:`parse_json` — the engine's one strict JSON reader
(:mod:`thousand.engine.strict_json`, which reads the WebSocket's messages and the records
too) with the server's bounds — refuses all of these *before* anything is built, with a
:class:`ReadError` that the server answers as a 400 (``{"error": {"code", "message"}}``)
or, over the WebSocket, as a ``malformed`` error message (docs/server.md "Bodies").  What is
accepted is then validated by Pydantic models (``server/routes/models.py``), strict, with unknown
keys forbidden.

* size: at most ``limit`` bytes (:func:`read_body` stops reading at the limit, so a huge
  upload is never held in memory, and gives what it read back at once);
* encoding: UTF-8 only (``json.loads`` of bytes would also guess UTF-16 and UTF-32);
* shape: no key twice in an object, nesting at most :data:`MAX_DEPTH` levels (checked on
  the brackets alone, with ``re`` and ``bytes``, before ``json`` recurses), no ``NaN`` or
  ``Infinity``, numbers of at most :data:`MAX_DIGITS` digits.
"""

from __future__ import annotations

from collections.abc import Callable, Coroutine
from typing import Any, TypeVar

from fastapi.routing import APIRoute
from starlette.requests import Request
from starlette.responses import Response

from thousand.engine import strict_json

from .caps import CAPS

__all__ = ["MAX_BODY", "MAX_DEPTH", "MAX_DIGITS", "ReadError", "StrictRoute", "parse_json",
           "raw_body", "read_body"]

#: The largest JSON body of a request by default (a route marked :func:`raw_body` says its
#: own); an application's ``state.max_body`` is the one it keeps to (the cap
#: ``body_bytes``: ``--limit body_bytes=N``).
MAX_BODY = CAPS["body_bytes"].value

#: The deepest nesting a client's JSON may have (a table's body needs 3).
MAX_DEPTH = strict_json.DEPTH
#: The longest number a client's JSON may hold (``int`` refuses over 4300 digits, slowly).
MAX_DIGITS = strict_json.DIGITS


class ReadError(ValueError):
    """What a client sent cannot be read: ``code`` (``bad_request``, ``too_large``), a
    message that says what is wrong, and the HTTP status to answer."""

    def __init__(self, code: str, message: str, *, status: int = 400) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.status = status


def parse_json(data: bytes | str, *, limit: int, what: str = "the body") -> Any:
    """``data`` as JSON, strictly (:func:`thousand.engine.strict_json.read_json`), or
    :class:`ReadError` saying what is wrong (``what`` names the thing in the message: "the
    body", "a message")."""
    try:
        return strict_json.read_json(data, limit=limit, what=what, depth=MAX_DEPTH,
                                     digits=MAX_DIGITS)
    except strict_json.TooLarge as e:
        raise ReadError("too_large", str(e), status=413) from None
    except strict_json.JsonRefused as e:
        raise ReadError("bad_request", str(e)) from None


async def read_body(request: Request, limit: int) -> bytes:
    """The raw body of ``request``, at most ``limit`` bytes: refused (413) as soon as its
    ``Content-Length`` or what arrived says it is larger, without reading the rest."""
    size = request.headers.get("content-length")
    if size is not None and size.isdigit() and int(size) > limit:
        raise ReadError("too_large", f"the body is larger than {limit} bytes", status=413)
    chunks: list[bytes] = []
    got = 0
    async for chunk in request.stream():
        got += len(chunk)
        if got > limit:
            raise ReadError("too_large", f"the body is larger than {limit} bytes",
                            status=413)
        chunks.append(chunk)
    return b"".join(chunks)


F = TypeVar("F", bound=Callable[..., Any])


def raw_body(limit: int | str) -> Callable[[F], F]:
    """Mark a route whose body is not the API's JSON (``POST /api/replay``: a record, read
    by the record's own strict parser): :class:`StrictRoute` only bounds its size, to
    ``limit`` bytes or, for a name, to the application's ``state.<name>`` (a cap the
    application sets when it is made, after the router's routes are declared)."""

    def mark(endpoint: F) -> F:
        endpoint.raw_body_limit = limit  # type: ignore[attr-defined]
        return endpoint

    return mark


_JSON_TYPES = ("application/json",)


class StrictRoute(APIRoute):
    """A route whose body is read by :func:`read_body` and :func:`parse_json` before
    FastAPI validates it against the route's model: the parsed value is what FastAPI
    then takes (``Request.json()`` answers it), so nothing reads the body twice and no
    route reads it its own way.  A body must be JSON, said so (``Content-Type:
    application/json``: 415 without it); an empty body is refused where the route takes
    one."""

    def __init__(self, path: str, endpoint: Callable[..., Any], **kwargs: Any) -> None:
        super().__init__(path, endpoint, **kwargs)
        if self.body_field is not None or hasattr(endpoint, "raw_body_limit"):
            # what this class answers itself, in the API's error shape (models.ErrorBody)
            error = {"application/json": {"schema": {
                "$ref": "#/components/schemas/ErrorBody"}}}
            self.responses.setdefault(400, {"description": "The body cannot be read.",
                                            "content": error})
            self.responses.setdefault(413, {"description": "The body is too large.",
                                            "content": error})
            if self.body_field is not None:
                self.responses.setdefault(415, {"description": "The body is not JSON.",
                                                "content": error})

    def get_route_handler(self) -> Callable[[Request], Coroutine[Any, Any, Response]]:
        handler = super().get_route_handler()
        raw_limit: int | str | None = getattr(self.endpoint, "raw_body_limit", None)
        takes_body = self.body_field is not None

        async def strict(request: Request) -> Response:
            if raw_limit is not None:
                most = (raw_limit if isinstance(raw_limit, int)
                        else int(getattr(request.app.state, raw_limit)))
                request._body = await read_body(request, most)
            elif takes_body:
                most = int(getattr(request.app.state, "max_body", MAX_BODY))
                data = await read_body(request, most)
                kind = request.headers.get("content-type", "").split(";")[0].strip().lower()
                if kind not in _JSON_TYPES and not kind.endswith("+json"):
                    # none is refused too: a cross-site form or beacon sends its body
                    # without preflight only as text/plain or with no type at all
                    raise ReadError("unsupported_media_type", "the body is JSON: send it "
                                    "with Content-Type: application/json", status=415)
                if not data.strip():
                    raise ReadError("bad_request", "the body is missing: send a JSON "
                                    "object")
                request._json = parse_json(data, limit=most)
                request._body = data
            return await handler(request)

        return strict
