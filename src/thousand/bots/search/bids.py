"""A hand's worth as declarer before it holds the talon, which the auction, the dark bid, the
talon buy-out and the two-player talon choice all ask: in each sampled deal (talon and
hands) the declarer takes the talon, gives the cards the heuristic ranks best (the best of
a few, solved: the *quick exchanges*) and the deal is solved.  How often does the hand make
each contract, and what does it score?  A bid is worth the contract it leads to: the bid, or
the raise that does best over the deals that share a talon."""

from __future__ import annotations

import random
from collections.abc import Sequence
from itertools import combinations

from thousand.engine.cards import KING, MARRIAGE_MASK, POINTS, QUEEN, Mask, cards_of, marriage_sum
from thousand.engine.deal import contract_choices, next_bid
from thousand.engine.view import View
from thousand.solver import PlayOptions

from ..evaluate import keep_score, predict_play
from ..sampling import Knowledge, World, knowledge, sigmoid, with_talon
from .hand import HandSearch, _discards_due, _n_discards
from .samples import _Budget
from .stakes import _Stakes

#: One decision's contracts valued over its sampled deals: (contract, raised) -> the
#: utility in each deal and the share made (:meth:`BidSearch._contract_samples_at`).  The
#: auction values every bid level, each with the raises above it, and again each step of
#: its ladder for the reason, all from the same deals: a raise to 160 is the same for a
#: bid of 110 as for one of 120, so it is valued once (``benchmarks/bid_memo.py``).
ContractMemo = dict[tuple[int, bool], tuple[list[float], float]]


class BidSearch(HandSearch):
    """The declarer's totals over sampled talons and hands, and a bid's utility from them."""

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
        thr = sorted({b + self.bid_margin(view) for b in bids})
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
        give, disc = _exchange_of(view, d, combo)
        return self._hand_totals_for(view, world, d, give, disc, opts, thresholds)

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
        groups: Sequence[int] | None = None, memo: ContractMemo | None = None,
    ) -> tuple[float, float]:
        """(utility, make chance) of declaring after a bid of ``b``; on the barrel the
        contract is raised to the one that wins (up to ``bid_cap``, always allowed); with
        talon ``groups``, to each group's best contract (:meth:`_raised_samples`).  ``memo``:
        the decision's contracts valued so far (the same ``totals`` and ``hands``)."""
        samples, p = self._bid_samples(view, totals, hands, b, st, groups, memo)
        return sum(samples) / max(1, len(totals)), p

    def _bid_samples(
        self, view: View, totals: Sequence[int], hands: Sequence[Mask], b: int, st: _Stakes,
        groups: Sequence[int] | None = None, memo: ContractMemo | None = None,
    ) -> tuple[list[float], float]:
        """:meth:`_bid_utility` per sampled deal (and the make chance); with the deals'
        talon ``groups`` (:meth:`_bid_totals`), each group's best contract from ``b``."""
        out = self._contract_samples_at(view, totals, hands, b, st, memo=memo)
        target = _raise_target(view, st, b)
        if groups:
            return self._raised_samples(view, totals, hands, b, st, groups, out, target, memo)
        if target is not None:
            alt = self._contract_samples_at(view, totals, hands, target, st, memo=memo)
            n = max(1, len(totals))
            if (sum(alt[0]) / n, alt[1]) > (sum(out[0]) / n, out[1]):
                out = alt
        return out

    def _raised_samples(
        self, view: View, totals: Sequence[int], hands: Sequence[Mask], b: int, st: _Stakes,
        groups: Sequence[int], at_bid: tuple[list[float], float], target: int | None,
        memo: ContractMemo | None = None,
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
        raised = {c: self._contract_samples_at(view, totals, hands, c, st, raised=c != target,
                                               memo=memo)[0]
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
        raised: bool = False, memo: ContractMemo | None = None,
    ) -> tuple[list[float], float]:
        """Declaring contract ``c``: the utility in each sampled deal (the declarer's
        ``totals`` with the ``hands`` he kept) and the share of deals made (``raised``:
        a raise above the bid, with the margin of a raise, ``bid_raise_margin``); read
        from ``memo`` when it was valued before in the decision, else kept there (a copy
        each time: the callers may change their list)."""
        key = (c, raised)
        if memo is not None and key in memo:
            kept, share = memo[key]
            return list(kept), share
        found = self._contract_at(view, totals, hands, c, st, raised)
        if memo is not None:
            memo[key] = (list(found[0]), found[1])
        return found

    def _contract_at(
        self, view: View, totals: Sequence[int], hands: Sequence[Mask], c: int, st: _Stakes,
        raised: bool,
    ) -> tuple[list[float], float]:
        """:meth:`_contract_samples_at`, computed."""
        k = self.beta(view) * st.others / (len(view.active) - 1)
        values = view.rules.marriage_values
        out: list[float] = []
        made = 0.0
        for v, h in zip(totals, hands, strict=True):
            held = marriage_sum(h, values)
            p = self.made_chance(view, v, c, raised)
            if p in (0.0, 1.0):
                own = st.made(c, v, held) if p else st.failed(c)
            else:
                own = p * st.made(c, max(v, c), held) + (1.0 - p) * st.failed(c)
            made += p
            out.append(own - k * max(0, 120 + held - v))
        return out, made / max(1, len(totals))

    def made_chance(self, view: View, total: int, c: int, raised: bool = False) -> float:
        """The chance that contract ``c`` is made at the table in a sampled deal where the
        auction's search found the declarer's ``total`` (floored to its thresholds): with
        ``gap_scale`` σ((total + a half step − c − margin) / scale), else 1 or 0 from the
        margin (``bid_margin``; ``bid_raise_margin`` for a raise above the bid)."""
        m = self.config.bid_raise_margin if raised else self.bid_margin(view)
        scale = self.gap_scale(view)
        if not scale:
            return 1.0 if total >= c + m else 0.0
        # the total is floored to the thresholds searched: it lies a step above
        return sigmoid((total + GRID_HALF_STEP - c - m) / scale)


#: half the step of the auction's thresholds (the bid step, 5): where the soft rule reads a
#: sampled deal's total, floored to a threshold, the true one lies about this much above
GRID_HALF_STEP = 2.5


def _exchange_of(
    view: View, d: int, combo: tuple[int, ...]
) -> tuple[tuple[tuple[int, int], ...], Mask]:
    """Declarer ``d``'s exchange of the cards ``combo`` as (gives, discards): discarded
    (``discard_three``, two players), or given to the next seat and the one after, in
    that order."""
    if _discards_due(view):
        disc = 0
        for c in combo:
            disc |= 1 << c
        return (), disc
    act = view.active
    i = act.index(d)
    return ((combo[0], act[(i + 1) % 3]), (combo[1], act[(i + 2) % 3])), 0


def _bid_levels(view: View, low: int, cap: int) -> list[int]:
    """The contracts a bid from ``low`` is valued at (the threshold searches of its
    totals): the first 6 of the ladder up to ``cap``, and with two players every fourth
    above them, so that a strong hand's total, and so the one defender's points (all the
    rest, counted in full against the bid), is not read from a capped value."""
    choices = contract_choices(view.rules, low, max(low, cap))
    return choices[:6] + (choices[6::4] if view.players == 2 else [])


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


def _raise_target(view: View, st: _Stakes, b: int) -> int | None:
    """On the barrel, the contract above the bid ``b`` that wins the game, when a declarer
    may always raise to it (up to ``bid_cap``)."""
    if not st.need or st.need <= b:
        return None
    r = view.rules
    c = max(b, next_bid(r, st.need - 1))  # the lowest contract of the ladder from need
    return c if c <= r.bid_cap else None


def _quick_value(
    rest: Mask, values: Sequence[int], discard: bool, combo: tuple[int, ...],
    ten_strength: str = "high",
) -> float:
    """A cheap value of the hand kept (the heuristic's play model, less what is given)."""
    v = predict_play(rest, values, ten_strength)
    pts = sum(POINTS[c] for c in combo)
    return v + pts if discard else v - 0.5 * pts
