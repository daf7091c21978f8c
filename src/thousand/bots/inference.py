"""What the cards the others played say about a sampled deal: soft evidence from play.

The sampler (:mod:`thousand.bots.sampling`) draws deals that agree with the hard facts of
the view (voids, cards seen, declarations).  A deal can agree with them and still be
unlikely: one in which a defender's last lead threw away the contract, or the declarer
skipped a cash-out a child would see.  The others play well, so the deals in which their
cards were good ones are the likelier.

:func:`play_likelihood` scores a sampled deal by the last few cards the other seats played:
each is valued with the double-dummy solver in the position it was played from (in that
deal), and a card that cost its side ``loss`` points against the best card there weighs
the deal by ``exp(-loss / tau)``.  The evidence is soft on purpose: the others do not see
every card either, so a card that is wrong with all hands open is a clue, not a proof.
The ``expert`` bot weights its sampled deals in card play by this likelihood.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from thousand.engine.cards import Mask, points_of
from thousand.engine.view import View
from thousand.solver import PlayOptions, PlayPosition, Solver
from thousand.solver.position import DECLARE, apply_move

from .sampling import World

#: A card played in this deal: (engine seat, solver move: card, or DECLARE + card).
Played = tuple[int, int]


def play_history(view: View) -> list[Played]:
    """Every card played in this deal so far, in order, declaring leads marked."""
    declared = {d.trick for d in view.declarations}
    out: list[Played] = []
    tricks = [t.cards for t in view.tricks] + [view.trick]
    for t, cards in enumerate(tricks):
        for k, (seat, card) in enumerate(cards):
            out.append((seat, card + DECLARE if k == 0 and t in declared else card))
    return out


def start_position(view: View, world: World, history: Sequence[Played],
                   options: PlayOptions) -> PlayPosition:
    """The first lead of the play in ``world``: its hands now and the cards played since."""
    act = view.active
    idx = {s: i for i, s in enumerate(act)}
    hands = [world.hands[s] for s in act]
    for seat, move in history:
        hands[idx[seat]] |= 1 << (move % DECLARE)
    d = idx[view.declarer]
    discards: Mask = view.discards if view.discards is not None else world.discards
    return PlayPosition(
        hands=tuple(hands),  # (two with two players)
        leader=d, declarer=d,
        declarer_points=points_of(discards), options=options,
    )


def play_likelihood(
    solver: Solver, view: View, world: World, history: Sequence[Played],
    options: PlayOptions, tau: float, last: int,
) -> float:
    """How well the other seats' last ``last`` cards fit ``world`` (1: each was a best card
    with all hands open; see the module docstring)."""
    if not history or tau <= 0:
        return 1.0
    me = view.seat
    idx = {s: i for i, s in enumerate(view.active)}
    judged = [k for k, (seat, _) in enumerate(history) if seat != me][-last:]
    if not judged:
        return 1.0
    pos = start_position(view, world, history, options)
    loss = 0
    first = judged[0]
    for k, (seat, move) in enumerate(history):
        if k >= first and seat != me:
            values = solver.solve_moves(pos)
            got = values[move]
            if idx[seat] == pos.declarer:
                loss += max(values.values()) - got
            else:
                loss += got - min(values.values())
        pos = apply_move(pos, move)
    return math.exp(-loss / tau)


__all__ = ["Played", "play_history", "play_likelihood", "start_position"]
