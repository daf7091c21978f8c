"""The flow of the game on the full-screen table (:class:`GameFlow`): a bot thinks in a
worker thread and moves after ``bot_delay``, the person's move goes to the table, every
event the seat receives is said in the log, and the table pauses between deals."""

from __future__ import annotations

import contextlib
import time
from collections.abc import Callable, Sequence
from functools import partial
from typing import Any

from rich.text import Text

from thousand.engine import moves as mv
from thousand.engine.protocol import view_json
from thousand.engine.table import TableError
from thousand.words.catalogue import event_text, illegal_text

from ..i18n import T
from ..narration import Event, _clip, visible_events
from ..render import cards_points, move_plain, talon_ordinal
from ..sheet_view import plain
from .saving import TableSaving
from .widgets import card_text
from .words import W

#: The events that are not a rule's: a hand is dealt to a seat (it is drawn, not told).
_SILENT = {"hand"}
#: Lines of the log that stand out.
_LOG_STYLE = {
    "deal_started": "bold", "deal_scored": "bold", "game_over": "bold green",
    "declarer": "bold", "contract": "bold", "concede": "yellow", "declaration": "magenta",
    "barrel_on": "bold red", "fall": "bold red", "knocked_off": "bold red",
    "barrel_timeout": "bold red", "bolt": "bold red", "penalty": "bold red",
    "samosval": "bold red", "bolt_samosval": "bold red", "fall_reset": "bold red",
    "golden_restart": "bold red", "trick": "dim",
}


class GameFlow(TableSaving):
    """Whose turn it is and what comes of each move, bots' and the person's."""

    def _advance(self) -> None:
        """Whatever comes next: a bot thinks, or the table waits for the person."""
        if self.paused or self.busy or self.leaving:
            self._refresh()
            return
        if self.table.over:
            self._game_over()
            return
        seat = self.seats.bot_to_move()
        if seat is None:
            self._refresh()
            return
        self._think(seat)

    def _think(self, seat: int) -> None:
        view = self.table.view(seat)
        version = self.table.version
        lang = self.lang if self.open_hands else None
        self.busy, self.thinking = "bot", seat
        self._refresh()
        start = time.monotonic()

        def work() -> None:
            try:
                move, why = self.seats.decide(seat, view, lang)
            except Exception as e:  # a bot's own failure: said on the table
                self._from_thread(self._bot_failed, seat, e)
                return
            self._from_thread(self._decided, seat, version, start, move, why)

        self.run_worker(work, thread=True, group="bots", exit_on_error=False)

    def _from_thread(self, fn: Callable[..., Any], *args: Any) -> None:
        with contextlib.suppress(RuntimeError):  # the app has gone meanwhile
            self.call_from_thread(fn, *args)

    def _bot_failed(self, seat: int, error: Exception) -> None:
        self.busy = self.thinking = None
        self._say(W(self.lang, "bot_error", name=self.names[seat], why=_clip(str(error), 80)),
                  "bold red")
        self._refresh()

    def _decided(self, seat: int, version: int, start: float, move: mv.Move, why: str) -> None:
        wait = self.bot_delay - (time.monotonic() - start)
        if wait > 0:
            self.set_timer(wait, partial(self._bot_plays, seat, version, move, why))
        else:
            self._bot_plays(seat, version, move, why)

    def _bot_plays(self, seat: int, version: int, move: mv.Move, why: str) -> None:
        self.busy = self.thinking = None
        if self.leaving or self.table.version != version:
            return
        events = self.seats.play(seat, move, version)
        self._autosaved()
        if self.open_hands:
            self._reasons[seat] = (move_plain(move, self.lang), why)
        self._take(events)
        self._advance()

    def _submit(self, move: str) -> None:
        """The person's move, as the table takes it; a refusal is said in one line."""
        if self.paused or self.busy or self.table.over or self.human is None or (
            self.table.to_move != self.human
        ):
            self._say(W(self.lang, "not_your_turn"), "yellow")
            return
        try:
            events = self.seats.play(self.human, move, self.table.version)
        except TableError as e:
            self._refused(e, move)
            return
        self._autosaved()
        self._say("")
        self._show_last = False
        self._take(events)
        self._advance()

    def _refused(self, error: TableError, text: str) -> None:
        p = error.params
        if error.code == "illegal_move":
            why = illegal_text(str(p["code"]), p.get("params") or {}, self.lang,
                               names=self.names)
            self._say(T(self.lang, "illegal", why=_clip(why, 200)), "yellow")
        elif error.code == "malformed":
            self._say(T(self.lang, "unknown_input", text=_clip(text)), "yellow")
        else:
            self._say(W(self.lang, "not_your_turn"), "yellow")

    def _take(self, events: Sequence[Event]) -> None:
        """Events from the table: each said in the log; at the end of a deal the table
        pauses, and the next deal's events wait for the person."""
        shown = visible_events(events, self.human, self.open_hands)
        for i, e in enumerate(shown):
            if e["type"] == "deal_started" and self._deal_over:
                self._pending = list(shown[i:])
                self.paused = True
                break
            self._log_event(e)
            if e["type"] == "deal_scored":
                self._deal_over = True
                self._scored = e
                self._end_view = self._finished_view()
        self._refresh()

    def _finished_view(self) -> dict[str, Any] | None:
        """The deal that has just ended, as the person's seat saw it at its end."""
        try:
            deal = self.table.game.last_finished_deal()
        except Exception:
            return None
        return view_json(deal.view(self.human))

    def _continue(self) -> None:
        """On to the next deal after the pause."""
        if not self.paused:
            return
        self.paused = False
        self._deal_over = False
        self._scored = None
        self._end_view = None
        pending, self._pending = self._pending, []
        self._take(pending)
        self._advance()

    def _game_over(self) -> None:
        self._refresh()
        if self._over_shown:
            return
        self._over_shown = True
        if self.save_path:
            self._save(self.save_path)
        self.action_sheet()
        if self.analyse:
            self.action_analysis()  # over the sheet: Esc shows the sheet, then the table

    def _log_event(self, e: Event) -> None:
        if e["type"] in _SILENT:
            return
        if e["type"] == "deal_started":
            self._write(Text(""))
            self._declarer = None
        if e["type"] == "declarer":
            self._declarer = e["seat"]
        text = self._talon_line(e) or event_text(e, self.lang, self.names)
        self._write(Text(plain(text), style=_LOG_STYLE.get(e["type"], "")))

    def _talon_line(self, e: Event) -> str | None:
        """Two players' talons in the log (RULES §4 "Two players" 3): «Аня берёт второй
        прикуп», and when the deal ends «Невзятый первый прикуп: К♠ 9♦ — 4 очка Боре»;
        None for any other event."""
        if e["type"] == "talon_choice":
            return T(self.lang, "talon_chosen", name=self._who(e["seat"]),
                     which=talon_ordinal(e["talon"], self.lang))
        if e["type"] == "other_talon":
            return T(self.lang, "other_talon", name=self._who(self._opponent_of(self._declarer)),
                     which=talon_ordinal(e["talon"], self.lang),
                     cards=" ".join(card_text(c, self.lang).plain for c in e["cards"]),
                     points=cards_points(e["cards"]))
        return None
