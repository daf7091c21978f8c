"""Hypothesis plays random legal games under every preset (and option-heavy variants)
and checks the invariants of the rules:

* every card exactly once in every deal, at every step;
* 120 card points a played deal (the declarer's discards included);
* legal moves never empty before the end of the game;
* no view shows a card its seat may not see (RULES §2.3, §4 talon_shown, dark, …);
* deal values as the rules say, and unchanged by the game where no game rule applies;
* undo restores the exact position;
* replaying the dealt cards and moves gives the same game and scores.

``./run test --deep`` plays ten times as many games (tests/depth.py).
"""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, invariant, precondition, rule

from depth import examples
from thousand.engine import moves as mv
from thousand.engine.cards import FULL_DECK, POINTS, points_of, round_points
from thousand.engine.deal import Deal, Phase, view_of
from thousand.engine.game import Game
from thousand.engine.rules import Rules

#: Random games per ruleset (each of up to 12 deals; some start near the barrel).
EXAMPLES = examples(100, 1000)

RULESETS: dict[str, Rules] = {
    "classic": Rules.preset_rules("classic", max_deals=12),
    "dealer-opens": Rules.preset_rules("dealer-opens", max_deals=12),
    "house": Rules.preset_rules("house", max_deals=12),
    "textbook": Rules.preset_rules("textbook", max_deals=12),
    "casual": Rules.preset_rules("casual", max_deals=12),
    "house-4": Rules.preset_rules(
        "house", players=4, golden_deals=True, golden_restart=True, redeal_after_exchange=True,
        redeal_weak_hand=14, redeal_weak_talon_only_at_100=True, max_deals=12,
    ),
    "declarations": Rules.preset_rules(
        "classic", half_marriage=True, ace_marriage=200, ace_marriage_trump=True,
        ace_marriage_all_in_row=True, four_nines_bonus=360, marriage_on_first_lead=True,
        no_lead_own_trump=True, must_overtake=True, marriage_points_declarer_only=True,
        marriage_values={"S": 100, "C": 80, "D": 60, "H": 40}, max_deals=12,
    ),
    "penalties": Rules.preset_rules(
        "dealer-opens", min_score_to_bid=-120, talon_shown="not_at_100",
        concede_opponents_get="half_contract", concede_limit=3, concede_penalty_every=2,
        bolts="three_in_a_row", bolt_samosval=True, bolt_means="no_points",
        barrel_simultaneous_fall=True, barrel_knock_off=True, barrel_falls_reset=2,
        barrel_reset_score=5, no_barrel_after_reset=True, samosval=(555, -555),
        penalty=100, win_strict=True, round_declarer_before_compare=True, rounding=10,
        max_deals=12,
    ),
    # The rules the seeds state that came later (RULES §1, §4 new rows): all at once.
    "seeds": Rules.preset_rules(
        "classic", first_bidder="dealer", opening_bid="exactly_100", bid_jumps=False,
        bid_step=15, ten_strength="natural", must_overtake=True, talon_buy=True, dark=True,
        dark_doubles="all", concede=True, concede_declarer_loses="half",
        concede_opponents_get="aces", concede_on_barrel=False, cut_nines=True, barrel=900,
        barrel_score="kept", barrel_deals=None, max_deals=12,
    ),
    "buyout-4": Rules.preset_rules(
        "textbook", talon_buy=True, dark_talon_shown=True, dark_doubles="all",
        concede_declarer_loses="half", concede_opponents_get="half_contract", max_deals=12,
    ),
    "dark-taken": Rules.preset_rules(
        "casual", dark=True, dark_marriages_doubled=False, dark_outbid_needs_marriage=False,
        dark_talon_shown=False, golden_deals=True, max_deals=12,
    ),
}

#: Two players (RULES §4 "Two players"): the preset alone and mixed with the options that
#: apply to two.  Fewer examples than the rulesets above (TWO_EXAMPLES): seconds, not minutes.
TWO_RULESETS: dict[str, Rules] = {
    "two": Rules.preset_rules("two", max_deals=8),
    "two-dark-golden": Rules.preset_rules(
        "two", dark=True, dark_doubles="all", dark_talon_shown=False, golden_deals=True,
        golden_restart=True, max_deals=8,
    ),
    "two-concede": Rules.preset_rules(
        "two", concede=True, concede_opponents_get="half_contract",
        concede_declarer_loses="half", talon_shown="not_at_100", max_deals=8,
    ),
    "two-concede-aces": Rules.preset_rules(
        "two", concede=True, concede_opponents_get="aces", concede_declarer_loses=False,
        declarer_scores="taken", max_deals=8,
    ),
    "two-play": Rules.preset_rules(
        "two", must_overtake=True, ten_strength="natural", half_marriage=True,
        ace_marriage=200, four_nines_bonus=360, no_lead_own_trump=True,
        marriage_on_first_lead=True, marriage_points_declarer_only=True, max_deals=8,
    ),
    "two-house": Rules.preset_rules(
        "house", players=2, redeal_weak_talon=False, cut_nines=True, first_bidder="dealer",
        redeal_weak_hand=40, redeal_after_exchange=True, bolts="three_in_a_row",
        bolt_means="no_points", barrel_knock_off=True, barrel_falls_reset=2, max_deals=8,
    ),
}
TWO_EXAMPLES = max(EXAMPLES // 20, 10)

# Random play rarely climbs the barrel or reaches 1000; starting some games near
# the barrel makes the barrel, knock-off and win rules run too.
START_SCORES = st.sampled_from([None, (860, 870, 0), (880, 600, 840), (990, 975, -540)])


# ------------------------------------------------------------------ the oracles


def allowed_cards(deal: Deal, seat: int | None) -> int:
    """What ``seat`` may have seen, worked out from the rules, not from the view code."""
    r = deal.rules
    played = 0
    for t in deal.tricks:
        for _, c in t.cards:
            played |= 1 << c
    for c in deal.trick:
        played |= 1 << c
    m = played
    d = deal.declarer
    dark_hidden = deal.dark_standing and deal.phase in (Phase.DARK_CHOICE, Phase.AUCTION)
    # The cut (RULES §4 "The cut"): nines and a jack are shown to all; the dealer alone sees
    # any other card, which lies at the bottom of the deck, in the talon.
    for c in deal.ctx.cut:
        if c % 6 in (0, 1) or seat == deal.ctx.dealer:
            m |= 1 << c
    if seat is not None:
        # The dark seat sees nothing of his hand before his first turn (RULES §4 dark).
        before_first_turn = (
            deal.ctx.dark_allowed and seat == deal.ctx.dark_seat
            and not (deal.acted >> seat) & 1
            and (deal.phase == Phase.DARK_CHOICE
                 or (deal.phase == Phase.AUCTION and deal.to_move != seat))
        )
        if not before_first_turn and not (dark_hidden and seat == deal.dark_bidder):
            m |= deal.hands[seat]
    if d >= 0:
        shown = not (r.talon_shown == "not_at_100" and deal.bid == 100)
        if deal.dark_standing and not r.dark_talon_shown:
            shown = False
        sees_talon = shown or seat == d or (
            deal.dark_standing and not r.dark_talon_shown and deal.players == 4
            and seat == deal.ctx.dealer
        )
        if sees_talon:
            m |= deal.talon
        if seat == d:
            m |= deal.discards
            for c, _ in deal.given:
                m |= 1 << c
        for c, to in deal.given:
            if seat == to:
                m |= 1 << c
    if deal.players == 2 and deal.phase == Phase.DONE and deal.talon_choice >= 0:
        # Two players: the talon not chosen is turned over for all when the deal ends
        # (RULES §4 "Two players" 3), never before.
        m |= deal.ctx.talons[1 - deal.talon_choice]
    return m


def check_cards_once(deal: Deal) -> None:
    seen = 0
    total = 0
    parts = [*deal.hands, deal.discards]
    if deal.players == 2:
        # two players: both talons lie apart until one is chosen, the other until the end
        parts.extend(t for i, t in enumerate(deal.ctx.talons) if i != deal.talon_choice)
    elif deal.declarer < 0:
        parts.append(deal.talon)
    for t in deal.tricks:
        parts.extend(1 << c for _, c in t.cards)
    parts.extend(1 << c for c in deal.trick)
    for p in parts:
        assert seen & p == 0, "a card is in two places"
        seen |= p
        total += p.bit_count()
    assert seen == FULL_DECK and total == 24, "every card exactly once"


def check_views(deal: Deal) -> None:
    for seat in (*range(deal.players), None):
        v = view_of(deal, seat)
        allowed = allowed_cards(deal, seat)
        leaked = v.visible_cards() & ~allowed
        assert leaked == 0, f"seat {seat} sees cards it may not see: {leaked:b}"
        for other in range(deal.players):
            if other != seat:
                hidden = deal.hands[other] & ~allowed
                assert v.visible_cards() & hidden == 0
        if seat is not None and seat == deal.to_move and not deal.done:
            assert list(v.legal) == deal.legal_moves()
        if seat != deal.declarer:
            assert v.discards is None


def check_result(deal: Deal) -> None:
    res = deal.result
    assert res is not None
    r = deal.rules
    if res.outcome != "played":
        assert all(p == 0 for p in res.points)
        if res.outcome == "conceded":
            check_concede(deal)
        return
    assert deal.declarer >= 0
    # two players: the unchosen talon's points are the defender's (RULES §4 "Two players" 3)
    unchosen = points_of(deal.unchosen_talon)
    assert (deal.players == 2) == (deal.talon_choice >= 0)
    card_points = sum(deal.taken) + points_of(deal.discards) + unchosen
    assert card_points == 120, "120 card points a deal"
    assert sum(t.points for t in deal.tricks) + points_of(deal.discards) + unchosen == 120
    assert sum(res.points) == 120 + sum(deal.bonus)
    assert len(deal.tricks) == deal.n_tricks
    mult = 2 if res.golden else 1
    # dark_doubles=all: every deal value of a dark deal doubles (RULES §7 Dark doubling)
    others = mult * (2 if res.dark and r.dark_doubles == "all" else 1)
    for s in deal.opponents():
        assert res.values[s] == others * round_points(res.points[s], r.rounding)
    d = deal.declarer
    if not res.made:
        assert res.values[d] == -mult * res.contract * (2 if res.dark else 1)  # type: ignore[operator]
    elif r.declarer_scores == "contract":
        assert res.values[d] == mult * res.contract * (2 if res.dark else 1)  # type: ignore[operator]


def check_concede(deal: Deal) -> None:
    """RULES §4 concede_declarer_loses / concede_opponents_get, §7: a dark deal is never
    conceded; half a contract is rounded up to a whole number, then with `rounding`."""
    res = deal.result
    assert res is not None and not res.dark
    r = deal.rules
    c = res.contract
    assert c is not None and c == deal.bid
    half = round_points(-(-c // 2), r.rounding)
    lose = {True: c, False: 0, "half": half}[r.concede_declarer_loses]
    get = r.concede_opponents_get
    if get == "aces":
        pay = 11 * sum(1 for suit in range(4) if deal.hands[deal.declarer] >> (suit * 6 + 5) & 1)
    elif get == "half_contract":
        pay = half
    else:
        pay = int(get)
    mult = 2 if res.golden else 1
    assert res.values[deal.declarer] == -lose * mult
    for s in deal.opponents():
        assert res.values[s] == pay * mult


# ------------------------------------------------------------------ whole games


def play_game(rules: Rules, rng: random.Random, start: tuple[int, ...] | None, views: bool) -> Game:
    g = Game(rules, seed=rng.randrange(2**32))
    if start is not None:
        for seat, score in enumerate(start[: g.n]):
            g.seats[seat].score = score
            g.seats[seat].on_barrel = rules.barrel is not None and rules.barrel <= score < 1000
    steps = 0
    while not g.over:
        deal = g.deal
        assert deal is not None
        legal = g.legal_moves()
        assert legal, f"no legal move in phase {deal.phase.name}"
        if views:
            check_views(deal)
        check_cards_once(deal)
        move = rng.choice(legal)
        before = len(g.summaries)
        g.apply(move)
        if len(g.summaries) > before:
            summary = g.summaries[-1]
            if summary.result.outcome != "redeal":
                check_result(deal)
            if not summary.events and not any(s.on_barrel for s in g.seats) and (
                summary.result.outcome != "redeal"
            ):
                changes = summary.changes
                if all(sc < 880 for sc in summary.scores) and start is None:
                    assert changes == summary.result.values, "scores as the deal values say"
        steps += 1
        assert steps < 200_000
    return g


def replay_same(g: Game) -> None:
    """Replaying the dealt cards and moves gives the same game (RULES §6)."""
    h = Game(g.rules, players=g.names, first_dealer=g.first_dealer, auto_deal=False)
    for rec in g.records:
        if h.over:
            break
        h.start_deal(rec.hands, rec.talon, rec.cut, rec.talons)
        for m in rec.moves:
            h.apply(m)
    assert h.scores == g.scores
    assert h.winner == g.winner
    assert [s.changes for s in h.summaries] == [s.changes for s in g.summaries]


@pytest.mark.parametrize("name", sorted(RULESETS))
@settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1), start=START_SCORES)
def test_random_games_keep_the_invariants(
    name: str, seed: int, start: tuple[int, ...] | None
) -> None:
    rules = RULESETS[name]
    g = play_game(rules, random.Random(seed), start, views=False)
    assert g.winner is not None
    if start is None:
        replay_same(g)


@pytest.mark.parametrize("name", sorted(TWO_RULESETS))
@settings(max_examples=TWO_EXAMPLES, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1), start=START_SCORES)
def test_random_two_player_games_keep_the_invariants(
    name: str, seed: int, start: tuple[int, ...] | None
) -> None:
    """RULES §4 "Two players": every card once, 120 points a played deal (tricks, discards
    and the unchosen talon), legal moves never empty, no view showing a hidden card (the
    unchosen talon before the end), and the record replaying the same game."""
    g = play_game(TWO_RULESETS[name], random.Random(seed), start, views=True)
    assert g.winner is not None
    if start is None:
        replay_same(g)


@pytest.mark.parametrize("name", sorted(RULESETS))
@settings(max_examples=max(EXAMPLES // 5, 20), deadline=None)
@given(seed=st.integers(0, 2**32 - 1))
def test_no_view_shows_a_hidden_card(name: str, seed: int) -> None:
    rules = RULESETS[name]
    play_game(Rules.from_json({**rules.to_json(), "max_deals": 3}), random.Random(seed), None,
              views=True)


# ------------------------------------------------------------------ apply / undo


class DealMachine(RuleBasedStateMachine):
    """Random moves and take-backs in one deal: undo must restore the exact position."""

    def __init__(self) -> None:
        super().__init__()
        self.deal: Deal | None = None
        self.snapshots: list[tuple[object, ...]] = []

    @rule(name=st.sampled_from(sorted({**RULESETS, **TWO_RULESETS})),
          seed=st.integers(0, 2**32 - 1))
    @precondition(lambda self: self.deal is None)
    def new_deal(self, name: str, seed: int) -> None:
        g = Game({**RULESETS, **TWO_RULESETS}[name], seed=seed)
        assert g.deal is not None
        self.deal = g.deal
        self.snapshots = [self.state()]

    def state(self) -> tuple[object, ...]:
        d = self.deal
        assert d is not None
        return (tuple(d.hands), d.phase, d.to_move, tuple(d.history), tuple(d.taken),
                tuple(d.bonus), d.trump, d.declarer, d.contract, tuple(d.legal_moves()),
                view_of(d, d.to_move), view_of(d, None))

    @rule(pick=st.integers(0, 1000))
    @precondition(lambda self: self.deal is not None and not self.deal.done)
    def move(self, pick: int) -> None:
        assert self.deal is not None
        legal = self.deal.legal_moves()
        self.deal.apply(legal[pick % len(legal)])
        self.snapshots.append(self.state())

    @rule(k=st.integers(1, 5))
    @precondition(lambda self: self.deal is not None and len(self.snapshots) > 1)
    def undo(self, k: int) -> None:
        assert self.deal is not None
        for _ in range(min(k, len(self.snapshots) - 1)):
            self.deal.undo()
            self.snapshots.pop()
        assert self.state() == self.snapshots[-1]

    @invariant()
    def cards_once(self) -> None:
        if self.deal is not None:
            check_cards_once(self.deal)


DealMachine.TestCase.settings = settings(
    max_examples=max(EXAMPLES // 6, 20), stateful_step_count=60, deadline=None
)
test_apply_undo = DealMachine.TestCase


def test_points_table_sums_to_120() -> None:
    """RULES §1: 30 points a suit, 120 in the deck."""
    assert sum(POINTS) == 120 and points_of(FULL_DECK) == 120


def test_illegal_move_never_changes_the_deal() -> None:
    """Bad input gets a clear error and never corrupts a game."""
    rng = random.Random(3)
    for _ in range(50):
        g = Game(RULESETS["declarations"], seed=rng.randrange(10**6))
        while not g.over:
            deal = g.deal
            assert deal is not None
            legal = set(g.legal_moves())
            wrong = [m for m in (mv.PASS, mv.bid(100), mv.bid(300), mv.CONCEDE, mv.REDEAL,
                                 mv.give(0), mv.play(5), mv.play(5, True), mv.contract(500))
                     if m not in legal]
            before = (tuple(deal.hands), tuple(deal.history), deal.phase)
            for m in wrong[:3]:
                try:
                    g.apply(m)
                except ValueError as e:
                    assert str(e)
                else:
                    raise AssertionError(f"{mv.move_str(m)} was accepted")
                assert (tuple(deal.hands), tuple(deal.history), deal.phase) == before
            g.apply(rng.choice(sorted(legal)))
            if len(g.summaries) > 3:
                break
