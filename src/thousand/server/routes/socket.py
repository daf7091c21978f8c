"""The table's WebSocket (``/ws/{table_id}``, docs/protocol.md): one per connection to a
table, a seat's (its token beside the ``thousand`` subprotocol) or a spectator's.  Each
frame goes to the live table (``LiveTable.handle``); what the table sends goes out in
order through the connection's queue.  With many workers a table held by another worker
is relayed there (server/cluster/workers.py)."""

from __future__ import annotations

import asyncio
import contextlib
import hmac
from typing import Any

from fastapi import APIRouter, WebSocket
from starlette.websockets import WebSocketDisconnect, WebSocketState

from ..checks import token_matches
from ..cluster.workers import Cluster, cluster_of
from ..features.accounts import Accounts
from ..ids import is_id
from ..limits import RateLimited, limiter_of
from ..live.hub import Conn, frames, hub_of
from ..live.reaper import resume
from ..reader import StrictRoute
from ..store.tables import TableRow
from ..web_security import same_origin
from .tables import invite_secret

__all__ = ["WS_PROTOCOL", "router"]

router = APIRouter(route_class=StrictRoute)

#: The WebSocket subprotocol of a table's socket; a seat's token travels beside it as
#: ``token.<token>`` (never in the URL, which logs and proxies keep).
WS_PROTOCOL = "thousand"


@router.websocket("/ws/{table_id}")
async def table_socket(websocket: WebSocket, table_id: str) -> None:
    if not same_origin(websocket.headers.get("origin"), websocket):
        await websocket.close(code=4403)  # another site's page: refused
        return
    offered = _subprotocols(websocket.headers.get("sec-websocket-protocol"))
    await websocket.accept(subprotocol=WS_PROTOCOL if WS_PROTOCOL in offered else None)
    limiter = limiter_of(websocket)
    try:  # how often and how many sockets one client and one address open
        await limiter.check(websocket, "socket")
        closed = await limiter.open_socket(websocket)
    except RateLimited as e:
        await _refuse(websocket, 4429, "rate_limited", e.message,
                      {"limit": e.limit, "seconds": e.seconds})
        return
    try:
        await serve_socket(websocket, table_id, offered)
    finally:
        closed()


async def serve_socket(websocket: WebSocket, table_id: str, offered: list[str]) -> None:
    """The connection's life: refused, relayed to the table's owner, or attached to the
    live table here until either side closes."""
    hub, cluster = hub_of(websocket), cluster_of(websocket)
    token = _socket_token(offered) or websocket.query_params.get("token")
    if cluster is not None and is_id(table_id):
        owner = await cluster.owner_for_socket(table_id)
        if owner is not None:  # held by another worker: this one relays
            await _relay(websocket, cluster, table_id, token, offered, owner)
            return
    live = await hub.get(table_id) if is_id(table_id) else None
    if live is None and token:  # an adjourned game comes back for its player
        live = await resume(hub, table_id, token)
    if live is None and cluster is not None and is_id(table_id) and (
            cluster.stopping or await cluster.owner_elsewhere(table_id)):
        # this worker is leaving, or another took the table just now: reconnect (no
        # error message: a page reconnects at once, saying nothing); the client may
        # have gone already
        with contextlib.suppress(Exception):
            await websocket.close(code=1012)
        return
    if live is None:
        await _refuse(websocket, 4404, "no_such_table", "no such table")
        return
    seat = live.seat_of_token(token) if token else None
    if await _refused(websocket, token, offered, live.row, seat, live.abandoned):
        return
    if seat is None and sum(c.seat is None for c in live.conns) >= hub.caps["watchers"]:
        await _refuse(websocket, 4429, "too_many_watchers",
                      "this table has as many spectators as it takes")
        return
    conn = Conn(seat, hub.caps["behind"])
    conn.limit = limiter_of(websocket).for_socket(websocket)
    writer = asyncio.create_task(_writer(websocket, conn))
    try:
        await live.attach(conn)
        async for raw in frames(websocket, conn):
            await live.handle(conn, raw)
    except WebSocketDisconnect:
        pass
    finally:
        live.detach(conn)
        await _written(writer)


async def _relay(websocket: WebSocket, cluster: Cluster, table_id: str, token: str | None,
                 offered: list[str], owner: str) -> None:
    """A table held by another worker: its owner plays it, this worker relays the
    connection (server/cluster/workers.py), after the same refusals as a local one."""
    hub = hub_of(websocket)
    row = await hub.db(hub.store.load, table_id, with_moves=False)
    held = None if row is None or not token else next(
        (s.seat for s in row.seats
         if s.kind == "human" and token_matches(token, s.token_hash)), None)
    if row is not None and await _refused(websocket, token, offered, row, held,
                                          row.abandoned):
        return
    conn = Conn(None, hub.caps["behind"])
    conn.limit = limiter_of(websocket).for_socket(websocket)
    writer = asyncio.create_task(_writer(websocket, conn))
    try:
        await cluster.relay(websocket, conn, table_id, token, owner)
    finally:
        await _written(writer)


async def _refused(websocket: WebSocket, token: str | None, offered: list[str],
                   row: TableRow, seat: int | None, abandoned: set[int]) -> bool:
    """Refuse, saying why, a token that holds no seat for this connection (none such,
    the seat left, or a browser whose session is not the seat's player's), or a
    spectator of an unlisted table without its link; True when refused."""
    if token:
        accounts: Accounts = websocket.app.state.accounts
        if seat is None or seat in abandoned or not await (
                accounts.may_hold(websocket, row.seats[seat].player_id)):
            await _refuse(websocket, 4401, "bad_token",
                          "this token holds no seat at this table")
            return True
    elif not row.listed and not hmac.compare_digest(
            (_socket_token(offered, "invite") or "").encode("utf-8", "replace"),
            invite_secret(row).encode("ascii")):
        # an unlisted table is watched, as its replay is seen, with its link only
        await _refuse(websocket, 4403, "invite_needed", "this table is not listed: "
                      "it is watched only with its link (invite)")
        return True
    return False


async def _written(writer: asyncio.Task[None]) -> None:
    """Let the connection's writer send what is queued (5 s at most), then end it."""
    try:
        await asyncio.wait_for(writer, 5)
    except (TimeoutError, asyncio.CancelledError):
        writer.cancel()


def _subprotocols(header: str | None) -> list[str]:
    return [p.strip() for p in (header or "").split(",") if p.strip()][:8]


def _socket_token(offered: list[str], kind: str = "token") -> str | None:
    """The seat token a client sends beside the ``thousand`` subprotocol, as
    ``token.<token>`` (a page: ``new WebSocket(url, ["thousand", "token." + token])``),
    so that it is in no URL; ``?token=`` is still read for older programs.  An unlisted
    table's invite travels the same way, as ``invite.<secret>`` (``kind="invite"``)."""
    if WS_PROTOCOL not in offered:
        return None
    prefix = kind + "."
    for p in offered:
        if p.startswith(prefix) and len(p) > len(prefix):
            return p[len(prefix):]
    return None


async def _refuse(websocket: WebSocket, code: int, error: str, message: str,
                  params: dict[str, Any] | None = None) -> None:
    with contextlib.suppress(Exception):  # the client may have gone already
        await websocket.send_json({"type": "error", "code": error, "params": params or {},
                                   "message": message})
        await websocket.close(code=code)


async def _writer(websocket: WebSocket, conn: Conn) -> None:
    """Send the connection's queue in order; at its end (the connection closed, or fell
    too far behind) close the socket, which ends the reader too."""
    try:
        while True:
            text = await conn.queue.get()
            if text is None:
                break
            await websocket.send_text(text)
    except Exception:
        conn.closed = True
        return
    if websocket.application_state == WebSocketState.CONNECTED:
        with contextlib.suppress(Exception):
            await websocket.close(code=conn.close_code)
