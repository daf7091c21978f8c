"""Tournaments on the site: registration, the rounds' tables laid through the hub, the
results recorded as the tables end, and a running tournament resumed after a restart
(docs/server.md "Tournaments").

The tournament itself — the pairings, byes, points and standings — is the pure
:class:`thousand.evaluation.tournament.Tournament`; this module only keeps it and plays it on
the server's tables.  What is stored (``tournaments.state``, JSON) is what rebuilds it:
the seed, each round's table ids and every recorded result.  Rebuilding registers the
entries in the order they joined, starts it (the same draw of lots from the same seed),
pairs each laid round again and records its results: the Tournament is deterministic
from its seed and results, so the rebuilt one pairs exactly as the first did.

A round's tables are laid when the tournament starts and when the round before is
complete: every person's seat is his own (its token derived from his seat secret, as a
rematch's is, so ``/api/me/seats`` and the table page find it); bots sit as bot seats.
A table that plays N deals has the rules' ``max_deals = N`` (the game ends after N deals,
the top score first).  When a table's game is over the hub calls :func:`table_over`;
on start :func:`resume` reconnects the running tournaments to the tables the hub rebuilt,
recording any that ended while the server was down.

A duplicate tournament (``scoring``, docs/server.md "Duplicate tournaments") lays every
table of a round from one seed (:func:`round_seed`), unlisted, and the Tournament ranks
by the duplicate scores.

Every store call runs on the store's thread (``Hub.db``); one lock per hub orders the
tournaments' changes, so two tables ending at once record one after the other.
"""

from __future__ import annotations

import asyncio
import json
import logging
import secrets
import time
import weakref
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import sqlalchemy as sa

from thousand.engine.rules import Rules
from thousand.evaluation.tournament import Tournament, TournamentError
from thousand.words.catalogue import level_name

from ..caps import CAPS
from ..checks import hash_token, new_token, seat_token
from ..errors import ServerError
from ..live.time_control import TimeControl
from ..store.accounts import seat_secrets
from ..store.tables import SeatRow, Store, metadata
from .daily import deal_seed

if TYPE_CHECKING:
    from ..live.hub import Hub, LiveTable

__all__ = ["MAX_ENTRIES", "Entry", "Info", "create", "entries_t", "first_tables", "get",
           "listing", "plays_for", "refuse_close", "register", "resume", "round_seed", "start",
           "table_over", "tournament_url", "tournaments_t", "unregister"]

log = logging.getLogger("thousand.server")

#: The most entries (people and bots) a tournament takes by default (the cap ``entries``,
#: ``--limit entries=N``; ``hub.caps``): 16 tables of three a round, so that one
#: tournament cannot fill the server (its tables count toward its creator's live tables
#: too: docs/server.md "Limits").
MAX_ENTRIES = CAPS["entries"].value
#: The most bots a tournament's creator may add, and the longest tournament name.
MAX_BOTS = MAX_ENTRIES - 1
MAX_TITLE = 80
#: The tournaments the list shows, newest first.
LIST_LIMIT = 100

# In the store's metadata (beside its tables), so that the schema the migrations make is
# the model's; migrations/versions/v0005_tournaments.py makes them.
tournaments_t = sa.Table(
    "tournaments", metadata,
    sa.Column("id", sa.String(32), primary_key=True),
    sa.Column("name", sa.String(80), nullable=False),
    sa.Column("preset", sa.String(32), nullable=False),
    sa.Column("format", sa.String(16), nullable=False),
    # ``places`` or ``duplicate`` (migration 0020; the tournaments before rank by places)
    sa.Column("scoring", sa.String(16), nullable=False, server_default="places"),
    sa.Column("rounds", sa.Integer, nullable=False),
    sa.Column("deals", sa.Integer, nullable=True),
    sa.Column("status", sa.String(12), nullable=False),
    sa.Column("creator", sa.String(40), nullable=False),
    sa.Column("created", sa.Float, nullable=False),
    sa.Column("started", sa.Float, nullable=True),
    sa.Column("finished", sa.Float, nullable=True),
    sa.Column("state", sa.Text, nullable=False),
    sa.Index("ix_tournaments_status", "status", "created"),
)

entries_t = sa.Table(
    "tournament_entries", metadata,
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
    sa.Column("tournament_id", sa.String(32), nullable=False),
    sa.Column("player_id", sa.String(40), nullable=True),
    sa.Column("bot", sa.String(32), nullable=True),
    sa.Column("name", sa.String(80), nullable=False),
    sa.Column("joined", sa.Float, nullable=False),
    # a person without an account entered (migration 0012): his name is marked so
    sa.Column("guest", sa.Boolean, nullable=False, server_default=sa.false()),
    sa.Index("ix_tournament_entries_tournament", "tournament_id", "id"),
)


class TournamentRefused(Exception):
    """What a request cannot do to a tournament: an error code, the HTTP status and the
    :class:`TournamentError` (its words in both languages) when the Tournament said it,
    else ``ru``, the Russian words when the site has its own."""

    def __init__(self, code: str, message: str, status: int = 409,
                 error: TournamentError | None = None, *, ru: str | None = None) -> None:
        self.code = code
        self.status = status
        self.error = error
        self.ru = error.text("ru") if error is not None else ru
        super().__init__(message)


@dataclass(frozen=True, slots=True)
class Entry:
    """One player of a tournament: a person (``player_id``; ``guest`` when he entered
    without an account) or a bot (``bot``: its level)."""

    name: str
    player_id: str | None
    bot: str | None
    joined: float
    guest: bool = False


@dataclass(slots=True)
class Info:
    """One tournament as stored, its entries, and its Tournament rebuilt."""

    id: str
    name: str
    preset: str
    format: str
    rounds: int
    deals: int | None
    status: str
    creator: str
    created: float
    started: float | None
    finished: float | None
    state: dict[str, Any]
    entries: list[Entry] = field(default_factory=list)
    scoring: str = "places"

    @property
    def clock(self) -> float | None:
        clock = self.state.get("clock")
        return float(clock) if clock is not None else None

    @property
    def time_control(self) -> TimeControl | None:
        """Its tables' game clock (kept in the state since issue 31), or None."""
        control = self.state.get("time_control")
        return (None if control is None
                else TimeControl(float(control["base"]), float(control["increment"])))

    def tournament(self, *, shown: bool = False) -> Tournament:
        """The Tournament of these entries and this state (see the module's doc).

        ``shown``: as the pages and the API show it, where a duplicate tournament's round
        counts only once every table of it is over: a table's result, or the standings
        it moves, would tell the players of another table still playing the same cards
        how those cards went."""
        size = Rules.from_json({"preset": self.preset}).players
        t = Tournament(self.format, self.rounds, size, int(self.state.get("seed", 0)),
                       self.scoring)
        for e in self.entries:
            t.register(e.name)
        if self.status == "registering":
            return t
        t.start()
        results = self.state.get("results", [])
        hide = shown and self.scoring == "duplicate"
        for number, ids in enumerate(self.state.get("tables", []), 1):
            t.next_round()
            got = [r for r in results if r["round"] == number]
            if hide and len(got) < len(ids):
                continue  # (only the last round can be so: the next waits for it)
            for r in got:
                t.record(number, r["table"], r["scores"], r["winners"], r["deals"])
        return t


# ------------------------------------------------------------------ the store's calls


def _info(row: Any, entries: list[Entry]) -> Info:
    return Info(id=row.id, name=row.name, preset=row.preset, format=row.format,
                rounds=row.rounds, deals=row.deals, status=row.status, creator=row.creator,
                created=row.created, started=row.started, finished=row.finished,
                state=json.loads(row.state), entries=entries, scoring=row.scoring)


def _entries(conn: sa.Connection, tid: str) -> list[Entry]:
    rows = conn.execute(sa.select(entries_t).where(entries_t.c.tournament_id == tid)
                        .order_by(entries_t.c.id)).all()
    return [Entry(r.name, r.player_id, r.bot, r.joined, bool(r.guest)) for r in rows]


def db_load(store: Store, tid: str) -> Info | None:
    with store.engine.connect() as conn:
        row = conn.execute(sa.select(tournaments_t).where(tournaments_t.c.id == tid)).first()
        return None if row is None else _info(row, _entries(conn, tid))


def db_list(store: Store, limit: int = LIST_LIMIT) -> list[tuple[Info, int]]:
    """The newest tournaments and how many players each has (entries not loaded)."""
    count = (sa.select(sa.func.count()).where(entries_t.c.tournament_id == tournaments_t.c.id)
             .scalar_subquery())
    with store.engine.connect() as conn:
        rows = conn.execute(sa.select(tournaments_t, count.label("n"))
                            .order_by(tournaments_t.c.created.desc()).limit(limit)).all()
    return [(_info(r, []), int(r.n)) for r in rows]


def db_running(store: Store) -> list[Info]:
    with store.engine.connect() as conn:
        rows = conn.execute(sa.select(tournaments_t)
                            .where(tournaments_t.c.status == "running")).all()
        return [_info(r, _entries(conn, r.id)) for r in rows]


def db_create(store: Store, info: Info) -> None:
    with store.engine.begin() as conn:
        conn.execute(tournaments_t.insert().values(
            id=info.id, name=info.name, preset=info.preset, format=info.format,
            scoring=info.scoring, rounds=info.rounds, deals=info.deals, status=info.status,
            creator=info.creator, created=info.created, started=None, finished=None,
            state=json.dumps(info.state)))
        if info.entries:
            conn.execute(entries_t.insert(), [
                {"tournament_id": info.id, "player_id": e.player_id, "bot": e.bot,
                 "name": e.name, "joined": e.joined, "guest": e.guest}
                for e in info.entries])


def db_add(store: Store, tid: str, entry: Entry) -> None:
    with store.engine.begin() as conn:
        conn.execute(entries_t.insert().values(
            tournament_id=tid, player_id=entry.player_id, bot=entry.bot, name=entry.name,
            joined=entry.joined, guest=entry.guest))


def db_remove(store: Store, tid: str, player_id: str) -> None:
    with store.engine.begin() as conn:
        conn.execute(entries_t.delete().where(entries_t.c.tournament_id == tid,
                                              entries_t.c.player_id == player_id))


def db_save(store: Store, info: Info) -> None:
    with store.engine.begin() as conn:
        conn.execute(tournaments_t.update().where(tournaments_t.c.id == info.id).values(
            status=info.status, started=info.started, finished=info.finished,
            state=json.dumps(info.state)))


# ------------------------------------------------------------------ the running logic


class _Site:
    """A hub's tournaments in memory: which table plays for which tournament, and the lock
    that orders their changes."""

    def __init__(self) -> None:
        self.lock = asyncio.Lock()
        #: table id -> (tournament id, round from 1, table from 0)
        self.tables: dict[str, tuple[str, int, int]] = {}
        #: table id -> tournament id, kept after the table's end (``tables`` forgets it):
        #: the end dialog leads back to the tournament (tournament_url)
        self.origin: dict[str, str] = {}


_sites: weakref.WeakKeyDictionary[Hub, _Site] = weakref.WeakKeyDictionary()


def _site(hub: Hub) -> _Site:
    site = _sites.get(hub)
    if site is None:
        site = _sites[hub] = _Site()
    return site


#: What the Tournament refuses in what the creator asked for (400), not in what the
#: tournament's state allows (409).
_BAD_REQUEST = frozenset({"bad_format", "bad_scoring", "bad_rounds", "bad_table"})


def _refuse(e: TournamentError) -> TournamentRefused:
    return TournamentRefused(e.key, str(e), 400 if e.key in _BAD_REQUEST else 409, e)


def bot_names(levels: list[str]) -> list[str]:
    """The names bots enter under: the levels' names for people, numbered («любитель 1»,
    «любитель 2», «случайный 1»…) — the names the tables, their logs and sheets, the
    history and the standings show (never an identifier such as «heuristic 1»)."""
    seen: dict[str, int] = {}
    out = []
    for level in levels:
        seen[level] = seen.get(level, 0) + 1
        out.append(f"{level_name(level)} {seen[level]}")
    return out


def tournament_url(live: LiveTable) -> str | None:
    """The page of the tournament a table plays for (None for any other table): its end
    dialog offers the way back there instead of «Ещё партию»."""
    tid = _site(live.hub).origin.get(live.id)
    return None if tid is None else f"/tournaments/{tid}"


def _full(hub: Hub) -> TournamentRefused:
    most = hub.caps["entries"]
    return TournamentRefused("full", f"the tournament has its {most} players", 409,
                             ru=f"в турнире уже {most} участников")


async def create(hub: Hub, *, name: str, preset: str, format: str, rounds: int,
                 deals: int | None, clock: float | None, bots: list[str],
                 creator: str, creator_name: str | None, guest: bool = False,
                 control: TimeControl | None = None, scoring: str = "places") -> Info:
    """A new tournament open for registration, its bots entered, and its creator too
    when ``creator_name`` is given (a person who plays in his own tournament; ``guest``:
    he has no account).  A duplicate one (``scoring``) draws the secret its rounds'
    cards come from (:func:`round_seed`)."""
    now = time.time()
    entries = []
    if creator_name is not None:
        entries.append(Entry(creator_name, creator, None, now, guest))
    entries += [Entry(n, None, level, now) for n, level in zip(bot_names(bots), bots,
                                                               strict=True)]
    if len(entries) > hub.caps["entries"]:  # a server's cap below the schema's MAX_BOTS
        raise _full(hub)
    info = Info(id=secrets.token_urlsafe(9), name=name, preset=preset, format=format,
                rounds=rounds, deals=deals, status="registering", creator=creator,
                created=now, started=None, finished=None,
                state={"seed": secrets.randbelow(2**31), "clock": clock, "tables": [],
                       "results": [],
                       "time_control": None if control is None else control.to_json(),
                       **({"deal_secret": secrets.randbits(128)}
                          if scoring == "duplicate" else {})},
                entries=entries, scoring=scoring)
    try:
        info.tournament()  # the Tournament checks the format, rounds and names
    except TournamentError as e:
        raise _refuse(e) from None
    await hub.db(db_create, hub.store, info)
    return info


def first_tables(info: Info) -> int:
    """How many tables the tournament's first round lays (its entries in tables of its
    preset's size; the rest sit out): what its start costs its creator."""
    return len(info.entries) // Rules.from_json({"preset": info.preset}).players


async def get(hub: Hub, tid: str) -> Info:
    info = await hub.db(db_load, hub.store, tid)
    if info is None:
        raise TournamentRefused("not_found", "no such tournament", 404)
    return info


async def listing(hub: Hub) -> list[tuple[Info, int]]:
    return await hub.db(db_list, hub.store)


async def register(hub: Hub, tid: str, player_id: str, name: str,
                   guest: bool = False) -> Info:
    """Enter a person (``guest``: without an account) until the tournament starts."""
    async with _site(hub).lock:
        info = await get(hub, tid)
        if any(e.player_id == player_id for e in info.entries):
            raise TournamentRefused("registered", "you are registered already")
        if info.status != "registering":
            raise _refuse(TournamentError("started"))
        if len(info.entries) >= hub.caps["entries"]:
            raise _full(hub)
        entry = Entry(name, player_id, None, time.time(), guest)
        info.entries.append(entry)
        try:
            info.tournament()
        except TournamentError as e:
            raise _refuse(e) from None
        await hub.db(db_add, hub.store, tid, entry)
        return info


async def unregister(hub: Hub, tid: str, player_id: str) -> Info:
    """Take a person's entry back until the tournament starts."""
    async with _site(hub).lock:
        info = await get(hub, tid)
        if info.status != "registering":
            raise _refuse(TournamentError("started"))
        if not any(e.player_id == player_id for e in info.entries):
            raise TournamentRefused("not_registered", "you are not registered", 409)
        await hub.db(db_remove, hub.store, tid, player_id)
        info.entries = [e for e in info.entries if e.player_id != player_id]
        return info


async def start(hub: Hub, tid: str, player_id: str) -> Info:
    """The creator closes registration: lots are drawn and round one is laid."""
    async with _site(hub).lock:
        info = await get(hub, tid)
        if info.creator != player_id:
            raise TournamentRefused("not_creator", "only the tournament's creator may "
                                    "start it", 403)
        if info.status != "registering":
            raise _refuse(TournamentError("started"))
        t = info.tournament()
        try:
            t.start()
        except TournamentError as e:
            raise _refuse(e) from None
        info.status = "running"
        info.started = time.time()
        await _lay_round(hub, info, t)
        return info


def round_seed(info: Info, number: int) -> int | None:
    """The seed every table of round ``number`` of a duplicate tournament is dealt from
    (None: a tournament by places, each table its own random cards): the deal of the
    day's :func:`~.daily.deal_seed` of the tournament's secret, never shown (the public
    ``seed`` pairs the rounds; a round's cards must not be known before it is played),
    so the same seat of every table holds the same cards in every deal, with the same
    first dealer."""
    secret = info.state.get("deal_secret")
    return None if secret is None else deal_seed(int(secret), number, "tournament")


def revealed_secret(info: Info) -> str | None:
    """The secret a duplicate tournament's rounds were dealt from, once it is over (as
    the deal of the day reveals its seed): anyone can then check that every table of
    round ``r`` was laid with ``deal_seed(secret, r, "tournament")`` (each game's record
    shows its seed).  A decimal string: 128 bits are more than a JSON number keeps."""
    secret = info.state.get("deal_secret")
    return None if secret is None or info.status != "over" else str(int(secret))


async def _lay_round(hub: Hub, info: Info, t: Tournament) -> None:
    """Pair the next round, lay its tables and store the state (a round whose every
    player sits out, which the Tournament never makes, would stall).

    A duplicate round's tables are dealt the same cards (:func:`round_seed`), so they are
    unlisted and their replays kept for their players: a finished table, or one ahead
    in its deals, would show the cards to the players of another still playing them."""
    rnd = t.next_round()
    seed = round_seed(info, rnd.number)
    private = seed is not None
    rules = Rules.from_json({"preset": info.preset,
                             **({"max_deals": info.deals} if info.deals else {})})
    by_name = {e.name: e for e in info.entries}
    people = [e.player_id for e in info.entries if e.player_id]
    keys = await hub.db(seat_secrets, hub.store, people)
    site = _site(hub)
    ids: list[str] = []
    for index, names in enumerate(rnd.tables):
        table_id = secrets.token_urlsafe(12)
        seats: list[SeatRow] = []
        owner: tuple[str, str] | None = None
        for seat, name in enumerate(names):
            entry = by_name[name]
            if entry.bot is not None:
                seats.append(SeatRow(seat, "bot", entry.bot, name))
                continue
            row = SeatRow(seat, "human", None, name)
            secret = keys.get(entry.player_id or "")
            if owner is None and not any(s.kind == "human" for s in seats):
                # hub.create gives the first person's seat its token itself
                owner = (entry.player_id, secret) if entry.player_id and secret else None
            else:
                token = seat_token(secret, table_id, seat) if secret else new_token()
                row.token_hash = hash_token(token)
                row.player_id = entry.player_id if secret else None
            seats.append(row)
        live, _, _ = await hub.create(rules, seats, info.clock, not private, owner,
                                      table_id=table_id, control=info.time_control,
                                      seed=seed, replay="players" if private else None)
        site.tables[live.id] = (info.id, rnd.number, index)
        site.origin[live.id] = info.id
        ids.append(live.id)
    info.state["tables"].append(ids)
    if hub.laid_for is not None:  # the creator's live tables (docs/server.md "Limits")
        hub.laid_for(info.creator, ids)
    await hub.db(db_save, hub.store, info)


def _result_of(live: LiveTable) -> tuple[list[int], list[int], int]:
    game = live.table.game
    winner = game.winner
    winners = winner if isinstance(winner, list) else ([] if winner is None else [winner])
    return list(game.scores), list(winners), game.deals_played


async def _record(hub: Hub, info: Info, number: int, index: int,
                  result: tuple[list[int], list[int], int]) -> None:
    """Record one table's game; the next round laid once this one is complete, or the
    tournament over after the last."""
    if any(r["round"] == number and r["table"] == index for r in info.state["results"]):
        return
    t = info.tournament()
    scores, winners, deals = result
    t.record(number, index, scores, winners, deals)
    info.state["results"].append({"round": number, "table": index, "scores": scores,
                                  "winners": winners, "deals": deals})
    if t.finished:
        if round_seed(info, 1) is not None:  # nobody plays these cards any more
            await hub.db(hub.store.open_replays,
                         [tid for ids in info.state["tables"] for tid in ids])
        info.status = "over"
        info.finished = time.time()
        await hub.db(db_save, hub.store, info)
    elif t.rounds[-1].complete:
        await _lay_round(hub, info, t)  # stores the result with the new round
    else:
        await hub.db(db_save, hub.store, info)


def plays_for(live: LiveTable) -> bool:
    """Whether a table is a running tournament's (nobody may close it: Hub.close_table)."""
    return live.id in _site(live.hub).tables


def refuse_close(live: LiveTable) -> ServerError | None:
    """A running tournament's table is never closed (by its creator, or to make room at
    the server's cap): its round would wait for it for ever."""
    if plays_for(live):
        return ServerError("tournament_table", "a tournament's table cannot be closed",
                           status=409)
    return None


async def table_over(live: LiveTable) -> None:
    """A table's game is over (the hub announced it): a tournament's table is recorded."""
    hub = live.hub
    site = _site(hub)
    where = site.tables.get(live.id)
    if where is None:
        return
    tid, number, index = where
    try:
        async with site.lock:
            info = await get(hub, tid)
            if info.status == "running":
                await _record(hub, info, number, index, _result_of(live))
            site.tables.pop(live.id, None)
    except Exception:
        log.exception("tournament %s: cannot record table %s", tid, live.id)


async def resume(hub: Hub) -> None:
    """On the server's start: reconnect every running tournament to its tables (the hub
    has rebuilt the unfinished ones), recording those that ended meanwhile."""
    site = _site(hub)
    async with site.lock:
        for info in await hub.db(db_running, hub.store):
            try:
                await _resume(hub, site, info)
            except Exception:
                log.exception("tournament %s cannot be resumed", info.id)


async def _resume(hub: Hub, site: _Site, info: Info) -> None:
    tables = info.state["tables"]
    site.origin.update((table_id, info.id) for ids in tables for table_id in ids)
    if not tables:
        await _lay_round(hub, info, info.tournament())
        return
    number = len(tables)
    done = {r["table"] for r in info.state["results"] if r["round"] == number}
    for index, table_id in enumerate(tables[-1]):
        if index in done:
            continue
        site.tables[table_id] = (info.id, number, index)
        live = await hub.get(table_id)
        if live is not None and live.over:
            await _record(hub, info, number, index, _result_of(live))
            site.tables.pop(table_id, None)
    if len(done) == len(tables[-1]) and info.status == "running":
        t = info.tournament()
        if t.finished:
            info.status, info.finished = "over", time.time()
            await hub.db(db_save, hub.store, info)
        else:
            await _lay_round(hub, info, t)
