"""Tournaments: players (people or bots) at three-player (or four-player) tables over
several rounds, a standings table, and for bots a ladder run from the command line
(``thousand tournament``, docs/ratings.md).

:class:`Tournament` is the tournament itself, pure and without I/O, as the site will hold
it: players register until it starts, then each round is paired (:meth:`Tournament.
next_round`), each table's game is recorded (:meth:`Tournament.record`) and the standings
follow (:meth:`Tournament.standings`).  :func:`run_tournament` plays one between bots with
the arena's machinery (:func:`~thousand.evaluation.arena.play_game`, the
:class:`~thousand.evaluation.arena.Referee`, :func:`~thousand.evaluation.jobs.run_jobs` for
``jobs``) and rates its games (:mod:`thousand.site.ratings`).

What was decided, and why:

* **Points by place at the table**: 2, 1, 0 at a three-player table (3, 2, 1, 0 at four),
  i.e. one point for every player finished ahead of.  Tied players share the points of
  the places they hold (two tied first at three: 1.5 each), so a table always gives out
  the same total.  Standings go by points, then by the total game score (the margin),
  then by first places, then by the draw of lots made at the start (never by name).
* **Byes**: when the players do not fill whole tables, the players left over sit out the
  round.  A bye scores the mean points of a seat, 1 at three-player tables (1.5 at four),
  and no game score: sitting out neither helps nor hurts on average.  The bye goes to a
  player with the fewest byes so far; among them, in Swiss the lowest in the standings
  (as Swiss tournaments do), in a round-robin the next in the draw's rotation.
* **Round-robin** (pairings that do not depend on results, so the whole schedule is
  made at the start): every pair of players meets as evenly as the rounds allow, and
  every player sits out as evenly, by simulated annealing on the whole schedule (seeded):
  with 9 players and 4 rounds each pair meets exactly once (the affine plane of order 3),
  with 7 players and 7 rounds each pair twice and each player sits out once; with 5
  players and 10 rounds each three meet exactly once.  Where no perfectly even schedule
  exists (6 players in 4 rounds: at best some pair meets twice and another never) or
  annealing misses it, meetings differ by two.
* **Swiss**: the players in standing order fill the tables from the top, then players are
  swapped between tables to avoid meeting again, as long as the tables stay close in
  the standings; repeats weigh more than any spread of standings.
* **Deterministic from the seed**: the draw of lots, the pairings, each table's deal seed
  and each bot's seed come from ``seed``; ``jobs`` changes only the speed.
* **A table plays one whole game or a fixed number of deals** (``deals``, for a quick
  bot ladder); a game cut short is placed by score.
* **Ratings**: every table's game updates its players' ratings (Plackett–Luce, in the
  order round by round, table by table), from new ratings or the ones given.  A ladder
  tournament rates also a ruleset that the site would not rate, and games cut short:
  those ratings are the ladder's own (:attr:`TournamentResult.family` says ``None``).
"""

from __future__ import annotations

import itertools
import math
import random
import time
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from thousand.bots.external import DEFAULT_TIMEOUT, check_level, seat_bot
from thousand.engine.game import Game
from thousand.engine.rules import Rules
from thousand.site.ratings import Rating, RatingChange, places, rate_game, rating_family

from .arena import Referee, game_seed, labels_for, new_game, play_game
from .duplicate import duplicate_scores
from .jobs import run_jobs

Format = Literal["round-robin", "swiss"]
FORMATS: tuple[str, ...] = ("round-robin", "swiss")
#: How a tournament ranks: by the points of the places at the tables, or ``duplicate``
#: (every table of a round deals the same cards; a player's game score less the mean of
#: the others' who held his seat's cards, summed over the rounds).
SCORINGS: tuple[str, ...] = ("places", "duplicate")

#: The longest player name a tournament takes.
MAX_NAME = 40
#: The most rounds and players a tournament takes (a bigger one is a typing mistake).
MAX_ROUNDS = 1000
MAX_PLAYERS = 1000

#: The words of tournaments, for errors and the report: key -> (English, Russian)
#: (:func:`thousand.words.grammar.render`).
WORDS: dict[str, tuple[str, str]] = {
    "bad_format": ("unknown tournament format {format}; choose round-robin or swiss",
                   "неизвестный формат турнира {format}; выберите round-robin или swiss"),
    "bad_scoring": ("unknown tournament scoring {scoring}; choose places or duplicate",
                    "неизвестный зачёт турнира {scoring}; выберите places (по местам) "
                    "или duplicate (дубликатный)"),
    "few_duplicate": ("{n:#player is|players are} registered; a duplicate tournament needs "
                      "{need}: two tables, so that others hold the same cards",
                      "{n:#игрок записан|игрока записаны|игроков записаны}, а дубликатному "
                      "турниру нужно {need}: два стола, чтобы те же карты держали другие"),
    "bad_rounds": ("a tournament has from 1 to {max} rounds, not {n}",
                   "в турнире от 1 до {max} туров, а не {n}"),
    "bad_table": ("a table seats 3 or 4 players, not {n}",
                  "за столом 3 или 4 игрока, а не {n}"),
    "bad_deals": ("a table plays at least one deal, not {n}",
                  "за столом играют хотя бы одну раздачу, а не {n}"),
    "started": ("the tournament has started: registration is closed",
                "турнир начался: регистрация закрыта"),
    "not_started": ("the tournament has not started yet", "турнир ещё не начался"),
    "no_name": ("a player needs a name", "у игрока должно быть имя"),
    "long_name": ("a name has at most {max} characters", "в имени не больше {max} символов"),
    "taken": ("{name} is registered already", "{name} уже в списке"),
    "full": ("the tournament is full: {max} players", "мест больше нет: {max} игроков"),
    "few": ("{n:#player is|players are} registered; a table needs {need}",
            "{n:#игрок записан|игрока записаны|игроков записаны}, а за столом нужно {need}"),
    "over": ("all {n:#round is|rounds are} paired", "все туры ({n}) уже составлены"),
    "unfinished": ("round {n} has unfinished tables", "в туре {n} ещё играют"),
    "no_table": ("round {round} has no table {table}", "в туре {round} нет стола {table}"),
    "recorded": ("round {round}, table {table} is recorded already",
                 "тур {round}, стол {table}: результат уже записан"),
    "scores": ("{n:#score|scores} for a table of {k}", "очков: {n}, а за столом {k}"),
    "bad_score": ("a score is a whole number, not {value}",
                  "счёт — целое число, а не {value}"),
    "bad_winners": ("winners {winners} are not seats of a table of {k} (from 0)",
                    "победители {winners} — не места за столом на {k} (от 0)"),
    "deals_or_games": ("--deals and --games: choose one (a table plays N deals or a whole "
                       "game)", "--deals и --games: выберите одно (за столом играют N "
                       "раздач или целую партию)"),
    "bots": ("{n:#bot|bots} for tables of {k}: a tournament needs at least {k}",
             "ботов: {n}, а за столом {k}: нужно хотя бы {k}"),
    # the report
    "place": ("#", "№"),
    "player": ("player", "игрок"),
    "points": ("points", "очки"),
    "games": ("games", "партии"),
    "byes": ("byes", "пропуски"),
    "firsts": ("1st", "1-е места"),
    "duplicate": ("duplicate", "дубликат"),
    "score": ("score", "счёт"),
    "rating": ("rating", "рейтинг"),
    "change": ("±", "±"),
    "title": ("{format} tournament, {rounds:#round|rounds}, {what} — {rules} (seed {seed})",
              "турнир {format}, {rounds:#тур|тура|туров}, {what} — {rules} (зерно {seed})"),
    "players_n": ("{n:#player|players}", "{n:#игрок|игрока|игроков}"),
    "round-robin": ("round-robin", "по круговой системе"),
    "swiss": ("Swiss", "по швейцарской системе"),
    "whole": ("whole games", "целые партии"),
    "deals": ("{n:#deal|deals} a table", "{n:#раздача|раздачи|раздач} за столом"),
    "family": ("Ratings of the family {family}: 1500 + 20 × (μ − 3σ), from {start}; "
               "±: the change over the tournament.",
               "Рейтинги семейства «{family}»: 1500 + 20 × (μ − 3σ), от {start}; "
               "±: изменение за турнир."),
    "own": ("Ratings of this tournament only (the site rates whole games of a preset): "
            "1500 + 20 × (μ − 3σ), from {start}; ±: the change over the tournament.",
            "Рейтинги только этого турнира (на сайте в рейтинг идут целые партии по "
            "правилам набора): 1500 + 20 × (μ − 3σ), от {start}; ±: изменение за турнир."),
    "new": ("new ratings", "новых рейтингов"),
    "given": ("the ratings given", "заданных рейтингов"),
    "pace": ("{tables:#table|tables}, {deals:#deal|deals} in {sec} s",
             "{tables:#стол|стола|столов}, {deals:#раздача|раздачи|раздач} за {sec} с"),
    "progress": ("tournament", "турнир"),
}


def word(key: str, lang: str = "en", **params: object) -> str:
    """A text of :data:`WORDS` in ``lang``."""
    from thousand.words.grammar import render

    en, ru = WORDS[key]
    return render(ru if lang == "ru" else en, lang, params)


class TournamentError(ValueError):
    """What cannot be done in a tournament, as a key of :data:`WORDS` and its values, so
    each front end says it in its player's language (:meth:`text`); ``str()`` is English."""

    def __init__(self, key: str, **params: object) -> None:
        self.key = key
        self.params = params
        super().__init__(word(key, "en", **params))

    def text(self, lang: str = "en") -> str:
        return word(self.key, lang, **self.params)


def table_points(final_places: Sequence[int]) -> list[float]:
    """Tournament points of each seat from its place (1 = first): one point for every
    player finished ahead of, ties sharing the points of the places they hold."""
    k = len(final_places)
    out = []
    for p in final_places:
        tied = sum(1 for q in final_places if q == p)
        out.append(sum(k - place for place in range(p, p + tied)) / tied)
    return out


def bye_points(table_size: int) -> float:
    """A bye's points: the mean points of a seat at a table of ``table_size``."""
    return (table_size - 1) / 2


@dataclass(frozen=True)
class TableResult:
    """One table's game: the players in seat order, their final scores, places and points."""

    players: tuple[str, ...]
    scores: tuple[int, ...]
    places: tuple[int, ...]
    points: tuple[float, ...]
    deals: int = 0

    def to_json(self) -> dict[str, Any]:
        return {"players": list(self.players), "scores": list(self.scores),
                "places": list(self.places), "points": list(self.points),
                "deals": self.deals}


@dataclass
class Round:
    """A paired round: its tables (players in seat order), who sits out, and the results."""

    number: int
    tables: list[tuple[str, ...]]
    byes: list[str]
    results: dict[int, TableResult] = field(default_factory=dict)

    @property
    def complete(self) -> bool:
        return len(self.results) == len(self.tables)

    def to_json(self) -> dict[str, Any]:
        return {
            "round": self.number,
            "tables": [
                self.results[i].to_json() if i in self.results else {"players": list(t)}
                for i, t in enumerate(self.tables)
            ],
            "byes": list(self.byes),
        }


@dataclass
class Standing:
    """One player's line in the standings."""

    name: str
    place: int = 0
    points: float = 0.0
    games: int = 0
    byes: int = 0
    firsts: int = 0
    score: int = 0
    #: the duplicate score of a duplicate tournament (None in one by places)
    duplicate: float | None = None

    def to_json(self) -> dict[str, Any]:
        return {"place": self.place, "name": self.name, "points": self.points,
                "games": self.games, "byes": self.byes, "firsts": self.firsts,
                "score": self.score, "duplicate": self.duplicate}


class Tournament:
    """A tournament of ``rounds`` rounds at tables of ``table_size`` (docs/ratings.md).

    Register players with :meth:`register`, then :meth:`start`; pair each round with
    :meth:`next_round` and record each table's game with :meth:`record`.  A Swiss round
    is paired only when the rounds before it are complete; round-robin rounds do not
    depend on results and may be paired ahead.  Every mistake is a
    :class:`TournamentError`.

    ``scoring="duplicate"``: the tables of a round are meant to deal the same cards to
    the same seat (who plays them gives them the same seed: the site's
    server/features/tournaments.py, :func:`run_tournament`), and a player's duplicate
    score of a round is his table's final game score less the mean of the others' who
    sat in his seat at the round's other tables (:func:`~.duplicate.duplicate_scores`,
    whole games: a table's record keeps the game's scores, and with the same cards the
    same seat of every table starts every deal from the same hands).  The standings go
    by its sum first (a bye adds 0), and Swiss pairs by them; it needs two tables."""

    def __init__(self, format: str = "swiss", rounds: int = 6, table_size: int = 3,
                 seed: int = 0, scoring: str = "places") -> None:
        if format not in FORMATS:
            raise TournamentError("bad_format", format=repr(format))
        if scoring not in SCORINGS:
            raise TournamentError("bad_scoring", scoring=repr(scoring))
        if isinstance(rounds, bool) or not isinstance(rounds, int) \
                or not 1 <= rounds <= MAX_ROUNDS:
            raise TournamentError("bad_rounds", n=rounds, max=MAX_ROUNDS)
        if table_size not in (3, 4):
            raise TournamentError("bad_table", n=table_size)
        self.format: str = format
        self.scoring: str = scoring
        self.total_rounds = rounds
        self.table_size = table_size
        self.seed = seed
        self.players: list[str] = []
        self.started = False
        self.rounds: list[Round] = []
        self._lot: dict[str, int] = {}
        self._schedule: list[tuple[list[list[str]], list[str]]] = []

    # ------------------------------------------------------------ registration

    def register(self, name: str) -> None:
        """Add a player (a name no other player has, whatever its case)."""
        if self.started:
            raise TournamentError("started")
        if not isinstance(name, str):
            raise TournamentError("no_name")
        name = " ".join(name.split())
        if not name:
            raise TournamentError("no_name")
        if len(name) > MAX_NAME:
            raise TournamentError("long_name", max=MAX_NAME)
        if any(p.casefold() == name.casefold() for p in self.players):
            raise TournamentError("taken", name=name)
        if len(self.players) >= MAX_PLAYERS:
            raise TournamentError("full", max=MAX_PLAYERS)
        self.players.append(name)

    def start(self) -> None:
        """Close registration and draw lots (the order of round one and of last ties)."""
        if self.started:
            raise TournamentError("started")
        if len(self.players) < self.table_size:
            raise TournamentError("few", n=len(self.players), need=self.table_size)
        if self.duplicate and len(self.players) < 2 * self.table_size:
            raise TournamentError("few_duplicate", n=len(self.players),
                                  need=2 * self.table_size)
        order = list(self.players)
        random.Random(f"thousand-tournament-lots-{self.seed}").shuffle(order)
        self._lot = {p: i for i, p in enumerate(order)}
        self.started = True
        if self.format == "round-robin":
            rng = random.Random(f"thousand-tournament-schedule-{self.seed}")
            self._schedule = _round_robin(order, self.table_size, self.total_rounds, rng)

    # ---------------------------------------------------------------- pairing

    @property
    def duplicate(self) -> bool:
        return self.scoring == "duplicate"

    @property
    def finished(self) -> bool:
        return len(self.rounds) == self.total_rounds and all(r.complete for r in self.rounds)

    def next_round(self) -> Round:
        """Pair the next round (its tables' seats in order) and return it."""
        if not self.started:
            raise TournamentError("not_started")
        if len(self.rounds) >= self.total_rounds:
            raise TournamentError("over", n=self.total_rounds)
        if self.format == "swiss":
            for r in self.rounds:
                if not r.complete:
                    raise TournamentError("unfinished", n=r.number)
        number = len(self.rounds) + 1
        k = self.table_size
        if self.format == "round-robin":
            tables, byes = self._schedule[number - 1]
        else:
            byes_so_far = Counter(b for r in self.rounds for b in r.byes)
            ranked = [s.name for s in self.standings()]
            n_byes = len(self.players) % k
            byes = sorted(reversed(ranked), key=lambda p: byes_so_far[p])[:n_byes]
            playing = [p for p in ranked if p not in byes]
            rng = random.Random(f"thousand-tournament-{self.seed}-round-{number}")
            tables = _swiss(playing, k, self._meetings(), rng)
        # seats: the table's order turned by the round, so the first dealer changes
        turn = (number - 1) % k
        seated = [(*t[turn:], *t[:turn]) for t in tables]
        rnd = Round(number, seated, sorted(byes, key=self._lot.__getitem__))
        self.rounds.append(rnd)
        return rnd

    def _meetings(self) -> Counter[frozenset[str]]:
        met: Counter[frozenset[str]] = Counter()
        for r in self.rounds:
            for t in r.tables:
                for a, b in itertools.combinations(t, 2):
                    met[frozenset((a, b))] += 1
        return met

    # ---------------------------------------------------------------- results

    def record(self, round_number: int, table: int, scores: Sequence[int],
               winners: Sequence[int] | int | None = None, deals: int = 0) -> TableResult:
        """Record the game of ``table`` (from 0) of round ``round_number`` (from 1): the
        final scores by seat and the seats the game declared winners
        (``Game.winner``; none for a game cut short)."""
        if not 1 <= round_number <= len(self.rounds):
            raise TournamentError("no_table", round=round_number, table=table)
        rnd = self.rounds[round_number - 1]
        if not 0 <= table < len(rnd.tables):
            raise TournamentError("no_table", round=round_number, table=table)
        if table in rnd.results:
            raise TournamentError("recorded", round=round_number, table=table)
        players = rnd.tables[table]
        if len(scores) != len(players):
            raise TournamentError("scores", n=len(scores), k=len(players))
        for score in scores:
            if isinstance(score, bool) or not isinstance(score, int):
                raise TournamentError("bad_score", value=repr(score))
        won = [winners] if isinstance(winners, int) else list(winners or ())
        if any(isinstance(w, bool) or not isinstance(w, int) or not 0 <= w < len(players)
               for w in won):
            raise TournamentError("bad_winners", winners=won, k=len(players))
        final = places(scores, won)
        result = TableResult(players, tuple(scores), tuple(final),
                             tuple(table_points(final)), deals)
        rnd.results[table] = result
        return result

    def standings(self) -> list[Standing]:
        """Every player's line, best first (points, game score, first places, the lot);
        players equal on points and game score share a place."""
        lines = {p: Standing(p) for p in self.players}
        for r in self.rounds:
            for res in r.results.values():
                for name, score, place, pts in zip(res.players, res.scores, res.places,
                                                   res.points, strict=True):
                    line = lines[name]
                    line.games += 1
                    line.points += pts
                    line.score += score
                    line.firsts += place == 1
            if r.complete:
                for name in r.byes:
                    lines[name].byes += 1
                    lines[name].points += bye_points(self.table_size)
        lot = self._lot or {p: i for i, p in enumerate(self.players)}
        if self.duplicate:
            for name, value in self.duplicate_scores().items():
                lines[name].duplicate = round(value, 2)
            for line in lines.values():
                line.duplicate = line.duplicate or 0.0  # not played yet, or only byes

        def first(s: Standing) -> float:
            return -(s.duplicate or 0.0)

        out = sorted(lines.values(),
                     key=lambda s: (first(s), -s.points, -s.score, -s.firsts, lot[s.name]))
        for i, s in enumerate(out):
            prev = out[i - 1] if i else None
            same = prev is not None and (prev.duplicate, prev.points, prev.score) == (
                s.duplicate, s.points, s.score)
            s.place = prev.place if same and prev is not None else i + 1
        return out

    def duplicate_scores(self) -> dict[str, float]:
        """Every player's duplicate score so far (those who played a recorded table):
        per round and seat, his game score less the mean of the others' in that seat of
        the round's recorded tables."""
        return duplicate_scores(
            (name, (r.number, seat), score)
            for r in self.rounds for res in r.results.values()
            for seat, (name, score) in enumerate(zip(res.players, res.scores, strict=True)))

    def to_json(self) -> dict[str, Any]:
        return {
            "format": self.format, "scoring": self.scoring, "rounds": self.total_rounds,
            "table_size": self.table_size, "seed": self.seed, "players": list(self.players),
            "standings": [s.to_json() for s in self.standings()],
            "pairings": [r.to_json() for r in self.rounds],
        }


def _swiss(ranked: Sequence[str], k: int, met: Mapping[frozenset[str], int],
           rng: random.Random, restarts: int = 3) -> list[list[str]]:
    """Swiss tables of ``k`` from ``ranked`` (the players in standing order, a multiple of
    ``k``): as few repeat meetings as swaps find (a pair that met ``c`` times costs
    ``4**c − 1`` times more than any spread of standings), then tables close in the
    standings (a table's spread: its lowest rank minus its highest).

    Hill climbing by swapping two players of different tables, first from the standings'
    order (so without repeats the tables are the standings cut in ``k``s), then from a few
    seeded shuffles; the top table first, each in standing order."""
    n = len(ranked)
    rank = {p: i for i, p in enumerate(ranked)}
    weight = n * n + 1  # more than the largest total spread of standings

    def cost(table: Sequence[str]) -> int:
        c: int = sum(weight * (4 ** met.get(frozenset((a, b)), 0) - 1)
                     for a, b in itertools.combinations(table, 2))
        return c + max(rank[p] for p in table) - min(rank[p] for p in table)

    def climb(order: list[str]) -> tuple[int, list[list[str]]]:
        tables = [order[i:i + k] for i in range(0, n, k)]
        costs = [cost(t) for t in tables]
        improved = True
        while improved:
            improved = False
            for ti, tj in itertools.combinations(range(len(tables)), 2):
                for a, b in itertools.product(range(k), range(k)):
                    x, y = tables[ti], tables[tj]
                    x[a], y[b] = y[b], x[a]
                    cx, cy = cost(x), cost(y)
                    if cx + cy < costs[ti] + costs[tj]:
                        costs[ti], costs[tj] = cx, cy
                        improved = True
                    else:
                        x[a], y[b] = y[b], x[a]
        return sum(costs), tables

    best = climb(list(ranked))
    for _ in range(restarts):
        if best[0] < weight:  # no repeat left
            break
        order = list(ranked)
        rng.shuffle(order)
        found = climb(order)
        if found[0] < best[0]:
            best = found
    return sorted((sorted(t, key=rank.__getitem__) for t in best[1]),
                  key=lambda t: rank[t[0]])


def _pair_cost(c: int) -> int:
    """What a pair that meets ``c`` times costs a round-robin schedule: the square, so
    meetings are spread evenly, and the cube as the tie-break, so among schedules as
    even a pair meeting three times loses to two pairs meeting twice."""
    return 16 * c * c + c * c * c


_PAIR_COST = [_pair_cost(c) for c in range(MAX_ROUNDS + 2)]


def _random_rounds(n: int, k: int, rounds: int, rng: random.Random) -> list[list[list[int]]]:
    """``rounds`` rounds of players ``0..n-1`` drawn at random: tables of ``k``, then the
    players left over (the byes) as the last group when ``k`` does not divide ``n``."""
    n_byes = n % k
    sched: list[list[list[int]]] = []
    for _ in range(rounds):
        order = list(range(n))
        rng.shuffle(order)
        groups = [order[i:i + k] for i in range(0, n - n_byes, k)]
        if n_byes:
            groups.append(order[n - n_byes:])
        sched.append(groups)
    return sched


def _meetings(sched: list[list[list[int]]], n: int,
              bye_group: int) -> tuple[list[list[int]], list[int]]:
    """How often each pair of players meets at a table in ``sched``, and each player's
    byes (group ``bye_group`` of a round; -1: none)."""
    met = [[0] * n for _ in range(n)]
    byes = [0] * n
    for groups in sched:
        for g, grp in enumerate(groups):
            if g == bye_group:
                for p in grp:
                    byes[p] += 1
            else:
                for a, b in itertools.combinations(grp, 2):
                    met[a][b] += 1
                    met[b][a] += 1
    return met, byes


def _least_cost(total: int, cells: int, of: Callable[[int], int]) -> int:
    """The least cost of ``cells`` counts adding up to ``total`` (each costing ``of``)."""
    q, rem = divmod(total, cells)
    return (cells - rem) * of(q) + rem * of(q + 1)


def _round_robin(players: Sequence[str], k: int, rounds: int,
                 rng: random.Random) -> list[tuple[list[list[str]], list[str]]]:
    """A round-robin schedule: for each round its tables of ``k`` and its byes, with the
    meetings of every pair and the byes of every player as even as annealing finds.

    The cost adds up :func:`_pair_cost` of every pair's meetings (least when the meetings
    are as equal as their total allows) and four times the square of every player's
    byes.  A step swaps two players of one round between two of its tables, or a table
    and its byes; simulated annealing (seeded) keeps the best schedule and stops early at
    the cost of a perfectly even one (9 players in 4 rounds: every pair once; 7 players
    in 7 rounds: every pair twice, every player one bye; 5 players in 10 rounds: every
    three once)."""
    n = len(players)
    n_byes = n % k
    n_groups = n // k + (1 if n_byes else 0)
    bye_group = n_groups - 1 if n_byes else -1  # the byes are a round's last group
    sched = _random_rounds(n, k, rounds, rng)
    met, byes = _meetings(sched, n, bye_group)
    bye_weight = 4
    cost = (sum(_pair_cost(met[a][b]) for a, b in itertools.combinations(range(n), 2))
            + bye_weight * sum(b * b for b in byes))
    floor = (_least_cost(rounds * (n // k) * k * (k - 1) // 2, n * (n - 1) // 2, _pair_cost)
             + bye_weight * _least_cost(rounds * n_byes, n, lambda b: b * b))

    def move(grp: list[int], g: int, who: int, sign: int) -> int:
        """Put (+1) or take (−1) ``who`` in or out of group ``g``: the cost's change."""
        if g == bye_group:
            b = byes[who]
            byes[who] = b + sign
            return bye_weight * (2 * b + 1 if sign > 0 else 1 - 2 * b)
        d = 0
        row = met[who]
        for other in grp:
            if other != who:
                c = row[other]
                row[other] = met[other][who] = c + sign
                d += _PAIR_COST[c + 1] - _PAIR_COST[c] if sign > 0 else \
                    _PAIR_COST[c - 1] - _PAIR_COST[c]
        return d

    def swap(r: int, g1: int, i1: int, g2: int, i2: int) -> int:
        x, y = sched[r][g1], sched[r][g2]
        a, b = x[i1], y[i2]
        d = move(x, g1, a, -1) + move(y, g2, b, -1)
        x[i1], y[i2] = b, a
        return d + move(x, g1, b, +1) + move(y, g2, a, +1)

    best = cost
    best_sched = [[list(g) for g in groups] for groups in sched]
    steps = min(50_000, 400 * rounds * n) if n_groups > 1 else 0
    temp = 48.0  # the cost of 3 pair meetings: bolder than any single step early on
    cooling = (0.8 / temp) ** (1 / max(1, steps))
    for _ in range(steps):
        if best <= floor:
            break
        r = rng.randrange(rounds)
        g1, g2 = rng.sample(range(n_groups), 2)
        i1 = rng.randrange(len(sched[r][g1]))
        i2 = rng.randrange(len(sched[r][g2]))
        d = swap(r, g1, i1, g2, i2)
        if d <= 0 or rng.random() < math.exp(-d / temp):
            cost += d
            if cost < best:
                best = cost
                best_sched = [[list(g) for g in groups] for groups in sched]
        else:
            swap(r, g1, i1, g2, i2)  # back
        temp *= cooling
    out = []
    for groups in best_sched:
        named = [[players[p] for p in g] for g in groups]
        out.append((named[:-1], named[-1]) if n_byes else (named, []))
    return out


# --------------------------------------------------------------------------- bot tournaments


@dataclass
class TournamentResult:
    """What :func:`run_tournament` found: the tournament (pairings, results, standings),
    each player's level and rating before and after, and the pace."""

    tournament: Tournament
    levels: dict[str, str]
    ratings: dict[str, RatingChange]
    family: str | None
    rules: Rules
    deals_limit: int | None
    deals: int = 0
    tables: int = 0
    seconds: float = 0.0
    faults: dict[str, int] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        out = self.tournament.to_json()
        for line in out["standings"]:
            name = line["name"]
            change = self.ratings[name]
            line["level"] = self.levels[name]
            line["rating"] = {**change.after.to_json(), "display": change.after.display,
                              "change": change.delta}
            line["faults"] = self.faults.get(name, 0)
        out.update({
            "rules": {"preset": self.rules.preset, **self.rules.overrides()},
            "family": self.family, "deals_per_table": self.deals_limit,
            "deals": self.deals, "tables_played": self.tables,
            "seconds": round(self.seconds, 3),
        })
        return out


@dataclass(frozen=True)
class _TableJob:
    round: int
    table: int
    levels: tuple[str, ...]
    names: tuple[str, ...]
    rules_json: dict[str, object]
    seed: int
    deals: int | None
    timeout: float


def _play_table(job: _TableJob) -> tuple[int, int, tuple[int, ...], list[int], int, list[int]]:
    """Play one table's game; (round, table, scores, winners, deals, faults by seat)."""
    rules = Rules.from_json(job.rules_json)
    bots = [seat_bot(level, job.seed * 31 + s, job.timeout)
            for s, level in enumerate(job.levels)]
    referee = Referee(list(job.names), job.seed,
                      f"tournament round {job.round}, table {job.table + 1}")
    limit = job.deals

    def until(g: Game) -> bool:
        return limit is not None and g.deals_played >= limit

    game = play_game(new_game(rules, list(job.names), 0, job.seed, bots), bots,
                     referee=referee, until=until)
    winner = game.winner if game.over else None
    winners = winner if isinstance(winner, list) else ([] if winner is None else [winner])
    return job.round, job.table, game.scores, winners, game.deals_played, referee.faults


def run_tournament(
    levels: Sequence[str],
    *,
    format: str = "round-robin",
    rounds: int = 6,
    rules: Rules | None = None,
    deals: int | None = None,
    seed: int = 0,
    jobs: int = 1,
    ratings: Mapping[str, Rating] | None = None,
    progress: Callable[[int, int], None] | None = None,
    move_timeout: float = DEFAULT_TIMEOUT,
    scoring: str = "places",
) -> TournamentResult:
    """A tournament between the bots ``levels`` (a level may appear more than once: its
    entries are ``random 1``, ``random 2``): each table plays a whole game, or ``deals``
    deals; ``ratings`` by entry name are the ratings to start from (new otherwise).
    ``scoring="duplicate"``: every table of a round is dealt from the same seed.

    Round-robin tables are all played at once (in ``jobs`` processes), Swiss ones round by
    round; the result is the same for any ``jobs``.  ``progress(done, total)`` is called
    after each table."""
    rules = rules if rules is not None else Rules()
    k = rules.players
    if deals is not None and (isinstance(deals, bool) or deals < 1):
        raise TournamentError("bad_deals", n=deals)
    if len(levels) < k:
        raise TournamentError("bots", n=len(levels), k=k)
    for level in levels:
        check_level(level)
    names = labels_for(levels)
    level_of = dict(zip(names, levels, strict=True))
    t = Tournament(format, rounds, k, seed, scoring)
    for name in names:
        t.register(name)
    t.start()
    rj = rules.to_json()
    total = rounds * (len(names) // k)
    # a game cut short is not a game the site rates: the ladder's ratings are its own
    family = rating_family(rules) if deals is None else None
    result = TournamentResult(t, level_of, {}, family, rules, deals)
    faults: Counter[str] = Counter()
    start = time.perf_counter()

    def play(batch: list[Round]) -> None:
        work = [
            _TableJob(r.number, i, tuple(level_of[p] for p in table), table, rj,
                      game_seed(seed, r.number * 10_000 + (0 if t.duplicate else i)), deals,
                      move_timeout)
            for r in batch for i, table in enumerate(r.tables)
        ]
        for rnd, table, scores, winners, played, seat_faults in run_jobs(_play_table, work,
                                                                          jobs):
            t.record(rnd, table, scores, winners, played)
            result.deals += played
            result.tables += 1
            for name, f in zip(t.rounds[rnd - 1].tables[table], seat_faults, strict=True):
                faults[name] += f
            if progress is not None:
                progress(result.tables, total)

    if format == "round-robin":
        play([t.next_round() for _ in range(rounds)])
    else:
        for _ in range(rounds):
            play([t.next_round()])
    result.seconds = time.perf_counter() - start
    result.faults = dict(faults)
    result.ratings = rate_tournament(t, ratings)
    return result


def rate_tournament(t: Tournament,
                    ratings: Mapping[str, Rating] | None = None) -> dict[str, RatingChange]:
    """Every player's rating before and after the tournament's games, rated one after
    another round by round, table by table (from ``ratings``, new ones otherwise)."""
    start = {p: (ratings or {}).get(p, Rating()) for p in t.players}
    now = dict(start)
    for r in t.rounds:
        for i in sorted(r.results):
            res = r.results[i]
            changes = rate_game([now[p] for p in res.players], list(res.places))
            for p, ch in zip(res.players, changes, strict=True):
                now[p] = ch.after
    return {p: RatingChange(start[p], now[p]) for p in t.players}
