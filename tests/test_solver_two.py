"""The double-dummy solver in the game for two (RULES §4 "Two players"): two hands, tricks of
two cards, one defender.

Two references: the engine itself, a plain minimax over :class:`thousand.engine.deal.Deal`
(``apply`` / ``undo``) from positions of real deals of the preset ``two`` played at random to a
few tricks from the end, under several mixes of the play options; and the literal rules of
tests/test_solver.py (``ref_solve``) on random two-hand positions with random options.  The
pure-Python search and the C core must give the same values, move values and node counts.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import replace

import pytest

from test_solver import position_from_deal, random_options, random_position, ref_solve
from thousand.engine.deal import Deal, Phase
from thousand.engine.game import Game
from thousand.engine.rules import Rules
from thousand.solver import (
    HAVE_NATIVE,
    PlayOptions,
    PlayPosition,
    Solver,
    apply_move,
    legal_moves,
    makes,
    solve,
    solve_moves,
)

#: Play options under which the deals are played (RULES §4; each a ``two`` ruleset).
OPTION_MIXES: list[dict[str, object]] = [
    {},
    {"ten_strength": "natural", "must_overtake": True},
    {"half_marriage": True, "no_lead_own_trump": True, "marriage_on_first_lead": True},
    {"ace_marriage": 200, "ace_marriage_trump": True, "ace_marriage_all_in_row": True,
     "four_nines_bonus": 200, "must_overtake": True},
    {"marriage_points_declarer_only": True, "half_marriage": True, "ten_strength": "natural"},
]


def two_rules(mix: dict[str, object]) -> Rules:
    return Rules.preset_rules("two", **mix)


def first_leads(rules: Rules, count: int, seed: int) -> Iterator[Game]:
    """Games of ``rules`` whose deal is at its first lead, the moves before it at random."""
    rng = random.Random(seed)
    found = 0
    s = seed * 1000
    while found < count:
        s += 1
        game = Game(rules, seed=s)
        while game.deal is not None and game.deal.phase != Phase.PLAY and not game.over:
            game.apply(rng.choice(game.legal_moves()))
        if game.deal is not None and game.deal.phase == Phase.PLAY:
            found += 1
            yield game


def play_until(game: Game, rng: random.Random, cards_left: int) -> Deal:
    """Random legal cards until the seat to move holds ``cards_left`` cards (or fewer)."""
    deal = game.deal
    assert deal is not None
    while deal.hands[deal.to_move].bit_count() > cards_left:
        game.apply(rng.choice(game.legal_moves()))
    return deal


def engine_value(deal: Deal) -> int:
    """The declarer's final points with best play by both, by plain minimax over the engine's
    own moves (apply / undo) and its own score of the deal."""
    if deal.phase == Phase.DONE:
        assert deal.result is not None
        return deal.result.points[deal.declarer]
    values = []
    for m in deal.legal_moves():
        deal.apply(m)
        values.append(engine_value(deal))
        deal.undo()
    return max(values) if deal.to_move == deal.declarer else min(values)


def solvers() -> list[Solver]:
    out = [Solver(native=False)]
    if HAVE_NATIVE:
        out.append(Solver(native=True))
    return out


# --- the position ------------------------------------------------------------------------------


def test_a_two_hand_position_is_valid_and_a_trick_has_two_cards() -> None:
    """Two players 5: tricks of two cards, so the follower completes the trick and the winner
    leads the next; a trick in progress holds one card at most."""
    pos = PlayPosition(hands=(0b11 << 4, 0b11 << 10), leader=0, declarer=0)  # T A / T A
    pos.validate()
    assert pos.seats == 2 and pos.to_move == 0
    after = apply_move(pos, 5)  # AS
    assert after.to_move == 1 and after.trick == (5,)
    done = apply_move(after, 11)  # AC: no spade, no trump: the ace of spades wins
    assert done.trick == () and done.leader == 0 and done.declarer_points == 22
    with pytest.raises(ValueError):
        PlayPosition(hands=(1, 2), trick=(3, 4)).validate()
    with pytest.raises(ValueError):
        PlayPosition(hands=(1, 2), leader=2).validate()
    with pytest.raises(ValueError):
        PlayPosition(hands=(3, 4)).validate()  # two cards against one


def test_last_tricks_worked_by_hand() -> None:
    """Two players 5: the defender ruffs the led ace when he has no card of its suit (trump
    hearts); the declarer, knowing it, cashes his trump first."""
    # declarer: AH (trump), AS; defender: 9H, KC
    decl, dfd = 1 << 23 | 1 << 5, 1 << 18 | 1 << 9
    pos = PlayPosition(hands=(decl, dfd), leader=0, trump=3, tricks_played=5, declarer=0)
    for s in solvers():
        # AH takes 9H (11), then AS is not ruffed (the defender has no trump left): 11 + 15
        assert s.solve(pos) == 11 + 0 + 11 + 4
        values = s.solve_moves(pos)
        assert values == {23: 26, 5: 15}  # AS is ruffed by 9H (11 lost), then AH takes KC


# --- against the engine --------------------------------------------------------------------


@pytest.mark.parametrize("mix", OPTION_MIXES, ids=lambda m: ",".join(m) or "classic")
def test_solver_equals_minimax_over_the_engine(mix: dict[str, object]) -> None:
    """Two players 3-6: from real deals of the preset ``two`` played to four or five tricks
    from the end (a trick sometimes half played), the solver's value, both backends, is the
    engine's own minimax over its moves and its score; its legal moves are the engine's and
    the values of ``solve_moves`` are those of the engine after each move."""
    rules = two_rules(mix)
    rng = random.Random(len(mix))
    checked = 0
    for game in first_leads(rules, 6, seed=7 + len(mix)):
        deal = play_until(game, rng, rng.choice((4, 4, 5)))
        if rng.random() < 0.4 and deal.hands[deal.to_move].bit_count() == 4:
            game.apply(rng.choice(game.legal_moves()))  # the follower to play
        pos = position_from_deal(deal)
        assert pos.seats == 2
        assert sorted(legal_moves(pos)) == sorted(deal.legal_moves())
        want = engine_value(deal)
        by_move = {}
        for m in deal.legal_moves():
            deal.apply(m)
            by_move[int(m)] = engine_value(deal)
            deal.undo()
        for s in solvers():
            assert s.solve(pos) == want, pos
            assert s.solve_moves(pos) == by_move, pos
        checked += 1
    assert checked == 6


@pytest.mark.parametrize("mix", OPTION_MIXES[:3], ids=lambda m: ",".join(m) or "classic")
def test_positions_follow_the_engine_card_by_card(mix: dict[str, object]) -> None:
    """Two players 5: along whole random deals of the preset ``two`` the solver's legal moves
    and its bookkeeping (``apply_move``: trick, leader, trump, the declarer's points) are the
    engine's at every card, and its final points are the engine's result."""
    rules = two_rules(mix)
    rng = random.Random(100 + len(mix))
    finals = 0
    for game in first_leads(rules, 8, seed=40 + len(mix)):
        deal = game.deal
        assert deal is not None
        pos = position_from_deal(deal)
        while True:
            assert sorted(legal_moves(pos)) == sorted(deal.legal_moves())
            moves = legal_moves(pos)
            declaring = [m for m in moves if m >= 24]
            move = rng.choice(declaring if declaring and rng.random() < 0.7 else moves)
            pos = apply_move(pos, move)
            game.apply(move)
            if deal.phase == Phase.DONE:
                assert deal.result is not None
                assert pos.finished and pos.declarer_points == deal.result.points[deal.declarer]
                finals += 1
                break
            assert position_from_deal(deal) == pos
    assert finals == 8


def test_solver_equals_the_literal_reference_on_random_positions() -> None:
    """Two players 5: random two-hand positions of one to five tricks (a trick half played,
    stacked four aces or nines, marriages), random play options: both backends give the value
    of the plain minimax over the literal rules of tests/test_solver.py, and so do the move
    values of ``solve_moves``."""
    from test_solver import ref_play, ref_state, ref_value

    rng = random.Random(11)
    backends = solvers()
    for i in range(380):
        tricks = (1, 2, 3, 4)[i % 4] if i < 360 else 5
        pos = random_position(rng, tricks, four=i % 20 == 3, seats=2)
        want = ref_solve(pos)
        for s in backends:
            assert s.solve(pos) == want, repr(pos)
        if i % 10 == 0:
            st = ref_state(pos)
            moves = {m: ref_value(ref_play(st, m)) for m in legal_moves(pos)}
            for s in backends:
                assert s.solve_moves(pos) == moves, repr(pos)


# --- the two backends, and the API's own consistency ------------------------------------------


def whole_deals(count: int, seed: int) -> Iterator[PlayPosition]:
    """Positions at the first lead of deals of ``two``, under the option mixes in turn."""
    for i, mix in enumerate(OPTION_MIXES * count):
        if i >= count:
            return
        game = next(first_leads(two_rules(mix), 1, seed=seed + i))
        assert game.deal is not None
        yield position_from_deal(game.deal)


@pytest.mark.needs("c-core")
def test_native_and_python_agree_on_two_hands() -> None:
    """Two players 5: whole deals from the first lead (10 tricks), mid-deal positions and
    random options: the C core's values and move values are the pure-Python search's, node
    for node from empty tables."""
    rng = random.Random(2)
    for pos in whole_deals(10, seed=300):
        py, c = Solver(native=False), Solver(native=True)
        assert py.solve(pos) == c.solve(pos)
        assert py.nodes == c.nodes
        mid = pos
        for _ in range(rng.randrange(1, 12)):
            mid = apply_move(mid, rng.choice(legal_moves(mid)))
        assert py.solve_moves(mid) == c.solve_moves(mid)
        other = replace(mid, options=random_options(rng))
        assert py.solve(other) == c.solve(other), repr(other)
    py, c = Solver(native=False), Solver(native=True)
    for _ in range(400):
        pos = random_position(rng, rng.choice((3, 4, 5, 6)), seats=2)
        assert py.solve(pos) == c.solve(pos), repr(pos)


def test_solve_moves_and_makes_agree_with_solve() -> None:
    """Two players 5: the best move value of ``solve_moves`` is ``solve`` (max for the
    declarer to move, min for the defender), and ``makes(pos, t)`` is ``solve(pos) >= t``."""
    rng = random.Random(3)
    for pos in whole_deals(6, seed=500):
        for _ in range(rng.randrange(0, 9)):
            pos = apply_move(pos, rng.choice(legal_moves(pos)))
        value = solve(pos)
        values = solve_moves(pos).values()
        assert value == (max(values) if pos.to_move == pos.declarer else min(values))
        for t in (value - 1, value, value + 1, 120):
            assert makes(pos, t) == (value >= t)


def test_one_solver_keeps_two_and_three_player_tables_apart() -> None:
    """A solver asked a two-player and a three-player position in turn answers each as a
    fresh solver does (its tables are per number of seats)."""
    two = next(whole_deals(1, seed=900))
    three = PlayPosition(hands=(0x3F, 0x3F << 6, 0x3F << 12), declarer=0)
    for native in [False] + ([True] if HAVE_NATIVE else []):
        s = Solver(native=native)
        a, b = s.solve(two), s.solve(three)
        assert (s.solve(two), s.solve(three)) == (a, b)
        assert (Solver(native=native).solve(two), Solver(native=native).solve(three)) == (a, b)


def test_options_are_the_rules_of_two() -> None:
    """Two players 5: the play options of a ``two`` ruleset are its own (PlayOptions.of)."""
    rules = two_rules({"must_overtake": True})
    assert PlayOptions.of(rules).must_overtake
