"""Bots playing whole games against each other, and what the games say about them.

:func:`play_game` is the one place where bots meet the engine: each bot is handed
``game.view(seat)`` for its own seat and nothing else, and its move is checked against the
legal moves.  A game with a seat that follows the table (an external bot,
:class:`~thousand.bots.external.TableBot`) is played through a
:class:`~thousand.engine.table.Table`, whose events that seat receives.  :func:`run_arena` plays
many games (in several processes with ``jobs``), rotating the seats so that nobody keeps
the same place at the table, and sums them up in an :class:`ArenaResult`.

In the arena a bot that fails to move (an illegal move, an exception, and for an external
bot a timeout, a malformed answer or a process that is gone) does not stop the run: the
:class:`Referee` logs one line on stderr, counts a fault against the bot, and a ``random``
move is played for it.  Without a referee :func:`play_game` raises
:class:`~thousand.bots.base.BotError` instead (what the tests want).

Counting (docs/bots.md):

* a shared win (equal leaders after ``max_deals``, equal scores over the win score) counts
  ``1/k`` to each of the ``k`` winners, so the wins of all bots add up to the games played;
* the 95% interval of the win rate is Wilson's score interval on those (fractional) wins;
* "mean score per deal" is the bot's final score over the deals played (redeals are not
  deals); "declared" counts the deals it played as declarer (golden deals included),
  "made" those it made (a conceded contract is not made);
* "faults" counts the moves a bot failed to make, "fallback moves" the moves played for it
  (a fault, or a seat whose process is gone for the rest of its game).
"""

from __future__ import annotations

import math
import os
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

from thousand.bots.base import Bot, BotError
from thousand.bots.external import (
    DEFAULT_TIMEOUT,
    BotFault,
    TableBot,
    check_level,
    display_name,
    is_command,
    seat_bot,
)
from thousand.bots.random_bot import RandomBot
from thousand.engine import moves as mv
from thousand.engine.game import Game
from thousand.engine.moves import Move
from thousand.engine.rules import Rules
from thousand.engine.table import Table
from thousand.engine.view import View

from .jobs import run_jobs

MAX_MOVES = 500_000  # a game that long is a bug somewhere, not a game


class ArenaError(RuntimeError):
    """A game could not be finished (a bot failed, or the game never ended)."""


class Referee:
    """Keeps a game going when a bot fails: each failure (:class:`BotFault`) is counted
    against the seat, logged as one line (on stderr unless ``log`` says otherwise), and
    the fallback, a ``random`` bot seeded from ``seed`` and the seat, moves instead.

    ``names`` are the bots by seat, ``where`` starts each line (``arena game 3``)."""

    def __init__(self, names: Sequence[str], seed: int | None = None, where: str = "",
                 log: Callable[[str], None] | None = None) -> None:
        n = len(names)
        self.names = list(names)
        self.where = where
        self.faults = [0] * n
        self.fallback_moves = [0] * n
        self.log = log if log is not None else _to_stderr
        self._fallback = [
            RandomBot(None if seed is None else (seed * 7919 + s * 104_729 + 17) % 2**63)
            for s in range(n)
        ]

    def fallback(self, view: View, fault: BotFault) -> Move:
        """The move played for the seat to move after ``fault`` (logged and counted when
        it counts)."""
        seat = view.to_move
        move = self._fallback[seat].choose(view)
        self.fallback_moves[seat] += 1
        if fault.counted:
            self.faults[seat] += 1
            where = f"{self.where}, " if self.where else ""
            self.log(_one_line(
                f"{where}seat {seat} ({self.names[seat]}): {fault.kind}: {fault.reason}; "
                f"played {mv.move_str(move)} instead"
            ))
        return move


def _to_stderr(line: str) -> None:
    sys.stderr.write(f"fault: {line}\n")
    sys.stderr.flush()


def _one_line(text: str, limit: int = 400) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _bot_name(bot: object) -> str:
    return str(getattr(bot, "name", None) or type(bot).__name__)


def decide(bot: Bot, view: View, referee: Referee | None = None) -> Move:
    """``bot``'s legal move for ``view``: with a ``referee`` a failure is a fault and the
    fallback's move; without one it raises :class:`BotError`."""
    try:
        move = bot.choose(view)
    except BotFault as e:
        if referee is None:
            raise BotError(f"{_bot_name(bot)}: {e}") from None
        return referee.fallback(view, e)
    except Exception as e:
        if referee is None:
            raise
        return referee.fallback(view, BotFault("error", f"{type(e).__name__}: {e}"))
    legal = view.legal
    try:
        return legal[legal.index(move)]  # the engine's own int (a numpy int is welcome)
    except (ValueError, TypeError):
        if referee is None:
            raise BotError(f"{_bot_name(bot)} chose {move!r}, not a legal move here") from None
        return referee.fallback(view, BotFault("illegal", _why_illegal(move, view)))


def _why_illegal(move: object, view: View) -> str:
    if isinstance(move, bool) or not isinstance(move, int):
        return f"{move!r} is not a move"
    try:
        text = mv.move_str(Move(move))
    except mv.MoveError:
        return f"{move} is not a move"
    legal = ", ".join(mv.move_str(m) for m in view.legal[:12])
    more = ", …" if len(view.legal) > 12 else ""
    return f"{text} is not legal here (legal: {legal}{more})"


#: An arena seat played by one of OpenSpiel's search bots: ``openspiel:ismcts[:SECONDS]``
#: (``thousand.envs.openspiel_bots``; needs ``pip install 'thousand[research]'``).
OPENSPIEL_PREFIX = "openspiel:"


def openspiel_level(spec: str) -> str:
    """Register the bot level of an OpenSpiel seat (``openspiel:ismcts:0.3``) and return its
    name (``openspiel-ismcts-300ms``), which ``run_arena`` and ``run_duplicate`` then take
    like any level (their worker processes are forked after it).  ValueError for a spec
    that is not one, ImportError without OpenSpiel."""
    from thousand.envs.openspiel_bots import register_level

    return register_level(spec)


def needs_table(bots: Sequence[Bot]) -> bool:
    """Whether a seat follows the table (an external bot): the game goes through a Table."""
    return any(isinstance(b, TableBot) for b in bots)


def new_game(rules: Rules, names: Sequence[str] | None, first_dealer: int, seed: int,
             bots: Sequence[Bot]) -> Game | Table:
    """A game for ``bots``: a :class:`Table` when a seat follows the table, else the bare
    (faster) :class:`Game`; both deal the same cards for a seed."""
    if needs_table(bots):
        return Table(rules, names, first_dealer, seed)
    return Game(rules, players=names, first_dealer=first_dealer, seed=seed)


def play_game(
    game: Game | Table,
    bots: Sequence[Bot],
    on_move: Callable[[Game, int, int], None] | None = None,
    *,
    referee: Referee | None = None,
    until: Callable[[Game], bool] | None = None,
) -> Game:
    """Play ``game`` to its end (or until ``until(game)``) with ``bots[seat]`` moving for
    each seat; return the game.

    A bot sees only ``game.view(seat)``; ``on_move(game, seat, move)`` is called after
    each move (for logging).  A move that is not legal raises :class:`BotError`, or with
    a ``referee`` is a fault answered by a fallback move.  Seats that follow the table
    (external bots) need ``game`` to be a :class:`Table`: they sit down first, are told
    when the game ends, and their processes are stopped however it ends."""
    table = game if isinstance(game, Table) else None
    g = table.game if table is not None else game
    assert isinstance(g, Game)
    seated = [(s, b) for s, b in enumerate(bots) if isinstance(b, TableBot)]
    if seated and table is None:
        raise ValueError("an external bot plays at a table: pass a thousand.engine.table.Table")
    try:
        for seat, bot in seated:
            assert table is not None
            bot.sit(table, seat)
        moves = 0
        while not g.over and (until is None or not until(g)):
            seat = g.to_move
            move = decide(bots[seat], g.view(seat), referee)
            if table is not None:
                table.submit(seat, move, table.version)
            else:
                g.apply(move)
            if on_move is not None:
                on_move(g, seat, move)
            moves += 1
            if moves > MAX_MOVES:
                raise ArenaError(f"the game did not end after {MAX_MOVES} moves")
        for _, bot in seated:
            assert table is not None
            bot.stand(table)
    finally:
        for _, bot in seated:
            bot.close()
    return g


@dataclass
class SeatStats:
    """One bot's figures over the games it played."""

    label: str
    level: str
    games: int = 0
    wins: float = 0.0
    score: int = 0
    deals: int = 0
    declared: int = 0
    made: int = 0
    contracts: int = 0
    #: contracts that were the compulsory opening nobody outbid, and how many were made
    compulsory: int = 0
    compulsory_made: int = 0
    #: moves it failed to make, and moves the fallback played for it
    faults: int = 0
    fallback_moves: int = 0

    def add(self, other: SeatStats) -> None:
        self.games += other.games
        self.wins += other.wins
        self.score += other.score
        self.deals += other.deals
        self.declared += other.declared
        self.made += other.made
        self.contracts += other.contracts
        self.compulsory += other.compulsory
        self.compulsory_made += other.compulsory_made
        self.faults += other.faults
        self.fallback_moves += other.fallback_moves

    @property
    def win_rate(self) -> float:
        return self.wins / self.games if self.games else 0.0

    @property
    def win_interval(self) -> tuple[float, float]:
        return wilson_interval(self.wins, self.games)

    @property
    def mean_score_per_deal(self) -> float:
        return self.score / self.deals if self.deals else 0.0

    @property
    def declare_rate(self) -> float:
        return self.declared / self.deals if self.deals else 0.0

    @property
    def make_rate(self) -> float:
        return self.made / self.declared if self.declared else 0.0

    @property
    def contested_make_rate(self) -> float:
        """The make rate of the contracts won in an auction somebody else bid in."""
        n = self.declared - self.compulsory
        return (self.made - self.compulsory_made) / n if n else 0.0

    @property
    def mean_contract(self) -> float:
        return self.contracts / self.declared if self.declared else 0.0


@dataclass
class ArenaResult:
    """What :func:`run_arena` found: per bot (in the order given), and the pace."""

    bots: list[SeatStats]
    games: int = 0
    deals: int = 0
    seconds: float = 0.0
    records: list[str] = field(default_factory=list)

    @property
    def deals_per_second(self) -> float:
        return self.deals / self.seconds if self.seconds > 0 else 0.0

    @property
    def games_per_second(self) -> float:
        return self.games / self.seconds if self.seconds > 0 else 0.0


def wilson_interval(successes: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """Wilson's score interval for a proportion (95% with the default ``z``)."""
    if n <= 0:
        return 0.0, 1.0
    p = successes / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(max(0.0, p * (1 - p) / n + z * z / (4 * n * n))) / denom
    return max(0.0, centre - half), min(1.0, centre + half)


def shown_level(level: str, lang: str = "en") -> str:
    """A seat's bot for people: a level by its name in ``lang``
    (:func:`thousand.words.catalogue.level_name`), a command by its short name."""
    from thousand.words.catalogue import level_name

    return level_name(display_name(level), lang)


def labels_for(levels: Sequence[str], lang: str = "en") -> list[str]:
    """``heuristic, random, random`` -> ``heuristic, random 1, random 2`` (in Russian
    «любитель, случайный 1, случайный 2»: the levels' names for people,
    :func:`thousand.words.catalogue.level_name`); a command by its short name
    (``cmd:/home/me/first.py`` -> ``cmd:first.py``)."""
    names = [shown_level(lv, lang) for lv in levels]
    out = []
    for i, name in enumerate(names):
        if names.count(name) > 1:
            out.append(f"{name} {names[:i + 1].count(name)}")
        else:
            out.append(name)
    return out


def game_seed(seed: int | None, index: int) -> int:
    """The deal seed of game ``index`` of an arena run started with ``seed``."""
    base = 0 if seed is None else seed
    return (base * 1_000_003 + index * 7919 + 12345) % (2**63)


@dataclass(frozen=True)
class _Job:
    index: int
    levels: tuple[str, ...]
    rules_json: dict[str, object]
    seed: int
    save_dir: str | None
    timeout: float = DEFAULT_TIMEOUT


def _compulsory(moves: Sequence[Move]) -> bool:
    """Whether a deal's auction was one bid (the opener's) and passes."""
    from thousand.engine import moves as mv

    bids = 0
    for m in moves:
        if mv.is_bid(m) or m == mv.DARK:
            bids += 1 if m != mv.DARK else 2  # a dark bid is never compulsory
        elif m != mv.PASS:
            break
    return bids == 1 and any(m == mv.PASS for m in moves[:3])


def _play_one(job: _Job) -> tuple[int, list[SeatStats], int, str | None]:
    """Play arena game ``job.index``; return (index, stats by entry, deals, saved path)."""
    rules = Rules.from_json(job.rules_json)
    k = len(job.levels)
    shift = job.index % k
    # entry e sits at seat (e + shift) % k
    seat_entry = [(s - shift) % k for s in range(k)]
    bots = [seat_bot(job.levels[seat_entry[s]], job.seed * 31 + s, job.timeout)
            for s in range(k)]
    labels = labels_for(job.levels)
    names = [labels[seat_entry[s]] if is_command(job.levels[seat_entry[s]])
             else job.levels[seat_entry[s]] for s in range(k)]
    referee = Referee([labels[e] for e in seat_entry], job.seed, f"arena game {job.index + 1}")
    game = play_game(new_game(rules, names, 0, job.seed, bots), bots, referee=referee)
    stats = [SeatStats(label="", level=lv, games=1) for lv in job.levels]
    for s in range(k):
        stats[seat_entry[s]].faults += referee.faults[s]
        stats[seat_entry[s]].fallback_moves += referee.fallback_moves[s]
    winners = game.winner if isinstance(game.winner, list) else (
        [game.winner] if game.winner is not None else []
    )
    deals = 0
    for summ, rec in zip(game.summaries, game.records, strict=False):
        res = summ.result
        if res.outcome == "redeal":
            continue
        deals += 1
        for s in range(k):
            if s in res.active:
                stats[seat_entry[s]].deals += 1
        if res.declarer is not None:
            st = stats[seat_entry[res.declarer]]
            st.declared += 1
            st.contracts += res.contract or 0
            if res.made:
                st.made += 1
            if _compulsory(rec.moves):
                st.compulsory += 1
                st.compulsory_made += 1 if res.made else 0
    for s in range(k):
        st = stats[seat_entry[s]]
        st.score += game.scores[s]
        if s in winners:
            st.wins += 1 / len(winners)
    path = None
    if job.save_dir is not None:
        from thousand.engine.record import dumps_record, game_to_record

        path = os.path.join(job.save_dir, f"game-{job.index + 1:05d}.json")
        with open(path, "w", encoding="utf-8") as f:
            f.write(dumps_record(game_to_record(game)) + "\n")
    return job.index, stats, deals, path


def iter_arena(
    levels: Sequence[str],
    n_games: int,
    rules: Rules | None = None,
    seed: int | None = None,
    jobs: int = 1,
    save_dir: str | None = None,
    move_timeout: float = DEFAULT_TIMEOUT,
) -> Iterator[tuple[int, list[SeatStats], int, str | None]]:
    """Play the games one by one (or in ``jobs`` processes), yielding each as it ends.
    A level may be ``cmd:COMMAND``, an external bot with ``move_timeout`` seconds a move."""
    rules = rules if rules is not None else Rules()
    if len(levels) != rules.players:
        raise ValueError(
            f"{len(levels)} bots for a {rules.players}-player game: name one bot per seat"
        )
    for level in levels:
        check_level(level)
    if save_dir is not None:
        os.makedirs(save_dir, exist_ok=True)
    rj = rules.to_json()
    work = [
        _Job(i, tuple(levels), rj, game_seed(seed, i), save_dir, move_timeout)
        for i in range(n_games)
    ]
    chunk = max(1, min(8, n_games // (4 * max(1, jobs))))
    yield from run_jobs(_play_one, work, jobs, chunk)


def run_arena(
    levels: Sequence[str],
    n_games: int,
    rules: Rules | None = None,
    seed: int | None = None,
    jobs: int = 1,
    save_dir: str | None = None,
    progress: Callable[[int], None] | None = None,
    move_timeout: float = DEFAULT_TIMEOUT,
) -> ArenaResult:
    """Play ``n_games`` games between the bots ``levels`` (one per seat: a level, or
    ``cmd:COMMAND`` for an external bot with ``move_timeout`` seconds a move) and sum
    them up."""
    labels = labels_for(levels)
    total = [SeatStats(label=lb, level=lv) for lb, lv in zip(labels, levels, strict=True)]
    result = ArenaResult(total)
    start = time.perf_counter()
    games = iter_arena(levels, n_games, rules, seed, jobs, save_dir, move_timeout)
    for done, (_, stats, deals, path) in enumerate(games, 1):
        for t, s in zip(total, stats, strict=True):
            t.add(s)
        result.games += 1
        result.deals += deals
        if path:
            result.records.append(path)
        if progress is not None:
            progress(done)
    result.seconds = time.perf_counter() - start
    result.records.sort()
    return result


# --------------------------------------------------------------------------- the report

#: Below this many games (or, in the duplicate arena, dealt sets) an overlap of the 95%
#: intervals is put down to the sample: the report says more games are needed rather than
#: that the bots are level.  Intervals that are apart tell whatever the count (20 wins of
#: 20 against none is not luck).
MIN_SAMPLE = 30

#: The words of the arena's report: key -> (English, Russian) (thousand.words.grammar.render).
REPORT_WORDS: dict[str, tuple[str, str]] = {
    "bot": ("bot", "бот"),
    "games": ("games", "партий"),
    "won": ("won", "побед"),
    "win": ("win % (95% CI)", "победы, % (95% ДИ)"),
    "score": ("score/deal", "очки/раздача"),
    "declared": ("declared", "заказы"),
    "made": ("made", "сыграно"),
    "contested": ("made, contested", "сыграно, в торговле"),
    "contract": ("contract", "ср. заказ"),
    "faults": ("faults", "сбои"),
    "fallback": ("fallback moves", "ходы за бота"),
    "of": ("{p} of {n}", "{p} из {n}"),
    "notes": ("declared: share of the deals played; made, contested: leaving out the "
              "compulsory opening nobody outbid; contract: the mean contract.",
              "заказы: доля сыгранных раздач; сыграно в торговле: без обязательных 100, "
              "которые никто не перебил; ср. заказ: средний заказ."),
    "pace": ("{games:#game|games}, {deals:#deal|deals} in {sec} s: {gps} games/s, "
             "{dps} deals/s",
             "{games:#партия|партии|партий}, {deals:#раздача|раздачи|раздач} за {sec} с: "
             "{gps} партий/с, {dps} раздач/с"),
    "too_few": ("Too few games to tell the bots apart: after {n:#game|games} the 95% "
                "intervals overlap; play {min} or more.",
                "Слишком мало партий, чтобы сказать, кто сильнее: после "
                "{n:#партии|партий|партий} 95% интервалы перекрываются; сыграйте хотя бы "
                "{min}."),
    "ahead": ("{bot} wins more often than the others: its 95% interval lies above theirs.",
              "{bot} выигрывает чаще остальных: его 95% интервал выше их интервалов."),
    "level": ("No bot is clearly ahead: the 95% intervals overlap.",
              "Ясного лидера нет: 95% интервалы перекрываются."),
    "records": ("{n:#record|records} in {dir}", "записи партий ({n}) в {dir}"),
    "title": ("arena", "арена"),
}


#: A report table: its columns (header, "left" or "right") and its rows of cells.
Columns = Sequence[tuple[str, str]]
Rows = Sequence[Sequence[str]]


def _cell_width(text: str) -> int:
    from rich.cells import cell_len

    return cell_len(text)


def report_tables(columns: Columns, rows: Rows, width: int | None = None) -> list[Any]:
    """The report table of ``columns`` and ``rows`` as rich tables that fit ``width``
    terminal columns (one table when ``width`` is None or it fits).  A header wraps at its
    spaces but a cell never does (a figure cut in two misleads); when the columns do not
    fit side by side, they go on in a further table, each table starting with the first
    column (the bot the row is about)."""
    from rich import box
    from rich.console import Console
    from rich.markup import escape
    from rich.table import Table as RichTable

    def widest(i: int) -> int:
        words = max((_cell_width(w) for w in columns[i][0].split()), default=0)
        return max([words, *(_cell_width(r[i]) for r in rows)])

    def build(indices: Sequence[int], wrap: bool = True) -> RichTable:
        table = RichTable(box=box.SIMPLE_HEAD, pad_edge=False)
        for i in indices:
            header, justify = columns[i]
            w = widest(i)
            table.add_column(escape(header), justify=justify,  # type: ignore[arg-type]
                             min_width=w, max_width=max(w, 1) if wrap else None,
                             overflow="fold")
        for r in rows:
            table.add_row(*(escape(r[i]) for i in indices))
        return table

    everything = range(len(columns))
    if width is None:
        return [build(everything, wrap=False)]
    measure = Console(width=10**4)

    def fits(indices: Sequence[int], wrap: bool = True) -> bool:
        options = measure.options.update_width(10**4)
        return measure.measure(build(indices, wrap), options=options).maximum <= width

    def pack(wrap: bool) -> list[list[int]]:
        groups: list[list[int]] = []
        current = [0]
        for i in range(1, len(columns)):
            if len(current) > 1 and not fits([*current, i], wrap):
                groups.append(current)
                current = [0]
            current.append(i)
        return [*groups, current]

    # Whole headers where that takes no more tables than wrapped ones.
    whole, wrapped = pack(False), pack(True)
    if len(whole) <= len(wrapped) and all(fits(g, False) for g in whole):
        return [build(g, wrap=False) for g in whole]
    return [build(g) for g in wrapped]


def report_word(key: str, lang: str = "en", **params: object) -> str:
    """A word or line of the arena's report in ``lang`` (:data:`REPORT_WORDS`)."""
    from thousand.words.grammar import render

    en, ru = REPORT_WORDS[key]
    return render(ru if lang == "ru" else en, lang, params)


def verdict(result: ArenaResult, lang: str = "en") -> str:
    """Whether the games tell which bot wins more, from the intervals: a bot whose 95%
    interval lies wholly above every other bot's wins more often, whatever the number of
    games; overlapping intervals say "too few games" below :data:`MIN_SAMPLE` games and
    "nobody clearly ahead" from there on."""
    ranked = sorted(result.bots, key=lambda b: -b.win_rate)
    if len(ranked) > 1 and all(
        ranked[0].win_interval[0] > other.win_interval[1] for other in ranked[1:]
    ):
        labels = labels_for([b.level for b in result.bots], lang)
        return report_word("ahead", lang, bot=labels[result.bots.index(ranked[0])])
    if result.games < MIN_SAMPLE:
        return report_word("too_few", lang, n=result.games, min=MIN_SAMPLE)
    return report_word("level", lang)
