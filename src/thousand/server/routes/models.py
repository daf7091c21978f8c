"""The JSON API's request and response bodies as Pydantic models (docs/server.md "The API").

Every body a route takes or gives is declared here, strict (no ``"1"`` for ``1``, no
``0`` for ``false``) and closed (an unknown key is refused), so that FastAPI's OpenAPI
document (``/api/openapi.json``) is the truth about the API: schemathesis checks the live
server against it (tests/test_api_contract.py).  The raw text is read before these
models see it by :mod:`thousand.server.reader` (size, UTF-8, no key twice, shallow).

The catalogues (``/api/rules``, ``/api/texts``) and the replay steps are open objects
(``dict[str, Any]``): their shape is the engine's, documented in docs/server.md, and a
model of each would repeat the engine's own definitions.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator

from thousand.engine.rules import PRESET_NAMES

from .time_controls import TIME_CONTROL_SCHEMA

__all__ = [
    "Analysis",
    "AnalysisAsk",
    "CloseTable",
    "Closed",
    "CreateTable",
    "Created",
    "ErrorBody",
    "ErrorDetail",
    "Game",
    "Games",
    "Progress",
    "ReplayOut",
    "Seat",
    "SeatSpec",
    "SeatTaken",
    "TableInfo",
    "TableOne",
    "Tables",
    "TakeSeat",
    "error_responses",
]


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)


# ---------------------------------------------------------------------- errors


class ErrorDetail(BaseModel):
    """What went wrong: a ``code`` for programs, a ``message`` for people (English), and
    for some codes more (``free``: the free seats of a table that waits)."""

    model_config = ConfigDict(extra="allow")

    code: str
    message: str


class ErrorBody(BaseModel):
    """Every error of the API: ``{"error": {"code", "message"}}``."""

    error: ErrorDetail


#: What each error status of the API means, for the OpenAPI ``responses``.
_STATUS_WORDS = {
    400: "The request cannot be read: bad JSON, a duplicate key, nesting too deep, a "
         "wrong type, an unknown key, a bad parameter (code bad_request, malformed).",
    401: "Not signed in (code not_signed_in): the route is a signed-in player's.",
    403: "Refused: a token that holds no seat, not the table's creator, no invite, or "
         "the replay of a game kept for its players.",
    404: "No such table, game or seat.",
    405: "The route does not take this method (see the Allow header).",
    409: "The table's state forbids it: the seat is taken, the game is over or running.",
    413: "The body is larger than the route takes.",
    415: "The body is not sent as JSON (Content-Type: application/json).",
    422: "The rules cannot be made from the preset and options (code bad_rules).",
    429: "This client is over its limit: wait the seconds of Retry-After (or, code "
         "too_many_analyses, until its analysis is done or the day is over).",
    503: "The server holds as many live tables as it can (or, code queue_full, as many "
         "analyses in its queue).",
}


def error_responses(*statuses: int) -> dict[int | str, dict[str, Any]]:
    """The OpenAPI ``responses`` of a route's error statuses (400 always)."""
    return {s: {"model": ErrorBody, "description": _STATUS_WORDS[s]}
            for s in sorted({400, *statuses})}


# ---------------------------------------------------------------------- tables


class SeatSpec(_Strict):
    """One seat of a new table: a person (``human``) or a bot of a ``level``."""

    kind: Literal["human", "bot"] = "human"
    level: str | None = Field(default=None, max_length=64)
    name: str | None = Field(default=None, max_length=200)


class CreateTable(_Strict):
    """``POST /api/tables``: a new table.  ``open`` lists it in the lobby (false: only
    those given its link find it); ``replay`` says who may see its replay and record once
    the game is over (default: ``public`` for a listed table, ``players`` for another)."""

    preset: str = Field(default="classic", max_length=64,
                        json_schema_extra={"enum": list(PRESET_NAMES)})
    options: dict[str, Any] = Field(default_factory=dict, max_length=100)
    seats: list[SeatSpec] | None = Field(default=None, max_length=8)
    clock: float | None = None
    #: a game clock instead of the move clock (routes/time_controls.py)
    time_control: Any = Field(default=None, json_schema_extra=TIME_CONTROL_SCHEMA)
    open: bool = True
    replay: Literal["public", "players"] | None = None


class Created(_Strict):
    """The new table: its id, the creator's seat and secret token (None at a table of
    bots alone), its page, and for an unlisted table the link's secret (``invite``, also
    in ``url``) that its other seats need."""

    table: str
    seat: int | None
    token: str | None
    url: str
    invite: str | None = None


class Seat(_Strict):
    """A seat as the lobby and the table show it: ``guest`` when a person without an
    account holds it (the pages mark his name: it is no account's)."""

    seat: int
    kind: str
    level: str | None
    name: str
    guest: bool
    taken: bool
    online: bool
    bot_playing: bool
    #: its game clock ran out moves running (server/live/time_control.py)
    away: bool = False


class RatingChange(_Strict):
    """What a finished rated game did to one seat's player (server/store/ratings.py): the
    numbers shown before and after («+31 → 1531»), μ and σ after."""

    seat: int
    player: str
    family: str
    before: int
    after: int
    delta: int
    mu: float
    sigma: float


class TableInfo(_Strict):
    """A table as the lobby lists it; ``ratings`` once its game is over and rated (an
    empty list: not rated)."""

    table: str
    preset: str
    seats: list[Seat]
    status: str
    spectators: int
    created: str | None
    clock: float | None
    #: the game clock's control (``base``, ``increment``, ``category``), or None
    time_control: dict[str, Any] | None = None
    open: bool
    version: int
    ratings: list[RatingChange] | None = None


class TableOne(TableInfo):
    """One table, with its record header (players, rules, first dealer)."""

    header: dict[str, Any]


class Tables(_Strict):
    tables: list[TableInfo]


class CloseTable(_Strict):
    """``POST /api/tables/{id}/close``: the creator's seat token."""

    token: str = Field(min_length=1, max_length=200)


class Closed(_Strict):
    table: str
    status: Literal["closed"]


class TakeSeat(_Strict):
    """``POST /api/tables/{id}/seats/{seat}``: the person's name, and at an unlisted table
    the secret of its link (``invite``)."""

    name: str | None = Field(default=None, max_length=200)
    invite: str | None = Field(default=None, max_length=200)


class SeatTaken(_Strict):
    table: str
    seat: int
    token: str
    url: str


# ---------------------------------------------------------------------- games


class Game(_Strict):
    """A game of the history: ``player_ids`` are its seats' players (a person's id, None
    for a seat without one, ``bot:<level>``), whose pages are ``/p/{id}``; ``guests``
    which seats persons without an account held."""

    id: str
    players: list[str]
    player_ids: list[str | None]
    guests: list[bool]
    preset: str
    winner: int | list[int] | None
    scores: list[int] | None
    started: str | None
    finished: str | None
    status: str


class Games(_Strict):
    games: list[Game]
    total: int
    limit: int
    offset: int


class ReplayOut(_Strict):
    """A replay: the record (once the game is over), its header, whether it is over, the
    winner, every step (the engine's events and states) and the players' name forms;
    ``guests``, which seats persons without an account held (None: an uploaded record,
    whose players the site does not know)."""

    record: dict[str, Any] | None
    header: dict[str, Any]
    over: bool
    winner: int | list[int] | None
    steps: list[dict[str, Any]]
    name_forms: Any
    guests: list[bool] | None = None


# ---------------------------------------------------------------------- analyses


class AnalysisAsk(_Strict):
    """``POST /api/games/{id}/analysis``: the analysis' settings.  ``samples``: the
    sampled deals of each view-based valuation (fewer: faster and rougher);
    ``view_based`` false: only the open-card (double-dummy) values, much faster;
    ``lang``: the language of the reasons (each language is its own analysis)."""

    samples: int = Field(default=24, ge=1, le=48)
    view_based: bool = True
    lang: Literal["ru", "en"] = "ru"

    @field_validator("samples", mode="before")
    @classmethod
    def _whole(cls, value: Any) -> Any:
        """JSON Schema's integer: ``47.0`` is one (strict Pydantic would refuse it)."""
        return int(value) if isinstance(value, float) and value.is_integer() else value


class Progress(_Strict):
    """Decisions analysed (``done``) of ``total`` (0 until the job has begun)."""

    done: int
    total: int


class Analysis(_Strict):
    """A game's analysis: ``status`` ``queued`` (its ``position`` in the queue, 1: next),
    ``running`` (its ``progress``), ``done`` (the ``result``: docs/analysis.md's JSON) or
    ``failed`` (the ``error``)."""

    game: str
    status: Literal["queued", "running", "done", "failed"]
    progress: Progress
    position: int
    settings: dict[str, Any]
    result: dict[str, Any] | None = None
    error: str | None = None
