"""Rules tests for the game around the deals: RULES §3, the game options of §4, §7.

Most tests feed the game a deal's result (what the deal engine computes, tested in
test_rules_deal.py) and check what the game's scoring makes of it; a few play real
deals through the engine.  Each test names the rule it checks.
"""

from __future__ import annotations

from typing import Any

import pytest

from thousand.engine import moves as mv
from thousand.engine.cards import mask_of, parse_cards
from thousand.engine.deal import DealResult, Phase
from thousand.engine.game import DealSummary, Game
from thousand.engine.rules import Rules


def new_game(preset: str = "classic", seed: int = 1, **overrides: Any) -> Game:
    return Game(Rules.preset_rules(preset, **overrides), first_dealer=0, seed=seed, auto_deal=False)


def set_scores(g: Game, *scores: int, barrel: tuple[int, ...] = ()) -> None:
    for seat, score in enumerate(scores):
        g.seats[seat].score = score
        g.seats[seat].on_barrel = seat in barrel


def finish(
    g: Game,
    declarer: int | None,
    values: tuple[int, ...],
    *,
    made: bool | None = True,
    contract: int | None = 120,
    outcome: str = "played",
    tricks: tuple[int, ...] | None = None,
    points: tuple[int, ...] | None = None,
    redeal_by: int | None = None,
) -> DealSummary:
    """Deal the next deal (random cards) and end it with the given result."""
    deal = g.start_deal()
    ctx = deal.ctx
    n = g.n
    res = DealResult(
        outcome=outcome,
        declarer=declarer,
        bid=contract,
        contract=contract,
        made=made,
        dark=False,
        golden=ctx.golden,
        points=points if points is not None else tuple(max(v, 0) for v in values),
        tricks=tricks if tricks is not None else (3,) * n,
        values=values,
        redeal_by=redeal_by,
        active=ctx.active,
        dealer=ctx.dealer,
    )
    return g.finish_deal(res, ctx)


def kinds(summary: DealSummary, seat: int) -> list[str]:
    return [e.kind for e in summary.events if e.seat == seat]


# ---------------------------------------------------------------- §3 win and end


def test_win_first_to_1000() -> None:
    """RULES §3 Win: the first to reach 1000 wins."""
    g = new_game(barrel=None)
    set_scores(g, 900, 0, 0)
    finish(g, 0, (100, 10, 10), contract=100)
    assert g.over and g.winner == 0 and g.scores[0] == 1000


def test_two_reach_1000_declarer_wins() -> None:
    """RULES §3/§7 Win: if two reach 1000 in one deal, the declarer wins."""
    g = new_game(barrel=None)
    set_scores(g, 950, 900, 0)
    finish(g, 1, (60, 120, 0), contract=120)
    assert g.over and g.winner == 1


def test_two_reach_1000_higher_score_wins_without_declarer() -> None:
    """RULES §3/§7 Win: if the declarer is not one of them, the higher score wins."""
    g = new_game(barrel=None)
    set_scores(g, 950, 960, 0)
    finish(g, 2, (60, 60, -120), made=False)
    assert g.over and g.winner == 1 and g.scores[:2] == (1010, 1020)


def test_two_reach_1000_equal_scores_share() -> None:
    """RULES §7 Win: equal scores share the win."""
    g = new_game(barrel=None)
    set_scores(g, 950, 950, 0)
    finish(g, 2, (60, 60, -120), made=False)
    assert g.over and g.winner == [0, 1]


def test_win_strict_needs_more_than_1000() -> None:
    """RULES §4 win_strict: exactly 1000 is not a win; more than 1000 is."""
    g = new_game(barrel=None, win_strict=True)
    set_scores(g, 900, 0, 0)
    finish(g, 0, (100, 0, 0), contract=100)
    assert not g.over
    finish(g, 1, (5, -100, 0), made=False, contract=100)
    assert g.over and g.winner == 0


def test_max_deals_leader_wins() -> None:
    """RULES §3: after 200 deals (max_deals) the game ends and the leader wins."""
    g = new_game(max_deals=3)
    for _ in range(2):
        finish(g, 0, (100, 10, 20), contract=100)
    assert not g.over
    finish(g, 0, (100, 10, 20), contract=100)
    assert g.over and g.winner == 0


def test_max_deals_equal_leaders_share() -> None:
    """RULES §3 (decision): equal leaders after max_deals share the win."""
    g = new_game(max_deals=1)
    finish(g, 0, (-100, 50, 50), made=False, contract=100)
    assert g.winner == [1, 2]


def test_max_deals_none_never_ends_by_count() -> None:
    """RULES §4 max_deals=none: the game goes on until someone reaches 1000."""
    g = new_game(max_deals=None)
    for _ in range(250):
        finish(g, 0, (-100, 0, 0), made=False, contract=100)
    assert not g.over


def test_scores_may_go_negative() -> None:
    """RULES §3: scores may go negative."""
    g = new_game()
    finish(g, 0, (-120, 60, 60), made=False)
    assert g.scores[0] == -120


def test_settlement_losers_owe_points_lacking() -> None:
    """RULES §4/§7 settlement: each loser owes the winner what he lacks to 1000."""
    g = new_game("dealer-opens", barrel=None)
    set_scores(g, 900, 400, -50)
    finish(g, 0, (120, 30, 20))
    assert g.winner == 0
    assert g.settlement() == [0, 570, 1030]


def test_settlement_none_for_shared_win() -> None:
    """RULES §7 Settlement: null for a shared win."""
    g = new_game(max_deals=1, settlement=True)
    finish(g, 0, (-100, 50, 50), made=False, contract=100)
    assert g.settlement() is None


# ---------------------------------------------------------------- dealing


def test_dealer_moves_clockwise_and_left_of_dealer_opens() -> None:
    """RULES §2: the dealer moves one seat clockwise each deal; left of him opens."""
    g = new_game()
    assert g.dealer == 0 and g.opener() == 1
    finish(g, 0, (100, 0, 0), contract=100)
    assert g.dealer == 1 and g.opener() == 2
    deal = g.start_deal()
    assert deal.ctx.opener == 2 and deal.to_move == 2


def test_first_bidder_dealer() -> None:
    """RULES §4 first_bidder=dealer (seed 002): the dealer opens the auction."""
    g = new_game("dealer-opens")
    assert g.start_deal().ctx.opener == g.dealer == 0


def test_four_players_dealer_sits_out() -> None:
    """RULES §4 players=4: the dealer sits out the deal (dealt no cards)."""
    g = new_game("textbook")
    deal = g.start_deal()
    assert deal.hands[0] == 0 and 0 not in deal.active
    assert all(deal.hands[s].bit_count() == 7 for s in deal.active)


def test_sitting_dealer_can_win() -> None:
    """RULES §7 Sitting-out dealer: reaching the win score with the talon wins like anyone."""
    g = new_game("textbook", barrel=None)
    set_scores(g, 990, 0, 0, 0)
    finish(g, 1, (10, 100, 10, 10), contract=100)
    assert g.over and g.winner == 0


def test_sitting_dealer_never_bolts() -> None:
    """RULES §7 Sitting-out dealer: he never bolts."""
    g = new_game("textbook", bolts="every_3rd")
    for _ in range(4):
        g.dealer = 0
        s = finish(g, 1, (0, 100, 10, 10), contract=100, tricks=(0, 5, 1, 1))
        assert "bolt" not in kinds(s, 0)
    assert g.seats[0].bolts == 0


def test_redeal_same_dealer_and_not_counted_as_a_deal() -> None:
    """RULES §6 (decision): after a redeal the same dealer deals again; a redeal is
    not a deal for max_deals."""
    g = new_game("house", max_deals=5)
    finish(g, None, (0, 0, 0), outcome="redeal", made=None, contract=None, redeal_by=1)
    assert g.dealer == 0 and g.deals_played == 0


def test_redeal_penalty_after_three_in_a_row() -> None:
    """RULES §4 redeal_penalty_after=3 (house): three redeals in a row cost the dealer −penalty."""
    g = new_game("house")
    for i in range(3):
        s = finish(g, None, (0, 0, 0), outcome="redeal", made=None, contract=None, redeal_by=1)
        if i < 2:
            assert g.scores == (0, 0, 0)
    assert g.scores == (-120, 0, 0) and kinds(s, 0) == ["redeal_penalty"]


def test_redeal_streak_broken_by_a_played_deal() -> None:
    """RULES §4 redeal_penalty_after: only redeals in a row count."""
    g = new_game("house")
    for _ in range(2):
        finish(g, None, (0, 0, 0), outcome="redeal", made=None, contract=None, redeal_by=1)
    finish(g, 1, (0, 100, 10), contract=100)
    g.dealer = 0
    for _ in range(2):
        finish(g, None, (0, 0, 0), outcome="redeal", made=None, contract=None, redeal_by=1)
    assert g.scores[0] == 0


def test_cut_three_nines_cost_the_cutter() -> None:
    """RULES §4 cut_nines: three nines at the cut cost the cutter (left of the dealer) −penalty."""
    g = new_game("dealer-opens")
    deal = g.start_deal()
    ctx = deal.ctx
    from dataclasses import replace

    ctx = replace(ctx, cut=tuple(parse_cards(["9S", "9H", "9D", "KC"])))
    res = DealResult("played", 0, 100, 100, True, False, False, (100, 10, 10), (6, 1, 1),
                     (100, 10, 10), None, ctx.active, ctx.dealer)
    s = g.finish_deal(res, ctx)
    assert kinds(s, 1) == ["cut_penalty"] and g.scores == (100, -110, 10)


def test_random_cut_has_nines_then_a_card() -> None:
    """RULES §4 "The cut": a nine is shown and the deck cut again; after three nines the deck
    stays as it lies; otherwise one other card is seen; after a jack nothing more.  The last
    card seen, unless a jack, lies at the bottom: it is a talon card (§6)."""
    endings = set()
    for seed in range(400):
        g = new_game("dealer-opens", seed=seed)
        _hands, talon, cut, _talons = g.random_cards()
        nines = 0
        while nines < len(cut) and cut[nines] % 6 == 0:
            nines += 1
        assert (nines == 3 and len(cut) == 3) or (nines < 3 and len(cut) == nines + 1)
        last = cut[-1]
        if last % 6 != 1:
            assert talon >> last & 1
        endings.add("jack" if last % 6 == 1 else "nine" if nines == 3 else "card")
        g.check_cut(cut, talon)  # what the game deals, the record check accepts
    assert endings >= {"jack", "card"}


# ---------------------------------------------------------------- barrel


def test_barrel_climb_sets_880() -> None:
    """RULES §3 Barrel: a score from 880 to 999 is set to 880 and he sits on the barrel."""
    g = new_game()
    set_scores(g, 850, 0, 0)
    s = finish(g, 1, (50, 100, 10), contract=100)
    assert g.scores[0] == 880 and g.seats[0].on_barrel and "barrel_on" in kinds(s, 0)


def test_barrel_nothing_recorded_as_defender() -> None:
    """RULES §3 Barrel: while on it, nothing is recorded for him as a defender."""
    g = new_game()
    set_scores(g, 880, 0, 0, barrel=(0,))
    finish(g, 1, (50, 100, 10), contract=100)
    assert g.scores[0] == 880


def test_barrel_made_contract_reaching_1000_wins() -> None:
    """RULES §3 Barrel: at 880 a made contract of 120 or more wins."""
    g = new_game()
    set_scores(g, 880, 0, 0, barrel=(0,))
    finish(g, 0, (120, 0, 0))
    assert g.over and g.winner == 0 and g.scores[0] == 1000


def test_barrel_made_contract_short_of_1000_records_nothing() -> None:
    """RULES §3 Barrel: a made contract that does not bring him to 1000 is not recorded."""
    g = new_game()
    set_scores(g, 880, 0, 0, barrel=(0,))
    finish(g, 0, (100, 0, 0), contract=100)
    assert g.scores[0] == 880 and g.seats[0].on_barrel and not g.over


def test_barrel_three_deals_then_minus_120() -> None:
    """RULES §3 Barrel: after the third deal without a win he gets −120 (760) and leaves."""
    g = new_game()
    set_scores(g, 850, 0, 0)
    finish(g, 1, (50, 100, 10), contract=100)  # climbs on
    for i in range(3):
        s = finish(g, 1, (0, 100, 10), contract=100)
        if i < 2:
            assert g.seats[0].on_barrel and g.scores[0] == 880
    assert g.scores[0] == 760 and not g.seats[0].on_barrel
    assert "barrel_timeout" in kinds(s, 0) and g.seats[0].falls == 1


def test_barrel_deals_none_sits_until_win_or_fail() -> None:
    """RULES §4 barrel_deals=none: he sits until he wins or fails a contract."""
    g = new_game(barrel_deals=None)
    set_scores(g, 880, 0, 0, barrel=(0,))
    for _ in range(10):
        finish(g, 1, (0, 100, 10), contract=100)
    assert g.seats[0].on_barrel and g.scores[0] == 880


def test_barrel_failed_contract_subtracted_and_leaves() -> None:
    """RULES §3/§7 Barrel: a failed contract on the barrel is subtracted (880 − contract)
    and he leaves at once; that counts as a fall."""
    g = new_game()
    set_scores(g, 880, 0, 0, barrel=(0,))
    s = finish(g, 0, (-120, 30, 30), made=False)
    assert g.scores[0] == 760 and not g.seats[0].on_barrel
    assert "fall" in kinds(s, 0) and g.seats[0].falls == 1


def test_barrel_jump_from_below_wins() -> None:
    """RULES §3 Barrel: a player may win by jumping from below 880 to 1000 in one deal."""
    g = new_game()
    set_scores(g, 870, 0, 0)
    finish(g, 0, (140, 0, 0), contract=140)
    assert g.over and g.winner == 0


def test_barrel_several_sit_at_once_in_classic() -> None:
    """RULES §3 Barrel: in classic several players may sit at once."""
    g = new_game()
    set_scores(g, 880, 850, 0, barrel=(0,))
    finish(g, 2, (0, 40, 100), contract=100)
    assert g.seats[0].on_barrel and g.seats[1].on_barrel


@pytest.mark.parametrize("barrel", [850, 900])
def test_barrel_value_option(barrel: int) -> None:
    """RULES §4 barrel: 850 or 900 instead of 880."""
    g = new_game(barrel=barrel)
    set_scores(g, barrel - 10, 0, 0)
    finish(g, 1, (40, 100, 10), contract=100)
    assert g.scores[0] == barrel and g.seats[0].on_barrel


def test_no_barrel() -> None:
    """RULES §4 barrel=none: scores between 880 and 999 stand."""
    g = new_game(barrel=None)
    set_scores(g, 850, 0, 0)
    finish(g, 1, (100, 100, 10), contract=100)
    assert g.scores[0] == 950 and not g.seats[0].on_barrel


def test_knock_off_pushes_the_sitter_off() -> None:
    """RULES §4 barrel_knock_off: a player climbing on pushes the sitter off (−penalty)."""
    g = new_game(barrel_knock_off=True)
    set_scores(g, 880, 850, 0, barrel=(0,))
    s = finish(g, 1, (0, 100, 10), contract=100)
    assert g.seats[1].on_barrel and g.scores[1] == 880
    assert not g.seats[0].on_barrel and g.scores[0] == 760 and "knocked_off" in kinds(s, 0)


def test_knock_off_several_climb_declarer_stays() -> None:
    """RULES §7 Barrel: if several climb in one deal, the declarer stays, the others fall."""
    g = new_game(barrel_knock_off=True)
    set_scores(g, 850, 850, 0)
    finish(g, 1, (40, 100, 10), contract=100)
    assert g.seats[1].on_barrel and g.scores[1] == 880
    assert not g.seats[0].on_barrel and g.scores[0] == 760


def test_knock_off_several_climb_higher_score_stays() -> None:
    """RULES §7 Barrel: else the one with the higher score before the cap stays."""
    g = new_game(barrel_knock_off=True)
    set_scores(g, 850, 850, 0)
    finish(g, 2, (40, 60, 100), contract=100)
    assert g.seats[1].on_barrel and g.scores[0] == 760


def test_knock_off_tie_first_clockwise_from_declarer_stays() -> None:
    """RULES §7 Barrel: else the first clockwise from the declarer stays."""
    g = new_game(barrel_knock_off=True)
    set_scores(g, 850, 850, 0)
    finish(g, 2, (40, 40, 100), contract=100)
    assert g.seats[0].on_barrel and g.scores[1] == 760


def test_simultaneous_climbers_all_fall() -> None:
    """RULES §4 barrel_simultaneous_fall: two reaching the barrel in one deal both fall."""
    g = new_game(barrel_simultaneous_fall=True)
    set_scores(g, 850, 850, 0)
    finish(g, 2, (40, 40, 100), contract=100)
    assert g.scores[:2] == (760, 760) and not any(s.on_barrel for s in g.seats)


def test_third_fall_resets_score() -> None:
    """RULES §4 barrel_falls_reset=3: every third fall sets the score to barrel_reset_score."""
    g = new_game(barrel_falls_reset=3)
    g.seats[0].falls = 2
    set_scores(g, 880, 0, 0, barrel=(0,))
    s = finish(g, 0, (-120, 30, 30), made=False)
    assert g.scores[0] == 0 and g.seats[0].falls == 3 and "fall_reset" in kinds(s, 0)


def test_third_fall_reset_to_5_and_no_barrel_after() -> None:
    """RULES §4 barrel_reset_score=5, no_barrel_after_reset: he plays on without the barrel."""
    g = new_game(barrel_falls_reset=3, barrel_reset_score=5, no_barrel_after_reset=True)
    g.seats[0].falls = 2
    set_scores(g, 880, 0, 0, barrel=(0,))
    finish(g, 0, (-120, 30, 30), made=False)
    assert g.scores[0] == 5
    g.seats[0].score = 850
    finish(g, 1, (100, 10, 10), contract=100)
    assert g.scores[0] == 950 and not g.seats[0].on_barrel


def test_dark_not_allowed_while_anyone_sits_on_barrel() -> None:
    """RULES §4 dark: not allowed while anyone sits on the barrel."""
    g = new_game("house", golden_deals=False)
    set_scores(g, 0, 880, 0, barrel=(1,))
    assert not g.start_deal().ctx.dark_allowed
    g2 = new_game("house", golden_deals=False)
    assert g2.start_deal().ctx.dark_allowed


def test_dark_min_score() -> None:
    """RULES §4 dark_min_score: no dark below it (house: not while in the minus)."""
    g = new_game("house", golden_deals=False)
    set_scores(g, 0, -5, 0)
    assert not g.start_deal().ctx.dark_allowed
    g2 = new_game("house", golden_deals=False)
    set_scores(g2, 0, 0, 0)
    assert g2.start_deal().ctx.dark_allowed


def test_min_score_to_bid_bars_players() -> None:
    """RULES §4 min_score_to_bid: a player at or below it must pass."""
    g = new_game(min_score_to_bid=-120)
    set_scores(g, 0, -120, -100)
    ctx = g.start_deal().ctx
    assert ctx.barred == frozenset({1})
    assert g.legal_moves() == [mv.PASS]


# ---------------------------------------------------------------- bolts


def bolt_deal(g: Game, seat: int = 2) -> DealSummary:
    """A played deal where ``seat`` (a defender) takes no trick."""
    tricks = [4, 4, 4]
    tricks[seat] = 0
    vals = [100, 20, 20]
    vals[seat] = 0
    g.dealer = 2
    return finish(g, 0, tuple(vals), contract=100, tricks=tuple(tricks))


def test_bolt_every_third_costs_penalty() -> None:
    """RULES §4 bolts=every_3rd: every third bolt costs −penalty."""
    g = new_game(bolts="every_3rd")
    bolt_deal(g)
    finish(g, 0, (100, 10, 10), contract=100)  # breaks a streak, not the count
    bolt_deal(g)
    assert g.scores[2] == 10
    s = bolt_deal(g)
    assert g.scores[2] == 10 - 120 and "bolt_penalty" in kinds(s, 2)


def test_bolt_three_in_a_row() -> None:
    """RULES §4 bolts=three_in_a_row: only three bolts in a row cost the penalty."""
    g = new_game(bolts="three_in_a_row")
    bolt_deal(g)
    bolt_deal(g)
    finish(g, 0, (100, 10, 10), contract=100)
    bolt_deal(g)
    bolt_deal(g)
    assert g.scores[2] == 10
    bolt_deal(g)
    assert g.scores[2] == 10 - 120


def test_bolt_every_fifth() -> None:
    """RULES §4 bolts=every_5th."""
    g = new_game(bolts="every_5th")
    for _ in range(4):
        bolt_deal(g)
    assert g.scores[2] == 0
    bolt_deal(g)
    assert g.scores[2] == -120


def test_bolt_means_no_points() -> None:
    """RULES §4 bolt_means=no_points: a trick of no points is still a bolt."""
    g = new_game(bolts="every_3rd", bolt_means="no_points")
    for _ in range(3):
        g.dealer = 2
        finish(g, 0, (100, 20, 0), contract=100, tricks=(5, 2, 1), points=(100, 20, 0))
    assert g.scores[2] == -120
    g2 = new_game(bolts="every_3rd")
    for _ in range(3):
        g2.dealer = 2
        finish(g2, 0, (100, 20, 0), contract=100, tricks=(5, 2, 1), points=(100, 20, 0))
    assert g2.scores[2] == 0


def test_bolt_samosval_three_in_a_row_resets_to_zero() -> None:
    """RULES §4 bolt_samosval: three bolts in a row reset the score to 0."""
    g = new_game(bolt_samosval=True)
    g.seats[2].score = 300
    for _ in range(3):
        s = bolt_deal(g)
    assert g.scores[2] == 0 and "bolt_samosval" in kinds(s, 2)


def test_bolts_not_counted_on_barrel() -> None:
    """RULES §4 barrel_bolts=false: bolts are not counted on the barrel; true counts them."""
    g = new_game(bolts="every_3rd")
    g.seats[2].score = 880
    g.seats[2].on_barrel = True
    g.seats[2].bolts = 2
    bolt_deal(g)
    assert g.seats[2].bolts == 2 and g.scores[2] == 880
    g2 = new_game(bolts="every_3rd", barrel_bolts=True, barrel_deals=None)
    g2.seats[2].score = 880
    g2.seats[2].on_barrel = True
    g2.seats[2].bolts = 2
    s = bolt_deal(g2)
    assert g2.seats[2].bolts == 3 and g2.scores[2] == 760 and "fall" in kinds(s, 2)


def test_concede_is_no_bolt() -> None:
    """RULES §7 Concede: nobody takes a trick, it is no bolt."""
    g = new_game("house")
    for _ in range(3):
        g.dealer = 2
        finish(g, 0, (-100, 60, 60), outcome="conceded", made=None, contract=100,
               tricks=(0, 0, 0), points=(0, 0, 0))
    assert all(s.bolts == 0 for s in g.seats)


# ---------------------------------------------------------------- samosval


def test_samosval_exact_landing() -> None:
    """RULES §4 samosval: 500 + 55 = 555 → 0; −455 − 100 = −555 → 0."""
    g = new_game("house")
    set_scores(g, 0, 500, -455)
    s = finish(g, 2, (10, 55, -100), made=False, contract=100)
    assert g.scores == (10, 0, 0)
    assert "samosval" in kinds(s, 1) and "samosval" in kinds(s, 2)


# ---------------------------------------------------------------- concede


def concede_deal(g: Game, declarer: int = 0, bid: int = 100) -> DealSummary:
    """A real conceded deal through the engine: the declarer wins the auction at 100
    (the others pass), gives two cards and concedes."""
    deal = g.start_deal()
    while deal.phase.name in ("DARK_CHOICE", "AUCTION"):
        if deal.phase == Phase.DARK_CHOICE:
            g.apply(mv.LOOK)
            continue
        legal = deal.legal_moves()
        if deal.to_move == declarer:
            g.apply(mv.bid(bid) if mv.bid(bid) in legal else next(m for m in legal if mv.is_bid(m)))
        else:
            g.apply(mv.PASS if mv.PASS in legal else legal[0])
    assert deal.declarer == declarer
    while deal.phase == Phase.EXCHANGE:
        g.apply(next(m for m in deal.legal_moves() if m != mv.REDEAL))
    assert mv.CONCEDE in deal.legal_moves()
    g.apply(mv.CONCEDE)
    return g.summaries[-1]


def test_concede_opponents_get_60_declarer_loses_bid() -> None:
    """RULES §4 concede: the opponents get 60 each, the declarer loses his bid."""
    g = new_game("dealer-opens")
    s = concede_deal(g, declarer=0)
    assert s.result.outcome == "conceded"
    assert g.scores == (-100, 60, 60)


def test_concede_declarer_loses_nothing_in_textbook() -> None:
    """RULES §5 textbook: concede costs the declarer nothing; the sitting dealer still scores."""
    g = new_game("textbook", barrel=None)
    s = concede_deal(g, declarer=1)
    assert s.changes[1] == 0 and s.changes[2] == 60 and s.changes[3] == 60
    assert s.result.values[0] == s.changes[0]


def test_concede_every_third_costs_penalty() -> None:
    """RULES §4 concede_penalty_every=3 (house): every third concede costs another −penalty."""
    g = new_game("house", dark=False, golden_deals=False)
    for i in range(3):
        g.dealer = 2
        s = concede_deal(g, declarer=0)
        if i < 2:
            assert "concede_penalty" not in kinds(s, 0)
    assert "concede_penalty" in kinds(s, 0)
    assert g.scores[0] == -300 - 120


def test_concede_limit_three_per_game() -> None:
    """RULES §4 concede_limit=3: a player may concede three times a game."""
    g = new_game("dealer-opens", concede_limit=3)
    for _ in range(3):
        g.dealer = 0
        concede_deal(g, declarer=0)
    g.dealer = 0
    ctx = g.start_deal().ctx
    assert ctx.concede_allowed[0] is False and ctx.concede_allowed[1] is True


def test_concede_not_on_barrel() -> None:
    """RULES §4 concede_on_barrel=false (house): nobody may concede while any player sits on
    the barrel."""
    g = new_game("house", golden_deals=False)
    set_scores(g, 880, 0, 0, barrel=(0,))
    assert g.start_deal().ctx.concede_allowed[:3] == (False, False, False)
    g2 = new_game("house", golden_deals=False)
    assert g2.start_deal().ctx.concede_allowed[:3] == (True, True, True)


def test_concede_on_barrel_leaves_it() -> None:
    """RULES §7 Barrel: where he may, a concede on the barrel costs what a concede costs
    and he leaves the barrel (one fall)."""
    g = new_game("dealer-opens")
    set_scores(g, 880, 0, 0, barrel=(0,))
    s = concede_deal(g, declarer=0)
    assert g.scores[0] == 780 and not g.seats[0].on_barrel and g.seats[0].falls == 1
    assert "fall" in kinds(s, 0)


def test_concede_not_in_golden() -> None:
    """RULES §4 concede_in_golden=false: no concede in the golden deals."""
    g = new_game("house", golden_deals=True)
    assert g.start_deal().ctx.concede_allowed == (False, False, False)


# ---------------------------------------------------------------- golden deals


def test_golden_deals_first_three_each_player_once() -> None:
    """RULES §4 golden_deals: in each of the first three deals the player who would open
    plays 120 without an auction (each player once)."""
    g = new_game(golden_deals=True)
    players = []
    for _ in range(3):
        deal = g.start_deal()
        assert deal.ctx.golden and deal.phase == Phase.EXCHANGE and deal.bid == 120
        players.append(deal.declarer)
        g.deal = None
        finish_ctx = deal.ctx
        res = DealResult("played", deal.declarer, 120, 120, True, False, True, (120, 0, 0),
                         (8, 0, 0), (240, 0, 0), None, finish_ctx.active, finish_ctx.dealer)
        g.finish_deal(res, finish_ctx)
    assert sorted(players) == [0, 1, 2]
    assert not g.start_deal().ctx.golden


def test_golden_restart_when_nobody_made_it() -> None:
    """RULES §4 golden_restart: if nobody made his contract in the golden deals, the game
    starts again from 0."""
    g = new_game(golden_deals=True, golden_restart=True)
    for i in range(3):
        declarer = (i + 1) % 3
        values = tuple(-240 if k == declarer else 20 for k in range(3))
        s = finish(g, declarer, values, made=False)
    assert g.scores == (0, 0, 0) and any(e.kind == "golden_restart" for e in s.events)
    assert g.start_deal().ctx.golden


def test_golden_no_restart_when_someone_made_it() -> None:
    """RULES §4 golden_restart: a made contract in the golden deals keeps the scores."""
    g = new_game(golden_deals=True, golden_restart=True)
    finish(g, 1, (20, 240, 20))
    finish(g, 2, (20, 20, -240), made=False)
    finish(g, 0, (-240, 20, 20), made=False)
    assert g.scores == (-200, 280, -200)
    assert not g.start_deal().ctx.golden


# ---------------------------------------------------------------- order of scoring


def test_order_penalty_before_climbing() -> None:
    """RULES §7 order: bolt penalties come before climbing on the barrel, so a bolt penalty
    can keep a player off it."""
    g = new_game(bolts="every_3rd")
    g.seats[2].score = 900
    g.seats[2].bolts = 2
    bolt_deal(g)
    assert g.scores[2] == 780 and not g.seats[2].on_barrel


def test_order_fall_reset_before_samosval_and_end() -> None:
    """RULES §7 order: the deal that ends the game is scored completely first."""
    g = new_game(barrel=None)
    set_scores(g, 990, 0, 0)
    s = finish(g, 1, (10, -120, 20), made=False)
    assert g.over and g.winner == 0 and s.scores == (1000, -120, 20)


def test_penalty_option_changes_every_penalty() -> None:
    """RULES §4 penalty: e.g. 100 instead of 120 (barrel timeout here)."""
    g = new_game(penalty=100)
    set_scores(g, 880, 0, 0, barrel=(0,))
    g.seats[0].barrel_deals = 2
    finish(g, 1, (0, 100, 10), contract=100)
    assert g.scores[0] == 780


def test_real_game_plays_to_the_end() -> None:
    """RULES §3: a game of random legal moves ends with a winner (max_deals keeps it short)."""
    import random

    rng = random.Random(5)
    g = Game(Rules.preset_rules("classic", max_deals=20), seed=5)
    while not g.over:
        g.apply(rng.choice(g.legal_moves()))
    assert g.winner is not None and len(g.summaries) >= 20


def test_hands_are_checked() -> None:
    """RULES §6: a deal must hold every card exactly once (7 each, 3 in the talon)."""
    g = new_game()
    hands = (mask_of(range(0, 7)), mask_of(range(7, 14)), mask_of(range(14, 21)))
    g.start_deal(hands, mask_of(range(21, 24)))
    g2 = new_game()
    with pytest.raises(ValueError, match="7 cards"):
        g2.start_deal((mask_of(range(0, 6)), *hands[1:]), mask_of(range(21, 24)))
