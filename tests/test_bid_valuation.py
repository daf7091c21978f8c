"""What a bid is worth to the search bots and to the analysis: the contract it leads to
(docs/search-bots.md §3), and in the game for two the opponent's bids read by the sampler
(docs/search-bots.md §1)."""

from __future__ import annotations

import random
import statistics
from dataclasses import replace

import pytest

from thousand.analysis.marks import mark_of
from thousand.bots import valuation
from thousand.bots.evaluate import predict_auction
from thousand.bots.sampling import knowledge
from thousand.bots.search import SearchBot, SearchConfig, stakes
from thousand.bots.search.bids import ContractMemo
from thousand.bots.valuation import valuate
from thousand.engine import moves as mv
from thousand.engine.cards import FULL_DECK, cards_of, mask_of, parse_cards
from thousand.engine.game import Game
from thousand.engine.rules import Rules
from thousand.engine.view import View

TWO = Rules.preset_rules("two", max_deals=1)


def _auction_after_100(hand: list[str], seed: int = 0) -> View:
    """Seat 1's view after seat 0's compulsory opening 100 (RULES §2.2), the other hands
    and the talon dealt at random around ``hand``."""
    rng = random.Random(seed)
    mine = mask_of(parse_cards(hand))
    rest = cards_of(FULL_DECK & ~mine)
    rng.shuffle(rest)
    g = Game(Rules(), first_dealer=2, seed=0, auto_deal=False)
    g.start_deal([mask_of(rest[:7]), mine, mask_of(rest[7:14])], mask_of(rest[14:]))
    g.apply(mv.bid(100))
    return g.view(1)


def _two_player_auction(seed: int, moves: list[str]) -> View:
    """The view of the seat to move in a deal for two (RULES §4 "Two players") dealt from
    ``seed``, after ``moves``."""
    rng = random.Random(seed)
    deck = cards_of(FULL_DECK)
    rng.shuffle(deck)
    g = Game(TWO, first_dealer=0, seed=0, auto_deal=False)
    g.start_deal([mask_of(deck[:10]), mask_of(deck[10:20])], mask_of(deck[20:]), (),
                 (mask_of(deck[20:22]), mask_of(deck[22:])))
    for m in moves:
        g.apply(mv.parse_move(m))
    return g.view(g.to_move)


def _marks(view: View, samples: int = 64) -> dict[str, str | None]:
    """Each legal move's mark as the analysis would give it (docs/analysis.md)."""
    val = valuate(view, samples=samples, seed=3)
    out = {}
    for m in val.moves:
        est, low, _ = val.cost(m)
        out[mv.move_str(m)] = mark_of(est, low)
    return out


# ---------------------------------------------------------------- the raise after the talon


def test_a_bids_value_grows_with_the_raise_its_talon_allows() -> None:
    """RULES §2.4: the declarer names his contract, the bid or more, once he holds the
    talon.  A bid of 110 is worth what the best contract makes over the deals that share a
    talon: the higher the totals a talon allows, the more the bid is worth, beyond what the
    bid itself would score."""
    view = _auction_after_100(["AH", "KH", "QH", "KD", "QD", "AS", "9C"])
    assert view.seat == 1
    bot = SearchBot(1, SearchConfig(time_limit=None, min_samples=8, max_samples=8))
    st = stakes(view, 1, bot.config.win_bonus)
    # the hand kept after the exchange: both marriages (cap 120 + 180)
    kept = mask_of(parse_cards(["AH", "KH", "QH", "KD", "QD", "AS", "TS", "9C"]))
    gains = []
    for total in (100, 150, 200, 250):
        totals = [total] * 4 + [60] * 4
        hands = [kept] * 8
        groups = [0] * 4 + [1] * 4
        as_bid = bot._bid_samples(view, totals, hands, 110, st)[0]
        as_contract = bot._bid_samples(view, totals, hands, 110, st, groups)[0]
        # the talon that fails (group 1) is not raised: the same as the bid
        assert as_contract[4:] == as_bid[4:]
        assert all(x >= y for x, y in zip(as_contract, as_bid, strict=True))
        gains.append(as_contract[0] - as_bid[0])
    assert gains == sorted(gains) and gains[0] == 0
    # 250 points make a raise to 250 (a raise needs its contract less 2 in the auction's
    # deals: SearchConfig.bid_raise_margin)
    assert gains[-1] >= 100


def test_one_contract_for_the_deals_that_share_a_talon() -> None:
    """The declarer sees the talon, not the other hands (RULES §2.4): within a group of
    deals with one talon he names one contract, not the best for each deal."""
    view = _auction_after_100(["AH", "KH", "QH", "KD", "QD", "AS", "9C"])
    bot = SearchBot(1, SearchConfig(time_limit=None, min_samples=8, max_samples=8))
    st = stakes(view, 1, bot.config.win_bonus)
    kept = mask_of(parse_cards(["AH", "KH", "QH", "KD", "QD", "AS", "TS", "9C"]))
    totals = [250, 250, 90, 90]
    samples = bot._bid_samples(view, totals, [kept] * 4, 110, st, [0, 0, 0, 0])[0]
    # a raise to 230 would fail half the group (-230 twice): 110 it stays
    assert samples == bot._bid_samples(view, totals, [kept] * 4, 110, st)[0]
    # per deal the two makers would have raised: more than the bid
    alone = bot._bid_samples(view, totals[:2], [kept] * 2, 110, st, [0, 1])[0]
    assert alone[0] > samples[0]


def test_the_decisions_memo_values_each_bid_as_without_it() -> None:
    """The auction values every bid level from one decision's deals, each with its raises
    (``ContractMemo``): shared between the levels, the memo gives each bid the values it
    has alone.  110 as a bid (at ``bid_margin``) and 110 as the raise of a bid of 105 (at
    ``bid_raise_margin``) are two entries: a total of 100 makes the one and not the other."""
    view = _auction_after_100(["AH", "KH", "QH", "KD", "QD", "AS", "9C"])
    bot = SearchBot(1, SearchConfig(time_limit=None, min_samples=8, max_samples=8))
    st = stakes(view, 1, bot.config.win_bonus)
    kept = mask_of(parse_cards(["AH", "KH", "QH", "KD", "QD", "AS", "TS", "9C"]))
    totals = [100, 100, 100, 100, 250, 180, 140, 95, 60, 130, 125, 100]
    hands = [kept] * len(totals)
    groups = [i // 4 for i in range(len(totals))]
    for talons in (groups, None):  # None: each bid valued as itself
        memo: ContractMemo = {}
        for b in (105, 110, 115, 120, 125, 130) * 3:
            shared = bot._bid_samples(view, totals, hands, b, st, talons, memo)
            alone = bot._bid_samples(view, totals, hands, b, st, talons)
            assert shared == alone
            shared[0][0] += 1000  # a caller's change stays its own
    assert memo[(110, False)] != bot._contract_samples_at(view, totals, hands, 110, st, True)


def test_the_soft_rule_scatters_the_table_total_about_the_solvers() -> None:
    """docs/search-bots.md §2: the solver's defenders see every card, the table's do not, so
    with ``gap_scale`` a sampled deal makes a bid with a chance that grows with its total
    (σ((total − bid − margin) / scale)) instead of all at once at the margin.  The chance
    is strictly between 0 and 1 near the margin, grows with the total, and as the scale
    shrinks the rule becomes the hard margin's (``gap_scale`` 0, the levels' rule)."""
    view = _auction_after_100(["AH", "KH", "QH", "KD", "QD", "AS", "9C"])
    kept = mask_of(parse_cards(["AH", "KH", "QH", "KD", "QD", "AS", "TS", "9C"]))
    hard = SearchBot(1, SearchConfig(time_limit=None, min_samples=8, max_samples=8))
    st = stakes(view, 1, hard.config.win_bonus)
    margin = hard.config.bid_margin
    totals = [110 + margin + d for d in (-30, -10, -5, 0, 5, 10, 30)]
    hands = [kept] * len(totals)

    def at(bot: SearchBot) -> tuple[list[float], float]:
        return bot._contract_samples_at(view, totals, hands, 110, st)

    soft = SearchBot(1, replace(hard.config, gap_scale=8.0))
    u_soft, p_soft = at(soft)
    u_hard, p_hard = at(hard)
    assert p_hard == 4 / 7  # made from the margin up
    assert 0 < p_soft < 1
    assert u_soft == sorted(u_soft) and len(set(u_soft)) == len(u_soft)
    # below the margin a soft deal is worth more than a sure failure, above it less
    assert u_soft[1] > u_hard[1] and u_soft[4] < u_hard[4]
    sharp = SearchBot(1, replace(hard.config, gap_scale=0.01))
    u_sharp, p_sharp = at(sharp)
    assert p_sharp == pytest.approx(p_hard)
    assert u_sharp == pytest.approx(u_hard)


def test_two_marriages_and_an_ace_bid_and_a_pass_is_marked() -> None:
    """A hand with both red marriages (180, RULES §2.5) and an ace: bidding is right, and
    passing it is marked, as what the contract it leads to is worth (with the raise)."""
    marks = _marks(_auction_after_100(["AD", "KD", "QD", "KH", "QH", "JS", "9C"]))
    assert marks["105"] is None
    assert marks["pass"] in ("mistake", "blunder")


def test_a_weak_hand_without_marriages_passes() -> None:
    """No marriage, no ace (RULES §2.2: the bid must be made in points taken): passing is
    right and a bid is marked."""
    marks = _marks(_auction_after_100(["9S", "JS", "JC", "9C", "JD", "TH", "9H"]))
    assert marks["pass"] is None
    assert marks["105"] is not None


def test_without_raise_credit_the_strong_hand_was_undervalued() -> None:
    """The measurement's old valuation (``raise_credit=false``) priced the same hand's bid
    at what 105 scores alone: the raise adds tens of points."""
    view = _auction_after_100(["AD", "KD", "QD", "KH", "QH", "JS", "9C"])

    def bid_value(raise_credit: bool) -> float:
        bot = SearchBot(3, replace(valuation.config_for("strong", 48),
                                   raise_credit=raise_credit))
        rng, budget = bot.search_start(view)
        found = bot._auction_phase(view, rng, budget)
        return statistics.mean(found.utils[mv.bid(105)])

    assert bid_value(True) >= bid_value(False) + 30


# ---------------------------------------------------------------------- two players


@pytest.mark.parametrize("seed", [2, 5])
def test_two_player_sampling_reads_the_opponents_bids(seed: int) -> None:
    """RULES §4 "Two players": the opponent who raised to 120 of his own will holds a hand
    worth about that.  The sampler weighs his ten cards by the two-player hand model, so
    the hands it draws for him are stronger than hands drawn ignoring his bids."""
    view = _two_player_auction(seed, ["100", "105", "120"])
    opener = next(s for s in view.active if s != view.seat)

    def mean_worth(soft: bool) -> float:
        worlds = knowledge(view, soft=soft).samples(random.Random(1), 200)
        return statistics.mean(
            predict_auction(w.hands[opener], TWO.marriage_values, TWO.ten_strength, 2)
            for w in worlds)

    assert mean_worth(True) >= mean_worth(False) + 15


@pytest.mark.parametrize("moves", [["100", "105", "110"]])
def test_two_player_bid_over_a_raise_is_not_a_blunder(moves: list[str]) -> None:
    """RULES §4 "Two players": with aces in three suits and the ♥ Q J, bidding on over the
    opponent's 110 is close to passing; it was marked a blunder when the sampler gave the
    opponent any ten cards, as if his 110 were a bluff."""
    view = _two_player_auction(5, moves)
    assert view.seat == 0
    marks = _marks(view, samples=48)
    assert marks["115"] != "blunder"
    assert marks["pass"] != "blunder"
