"""The duplicate arena: the same cards for every seating, so the luck of the deal cancels.

:func:`run_duplicate` deals ``sets`` random deals.  Each *set* (the hands, the talon, the
dealer) is played once for every **rotation** of the bots round the table: entry ``e`` of
``levels`` sits at seat ``(e + r) % n`` in rotation ``r`` (``n`` = the players; the three
rotations of three bots give every bot every seat, which is all the dealt cards can tell
apart; the mirror seatings would only repeat who sits after whom).  With two players
(preset ``two``) that is both seatings of each dealt set: the same hands and the same two
talons, the bots swapped.  Every seating starts
from scores of 0 and plays the deal to its end; a deal that ends in a redeal goes on with
the next cards the same game deals, until one deal is played or conceded.  A bot's seed
depends on the set and its seat, not on which bot it is, so that two bots of one level in
one seat decide alike in the seatings where they meet the same position.

For each bot it reports (docs/search-bots.md):

* the **mean deal score**: what the deal did to the bot's score (``DealSummary.changes``,
  so the barrel and penalties are included), averaged over the seatings of a set; the 95%
  confidence interval treats the *set* as the unit (mean ± 1.96 standard errors of the
  per-set means), which pairs the seatings so that the cards' luck cancels;
* the **difference** of two bots' mean deal scores, with the same paired interval;
* how often it declared, its **make rate** as declarer, and its **mean contract**;
* with ``games > 0``, whole games too: ``games`` random games for every rotation, and the
  **win rate** of each bot with a Wilson 95% interval (a shared win counts 1/k);
* its **faults**: the moves it failed to make (an illegal move, an exception; for an
  external bot, ``cmd:COMMAND``, a timeout, a malformed answer or a process that is gone),
  each logged on stderr and answered by a fallback move (:class:`~.arena.Referee`), and
  the **fallback moves** played for it.

``jobs`` processes play sets in parallel.  With ``save_dir`` every finished set is appended
to ``sets.jsonl`` at once (a long run that is stopped keeps what it played, and
``resume=True`` carries on from it); the report is written as ``report.json`` and
``report.txt`` at the end.
"""

from __future__ import annotations

import json
import math
import os
import time
from collections.abc import Callable, Hashable, Iterable, Sequence
from dataclasses import asdict, dataclass, field
from typing import Any, TypeVar

from rich.table import Table

from thousand.bots.external import DEFAULT_TIMEOUT, check_level, is_command, seat_bot
from thousand.engine import moves as mv
from thousand.engine.game import Game
from thousand.engine.rules import Rules
from thousand.words.grammar import decimal, percent

from .arena import (
    MIN_SAMPLE,
    Columns,
    Referee,
    Rows,
    labels_for,
    new_game,
    play_game,
    report_tables,
    shown_level,
    wilson_interval,
)
from .jobs import run_jobs

Z95 = 1.96

#: a player's key in :func:`duplicate_scores` (a name, a player id)
P = TypeVar("P", bound=Hashable)


@dataclass
class SeatingResult:
    """One seating of one set: ``scores`` by entry (the deal's change to its score)."""

    rotation: int
    scores: list[int]
    declarer: int | None  # the entry that declared, or None (no played deal)
    contract: int | None
    made: bool | None
    outcome: str
    dark: bool = False
    #: the contract is the opener's compulsory first bid that nobody contested
    compulsory: bool = False
    #: by entry: the moves it failed to make, the moves the fallback played for it
    #: (empty: none)
    faults: list[int] = field(default_factory=list)
    fallback: list[int] = field(default_factory=list)


@dataclass
class SetResult:
    index: int
    seed: int
    dealer: int
    seatings: list[SeatingResult]

    def mean_score(self, entry: int) -> float:
        return sum(s.scores[entry] for s in self.seatings) / len(self.seatings)


@dataclass
class GameResult:
    index: int
    rotation: int
    wins: list[float]  # by entry
    deals: int
    faults: list[int] = field(default_factory=list)  # by entry, as in SeatingResult
    fallback: list[int] = field(default_factory=list)


@dataclass
class EntryStats:
    label: str
    level: str
    mean: float
    ci: float
    seatings: int
    declared: int
    made: int
    conceded: int
    contracts: int
    games: float = 0.0
    wins: float = 0.0
    faults: int = 0
    fallback_moves: int = 0

    @property
    def make_rate(self) -> float:
        return self.made / self.declared if self.declared else 0.0

    @property
    def declare_rate(self) -> float:
        return self.declared / self.seatings if self.seatings else 0.0

    @property
    def mean_contract(self) -> float:
        return self.contracts / self.declared if self.declared else 0.0

    @property
    def win_rate(self) -> float:
        return self.wins / self.games if self.games else 0.0

    @property
    def win_interval(self) -> tuple[float, float]:
        return wilson_interval(self.wins, int(self.games))


#: Student's t for a two-sided 95% interval, by degrees of freedom 1..30: a mean of a few
#: dealt sets is far less certain than the normal 1.96 says, and the report now calls a
#: difference from the interval alone, whatever the count.
_T95 = (12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228, 2.201, 2.179,
        2.160, 2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086, 2.080, 2.074, 2.069, 2.064,
        2.060, 2.056, 2.052, 2.048, 2.045, 2.042)


def t95(df: int) -> float:
    """Student's t quantile for a 95% interval with ``df`` degrees of freedom (beyond 30,
    1.96 + 2.4/df: within 0.003 of the exact value)."""
    if df < 1:
        return math.inf
    return _T95[df - 1] if df <= len(_T95) else Z95 + 2.4 / df


#: Why a duplicate run cannot start: key -> (English, Russian) (thousand.words.grammar.render).
RUN_ERRORS: dict[str, tuple[str, str]] = {
    "bots_count": ("{n:#bot|bots} for a {players}-player game: name one bot per seat",
                   "{n:#бот|бота|ботов}, а играют {players}: нужен один бот на место"),
    "another_run": ("{path} holds another run (other bots, rules or seed)",
                    "{path}: там другой прогон (другие боты, правила или зерно)"),
    "not_a_log": ("{path} is not a duplicate-arena log", "{path}: это не журнал дубль-арены"),
}


class RunError(ValueError):
    """A duplicate run that cannot start (the message in English; :meth:`text` in either
    language)."""

    def __init__(self, key: str, **params: object) -> None:
        self.key, self.params = key, params
        super().__init__(self.text("en"))

    def text(self, lang: str = "en") -> str:
        """The reason in ``lang``."""
        from thousand.words.grammar import render

        en, ru = RUN_ERRORS[self.key]
        return render(ru if lang == "ru" else en, lang, self.params)


def mean_ci(xs: Sequence[float]) -> tuple[float, float]:
    """The mean and the half-width of its 95% interval (Student's t, so that a handful of
    values gets the wide interval it deserves)."""
    n = len(xs)
    if n == 0:
        return 0.0, math.inf
    m = sum(xs) / n
    if n < 2:
        return m, math.inf
    var = sum((x - m) ** 2 for x in xs) / (n - 1)
    return m, t95(n - 1) * math.sqrt(var / n)


def duplicate_scores(scores: Iterable[tuple[P, Hashable, int]]) -> dict[P, float]:
    """Each player's duplicate score from ``(player, cards, score)``: for every ``cards``
    (whatever names the cards held: a deal of the day, a tournament round's seat), his
    score less the mean of the others' who held them (0 when nobody else did), summed
    over all he held.  The arena's paired difference, for people who each hold a set of
    cards once: the deal of the day (server/features/daily.py) and duplicate tournaments
    (:mod:`thousand.evaluation.tournament`) both score so."""
    by_cards: dict[Hashable, dict[P, int]] = {}
    for player, cards, score in scores:
        by_cards.setdefault(cards, {})[player] = score
    out: dict[P, float] = {}
    for held in by_cards.values():
        total, n = sum(held.values()), len(held)
        for player, score in held.items():
            others = (total - score) / (n - 1) if n > 1 else float(score)
            out[player] = out.get(player, 0.0) + score - others
    return out


@dataclass
class DuplicateReport:
    """What a duplicate run found (see the module docstring)."""

    levels: list[str]
    rules: dict[str, Any]
    seed: int
    sets: list[SetResult] = field(default_factory=list)
    games: list[GameResult] = field(default_factory=list)
    seconds: float = 0.0

    @property
    def labels(self) -> list[str]:
        return labels_for(self.levels)

    def entry(self, e: int) -> EntryStats:
        xs = [s.mean_score(e) for s in self.sets]
        m, ci = mean_ci(xs)
        declared = made = conceded = contracts = seatings = faults = fallback = 0
        for s in self.sets:
            for st in s.seatings:
                seatings += 1
                faults += st.faults[e] if st.faults else 0
                fallback += st.fallback[e] if st.fallback else 0
                if st.declarer == e:
                    declared += 1
                    contracts += st.contract or 0
                    made += bool(st.made)
                    conceded += st.outcome == "conceded"
        games = float(len(self.games))
        wins = sum(g.wins[e] for g in self.games)
        faults += sum(g.faults[e] for g in self.games if g.faults)
        fallback += sum(g.fallback[e] for g in self.games if g.fallback)
        return EntryStats(self.labels[e], self.levels[e], m, ci, seatings, declared, made,
                          conceded, contracts, games, wins, faults, fallback)

    def entries(self) -> list[EntryStats]:
        return [self.entry(e) for e in range(len(self.levels))]

    def difference(self, a: int | str, b: int | str) -> tuple[float, float]:
        """Mean deal score of ``a`` less that of ``b`` (entries, or levels: the mean of
        the entries of that level), with the half-width of its paired 95% interval."""
        return mean_ci(self.set_differences(a, b))

    def set_differences(self, a: int | str, b: int | str) -> list[float]:
        """Each set's deal score of ``a`` less that of ``b`` (as :meth:`difference`): the
        paired sample, which runs at other tables with the same two bots can pool."""
        ea = self._entries_of(a)
        eb = self._entries_of(b)
        return [
            sum(s.mean_score(e) for e in ea) / len(ea) - sum(s.mean_score(e) for e in eb) / len(eb)
            for s in self.sets
        ]

    def _entries_of(self, x: int | str) -> list[int]:
        if isinstance(x, int):
            return [x]
        out = [e for e, lv in enumerate(self.levels) if lv == x]
        if not out:
            raise ValueError(f"no bot {x!r} in this run")
        return out

    def declarer_make_rate(self, contested_only: bool = False) -> tuple[float, int, int]:
        """Over every seating of every set: (rate, made, declared) of all declarers
        (``contested_only``: leaving out the uncontested compulsory openings)."""
        made = declared = 0
        for s in self.sets:
            for st in s.seatings:
                if contested_only and st.compulsory:
                    continue
                if st.declarer is not None:
                    declared += 1
                    made += bool(st.made)
        return (made / declared if declared else 0.0), made, declared

    def to_json(self, full: bool = True) -> dict[str, Any]:
        """The figures (``summary``) and, with ``full``, every set and game played."""
        ents = self.entries()
        summary: dict[str, Any] = {
            "bots": [
                {
                    "label": s.label, "level": s.level, "mean_deal_score": round(s.mean, 3),
                    "ci95": round(s.ci, 3), "declared": s.declared, "made": s.made,
                    "make_rate": round(s.make_rate, 4), "conceded": s.conceded,
                    "mean_contract": round(s.mean_contract, 2), "games": s.games,
                    "wins": s.wins, "win_rate": round(s.win_rate, 4),
                    "win_ci95": [round(x, 4) for x in s.win_interval] if s.games else None,
                    "faults": s.faults, "fallback_moves": s.fallback_moves,
                }
                for s in ents
            ],
            "differences": [
                {"a": a, "b": b, "mean": round(m, 3), "ci95": round(ci, 3)}
                for a, b, m, ci in self.level_differences()
            ],
            "make_rate_all": round(self.declarer_make_rate()[0], 4),
            "make_rate_contested": round(self.declarer_make_rate(True)[0], 4),
        }
        out: dict[str, Any] = {
            "levels": self.levels, "rules": self.rules, "seed": self.seed,
            "n_sets": len(self.sets), "n_games": len(self.games),
            "seconds": round(self.seconds, 1), "summary": summary,
        }
        if full:
            out["sets"] = [asdict(s) for s in self.sets]
            out["games"] = [asdict(g) for g in self.games]
        return out

    def level_differences(self) -> list[tuple[str, str, float, float]]:
        levels = list(dict.fromkeys(self.levels))
        out = []
        for i, a in enumerate(levels):
            for b in levels[i + 1:]:
                m, ci = self.difference(a, b)
                out.append((a, b, m, ci))
        return out

    @classmethod
    def from_json(cls, obj: dict[str, Any]) -> DuplicateReport:
        rep = cls(list(obj["levels"]), dict(obj["rules"]), int(obj["seed"]))
        rep.sets = [_set_from_json(s) for s in obj.get("sets", [])]
        rep.games = [GameResult(**g) for g in obj.get("games", [])]
        rep.seconds = float(obj.get("seconds", 0.0))
        return rep


def _set_from_json(s: dict[str, Any]) -> SetResult:
    return SetResult(
        int(s["index"]), int(s["seed"]), int(s["dealer"]),
        [SeatingResult(**x) for x in s["seatings"]],
    )


# ---------------------------------------------------------------------------- playing


def set_seed(seed: int, index: int) -> int:
    return (seed * 1_000_003 + index * 7919 + 4242) % (2**63)


@dataclass(frozen=True)
class _Task:
    kind: str  # "set" or "game"
    index: int
    levels: tuple[str, ...]
    rules_json: dict[str, Any]
    seed: int
    timeout: float = DEFAULT_TIMEOUT


def _seat_entry(n: int, rotation: int) -> list[int]:
    """seat -> entry when entry e sits at seat (e + rotation) % n."""
    return [(s - rotation) % n for s in range(n)]


def _bots(levels: Sequence[str], seat_entry: Sequence[int], seed: int,
          timeout: float = DEFAULT_TIMEOUT) -> list[Any]:
    # The seed goes with the seat, not with the bot: a level sitting in the same seat in
    # two seatings decides the same way from the same position (common random numbers),
    # so the seatings differ where the bots differ, not where their dice do.
    return [seat_bot(levels[e], seed * 31 + seat, timeout) for seat, e in enumerate(seat_entry)]


def _referee(levels: Sequence[str], seat_entry: Sequence[int], seed: int,
             where: str) -> Referee:
    labels = labels_for(levels)
    return Referee([labels[e] for e in seat_entry], seed, where)


def _by_entry(by_seat: Sequence[int], seat_entry: Sequence[int]) -> list[int]:
    """Seat figures by entry; empty when all are 0 (the logs stay short)."""
    out = [0] * len(by_seat)
    for seat, e in enumerate(seat_entry):
        out[e] = by_seat[seat]
    return out if any(out) else []


def _one_deal_played(game: Game) -> bool:
    return any(x.result.outcome != "redeal" for x in game.summaries)


def play_set(index: int, levels: Sequence[str], rules: Rules, seed: int,
             move_timeout: float = DEFAULT_TIMEOUT) -> SetResult:
    """Play dealt set ``index`` in every rotation."""
    n = rules.players
    s_seed = set_seed(seed, index)
    dealer = index % n
    seatings = []
    for rot in range(n):
        seat_entry = _seat_entry(n, rot)
        bots = _bots(levels, seat_entry, s_seed, move_timeout)
        referee = _referee(levels, seat_entry, s_seed,
                           f"duplicate set {index + 1}, seating {rot + 1}")
        # the deal (and the redeals before it) only: the game stops after it
        game = play_game(new_game(rules, None, dealer, s_seed, bots), bots, referee=referee,
                         until=_one_deal_played)
        scores = [0] * n
        for summ in game.summaries:
            for seat in range(n):
                scores[seat_entry[seat]] += summ.changes[seat]
        res = game.summaries[-1].result
        decl = None if res.declarer is None else seat_entry[res.declarer]
        record = game.records[len(game.summaries) - 1].moves
        n_bids = sum(1 for m in record if mv.is_bid(m) or m == mv.DARK)
        compulsory = res.declarer is not None and n_bids == 1 and res.bid == 100 and not res.golden
        seatings.append(SeatingResult(
            rot, scores, decl, res.contract, res.made, res.outcome, res.dark, compulsory,
            _by_entry(referee.faults, seat_entry), _by_entry(referee.fallback_moves, seat_entry),
        ))
    return SetResult(index, s_seed, dealer, seatings)


def play_rotated_game(index: int, levels: Sequence[str], rules: Rules, seed: int,
                      move_timeout: float = DEFAULT_TIMEOUT) -> list[GameResult]:
    """Whole game ``index`` (its own cards) once in every rotation."""
    n = rules.players
    g_seed = set_seed(seed + 7, index)
    out = []
    for rot in range(n):
        seat_entry = _seat_entry(n, rot)
        bots = _bots(levels, seat_entry, g_seed, move_timeout)
        referee = _referee(levels, seat_entry, g_seed,
                           f"duplicate game {index + 1}, seating {rot + 1}")
        game = play_game(new_game(rules, None, index % n, g_seed, bots), bots, referee=referee)
        wins = [0.0] * n
        winners = game.winner if isinstance(game.winner, list) else (
            [game.winner] if game.winner is not None else []
        )
        for w in winners:
            wins[seat_entry[w]] += 1 / len(winners)
        deals = sum(1 for x in game.summaries if x.result.outcome != "redeal")
        out.append(GameResult(index, rot, wins, deals, _by_entry(referee.faults, seat_entry),
                              _by_entry(referee.fallback_moves, seat_entry)))
    return out


def _run_task(task: _Task) -> tuple[str, Any]:
    rules = Rules.from_json(task.rules_json)
    if task.kind == "set":
        return "set", play_set(task.index, task.levels, rules, task.seed, task.timeout)
    return "game", play_rotated_game(task.index, task.levels, rules, task.seed, task.timeout)


def run_duplicate(
    bot_levels: Sequence[str],
    sets: int,
    rules: Rules | None = None,
    seed: int = 0,
    jobs: int = 1,
    games: int = 0,
    save_dir: str | None = None,
    resume: bool = False,
    progress: Callable[[int, int], None] | None = None,
    move_timeout: float = DEFAULT_TIMEOUT,
) -> DuplicateReport:
    """Play ``sets`` dealt sets in every rotation of ``bot_levels`` (and ``games`` whole
    games per rotation); see the module docstring.  A level may be ``cmd:COMMAND``, an
    external bot with ``move_timeout`` seconds a move.  ``progress(done, total)`` is
    called as tasks finish."""
    rules = rules if rules is not None else Rules()
    levels = list(bot_levels)
    if len(levels) != rules.players:
        raise RunError("bots_count", n=len(levels), players=rules.players)
    for level in levels:
        check_level(level)
    rj = rules.to_json()
    report = DuplicateReport(levels, rj, seed)
    done_sets: set[int] = set()
    done_games: set[int] = set()
    log = None
    if save_dir is not None:
        os.makedirs(save_dir, exist_ok=True)
        path = os.path.join(save_dir, "sets.jsonl")
        header = {"levels": levels, "rules": rj, "seed": seed}
        if resume and os.path.exists(path):
            prev = load_partial(path)
            if (prev.levels, prev.rules, prev.seed) != (levels, rj, seed):
                raise RunError("another_run", path=path)
            report.sets = [s for s in prev.sets if s.index < sets]
            report.games = [g for g in prev.games if g.index < games]
            report.seconds = prev.seconds
            done_sets = {s.index for s in report.sets}
            done_games = {g.index for g in report.games}
            log = open(path, "a", encoding="utf-8")  # noqa: SIM115
        else:
            log = open(path, "w", encoding="utf-8")  # noqa: SIM115
            log.write(json.dumps({"header": header}) + "\n")
            log.flush()
    tasks = [_Task("set", i, tuple(levels), rj, seed, move_timeout)
             for i in range(sets) if i not in done_sets]
    tasks += [_Task("game", i, tuple(levels), rj, seed, move_timeout)
              for i in range(games) if i not in done_games]
    start = time.perf_counter()
    base_seconds = report.seconds
    try:
        for k, (kind, res) in enumerate(run_jobs(_run_task, tasks, jobs), 1):
            line: dict[str, Any]
            if kind == "set":
                report.sets.append(res)
                line = {"set": asdict(res)}
            else:
                report.games.extend(res)
                line = {"games": [asdict(g) for g in res]}
            report.seconds = base_seconds + time.perf_counter() - start
            if log is not None:
                line["seconds"] = round(report.seconds, 1)
                log.write(json.dumps(line) + "\n")
                log.flush()
            if progress is not None:
                progress(k, len(tasks))
    finally:
        if log is not None:
            log.close()
    report.sets.sort(key=lambda s: s.index)
    report.games.sort(key=lambda g: (g.index, g.rotation))
    if save_dir is not None:
        save_report(report, save_dir)
    return report


def load_partial(path: str) -> DuplicateReport:
    """A report from a ``sets.jsonl`` log (of a finished run or one still going)."""
    rep: DuplicateReport | None = None
    with open(path, encoding="utf-8") as f:
        for raw in f:
            raw = raw.strip()
            if not raw:
                continue
            try:
                obj = json.loads(raw)
            except json.JSONDecodeError:
                continue  # a line cut short by a stop
            if "header" in obj:
                h = obj["header"]
                rep = DuplicateReport(list(h["levels"]), dict(h["rules"]), int(h["seed"]))
            elif rep is not None and "set" in obj:
                rep.sets.append(_set_from_json(obj["set"]))
                rep.seconds = float(obj.get("seconds", rep.seconds))
            elif rep is not None and "games" in obj:
                rep.games.extend(GameResult(**g) for g in obj["games"])
                rep.seconds = float(obj.get("seconds", rep.seconds))
    if rep is None:
        raise RunError("not_a_log", path=path)
    rep.sets.sort(key=lambda s: s.index)
    return rep


def save_report(report: DuplicateReport, save_dir: str) -> None:
    """``report.json`` (the figures; every set is in ``sets.jsonl`` beside it) and
    ``report.txt`` (the table)."""
    with open(os.path.join(save_dir, "report.json"), "w", encoding="utf-8") as f:
        json.dump(report.to_json(full=False), f, ensure_ascii=False, indent=1)
        f.write("\n")
    with open(os.path.join(save_dir, "report.txt"), "w", encoding="utf-8") as f:
        f.write(report_text(report) + "\n")


# --------------------------------------------------------------------------- showing

#: The words of the duplicate report: key -> (English, Russian) (thousand.words.grammar.render).
WORDS: dict[str, tuple[str, str]] = {
    "bot": ("bot", "бот"),
    "score": ("deal score (95% CI)", "очки за раздачу (95% ДИ)"),
    "declared": ("declared", "заказы"),
    "made": ("made", "сыграно"),
    "contract": ("mean contract", "средний заказ"),
    "wins": ("win rate (95% CI)", "победы (95% ДИ)"),
    "diff": ("{a} − {b}: {m} points per deal (95% CI {lo} … {hi})",
             "{a} − {b}: {m} очка за раздачу (95% ДИ {lo} … {hi})"),
    "better": ("{a} is stronger than {b}", "{a} сильнее, чем {b}"),
    "worse": ("{b} is stronger than {a}", "{b} сильнее, чем {a}"),
    "same": ("no clear difference: the interval holds 0", "ясной разницы нет: в интервале 0"),
    "too_few": ("too few deals to tell: after {n:#dealt set|dealt sets} the interval holds "
                "0; play {min} or more",
                "слишком мало раздач, чтобы судить: после {n:#набора|наборов|наборов} в "
                "интервале 0; сыграйте хотя бы {min}"),
    "pace": ("{sets:#set|sets} × {rot:#seating|seatings} = {deals:#deal|deals}{games} in "
             "{sec} s",
             "{sets:#набор|набора|наборов} × {rot:#рассадка|рассадки|рассадок} = "
             "{deals:#раздача|раздачи|раздач}{games} за {sec} с"),
    "games": (", {g:#game|games}", ", {g:#партия|партии|партий}"),
    "all": ("all declarers made {p}% ({k}/{n})", "все разыгрывающие: сыграно {p}% ({k}/{n})"),
    "contested": ("leaving out uncontested compulsory 100s: {p}% ({k}/{n})",
                  "без обязательных 100, которые никто не перебил: {p}% ({k}/{n})"),
    "faults": ("faults", "сбои"),
    "fallback": ("fallback moves", "ходы за бота"),
    "title": ("duplicate: {title} (seed {seed})", "дубль: {title} (зерно {seed})"),
    "head": ("duplicate: {levels}  seed {seed}  rules {rules}",
             "дубль: {levels}  зерно {seed}  правила {rules}"),
    "saved": ("results in {dir}", "результаты в {dir}"),
}


def report_word(key: str, lang: str = "en", **params: object) -> str:
    """A word or line of the duplicate report in ``lang`` (:data:`WORDS`)."""
    from thousand.words.grammar import render

    en, ru = WORDS[key]
    return render(ru if lang == "ru" else en, lang, params)


def difference_verdict(a: str, b: str, m: float, ci: float, sets: int, lang: str = "en") -> str:
    """What a difference of mean deal scores says, from its 95% interval: which level is
    stronger when the interval leaves out 0, whatever the number of dealt sets; an
    interval holding 0 says "too few" below :data:`~thousand.evaluation.arena.MIN_SAMPLE` sets
    and "no clear difference" from there on."""
    if m - ci > 0:
        return report_word("better", lang, a=a, b=b)
    if m + ci < 0:
        return report_word("worse", lang, a=a, b=b)
    if sets < MIN_SAMPLE:
        return report_word("too_few", lang, n=sets, min=MIN_SAMPLE)
    return report_word("same", lang)


def report_columns(report: DuplicateReport, lang: str = "en") -> tuple[Columns, Rows]:
    """The per-bot table as columns (header, justify) and rows (bots by their names for
    people in ``lang``)."""
    def w(key: str) -> str:
        return report_word(key, lang)

    with_sets = bool(report.sets)
    cols = [(w("bot"), "left")]
    if with_sets:
        cols += [(w("score"), "right"), (w("declared"), "right"), (w("made"), "right"),
                 (w("contract"), "right")]
    with_games = bool(report.games)
    if with_games:
        cols.append((w("wins"), "right"))
    entries = report.entries()
    with_faults = has_faults(report, entries)
    if with_faults:
        cols += [(w("faults"), "right"), (w("fallback"), "right")]
    rows = []
    for s, label in zip(entries, labels_for(report.levels, lang), strict=True):
        row = [label]
        if with_sets:
            row += [
                f"{decimal(s.mean, lang, sign=True)} (±{decimal(s.ci, lang)})",
                percent(100 * s.declare_rate, lang),
                f"{percent(100 * s.make_rate, lang)} ({s.made}/{s.declared})",
                decimal(s.mean_contract, lang),
            ]
        if with_games:
            lo, hi = s.win_interval
            row.append(f"{percent(100 * s.win_rate, lang)} "
                       f"({decimal(100 * lo, lang)}–{decimal(100 * hi, lang)})")
        if with_faults:
            row += [str(s.faults), str(s.fallback_moves)]
        rows.append(row)
    return cols, rows


def report_table(report: DuplicateReport, lang: str = "en") -> Table:
    """The per-bot table (rich), whole."""
    table: Table = report_tables(*report_columns(report, lang))[0]
    return table


def has_faults(report: DuplicateReport, entries: Sequence[EntryStats] | None = None) -> bool:
    """Whether the table shows faults: some bot had one, or a seat is an external bot."""
    entries = entries if entries is not None else report.entries()
    return any(s.faults or s.fallback_moves for s in entries) or any(
        is_command(lv) for lv in report.levels
    )


def report_lines(report: DuplicateReport, lang: str = "en") -> list[str]:
    """The lines under the table: differences between levels (and whether they tell
    anything), make rate, pace."""
    out = []
    sets = len(report.sets)
    if report.sets:
        for a, b, m, ci in report.level_differences():
            a, b = shown_level(a, lang), shown_level(b, lang)
            line = report_word("diff", lang, a=a, b=b, m=decimal(m, lang, sign=True),
                               lo=decimal(m - ci, lang, sign=True),
                               hi=decimal(m + ci, lang, sign=True))
            out.append(f"{line}: {difference_verdict(a, b, m, ci, sets, lang)}")
        p, k, n = report.declarer_make_rate()
        out.append(report_word("all", lang, p=decimal(100 * p, lang), k=k, n=n))
        p, k, n = report.declarer_make_rate(contested_only=True)
        out.append(report_word("contested", lang, p=decimal(100 * p, lang), k=k, n=n))
    n_rot = len(report.levels)
    games = report_word("games", lang, g=len(report.games)) if report.games else ""
    out.append(report_word("pace", lang, sets=sets, rot=n_rot, deals=sets * n_rot,
                           games=games, sec=f"{report.seconds:.0f}"))
    return out


def rules_label(rules_json: dict[str, Any], lang: str = "en") -> str:
    """``classic`` or ``classic, must_overtake=true``: the preset by its name for people
    in ``lang`` («классика»), and what differs as ``--set`` writes it."""
    from thousand.words.catalogue import preset_name

    rules = Rules.from_json(rules_json)
    text = preset_name(rules.preset, lang)
    changed = " ".join(f"{k}={rules.value_text(k)}" for k in rules.overrides())
    return f"{text}, {changed}" if changed else text


def report_text(report: DuplicateReport, lang: str = "en") -> str:
    from io import StringIO

    from rich.console import Console

    buf = StringIO()
    console = Console(file=buf, width=140, highlight=False, color_system=None)
    levels = ", ".join(shown_level(lv, lang) for lv in report.levels)
    console.print(report_word("head", lang, levels=levels, seed=report.seed,
                              rules=rules_label(report.rules, lang)), markup=False)
    console.print(report_table(report, lang))
    for line in report_lines(report, lang):
        console.print(line, markup=False)
    return buf.getvalue().rstrip()
