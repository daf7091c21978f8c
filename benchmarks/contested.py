"""The contracts each level won in the auction in a duplicate run: how many (leaving out the
compulsory 100s nobody outbid), how often made, at what mean contract.

    python benchmarks/contested.py benchmarks/results/experiments/raise-group-m2/sets.jsonl

The duplicate report counts every declaration, the compulsory 100s too, which hide how a
bot bids: this reads the run's ``sets.jsonl`` (one line a dealt set, each seating with its
declarer, contract and whether it was made) and gives each level its own figures.
"""

from __future__ import annotations

import json
import sys
from collections import defaultdict
from pathlib import Path


def contested(path: Path) -> dict[str, tuple[int, int, int]]:
    """level -> (contracts won in the auction, made, their sum) in the run at ``path``."""
    lines = path.read_text().splitlines()
    levels = json.loads(lines[0])["header"]["levels"]
    n = len(levels)
    out: dict[str, list[int]] = defaultdict(lambda: [0, 0, 0])
    for line in lines[1:]:
        dealt = json.loads(line).get("set")
        if not dealt:
            continue
        for s in dealt["seatings"]:
            d = s.get("declarer")
            if d is None or s.get("compulsory") or s.get("outcome") != "played":
                continue
            # entry e of the levels sits at seat (e + rotation) % n
            row = out[levels[(d - s["rotation"]) % n]]
            row[0] += 1
            row[1] += bool(s["made"])
            row[2] += s["contract"]
    return {k: (c, m, t) for k, (c, m, t) in out.items()}


def main(paths: list[str]) -> None:
    for path in paths:
        print(path)
        for level, (c, m, t) in contested(Path(path)).items():
            print(f"  {level}: {c} contracts won in the auction, made {m / c:.1%}, "
                  f"mean contract {t / c:.1f}")


if __name__ == "__main__":
    main(sys.argv[1:])
