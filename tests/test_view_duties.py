"""The view carries the public duties of the play (RULES §4 ace_marriage_all_in_row,
half_marriage): the seat that must lead its aces and the suits already declared, the same
for every seat and a spectator, as the declarations and the tricks on the table say."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from thousand.engine import moves as mv
from thousand.engine.cards import ACE, RANK_MASK, mask_of
from thousand.engine.game import Game
from thousand.engine.rules import Rules
from thousand.engine.view import View

RULES = Rules.preset_rules(
    "classic", half_marriage=True, ace_marriage=200, ace_marriage_all_in_row=True,
)


def duty_on_the_table(view: View) -> int:
    """The oracle, from what everybody sees: the last ace marriage's declarer, while he
    has won every trick since."""
    for d in reversed(view.declarations):
        if d.kind == "ace_marriage":
            return d.seat if all(t.winner == d.seat for t in view.tricks[d.trick:]) else -1
    return -1


def suits_on_the_table(view: View) -> int:
    return sum({1 << d.suit for d in view.declarations
                if d.kind in ("marriage", "half_marriage")})


@settings(max_examples=80, deadline=None)
@given(seed=st.integers(0, 2**31))
def test_the_view_says_who_must_lead_aces_and_which_suits_were_declared(seed: int) -> None:
    """RULES §4 ace_marriage_all_in_row and half_marriage: public, in every seat's view."""
    rng = random.Random(seed)
    game = Game(RULES, seed=seed, auto_deal=False)
    # the four aces in one hand (an ace marriage to declare), the rest at random
    rest = [c for c in range(24) if not RANK_MASK[ACE] >> c & 1]
    rng.shuffle(rest)
    aces = rng.randrange(3)
    hands = [mask_of(rest[7 * s - 4 * (s > aces): 7 * s + 7 - 4 * (s >= aces)])
             for s in range(3)]
    hands[aces] |= RANK_MASK[ACE]
    game.start_deal(hands, mask_of(rest[17:]))
    while not game.summaries:
        legal = game.legal_moves()
        declaring = [m for m in legal if mv.is_declare(m)]
        game.apply(rng.choice(declaring or legal))  # declare whenever one may
        if game.summaries:
            break
        views = [game.view(s) for s in (None, *range(game.n))]
        want = (duty_on_the_table(views[0]), suits_on_the_table(views[0]))
        for v in views:
            assert (v.aces_duty, v.declared_suits) == want
