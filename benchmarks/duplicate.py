"""Strength of the bots in the duplicate arena (thousand.evaluation.duplicate), saved as it runs.

    python benchmarks/duplicate.py --bots strong,heuristic,heuristic --sets 1000 --jobs 2 \
        --seed 1 --out benchmarks/results/dup-strong-heuristic
    python benchmarks/duplicate.py --preset two --bots strong,heuristic --sets 1000 \
        --out benchmarks/results/dup-two-strong-heuristic

(two players: both seatings of each dealt set, the same cards with the bots swapped;
without ``--bots`` a strong bot meets heuristic ones in every other seat.)

runs in the foreground; start long runs with ``nohup ... &`` so that they survive the
terminal.  Every finished set is appended to ``OUT/sets.jsonl`` at once; ``--resume``
carries on from it after a stop; ``--report OUT...`` prints the figures of a run so far
(finished or not; several runs of one match pooled), and with ``--pair A,B`` only bot A
less bot B over every set of the runs named, whatever else sat at their tables.  At the
end ``OUT/report.json`` and ``OUT/report.txt`` are written.
"""

from __future__ import annotations

import argparse
import os
import sys
import time

from thousand.engine.rules import Rules
from thousand.evaluation.duplicate import (
    DuplicateReport,
    load_partial,
    mean_ci,
    report_text,
    run_duplicate,
    save_report,
)


def pooled(outs: list[str]) -> DuplicateReport:
    """The runs in the directories ``outs`` as one: their sets together (the same bots and
    rules, other seeds, so the sets are independent draws of the same match)."""
    reports = [load_partial(os.path.join(out, "sets.jsonl")) for out in outs]
    rep = reports[0]
    for out, other in zip(outs[1:], reports[1:], strict=True):
        if (other.levels, other.rules) != (rep.levels, rep.rules):
            raise SystemExit(f"error: {out} is another match ({','.join(other.levels)}), "
                             f"not {','.join(rep.levels)} with the same rules")
        rep.sets.extend(other.sets)
        rep.games.extend(other.games)
        rep.seconds += other.seconds
    return rep


def main(argv: list[str]) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--bots", default=None,
                    help="one level a seat (default: strong, then heuristic in the others)")
    ap.add_argument("--sets", type=int, default=1000)
    ap.add_argument("--games", type=int, default=0, help="whole games per rotation")
    ap.add_argument("--preset", default="classic")
    ap.add_argument("--set", dest="overrides", action="append", default=[],
                    help="a rules option name=value (repeatable)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--out", default=None, help="directory for the results")
    ap.add_argument("--resume", action="store_true")
    ap.add_argument("--report", nargs="+", default=None, metavar="OUT",
                    help="print the figures of a run (finished or not) and exit; several "
                         "runs of the same bots and rules (other seeds) are pooled")
    ap.add_argument("--pair", default=None, metavar="A,B",
                    help="with --report: only bot A's deal score less bot B's, over every "
                         "set of the runs named (at other tables too)")
    ap.add_argument("--save", action="store_true",
                    help="with --report: write report.json and report.txt from the log")
    ap.add_argument("--lang", default="en")
    args = ap.parse_args(argv)
    if args.report and args.pair:
        a, _, b = args.pair.partition(",")
        xs = [x for out in args.report
              for x in load_partial(os.path.join(out, "sets.jsonl")).set_differences(a, b)]
        mean, half = mean_ci(xs)
        print(f"{a} − {b}: {mean:+.1f} points per deal (95% CI {mean - half:+.1f} … "
              f"{mean + half:+.1f}) over {len(xs)} sets of {len(args.report)} run(s)")
        return
    if args.report:
        rep = pooled(args.report)
        if args.save:
            if len(args.report) > 1:
                raise SystemExit("error: --save writes the report of one run")
            save_report(rep, args.report[0])
        print(report_text(rep, args.lang))
        return
    rules = Rules.from_cli(args.preset, args.overrides)
    bots = args.bots or ",".join(["strong"] + ["heuristic"] * (rules.players - 1))
    levels = [x.strip() for x in bots.split(",") if x.strip()]
    start = time.time()

    def progress(done: int, total: int) -> None:
        if done % 25 == 0 or done == total:
            el = time.time() - start
            print(f"{done}/{total} tasks, {el:.0f} s, about {el / done * (total - done):.0f} s "
                  "to go", flush=True)

    rep = run_duplicate(levels, args.sets, rules, seed=args.seed, jobs=args.jobs,
                        games=args.games, save_dir=args.out, resume=args.resume,
                        progress=progress)
    if args.out:
        save_report(rep, args.out)
    print(report_text(rep, args.lang))


if __name__ == "__main__":
    main(sys.argv[1:])
