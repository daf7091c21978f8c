"""Tests that a broken rule cannot pass: each kills mutants of the rule modules that the
other rules tests let live (docs/testing.md, "Mutation testing"). Each names its rule."""

from __future__ import annotations

from dataclasses import replace

from test_rules_game import bolt_deal, finish, kinds, new_game, set_scores
from thousand.engine.cards import parse_cards
from thousand.engine.deal import DealResult
from thousand.engine.game import DealSummary, Game


def test_bolt_samosval_needs_three_bolts_in_a_row() -> None:
    """RULES §4 'Bolt samosval' (bolt_samosval): three bolts *in a row* reset the score to
    0; one bolt or two leave it, a deal with a trick between starts the count again, and
    the count starts afresh after the reset. (A samosval on every bolt passed every other
    bolt test, since they all look only after the third.)"""
    g = new_game(bolt_samosval=True)
    g.seats[2].score = 300
    for streak in (1, 2):
        s = bolt_deal(g)
        assert g.scores[2] == 300 and g.seats[2].bolt_streak == streak
        assert "bolt" in kinds(s, 2) and "bolt_samosval" not in kinds(s, 2)
    s = finish(g, 0, (100, 10, 10), contract=100)  # a trick: the streak breaks
    assert g.scores[2] == 310 and g.seats[2].bolt_streak == 0
    for _ in range(2):
        s = bolt_deal(g)
        assert g.scores[2] == 310 and "bolt_samosval" not in kinds(s, 2)
    s = bolt_deal(g)
    assert g.scores[2] == 0 and "bolt_samosval" in kinds(s, 2)
    assert [e.amount for e in s.events if e.kind == "bolt_samosval"] == [-310]
    assert g.seats[2].bolt_streak == 0 and g.seats[2].bolts == 5
    s = bolt_deal(g)
    assert g.seats[2].bolt_streak == 1 and "bolt_samosval" not in kinds(s, 2)


def test_bolt_samosval_alone_costs_no_bolt_penalty() -> None:
    """RULES §4 'Bolt samosval' without 'Bolts' (bolts=None): the bolts are counted for
    the samosval, but no bolt ever costs the penalty."""
    g = new_game(bolt_samosval=True, bolts=None)
    g.seats[2].score = 200
    for _ in range(2):
        s = bolt_deal(g)
        assert "bolt_penalty" not in kinds(s, 2)
    assert g.scores[2] == 200 and g.seats[2].bolts == 2


def test_bolt_is_marked_on_the_bolting_seat_and_the_penalty_says_its_cost() -> None:
    """RULES §4 'Bolts' (bolts=every_3rd): the sheet marks each bolt on the defender who
    took no trick, and the third one's penalty as −penalty on that seat."""
    g = new_game(bolts="every_3rd", penalty=100)
    for _ in range(2):
        s = bolt_deal(g)
        assert [(e.seat, e.kind, e.amount) for e in s.events if "bolt" in e.kind] == [
            (2, "bolt", 0)]
    s = bolt_deal(g)
    assert [(e.seat, e.kind, e.amount) for e in s.events if "bolt" in e.kind] == [
        (2, "bolt", 0), (2, "bolt_penalty", -100)]
    assert g.scores[2] == -100


def test_declaring_breaks_a_bolt_streak() -> None:
    """RULES §4 'Bolts' (bolts=three_in_a_row): a deal the player declares is no bolt and
    breaks the row: two bolts, a deal of one's own, two bolts cost nothing."""
    g = new_game(bolts="three_in_a_row")
    bolt_deal(g)
    bolt_deal(g)
    g.dealer = 0
    finish(g, 2, (10, 10, 100), contract=100)
    assert g.seats[2].bolt_streak == 0
    bolt_deal(g)
    bolt_deal(g)
    assert g.seats[2].bolt_streak == 2 and g.scores[2] == 100


def test_a_seat_on_the_barrel_does_not_stop_the_count_of_the_next() -> None:
    """RULES §4 'Bolts' with barrel_bolts=false: the defender on the barrel has no bolt
    counted, but the other defender, who also took no trick, has his."""
    g = new_game(bolts="every_3rd")
    g.seats[1].score = 880
    g.seats[1].on_barrel = True
    g.dealer = 2
    s = finish(g, 0, (120, 0, 0), contract=120, tricks=(8, 0, 0))
    assert g.seats[1].bolts == 0 and g.seats[2].bolts == 1
    assert kinds(s, 2) == ["bolt"] and "bolt" not in kinds(s, 1)


def _sheet(summary: DealSummary, seat: int) -> list[tuple[str, int]]:
    return [(e.kind, e.amount) for e in summary.events if e.seat == seat]


def test_redeal_penalty_counts_each_redeal_once() -> None:
    """RULES §4 redeal_penalty_after=2: the second redeal in a row costs the dealer
    −penalty (marked with its cost), not the first; the game counts one redeal each."""
    g = new_game("house", redeal_penalty_after=2)
    s = finish(g, None, (0, 0, 0), outcome="redeal", made=None, contract=None, redeal_by=1)
    assert g.redeal_streak == 1 and g.scores == (0, 0, 0) and _sheet(s, 0) == []
    s = finish(g, None, (0, 0, 0), outcome="redeal", made=None, contract=None, redeal_by=1)
    assert g.redeal_streak == 2 and g.scores == (-120, 0, 0)
    assert _sheet(s, 0) == [("redeal_penalty", -120)]


def test_barrel_climb_exactly_on_the_barrel_and_its_mark() -> None:
    """RULES §3 Barrel: reaching exactly 880 climbs on; a climb from 850 to 900, capped,
    is marked with what the cap took (−20)."""
    g = new_game()
    set_scores(g, 780, 800, 0)
    s = finish(g, 1, (100, 100, 10), contract=100)
    assert g.seats[0].on_barrel and g.scores[0] == 880
    assert ("barrel_on", 0) in _sheet(s, 0) and ("barrel_on", -20) in _sheet(s, 1)


def test_barrel_leaving_marks_fall_and_knock_off_costs() -> None:
    """RULES §3 Barrel and §4 barrel_knock_off: a fall (failed contract) is marked with
    no cost of its own, a knock-off with −penalty; who leaves is off the barrel."""
    g = new_game(barrel_knock_off=True)
    set_scores(g, 880, 850, 0, barrel=(0,))
    s = finish(g, 1, (0, 100, 10), contract=100)
    assert ("knocked_off", -120) in _sheet(s, 0) and g.seats[0].on_barrel is False
    g2 = new_game()
    set_scores(g2, 880, 0, 0, barrel=(0,))
    s2 = finish(g2, 0, (-120, 30, 30), made=False)
    assert ("fall", 0) in _sheet(s2, 0) and g2.seats[0].on_barrel is False


def test_one_climber_never_falls_for_the_rules_of_several() -> None:
    """RULES §4 barrel_simultaneous_fall and barrel_knock_off speak of *several* climbing
    in one deal: one climber alone stays; without knock-off, two climbers both sit."""
    g = new_game(barrel_simultaneous_fall=True)
    set_scores(g, 850, 0, 0)
    finish(g, 1, (40, 100, 10), contract=100)
    assert g.seats[0].on_barrel and g.scores[0] == 880
    g2 = new_game(barrel_knock_off=False, barrel_simultaneous_fall=False)
    set_scores(g2, 850, 850, 0)
    finish(g2, 2, (40, 40, 100), contract=100)
    assert g2.seats[0].on_barrel and g2.seats[1].on_barrel and g2.scores[:2] == (880, 880)


def test_knock_off_tie_counts_clockwise_from_the_declarer_not_from_seat_0() -> None:
    """RULES §7 Barrel (knock-off): of equal climbers the first clockwise from the
    declarer stays: declarer 1, climbers 0 and 2 → seat 2 stays, seat 0 falls."""
    g = new_game(barrel_knock_off=True)
    set_scores(g, 850, 0, 850)
    finish(g, 1, (40, 100, 40), contract=100)
    assert g.seats[2].on_barrel and g.scores[2] == 880
    assert not g.seats[0].on_barrel and g.scores[0] == 760


def test_settlement_winner_owes_nothing_and_a_loser_past_1000_owes_nothing() -> None:
    """RULES §7 Settlement: the winner owes nothing even when he wins below 1000 (at
    max_deals), and a loser who also passed 1000 lacks nothing, so owes 0."""
    g = new_game(max_deals=1, settlement=True)
    finish(g, 0, (100, 10, 20), contract=100)
    assert g.winner == 0 and g.settlement() == [0, 990, 980]
    g2 = new_game("dealer-opens", barrel=None)
    set_scores(g2, 900, 990, 0)
    finish(g2, 0, (120, 30, 20))
    assert g2.winner == 0 and g2.scores[1] > 1000 and g2.settlement() == [0, 0, 980]


def test_a_concede_that_costs_nothing_leaves_the_sitter_on_the_barrel() -> None:
    """RULES §7 Barrel (concede): a concede that costs the sitter nothing leaves him
    sitting and is no fall; one that costs him anything takes him off."""
    g = new_game("dealer-opens")
    set_scores(g, 880, 0, 0, barrel=(0,))
    g.dealer = 2
    s = finish(g, 0, (0, 60, 60), outcome="conceded", made=None, contract=100)
    assert g.seats[0].on_barrel and g.seats[0].falls == 0 and "fall" not in kinds(s, 0)
    g.dealer = 2
    s = finish(g, 0, (-1, 60, 60), outcome="conceded", made=None, contract=100)
    assert not g.seats[0].on_barrel and "fall" in kinds(s, 0)


def test_a_barrel_win_takes_the_winner_off_the_barrel() -> None:
    """RULES §3 Barrel: a made contract that reaches 1000 wins, and the winner sits on
    the barrel no more."""
    g = new_game()
    set_scores(g, 880, 0, 0, barrel=(0,))
    finish(g, 0, (120, 0, 0))
    assert g.over and g.seats[0].on_barrel is False


def test_only_a_concede_counts_toward_the_concede_penalty() -> None:
    """RULES §4 concede_penalty_every=1: every concede costs −penalty; a played deal is no
    concede, and costs nothing."""
    g = new_game("house", golden_deals=False, concede_penalty_every=1)
    g.dealer = 2
    s = finish(g, 0, (100, 10, 10), contract=100)
    assert g.seats[0].concedes == 0 and "concede_penalty" not in kinds(s, 0)
    g.dealer = 2
    s = finish(g, 0, (-100, 60, 60), outcome="conceded", made=None, contract=100)
    assert g.seats[0].concedes == 1 and ("concede_penalty", -120) in _sheet(s, 0)


def test_a_redeal_penalty_on_the_sitter_is_a_fall() -> None:
    """RULES §4 redeal_penalty_after with RULES §7 Barrel: a penalty that hits the dealer
    on the barrel in a redeal takes him off it (a fall); the others keep their seats."""
    g = new_game("house", golden_deals=False, redeal_penalty_after=1)
    set_scores(g, 880, 0, 0, barrel=(0,))
    g.dealer = 0
    s = finish(g, None, (0, 0, 0), outcome="redeal", made=None, contract=None, redeal_by=1)
    assert g.scores[0] == 760 and not g.seats[0].on_barrel and "fall" in kinds(s, 0)


def _cut_deal(g: Game, cut: list[str]) -> DealSummary:
    """A played deal whose cut showed these cards."""
    ctx = replace(g.start_deal().ctx, cut=tuple(parse_cards(cut)))
    res = DealResult("played", 0, 100, 100, True, False, False, (100, 10, 10), (6, 1, 1),
                     (100, 10, 10), None, ctx.active, ctx.dealer)
    return g.finish_deal(res, ctx)


def test_cut_nines_needs_three_nines_in_front_and_the_rule() -> None:
    """RULES §4 cut_nines: only three nines at the cut cost the cutter −penalty (marked
    so); two nines do not, and without the rule three nines cost nothing."""
    g = new_game("dealer-opens")
    s = _cut_deal(g, ["9S", "9H", "KC", "9D"])
    assert "cut_penalty" not in kinds(s, 1) and g.scores[1] == 10
    g = new_game("dealer-opens")
    s = _cut_deal(g, ["9S", "9H", "9D", "KC"])
    assert _sheet(s, 1) == [("cut_penalty", -120)]
    g = new_game("dealer-opens", cut_nines=False)
    s = _cut_deal(g, ["9S", "9H", "9D", "KC"])
    assert "cut_penalty" not in kinds(s, 1) and g.scores[1] == 10


def test_samosval_fall_reset_and_barrel_timeout_marks_say_their_cost() -> None:
    """RULES §4 samosval, barrel_falls_reset and barrel_deals: the sheet marks what each
    took: 555 → 0 is −555; a third fall from 760 to 0 is −760; the barrel's time running
    out is −penalty. A redeal is no deal on the barrel."""
    g = new_game("house")
    set_scores(g, 0, 500, 0)
    s = finish(g, 0, (100, 55, 10), contract=100)
    assert ("samosval", -555) in _sheet(s, 1)
    g = new_game(barrel_falls_reset=3)
    g.seats[0].falls = 2
    set_scores(g, 880, 0, 0, barrel=(0,))
    s = finish(g, 0, (-120, 30, 30), made=False)
    assert ("fall_reset", -760) in _sheet(s, 0)
    g = new_game("house", golden_deals=False, barrel_deals=1, redeal_penalty_after=None)
    set_scores(g, 880, 0, 0, barrel=(0,))
    finish(g, None, (0, 0, 0), outcome="redeal", made=None, contract=None, redeal_by=1)
    assert g.seats[0].on_barrel and g.seats[0].barrel_deals == 0
    g.dealer = 2
    s = finish(g, 1, (0, 100, 10), contract=100)
    assert ("barrel_timeout", -120) in _sheet(s, 0) and not g.seats[0].on_barrel
