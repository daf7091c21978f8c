"""The values of a decision with every card open, from the double-dummy solver.

Nothing here plays by rules of its own: a position is the search bots' own builder
(:func:`thousand.bots.search.position`) fed the real hands of the record, the values are
:meth:`thousand.solver.Solver.solve_moves`, and the exchange is tried move by move on a
clone of the replayed game, so the engine says what is legal and what follows.

Units: for a card the value is the declarer's final total with best play after it (the
declarer wants it high, the defenders low); for a give or a discard the same total from
the first lead on; for a contract or a concede, the declarer's score for the deal.

The game for two (RULES §4 "Two players") is the same: the position has the two hands (the
talon not chosen is out of the play, and its points are the defender's, never in the
declarer's total), the two discards are valued as the discards of ``discard_three`` are,
and the choice of a talon, made with both talons unseen, gets no open-card figure (with
the cards open it would only say which talon luck favoured).
"""

from __future__ import annotations

from thousand.bots.heuristic import concede_cost
from thousand.bots.sampling import World
from thousand.bots.search import position, stakes
from thousand.engine import moves as mv
from thousand.engine.deal import Deal, Phase
from thousand.engine.game import Game
from thousand.engine.moves import Move
from thousand.engine.view import View
from thousand.solver import PlayOptions, Solver

#: Exchanges valued per decision at most (the gives of ``discard_three`` are many).
_MAX_LEAVES = 2000


def real_world(deal: Deal) -> World:
    """The record's own cards as a sampled deal would hold them."""
    return World(hands=tuple(deal.hands), talon=0, discards=deal.discards)


def play_values(view: View, deal: Deal, solver: Solver) -> dict[Move, int]:
    """``{card move: declarer's final total}`` for every legal card of the seat to move."""
    pos = position(view, real_world(deal), PlayOptions.from_rules(view.rules))
    # the solver numbers its moves as the engine does (thousand.solver.position.DECLARE)
    return {Move(m): v for m, v in solver.solve_moves(pos).items()}


def play_total(view: View, deal: Deal, solver: Solver) -> int:
    """The declarer's final total with best play from here (the double-dummy table)."""
    pos = position(view, real_world(deal), PlayOptions.from_rules(view.rules))
    return solver.solve(pos)


def to_first_lead(game: Game) -> Game | None:
    """The game carried on to the first lead by the lowest contract (the contract does not
    change the play); None when the deal ends before it."""
    while game.deal is not None and game.deal.phase != Phase.PLAY:
        if game.deal.phase != Phase.CONTRACT:
            return None
        legal = [m for m in game.legal_moves() if mv.is_contract(m)]
        if not legal:
            return None
        game.apply(min(legal))
    return game if game.deal is not None else None


def exchange_values(game: Game, solver: Solver) -> dict[Move, int]:
    """``{give or discard: the declarer's double-dummy total from the first lead}``, each
    card worth its best completion (the rest of the exchange chosen best).  Exchanges that
    end in the same hands are solved once."""
    seat = game.to_move
    memo: dict[tuple[tuple[int, ...], int], int] = {}

    def value(g: Game) -> int | None:
        deal = g.deal
        if deal is None:  # a redeal, not an exchange: nothing to solve
            return None
        if deal.phase == Phase.EXCHANGE and g.to_move == seat:
            best: int | None = None
            for m in g.legal_moves():
                child = g.clone()
                child.apply(m)
                v = value(child)
                if v is not None and (best is None or v > best):
                    best = v
            return best
        key = (tuple(deal.hands), deal.discards)
        if key not in memo:
            if len(memo) >= _MAX_LEAVES:
                return None
            start = to_first_lead(g)
            if start is None:
                return None
            view = start.view(start.to_move)
            memo[key] = play_total(view, start.deal, solver)  # type: ignore[arg-type]
        return memo[key]

    out: dict[Move, int] = {}
    for m in game.legal_moves():
        child = game.clone()
        child.apply(m)
        v = value(child)
        if v is not None:
            out[m] = v
    return out


def contract_values(view: View, declarer_best: int) -> dict[Move, int]:
    """``{contract or concede: the declarer's score for the deal}`` when the declarer
    takes ``declarer_best`` with every card open (a made contract scores what the rules
    say, a failed one its minus, a concede what :func:`thousand.engine.deal.concede_values`
    charges)."""
    seat = view.to_move
    st = stakes(view, seat, 0.0)
    out: dict[Move, int] = {}
    for m in view.legal:
        if mv.is_contract(m):
            c = mv.value_of(m)
            out[m] = round(st.made(c, declarer_best) if declarer_best >= c else st.failed(c))
        elif m == mv.CONCEDE and view.hand is not None:
            loss, _pay = concede_cost(view, seat, view.bid, view.hand)
            out[m] = -loss
    return out
