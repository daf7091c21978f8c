"""Fit the heuristic bot's hand models (a developer's tool, not a bot).

``python -m thousand.bots.calibrate [DEALS] [SEED] [TEN_STRENGTH] [PLAYERS]`` plays DEALS
deals of ``classic`` (with ``ten_strength`` set to TEN_STRENGTH, ``high`` by default, and
PLAYERS players, 3 by default; 2 is the preset ``two``) in which the opener must play 100
(everybody else passes), the heuristic bot giving the cards (two players: choosing the
talon and discarding) and every seat playing the cards as the heuristic bot; then it fits
the auction model (from the opener's cards dealt) and the play model (from his cards after
the exchange, on the points he took but his discards) by least squares on the points he
took, and prints the weights and the error's standard deviation to paste into
:data:`~thousand.bots.evaluate.MODELS` (``high``: also ``AUCTION_WEIGHTS`` and
``PLAY_WEIGHTS``), or for two players :data:`~thousand.bots.evaluate.TWO_PLAYER_MODELS`.
It prints the defender's mean points as well (two players:
:data:`~thousand.bots.heuristic.TWO_PLAYER_DEFENDER_POINTS`).
"""

from __future__ import annotations

import math
import sys
from collections.abc import Sequence
from typing import NamedTuple

from thousand.engine import moves as mv
from thousand.engine.cards import points_of
from thousand.engine.deal import Phase
from thousand.engine.game import Game
from thousand.engine.rules import Rules, TenStrength

from .evaluate import features
from .heuristic import HeuristicBot


class Row(NamedTuple):
    """One deal the opener played at 100: his auction and play features, his points, the
    points of his discards, and what his defenders took on average."""

    auction: tuple[float, ...]
    play: tuple[float, ...]
    points: int
    discards: int
    defender: float


def collect(
    n_deals: int, seed: int, ten_strength: TenStrength = "high", players: int = 3
) -> list[Row]:
    rules = Rules(max_deals=None, ten_strength=ten_strength, players=players)
    bot = HeuristicBot(seed)
    game = Game(rules, seed=seed)
    values = rules.marriage_values
    rows: list[Row] = []
    while len(rows) < n_deals:
        deal = game.deal
        assert deal is not None
        opener = deal.to_move
        hand7 = deal.hands[opener]
        hand8 = 0
        discards = 0
        while game.deal is deal:
            seat = game.to_move
            view = game.view(seat)
            if view.phase == Phase.AUCTION:
                move = mv.bid(100) if mv.bid(100) in view.legal else mv.PASS
            elif view.phase == Phase.CONTRACT:
                hand8 = view.hand or 0
                discards = points_of(view.discards or 0)
                move = view.legal[0]
            else:
                move = bot.choose(view)
            game.apply(move)
        res = game.summaries[-1].result
        if res.outcome != "played" or res.declarer != opener:
            continue
        others = [res.points[s] for s in deal.opponents()]
        rows.append(Row(
            features(hand7, values, True, ten_strength),
            features(hand8, values, False, ten_strength),
            res.points[opener],
            discards,
            sum(others) / len(others),
        ))
        if game.over:
            game = Game(rules, seed=seed + len(rows))
    return rows


def least_squares(xs: Sequence[Sequence[float]], ys: Sequence[float]) -> list[float]:
    """Solve the normal equations (with a touch of ridge for collinear features)."""
    k = len(xs[0])
    a = [[0.0] * k for _ in range(k)]
    b = [0.0] * k
    for x, y in zip(xs, ys, strict=True):
        for i in range(k):
            b[i] += x[i] * y
            xi = x[i]
            row = a[i]
            for j in range(k):
                row[j] += xi * x[j]
    for i in range(1, k):
        a[i][i] += 1e-3 * len(xs)
    # Gaussian elimination with partial pivoting
    for col in range(k):
        piv = max(range(col, k), key=lambda r: abs(a[r][col]))
        a[col], a[piv] = a[piv], a[col]
        b[col], b[piv] = b[piv], b[col]
        p = a[col][col]
        if abs(p) < 1e-12:
            continue
        for r in range(col + 1, k):
            f = a[r][col] / p
            if f:
                for c in range(col, k):
                    a[r][c] -= f * a[col][c]
                b[r] -= f * b[col]
    w = [0.0] * k
    for i in range(k - 1, -1, -1):
        s = b[i] - sum(a[i][j] * w[j] for j in range(i + 1, k))
        w[i] = s / a[i][i] if abs(a[i][i]) > 1e-12 else 0.0
    return w


def fit(xs: Sequence[Sequence[float]], ys: Sequence[float]) -> tuple[list[float], float]:
    w = least_squares(xs, ys)
    resid = [y - sum(a * b for a, b in zip(w, x, strict=True)) for x, y in zip(xs, ys, strict=True)]
    sigma = math.sqrt(sum(r * r for r in resid) / max(1, len(resid) - len(w)))
    return w, sigma


def main(argv: Sequence[str]) -> None:
    n = int(argv[0]) if argv else 4000
    seed = int(argv[1]) if len(argv) > 1 else 1
    ten_strength: TenStrength = "natural" if len(argv) > 2 and argv[2] == "natural" else "high"
    players = int(argv[3]) if len(argv) > 3 else 3
    rows = collect(n, seed, ten_strength, players)
    ys = [float(r.points) for r in rows]
    # The play model leaves the discards out: the bot adds the points of the cards it
    # discards (evaluate.best_give) or has discarded.
    play_ys = [float(r.points - r.discards) for r in rows]
    for name, xs, targets in (("AUCTION", [r.auction for r in rows], ys),
                              ("PLAY", [r.play for r in rows], play_ys)):
        w, sigma = fit(xs, targets)
        print(f"{name}_WEIGHTS = ({', '.join(f'{x:.3f}' for x in w)})")
        print(f"{name}_SIGMA = {sigma:.1f}")
    defender = sum(r.defender for r in rows) / len(rows)
    print(f"# {len(rows)} deals, ten_strength={ten_strength}, players={players}, mean points "
          f"{sum(ys) / len(ys):.1f}, discards {sum(r.discards for r in rows) / len(rows):.1f}, "
          f"a defender's {defender:.1f}")


if __name__ == "__main__":
    main(sys.argv[1:])
