"""The terminal game: one person against bots, a client of the table protocol.

:class:`TerminalGame` sits at a :class:`~thousand.engine.table.Table` like any other client
(docs/protocol.md): the person's moves and the bots' go through ``table.submit``, and
every line about what happened is worded from the *events* the table answers with —
only those whose audience includes the person's seat, or all of them in the open-hands
training mode (``open_hands``).  What is drawn at the person's turn (hand, trick, auction,
talon) comes from the seat's wire view (``table.view_json``).  The terminal keeps no
knowledge of its own about the game: it never compares two views.  Bots are handed their
own seat's engine view (``table.view(seat)``) only.

It takes an ``input_fn`` (:func:`read_line` by default), so tests drive it with scripted
lines, and a Rich console for output.  Whatever a person types, and every player's name,
is printed as text, never read as Rich markup; a line that means nothing, is not UTF-8,
or is five thousand digits long gets one line of answer and changes nothing.

This is the line mode of ``thousand play`` (``--plain``, and whatever is not a terminal:
a pipe, a screen reader); the full-screen table is :mod:`thousand.terminal.tui`.  Both
share :class:`Seats` (who plays each seat, what the bots do and when),
:func:`~.narration.visible_events` (what the person is told) and the save (:func:`save_text`,
:func:`load_save`): the table's private record with its seed, the bots' levels and the
person's seat, which ``thousand play --resume FILE`` continues from its last move.
"""

from __future__ import annotations

import datetime
import re
import sys
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from rich.cells import cell_len
from rich.console import Console
from rich.markup import escape
from rich.text import Text

from thousand.bots import (
    Bot,
    BotError,
    best_level,
    checked_choice,
    decide_with_reason,
    make_bot,
)
from thousand.engine import moves as mv
from thousand.engine.cards import CardError, parse_card
from thousand.engine.moves import Move
from thousand.engine.protocol import view_json
from thousand.engine.rules import Rules
from thousand.engine.table import Table, TableError
from thousand.engine.view import View
from thousand.words.catalogue import illegal_text
from thousand.words.vocabulary import normalise, parse_typed, typed_card

from .analysis_view import DEFAULT_SAMPLES, analyse_game, report_text, says_yes
from .analysis_view import word as analysis_word
from .autosave import Autosave, SignalGuard, Stopped, exit_status, write_save
from .autosave import SavedGame as SavedGame
from .autosave import SaveError as SaveError
from .autosave import load_save as load_save
from .autosave import read_save as read_save
from .autosave import save_text as save_text
from .i18n import T, hint_line, rules_summary, welcome
from .narration import Event, Narration, _clip, about_seat
from .render import (
    WireView,
    auction_markup,
    card_markup,
    cards_markup,
    give_target,
    hand_markup,
    move_markup,
    phase_line,
    talons_markup,
    trick_markup,
    trump_markup,
)
from .sheet_view import plain

InputFn = Callable[[str], str]

_QUIT = {"quit", "exit", "q", "выход", "выйти", "конец"}
_HINT = {"hint", "h", "?", "подсказка", "п?"}
_HELP = {"help", "помощь", "справка"}
_SAVE = re.compile(r"(save|сохранить)(?:\s+(.*))?", re.DOTALL)


class QuitGame(Exception):
    """The player asked to leave."""


def read_line(prompt: str) -> str:
    """One line of input.  On a terminal, :func:`input` (with its line editing); from a
    pipe, one line's bytes decoded as strict UTF-8, so that a line that is not UTF-8
    raises :class:`UnicodeDecodeError` for itself alone and the lines after it are read
    as usual.  The end of input raises :class:`EOFError`."""
    stdin = sys.stdin
    buffer = getattr(stdin, "buffer", None)
    if buffer is None or stdin.isatty():
        return input(prompt)
    sys.stdout.write(prompt)
    sys.stdout.flush()
    raw = buffer.readline()
    if not raw:
        raise EOFError
    return str(raw.decode("utf-8")).rstrip("\r\n")


def _stdin_is_terminal() -> bool:
    try:
        return sys.stdin.isatty()
    except (AttributeError, ValueError):
        return False


def parse_card_text(text: str) -> int:
    """A card typed by a person: ``KH``, ``10h``, ``к♥``, ``кч`` (Russian suit letters
    п т б ч), ``Тб`` (ace of diamonds) — :func:`thousand.words.vocabulary.typed_card`.  Text that
    is no card raises :class:`~thousand.engine.cards.CardError`."""
    card = typed_card(text)
    if card is None:
        raise CardError(f"{text!r} is not a card")
    return parse_card(card)


def parse_input(text: str, view: WireView | View) -> str | None:
    """The move a line of input asks for, in record notation (what the table takes);
    ``"hint"``, ``"help"``, ``"quit"`` for those commands; ``None`` when the line means
    nothing.  ``view`` is the seat's view (the wire form, or the engine's): a number from
    1 to the number of legal moves picks one of them (the terminal numbers its moves);
    every other move is read with the words every front end shares
    (:func:`thousand.words.vocabulary.parse_typed`).

    A move is not checked here: the table says whether the rules allow it."""
    wire = view_json(view) if isinstance(view, View) else view
    low = normalise(text)
    if low in _QUIT:
        return "quit"
    if low in _HINT:
        return "hint"
    if low in _HELP:
        return "help"
    legal = [str(m) for m in wire.get("legal") or ()]
    if low.isascii() and low.isdigit() and len(low) <= 6 and 1 <= int(low) <= len(legal):
        return legal[int(low) - 1]
    return parse_typed(text, legal)


def default_save_path() -> str:
    return datetime.datetime.now().strftime("thousand-%Y%m%d-%H%M%S.json")


# ------------------------------------------------------------------ seats and bots


class Seats:
    """Who plays each seat of a table — the person at ``human`` (``None``: nobody, bots
    only) and a bot at every other seat — and what the bots do and when: the piece of game
    flow the line mode and the full-screen table (:mod:`thousand.terminal.tui`) share.

    :meth:`bot_to_move` names the bot whose move it is (``None`` on the person's turn and
    once the game is over); :meth:`decide` asks a bot for its move in a view it is handed,
    touching nothing else — so a front end may run it in a worker thread while it keeps
    drawing the table — and :meth:`play` submits the move, as any client of the table
    does.  ``levels`` are the bots' levels by seat (what a save keeps)."""

    def __init__(
        self,
        table: Table,
        bots: Mapping[int, Bot],
        human: int | None = 0,
        levels: Mapping[int, str] | None = None,
        hint_level: str | None = None,
    ) -> None:
        self.table = table
        self.bots = dict(bots)
        self.human = human
        self.levels = dict(levels) if levels is not None else {}
        self.hint_level = hint_level or best_level()
        self._hint_bot: Bot | None = None

    def bot_to_move(self) -> int | None:
        """The seat of the bot to move now; ``None`` on the person's turn or when the game
        is over."""
        seat = self.table.to_move
        return None if seat is None or seat == self.human else seat

    def decide(self, seat: int, view: View, lang: str | None = None) -> tuple[Move, str]:
        """The move of ``seat``'s bot in ``view`` (the seat's own view), and with ``lang``
        its reason in that language (``""`` when the bot gives none).  Touches no table:
        safe in a worker thread.  A move outside ``view.legal`` raises
        :class:`~thousand.bots.BotError`."""
        bot = self.bots[seat]
        if lang is None:
            return checked_choice(bot, view), ""
        move, why = decide_with_reason(bot, view, lang)
        if move not in view.legal:
            raise BotError(f"{type(bot).__name__} chose {move!r}, not a legal move here")
        return move, why

    def play(self, seat: int, move: Move | str, version: int) -> list[Event]:
        """Submit ``seat``'s move against ``version``: the events it caused."""
        return self.table.submit(seat, mv.move_str(move) if isinstance(move, int) else move,
                                 version)

    def hint(self, view: View, lang: str) -> tuple[Move, str]:
        """What the strongest bot (``hint_level``) would play in ``view``, and why.  Like
        :meth:`decide`, it touches no table."""
        if self._hint_bot is None:
            self._hint_bot = make_bot(self.hint_level, seed=0)
        return decide_with_reason(self._hint_bot, view, lang)


def make_bots(
    table: Table,
    levels: Sequence[str] | Mapping[int, str],
    human: int | None = 0,
    seed: int | None = None,
) -> tuple[dict[int, Bot], dict[int, str]]:
    """A bot for every seat but ``human``'s: ``levels`` in seat order (repeated when there
    are fewer), or by seat; seeded from ``seed`` when there is one.  The bots and their
    levels by seat."""
    n = table.game.n
    others = [s for s in range(n) if s != human]
    if isinstance(levels, Mapping):
        by_seat = {s: levels[s] for s in others}
    else:
        by_seat = {s: levels[i % len(levels)] for i, s in enumerate(others)}
    bots = {s: make_bot(level, seed=None if seed is None else seed * 10 + s)
            for s, level in by_seat.items()}
    return bots, by_seat


# ------------------------------------------------------------------ saving and resuming

# The save and its reading are one piece of code for both modes (autosave.py: SaveError,
# SavedGame, save_text, load_save, read_save, importable from here too).


class TerminalGame(Narration):
    """A game of Тысяча in the terminal: ``human`` is the person's seat (or ``None`` to
    watch bots play), ``bots`` the other seats' bots by seat."""

    def __init__(
        self,
        table: Table,
        bots: Mapping[int, Bot],
        human: int | None = 0,
        console: Console | None = None,
        input_fn: InputFn | None = None,
        lang: str = "ru",
        open_hands: bool = False,
        save_path: str | None = None,
        hint_level: str | None = None,
        bot_levels: Sequence[str] = (),
        show_seed: bool = True,
        levels: Mapping[int, str] | None = None,
        autosave: Autosave | None = None,
        analyse: bool | None = None,
        analysis_samples: int = DEFAULT_SAMPLES,
    ) -> None:
        super().__init__(table, human,
                         console if console is not None else Console(highlight=False), lang,
                         open_hands)
        #: at the end of the game: analyse it (True), not (False), or ask (None)
        self.analyse = analyse
        self.analysis_samples = analysis_samples
        #: where the game is saved after every move (``thousand play`` always gives one)
        self.autosave = autosave
        self._guard = SignalGuard()
        #: who plays each seat, and what the bots do and when (shared with the full screen)
        self.seats = Seats(table, bots, human, levels=levels, hint_level=hint_level)
        self.bots = self.seats.bots
        self.input_fn: InputFn = input_fn if input_fn is not None else read_line
        self.save_path = save_path
        self.hint_level = self.seats.hint_level
        self.bot_levels = list(bot_levels)
        self.show_seed = show_seed
        self.saved: str | None = None


    # -------------------------------------------------------------------- loop

    def run(self) -> int:
        """Play until the game ends or the player leaves: 0 either way; with an autosave,
        SIGTERM or SIGHUP end the game too (saved, a line says how to go on), with the
        exit status 128 + the signal's number."""
        if self.autosave is None:
            return self._run()
        try:
            with self._guard.installed():
                return self._run()
        except Stopped as stop:
            self._stopped(stop.signum)
            return exit_status(stop.signum)

    def _stopped(self, signum: int) -> None:
        """The line of a game ended by a signal; the terminal may be gone (SIGHUP)."""
        import signal as _signal

        assert self.autosave is not None
        text = f"{self._t('stopped', signal=_signal.Signals(signum).name)} " \
               f"{self.autosave.resume_line()}"
        try:
            self.say()
            self._say_path_line(text)
        except (OSError, ValueError):  # no terminal to say it on
            pass

    def _say_path_line(self, text: str) -> None:
        """A line that names a file, never folded (a path cut in two cannot be copied)."""
        self.console.print(escape(text), highlight=False, soft_wrap=True)

    def _autosaved(self) -> None:
        """Save after a move (inside the move's critical section)."""
        if self.autosave is not None:
            problem = self.autosave.write(self.table)
            if problem:
                self.say(f"[yellow]{escape(problem)}[/]")

    def _run(self) -> int:
        self._welcome()
        log = self.table.log
        starts = [i for i, e in enumerate(log) if e["type"] == "deal_started"]
        try:
            self._show(log[starts[-1]:] if starts else log)
            while not self.table.over:
                seat = self.seats.bot_to_move()
                if seat is None:
                    human = self.table.to_move
                    assert human is not None
                    events = self._ask(human)
                else:
                    events = self._bot_move(seat)
                self._show(events)
        except QuitGame:
            self._leave()
            return 0
        except KeyboardInterrupt:  # Ctrl-C while a bot thinks
            self.say()
            self._leave()
            return 0
        if self.save_path:
            self.save(self.save_path)
        self._offer_analysis()
        return 0

    # ---------------------------------------------------------------- the analysis

    def _offer_analysis(self) -> None:
        """At the end of a game, its analysis for the person's seat: without asking with
        ``analyse``, never with ``analyse=False``, else on a yes to the question — asked
        only where somebody can answer it (a terminal, or scripted input)."""
        if self.analyse is False or self.human is None or not self.table.over:
            return
        if self.analyse is None:
            if self.input_fn is read_line and not _stdin_is_terminal():
                return
            if not says_yes(self._input(analysis_word(self.lang, "offer"))):
                return
        terminal = self.console.is_terminal

        def progress(done: int, total: int) -> None:
            if terminal:
                self.console.file.write(
                    "\r" + analysis_word(self.lang, "running", done=done, total=total))
                self.console.file.flush()

        try:
            analysis = analyse_game(self.table.to_record(), self.human,
                                    samples=self.analysis_samples, lang=self.lang,
                                    progress=progress)
        except Exception as e:  # the game is over and saved: say it, end as usual
            self.say(f"[yellow]{escape(analysis_word(self.lang, 'failed', why=e))}[/]")
            return
        if terminal:
            self.console.file.write("\n")
        self.console.print(report_text(analysis, self.lang), markup=False,
                           highlight=False, soft_wrap=True)

    def _welcome(self) -> None:
        line = welcome(self.lang, self.bot_levels, self.rules.preset)
        self.say(f"[bold]{escape(line)}[/]")
        for line in rules_summary(self.rules, self.lang):
            self.say(f"  • {escape(line)}")
        if self.show_seed:
            self.say(self._t("seed", seed=self.table.seed))
        if self.open_hands:
            self.say(self._t("open_mode"))
        if self.human is not None:
            self.say(escape(self._t("help_short")))
        if self.autosave is not None:
            self._say_path_line(self.autosave.where())
            self._autosaved()

    def _bot_move(self, seat: int) -> list[Event]:
        table = self.table
        move, _ = self.seats.decide(seat, table.view(seat))
        with self._guard.critical():  # the move and its save, uncut by a signal
            events = self.seats.play(seat, move, table.version)
            self._autosaved()
        return events

    # -------------------------------------------------------------- the human

    def _ask(self, seat: int) -> list[Event]:
        table = self.table
        view = table.view_json(seat)
        self._show_turn(view)
        while True:
            try:
                line = self.input_fn(self._t("prompt"))
            except KeyboardInterrupt:
                self.say()
                raise QuitGame from None
            except EOFError:
                self.say()
                self.say(self._t("eof"))
                raise QuitGame from None
            except UnicodeDecodeError:
                self.say(f"[yellow]{escape(self._t('not_utf8'))}[/]")
                continue
            saving = _SAVE.fullmatch(line.strip())
            if saving:
                self.save(saving.group(2) or self.save_path or default_save_path())
                continue
            asked = parse_input(line, view)
            if asked is None:
                self._unknown(line)
                continue
            if asked == "quit":
                raise QuitGame
            if asked == "help":
                self.say(escape(self._t("help")))
                self._show_moves(view)
                continue
            if asked == "hint":
                self._hint(seat)
                continue
            try:
                with self._guard.critical():  # the move and its save, uncut by a signal
                    events = table.submit(seat, asked, table.version)
                    self._autosaved()
                return events
            except TableError as e:
                self._refused(e, line)

    def _unknown(self, line: str) -> None:
        self.say(escape(self._t("unknown_input", text=_clip(line))))

    def _refused(self, error: TableError, line: str) -> None:
        """One line saying why the table refused a move; nothing changed."""
        p = error.params
        if error.code == "illegal_move":
            why = illegal_text(str(p["code"]), p.get("params") or {}, self.lang,
                               names=self.names)
            self.say(f"[yellow]{escape(self._t('illegal', why=_clip(why, 300)))}[/]")
        elif error.code == "malformed":
            self._unknown(line)
        elif error.code == "not_your_turn":
            self.say(self._t("not_your_turn", name=self._name(p.get("seat"))))
        elif error.code == "stale_version":
            self.say(self._t("stale_version"))
        elif error.code == "game_over":
            self.say(self._t("table_over"))
        else:
            self.say(self._t("no_such_seat"))

    def _show_turn(self, view: WireView) -> None:
        self.say()
        others = {}
        if self.open_hands:
            others = {s: self.table.view_json(s)["hand"] for s in view["active"]
                      if s != self.human}
        for line in turn_lines(view, self.rules, self._nm, self.lang, self.human,
                               open_hands=self.open_hands, others=others):
            self.say(line)
        self._show_moves(view)

    def _show_moves(self, view: WireView) -> None:
        for line in moves_lines(view, self.rules, self._nm, self.lang, self.console.width,
                                wrap=not self.console.soft_wrap):
            self.say(line)

    def _hint(self, seat: int) -> None:
        """What the strongest bot would do, and why; a bot that fails (one that does not
        know this position yet) is one line, and the game goes on."""
        view = self.table.view(seat)
        try:
            move, why = self.seats.hint(view, self.lang)
        except Exception as e:
            self.say(f"[yellow]{escape(self._t('hint_failed', why=_clip(str(e), 80)))}[/]")
            return
        text = hint_line(self.lang, self.hint_level, view, move, why)
        number = view.legal.index(move) + 1 if move in view.legal else None
        suffix = f" \\[{number}]" if number is not None else ""
        self.say(f"[green]{escape(text)}{suffix}[/]")


    # ---------------------------------------------------------------- leaving

    def _input(self, prompt: str) -> str | None:
        """A line for a question while leaving; ``None`` when there is none (the end of
        input, Ctrl-C, a line that is not UTF-8)."""
        try:
            return self.input_fn(prompt)
        except (KeyboardInterrupt, EOFError, UnicodeDecodeError):
            self.say()
            return None

    def _leave(self) -> None:
        """Ctrl-C, ``quit`` or the end of input: offer to save (with an autosave, a copy in
        another file: the game itself is saved already), then go."""
        copy = self.autosave is not None
        answer = self._input(self._t("save_copy_ask" if copy else "save_ask"))
        if answer is None:
            answer = "y" if self.save_path and not copy else "n"
        if answer.strip().lower() in {"y", "yes", "д", "да", "l"}:
            default = default_save_path() if copy else self.save_path or default_save_path()
            for _ in range(3):  # a path that cannot be written: ask again
                path = self._input(self._t("save_file_ask", default=escape(plain(default))))
                if path is None:  # no answer: the default, once
                    self.save(default)
                    break
                if self.save(path.strip() or default):
                    break
        if self.autosave is not None and not self.table.over:
            self._say_path_line(self.autosave.resume_line())
        self.say(self._t("bye"))

    def save(self, path: str) -> bool:
        """Write the game to ``path`` as a save (:func:`save_text`: the table's record
        with its seed, the bots and the person's seat), which ``thousand play --resume``
        continues; one line says how it went."""
        why = write_save(path, self.table, self.human, self.seats.levels, self.lang,
                         self.open_hands)
        if why is not None:
            self.say(self._t("save_failed", path=self._user(path, 100),
                             why=self._user(why, 80)))
            return False
        self.saved = path
        self.say(self._t("saved", path=escape(plain(path))))
        return True


def turn_lines(view: WireView, rules: Rules, names: Sequence[str], lang: str,
               seat: int | None, *, open_hands: bool = False,
               others: Mapping[int, Any] | None = None, recap: bool = False) -> list[str]:
    """What a seat is shown when it is to move, line by line (markup): the other hands
    face up in training (``others``), what is to be decided, the talons of two, the
    auction, the contract and trump, the trick on the table and the seat's hand.  The
    line mode shows it at every turn; ``thousand exercises`` shows it with ``recap``,
    which adds what the line mode has told on the way: the contract in every phase
    after the auction, and the cards already played."""
    def t(key: str, **params: object) -> str:
        return T(lang, key, **params)

    out: list[str] = []
    for s, hand in (others or {}).items():
        if hand is not None:
            out.append(f"  {t('hand_of', name=names[s])}: "
                       f"{hand_markup(hand, lang, rules.ten_strength)}")
    line = phase_line(view, rules, names, lang, open_hands=open_hands)
    if line:
        out.append(line)
    phase = view["phase"]
    if rules.players == 2 and phase in ("talon choice", "exchange", "contract"):
        # two players: both talons by their numbers, the moves' at the choice (RULES §4
        # "Two players" 3)
        out.append(f"  {t('talons')}: {talons_markup(view, lang)}")
    if (phase == "auction" or recap) and view["auction"]:
        out.append(f"  {t('auction')}: {auction_markup(view, names, lang)}")
    if phase == "buy" or (recap and phase in ("exchange", "contract", "talon choice")
                          and view.get("declarer") is not None):
        bid = view["contract"] or view["bid"]
        who = view["declarer"]
        out.append("  " + about_seat(lang, "declarer", who, seat, names[who], bid=bid, dark=""))
        if phase == "buy" and view["talon"] is not None:
            out.append(f"  {t('talon')}: {cards_markup(view['talon'], lang)}")
    if phase == "play":
        contract = t("contract_line", name=names[view["declarer"]], n=view["contract"],
                     dark=t("dark_mark") if view["dark"] else "")
        # two sentences: the contract's line begins with a capital («Заказ: …»)
        out.append(f"  {t('trump')}: {trump_markup(view['trump'], lang)}. {contract}")
        gone = [c["card"] for trick in view.get("tricks") or () for c in trick["cards"]]
        if recap and gone:
            out.append(f"  {t('cards_gone')}: {cards_markup(gone, lang)}")
        if view["trick"]:
            out.append(f"  {t('on_table')}: {trick_markup(view['trick'], names, lang)}")
    if view["hand"] is not None:
        out.append(f"  {t('your_hand')}: {hand_markup(view['hand'], lang, rules.ten_strength)}")
    else:
        out.append(f"  {t('hidden_hand')}")
    return out


def moves_lines(view: WireView, rules: Rules, names: Sequence[str], lang: str,
                width: int = 80, wrap: bool = True) -> list[str]:
    """The numbered legal moves (markup), the line mode's «Можно: 1) … 2) …».  Whom the
    cards go to is said once before them, not after every card, and the lines are broken
    between the moves, never inside one (``wrap``; a pipe takes one long line)."""
    legal = list(view["legal"])
    head = f"  {T(lang, 'moves')}"
    if legal and all(mv.is_give(mv.parse_move(m)) for m in legal):
        head += " (" + T(lang, "give_to", to=names[give_target(view)]) + ")"
        items = [f"[cyan]{i}[/]) {card_markup(mv.card_of(mv.parse_move(m)), lang)}"
                 for i, m in enumerate(legal, 1)]
    else:
        items = [f"[cyan]{i}[/]) {move_markup(m, view, rules, names, lang)}"
                 for i, m in enumerate(legal, 1)]
    head += ":"
    if not wrap:
        return [head + " " + "  ".join(items)]
    lines, line = [], head
    for item in items:
        if cell_len(Text.from_markup(line + "  " + item).plain) > width and line.strip():
            lines.append(line)
            line = "    " + item
        else:
            line += ("  " if line != head else " ") + item
    lines.append(line)
    return lines


def make_session(
    table: Table,
    levels: Sequence[str] | Mapping[int, str],
    human: int | None = 0,
    seed: int | None = None,
    **kwargs: Any,
) -> TerminalGame:
    """A :class:`TerminalGame` whose non-human seats are bots of ``levels`` in seat order
    (``levels`` by seat, a mapping, for a resumed game)."""
    bots, by_seat = make_bots(table, levels, human, seed)
    kwargs.setdefault("show_seed", seed is not None)
    return TerminalGame(table, bots, human=human, bot_levels=list(by_seat.values()),
                        levels=by_seat, **kwargs)
