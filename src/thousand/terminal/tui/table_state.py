"""The state of the full-screen table (:class:`TableState`), the base of
:class:`~thousand.terminal.tui.app.ThousandApp`: what the person's table holds and the two
lines every part of it writes to, the log and the message line.

The app is split by what each part does, one class a module, each built on the one
before: the state here, the drawing (:mod:`.table_drawing`), the screens over the table
(:mod:`.screens`), saving and leaving (:mod:`.saving`), the flow of the game
(:mod:`.game_flow`), the person's keys and commands (:mod:`.commands`) and the app itself
(:mod:`.app`: the layout and the start).  A part calls only the parts below it.
"""

from __future__ import annotations

from typing import Any

from rich.text import Text
from textual.app import App
from textual.widgets import Static

from thousand.engine.table import Table

from ..analysis_view import DEFAULT_SAMPLES
from ..autosave import Autosave
from ..narration import Event, inline_markup
from ..session import Seats
from ..sheet_view import plain
from .widgets import Choice, TableLog, TooSmallScreen
from .words import W

#: How long after a talon key an Enter on the empty line is taken as part of it (a person
#: used to "number, Enter"), not as the next phase's picked move.
QUICK_ENTER = 1.0


class TableState(App[None]):
    """What the full-screen table holds while a game goes on, set up by the app's
    arguments (see :class:`~thousand.terminal.tui.app.ThousandApp`)."""

    def __init__(
        self,
        table: Table,
        seats: Seats,
        *,
        lang: str = "ru",
        open_hands: bool = False,
        save_path: str | None = None,
        bot_delay: float = 0.5,
        show_seed: bool = False,
        autosave: Autosave | None = None,
        analysis_samples: int = DEFAULT_SAMPLES,
        analyse: bool | None = None,
    ) -> None:
        super().__init__()
        #: ``thousand play --analyse``: the analysis opens by itself at the end;
        #: ``--no-analyse``: F7 does nothing
        self.analyse = analyse
        #: sampled deals per decision of the analysis (F7); 0: open cards only
        self.analysis_samples = analysis_samples
        #: the finished game's analysis, once made (F7 again shows it at once)
        self.analysis: dict[str, Any] | None = None
        self.table = table
        self.seats = seats
        self.human = seats.human
        self.lang = lang
        self.open_hands = open_hands
        self.save_path = save_path
        self.bot_delay = bot_delay
        self.show_seed = show_seed
        #: where the game is saved after every move, and the exit status once it has gone
        #: (128 + n after SIGTERM or SIGHUP; autosave.py)
        self.autosave = autosave
        self.exit_status = 0
        self.rules = table.rules
        self.names = [plain(n) for n in table.names]
        self._nm = [inline_markup(n) for n in self.names]  # for the line mode's markup
        self.title = W(lang, "title")
        #: lines for the terminal once the app has gone (saved where, goodbye)
        self.farewell: list[str] = []
        #: the file the game was last saved to
        self.saved: str | None = None
        # what goes on now
        self.busy: str | None = None  # "bot" or "hint" while a worker thinks
        self.thinking: int | None = None
        self.paused = False
        self.leaving = False
        self._pending: list[Event] = []
        self._deal_over = False
        self._scored: Event | None = None
        self._end_view: dict[str, Any] | None = None
        self._game: dict[str, Any] | None = None  # the game's part of the last view
        self._show_last = False
        self._too_small: TooSmallScreen | None = None  # while the terminal is too small
        self._over_shown = False
        self._reasons: dict[int, tuple[str, str]] = {}
        self.view: dict[str, Any] = {}
        self.choices: list[Choice] = []
        self.selected = 0
        self.message = Text()
        #: every line written to the log, as text (what the tests read)
        self.log_lines: list[str] = []
        #: the deal's declarer, from its events (two players: the other talon's points go
        #: to his opponent)
        self._declarer: int | None = None
        #: when a talon key last chose a talon (:data:`QUICK_ENTER`)
        self._quick_at = -QUICK_ENTER

    def _who(self, seat: int | None) -> str:
        return self.names[seat] if seat is not None and 0 <= seat < len(self.names) else "—"

    def _opponent_of(self, seat: int | None) -> int | None:
        """Two players: the seat that is not ``seat`` (the declarer's defender)."""
        return next((s for s in range(self.table.game.n) if s != seat), None)

    def _can_analyse(self) -> bool:
        """F7 acts once the game is over, for the person's seat (not with
        ``--no-analyse``)."""
        return self.table.over and self.human is not None and self.analyse is not False

    def _write(self, line: Text) -> None:
        self.log_lines.append(line.plain)
        self.query_one("#log", TableLog).add(line)

    def _say(self, text: str | Text, style: str = "") -> None:
        self.message = text if isinstance(text, Text) else Text(plain(text), style=style)
        self._draw_message()

    def _draw_message(self) -> None:
        """The message line takes a row only while it says something."""
        line = self.query_one("#message", Static)
        line.update(self.message)
        line.display = bool(self.message.plain)
