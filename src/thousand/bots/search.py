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
  what :func:`thousand.deal.concede_values` says; a dark deal is never conceded).
* **Talon buy-out** (``talon_buy``): the talon is public; in each sampled deal the seat takes
  it, gives the cards the heuristic ranks best and the deal is solved at the price and the
  raises its marriages allow; passing is valued by how often the declarer makes his
  contract in the same deals.  It buys when buying is worth more.
* **Bids and dark bids**: in each sampled deal (talon and hands) the declarer takes the
  talon, gives the cards the heuristic ranks best (the best of a few, solved) and the deal
  is solved: how often does the hand make each contract, and what does it score?  The bot
  bids while declaring is worth more than defending.

What a move is worth (the *utility*) is the seat's own deal value, less ``beta`` times the
mean deal value of its two opponents (``beta`` = 0.5: in a three-player game an opponent's
point costs about half as much as one's own point gains).  The solver's value is the
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

from thousand import moves as mv
from thousand.cards import (
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
    round_points,
)
from thousand.deal import Phase
from thousand.moves import Move
from thousand.solver import PlayOptions, PlayPosition, Solver
from thousand.texts import count
from thousand.view import View

from .base import Reason, ReasoningBot
from .evaluate import keep_score, predict_play
from .heuristic import HeuristicBot, concede_cost, concede_possible, contract_options
from .inference import play_history, play_likelihood
from .sampling import World, knowledge


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
    #: gives tried per sampled deal when valuing a bid
    bid_gives: int = 2
    #: the weight of the opponents' mean deal value against one's own
    beta: float = 0.5
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


def budget_of(config: SearchConfig) -> _Budget:
    """A decision's budget under ``config``, its clock started now."""
    return _Budget(config.time_limit, config.min_samples, config.max_samples)


# ------------------------------------------------------------------ the solver's position


def declared_suits(view: View) -> int:
    m = 0
    for d in view.declarations:
        if d.kind in ("marriage", "half_marriage"):
            m |= 1 << d.suit
    return m


def aces_duty(view: View) -> int:
    """The engine seat under the ``ace_marriage_all_in_row`` duty, or -1."""
    if not view.rules.ace_marriage_all_in_row:
        return -1
    for d in reversed(view.declarations):
        if d.kind == "ace_marriage":
            if all(t.winner == d.seat for t in view.tricks[d.trick:]):
                return d.seat
            return -1
    return -1


def position(view: View, world: World, options: PlayOptions | None = None) -> PlayPosition:
    """The solver's position of ``view``'s play phase in ``world`` (seat i = active[i])."""
    act = view.active
    idx = {s: i for i, s in enumerate(act)}
    d = view.declarer
    leader = view.trick[0][0] if view.trick else view.to_move
    discards = view.discards if view.discards is not None else world.discards
    return PlayPosition(
        hands=(world.hands[act[0]], world.hands[act[1]], world.hands[act[2]]),
        leader=idx[leader],
        trick=tuple(c for _, c in view.trick),
        trump=view.trump,
        trump_declarer=idx.get(view.trump_declarer, -1),
        tricks_played=len(view.tricks),
        declarer=idx[d],
        declarer_points=view.taken[d] + view.bonus[d] + points_of(discards),
        options=options if options is not None else PlayOptions.from_rules(view.rules),
        aces_in_row_seat=idx.get(aces_duty(view), -1),
        declared_suits=declared_suits(view),
    )


# ------------------------------------------------------------------------- deal values


@dataclass(frozen=True)
class _Stakes:
    """What a contract is worth to the declarer at the table's scores."""

    mult: int  # 2 for a dark or golden deal (4 for both)
    taken: bool  # declarer_scores=taken
    rounding: int
    need: int  # on the barrel: the contract that wins; 0 otherwise
    win_at: int  # a made contract of this or more wins the game (large: never)
    win_bonus: float
    #: the defenders' deal values count this many times (2 in a golden deal, and in a dark
    #: one with ``dark_doubles=all``)
    others: int = 1

    def made(self, contract: int, total: int) -> float:
        if self.need and contract < self.need:
            return 0.0  # nothing is recorded on the barrel below the win
        value = float(contract)
        if self.taken:
            value = float(round_points(total, self.rounding))
        value *= self.mult
        if contract >= self.win_at:
            value += self.win_bonus
        return value

    def failed(self, contract: int) -> float:
        return -float(contract * self.mult)


def stakes(view: View, seat: int, win_bonus: float, dark: bool | None = None) -> _Stakes:
    r = view.rules
    dark = view.dark if dark is None else dark
    mult = (2 if dark else 1) * (2 if view.golden else 1)
    others = (2 if dark and r.dark_doubles == "all" else 1) * (2 if view.golden else 1)
    need = 0
    win_at = 1 << 30
    g = view.game
    if g is not None:
        target = r.score_to_win
        score = g.scores[seat]
        if g.on_barrel[seat]:
            need = target - score
            win_at = need
        else:
            win_at = max(0, target - score) if score + 400 >= target else win_at
    return _Stakes(
        mult, r.declarer_scores == "taken", r.rounding, need, win_at, win_bonus, others
    )


@dataclass(frozen=True)
class PlaySamples:
    """Per sampled deal, each candidate's utility and the solver's declarer total."""

    utility: dict[Move, list[float]]
    totals: dict[Move, list[int]]
    weights: list[float]

    def utilities(self) -> dict[Move, float]:
        """Each move's weighted sum of utilities (the sum ranks as the weighted mean)."""
        return {m: sum(w * u for w, u in zip(self.weights, us, strict=True))
                for m, us in self.utility.items()}


@dataclass(frozen=True)
class AuctionSamples:
    """A bid's sampled deals (:meth:`SearchBot.auction_samples`)."""

    totals: list[int]
    hands: list[Mask]
    stakes: _Stakes
    ladder: list[int]
    low: int
    u_pass: float


@dataclass(frozen=True)
class BuyValues:
    """A talon buy-out's figures (:meth:`SearchBot.buy_values`)."""

    buy: list[float]
    contract: int
    chance: float
    price_chance: float
    declarer_chance: float
    u_pass: float


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
        rng = self.decision_rng(view)
        budget = budget_of(self.config)
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
        else:
            out = None
        if out is None or out[0] not in legal:
            move, why = self.fallback.decide(view)
            return move, why
        return out

    def decision_rng(self, view: View) -> random.Random:
        """The random source of a decision: seeded by the bot's seed and the position, so
        the bot and the analysis (:mod:`thousand.bots.valuation`) draw the same deals."""
        return random.Random(self._decision_seed(view))

    def _decision_seed(self, view: View) -> int:
        key = f"{self.seed}|{view.seat}|{view.hand}|{view.dealer}|{','.join(view.history)}"
        if view.game is not None:
            key += f"|{view.game.deal_number}|{view.game.scores}"
        return zlib.crc32(key.encode())

    def options(self, view: View) -> PlayOptions:
        if self._opts is None or self._opts[0] is not view.rules:
            self._opts = (view.rules, PlayOptions.from_rules(view.rules))
        return self._opts[1]

    # ----------------------------------------------------------------------- play

    def _play(self, view: View, rng: random.Random, budget: _Budget) -> tuple[Move, Reason]:
        sampled = self.play_samples(view, rng, budget)
        legal = list(view.legal)
        util = sampled.utilities()
        if not any(sampled.totals.values()):
            return self.fallback.decide(view)
        best = max(legal, key=lambda m: (util[m], -_card_cost(m)))
        declarer = view.seat == view.declarer
        return best, self._play_reason(view, best, legal, util, sampled.totals,
                                       sampled.weights, len(sampled.totals[best]), declarer, 0)

    def play_samples(self, view: View, rng: random.Random, budget: _Budget) -> PlaySamples:
        """Every legal card's utility in each sampled deal (paired: deal i is the same for
        every card), with the deals' weights: what both the choice and the analysis
        (:mod:`thousand.bots.valuation`) rank."""
        me = view.seat
        assert me is not None
        legal = list(view.legal)
        d = view.declarer
        declarer = me == d
        know = knowledge(view)
        opts = self.options(view)
        st = stakes(view, d, self.config.win_bonus)
        contract = view.contract
        beta = self.config.beta
        margin = 0  # in the play the solver's total is taken as it is
        totals: dict[Move, list[int]] = {m: [] for m in legal}
        per: dict[Move, list[float]] = {m: [] for m in legal}
        own_bonus = {m: 0.0 for m in legal}
        others = st.others  # the defenders' values doubled (golden; dark with dark_doubles=all)
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
            weights.append(weight)
            for m in legal:
                v = values[m]  # the solver and the engine agree on the legal cards
                totals[m].append(v)
                made = v >= contract + margin
                dv = st.made(contract, v) if made else st.failed(contract)
                if declarer:
                    per[m].append(dv + others * beta * v / 2)
                else:
                    per[m].append(
                        others * (-(1 - beta / 2) * v / 2 + own_bonus[m]) - beta / 2 * dv
                    )
        self.last_samples = n
        return PlaySamples(per, totals, weights)

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
        for c in contract_options(r, bid, cap)[1:]:
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

    def _contract_choice(
        self, view: View, totals: Sequence[int], hand: Mask, bid: int, concede: bool,
        st: _Stakes,
    ) -> tuple[float, int, float]:
        """(utility, contract or -1 for a concede, make chance) of the best choice."""
        per = self.contract_samples(view, totals, hand, bid, concede, st)
        margin = self.config.margin
        n = max(1, len(totals))
        best = (-math.inf, bid, 0.0)
        for c, us in per.items():
            u = _mean(us)
            if c < 0:
                if u > best[0]:
                    best = (u, -1, sum(1 for v in totals if v >= bid + margin) / n)
            elif u > best[0] + 1e-9:
                need = c + margin + (self.config.raise_margin if c > bid else 0)
                best = (u, c, sum(1 for v in totals if v >= need) / n)
        return best

    def contract_samples(
        self, view: View, totals: Sequence[int], hand: Mask, bid: int, concede: bool,
        st: _Stakes, extra: Sequence[int] = (),
    ) -> dict[int, list[float]]:
        """Each contract the hand may name (and -1, a concede, where ``concede``), its
        utility in each sampled deal (``totals``: the declarer's totals there), and those of
        ``extra`` (contracts the bot would not name, for the analysis); a concede costs the
        same in every deal."""
        r = view.rules
        beta = self.config.beta
        margin = self.config.margin
        cap = r.bid_cap + marriage_sum(hand, r.marriage_values)
        m_hand = marriage_sum(hand, r.marriage_values)
        opp = [beta * st.others * max(0, 120 + m_hand - v) / 2 for v in totals]
        out: dict[int, list[float]] = {}
        for c in sorted(set(contract_options(r, bid, cap)) | set(extra)):
            need = c + margin + (self.config.raise_margin if c > bid else 0)
            out[c] = [(st.made(c, v) if v >= need else st.failed(c)) - o
                      for v, o in zip(totals, opp, strict=True)]
        if concede:
            # the engine's concede payment (thousand.deal.concede_values), doubled in a
            # golden deal, with the concede penalty where this concede incurs it
            seat = view.declarer if view.declarer >= 0 else view.seat
            assert seat is not None
            loss, pay = concede_cost(view, seat, bid, hand)
            out[-1] = [-loss - beta * pay] * len(totals)
        return out

    # ------------------------------------------------------------------- exchange

    def _exchange(self, view: View, rng: random.Random, budget: _Budget) -> tuple[Move, Reason]:
        assert view.hand is not None and view.seat is not None
        r = view.rules
        me = view.seat
        hand = view.hand
        discard_mode = r.exchange == "discard_three"
        opts = self.options(view)
        act = view.active
        i = act.index(me)
        first, second = act[(i + 1) % 3], act[(i + 2) % 3]
        if discard_mode:
            done = view.discards.bit_count() if view.discards is not None else 0
            k = 3 - done
        else:
            k = 2 - len(view.given)
        values = r.marriage_values
        ts = r.ten_strength
        ranked = sorted(cards_of(hand), key=lambda c: keep_score(hand, c, values, ts))
        pool = ranked[: max(k, min(len(ranked), self.config.exchange_cards))]
        cands: list[tuple[tuple[tuple[int, int], ...], Mask]] = []
        for combo in combinations(pool, k):
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
        know = knowledge(view)
        st = stakes(view, me, self.config.win_bonus)
        # (decided later, in the contract phase; never in a dark deal)
        may_concede = concede_possible(view, me)
        alive = list(range(len(cands)))
        totals: list[list[int]] = [[] for _ in cands]
        thr = []
        for give, disc in cands:
            rest = hand & ~disc
            for c, _ in give:
                rest &= ~(1 << c)
            thr.append(self._thresholds(view, rest, view.bid))
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
            worlds.extend(new)
            for ci in alive:
                give, disc = cands[ci]
                totals[ci].extend(self._hand_totals(view, new, give, disc, opts, thr[ci]))
            solves += len(new) * len(alive)
            scores = {}
            for ci in alive:
                give, disc = cands[ci]
                rest = hand & ~disc
                for c, _ in give:
                    rest &= ~(1 << c)
                scores[ci] = self._contract_choice(
                    view, totals[ci], rest, view.bid, may_concede, st)[0]
            if len(alive) > 1 and len(worlds) >= 8:
                alive.sort(key=lambda ci: -scores[ci])
                alive = alive[: max(1, (len(alive) + 1) // 2)]
            batch = min(2 * batch, 32)
            if len(alive) == 1 and not budget.more(len(worlds)):
                break
            if len(alive) == 1 and len(worlds) >= self.config.min_samples * 2:
                break
        self.last_samples = len(worlds)
        if not worlds:
            return self.fallback.decide(view)
        best = max(alive, key=lambda ci: self._exchange_score(view, cands[ci], totals[ci], st))
        give, disc = cands[best]
        rest = hand & ~disc
        for c, _ in give:
            rest &= ~(1 << c)
        u, c_best, p = self._contract_choice(view, totals[best], rest, view.bid, may_concede, st)
        if mv.REDEAL in view.legal and u < 0:
            target = view.bid if c_best < 0 else c_best
            of_en, of_ru = _of(len(worlds))
            return mv.REDEAL, (
                f"a weak talon: even after the best exchange the deal is worth "
                f"{_points(u, 'en')} on average ({target} is made in {_pct(p)} {of_en})",
                f"слабый прикуп: даже после лучшего сноса раздача в среднем даёт "
                f"{_points(u, 'ru')} ({target} играется в {_pct(p)} {of_ru})",
            )
        if discard_mode:
            card = max(cards_of(disc), key=lambda c: (-keep_score(hand, c, values, ts), c))
            move = mv.discard(card)
        else:
            card = give[0][0]
            move = mv.give(card)
        target = view.bid if c_best < 0 else c_best
        of_en, of_ru = _of(len(worlds))
        return move, (
            f"the hand left makes {target} in {_pct(p)} {of_en}",
            f"с оставшимися картами {target} играется в {_pct(p)} {of_ru}",
        )

    def _exchange_score(
        self, view: View, cand: tuple[tuple[tuple[int, int], ...], Mask], totals: list[int],
        st: _Stakes,
    ) -> float:
        give, disc = cand
        assert view.hand is not None
        rest = view.hand & ~disc
        for c, _ in give:
            rest &= ~(1 << c)
        assert view.seat is not None
        may_concede = concede_possible(view, view.seat)
        return self._contract_choice(view, totals, rest, view.bid, may_concede, st)[0]

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

    def contract_totals(
        self, view: View, rng: random.Random, budget: _Budget
    ) -> tuple[list[int], int]:
        """The declarer's totals over the sampled deals of a contract decision."""
        totals, n = self._declarer_worlds_totals(view, rng, budget)
        self.last_samples = n
        return totals, n

    def _contract(self, view: View, rng: random.Random, budget: _Budget) -> tuple[Move, Reason]:
        assert view.hand is not None
        totals, n = self.contract_totals(view, rng, budget)
        if not totals:
            return self.fallback.decide(view)
        st = stakes(view, view.declarer, self.config.win_bonus)
        concede = mv.CONCEDE in view.legal
        _, c, p = self._contract_choice(view, totals, view.hand, view.bid, concede, st)
        if c < 0:
            return mv.CONCEDE, (
                f"{view.bid} is made in only {_pct(p)} {_of(n)[0]}: conceding costs less",
                f"{view.bid} играется лишь в {_pct(p)} {_of(n)[1]}: "
                "расписаться дешевле",
            )
        return mv.contract(c), (
            f"made in {_pct(p)} {_of(n)[0]}",
            f"играется в {_pct(p)} {_of(n)[1]}",
        )

    def redeal_samples(
        self, view: View, rng: random.Random, budget: _Budget
    ) -> tuple[list[float], float]:
        """The declarer's deal value per sampled deal when he refuses a redeal (plays his
        contract), and his make chance; a redeal is worth 0."""
        assert view.hand is not None
        totals, n = self._declarer_worlds_totals(view, rng, budget)
        self.last_samples = n
        st = stakes(view, view.declarer, self.config.win_bonus)
        c = view.contract
        m = self.config.margin
        per = [st.made(c, v) if v >= c + m else st.failed(c) for v in totals]
        return per, sum(1 for v in totals if v >= c + m) / max(1, n)

    def _redeal_offer(
        self, view: View, rng: random.Random, budget: _Budget
    ) -> tuple[Move, Reason]:
        if view.seat != view.declarer:
            return mv.REDEAL, ("a redeal takes the contract away from the declarer",
                               "пересдача лишает разыгрывающего заказа")
        per, p = self.redeal_samples(view, rng, budget)
        own = _mean(per)
        n = len(per)
        c = view.contract
        if own < 0:
            return mv.REDEAL, (f"{c} is made in only {_pct(p)} {_of(n)[0]}",
                               f"{c} играется лишь в {_pct(p)} {_of(n)[1]}")
        return mv.PASS, (f"{c} is made in {_pct(p)} {_of(n)[0]}",
                         f"{c} играется в {_pct(p)} {_of(n)[1]}")

    # -------------------------------------------------------------------- auction

    def _bid_totals(
        self, view: View, rng: random.Random, budget: _Budget, bids: Sequence[int],
        factor: float = 1.0, other: list[bool] | None = None,
    ) -> tuple[list[int], list[Mask]]:
        """The declarer's totals over sampled talons and hands when this seat declares
        (its hand in each world too: it is sampled before a dark bid)."""
        me = view.seat
        assert me is not None
        know = knowledge(view)
        opts = self.options(view)
        totals: list[int] = []
        hands: list[Mask] = []
        thr = sorted({b + self.config.bid_margin for b in bids})
        while budget.more(len(totals), factor):
            w = know.sample(rng)
            if w is None:
                break
            best, best_hand = self._best_exchange(view, w, me, opts, thr)
            totals.append(best)
            hands.append(best_hand)
            if other is not None:
                other.append(self._other_makes(view, w, opts))
        return totals, hands

    def _quick_exchanges(
        self, view: View, w: World, d: int, k: int
    ) -> tuple[World, list[tuple[int, ...]]]:
        """``w`` with the talon in ``d``'s hand, and the ``k`` exchanges (the cards that
        leave the hand) the quick rule ranks best among the 5 cards ``keep_score`` values
        least."""
        values = view.rules.marriage_values
        ts = view.rules.ten_strength
        discard_mode = view.rules.exchange == "discard_three"
        hand10 = w.hands[d] | w.talon
        low = sorted(cards_of(hand10), key=lambda c: keep_score(hand10, c, values, ts))[:5]
        cands: list[tuple[float, tuple[int, ...]]] = []
        for combo in combinations(low, 3 if discard_mode else 2):
            rest = hand10
            for c in combo:
                rest &= ~(1 << c)
            cands.append((_quick_value(rest, values, discard_mode, combo, ts), combo))
        cands.sort(reverse=True)
        world = World(tuple(h | (w.talon if s == d else 0) for s, h in enumerate(w.hands)))
        return world, [combo for _, combo in cands[:k]]

    def _best_exchange(
        self, view: View, w: World, me: int, opts: PlayOptions, thr: list[int]
    ) -> tuple[int, Mask]:
        """The best of the quick exchanges of ``me`` holding the talon in sampled deal ``w``:
        its solved total (a threshold search over ``thr``) and the hand it keeps."""
        world, combos = self._quick_exchanges(view, w, me, self.config.bid_gives)
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
        """:meth:`_hand_totals_for` after ``d`` discards ``combo`` (``discard_three``) or
        gives its cards to the next seat and the one after, in that order."""
        if view.rules.exchange == "discard_three":
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
            hands=(hands[act[0]], hands[act[1]], hands[act[2]]),
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
        u = cfg.defender_value - cfg.beta * (decl + cfg.defender_value) / 2
        # Someone about to win the game with the bid he holds: passing lets him.
        hb = view.high_bidder
        if hb >= 0 and hb != view.seat and view.game is not None:
            st = stakes(view, hb, cfg.win_bonus)
            if view.high_bid >= st.win_at or (st.need and view.high_bid >= st.need):
                u -= cfg.beta * cfg.win_bonus * 0.6
        return u

    def _bid_utility(
        self, view: View, totals: Sequence[int], hands: Sequence[Mask], b: int, st: _Stakes
    ) -> tuple[float, float]:
        """(utility, make chance) of declaring after a bid of ``b``; on the barrel the
        contract is raised to the one that wins (up to ``bid_cap``, always allowed)."""
        per, p = self.bid_samples(view, totals, hands, b, st)
        return _mean(per), p

    def bid_samples(
        self, view: View, totals: Sequence[int], hands: Sequence[Mask], b: int, st: _Stakes
    ) -> tuple[list[float], float]:
        """:meth:`_bid_utility` per sampled deal (the make chance over them all)."""
        out = self._contract_samples(view, totals, hands, b, st)
        target = _raise_target(view, st, b)
        if target is not None:
            alt = self._contract_samples(view, totals, hands, target, st)
            if (_mean(alt[0]), alt[1]) > (_mean(out[0]), out[1]):
                out = alt
        return out

    def _contract_samples(
        self, view: View, totals: Sequence[int], hands: Sequence[Mask], c: int, st: _Stakes
    ) -> tuple[list[float], float]:
        """Declaring ``c`` in each sampled deal: its utility there, and the make chance."""
        n = max(1, len(totals))
        m = self.config.bid_margin
        made = 0
        per: list[float] = []
        values = view.rules.marriage_values
        weight = self.config.beta * st.others
        for v, h in zip(totals, hands, strict=True):
            if v >= c + m:
                own = st.made(c, v)
                made += 1
            else:
                own = st.failed(c)
            per.append(own - weight * max(0, 120 + marriage_sum(h, values) - v) / 2)
        return per, made / n

    def auction_samples(
        self, view: View, rng: random.Random, budget: _Budget
    ) -> AuctionSamples | None:
        """The sampled deals behind a bid: the totals this hand reaches declaring in each,
        and the value of passing (None: no bid is legal, or no deal could be drawn)."""
        me = view.seat
        assert me is not None and view.hand is not None
        legal = view.legal
        bids = sorted(mv.value_of(m) for m in legal if mv.is_bid(m))
        if not bids:
            return None
        other: list[bool] | None = None
        hb = view.high_bidder
        if self.config.model_pass and mv.PASS in legal and hb >= 0 and hb != me:
            other = []
        st = stakes(view, me, self.config.win_bonus)
        # The bids worth valuing: the lowest legal one and the next ones this hand may reach
        # in later rounds (with bid_jumps=false only one step is legal at a time).
        cap = view.rules.bid_cap + marriage_sum(view.hand, view.rules.marriage_values)
        ladder = contract_options(view.rules, bids[0], max(bids[0], cap))[:6]
        levels = list(ladder)
        target = _raise_target(view, st, bids[0])
        if target is not None:
            levels.append(target)
        totals, hands = self._bid_totals(view, rng, budget, levels, other=other)
        self.last_samples = len(totals)
        if not totals:
            return None
        p_other = sum(other) / len(other) if other else None
        return AuctionSamples(totals, hands, st, ladder, bids[0],
                              self._pass_utility(view, p_other))

    def _auction(self, view: View, rng: random.Random, budget: _Budget) -> tuple[Move, Reason]:
        legal = view.legal
        if not any(mv.is_bid(m) for m in legal):
            if mv.PASS in legal:
                return mv.PASS, ("no bid is possible", "ставок нет")
            return legal[0], ("", "")
        a = self.auction_samples(view, rng, budget)
        if a is None:
            return self.fallback.decide(view)
        totals, hands, st, u_pass, low = a.totals, a.hands, a.stakes, a.u_pass, a.low
        u_low, p_low = self._bid_utility(view, totals, hands, low, st)
        # the highest bid still worth more than passing (for the reason)
        limit = 0
        for b in a.ladder:
            u, _ = self._bid_utility(view, totals, hands, b, st)
            if u > u_pass:
                limit = b
            else:
                break
        n = len(totals)
        move = auction_choice(legal, low, u_low, u_pass)
        if mv.PASS not in legal:
            return move, (
                f"the first bid is compulsory; the hand makes it in {_pct(p_low)} "
                f"{_of(n)[0]}",
                f"первая ставка обязательна; рука играет её в {_pct(p_low)} {_of(n)[1]}",
            )
        if move == mv.bid(low):
            return move, (
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
        ladder = contract_options(r, price, max(price, cap))[:6]
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

    def buy_values(
        self, view: View, rng: random.Random, budget: _Budget
    ) -> BuyValues | None:
        """Buying per sampled deal (at the best contract from the price up, chosen by its
        mean) and passing (a fixed value from how often the declarer makes his contract
        in the same deals); None without a deal."""
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
        best_u, best_c, best_p, best = -math.inf, price, 0.0, [0.0] * n
        for c in contract_options(r, price, max(price, cap))[:6]:
            per, p = self.bid_samples(view, totals, hands, c, st)
            u = _mean(per)
            if u > best_u + 1e-9:
                best_u, best_c, best_p, best = u, c, p, per
        p_price = self.bid_samples(view, totals, hands, price, st)[1]
        p_decl = sum(theirs) / n
        return BuyValues(best, best_c, best_p, p_price, p_decl,
                         self._declarer_pass_utility(view, p_decl))

    def _buy(self, view: View, rng: random.Random, budget: _Budget) -> tuple[Move, Reason]:
        """Talon buy-out (RULES §4): buying is worth the best contract from the price up,
        valued as a bid is; passing, what a defender scores against the declarer's
        contract, made as often as in the same sampled deals."""
        me = view.seat
        price = view.buy_price
        assert me is not None and view.hand is not None
        if price is None:
            return mv.PASS, ("", "")
        b = self.buy_values(view, rng, budget)
        if b is None:
            return self.fallback.decide(view)
        best_u, best_c, best_p = _mean(b.buy), b.contract, b.chance
        p_price, p_decl, u_pass, n = b.price_chance, b.declarer_chance, b.u_pass, len(b.buy)
        new = [s for s in range(4)
               if (view.hand | (view.talon or 0)) & MARRIAGE_MASK[s] == MARRIAGE_MASK[s]
               and view.hand & MARRIAGE_MASK[s] != MARRIAGE_MASK[s]]
        gift_en = gift_ru = ""
        if new:
            names = ", ".join(SUIT_SYMBOLS[s] for s in new)
            gift_en = f"the talon completes the {names} marriage{'s' if len(new) > 1 else ''}; "
            gift_ru = f"прикуп даёт марьяж{'и' if len(new) > 1 else ''} {names}; "
        c = view.contract
        if best_u > u_pass:
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

    def _declarer_pass_utility(self, view: View, p_decl: float) -> float:
        """What passing on a buy is worth: a defender's mean deal value, less half of what
        the others score (the declarer: his contract, made with chance ``p_decl``, with the
        bonus for winning the game when it would win it)."""
        cfg = self.config
        d = view.declarer
        c = view.contract
        st = stakes(view, d, cfg.win_bonus)
        decl = p_decl * st.made(c, c) + (1 - p_decl) * st.failed(c)
        return cfg.defender_value - cfg.beta * (decl + cfg.defender_value) / 2

    def dark_samples(
        self, view: View, rng: random.Random, budget: _Budget
    ) -> tuple[list[float], float, float]:
        """A blind 120 (doubled) per sampled deal (hand and talon both sampled), its make
        chance, and the value of looking (at least that of passing: it keeps every
        choice open)."""
        me = view.seat
        assert me is not None
        totals, hands = self._bid_totals(view, rng, budget, [120], factor=0.5)
        self.last_samples = len(totals)
        st = stakes(view, me, self.config.win_bonus, dark=True)
        per, p = self.bid_samples(view, totals, hands, 120, st)
        return per, p, self.config.defender_value

    def _dark(self, view: View, rng: random.Random, budget: _Budget) -> tuple[Move, Reason]:
        per, p, u_look = self.dark_samples(view, rng, budget)
        totals = per
        u_dark = _mean(per)
        if totals and u_dark > u_look:
            return mv.DARK, (f"a blind 120 is made in {_pct(p)} {_of(len(totals))[0]}",
                             f"120 втемную играется в {_pct(p)} {_of(len(totals))[1]}")
        return mv.LOOK, (
            f"a blind 120 is made in only {_pct(p)} {_of(len(totals))[0]}",
            f"120 втемную играется лишь в {_pct(p)} {_of(len(totals))[1]}",
        )


def auction_choice(legal: Sequence[Move], low: int, u_low: float, u_pass: float) -> Move:
    """The bot's bid from the values of its lowest bid and of passing: the compulsory
    first bid; else the lowest bid when worth more than passing; else a redeal where
    legal, else a pass."""
    if mv.PASS not in legal:
        return mv.bid(low)
    if mv.REDEAL in legal and u_low <= u_pass:
        return mv.REDEAL
    return mv.bid(low) if u_low > u_pass else mv.PASS


def _mean(xs: Sequence[float]) -> float:
    return sum(xs) / max(1, len(xs))


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
    c = max(b, 100 + -(-(st.need - 100) // r.bid_step) * r.bid_step)
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
    from . import register_bot

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
    "AuctionSamples",
    "BuyValues",
    "PlaySamples",
    "SearchBot",
    "SearchConfig",
    "aces_duty",
    "auction_choice",
    "budget_of",
    "declared_suits",
    "expert",
    "position",
    "strong",
]
