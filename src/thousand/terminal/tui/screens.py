"""The screens over the table (:class:`TableScreens`): the notice when the terminal is too
small, help (F1), the score sheet (F4), the analysis (F7); and what the table shows on
request, the last trick (F3) and the bots' reasons (F5)."""

from __future__ import annotations

import io
from collections.abc import Callable
from typing import Any

from rich.console import Console, RenderableType
from rich.text import Text
from textual.geometry import Size

from thousand.words.sheet import score_sheet

from ..analysis_view import analyse_game
from ..sheet_view import render_score_sheet
from .analysis_screen import AnalysisScreen
from .table_drawing import TableDrawing
from .widgets import HandView, HelpScreen, SheetScreen, TooSmallScreen
from .words import W

#: The smallest terminal (columns, rows) the table is drawn in: below it every line could
#: not be whole, so the screen says how big it must be instead.
MIN_SIZE = (60, 24)
#: Four players' seats in one row need more columns: «сдаёт, не играет» whole.
MIN_SIZE_4 = (80, 24)


def as_text(renderable: RenderableType, width: int) -> Text:
    """``renderable`` drawn by Rich itself ``width`` columns wide, as lines of text: a
    table's columns keep the alignment Rich gives them inside a Textual widget."""
    console = Console(width=width, file=io.StringIO(), color_system="truecolor",
                      legacy_windows=False)
    lines = console.render_lines(renderable, console.options.update(width=width), pad=False)
    return Text("\n").join(
        Text.assemble(*[(seg.text, seg.style or "") for seg in line if not seg.control])
        for line in lines
    )


class TableScreens(TableDrawing):
    """The screens the table opens over itself, and what it shows on a key."""

    @property
    def min_size(self) -> tuple[int, int]:
        """The smallest terminal this table is drawn in (:data:`MIN_SIZE`)."""
        return MIN_SIZE_4 if self.table.game.n == 4 else MIN_SIZE

    def _fit(self, size: Size) -> None:
        """Show the table when the terminal holds it (:data:`MIN_SIZE`), else a screen
        that says, in the player's language, how big the terminal must be — rather than a
        table cut or wrapped beyond reading.  The game goes on behind it."""
        width, height = size
        # Narrower than 80 the header and the keys take two lines: the hand gives up the
        # row that raises its picked card.
        hand = self.query_one("#hand", HandView)
        hand.styles.height = 4 if width >= 80 or height >= 28 else 3
        need = self.min_size
        if width < need[0] or height < need[1]:
            text = Text(W(self.lang, "too_small", w=need[0], h=need[1], now_w=width,
                          now_h=height), style="bold yellow")
            if self._too_small is None:
                self._too_small = TooSmallScreen(text)
                self.push_screen(self._too_small)
            else:
                self._too_small.show(text)
        elif self._too_small is not None and self.screen is self._too_small:
            self._too_small = None
            self.pop_screen()
            if self.table.over:  # the sheet the end of the game opens had no room
                self.action_sheet()

    def action_help(self) -> None:
        if self._too_small is not None:
            return  # a panel over the notice would stay when the terminal grows
        text = W(self.lang, "help")
        if self.table.game.n == 2:  # how the talon is chosen, in the game it is chosen in
            text += "\n" + W(self.lang, "help_two")
        self.push_screen(HelpScreen(W(self.lang, "help_title"), Text(text),
                                    W(self.lang, "close")))

    def action_sheet(self) -> None:
        if self._too_small is not None:
            return  # the sheet is drawn to the width: there is no room for it now
        width = max(40, min(self.size.width, 124) - 4)  # the panel's frame and padding
        sheet = as_text(render_score_sheet(score_sheet(self.table.game, self.lang), width),
                        width)
        self.push_screen(SheetScreen("", sheet, W(self.lang, "close")))

    def action_analysis(self) -> None:
        """F7: the analysis screen, which makes the analysis (in a worker thread) the
        first time and keeps it for the next."""
        if not self._can_analyse() or self._too_small is not None:
            return
        assert self.human is not None
        record = self.table.to_record()
        human, samples, lang = self.human, self.analysis_samples, self.lang

        def run(progress: Callable[[int, int], None]) -> dict[str, Any]:
            return analyse_game(record, human, samples=samples, lang=lang, progress=progress)

        def keep(made: dict[str, Any]) -> None:
            self.analysis = made

        self.push_screen(AnalysisScreen(record, human, self.names, lang=lang,
                                        ten_strength=self.rules.ten_strength, run=run,
                                        analysis=self.analysis, keep=keep))

    def action_last_trick(self) -> None:
        if not self.view.get("tricks"):
            self._say(W(self.lang, "no_last_trick"), "yellow")
            return
        self._show_last = not self._show_last
        self._refresh()

    def action_why(self) -> None:
        if not self.open_hands:
            self._say(W(self.lang, "why_closed"), "yellow")
            return
        if not self._reasons:
            self._say(W(self.lang, "why_none"))
            return
        for seat in sorted(self._reasons):
            move, why = self._reasons[seat]
            self._write(Text(W(self.lang, "why", name=self._who(seat), move=move,
                               why=why or "—"), style="green"))
        self._say("")
