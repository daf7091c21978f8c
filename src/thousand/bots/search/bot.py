"""``strong`` and ``expert``: search bots that sample the hidden cards and solve each deal.

Every decision is taken the same way (docs/search-bots.md): draw deals consistent with what
the seat has seen (:mod:`thousand.bots.sampling`), play each of them out with the
double-dummy solver (:mod:`thousand.solver`, every hand open), and choose the move whose
average outcome is best (perfect-information Monte Carlo, PIMC).

* **Card play**: every legal card is valued in every sampled deal with
  :func:`~thousand.solver.Solver.solve_moves` (the declarer's final total after it);
  ``expert`` weights the deals by how well the others' last cards fit them
  (:mod:`thousand.bots.inference`).
* **Exchange**: the cards to give (or discard) are candidates ranked by the heuristic's
  ``keep_score``; each candidate is solved in the sampled deals, and the weaker half of the
  candidates is dropped after each round of deals (successive halving).
* **Contract, concede, redeal**: the declarer's totals over fresh samples give the chance of
  making each contract; the choice with the best expected deal value wins (a concede costs
  what :func:`thousand.engine.deal.concede_values` says; a dark deal is never conceded).
* **Talon buy-out** (``talon_buy``): the talon is public; in each sampled deal the seat takes
  it, gives the cards the heuristic ranks best and the deal is solved at the price and the
  raises its marriages allow; passing is valued by how often the declarer makes his
  contract in the same deals.  It buys when buying is worth more.
* **Bids and dark bids**: in each sampled deal (talon and hands) the declarer takes the
  talon, gives the cards the heuristic ranks best (the best of a few, solved) and the deal
  is solved: how often does the hand make each contract, and what does it score?  The bot
  bids while declaring is worth more than defending.
* **Talon choice** (two players, RULES §4 "Two players" 3): unseen talons are alike, so
  talon 1 unless the cut showed this seat a card of talon 2; then each talon is taken in
  every sampled deal, the best quick pair discarded and the deal solved, and the better
  talon is taken.  The two discards are searched as ``discard_three``'s three.

What a move is worth (the *utility*) is the seat's own deal value, less ``beta`` times the
mean deal value of its two opponents (``beta`` = 0.5: in a three-player game an opponent's
point costs about half as much as one's own point gains; with two players ``beta_two`` = 1
times the one opponent's, whose deal value as defender is all the defence's points, the
talon not chosen among them, as the engine scores it).  The solver's value is the
declarer's total, so for a defender the split of the defenders' points between him and his
partner is taken as even; a defender's own declarations are added to his side.  The declarer
counts a contract as made in a sampled deal only with ``margin`` points to spare: the solver
sees every card, a real declarer does not.

Budgets are per decision: a time limit with a cap on the samples (``min_samples`` are always
drawn).  The samples of a decision come from a random source seeded with the bot's seed and
the position, so with a fixed number of samples (``time_limit=None``) a decision is
reproducible.
"""

from __future__ import annotations

import math
import random
import time
import zlib
from collections.abc import Sequence
from dataclasses import dataclass, field
from itertools import combinations
from typing import TypeVar

from thousand.engine import moves as mv
from thousand.engine.cards import (
    ACE,
    KING,
    MARRIAGE_MASK,
    POINTS,
    QUEEN,
    SUIT_SYMBOLS,
    Mask,
    card_label,
    cards_of,
    marriage_sum,
    points_of,
)
from thousand.engine.deal import (
    Phase,
    contract_choices,
    declarer_value,
    next_bid,
    others_factor,
    recorded_change,
)
from thousand.engine.moves import Move
from thousand.engine.rules import Rules
from thousand.engine.view import View
from thousand.solver import PlayOptions, PlayPosition, Solver
from thousand.texts import count

from ..base import Reason, ReasoningBot
from ..evaluate import keep_score, predict_play
from ..heuristic import HeuristicBot, concede_cost, concede_possible
from ..inference import play_history, play_likelihood
from ..sampling import Knowledge, World, knowledge, with_talon


@dataclass(frozen=True)
class SearchConfig:
    """The budget and the judgement of a search bot (``strong`` and ``expert`` differ in the
    budget only, and in how many candidates they look at)."""

    #: seconds per decision (None: exactly ``max_samples`` samples, reproducible)
    time_limit: float | None = 0.3
    min_samples: int = 8
    max_samples: int = 80
    #: cards considered for the exchange (the lowest by the heuristic's keep_score)
    exchange_cards: int = 5
    #: drop the weaker half of the exchange candidates after each round of deals (off:
    #: every candidate on every deal, and every card of the hand a candidate with the
    #: pool's cards, as the analysis values each card, :mod:`thousand.bots.valuation`)
    exchange_halving: bool = True
    #: gives tried per sampled deal when valuing a bid
    bid_gives: int = 2
    #: the weight of the opponents' mean deal value against one's own
    beta: float = 0.5
    #: the same with two players, where the one opponent's point is as much a loss as
    #: one's own is a gain (RULES §4 "Two players": a race of two to 1000)
    beta_two: float = 1.0
    #: points to spare before a sampled deal counts as made, for the contract and the
    #: exchange (the solver's defenders see every card: against the heuristic bot the
    #: declarer's real total is some 10 points above the solver's, against search bots
    #: about the same)
    margin: int = 0
    #: more to spare for a contract raised above the bid (the best of many estimates
    #: is optimistic)
    raise_margin: int = 5
    #: the same in the auction, where the exchange is picked by a quick rule (measured:
    #: about 7 points below the exchange searched later, 17 below the real total against
    #: heuristic defenders; -15 bids more than -7 at the same strength against both the
    #: heuristic and the -7 bot, with fewer openers left alone with 100 in self-play)
    bid_margin: int = -15
    #: a defender's expected deal value, and a declarer's, for the value of passing
    defender_value: float = 34.0
    declarer_value: float = 40.0
    #: the defender's with two players (he takes all the defence's points and the talon
    #: not chosen: RULES §4 "Two players" 3)
    defender_value_two: float = 50.0
    #: the same for an opener left alone with his compulsory 100 (he fails three in four)
    stuck_opener_value: float = -40.0
    #: what winning the game is worth, in deal points, on top of the contract
    win_bonus: float = 250.0
    #: value passing from the sampled deals: how often the bidder in front would make
    #: his bid if this seat passed (else the fixed values above)
    model_pass: bool = False
    #: points to spare for the bidder in front in those deals (his exchange is picked by
    #: the quick rule, some 7 points below a searched one)
    other_margin: int = -7
    #: in card play, weight each sampled deal by how well the others' last
    #: ``inference_moves`` cards fit it (:mod:`thousand.bots.inference`): a card that
    #: cost ``loss`` points with all hands open weighs the deal by exp(-loss / this);
    #: 0 switches it off
    play_inference: float = 0.0
    inference_moves: int = 4
    #: value a bid as the contract it leads to: the sampled deals come in groups that
    #: share a talon (the declarer sees it before he names his contract), and in each
    #: group the bid is worth the contract, the bid or a raise above it, that does best
    #: over the group's deals (off: the bid itself, raised only on the barrel)
    raise_credit: bool = True
    #: sampled deals per talon in those groups
    talon_group: int = 4
    #: points to spare for such a raise in the auction's deals: the contract phase's own
    #: (``margin`` + ``raise_margin``, 5) less the 7 or so its searched exchange gains
    #: over the auction's quick one, so that the auction counts the raises the bot will
    #: name, not more
    bid_raise_margin: int = -2


STRONG = SearchConfig()
#: ``expert`` spends its bigger budget on more deals per decision and on reading the cards
#: the others played (:mod:`thousand.bots.inference`), not on wider candidate lists: the best
#: of more gives or exchanges, each valued with every card open, flatters a hand (measured:
#: with 7 exchange cards and 3 gives it was no better than ``strong``).
EXPERT = SearchConfig(
    time_limit=1.2, min_samples=16, max_samples=300, play_inference=10.0, inference_moves=6
)


def _pct(x: float) -> str:
    return f"{100 * x:.0f}%"


def _of(n: int) -> Reason:
    """ "of 271 sampled deals" / «из 271 пробного расклада», the count agreed."""
    return (f"of {count(n, ('sampled deal', 'sampled deals'), 'en')}",
            f"из {count(n, ('пробного расклада', 'пробных раскладов', 'пробных раскладов'))}")


def _points(x: float, lang: str, about: bool = False) -> str:
    """A number of points with its word agreed: «−22 очка», "−22 points"; ``about``: after
    «около», which takes the genitive («около 64 очков», «около 21 очка»)."""
    n = round(x)
    if lang != "ru":
        forms: tuple[str, ...] = ("point", "points")
    elif about:
        forms = ("очка", "очков", "очков")
    else:
        forms = ("очко", "очка", "очков")
    return count(n, forms, lang).replace("-", "−")


@dataclass
class _Budget:
    limit: float | None
    min_samples: int
    max_samples: int
    start: float = field(default_factory=time.perf_counter)

    def more(self, done: int, factor: float = 1.0) -> bool:
        if done < self.min_samples:
            return True
        if done >= self.max_samples:
            return False
        if self.limit is None:
            return True
        return time.perf_counter() - self.start < self.limit * factor

    def left(self) -> float:
        if self.limit is None:
            return math.inf
        return self.limit - (time.perf_counter() - self.start)


# ------------------------------------------------------------------ the solver's position


def position(view: View, world: World, options: PlayOptions | None = None) -> PlayPosition:
    """The solver's position of ``view``'s play phase in ``world`` (seat i = active[i]; two
    hands in the game for two, whose unchosen talon is out of the play)."""
    act = view.active
    idx = {s: i for i, s in enumerate(act)}
    d = view.declarer
    leader = view.trick[0][0] if view.trick else view.to_move
    discards = view.discards if view.discards is not None else world.discards
    return PlayPosition(
        hands=tuple(world.hands[s] for s in act),
        leader=idx[leader],
        trick=tuple(c for _, c in view.trick),
        trump=view.trump,
        trump_declarer=idx.get(view.trump_declarer, -1),
        tricks_played=len(view.tricks),
        declarer=idx[d],
        declarer_points=view.taken[d] + view.bonus[d] + points_of(discards),
        options=options if options is not None else PlayOptions.from_rules(view.rules),
        aces_in_row_seat=idx.get(view.aces_duty, -1),
        declared_suits=view.declared_suits,
    )


# ------------------------------------------------------------------------- deal values


@dataclass(frozen=True)
class _Stakes:
    """What a contract is worth to the declarer at the table's scores: the engine's deal
    value (:func:`thousand.engine.deal.declarer_value`) as the game records it
    (:func:`thousand.engine.deal.recorded_change`: the barrel), plus the bots' bonus for
    winning the game with it.  Cheap: the search asks it once per sampled deal."""

    rules: Rules
    dark: bool
    golden: bool
    score: int  # the declarer's score now
    on_barrel: bool
    #: whether the bonus for winning applies (no game info: a deal on its own, never won)
    in_game: bool
    win_bonus: float
    #: the defenders' deal values count this many times (2 in a golden deal, and in a dark
    #: one with ``dark_doubles=all``)
    others: int = 1
    #: the values worked out so far (the search asks the same figures in many deals)
    _made: dict[tuple[int, int, int], float] = field(
        default_factory=dict, init=False, repr=False, compare=False)
    _failed: dict[int, float] = field(default_factory=dict, init=False, repr=False,
                                      compare=False)

    @property
    def need(self) -> int:
        """On the barrel: the points that win; 0 otherwise."""
        return self.rules.score_to_win - self.score if self.on_barrel else 0

    def made(self, contract: int, total: int, bonus: int = 0) -> float:
        """A made ``contract`` with the declarer's ``total`` (of it ``bonus`` from his
        declarations: it counts only in a dark deal with ``dark_marriages_doubled=false``)."""
        key = (contract, total, bonus)
        out = self._made.get(key)
        if out is None:
            out = self._made[key] = self._utility(True, declarer_value(
                self.rules, contract, True, total, bonus, self.dark, self.golden))
        return out

    def failed(self, contract: int) -> float:
        out = self._failed.get(contract)
        if out is None:
            out = self._failed[contract] = self._utility(False, declarer_value(
                self.rules, contract, False, 0, 0, self.dark, self.golden))
        return out

    def wins(self, contract: int) -> bool:
        """Whether making ``contract`` (as many points as it) wins the game."""
        value = declarer_value(self.rules, contract, True, contract, 0, self.dark, self.golden)
        return self._won(self._change(True, value))

    def _change(self, made: bool, value: int) -> int:
        return recorded_change(self.rules, self.score, self.on_barrel, True, made, value)

    def _won(self, change: int) -> bool:
        return self.in_game and change > 0 and self.rules.wins(self.score + change)

    def _utility(self, made: bool, value: int) -> float:
        """What the game records of a deal value, with the bonus when that wins."""
        change = self._change(made, value)
        return change + self.win_bonus if self._won(change) else float(change)


def stakes(view: View, seat: int, win_bonus: float, dark: bool | None = None) -> _Stakes:
    """:class:`_Stakes` of ``seat`` as declarer of ``view``'s deal (``dark``: as if the deal
    were, or were not, dark)."""
    r = view.rules
    dark = view.dark if dark is None else dark
    g = view.game
    return _Stakes(
        r, dark, view.golden, g.scores[seat] if g is not None else 0,
        g is not None and g.on_barrel[seat], g is not None, win_bonus,
        others_factor(r, dark, view.golden),
    )


@dataclass
class Samples:
    """What a phase's search found: each candidate move's utility in every sampled deal
    (index i is the same deal for every move), one weight per deal, and (in the play) the
    declarer's solved totals behind them.  The bot chooses the highest weighted sum;
    :func:`thousand.bots.valuation.valuate` reports them all."""

    utils: dict[Move, list[float]]
    weights: list[float]
    totals: dict[Move, list[int]] = field(default_factory=dict)
    #: the moves, the bot's choice first among equally good ones (its tie-break)
    order: list[Move] = field(default_factory=list)
    #: the declarer's total in each sampled deal (contract and redeal offer)
    declarer_totals: list[int] = field(default_factory=list)


#: what :func:`first_best` chooses among: moves, or contract numbers (-1 a concede)
_K = TypeVar("_K")


def first_best(order: Sequence[_K], value: dict[_K, float], tol: float = 1e-9) -> _K:
    """The first move of ``order`` whose value is within ``tol`` of the highest: the bot's
    choice and the analysis' best move (:mod:`thousand.bots.valuation`), ``order`` putting
    the preferred of equally good moves first."""
    top = max(value[m] for m in order)
    return next(m for m in order if value[m] >= top - tol)


#: an exchange: the (card, seat) gives and the discarded cards
_Cand = tuple[tuple[tuple[int, int], ...], Mask]


def _rest(hand: Mask, cand: _Cand) -> Mask:
    """The hand kept after the exchange ``cand``."""
    give, disc = cand
    rest = hand & ~disc
    for c, _ in give:
        rest &= ~(1 << c)
    return rest


@dataclass
class _Bids:
    """What the auction's search drew: the declarer's totals and kept hands in each
    sampled deal, their talon groups (None: the bid valued as itself), the lowest bid's
    make chance and the ladder of bids valued for the reason."""

    totals: list[int]
    hands: list[Mask]
    groups: list[int] | None
    p_low: float
    ladder: list[int]


@dataclass
class _ExchangeFound:
    """The exchange search's result: the candidates, the hands they keep, their solved
    totals, the survivors (best-first after halving) with their utility per deal."""

    cands: list[_Cand]
    rests: list[Mask]
    totals: list[list[int]]
    alive: list[int]
    utils: dict[int, list[float]]
    n: int
    stakes: _Stakes
    may_concede: bool


# ------------------------------------------------------------------------------ the bot


class SearchBot(ReasoningBot):
    """The search bot (module docstring); ``strong`` and ``expert`` are two configs."""

    def __init__(
        self, seed: int | None = None, config: SearchConfig = STRONG, name: str = "strong",
        native: bool | None = None,
    ) -> None:
        self.seed = seed if seed is not None else random.SystemRandom().randrange(1 << 30)
        self.config = config
        self.name = name
        self.solver = Solver(native=native)
        self.fallback = HeuristicBot(self.seed)
        self._opts: tuple[object, PlayOptions] | None = None
        #: the last decision's figures (for tests and benchmarks)
        self.last_samples = 0

    # ------------------------------------------------------------------ interface

    def decide(self, view: View) -> tuple[Move, Reason]:
        self.last_samples = 0
        return super().decide(view)

    def decide_among(self, view: View) -> tuple[Move, Reason]:
        legal = view.legal
        rng, budget = self.search_start(view)
        phase = view.phase
        if phase == Phase.PLAY:
            out = self._play(view, rng, budget)
        elif phase == Phase.AUCTION:
            out = self._auction(view, rng, budget)
        elif phase == Phase.EXCHANGE:
            out = self._exchange(view, rng, budget)
        elif phase == Phase.CONTRACT:
            out = self._contract(view, rng, budget)
        elif phase == Phase.DARK_CHOICE:
            out = self._dark(view, rng, budget)
        elif phase == Phase.REDEAL_OFFER:
            out = self._redeal_offer(view, rng, budget)
        elif phase == Phase.BUY:
            out = self._buy(view, rng, budget)
        elif phase == Phase.TALON_CHOICE:
            out = self._talon_choice(view, rng, budget)
        else:
            out = None
        if out is None or out[0] not in legal:
            move, why = self.fallback.decide(view)
            return move, why
        return out

    def search_start(self, view: View) -> tuple[random.Random, _Budget]:
        """The decision's random source (seeded by the bot's seed and the position) and
        budget: with a fixed sample count the same view gets the same deals."""
        rng = random.Random(self._decision_seed(view))
        budget = _Budget(self.config.time_limit, self.config.min_samples,
                         self.config.max_samples)
        return rng, budget

    def _decision_seed(self, view: View) -> int:
        key = f"{self.seed}|{view.seat}|{view.hand}|{view.dealer}|{','.join(view.history)}"
        if view.game is not None:
            key += f"|{view.game.deal_number}|{view.game.scores}"
        return zlib.crc32(key.encode())

    def beta(self, view: View) -> float:
        """The weight of the opponents' mean deal value (``beta``, or ``beta_two`` with
        two players)."""
        return self.config.beta_two if view.players == 2 else self.config.beta

    def options(self, view: View) -> PlayOptions:
        if self._opts is None or self._opts[0] is not view.rules:
            self._opts = (view.rules, PlayOptions.from_rules(view.rules))
        return self._opts[1]

    # ----------------------------------------------------------------------- play

    def _play(self, view: View, rng: random.Random, budget: _Budget) -> tuple[Move, Reason]:
        legal = list(view.legal)
        s = self._play_samples(view, rng, budget)
        if not any(s.totals.values()):
            return self.fallback.decide(view)
        util = {m: sum(w * u for w, u in zip(s.weights, s.utils[m], strict=True))
                for m in legal}
        best = first_best(s.order, util)
        solved = len(s.totals[best])
        return best, self._play_reason(view, best, legal, util, s.totals, s.weights, solved,
                                       view.seat == view.declarer, 0)

    def _play_samples(self, view: View, rng: random.Random, budget: _Budget) -> Samples:
        """Every legal card's utility in each sampled deal solved (the deals too unlikely
        by the inference weights are drawn but not solved): the choice is their weighted
        sum, and :mod:`thousand.bots.valuation` reads them as they are."""
        me = view.seat
        assert me is not None
        legal = list(view.legal)
        d = view.declarer
        declarer = me == d
        know = knowledge(view)
        opts = self.options(view)
        st = stakes(view, d, self.config.win_bonus)
        contract = view.contract
        beta = self.beta(view)
        n_def = len(view.active) - 1  # the defenders share their points evenly
        margin = 0  # in the play the solver's total is taken as it is
        totals: dict[Move, list[int]] = {m: [] for m in legal}
        utils: dict[Move, list[float]] = {m: [] for m in legal}
        own_bonus = {m: 0.0 for m in legal}
        others = st.others  # the defenders' values doubled (golden; dark with dark_doubles=all)
        bonus = view.bonus[d]  # the declarer's declarations so far (dark_marriages_doubled)
        if not declarer:
            for m in legal:
                if mv.is_declare(m):
                    own_bonus[m] = float(_declaration_value(view, m))
        tau = self.config.play_inference
        history = play_history(view) if tau > 0 else []
        weights: list[float] = []  # of the deals solved, in order
        n = 0
        while budget.more(n):
            w = know.sample(rng)
            if w is None:
                break
            n += 1
            weight = 1.0
            if history:
                weight = play_likelihood(self.solver, view, w, history, opts, tau,
                                         self.config.inference_moves)
                if weight < 0.01:
                    continue  # too unlikely to be worth solving
            pos = position(view, w, opts)
            values = self.solver.solve_moves(pos)
            if any(values.get(m) is None for m in legal):  # pragma: no cover - they agree
                continue
            weights.append(weight)
            for m in legal:
                v = values[m]
                totals[m].append(v)
                made = v >= contract + margin
                dv = st.made(contract, v, bonus) if made else st.failed(contract)
                utils[m].append(_play_utility(declarer, dv, v, others * own_bonus[m], others,
                                              beta, n_def))
        self.last_samples = n
        return Samples(utils, weights, totals, sorted(legal, key=_card_cost))

    def _play_reason(
        self, view: View, best: Move, legal: Sequence[Move], util: dict[Move, float],
        totals: dict[Move, list[int]], weights: Sequence[float], n: int, declarer: bool,
        margin: int,
    ) -> Reason:
        """The figures behind the choice, each deal weighted as in the choice."""
        c = view.contract

        def made_share(vals: Sequence[int]) -> float:
            return _weighted_mean([float(v >= c + margin) for v in vals], weights)

        made = made_share(totals[best])
        mean = _weighted_mean([float(v) for v in totals[best]], weights)
        others = [m for m in legal if m != best]
        alt = max(others, key=lambda m: util[m]) if others else None
        of_en, of_ru = _of(n)
        if declarer:
            en = (f"the contract {c} is made in {_pct(made)} {of_en} "
                  f"(about {_points(mean, 'en')})")
            ru = (f"заказ {c} играется в {_pct(made)} {of_ru} "
                  f"(около {_points(mean, 'ru', about=True)})")
        else:
            only_en, only_ru = ("only ", "лишь ") if made < 0.5 else ("", "")
            en = (f"the declarer makes {c} in {only_en}{_pct(made)} {of_en} "
                  f"(he takes about {_points(mean, 'en')})")
            ru = (f"разыгрывающий добирает {c} {only_ru}в {_pct(made)} {of_ru} "
                  f"(берёт около {_points(mean, 'ru', about=True)})")
        if alt is not None:
            amade = made_share(totals[alt])
            share = amade
            en += f"; the next best, {_move_words(alt, 'en')}: {_pct(share)}"
            ru += f"; следующий по силе ход, {_move_words(alt, 'ru')}: {_pct(share)}"
        return en, ru

    # ------------------------------------------------------------ the declarer's hand

    def _floor(self, pos: PlayPosition, thresholds: Sequence[int]) -> int:
        """The highest of ``thresholds`` (ascending) the declarer reaches with best play,
        by threshold searches (much cheaper than the exact total); below the lowest, 20
        points under it."""
        out = thresholds[0] - 20
        for t in thresholds:
            if not self.solver.makes(pos, t):
                break
            out = t
        return out

    def _thresholds(self, view: View, hand: Mask, bid: int) -> list[int]:
        """The totals that decide a contract choice: each contract the hand may name,
        with its margin."""
        r = view.rules
        cap = r.bid_cap + marriage_sum(hand, r.marriage_values)
        cfg = self.config
        out = {bid + cfg.margin}
        for c in contract_choices(r, bid, cap)[1:]:
            out.add(c + cfg.margin + cfg.raise_margin)
        return sorted(out)

    def _hand_totals(
        self, view: View, worlds: Sequence[World], give: Sequence[tuple[int, int]],
        discard: Mask, opts: PlayOptions, thresholds: Sequence[int],
    ) -> list[int]:
        """Solve each world from the first lead after the declarer gave ``give``
        ((card, seat) pairs) and discarded ``discard`` (the worlds hold the hands before),
        up to ``thresholds`` (see :meth:`_floor`)."""
        d = view.declarer if view.declarer >= 0 else view.seat
        assert d is not None
        return [self._hand_totals_for(view, w, d, give, discard, opts, thresholds)
                for w in worlds]

    def _contract_need(self, c: int, bid: int) -> int:
        """The declarer's total that counts contract ``c`` as made in a sampled deal."""
        return c + self.config.margin + (self.config.raise_margin if c > bid else 0)

    def _contract_samples(
        self, view: View, totals: Sequence[int], hand: Mask, bid: int, concede: bool,
        st: _Stakes, contracts: Sequence[int] | None = None,
    ) -> dict[int, list[float]]:
        """Each contract's utility in every sampled deal (``totals``: the declarer's total
        in each), and the concede's (key -1, the same in every deal: the engine's concede
        payment, :func:`thousand.engine.deal.concede_values`, doubled in a golden deal, with the
        concede penalty where this concede incurs it)."""
        r = view.rules
        beta = self.beta(view)
        n_def = len(view.active) - 1
        if contracts is None:
            cap = r.bid_cap + marriage_sum(hand, r.marriage_values)
            contracts = contract_choices(r, bid, cap)
        m_hand = marriage_sum(hand, r.marriage_values)
        opp = [beta * st.others * max(0, 120 + m_hand - v) / n_def for v in totals]
        out: dict[int, list[float]] = {}
        for c in contracts:
            need = self._contract_need(c, bid)
            out[c] = [(st.made(c, v, m_hand) if v >= need else st.failed(c)) - o
                      for v, o in zip(totals, opp, strict=True)]
        if concede:
            seat = view.declarer if view.declarer >= 0 else view.seat
            assert seat is not None
            loss, pay = concede_cost(view, seat, bid, hand)
            out[-1] = [-loss - beta * pay] * len(totals)
        return out

    def _contract_choice(
        self, view: View, totals: Sequence[int], hand: Mask, bid: int, concede: bool,
        st: _Stakes,
    ) -> tuple[float, int, float]:
        """(utility, contract or -1 for a concede, make chance) of the best choice: the
        lowest of equally good contracts, a concede only when it is worth more."""
        samples = self._contract_samples(view, totals, hand, bid, concede, st)
        n = max(1, len(totals))
        means = {c: sum(u) / n for c, u in samples.items()}
        c = first_best(list(samples), means)
        need = self._contract_need(bid if c < 0 else c, bid)
        return means[c], c, sum(1 for v in totals if v >= need) / n

    # ------------------------------------------------------------------- exchange

    def _exchange_cands(self, view: View) -> list[_Cand]:
        """The exchanges to try: every way of giving (or discarding) the cards still to
        go from the ``exchange_cards`` the heuristic's ``keep_score`` values least; without
        halving, also each other card with those (so that every card has a value)."""
        assert view.hand is not None and view.seat is not None
        r = view.rules
        hand = view.hand
        discard_mode = _discards_due(view)
        act = view.active
        i = act.index(view.seat)
        first, second = act[(i + 1) % len(act)], act[(i + 2) % len(act)]
        if discard_mode:
            done = view.discards.bit_count() if view.discards is not None else 0
            k = _n_discards(view) - done
        else:
            k = 2 - len(view.given)
        ranked = sorted(cards_of(hand),
                        key=lambda c: keep_score(hand, c, r.marriage_values, r.ten_strength))
        pool = ranked[: max(k, min(len(ranked), self.config.exchange_cards))]
        combos = list(combinations(pool, k))
        if not self.config.exchange_halving:
            rest = ranked[len(pool):]
            combos += [(x, *more) for x in rest for more in combinations(pool, k - 1)]
        cands: list[_Cand] = []
        for combo in combos:
            if discard_mode:
                m = 0
                for c in combo:
                    m |= 1 << c
                cands.append(((), m))
            elif k == 2:
                cands.append((((combo[0], first), (combo[1], second)), 0))
                cands.append((((combo[1], first), (combo[0], second)), 0))
            else:
                cands.append((((combo[0], second),), 0))
        return cands

    def _exchange_search(
        self, view: View, rng: random.Random, budget: _Budget
    ) -> _ExchangeFound:
        """The exchange candidates solved in the sampled deals (successive halving unless
        ``exchange_halving`` is off), with each survivor's utility per deal."""
        assert view.hand is not None and view.seat is not None
        me = view.seat
        hand = view.hand
        opts = self.options(view)
        cands = self._exchange_cands(view)
        know = knowledge(view)
        st = stakes(view, me, self.config.win_bonus)
        # (decided later, in the contract phase; never in a dark deal)
        may_concede = concede_possible(view, me)
        alive = list(range(len(cands)))
        totals: list[list[int]] = [[] for _ in cands]
        rests = [_rest(hand, cand) for cand in cands]
        thr = [self._thresholds(view, rest, view.bid) for rest in rests]
        halving = self.config.exchange_halving
        worlds: list[World] = []
        batch = 4
        solves = 0
        t0 = time.perf_counter()
        while True:
            if solves and budget.limit is not None:
                # no more worlds than the time left allows for every candidate alive
                per = (time.perf_counter() - t0) / solves
                batch = min(batch, int(budget.left() / max(per * len(alive), 1e-6)))
                if batch < 1:
                    break
            new: list[World] = []
            for _ in range(batch):
                if not budget.more(len(worlds) + len(new)) and worlds:
                    break
                w = know.sample(rng)
                if w is None:
                    break
                new.append(w)
            if not new:
                break
            for k, w in enumerate(new):
                if k and budget.left() < 0:
                    # out of time within the batch (a slow solve: the first batch is
                    # sized before any solve was timed): the worlds solved so far
                    new = new[:k]
                    break
                for ci in alive:
                    give, disc = cands[ci]
                    totals[ci].extend(self._hand_totals(view, [w], give, disc, opts, thr[ci]))
            worlds.extend(new)
            solves += len(new) * len(alive)
            if halving and len(alive) > 1 and len(worlds) >= 8:
                scores = {ci: self._contract_choice(
                    view, totals[ci], rests[ci], view.bid, may_concede, st)[0]
                    for ci in alive}
                alive.sort(key=lambda ci: -scores[ci])
                alive = alive[: max(1, (len(alive) + 1) // 2)]
            batch = min(2 * batch, 32)
            if len(alive) == 1 and not budget.more(len(worlds)):
                break
            if len(alive) == 1 and len(worlds) >= self.config.min_samples * 2:
                break
        utils: dict[int, list[float]] = {}
        for ci in alive:
            by_c = self._contract_samples(view, totals[ci], rests[ci], view.bid, may_concede,
                                          st)
            n = max(1, len(totals[ci]))
            means = {c: sum(u) / n for c, u in by_c.items()}
            utils[ci] = by_c[first_best(list(by_c), means)]
        return _ExchangeFound(cands, rests, totals, alive, utils, len(worlds), st,
                              may_concede)

    def _exchange_phase(self, view: View, rng: random.Random, budget: _Budget) -> Samples:
        """Each give (or discard) move's utility per sampled deal: that of the best
        exchange found that gives this card first (discards: that holds it), on the same
        deals; a weak talon's redeal is worth nothing (0)."""
        return self._exchange_samples(view, self._exchange_search(view, rng, budget))

    def _exchange_samples(self, view: View, f: _ExchangeFound) -> Samples:
        assert view.hand is not None
        r = view.rules
        discard_mode = _discards_due(view)
        n = f.n
        mean = {ci: sum(u) / max(1, n) for ci, u in f.utils.items()}
        best_of: dict[int, int] = {}  # card -> the alive candidate that values it
        for ci in f.alive:
            give, disc = f.cands[ci]
            for c in (cards_of(disc) if discard_mode else [give[0][0]]):
                if c not in best_of or mean[ci] > mean[best_of[c]]:
                    best_of[c] = ci
        rank = {ci: j for j, ci in enumerate(f.alive)}
        hand = view.hand

        def pref(c: int) -> tuple[int, float, int]:
            return (rank[best_of[c]], keep_score(hand, c, r.marriage_values, r.ten_strength), -c)

        word = mv.discard if discard_mode else mv.give
        order = [word(c) for c in sorted(best_of, key=pref)]
        utils = {word(c): f.utils[best_of[c]] for c in best_of}
        if mv.REDEAL in view.legal:
            utils[mv.REDEAL] = [0.0] * n
            order.append(mv.REDEAL)
        return Samples(utils, [1.0] * n, order=order)

    def _exchange(self, view: View, rng: random.Random, budget: _Budget) -> tuple[Move, Reason]:
        f = self._exchange_search(view, rng, budget)
        self.last_samples = f.n
        if not f.n:
            return self.fallback.decide(view)
        s = self._exchange_samples(view, f)
        move = first_best(s.order, {m: sum(u) / f.n for m, u in s.utils.items()})
        best = max(f.alive, key=lambda ci: sum(f.utils[ci]))
        u, c_best, p = self._contract_choice(view, f.totals[best], f.rests[best], view.bid,
                                             f.may_concede, f.stakes)
        target = view.bid if c_best < 0 else c_best
        of_en, of_ru = _of(f.n)
        if move == mv.REDEAL:
            return mv.REDEAL, (
                f"a weak talon: even after the best exchange the deal is worth "
                f"{_points(u, 'en')} on average ({target} is made in {_pct(p)} {of_en})",
                f"слабый прикуп: даже после лучшего сноса раздача в среднем даёт "
                f"{_points(u, 'ru')} ({target} играется в {_pct(p)} {of_ru})",
            )
        plan = _discard_plan(view, move, f.cands[best][1])
        return move, (
            f"{plan[0]}the hand left makes {target} in {_pct(p)} {of_en}",
            f"{plan[1]}с оставшимися картами {target} играется в {_pct(p)} {of_ru}",
        )

    # ---------------------------------------------------------------- talon choice

    def _talon_search(
        self, view: View, rng: random.Random, budget: _Budget
    ) -> tuple[Samples, float, float] | None:
        """Two players (RULES §4 "Two players" 3): each talon's utility per sampled deal
        (the declarer takes it, discards the best of the quick pairs, solved, and declares
        his bid as the auction values it), with the bid's make chance for each.  None when
        nothing tells the talons apart (no card of either seen at the cut): they are then
        alike, and sampling would only pick one by its noise."""
        me = view.seat
        assert me is not None and view.hand is not None
        if not view.talon_known:
            return None
        r = view.rules
        bid = view.bid
        know = knowledge(view)
        opts = self.options(view)
        st = stakes(view, me, self.config.win_bonus)
        cap = r.bid_cap + marriage_sum(view.hand | view.talon_known, r.marriage_values)
        thr = sorted({c + self.config.bid_margin for c in _bid_levels(view, bid, cap)})
        totals: tuple[list[int], list[int]] = ([], [])
        hands: tuple[list[Mask], list[Mask]] = ([], [])
        while budget.more(len(totals[0])):
            w = know.sample(rng)
            if w is None:
                break
            for k in (0, 1):
                best, kept = self._best_exchange(view, w, me, opts, thr, talon=k)
                totals[k].append(best)
                hands[k].append(kept)
        n = len(totals[0])
        self.last_samples = n
        if not n:
            return None
        (u1, p1), (u2, p2) = (self._bid_samples(view, totals[k], hands[k], bid, st)
                              for k in (0, 1))
        order = list(mv.TALONS)
        if _quick_talon(view, me, view.hand):
            order.reverse()
        return Samples({mv.TALON_1: u1, mv.TALON_2: u2}, [1.0] * n, order=order), p1, p2

    def _talon_phase(self, view: View, rng: random.Random, budget: _Budget) -> Samples:
        """:meth:`_talon_search`'s utilities (both talons alike: no sampled deal)."""
        found = self._talon_search(view, rng, budget)
        return found[0] if found is not None else _constant(list(mv.TALONS))

    def _talon_choice(
        self, view: View, rng: random.Random, budget: _Budget
    ) -> tuple[Move, Reason]:
        """``talon 1`` or ``talon 2``, chosen unseen: the better of the two over sampled
        deals when the cut showed this seat a card of talon 2, else talon 1."""
        found = self._talon_search(view, rng, budget)
        if found is None:
            return mv.TALON_1, (
                "nothing tells the two talons apart: both are unseen",
                "прикупы ничем не различаются: оба не видны",
            )
        s, p1, p2 = found
        n = len(s.weights)
        means = {m: sum(u) / n for m, u in s.utils.items()}
        move = first_best(s.order, means)
        worth = (means[mv.TALON_1], means[mv.TALON_2])
        return move, _talon_reason(view, move == mv.TALON_2, (p1, p2), worth, n)

    # ------------------------------------------------------------------- contract

    def _declarer_worlds_totals(
        self, view: View, rng: random.Random, budget: _Budget
    ) -> tuple[list[int], int]:
        know = knowledge(view)
        opts = self.options(view)
        assert view.hand is not None
        bid = view.bid if view.phase == Phase.CONTRACT else view.contract
        thr = self._thresholds(view, view.hand, bid)
        worlds: list[World] = []
        totals: list[int] = []
        while budget.more(len(worlds)):
            w = know.sample(rng)
            if w is None:
                break
            worlds.append(w)
            totals.extend(self._hand_totals(view, [w], (), 0, opts, thr))
        return totals, len(worlds)

    def _contract_phase(self, view: View, rng: random.Random, budget: _Budget) -> Samples:
        """Every legal contract's (and the concede's) utility in each sampled deal."""
        assert view.hand is not None
        totals, n = self._declarer_worlds_totals(view, rng, budget)
        self.last_samples = n
        st = stakes(view, view.declarer, self.config.win_bonus)
        concede = mv.CONCEDE in view.legal
        contracts = [mv.value_of(m) for m in view.legal if m != mv.CONCEDE]
        by_c = self._contract_samples(view, totals, view.hand, view.bid, concede, st,
                                      contracts)
        utils = {mv.CONCEDE if c < 0 else mv.contract(c): u for c, u in by_c.items()}
        return Samples(utils, [1.0] * len(totals), order=list(utils),
                       declarer_totals=list(totals))

    def _contract(self, view: View, rng: random.Random, budget: _Budget) -> tuple[Move, Reason]:
        s = self._contract_phase(view, rng, budget)
        totals = s.declarer_totals
        n = len(totals)
        if not totals:
            return self.fallback.decide(view)
        move = first_best(s.order, {m: sum(u) / n for m, u in s.utils.items()})
        c = view.bid if move == mv.CONCEDE else mv.value_of(move)
        need = self._contract_need(c, view.bid)
        p = sum(1 for v in totals if v >= need) / n
        if move == mv.CONCEDE:
            return mv.CONCEDE, (
                f"{view.bid} is made in only {_pct(p)} {_of(n)[0]}: conceding costs less",
                f"{view.bid} играется лишь в {_pct(p)} {_of(n)[1]}: "
                "расписаться дешевле",
            )
        return move, (
            f"made in {_pct(p)} {_of(n)[0]}",
            f"играется в {_pct(p)} {_of(n)[1]}",
        )

    def _redeal_phase(self, view: View, rng: random.Random, budget: _Budget) -> Samples:
        """The declarer's offer of a redeal (RULES: the opponents may ask for one): playing
        is worth his contract's value in each sampled deal, a redeal nothing (0).  A
        defender is not valued (no sampled deal: both moves equal, the redeal first, as
        the bot always takes it: it takes the contract away from the declarer)."""
        if view.seat != view.declarer:
            return Samples({mv.REDEAL: [], mv.PASS: []}, [], order=[mv.REDEAL, mv.PASS])
        assert view.hand is not None
        totals, n = self._declarer_worlds_totals(view, rng, budget)
        self.last_samples = n
        st = stakes(view, view.declarer, self.config.win_bonus)
        c = view.contract
        need = c + self.config.margin
        own = [st.made(c, v) if v >= need else st.failed(c) for v in totals]
        return Samples({mv.PASS: own, mv.REDEAL: [0.0] * n}, [1.0] * n,
                       order=[mv.PASS, mv.REDEAL], declarer_totals=totals)

    def _redeal_offer(
        self, view: View, rng: random.Random, budget: _Budget
    ) -> tuple[Move, Reason]:
        if view.seat != view.declarer:
            return mv.REDEAL, ("a redeal takes the contract away from the declarer",
                               "пересдача лишает разыгрывающего заказа")
        s = self._redeal_phase(view, rng, budget)
        n = len(s.weights)
        c = view.contract
        p = sum(1 for v in s.declarer_totals if v >= c + self.config.margin) / max(1, n)
        move = first_best(s.order, {m: sum(u) / max(1, n) for m, u in s.utils.items()})
        if move == mv.REDEAL:
            return mv.REDEAL, (f"{c} is made in only {_pct(p)} {_of(n)[0]}",
                               f"{c} играется лишь в {_pct(p)} {_of(n)[1]}")
        return mv.PASS, (f"{c} is made in {_pct(p)} {_of(n)[0]}",
                         f"{c} играется в {_pct(p)} {_of(n)[1]}")

    # -------------------------------------------------------------------- auction

    def _bid_totals(
        self, view: View, rng: random.Random, budget: _Budget, bids: Sequence[int],
        factor: float = 1.0, other: list[bool] | None = None,
        groups: list[int] | None = None,
    ) -> tuple[list[int], list[Mask]]:
        """The declarer's totals over sampled talons and hands when this seat declares
        (its hand in each world too: it is sampled before a dark bid).  With ``groups``
        (a list to fill: each deal's talon group) the deals come ``talon_group`` to a
        talon and are solved up to the raises too (:meth:`_raise_thresholds`)."""
        me = view.seat
        assert me is not None
        know = knowledge(view)
        opts = self.options(view)
        totals: list[int] = []
        hands: list[Mask] = []
        thr = sorted({b + self.config.bid_margin for b in bids})
        same_talon: Knowledge | None = None
        while budget.more(len(totals), factor):
            if groups is None or len(totals) % self.config.talon_group == 0:
                w = know.sample(rng)
                if w is not None and groups is not None:
                    same_talon = with_talon(know, w)
            else:
                assert same_talon is not None
                w = same_talon.sample(rng)
            if w is None:
                break
            world_thr = thr
            if groups is not None:
                world_thr = sorted({*thr, *self._raise_thresholds(view, w, min(bids))})
                groups.append(len(totals) // self.config.talon_group)
            best, best_hand = self._best_exchange(view, w, me, opts, world_thr)
            totals.append(best)
            hands.append(best_hand)
            if other is not None:
                other.append(self._other_makes(view, w, opts))
        return totals, hands

    def _raise_ladder(self, view: View, low: int, cap: int) -> list[int]:
        """The contracts a raise after a bid from ``low`` is valued at: those of the ladder
        above ``low`` up to ``cap`` on every second step (multiples of twice the bid step,
        the same for every bid: a contract between two of them is valued at the lower, a
        few points lost for half the threshold searches)."""
        step = 2 * view.rules.bid_step
        return [c for c in contract_choices(view.rules, low, max(low, cap))[1:]
                if c % step == 0]

    def _raise_thresholds(self, view: View, w: World, low: int) -> list[int]:
        """The totals that decide a raise in sampled deal ``w``: each contract of
        :meth:`_raise_ladder` up to the cap of the declarer's ten cards, with the margin
        of a raise in the auction (``bid_raise_margin``)."""
        me = view.seat
        assert me is not None
        r = view.rules
        cap = r.bid_cap + marriage_sum(w.hands[me] | w.talon, r.marriage_values)
        return [c + self.config.bid_raise_margin for c in self._raise_ladder(view, low, cap)]

    def _quick_exchanges(
        self, view: View, w: World, d: int, k: int, talon: int | None = None
    ) -> tuple[World, list[tuple[int, ...]]]:
        """``w`` with the talon in ``d``'s hand (two players: talon ``talon``, by default
        the one the quick rule takes), and the ``k`` exchanges (the cards that leave the
        hand) the quick rule ranks best among the 5 cards ``keep_score`` values least."""
        values = view.rules.marriage_values
        ts = view.rules.ten_strength
        discard_mode = _discards_due(view)
        if not w.talons:
            talon = -1
        elif talon is None:
            talon = _quick_talon(view, d, w.hands[d])
        world = _taken(w, d, talon)
        hand10 = world.hands[d]
        low = sorted(cards_of(hand10), key=lambda c: keep_score(hand10, c, values, ts))[:5]
        cands: list[tuple[float, tuple[int, ...]]] = []
        for combo in combinations(low, _n_discards(view) if discard_mode else 2):
            rest = hand10
            for c in combo:
                rest &= ~(1 << c)
            cands.append((_quick_value(rest, values, discard_mode, combo, ts), combo))
        cands.sort(reverse=True)
        return world, [combo for _, combo in cands[:k]]

    def _best_exchange(
        self, view: View, w: World, me: int, opts: PlayOptions, thr: list[int],
        talon: int | None = None,
    ) -> tuple[int, Mask]:
        """The best of the quick exchanges of ``me`` holding the talon (two players: talon
        ``talon``, as :meth:`_quick_exchanges`) in sampled deal ``w``: its solved total (a
        threshold search over ``thr``) and the hand it keeps."""
        world, combos = self._quick_exchanges(view, w, me, self.config.bid_gives, talon)
        best = -1
        best_hand = world.hands[me]
        for combo in combos:
            v = self._solve_exchange(view, world, me, combo, opts, thr)
            if v > best:
                best = v
                best_hand = world.hands[me]
                for c in combo:
                    best_hand &= ~(1 << c)
        return best, best_hand

    def _solve_exchange(
        self, view: View, world: World, d: int, combo: tuple[int, ...], opts: PlayOptions,
        thresholds: Sequence[int],
    ) -> int:
        """:meth:`_hand_totals_for` after ``d`` discards ``combo`` (``discard_three``, two
        players) or gives its cards to the next seat and the one after, in that order."""
        if _discards_due(view):
            disc = 0
            for c in combo:
                disc |= 1 << c
            return self._hand_totals_for(view, world, d, (), disc, opts, thresholds)
        act = view.active
        i = act.index(d)
        give = ((combo[0], act[(i + 1) % 3]), (combo[1], act[(i + 2) % 3]))
        return self._hand_totals_for(view, world, d, give, 0, opts, thresholds)

    def _other_makes(
        self, view: View, w: World, opts: PlayOptions, seat: int | None = None,
        contract: int | None = None,
    ) -> bool:
        """Whether the bidder in front (or ``seat``) makes his bid (or ``contract``) in
        ``w`` when this seat passes (he gives the cards the heuristic model would)."""
        hb = view.high_bidder if seat is None else seat
        c = view.high_bid if contract is None else contract
        world, combos = self._quick_exchanges(view, w, hb, 1)
        t = [c + self.config.other_margin]
        return self._solve_exchange(view, world, hb, combos[0], opts, t) >= t[0]

    def _hand_totals_for(
        self, view: View, w: World, d: int, give: Sequence[tuple[int, int]], discard: Mask,
        opts: PlayOptions, thresholds: Sequence[int],
    ) -> int:
        """:meth:`_hand_totals` of one world ``w`` with ``d`` declaring."""
        act = view.active
        idx = {s: i for i, s in enumerate(act)}
        hands = list(w.hands)
        for c, to in give:
            hands[d] &= ~(1 << c)
            hands[to] |= 1 << c
        hands[d] &= ~discard
        pos = PlayPosition(
            hands=_open_hands(act, hands),
            leader=idx[d], declarer=idx[d], declarer_points=points_of(discard | w.discards),
            options=opts,
        )
        return self._floor(pos, thresholds)

    def _pass_utility(self, view: View, p_other: float | None = None) -> float:
        """What passing is worth: a defender's mean deal value, less half of what the
        others score (the bidder in front: his bid at ``p_other``, the chance that he
        makes it, when it was estimated)."""
        cfg = self.config
        decl = cfg.declarer_value
        if p_other is not None:
            st = stakes(view, view.high_bidder, cfg.win_bonus)
            decl = p_other * st.made(view.high_bid, view.high_bid) + (1 - p_other) * st.failed(
                view.high_bid)
        elif _stuck_opener(view):
            decl = cfg.stuck_opener_value
        u = self._defending(view, decl)
        # Someone about to win the game with the bid he holds: passing lets him.
        hb = view.high_bidder
        if hb >= 0 and hb != view.seat and stakes(view, hb, cfg.win_bonus).wins(view.high_bid):
            u -= self.beta(view) * cfg.win_bonus * 0.6
        return u

    def _defending(self, view: View, decl: float) -> float:
        """A defender's utility when the declarer's deal value is ``decl``: his mean deal
        value, less ``beta`` times his opponents' mean (the declarer, and with three players
        a partner valued as himself)."""
        cfg = self.config
        if view.players == 2:
            return cfg.defender_value_two - self.beta(view) * decl
        return cfg.defender_value - cfg.beta * (decl + cfg.defender_value) / 2

    def _bid_utility(
        self, view: View, totals: Sequence[int], hands: Sequence[Mask], b: int, st: _Stakes,
        groups: Sequence[int] | None = None,
    ) -> tuple[float, float]:
        """(utility, make chance) of declaring after a bid of ``b``; on the barrel the
        contract is raised to the one that wins (up to ``bid_cap``, always allowed); with
        talon ``groups``, to each group's best contract (:meth:`_raised_samples`)."""
        samples, p = self._bid_samples(view, totals, hands, b, st, groups)
        return sum(samples) / max(1, len(totals)), p

    def _bid_samples(
        self, view: View, totals: Sequence[int], hands: Sequence[Mask], b: int, st: _Stakes,
        groups: Sequence[int] | None = None,
    ) -> tuple[list[float], float]:
        """:meth:`_bid_utility` per sampled deal (and the make chance); with the deals'
        talon ``groups`` (:meth:`_bid_totals`), each group's best contract from ``b``."""
        out = self._contract_samples_at(view, totals, hands, b, st)
        target = _raise_target(view, st, b)
        if groups:
            return self._raised_samples(view, totals, hands, b, st, groups, out, target)
        if target is not None:
            alt = self._contract_samples_at(view, totals, hands, target, st)
            n = max(1, len(totals))
            if (sum(alt[0]) / n, alt[1]) > (sum(out[0]) / n, out[1]):
                out = alt
        return out

    def _raised_samples(
        self, view: View, totals: Sequence[int], hands: Sequence[Mask], b: int, st: _Stakes,
        groups: Sequence[int], at_bid: tuple[list[float], float], target: int | None,
    ) -> tuple[list[float], float]:
        """A bid of ``b`` as the contract it becomes: in each group of deals that share a
        talon, the declarer names the contract (``b``, a raise of :meth:`_raise_ladder`,
        or on the barrel the one that wins) that does best over the group, as he would
        with the talon in his hand and the others' cards unseen; a deal whose kept hand
        may not name it (above ``bid_cap`` and its marriages) stays at ``b``.  The make
        chance stays the bid's own."""
        r = view.rules
        base, p = at_bid
        caps = [r.bid_cap + marriage_sum(h, r.marriage_values) for h in hands]
        cands = [c for c in self._raise_ladder(view, b, max(caps, default=b)) if c > b]
        if target is not None and target not in cands:
            cands.append(target)
        raised = {c: self._contract_samples_at(view, totals, hands, c, st, raised=c != target)[0]
                  for c in cands}
        members: dict[int, list[int]] = {}
        for i, g in enumerate(groups):
            members.setdefault(g, []).append(i)
        out = list(base)
        for idx in members.values():
            best = sum(base[i] for i in idx)
            for c in cands:
                u = [raised[c][i] if c <= caps[i] else base[i] for i in idx]
                if sum(u) > best + 1e-9:
                    best = sum(u)
                    for i, x in zip(idx, u, strict=True):
                        out[i] = x
        return out, p

    def _contract_samples_at(
        self, view: View, totals: Sequence[int], hands: Sequence[Mask], c: int, st: _Stakes,
        raised: bool = False,
    ) -> tuple[list[float], float]:
        """Declaring contract ``c``: the utility in each sampled deal (the declarer's
        ``totals`` with the ``hands`` he kept) and the share of deals made (``raised``:
        a raise above the bid, with the margin of a raise, ``bid_raise_margin``)."""
        m = self.config.bid_raise_margin if raised else self.config.bid_margin
        k = self.beta(view) * st.others / (len(view.active) - 1)
        values = view.rules.marriage_values
        out: list[float] = []
        made = 0
        for v, h in zip(totals, hands, strict=True):
            held = marriage_sum(h, values)
            if v >= c + m:
                own = st.made(c, v, held)
                made += 1
            else:
                own = st.failed(c)
            out.append(own - k * max(0, 120 + held - v))
        return out, made / max(1, len(totals))

    def _auction_search(
        self, view: View, rng: random.Random, budget: _Budget
    ) -> tuple[Samples, _Bids] | None:
        """The auction's candidates per sampled deal: each legal bid (declaring at it, or
        at the contract that wins on the barrel; a jump bid at most what the lowest bid is
        worth, which keeps every raise open), passing and a redeal (the value of passing,
        the same in every deal); with the totals and hands behind them, the lowest bid's
        make chance and the ladder of bids valued.  None: no deal could be drawn."""
        me = view.seat
        assert me is not None and view.hand is not None
        legal = view.legal
        bids = sorted(mv.value_of(m) for m in legal if mv.is_bid(m))
        other: list[bool] | None = None
        hb = view.high_bidder
        # (two players: passing makes the opponent the declarer; the fixed pass values
        # were measured with three, so his chance is read from the sampled deals)
        two = view.players == 2
        if (self.config.model_pass or two) and mv.PASS in legal and hb >= 0 and hb != me:
            other = []
        st = stakes(view, me, self.config.win_bonus)
        # The bids worth valuing: the lowest legal one and the next ones this hand may reach
        # in later rounds (with bid_jumps=false only one step is legal at a time).
        cap = view.rules.bid_cap + marriage_sum(view.hand, view.rules.marriage_values)
        ladder = contract_choices(view.rules, bids[0], max(bids[0], cap))[:6]
        levels = _bid_levels(view, bids[0], cap)
        target = _raise_target(view, st, bids[0])
        if target is not None:
            levels.append(target)
        groups: list[int] | None = [] if self.config.raise_credit else None
        totals, hands = self._bid_totals(view, rng, budget, levels, other=other,
                                         groups=groups)
        self.last_samples = len(totals)
        if not totals:
            return None
        n = len(totals)
        p_other = sum(other) / len(other) if other else None
        u_pass = self._pass_utility(view, p_other)
        low, p_low = self._bid_samples(view, totals, hands, bids[0], st, groups)
        utils: dict[Move, list[float]] = {mv.bid(bids[0]): low}
        for b in bids[1:]:
            u = self._bid_samples(view, totals, hands, b, st, groups)[0]
            utils[mv.bid(b)] = u if sum(u) < sum(low) else low
        order = [mv.bid(b) for b in bids]
        if mv.PASS in legal:
            utils[mv.PASS] = [u_pass] * n
            order.insert(0, mv.PASS)
            if mv.REDEAL in legal:  # the bot's choice over passing when the hand is weak
                utils[mv.REDEAL] = [u_pass] * n
                order.insert(0, mv.REDEAL)
        elif mv.REDEAL in legal:  # the compulsory first bid is the bot's choice
            utils[mv.REDEAL] = [min(u_pass, sum(low) / n)] * n
            order.append(mv.REDEAL)
        return Samples(utils, [1.0] * n, order=order), _Bids(totals, hands, groups, p_low,
                                                             ladder)

    def _auction_phase(self, view: View, rng: random.Random, budget: _Budget) -> Samples:
        """:meth:`_auction_search`'s utilities (no bid legal: passing, or a redeal)."""
        if not any(mv.is_bid(m) for m in view.legal):
            return _constant([m for m in (mv.PASS, mv.REDEAL) if m in view.legal])
        found = self._auction_search(view, rng, budget)
        return found[0] if found is not None else _constant(list(view.legal))

    def _auction(self, view: View, rng: random.Random, budget: _Budget) -> tuple[Move, Reason]:
        legal = view.legal
        bids = sorted(mv.value_of(m) for m in legal if mv.is_bid(m))
        if not bids:
            if mv.PASS in legal:
                return mv.PASS, ("no bid is possible", "ставок нет")
            return legal[0], ("", "")
        found = self._auction_search(view, rng, budget)
        if found is None:
            return self.fallback.decide(view)
        s, bids_found = found
        p_low = bids_found.p_low
        n = len(bids_found.totals)
        means = {m: sum(u) / n for m, u in s.utils.items()}
        move = first_best(s.order, means)
        low = bids[0]
        st = stakes(view, view.seat if view.seat is not None else 0, self.config.win_bonus)
        u_pass = means.get(mv.PASS, -math.inf)
        # the highest bid still worth more than passing (for the reason)
        limit = 0
        for b in bids_found.ladder:
            u, _ = self._bid_utility(view, bids_found.totals, bids_found.hands, b, st,
                                     bids_found.groups)
            if u > u_pass:
                limit = b
            else:
                break
        if mv.PASS not in legal:
            return mv.bid(low), (
                f"the first bid is compulsory; the hand makes it in {_pct(p_low)} "
                f"{_of(n)[0]}",
                f"первая ставка обязательна; рука играет её в {_pct(p_low)} {_of(n)[1]}",
            )
        if mv.is_bid(move):
            return mv.bid(low), (
                f"the hand makes that in {_pct(p_low)} {_of(n)[0]} "
                f"(worth bidding up to {limit})",
                f"рука играет эту ставку в {_pct(p_low)} {_of(n)[1]} "
                f"(можно торговаться до {limit})",
            )
        return move, (
            f"the hand makes {low} in only {_pct(p_low)} {_of(n)[0]}",
            f"рука играет {low} лишь в {_pct(p_low)} {_of(n)[1]}",
        )

    # ------------------------------------------------------------------ talon buy-out

    def _buy_worlds(
        self, view: View, rng: random.Random, budget: _Budget
    ) -> tuple[list[int], list[Mask], list[bool]]:
        """In sampled deals: the totals this seat reaches when it buys the talon (takes it,
        gives the cards the heuristic ranks best, the best of ``bid_gives`` solved), the
        hands it keeps, and whether the declarer makes his contract if it passes."""
        me = view.seat
        assert me is not None and view.hand is not None and view.buy_price is not None
        r = view.rules
        d = view.declarer
        talon = view.talon or 0
        know = knowledge(view)
        opts = self.options(view)
        price = view.buy_price
        cap = r.bid_cap + marriage_sum(view.hand | talon, r.marriage_values)
        ladder = contract_choices(r, price, max(price, cap))[:6]
        target = _raise_target(view, stakes(view, me, self.config.win_bonus), price)
        if target is not None:
            ladder.append(target)
        thr = sorted({c + self.config.bid_margin for c in ladder})
        totals: list[int] = []
        hands: list[Mask] = []
        theirs: list[bool] = []
        while budget.more(len(totals)):
            w = know.sample(rng)
            if w is None:
                break
            # the declarer plays his contract (no further buy assumed)
            theirs.append(self._other_makes(view, w, opts, d, view.contract))
            # this seat buys: the talon moves from the declarer's hand to its own
            bought = World(tuple(
                h | talon if s == me else h & ~talon if s == d else h
                for s, h in enumerate(w.hands)
            ), 0, w.discards)
            best, best_hand = self._best_exchange(view, bought, me, opts, thr)
            totals.append(best)
            hands.append(best_hand)
        return totals, hands, theirs

    def _buy(self, view: View, rng: random.Random, budget: _Budget) -> tuple[Move, Reason]:
        """Talon buy-out (RULES §4): buying is worth the best contract from the price up,
        valued as a bid is; passing, what a defender scores against the declarer's
        contract, made as often as in the same sampled deals."""
        me = view.seat
        price = view.buy_price
        assert me is not None and view.hand is not None
        if price is None:
            return mv.PASS, ("", "")
        found = self._buy_search(view, rng, budget)
        if found is None:
            return self.fallback.decide(view)
        smp, totals, hands, best_c, best_p, p_decl = found
        n = len(totals)
        st = stakes(view, me, self.config.win_bonus)
        p_price = self._bid_utility(view, totals, hands, price, st)[1]
        buy = first_best(smp.order, {m: sum(u) / n for m, u in smp.utils.items()}) == mv.BUY
        new = [s for s in range(4)
               if (view.hand | (view.talon or 0)) & MARRIAGE_MASK[s] == MARRIAGE_MASK[s]
               and view.hand & MARRIAGE_MASK[s] != MARRIAGE_MASK[s]]
        gift_en = gift_ru = ""
        if new:
            names = ", ".join(SUIT_SYMBOLS[s] for s in new)
            gift_en = f"the talon completes the {names} marriage{'s' if len(new) > 1 else ''}; "
            gift_ru = f"прикуп даёт марьяж{'и' if len(new) > 1 else ''} {names}; "
        c = view.contract
        if buy:
            raise_en = raise_ru = ""
            if best_c > price:
                raise_en = f" (worth raising to {best_c}: {_pct(best_p)})"
                raise_ru = f" (можно поднять до {best_c}: {_pct(best_p)})"
            return mv.BUY, (
                f"{gift_en}made in {_pct(p_price)} {_of(n)[0]}"
                f"{raise_en}; the declarer would make his {c} in {_pct(p_decl)}",
                f"{gift_ru}играется в {_pct(p_price)} {_of(n)[1]}"
                f"{raise_ru}; разыгрывающий сыграл бы свои {c} в {_pct(p_decl)}",
            )
        if p_price < 0.5:
            return mv.PASS, (
                f"{gift_en}{price} is made in only {_pct(p_price)} {_of(n)[0]}; "
                f"the declarer makes his {c} in {_pct(p_decl)}",
                f"{gift_ru}{price} играется лишь в {_pct(p_price)} "
                f"{_of(n)[1]}; разыгрывающий играет свои {c} в {_pct(p_decl)}",
            )
        return mv.PASS, (
            f"{gift_en}{price} is made in {_pct(p_price)} {_of(n)[0]}, but "
            f"defending is worth more: the declarer makes his {c} in only {_pct(p_decl)}",
            f"{gift_ru}{price} играется в {_pct(p_price)} {_of(n)[1]}, "
            f"но вистовать выгоднее: разыгрывающий играет свои {c} лишь в {_pct(p_decl)}",
        )

    def _buy_search(
        self, view: View, rng: random.Random, budget: _Budget
    ) -> tuple[Samples, list[int], list[Mask], int, float, float] | None:
        """Buying (the best contract from the price up, valued as a bid is) and passing
        (a defender against the declarer's contract, made as often as in the same deals,
        the same in every deal) per sampled deal; with the totals and hands behind them,
        the best contract, its make chance and the declarer's.  None: no deal drawn."""
        me = view.seat
        price = view.buy_price
        assert me is not None and view.hand is not None and price is not None
        r = view.rules
        totals, hands, theirs = self._buy_worlds(view, rng, budget)
        n = len(totals)
        self.last_samples = n
        if not n:
            return None
        st = stakes(view, me, self.config.win_bonus)
        cap = r.bid_cap + marriage_sum(view.hand | (view.talon or 0), r.marriage_values)
        best_u, best_c, best_p = -math.inf, price, 0.0
        best_s: list[float] = []
        for c in contract_choices(r, price, max(price, cap))[:6]:
            u, p = self._bid_samples(view, totals, hands, c, st)
            if sum(u) / n > best_u + 1e-9:
                best_u, best_c, best_p, best_s = sum(u) / n, c, p, u
        p_decl = sum(theirs) / n
        u_pass = self._declarer_pass_utility(view, p_decl)
        smp = Samples({mv.PASS: [u_pass] * n, mv.BUY: best_s}, [1.0] * n,
                      order=[mv.PASS, mv.BUY])
        return smp, totals, hands, best_c, best_p, p_decl

    def _buy_phase(self, view: View, rng: random.Random, budget: _Budget) -> Samples:
        """:meth:`_buy_search`'s utilities."""
        if view.buy_price is None:
            return _constant([mv.PASS, mv.BUY])
        found = self._buy_search(view, rng, budget)
        return found[0] if found is not None else _constant([mv.PASS, mv.BUY])

    def _declarer_pass_utility(self, view: View, p_decl: float) -> float:
        """What passing on a buy is worth: a defender's mean deal value, less half of what
        the others score (the declarer: his contract, made with chance ``p_decl``, with the
        bonus for winning the game when it would win it)."""
        cfg = self.config
        d = view.declarer
        c = view.contract
        st = stakes(view, d, cfg.win_bonus)
        decl = p_decl * st.made(c, c) + (1 - p_decl) * st.failed(c)
        return self._defending(view, decl)

    def _dark_search(
        self, view: View, rng: random.Random, budget: _Budget
    ) -> tuple[Samples, float]:
        """A blind 120 (doubled) per sampled deal (how often a random hand with the talon
        makes it, and the raise its ten cards allow, as a bid's) and looking (keeps every
        choice open: at least the value of passing, the same in every deal); and the blind
        120's make chance."""
        me = view.seat
        assert me is not None
        groups: list[int] | None = [] if self.config.raise_credit else None
        totals, hands = self._bid_totals(view, rng, budget, [120], factor=0.5,
                                         groups=groups)
        self.last_samples = n = len(totals)
        st = stakes(view, me, self.config.win_bonus, dark=True)
        u_dark, p = self._bid_samples(view, totals, hands, 120, st, groups)
        smp = Samples({mv.LOOK: [self.config.defender_value] * n, mv.DARK: u_dark},
                      [1.0] * n, order=[mv.LOOK, mv.DARK])
        return smp, p

    def _dark_phase(self, view: View, rng: random.Random, budget: _Budget) -> Samples:
        """:meth:`_dark_search`'s utilities."""
        return self._dark_search(view, rng, budget)[0]

    def _dark(self, view: View, rng: random.Random, budget: _Budget) -> tuple[Move, Reason]:
        smp, p = self._dark_search(view, rng, budget)
        n = len(smp.weights)
        means = {m: sum(u) / max(1, n) for m, u in smp.utils.items()}
        if n and first_best(smp.order, means) == mv.DARK:
            return mv.DARK, (f"a blind 120 is made in {_pct(p)} {_of(n)[0]}",
                             f"120 втемную играется в {_pct(p)} {_of(n)[1]}")
        return mv.LOOK, (
            f"a blind 120 is made in only {_pct(p)} {_of(n)[0]}",
            f"120 втемную играется лишь в {_pct(p)} {_of(n)[1]}",
        )


def _bid_levels(view: View, low: int, cap: int) -> list[int]:
    """The contracts a bid from ``low`` is valued at (the threshold searches of its
    totals): the first 6 of the ladder up to ``cap``, and with two players every fourth
    above them, so that a strong hand's total, and so the one defender's points (all the
    rest, counted in full against the bid), is not read from a capped value."""
    choices = contract_choices(view.rules, low, max(low, cap))
    return choices[:6] + (choices[6::4] if view.players == 2 else [])


def _discards_due(view: View) -> bool:
    """Whether the declarer discards rather than gives (``discard_three``; two players)."""
    return view.players == 2 or view.rules.exchange == "discard_three"


def _n_discards(view: View) -> int:
    """How many cards the declarer discards: two with two players, else three."""
    return 2 if view.players == 2 else 3


def _open_hands(active: Sequence[int], hands: Sequence[Mask]) -> tuple[int, ...]:
    """The solver's hands (seat i = ``active[i]``; two of them with two players)."""
    return tuple(hands[s] for s in active)


def _taken(w: World, d: int, k: int) -> World:
    """``w`` with the talon in ``d``'s hand: the only one (``k`` = -1), or with two players
    talon ``k`` (0 or 1), the other becoming the talon not chosen."""
    if k < 0:
        talon, other = w.talon, 0
    else:
        talon, other = w.talons[k], w.talons[1 - k]
    hands = tuple(h | talon if s == d else h for s, h in enumerate(w.hands))
    return World(hands, 0, w.discards, (), other)


def _glimpse_wanted(view: View, hand: Mask) -> bool:
    """Whether the talon card this seat saw at the cut (two players: in talon 2) is worth
    more than an unseen card (5 points on average): an ace, a ten, or the partner of a king
    or queen in ``hand``."""
    card = (view.talon_known & -view.talon_known).bit_length() - 1
    if card < 0:
        return False
    suit, rank = divmod(card, 6)
    if POINTS[card] >= 10:
        return True
    return rank in (KING, QUEEN) and hand & MARRIAGE_MASK[suit] & ~(1 << card) != 0


def _quick_talon(view: View, d: int, hand: Mask) -> int:
    """The talon (0 or 1) declarer ``d`` holding ``hand`` takes by the quick rule: talon 2
    when this seat is he and the card it glimpsed there is wanted (:func:`_glimpse_wanted`),
    else talon 1 (unseen talons are alike)."""
    return 1 if d == view.seat and _glimpse_wanted(view, hand) else 0


def _talon_reason(
    view: View, second: bool, made: tuple[float, float], worth: tuple[float, float], n: int
) -> Reason:
    """Why this talon (``second``: talon 2), as a hint's reason that does not name the move
    (thousand.texts.ADVICE names it): the card glimpsed at the cut, which lies in talon 2,
    the bid's make chance with each talon (``made``: talon 1's, talon 2's) and what the
    deal is worth on average with each (``worth``)."""
    card = (view.talon_known & -view.talon_known).bit_length() - 1
    en_c, ru_c = card_label(card, "en"), card_label(card, "ru")
    bid = view.bid
    k, o = (1, 0) if second else (0, 1)
    names_en = ("talon 1", "talon 2")
    with_ru = ("с первым", "со вторым")
    en = (f"with {names_en[k]} {bid} is made in {_pct(made[k])} {_of(n)[0]}, with "
          f"{names_en[o]} in {_pct(made[o])} (the deal is worth {_points(worth[k], 'en')} "
          f"against {_points(worth[o], 'en')} on average)")
    ru = (f"{with_ru[k]} {bid} играется в {_pct(made[k])} {_of(n)[1]}, {with_ru[o]} — в "
          f"{_pct(made[o])} (раздача в среднем даёт {_points(worth[k], 'ru')} против "
          f"{_points(worth[o], 'ru')})")
    if second:
        return (f"it holds the {en_c} glimpsed at the cut; {en}",
                f"в нём примеченная при срезе карта {ru_c}; {ru}")
    return (f"talon 2 holds the {en_c} glimpsed at the cut, but {en}",
            f"во втором лежит примеченная при срезе карта {ru_c}, но {ru}")


def _discard_plan(view: View, move: Move, best: Mask) -> Reason:
    """Two players: the other card the best exchange found discards with ``move`` («вместе
    с 9♣: »), when ``move`` is one of its two and the other is still to go; nothing
    otherwise (the move itself is named by the hint's advice, not by its reason)."""
    if view.players != 2 or not mv.is_discard(move) or not best >> mv.card_of(move) & 1:
        return "", ""
    rest = [c for c in cards_of(best) if c != mv.card_of(move)]
    if not rest:
        return "", ""
    en = " and ".join(card_label(c, "en") for c in rest)
    ru = " и ".join(card_label(c, "ru") for c in rest)
    return f"with {en} next: ", f"вместе с {ru}: "


def _play_utility(
    declarer: bool, dv: float, v: int, own_bonus: float, others: int, beta: float, n_def: int
) -> float:
    """A card's utility in a solved deal where the declarer ends with ``v`` and his deal is
    worth ``dv``: for the declarer ``dv`` less ``beta`` times the defenders' mean (their
    ``120 − v`` shared among ``n_def``, counted ``others`` times); for a defender his share
    and ``own_bonus`` (his declaration) less ``beta`` times the mean of his opponents (the
    declarer and the other defender, if any).  The constants dropped are the same for
    every card."""
    if declarer:
        return dv + others * beta * v / n_def
    share = -others * v / n_def + own_bonus
    partners = (n_def - 1) * -others * v / n_def
    return share - beta * (dv + partners) / n_def


def _constant(moves: Sequence[Move]) -> Samples:
    """Moves the bot does not sample: no deal, all equal, the first preferred."""
    return Samples({m: [] for m in moves}, [], order=list(moves))


def _weighted_mean(xs: Sequence[float], weights: Sequence[float]) -> float:
    """The mean of ``xs`` weighted by ``weights`` (0 for no weight)."""
    total = sum(weights[: len(xs)])
    return sum(x * w for x, w in zip(xs, weights, strict=False)) / total if total else 0.0


def _raise_target(view: View, st: _Stakes, b: int) -> int | None:
    """On the barrel, the contract above the bid ``b`` that wins the game, when a declarer
    may always raise to it (up to ``bid_cap``)."""
    if not st.need or st.need <= b:
        return None
    r = view.rules
    c = max(b, next_bid(r, st.need - 1))  # the lowest contract of the ladder from need
    return c if c <= r.bid_cap else None


def _stuck_opener(view: View) -> bool:
    """Whether the only bid so far is the opener's compulsory 100."""
    bids = [m for _, m in view.auction if mv.is_bid(m) or m == mv.DARK]
    return len(bids) == 1 and bids[0] == mv.bid(100)


def _quick_value(
    rest: Mask, values: Sequence[int], discard: bool, combo: tuple[int, ...],
    ten_strength: str = "high",
) -> float:
    """A cheap value of the hand kept (the heuristic's play model, less what is given)."""
    v = predict_play(rest, values, ten_strength)
    pts = sum(POINTS[c] for c in combo)
    return v + pts if discard else v - 0.5 * pts


def _card_cost(m: Move) -> float:
    """Tie-break between equally good moves: keep the valuable cards."""
    c = m % 24
    return POINTS[c] + (0.5 if mv.is_declare(m) else 0) - (10 if mv.is_declare(m) else 0)


def _declaration_value(view: View, m: Move) -> int:
    """What a declaring lead scores for the seat leading it."""
    r = view.rules
    assert view.hand is not None
    c = m % 24
    s, rank = divmod(c, 6)
    if r.marriage_points_declarer_only and view.seat != view.declarer:
        return 0
    if rank == ACE:
        return r.ace_marriage
    if rank == 0:
        return r.four_nines_bonus
    mm = MARRIAGE_MASK[s]
    if rank in (KING, QUEEN) and view.hand & mm == mm:
        return r.marriage_values[s]
    return r.marriage_values[s] // 2


def _move_words(m: Move, lang: str) -> str:
    """A card play for people: «К♥ с марьяжем», "K♥ declaring its marriage"."""
    if mv.is_card_play(m):
        label = card_label(m % 24, lang)
        if mv.is_declare(m):
            label += " с марьяжем" if lang == "ru" else " declaring its marriage"
        return label
    return mv.move_str(m)


def strong(seed: int | None = None) -> SearchBot:
    return SearchBot(seed, STRONG, "strong")


def expert(seed: int | None = None) -> SearchBot:
    return SearchBot(seed, EXPERT, "expert")


def _register() -> None:
    from .. import register_bot

    register_bot(
        "strong", strong,
        ("samples the hidden cards and solves each deal (about 0.3 s a move)",
         "перебирает возможные расклады и решает каждый (около 0,3 с на ход)"),
    )
    register_bot(
        "expert", expert,
        ("the strong bot with a bigger budget that also reads the cards played "
         "(about 1 s a move)",
         "как сильный, но думает дольше и делает выводы из сыгранных карт "
         "(около 1 с на ход)"),
    )


_register()

__all__ = [
    "EXPERT",
    "STRONG",
    "SearchBot",
    "SearchConfig",
    "expert",
    "position",
    "strong",
]
