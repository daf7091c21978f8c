"""Bots playing whole games against each other, and what the games say about them.

:func:`play_game` is the one place where bots meet the engine: each bot is handed
``game.view(seat)`` for its own seat and nothing else, and its move is checked against the
legal moves.  :func:`run_arena` plays many games (in several processes with ``jobs``),
rotating the seats so that nobody keeps the same place at the table, and sums them up in an
:class:`ArenaResult`.

Counting (docs/bots.md):

* a shared win (equal leaders after ``max_deals``, equal scores over the win score) counts
  ``1/k`` to each of the ``k`` winners, so the wins of all bots add up to the games played;
* the 95% interval of the win rate is Wilson's score interval on those (fractional) wins;
* "mean score per deal" is the bot's final score over the deals played (redeals are not
  deals); "declared" counts the deals it played as declarer (golden deals included),
  "made" those it made (a conceded contract is not made).
"""

from __future__ import annotations

import math
import os
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field

from thousand.game import Game
from thousand.rules import Rules

from .base import Bot, checked_choice
from .jobs import run_jobs

MAX_MOVES = 500_000  # a game that long is a bug somewhere, not a game


class ArenaError(RuntimeError):
    """A game could not be finished (a bot failed, or the game never ended)."""


def play_game(
    game: Game,
    bots: Sequence[Bot],
    on_move: Callable[[Game, int, int], None] | None = None,
) -> Game:
    """Play ``game`` to its end with ``bots[seat]`` moving for each seat.

    A bot sees only ``game.view(seat)``; ``on_move(game, seat, move)`` is called after
    each move (for logging)."""
    moves = 0
    while not game.over:
        seat = game.to_move
        move = checked_choice(bots[seat], game.view(seat))
        game.apply(move)
        if on_move is not None:
            on_move(game, seat, move)
        moves += 1
        if moves > MAX_MOVES:
            raise ArenaError(f"the game did not end after {MAX_MOVES} moves")
    return game


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


def labels_for(levels: Sequence[str]) -> list[str]:
    """``heuristic, random, random`` -> ``heuristic, random 1, random 2``."""
    out = []
    for i, lv in enumerate(levels):
        if levels.count(lv) > 1:
            out.append(f"{lv} {levels[:i + 1].count(lv)}")
        else:
            out.append(lv)
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


def _compulsory(moves: Sequence[int]) -> bool:
    """Whether a deal's auction was one bid (the opener's) and passes."""
    from thousand import moves as mv

    bids = 0
    for m in moves:
        if mv.is_bid(m) or m == mv.DARK:
            bids += 1 if m != mv.DARK else 2  # a dark bid is never compulsory
        elif m != mv.PASS:
            break
    return bids == 1 and any(m == mv.PASS for m in moves[:3])


def _play_one(job: _Job) -> tuple[int, list[SeatStats], int, str | None]:
    """Play arena game ``job.index``; return (index, stats by entry, deals, saved path)."""
    from . import make_bot

    rules = Rules.from_json(job.rules_json)
    k = len(job.levels)
    shift = job.index % k
    # entry e sits at seat (e + shift) % k
    seat_entry = [(s - shift) % k for s in range(k)]
    bots = [make_bot(job.levels[seat_entry[s]], seed=job.seed * 31 + s) for s in range(k)]
    names = [job.levels[seat_entry[s]] for s in range(k)]
    game = Game(rules, players=names, first_dealer=0, seed=job.seed)
    play_game(game, bots)
    stats = [SeatStats(label="", level=lv, games=1) for lv in job.levels]
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
        from thousand.record import dumps_record, game_to_record

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
) -> Iterator[tuple[int, list[SeatStats], int, str | None]]:
    """Play the games one by one (or in ``jobs`` processes), yielding each as it ends."""
    rules = rules if rules is not None else Rules()
    if len(levels) != rules.players:
        raise ValueError(
            f"{len(levels)} bots for a {rules.players}-player game: name one bot per seat"
        )
    if save_dir is not None:
        os.makedirs(save_dir, exist_ok=True)
    rj = rules.to_json()
    work = [
        _Job(i, tuple(levels), rj, game_seed(seed, i), save_dir) for i in range(n_games)
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
) -> ArenaResult:
    """Play ``n_games`` games between the bots ``levels`` (one per seat) and sum them up."""
    labels = labels_for(levels)
    total = [SeatStats(label=lb, level=lv) for lb, lv in zip(labels, levels, strict=True)]
    result = ArenaResult(total)
    start = time.perf_counter()
    games = iter_arena(levels, n_games, rules, seed, jobs, save_dir)
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
