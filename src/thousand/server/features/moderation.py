"""Moderation (docs/server.md "Moderation"): reports of players, the moderators' actions
and their log, the site-wide chat mute and the word filter at the tables' chat.

Anyone with a session may report a player (from a table's seat or chat line, or from his
page) with a reason of :data:`REASONS` and a short text; the table's chat is kept with the
report as it was then.  A moderator (``players.role``, given by ``thousand admin
grant-moderator``) sees the open reports on ``/moderation`` and acts: ``dismiss`` the
report, ``mute`` the player's chat on every table for some hours, ``hide`` his name
(others see a neutral one; he signs in as before), ``close`` his account (his sessions
end, he cannot sign in).  Every action is a line of the log, which the page shows.

The live tables know nothing of this: :meth:`Moderation.check_chat` listens to their
``chatting`` announcement (server/features/events.py) and refuses a muted player's line
or one with a filtered word (server/features/chat_filter.py).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from ..errors import ServerError
from ..store import moderation as rows
from ..store.accounts import Player
from ..store.tables import Store
from .accounts import rename_live
from .chat_filter import ChatFilter

if TYPE_CHECKING:
    from ..live.hub import Hub, LiveTable

__all__ = ["ACTIONS", "CHAT_KEPT", "HIDDEN_NAME", "MAX_HOURS", "MAX_REPORT_TEXT", "REASONS",
           "Moderation"]

#: Why a player is reported (the pages word each).
REASONS = ("abuse", "spam", "cheating", "name", "other")
#: What a moderator does with a report (or a player).
ACTIONS = ("dismiss", "mute", "hide", "close")
#: The longest text of a report, in characters.
MAX_REPORT_TEXT = 300
#: The table's last chat lines kept with a report.
CHAT_KEPT = 30
#: The longest mute, in hours (30 days).
MAX_HOURS = 720
#: The name a hidden name is replaced with (and a few random characters): data, one name.
HIDDEN_NAME = "игрок"


class Moderation:
    """The moderation of one server: its store, its word filter, its clock (``now``: the
    tests move it)."""

    def __init__(self, hub: Hub, store: Store, words: ChatFilter,
                 now: Callable[[], float] = time.time) -> None:
        self.hub, self.store, self.words, self.now = hub, store, words, now

    # ------------------------------------------------------------------ the chat

    async def check_chat(self, live: LiveTable, seat: int, text: str) -> None:
        """A chat line about to be said at ``live`` (the tables' ``chatting``
        announcement): :meth:`check_line` of its seat's player."""
        await self.check_line(live.seats[seat].player_id, text)

    async def check_line(self, player_id: str | None, text: str) -> None:
        """Any chat line of ``player_id`` (None: a seat nobody with a session holds),
        wherever it is said: refused (ServerError) when it has a filtered word, or when
        its player is muted."""
        self.words.check(text)
        if player_id is None:
            return
        until = await self.hub.db(rows.muted_until, self.store, player_id)
        if until is not None and until > self.now():
            raise ServerError("chat_muted", "a moderator muted your chat for now",
                              until=until, ru="модератор запретил вам писать в чат до "
                              "указанного времени")

    # ------------------------------------------------------------------ who is who

    async def is_moderator(self, player: Player | None) -> bool:
        return (player is not None and player.kind == "account"
                and await self.hub.db(rows.role, self.store, player.id) == rows.MODERATOR)

    async def moderator(self, player: Player | None) -> Player:
        """The moderator ``player`` is, or ServerError ``not_moderator`` (403)."""
        if player is None or not await self.is_moderator(player):
            raise ServerError("not_moderator", "for moderators only", status=403,
                              ru="только для модераторов")
        return player

    # ------------------------------------------------------------------ reports

    async def reported_seat(self, table_id: str, seat: int) -> tuple[str, str]:
        """(player id, name) of a table's seat (in memory, else as stored)."""
        live = self.hub.tables.get(table_id)
        seats = live.seats if live is not None else None
        if seats is None:
            row = await self.hub.db(self.hub.store.load, table_id, with_moves=False)
            seats = row.seats if row is not None else None
        if seats is None:
            raise ServerError("not_found", "no such table", status=404)
        if not 0 <= seat < len(seats) or seats[seat].player_id is None:
            raise ServerError("no_such_seat", "no person to report at this seat",
                              status=400, seat=seat)
        return str(seats[seat].player_id), seats[seat].name

    async def report(self, reporter: Player, address: str, reported: tuple[str, str],
                     reason: str, text: str, table_id: str | None) -> int:
        """Keep a report (``reported``: id and name) with the table's last chat lines."""
        if reported[0] == reporter.id:
            raise ServerError("self_report", "you cannot report yourself", status=400,
                              ru="на себя пожаловаться нельзя")
        chat: list[dict[str, Any]] = []
        if table_id is not None:
            lines = await self.hub.db(self.hub.store.chat, table_id, CHAT_KEPT)
            chat = [{"seat": c.seat, "name": c.name, "text": c.text, "at": c.at}
                    for c in lines]
        return await self.hub.db(
            rows.add_report, self.store, reporter_id=reporter.id, address=address,
            reported_id=reported[0], reported_name=reported[1], reason=reason, text=text,
            table_id=table_id, chat=chat, now=self.now())

    # ------------------------------------------------------------------ actions

    async def act(self, moderator: Player, action: str, *, report_id: int | None = None,
                  player_id: str | None = None, hours: int | None = None) -> str:
        """Do ``action`` (:data:`ACTIONS`) on a report's player (or ``player_id``), mark
        the report handled, write the log; what was done, in words of the log."""
        report = None
        if report_id is not None:
            report = await self.hub.db(rows.find_report, self.store, report_id)
            if report is None:
                raise ServerError("not_found", "no such report", status=404)
            player_id = report.reported_id
        if player_id is None:
            raise ServerError("bad_request", "a report or a player, please", status=400)
        name = await self.hub.db(rows.player_name, self.store, player_id)
        if name is None:
            raise ServerError("not_found", "no such player", status=404)
        now = self.now()
        detail = ""
        if action == "mute":
            if hours is None or not 1 <= hours <= MAX_HOURS:
                raise ServerError("bad_hours", f"hours: from 1 to {MAX_HOURS}", status=400,
                                  ru=f"часов — от 1 до {MAX_HOURS}")
            await self.hub.db(rows.mute, self.store, player_id, now + hours * 3600.0)
            detail = f"{hours} h"
        elif action == "hide":
            shown, seats = await self.hub.db(rows.hide_name, self.store, player_id,
                                             HIDDEN_NAME)
            await rename_live(self.hub, seats, shown)
            detail = f"→ {shown}"
        elif action == "close":
            await self.hub.db(rows.close, self.store, player_id, now)
        elif action != "dismiss":
            raise ServerError("bad_request", f"action: one of {', '.join(ACTIONS)}",
                              status=400)
        if report is not None:
            await self.hub.db(rows.handle_report, self.store, report.id,
                              "dismissed" if action == "dismiss" else "acted",
                              moderator.id, now)
        await self.hub.db(rows.log_action, self.store, moderator_id=moderator.id,
                          moderator_name=moderator.name or "", action=action,
                          player_id=player_id, player_name=name,
                          report_id=report.id if report else None, detail=detail, now=now)
        return detail
