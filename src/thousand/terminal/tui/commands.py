"""The person's input at the full-screen table (:class:`TableCommands`): the command line,
the keys that pick and play a move, clicks on the hand, the row of moves and the talons,
and the hint (F2)."""

from __future__ import annotations

import time
from typing import Any

from rich.text import Text

from thousand.engine import moves as mv

from ..i18n import T, hint_line
from ..narration import _clip
from ..session import _SAVE, default_save_path, parse_input
from ..sheet_view import plain
from .game_flow import GameFlow
from .table_state import QUICK_ENTER
from .widgets import ChoiceBar, CommandLine, HandView, TablePanel
from .words import W

#: Two players: the keys that choose a talon by themselves (RULES §4 "Two players" 3).
_TALON_KEYS = {"1": "talon 1", "2": "talon 2"}


class TableCommands(GameFlow):
    """What the person types, presses and clicks."""

    def action_concede(self) -> None:
        """F6: pick «расписать» (concede), wherever it is in the row of moves; Enter then
        concedes.  Where the rules or the moment allow no concede, a line says so."""
        moves = [c.move for c in self.choices]
        if "concede" not in moves:
            self._say(W(self.lang, "no_concede"), "yellow")
            return
        self.selected = moves.index("concede")
        self._say(W(self.lang, "concede_picked"))
        self._draw_moves(self.view)

    def action_move(self, delta: int) -> None:
        if not self.choices:
            return
        self.selected = max(0, min(len(self.choices) - 1, self.selected + delta))
        self._draw_moves(self.view)

    def on_input_submitted(self, event: CommandLine.Submitted) -> None:
        text = event.value
        event.input.value = ""
        self.command(text)

    def command(self, text: str) -> None:
        """A line typed by the person (empty: the picked move, or on after a pause)."""
        line = text.strip()
        if self.paused and not line:
            self._continue()
            return
        if not line:
            if time.monotonic() - self._quick_at < QUICK_ENTER:
                self._quick_at = -QUICK_ENTER  # the Enter of "1, Enter" at the talons
                return
            if self.choices:
                self._submit(self.choices[self.selected].move)
            return
        low = " ".join(line.lower().split())
        saving = _SAVE.fullmatch(line)
        if saving:
            self._save(saving.group(2) or self.save_path or default_save_path())
            return
        if low in ("sheet", "запись", "пуля"):
            self.action_sheet()
            return
        if low in ("last", "взятка"):
            self.action_last_trick()
            return
        if low in ("why", "почему"):
            self.action_why()
            return
        asked = parse_input(text, self._numbered_view())
        if asked is None:
            self._say(T(self.lang, "unknown_input", text=_clip(text)), "yellow")
        elif asked == "quit":
            self.action_leave()
        elif asked == "help":
            self.action_help()
        elif asked == "hint":
            self.action_hint()
        else:
            self._submit(asked)

    def _numbered_view(self) -> dict[str, Any]:
        """The view with its legal moves in the order of :attr:`choices`, so that a typed
        number picks the move that shows that number."""
        if self.view.get("legal") is None:
            return {"legal": []}
        if not self.choices:
            return self.view
        return {**self.view, "legal": [c.move for c in self.choices]}

    def _quick_key(self, key: str) -> bool:
        """Two players: at the person's talon choice the key 1 or 2 chooses that talon at
        once (no Enter; an Enter just after it is taken as part of it).  True when the key
        was that move."""
        move = _TALON_KEYS.get(key)
        if move is None or move not in [c.move for c in self.choices]:
            return False
        self._quick_at = time.monotonic()
        self._submit(move)
        return True

    def on_table_panel_talon_picked(self, event: TablePanel.TalonPicked) -> None:
        """A click on a talon at the person's talon choice (two players)."""
        if event.move in [c.move for c in self.choices]:
            self._submit(event.move)

    def on_hand_view_clicked(self, event: HandView.Clicked) -> None:
        for i, c in enumerate(self.choices):
            if c.where == "hand" and c.card == event.card:
                self.selected = i
                self._submit(c.move)
                return
        if self.view.get("legal"):  # a card the rules refuse: the table says why
            asked = parse_input(event.card, self.view)
            if asked is not None:
                self._submit(asked)

    def on_choice_bar_picked(self, event: ChoiceBar.Picked) -> None:
        if 0 <= event.index < len(self.choices):
            self.selected = event.index
            self._submit(self.choices[event.index].move)

    def on_choice_bar_scrolled(self, event: ChoiceBar.Scrolled) -> None:
        if 0 <= event.index < len(self.choices):
            self.selected = event.index
            self._draw_moves(self.view)

    def action_escape(self) -> None:
        command = self.query_one("#command", CommandLine)
        if command.value:
            command.value = ""
        elif self._show_last:
            self._show_last = False
            self._refresh()

    def action_hint(self) -> None:
        if (self.busy or self.paused or self.table.over or self.human is None
                or self.table.to_move != self.human):
            self._say(W(self.lang, "not_your_turn"), "yellow")
            return
        view = self.table.view(self.human)
        version = self.table.version
        self.busy = "hint"
        self._refresh()

        def work() -> None:
            try:
                move, why = self.seats.hint(view, self.lang)
            except Exception as e:
                self._from_thread(self._hinted, version, None, str(e))
                return
            self._from_thread(self._hinted, version, move, why)

        self.run_worker(work, thread=True, group="hint", exit_on_error=False)

    def _hinted(self, version: int, move: mv.Move | None, why: str) -> None:
        self.busy = None
        if move is not None and version == self.table.version:
            seen = self.table.view(self.human or 0)  # the hint was asked for this seat
            text = hint_line(self.lang, self.seats.hint_level, seen, move, why)
            self._say(Text(plain(text), style="green"))
            self._write(Text(plain(text), style="green"))
            self._refresh()
            moves = [c.move for c in self.choices]
            if mv.move_str(move) in moves:
                self.selected = moves.index(mv.move_str(move))
                self._draw_moves(self.view)
        else:
            self._say(W(self.lang, "bot_error", name=self.seats.hint_level, why=why), "red")
            self._refresh()
        self._advance()
