"""Tests that a broken rule cannot pass: each kills mutants of the rule modules that the
other rules tests let live (docs/testing.md, "Mutation testing"). Each names its rule."""

from __future__ import annotations

from test_rules_game import bolt_deal, finish, kinds, new_game


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
