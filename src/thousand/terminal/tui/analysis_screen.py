"""The analysis screen of the full-screen table (F7 once the game is over).

It steps through the person's decisions of the finished game (← → or n p one decision,
[ ] or Shift+← → the next marked one, Esc back to the table): the deal's position before
the decision as the seat saw it, drawn by the table's own widgets (:class:`TablePanel`
for the trick or the auction, :class:`HandView` for the hand), and what the analysis says
of it (:func:`~thousand.terminal.analysis_view.step_lines`), with the per-player summary.
The analysis runs in a worker thread behind a progress bar, so the screen stays live.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Mapping, Sequence
from typing import Any, ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.screen import Screen
from textual.widgets import ProgressBar, Static

from ..analysis_view import Step, jump, position, step_lines, steps, summary_lines
from ..analysis_view import word as analysis_word
from .widgets import HandView, TablePanel, auction_text, card_text, sort_hand, trump_text
from .words import W

#: Runs the analysis, calling its argument with (done, total) after each decision.
Runner = Callable[[Callable[[int, int], None]], dict[str, Any]]


class AnalysisScreen(Screen[None]):
    """The decisions of ``seat`` in ``record``, stepped through one by one; ``run`` makes
    the analysis (in a worker thread) unless ``analysis`` is given already, and ``keep``
    is handed it once made — even when the screen was closed meanwhile, so that F7 again
    does not start over."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("right,n", "step(1)", show=False),
        Binding("left,p", "step(-1)", show=False),
        Binding("shift+right,right_square_bracket", "marked(1)", show=False),
        Binding("shift+left,left_square_bracket", "marked(-1)", show=False),
        Binding("escape,q,f7", "close", show=False),
    ]

    def __init__(self, record: Mapping[str, Any], seat: int, names: Sequence[str], *,
                 lang: str, ten_strength: str = "high", run: Runner | None = None,
                 analysis: dict[str, Any] | None = None,
                 keep: Callable[[dict[str, Any]], None] | None = None) -> None:
        super().__init__()
        self.record = record
        self.seat = seat
        self.names = list(names)
        self.lang = lang
        self.ten_strength = ten_strength
        self._run = run
        self.analysis = analysis
        self._keep = keep
        self.steps: list[Step] = []
        self.at = 0
        #: what the screen says now, as text (what the tests read)
        self.text = ""

    def compose(self) -> ComposeResult:
        yield Static(W(self.lang, "analysis_title"), id="analysis-title")
        yield ProgressBar(id="analysis-progress", show_eta=False)
        yield Static(id="analysis-where")
        yield TablePanel(id="analysis-table")
        yield HandView(id="analysis-hand")
        yield Static(id="analysis-text")
        yield Static(id="analysis-summary")
        yield Static(Text(W(self.lang, "analysis_keys"), style="dim"), id="analysis-keys")

    def on_mount(self) -> None:
        if self.analysis is not None:
            self._ready(self.analysis)
            return
        self._show_text([W(self.lang, "analysis_running")])
        run = self._run
        assert run is not None, "an analysis or a way to make it"
        self._app = self.app

        def work() -> None:
            try:
                made = run(self._progress_from_thread)
            except Exception as e:  # said on the screen; the table goes on
                self._from_thread(self._failed, e)
                return
            self._from_thread(self._ready, made)

        # the app's worker: it outlives the screen, which Esc may close before the end
        self._app.run_worker(work, thread=True, group="analysis", exit_on_error=False)

    def _from_thread(self, fn: Callable[..., Any], *args: Any) -> None:
        # the app as it was at the start: a closed screen knows no app any more
        with contextlib.suppress(RuntimeError):  # the app has gone meanwhile
            self._app.call_from_thread(fn, *args)

    def _progress_from_thread(self, done: int, total: int) -> None:
        self._from_thread(self._progress, done, total)

    def _progress(self, done: int, total: int) -> None:
        if self.is_attached:
            self.query_one("#analysis-progress", ProgressBar).update(total=total, progress=done)

    def _failed(self, error: Exception) -> None:
        if not self.is_attached:
            return
        self.query_one("#analysis-progress", ProgressBar).display = False
        self._show_text([analysis_word(self.lang, "failed", why=error)])

    def _ready(self, analysis: dict[str, Any]) -> None:
        self.analysis = analysis
        if self._keep is not None:
            self._keep(analysis)
        if not self.is_attached:
            return
        self.steps = steps(analysis, self.seat)
        self.at = 0
        self.query_one("#analysis-progress", ProgressBar).display = False
        self.query_one("#analysis-summary", Static).update(
            Text("\n".join(summary_lines(analysis, self.lang)), style="bold"))
        self._draw()

    def _show_text(self, lines: Sequence[str]) -> None:
        self.text = "\n".join(lines)
        self.query_one("#analysis-text", Static).update(Text(self.text))

    def _draw(self) -> None:
        if not self.steps:
            self._show_text([analysis_word(self.lang, "none")])
            return
        step = self.steps[self.at]
        view = position(self.record, step.deal, step.index, step.seat)
        self._draw_position(view)
        lines = step_lines(self.steps, self.at, self.names, self.lang)
        self._show_text(lines)
        mark = step.mark
        if mark:  # the mark stands out
            styled = Text(self.text)
            styled.highlight_words([f"— {analysis_word(self.lang, mark)}"],
                                   style="bold red" if mark != "inaccuracy" else "yellow")
            self.query_one("#analysis-text", Static).update(styled)

    def _draw_position(self, view: Mapping[str, Any]) -> None:
        lang = self.lang
        where = Text(W(lang, "deal", n=self.steps[self.at].deal))
        if view.get("declarer") is not None and view.get("phase") != "auction":
            where.append(" │ ").append_text(trump_text(view.get("trump"), lang))
            n = view.get("contract") or view.get("bid")
            where.append(" │ " + W(lang, "contract", name=self._who(view["declarer"]), n=n))
        self.query_one("#analysis-where", Static).update(where)
        panel = self.query_one("#analysis-table", TablePanel)
        lines: list[Text] = []
        if view.get("phase") == "play":
            panel.border_title = W(lang, "on_table")
            for t in view.get("trick") or []:
                line = Text(f"{self._who(t['seat'])[:12]:<12} ")
                line.append_text(card_text(t["card"], lang))
                lines.append(line)
        else:
            panel.border_title = W(lang, "auction")
            for a in list(view.get("auction") or [])[-6:]:
                lines.append(auction_text(self._who(a["seat"]), a["move"], lang))
            if view.get("talon"):
                talon = Text(W(lang, "talon") + ": ")
                for card in view["talon"]:
                    talon.append_text(card_text(card, lang)).append(" ")
                lines.append(talon)
        panel.update(Text("\n").join(lines))
        hand, sizes = view.get("hand"), view.get("hand_sizes") or []
        hidden = sizes[self.seat] if hand is None and self.seat < len(sizes) else 0
        self.query_one("#analysis-hand", HandView).show(
            sort_hand(hand or [], self.ten_strength), lang, face_down=hidden)

    def _who(self, seat: int | None) -> str:
        return self.names[seat] if seat is not None and 0 <= seat < len(self.names) else "—"

    def action_step(self, direction: int) -> None:
        self._go(jump(self.steps, self.at, direction))

    def action_marked(self, direction: int) -> None:
        self._go(jump(self.steps, self.at, direction, marked=True))

    def _go(self, at: int) -> None:
        if self.steps and at != self.at:
            self.at = at
            self._draw()

    def action_close(self) -> None:
        self.dismiss(None)
