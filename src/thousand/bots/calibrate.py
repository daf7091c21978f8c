"""Fit the heuristic bot's hand models (a developer's tool, not a bot).

``python -m thousand.bots.calibrate [DEALS] [SEED] [TEN_STRENGTH]`` plays DEALS deals of
``classic`` (with ``ten_strength`` set to TEN_STRENGTH, ``high`` by default) in which the
opener must play 100 (everybody else passes), the heuristic bot giving the cards and all
three seats playing the cards as the heuristic bot; then it fits the auction model (from the
opener's 7 cards) and the play model (from his cards after the exchange) by least squares
on the points he took, and prints the weights and the error's standard deviation to paste
into :data:`~thousand.bots.evaluate.MODELS` (``high``: also ``AUCTION_WEIGHTS`` and
``PLAY_WEIGHTS``).
"""

from __future__ import annotations

import math
import sys
from collections.abc import Sequence

from thousand.engine import moves as mv
from thousand.engine.deal import Phase
from thousand.engine.game import Game
from thousand.engine.rules import Rules, TenStrength

from .evaluate import features
from .heuristic import HeuristicBot


def collect(
    n_deals: int, seed: int, ten_strength: TenStrength = "high"
) -> list[tuple[tuple[float, ...], tuple[float, ...], int]]:
    rules = Rules(max_deals=None, ten_strength=ten_strength)
    bot = HeuristicBot(seed)
    game = Game(rules, seed=seed)
    values = rules.marriage_values
    rows: list[tuple[tuple[float, ...], tuple[float, ...], int]] = []
    while len(rows) < n_deals:
        deal = game.deal
        assert deal is not None
        opener = deal.to_move
        hand7 = deal.hands[opener]
        hand8 = 0
        while game.deal is deal:
            seat = game.to_move
            view = game.view(seat)
            if view.phase == Phase.AUCTION:
                move = mv.bid(100) if mv.bid(100) in view.legal else mv.PASS
            elif view.phase == Phase.CONTRACT:
                hand8 = view.hand or 0
                move = view.legal[0]
            else:
                move = bot.choose(view)
            game.apply(move)
        res = game.summaries[-1].result
        if res.outcome != "played" or res.declarer != opener:
            continue
        rows.append((
            features(hand7, values, True, ten_strength),
            features(hand8, values, False, ten_strength),
            res.points[opener],
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
    rows = collect(n, seed, ten_strength)
    ys = [float(r[2]) for r in rows]
    for name, xs in (("AUCTION", [r[0] for r in rows]), ("PLAY", [r[1] for r in rows])):
        w, sigma = fit(xs, ys)
        print(f"{name}_WEIGHTS = ({', '.join(f'{x:.3f}' for x in w)})")
        print(f"{name}_SIGMA = {sigma:.1f}")
    print(f"# {len(rows)} deals, ten_strength={ten_strength}, mean points "
          f"{sum(ys) / len(ys):.1f}")


if __name__ == "__main__":
    main(sys.argv[1:])
