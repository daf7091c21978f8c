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
