"""The server's refusals that are not the table's (``TableError`` is): one exception for
every room of the server, the live tables, the site's features and the routes, so that a
route answers a feature's refusal as a table's connection does."""

from __future__ import annotations

from typing import Any

from fastapi.responses import JSONResponse

__all__ = ["ServerError", "bad_request", "error_response"]


class ServerError(Exception):
    """A refusal that is not the table's (``TableError`` is): a ``code`` for programs, a
    ``message`` for people, the HTTP ``status`` when it answers a request."""

    def __init__(self, code: str, message: str = "", *, status: int = 400, **params: Any):
        super().__init__(message or code)
        self.code = code
        self.message = message or code.replace("_", " ")
        self.status = status
        self.params = params

    def to_json(self) -> dict[str, Any]:
        return {"type": "error", "code": self.code, "params": self.params,
                "message": self.message}

    def http_json(self) -> dict[str, Any]:
        return {"error": {"code": self.code, "message": self.message, **self.params}}


def bad_request(message: str) -> ServerError:
    """A 400 ``bad_request`` that says what is wrong with the request."""
    return ServerError("bad_request", message, status=400)


def error_response(status: int, code: str, message: str, **extra: Any) -> JSONResponse:
    """An HTTP answer in the API's error shape (``{"error": {"code", "message"}}``) for
    what no :class:`ServerError` says: a body that cannot be read, a route not found."""
    return JSONResponse({"error": {"code": code, "message": message, **extra}},
                        status_code=status)
