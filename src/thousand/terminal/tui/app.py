"""The full-screen table: a Textual app that sits at a :class:`~thousand.engine.table.Table`
like any client of the table protocol (docs/protocol.md), exactly as the line mode
(:mod:`thousand.terminal.session`) does.

The person's moves and the bots' go through ``table.submit``; every line of the log is a
protocol event the person's seat receives (all of them in the open-hands mode), worded by
the shared catalogue (:func:`thousand.words.catalogue.event_text`); what is drawn — the seats, the
middle of the table, the hand, the legal moves — comes from the seat's wire view
(``table.view_json``).  Who plays which seat and when a bot moves is
:class:`~thousand.terminal.session.Seats`, shared with the line mode; a bot decides in a
worker thread, so the table stays live (and says "thinking…") while it does.

Between deals the table pauses until the person presses Enter; ``bot_delay`` seconds at
least pass between two bot moves, so that a person sees each card land (the tests set it
to 0).

:class:`ThousandApp` is the last of a chain of classes, one a module, each a part of the
table built on the one before: :mod:`.table_state` (what the table holds), :mod:`.table_drawing`,
:mod:`.screens` (the screens over the table), :mod:`.saving`, :mod:`.game_flow`,
:mod:`.commands` (the person's input); this module adds the layout and the start.
"""

from __future__ import annotations

from typing import ClassVar

from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal
from textual.widgets import Static

from ..i18n import T, rules_summary, welcome
from .commands import TableCommands
from .styles import TABLE_CSS
from .table_drawing import TABLE_W_2
from .widgets import BIG_STEP, ChoiceBar, CommandLine, HandView, SeatPanel, TableLog, TablePanel
from .words import W

__all__ = ["ThousandApp"]


class ThousandApp(TableCommands):
    """A game of Тысяча on the whole screen: ``seats`` says who plays each seat (the
    person at ``seats.human``).  ``save_path`` is where a save goes (asked when leaving,
    written at the end of the game)."""

    CSS = TABLE_CSS
    TITLE = "Тысяча"
    ENABLE_COMMAND_PALETTE = False
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("f1", "help", show=False),
        Binding("f2", "hint", show=False),
        Binding("f3", "last_trick", show=False),
        Binding("f4", "sheet", show=False),
        Binding("f5", "why", show=False),
        Binding("f6", "concede", show=False),
        Binding("f7", "analysis", show=False),
        Binding("ctrl+s", "save", show=False, priority=True),
        Binding("ctrl+q,ctrl+c", "leave", show=False, priority=True),
        Binding("up", "move(1)", show=False),
        Binding("down", "move(-1)", show=False),
        Binding("pageup", "move(5)", show=False),
        Binding("pagedown", "move(-5)", show=False),
        Binding("home", f"move({-BIG_STEP})", show=False),
        Binding("end", f"move({BIG_STEP})", show=False),
        Binding("escape", "escape", show=False),
    ]

    def compose(self) -> ComposeResult:
        yield Static(id="top")
        with Horizontal(id="seats"):
            for seat in self._seat_order():
                yield SeatPanel(id=f"seat-{seat}", classes="seat")
        with Horizontal(id="middle"):
            yield TablePanel(id="table")
            yield TableLog(id="log", wrap=True, markup=False, highlight=False, min_width=20)
        yield Static(id="status")
        yield Static(id="message")
        yield ChoiceBar(id="bar")
        yield HandView(id="hand")
        yield CommandLine(self.action_move, self._quick_key, id="command", compact=True,
                          placeholder=W(self.lang, "placeholder"))
        yield Static(id="keys")

    def on_resize(self, event: events.Resize) -> None:
        """A new size: the notice if the table no longer fits, and the table drawn again
        once it is laid out at the new size (an open hand wraps to its seat's width)."""
        self._fit(event.size)
        if self.view:
            self.call_after_refresh(self._refresh)

    def _seat_order(self) -> list[int]:
        """The seats clockwise from the person's left, the person last."""
        n = self.table.game.n
        me = self.human if self.human is not None else n - 1
        return [(me + i) % n for i in range(1, n + 1)]

    def on_mount(self) -> None:
        panel = self.query_one("#table", TablePanel)
        panel.border_title = W(self.lang, "on_table")
        if self.table.game.n == 2:
            panel.styles.width = TABLE_W_2
        self._fit(self.size)
        self._welcome()
        self._start_autosave()
        log = self.table.log
        starts = [i for i, e in enumerate(log) if e["type"] == "deal_started"]
        self._take(log[starts[-1]:] if starts else log)
        self.query_one("#command", CommandLine).focus()
        self._advance()

    def _welcome(self) -> None:
        levels = [self.seats.levels[s] for s in sorted(self.seats.levels)]
        self._write(Text(welcome(self.lang, levels, self.rules.preset), style="bold"))
        for line in rules_summary(self.rules, self.lang):
            self._write(Text(f"• {line}"))
        if self.show_seed:
            self._write(Text(T(self.lang, "seed", seed=self.table.seed)))
        if self.open_hands:
            self._write(Text(T(self.lang, "open_mode")))
