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
"""

from __future__ import annotations

import contextlib
import io
import time
from collections.abc import Callable, Sequence
from dataclasses import replace
from functools import partial
from typing import Any, ClassVar

from rich.console import Console, RenderableType
from rich.text import Text
from textual import events
from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal
from textual.geometry import Size
from textual.widgets import Static

from thousand.engine import moves as mv
from thousand.engine.protocol import view_json
from thousand.engine.table import Table, TableError
from thousand.sheet import score_sheet
from thousand.words.catalogue import event_text, illegal_text, preset_name

from ..analysis_view import DEFAULT_SAMPLES, analyse_game
from ..autosave import Autosave, exit_status, write_save
from ..i18n import T, hint_line, rules_summary, welcome
from ..render import (
    cards_points,
    discards_due,
    discards_in_deal,
    move_markup,
    move_plain,
    phase_line,
    talon_ordinal,
    tricks_in_deal,
)
from ..session import (
    _SAVE,
    Event,
    Seats,
    _clip,
    default_save_path,
    inline_markup,
    parse_input,
    visible_events,
)
from ..sheet_view import plain, render_score_sheet
from .analysis_screen import AnalysisScreen
from .styles import TABLE_CSS
from .widgets import (
    BIG_STEP,
    Choice,
    ChoiceBar,
    CommandLine,
    HandView,
    HelpScreen,
    LeaveScreen,
    SeatPanel,
    SheetScreen,
    TableLog,
    TablePanel,
    TooSmallScreen,
    auction_text,
    card_text,
    sort_hand,
    trump_text,
)
from .words import W

__all__ = ["ThousandApp", "as_text"]

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
#: The smallest terminal (columns, rows) the table is drawn in: below it every line could
#: not be whole, so the screen says how big it must be instead.
MIN_SIZE = (60, 24)
#: Four players' seats in one row need more columns: «сдаёт, не играет» whole.
MIN_SIZE_4 = (80, 24)
#: The order of the word moves in the row of moves (numbers come after ``pass``).
_WORD_ORDER = {"pass": 0, "dark": 2, "look": 3, "buy": 4, "redeal": 5, "concede": 6,
               "talon 1": 7, "talon 2": 8}
#: Two players: the keys that choose a talon by themselves (RULES §4 "Two players" 3).
_TALON_KEYS = {"1": "talon 1", "2": "talon 2"}
#: How long after a talon key an Enter on the empty line is taken as part of it (a person
#: used to "number, Enter"), not as the next phase's picked move.
_QUICK_ENTER = 1.0
#: Two players: the table's middle is this much wider, for the talons' rows.
_TABLE_W_2 = 34


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


def _seat_points(view: dict[str, Any], seat: int) -> int:
    """The points a seat has in the deal: its tricks and declarations while it is played;
    once it has ended the engine's own count (``result.points``), which adds what the
    tricks do not show: the declarer's discards, and with two players the unchosen talon
    to the defender (RULES §4 "Two players" 3), so the panel says what the log says."""
    result = view.get("result")
    if result and result.get("outcome") == "played" and seat < len(result["points"]):
        return int(result["points"][seat])
    taken = (view.get("taken") or [0] * (seat + 1))[seat]
    bonus = (view.get("bonus") or [0] * (seat + 1))[seat]
    return int(taken + bonus)


class ThousandApp(App[None]):
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
        #: when a talon key last chose a talon (:data:`_QUICK_ENTER`)
        self._quick_at = -_QUICK_ENTER

    # ------------------------------------------------------------------ layout

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

    def _seat_order(self) -> list[int]:
        """The seats clockwise from the person's left, the person last."""
        n = self.table.game.n
        me = self.human if self.human is not None else n - 1
        return [(me + i) % n for i in range(1, n + 1)]

    def on_mount(self) -> None:
        panel = self.query_one("#table", TablePanel)
        panel.border_title = W(self.lang, "on_table")
        if self.table.game.n == 2:
            panel.styles.width = _TABLE_W_2
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

    # ------------------------------------------------------------------ the flow

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

    # ------------------------------------------------------------------ the log

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

    # ------------------------------------------------------------------ drawing

    def _display_view(self) -> dict[str, Any]:
        if self.paused and self._end_view is not None:
            view = dict(self._end_view)
            view["legal"] = []
            return view
        return self.table.view_json(self.human)

    def _refresh(self) -> None:
        view = self._display_view()
        if view.get("game"):
            self._game = dict(view["game"])
        if self._scored is not None and self._game is not None:
            self._game["scores"] = list(self._scored["scores"])
        self.view = view
        my_turn = (not self.paused and not self.busy and not self.table.over
                   and self.human is not None and self.table.to_move == self.human)
        self._make_choices(view if my_turn else None)
        self._draw_top(view)
        for seat in range(self.table.game.n):
            self._draw_seat(view, seat)
        self._draw_table(view)
        self._draw_status(view, my_turn)
        self._draw_moves(view)
        self._draw_keys()
        self._draw_message()

    def _draw_keys(self) -> None:
        """The line of keys that do something now: F3 once a trick is taken, F5 with
        open hands, F6 while concede is one of the moves (never with F3: a deal is
        conceded before its first trick), so that it holds in one line of 80."""
        names = ["key_help", "key_hint"]
        if self.view.get("tricks"):
            names.append("key_last")
        names.append("key_sheet")
        if self.open_hands:
            names.append("key_why")
        if any(c.move == "concede" for c in self.choices):
            names.append("key_concede")
        if any(c.move == "talon 1" for c in self.choices):
            names.append("key_talon")
        if self._can_analyse():
            names.append("key_analysis")
        names += ["key_save", "key_quit"]
        keys = " ".join(W(self.lang, name) for name in names)
        self.query_one("#keys", Static).update(Text(keys, style="dim"))

    def _make_choices(self, view: dict[str, Any] | None) -> None:
        old = self.choices[self.selected].move if self.choices else None
        self.choices = []
        if view is None:
            self.selected = 0
            return
        legal: list[str] = list(view["legal"])
        number = {m: 0 for m in legal}  # numbered below, in the order shown
        if view["phase"] in ("play", "exchange") and view["hand"]:
            primary: dict[str, str] = {}
            for card in sort_hand(view["hand"], self.rules.ten_strength):
                for m in (card + "+", card, "give " + card, "discard " + card):
                    if m in number:
                        primary[card] = m
                        self.choices.append(Choice(m, "hand", card_text(card, self.lang),
                                                   number[m], card))
                        break
            for m in legal:
                if m in primary.values():
                    continue
                if mv.is_card_play(mv.parse_move(m)):  # the card without its marriage
                    label = card_text(m, self.lang)
                    label.append(" " + W(self.lang, "no_declare"), style="dim")
                else:  # a word move beside the cards (the declarer's redeal)
                    label = self._label(m, view)
                self.choices.append(Choice(m, "bar", label, number[m]))
        else:
            def order(m: str) -> tuple[int, int]:
                if m in _WORD_ORDER:
                    return (_WORD_ORDER[m], 0)
                return (1, mv.value_of(mv.parse_move(m)))

            for m in sorted(legal, key=order):
                self.choices.append(Choice(m, "bar", self._label(m, view), number[m]))
        # Numbers follow the order on the screen: the hand from the left, then the row of
        # moves; a typed number means the same (:meth:`_numbered_view`).
        self.choices = [replace(c, number=i + 1) for i, c in enumerate(self.choices)]
        moves = [c.move for c in self.choices]
        if old in moves:
            self.selected = moves.index(old)
        elif "look" in moves:
            self.selected = moves.index("look")
        else:
            self.selected = 0

    def _label(self, move: str, view: dict[str, Any]) -> Text:
        m = mv.parse_move(move)
        if mv.is_bid(m) or mv.is_contract(m):
            text = move_markup(m, view, self.rules, self._nm, self.lang)
            if mv.is_contract(m) or text.startswith(T(self.lang, "opt_bid", n="")):
                return Text(str(mv.value_of(m)))
            return Text.from_markup(text)
        return Text.from_markup(move_markup(m, view, self.rules, self._nm, self.lang))

    def _who(self, seat: int | None) -> str:
        return self.names[seat] if seat is not None and 0 <= seat < len(self.names) else "—"

    def _draw_top(self, view: dict[str, Any]) -> None:
        lang = self.lang
        game = self._game or {}
        out = Text(W(lang, "title"), style="bold")
        out.append(" · " + preset_name(self.rules.preset, lang))
        if game.get("deal"):
            out.append(" · " + W(lang, "deal", n=game["deal"]))
        if view.get("golden"):
            out.append(" · " + W(lang, "golden"), style="bold yellow")
        if view.get("declarer") is not None and view.get("phase") not in ("auction",):
            out.append(" │ ")
            out.append_text(trump_text(view.get("trump"), lang))
            n = view.get("contract") or view.get("bid")
            out.append(" │ " + W(lang, "contract", name=self._who(view["declarer"]), n=n))
            if view.get("dark"):
                out.append(W(lang, "dark"))
        self.query_one("#top", Static).update(out)

    def _draw_seat(self, view: dict[str, Any], seat: int) -> None:
        lang = self.lang
        panel = self.query_one(f"#seat-{seat}", SeatPanel)
        game = self._game or {}
        phase = view.get("phase")
        active = view.get("active") or []
        to_move = (not self.paused and not self.table.over and view.get("to_move") == seat
                   and view.get("phase") != "over")
        title = ("▶ " if to_move else "") + self._who(seat)
        if seat == view.get("declarer") and phase not in ("dark choice", "auction"):
            title += " " + W(lang, "declarer", n=view.get("contract") or view.get("bid"))
        panel.border_title = title
        panel.set_class(to_move, "-to-move")
        panel.set_class(seat == self.human, "-you")
        # the score and its marks
        line1 = Text()
        scores = game.get("scores") or []
        if seat < len(scores):
            line1.append(str(scores[seat]), style="bold")
        if (game.get("on_barrel") or [False] * (seat + 1))[seat]:
            left = (game.get("barrel_deals_left") or [None] * (seat + 1))[seat]
            mark = W(lang, "barrel_left", n=left) if left is not None else W(lang, "barrel")
            line1.append("  " + mark, style="bold yellow")
        bolts = (game.get("bolts") or [0] * (seat + 1))[seat]
        if bolts:
            line1.append("  " + W(lang, "bolts", n=bolts), style="yellow")
        # the deal
        line2 = Text()
        if seat not in active:
            line2.append(W(lang, "sits_out_you" if seat == self.human else "sits_out"),
                         style="dim")
        elif phase in ("dark choice", "auction"):
            said = [a["move"] for a in view.get("auction") or () if a["seat"] == seat]
            if said:
                last = said[-1]
                if last == "pass":
                    line2.append(W(lang, "pass"), style="dim")
                elif last == "dark":
                    line2.append(W(lang, "dark_bid"), style="bold")
                else:
                    line2.append(W(lang, "bid", n=last), style="bold")
        elif phase in ("play", "over") or view.get("tricks"):
            tricks = (view.get("tricks_won") or [0] * (seat + 1))[seat]
            line2.append(W(lang, "tricks", n=tricks, points=_seat_points(view, seat)))
        # the cards
        hand: list[str] = []
        count = Text()
        sizes = view.get("hand_sizes") or []
        if self.open_hands and seat != self.human and seat in active and not self.paused:
            hand = self.table.view_json(seat)["hand"] or []
        if seat < len(sizes) and seat in active:
            count = Text(W(lang, "cards", n=sizes[seat]), style="dim")
        panel.show(line1, line2, hand=hand, count=count,
                   mark=W(lang, "dealer_mark_you" if seat == self.human else "dealer_mark")
                   if view.get("dealer") == seat else "",
                   lang=lang, ten_strength=self.rules.ten_strength)

    def _cards_line(self, head: str, cards: list[str] | None, hidden: int,
                    style: str = "") -> Text:
        """``head`` and the cards face up, or ``hidden`` cards face down (░)."""
        line = Text(head)
        if cards:
            for i, card in enumerate(cards):
                line.append(" " if i else "")
                line.append_text(card_text(card, self.lang, style))
        else:
            line.append(" ".join("░" * hidden), style="dim")
        return line

    def _talon_lines(self, view: dict[str, Any], panel: TablePanel) -> list[Text]:
        """The talon: three players' one, or two players' two (:meth:`_two_talons`)."""
        panel.talon_columns = []
        if self.table.game.n == 2:
            return self._two_talons(view, panel)
        if view.get("talon"):
            return [self._cards_line(W(self.lang, "talon") + ": ", view["talon"], 0)]
        line = Text(W(self.lang, "talon") + ": ")
        line.append("░ ░ ░" if view.get("declarer") is None else "—", style="dim")
        return [line]

    def _two_talons(self, view: dict[str, Any], panel: TablePanel) -> list[Text]:
        """Two players' talons side by side, each under its number (RULES §4 "Two players"
        3): face down until chosen; the chosen one face up as ``talon_shown`` says, with
        the declarer's ★; the other turned over when the deal ends, with its points to
        the defender under it.  While the person chooses, each says its key, and a click
        on a talon's column chooses it (``panel.talon_columns``)."""
        lang = self.lang
        chosen = view.get("talon_choice")
        other = view.get("other_talon")
        width = max(12, (panel.content_size.width or _TABLE_W_2 - 4) // 2)
        columns: list[list[Text]] = []
        for n in (1, 2):
            cards = self._cards_line("", view.get("talon") if n == chosen else other, 2)
            if n == chosen:
                cards.append(" ★", style="bold")
            column = [Text(W(lang, "talon_n", n=n), style="bold"), cards]
            if "talon 1" in [c.move for c in self.choices]:
                column.append(Text(W(lang, "talon_key", n=n), style="bold cyan"))
                panel.talon_columns.append(((n - 1) * width, n * width, f"talon {n}"))
            elif chosen is not None and n != chosen and other:
                defender = self._opponent_of(view.get("declarer"))
                column.append(Text(W(lang, "to_defender", name=self._who(defender)[:10],
                                     points=cards_points(other)), style="bold"))
            columns.append(column)
        rows = []
        for i in range(max(len(c) for c in columns)):
            left = columns[0][i].copy() if i < len(columns[0]) else Text()
            left.pad_right(width - left.cell_len)
            rows.append(left.append_text(columns[1][i] if i < len(columns[1]) else Text()))
        return rows

    def _opponent_of(self, seat: int | None) -> int | None:
        """Two players: the seat that is not ``seat`` (the declarer's defender)."""
        return next((s for s in range(self.table.game.n) if s != seat), None)

    def _discard_line(self, view: dict[str, Any]) -> Text | None:
        """The declarer's discards so far (two players, ``discard_three``): face down, his
        own dim to him."""
        d = view.get("declarer")
        if d is None or not discards_due(self.rules):
            return None
        known = view.get("discards")
        if known is None:
            sizes = view.get("hand_sizes") or []
            held = self.table.game.hand_size + (2 if self.table.game.n == 2 else 3)
            count = max(0, held - sizes[d]) if d < len(sizes) else 0
        else:
            count = len(known)
        count = min(count, discards_in_deal(self.rules))
        if not count:
            return None
        return self._cards_line(W(self.lang, "discards") + ": ", known, count, "dim")

    def _draw_table(self, view: dict[str, Any]) -> None:
        lang = self.lang
        panel = self.query_one("#table", TablePanel)
        lines: list[Text] = self._talon_lines(view, panel)
        phase = view.get("phase")
        tricks = view.get("tricks") or []
        trick = view.get("trick") or []
        title = W(lang, "talon_choice") if phase == "talon choice" else W(lang, "on_table")
        if phase in ("dark choice", "auction") or (
            phase == "over" and not tricks and view.get("auction")
        ):
            title = W(lang, "auction")
            entries = list(view.get("auction") or [])[-6:]
            lines.extend(auction_text(self._who(a["seat"]), a["move"], lang) for a in entries)
        elif phase in ("talon choice", "exchange", "contract", "buy", "redeal offer") and (
                not tricks):
            discards = self._discard_line(view)
            if discards is not None:
                lines.append(discards)
            given = view.get("given") or []
            if given:
                lines.append(Text(W(lang, "given") + ":", style="dim"))
            for g in given:
                line = Text(f"→ {self._who(g['to'])[:12]:<12} ")
                if g.get("card"):
                    line.append_text(card_text(g["card"], lang))
                else:
                    line.append("░", style="dim")
                lines.append(line)
        else:
            showing_last = (self._show_last or not trick) and tricks
            if showing_last:
                last = tricks[-1]
                cards = [(c["seat"], c["card"]) for c in last["cards"]]
                title = W(lang, "last_trick", name=self._who(last["winner"]),
                          points=last["points"])
                winner = last["winner"]
            else:
                cards = [(t["seat"], t["card"]) for t in trick]
                winner = None
                title = W(lang, "trick_n", n=len(tricks) + 1, total=tricks_in_deal(self.rules))
            played = dict(cards)
            order = [s for s, _ in cards] + [s for s in self._lead_order(view, cards)
                                             if s not in played]
            for s in order:
                line = Text(f"{self._who(s)[:12]:<12} ",
                            style="bold" if s == winner else "")
                if s in played:
                    line.append_text(card_text(played[s], lang,
                                               "dim" if showing_last and s != winner else ""))
                else:
                    line.append("·", style="dim")
                lines.append(line)
        panel.border_title = title
        panel.update(Text("\n").join(lines))

    def _lead_order(self, view: dict[str, Any], cards: list[tuple[int, str]]) -> list[int]:
        active = list(view.get("active") or [])
        if not active:
            return []
        lead = cards[0][0] if cards else view.get("to_move", active[0])
        if lead not in active:
            return active
        i = active.index(lead)
        return active[i:] + active[:i]

    def _draw_status(self, view: dict[str, Any], my_turn: bool) -> None:
        lang = self.lang
        status = Text()
        if self.paused and self._scored is not None:
            status.append(plain(event_text(self._scored, lang, self.names)), style="bold")
        elif self.table.over:
            status.append(W(lang, "over_analysis" if self._can_analyse() else "over"),
                          style="bold green")
        elif self.busy == "bot" and self.thinking is not None:
            status.append(W(lang, "thinking", name=self._who(self.thinking)), style="italic")
        elif self.busy == "hint":
            status.append(W(lang, "hint_thinking"), style="italic")
        elif my_turn:
            line = phase_line(view, self.rules, self._nm, lang, open_hands=self.open_hands)
            status.append(W(lang, "you_move") + " ", style="bold green")
            without = [str(c.number) for c in self.choices
                       if c.where == "bar" and mv.is_card_play(mv.parse_move(c.move))]
            if line:
                status.append_text(Text.from_markup(line))
            elif without:
                status.append(W(lang, "declare_how", numbers=", ".join(without)))
            elif view.get("phase") == "play":
                status.append(W(lang, "how_to_play"), style="dim")
        self.query_one("#status", Static).update(status)

    def _draw_moves(self, view: dict[str, Any]) -> None:
        hand = self.query_one("#hand", HandView)
        bar = self.query_one("#bar", ChoiceBar)
        cards = view.get("hand")
        selected = self.choices[self.selected] if self.choices else None
        hand_choices = {c.card: c for c in self.choices if c.where == "hand" and c.card}
        if cards is None:
            sizes = view.get("hand_sizes") or []
            me = self.human
            count = sizes[me] if me is not None and me < len(sizes) else 0
            hand.show([], self.lang, face_down=count,
                      note=Text(W(self.lang, "hand_hidden"), style="dim"))
        else:
            hand.show(
                sort_hand(cards, self.rules.ten_strength), self.lang,
                numbers={c: ch.number for c, ch in hand_choices.items()},
                playable=set(hand_choices),
                selected=selected.card if selected is not None else None,
                dim_unplayable=bool(hand_choices),
                declares={c for c, ch in hand_choices.items() if ch.move.endswith("+")},
            )
        # Beside cards the row holds their other moves (a card without its marriage):
        # numbered like the cards over them.
        items = [(i, Text(f"{c.number} ").append_text(c.label) if hand_choices else c.label)
                 for i, c in enumerate(self.choices) if c.where == "bar"]
        title = None
        if self.paused:
            title = Text("▶ " + W(self.lang, "paused"), style="bold cyan")
        bar.show(items, self.selected if selected is not None and selected.where == "bar"
                 else None, title)
        shown = bool(items) or title is not None  # an empty row gives its room to the log
        if bar.display != shown:
            bar.display = shown

    # ------------------------------------------------------------------ input

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
            if time.monotonic() - self._quick_at < _QUICK_ENTER:
                self._quick_at = -_QUICK_ENTER  # the Enter of "1, Enter" at the talons
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

    def _can_analyse(self) -> bool:
        """F7 acts once the game is over, for the person's seat (not with
        ``--no-analyse``)."""
        return self.table.over and self.human is not None and self.analyse is not False

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

    # ------------------------------------------------------------------ saving, leaving

    def _start_autosave(self) -> None:
        """Say where the game is saved after every move, save it, and take SIGTERM and
        SIGHUP (a closed window) as the end of the game, saved (:meth:`_stop`); a real
        SIGINT is Ctrl+C.  Handled in the event loop, so never inside a move."""
        import asyncio
        import signal

        if self.autosave is None:
            return
        self._write(Text(self.autosave.where(), style="dim"))
        self._autosaved()
        loop = asyncio.get_running_loop()
        with contextlib.suppress(NotImplementedError, RuntimeError, ValueError):
            for sig in (signal.SIGTERM, signal.SIGHUP):
                loop.add_signal_handler(sig, self._stop, int(sig))
            loop.add_signal_handler(signal.SIGINT, self.action_leave)

    def _stop(self, signum: int) -> None:
        """The game ends by a signal: saved, a line says where and how to go on."""
        import signal

        assert self.autosave is not None
        self._autosaved()
        self.exit_status = exit_status(signum)
        self.leaving = True
        self.farewell = [T(self.lang, "stopped", signal=signal.Signals(signum).name) + " "
                         + self.autosave.resume_line()]
        self.exit()

    def _autosaved(self) -> None:
        """Save after a move (autosave.py); a failure is said once."""
        if self.autosave is not None:
            problem = self.autosave.write(self.table)
            if problem:
                self._say(problem, "red")

    def _save(self, path: str) -> bool:
        why = write_save(path, self.table, self.human, self.seats.levels, self.lang,
                         self.open_hands)
        if why is not None:
            self._say(T(self.lang, "save_failed", path=_clip(path, 100), why=_clip(why, 80)),
                      "red")
            return False
        self.saved = path
        self._say(T(self.lang, "saved", path=plain(path)), "green")
        return True

    def action_save(self) -> None:
        self._save(self.save_path or self.saved or default_save_path())

    def action_leave(self) -> None:
        if self.table.over or self.leaving:
            self._leave()
            return
        saver = self.autosave
        auto = saver.path if saver is not None and saver.failed is None else None
        if auto is not None:  # saved after every move: what is offered is a copy
            path = default_save_path()
            question = W(self.lang, "save_copy_q")
            where = W(self.lang, "copy_file", auto=plain(auto), path=plain(path))
        else:
            path = self.save_path or self.saved or default_save_path()
            question = W(self.lang, "save_q")
            where = W(self.lang, "save_file", path=plain(path))

        def answered(what: str | None) -> None:
            if what == "save" and not self._save(path):
                return
            if what in ("save", "leave"):
                self._leave()
            else:  # staying: the terminal may have grown meanwhile
                self._fit(self.size)

        self.push_screen(LeaveScreen(question, where, W(self.lang, "yes"), W(self.lang, "no"),
                                     W(self.lang, "cancel")), answered)

    def _leave(self) -> None:
        self.leaving = True
        if self.saved:
            self.farewell.append(T(self.lang, "saved", path=plain(self.saved)))
        if self.autosave is not None and not self.table.over:
            self.farewell.append(self.autosave.resume_line())
        self.farewell.append(T(self.lang, "bye"))
        self.exit()
