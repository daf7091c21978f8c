"""Fit the defence's gap (``benchmarks/defence_gap.py``'s rows) and check it on other deals.

    python benchmarks/fit_defence.py ROWS.jsonl [ROWS.jsonl ...] [--total quick|open]
        [--declarer strong] [--others strong|heuristic] [--out FILE] [--data FILE.json]

The gap of a deal is the declarer's total at the table less the solver's (``quick``: the
auction's, his 7 cards and the talon with the quick rule's exchange; ``open``: after the
exchange he made), every hand open.  It is modelled as a logistic distribution with a
location ``mu`` and a scale ``s``: a sampled deal whose solver's total is ``t`` makes a
contract ``c`` at the table with chance ``σ((t + mu − c) / s)``.  A hard margin counts it
made where ``t ≥ c + margin``: a gap of exactly ``−margin`` every time (the auction's
``bid_margin`` was −15 before this fit; ``margin`` is 0 after the exchange).

The rows are split by their set's index: the even sets fit, the odd ones check, so the two
never share a deal.  Reported for each half: the gap's mean, median and spread, the fitted
``mu`` and ``s`` (maximum likelihood, on a grid of 0.25 points), the gap by the solver's
total, and on the checking half the Brier score of each rule's chance of reaching each
contract of the ladder from 100 to 200 in every deal (what the auction asks of a sampled
deal), and of making the contract the declarer played (the hard margin against the fitted
logistic; lower is better), the compulsory 100s nobody outbid apart.  ``--data`` writes
the fit on all the rows (each kind of defence, the defenders' levels, weighed alike), with
its counts, as the JSON the search bots read (``src/thousand/bots/search/defence_gap.json``,
``defence_gap_two.json`` for two players, whose rows are fitted apart:
``bid_margin`` is −mu rounded, ``gap_scale`` is s).
"""

from __future__ import annotations

import argparse
import json
import math
import statistics
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from thousand.bots.sampling import sigmoid

Row = dict[str, Any]

#: the contracts whose reaching is checked in every deal (the auction's ladder)
REACH = tuple(range(100, 205, 5))


def log_density(g: float, mu: float, s: float) -> float:
    """The logistic distribution's log density at ``g``."""
    z = (g - mu) / s
    return -z - 2.0 * math.log1p(math.exp(-z)) - math.log(s) if z > -30 else z - math.log(s)


def fit(gaps: Sequence[float], weights: Sequence[float] | None = None) -> tuple[float, float]:
    """(mu, s) of the logistic distribution most likely to give ``gaps`` (each counted
    with its weight, 1 by default): a coarse grid, then a fine one around its best."""
    ws = weights if weights is not None else [1.0] * len(gaps)

    def ll(mu: float, s: float) -> float:
        return sum(w * log_density(g, mu, s) for g, w in zip(gaps, ws, strict=True))

    med = statistics.median(gaps)
    best = max((ll(mu, s), mu, s) for mu in _steps(med - 15, med + 15, 1.0)
                for s in _steps(2.0, 40.0, 1.0))
    _, m0, s0 = best
    best = max((ll(mu, s), mu, s) for mu in _steps(m0 - 1, m0 + 1, 0.25)
                for s in _steps(max(0.5, s0 - 1), s0 + 1, 0.25))
    return best[1], best[2]


def _steps(lo: float, hi: float, step: float) -> list[float]:
    n = round((hi - lo) / step)
    return [lo + i * step for i in range(n + 1)]


def balanced(rows: Sequence[Row]) -> list[float]:
    """Weights that give each kind of defence (the defenders' levels) the same say, however
    many of its deals were played: the bots meet both kinds (the arena's tables seat a
    strong and a heuristic defender beside each other)."""
    kinds: dict[tuple[str, ...], int] = {}
    for r in rows:
        key = tuple(sorted(r["others"]))
        kinds[key] = kinds.get(key, 0) + 1
    return [len(rows) / (len(kinds) * kinds[tuple(sorted(r["others"]))]) for r in rows]


Case = tuple[float, float, bool]


def brier(cases: Sequence[Case], chance: Any) -> float:
    """The mean squared error of ``chance(t, c)`` for each (solver's total ``t``, contract
    ``c``, whether the table reached it) of ``cases``."""
    return sum((chance(t, c) - float(hit)) ** 2 for t, c, hit in cases) / max(1, len(cases))


def describe(name: str, rows: Sequence[Row], total: str) -> list[str]:
    gaps = [r["table"] - r[total] for r in rows]
    if len(gaps) < 2:
        return [f"{name}: {len(gaps)} deals"]
    mu, s = fit(gaps)
    lines = [f"{name}: {len(gaps)} deals; gap table − {total}: mean "
             f"{statistics.mean(gaps):+.1f}, median {statistics.median(gaps):+.1f}, sd "
             f"{statistics.stdev(gaps):.1f}; logistic mu {mu:+.2f}, s {s:.2f} (sd "
             f"{s * math.pi / math.sqrt(3):.1f})"]
    for lo, hi in ((0, 80), (80, 100), (100, 120), (120, 140), (140, 160), (160, 400)):
        g = [r["table"] - r[total] for r in rows if lo <= r[total] < hi]
        if len(g) >= 2:
            lines.append(f"  {total} {lo}–{hi}: {len(g)} deals, gap mean "
                         f"{statistics.mean(g):+.1f}, median {statistics.median(g):+.1f}, "
                         f"sd {statistics.stdev(g):.1f}")
    return lines


def check(rows: Sequence[Row], total: str, margin: int, mu: float, s: float) -> list[str]:
    """The Brier scores of the hard margin and of the logistic on ``rows``."""
    def hard_at(m: int) -> Any:
        return lambda t, c: 1.0 if t >= c + m else 0.0

    def soft(t: float, c: float) -> float:
        return sigmoid((t + mu - c) / s)

    hard, at_mu = hard_at(margin), hard_at(-round(mu))

    reach = [(r[total], c, r["table"] >= c) for r in rows for c in REACH]
    out = [f"  reaching {REACH[0]}…{REACH[-1]} (every deal, each contract of the ladder: "
           f"{len(reach)}): Brier hard margin {margin:+d} {brier(reach, hard):.4f}, "
           f"hard margin {-round(mu):+d} (−mu) {brier(reach, at_mu):.4f}, "
           f"logistic {brier(reach, soft):.4f}"]
    for name, part in (("contested", [r for r in rows if not r["compulsory"]]),
                       ("compulsory 100s", [r for r in rows if r["compulsory"]]),
                       ("all", list(rows))):
        if not part:
            continue
        played = [(r[total], r["contract"], r["made"]) for r in part]
        n = len(part)
        made = sum(r["made"] for r in part) / n
        p_hard = sum(hard(t, c) for t, c, _ in played) / n
        p_soft = sum(soft(t, c) for t, c, _ in played) / n
        out.append(f"  the contracts played, {name} ({n}, made {made:.0%}): Brier hard "
                   f"margin {margin:+d} {brier(played, hard):.4f}, logistic "
                   f"{brier(played, soft):.4f}; mean chance hard {p_hard:.0%}, "
                   f"logistic {p_soft:.0%}")
    return out


def main(argv: list[str]) -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("rows", type=Path, nargs="+")
    ap.add_argument("--total", choices=("quick", "open"), default="quick")
    ap.add_argument("--declarer", default="strong")
    ap.add_argument("--others", help="the defenders' level (both)")
    ap.add_argument("--margin", type=int, help="the bots' hard margin (default: −15 for "
                    "quick, 0 for open)")
    ap.add_argument("--out", type=Path)
    ap.add_argument("--data", type=Path)
    args = ap.parse_args(argv)
    margin = args.margin if args.margin is not None else (-15 if args.total == "quick" else 0)
    rows = [json.loads(line) for p in args.rows for line in p.read_text().splitlines()]
    rows = [r for r in rows if r["declarer"] == args.declarer
            and (args.others is None or all(o == args.others for o in r["others"]))]
    fitting = [r for r in rows if r["set"] % 2 == 0]
    checking = [r for r in rows if r["set"] % 2 == 1]
    lines = [f"{', '.join(map(str, args.rows))}: declarer {args.declarer}, defenders "
             f"{args.others or 'any'}, total {args.total}"]
    lines += describe("fitting half (even sets)", fitting, args.total)
    lines += describe("checking half (odd sets)", checking, args.total)
    mu, s = fit([r["table"] - r[args.total] for r in fitting], balanced(fitting))
    lines.append(f"checking half, by the fitting half's mu {mu:+.2f}, s {s:.2f} (each kind "
                 "of defence weighed alike):")
    lines += check(checking, args.total, margin, mu, s)
    text = "\n".join(lines)
    print(text)
    if args.out:
        args.out.write_text(text + "\n")
    if args.data:
        players = {len(r["others"]) + 1 for r in rows}
        if len(players) != 1:
            ap.error(f"the rows mix games for {sorted(players)} players: fit each apart")
        mu_all, s_all = fit([r["table"] - r[args.total] for r in rows], balanced(rows))
        args.data.write_text(json.dumps({
            "about": "the defence's gap, table − solver, as a logistic distribution: "
                     "written by benchmarks/fit_defence.py --data from the rows named",
            "players": players.pop(),
            "total": args.total, "declarer": args.declarer, "others": args.others,
            "deals": len(rows), "weighed": "each kind of defence alike",
            "mu": mu_all, "s": s_all,
            "rows": [p.name for p in args.rows],
        }, indent=2, ensure_ascii=False) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
