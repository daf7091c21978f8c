"""A/B test of a search-bot setting in the duplicate arena.

    python benchmarks/variant.py --variant "mp=expert:model_pass=true" \
        --bots mp,strong,strong --sets 200 --jobs 2 --seed 5 \
        --out benchmarks/results/experiments/mp-vs-strong

``--variant NAME=LEVEL:FIELD=VALUE,...`` registers a level ``NAME``: the ``strong`` or
``expert`` bot with those :class:`~thousand.bots.search.SearchConfig` fields changed
(repeatable).  The rest of the command line goes to ``benchmarks/duplicate.py``; the
variants are registered before its worker processes fork, so ``--jobs`` works.
"""

from __future__ import annotations

import argparse
import dataclasses
import sys

import duplicate  # benchmarks/duplicate.py, beside this script

from thousand.bots import register_bot
from thousand.bots.search import EXPERT, STRONG, SearchBot, SearchConfig

BASES = {"strong": STRONG, "expert": EXPERT}


def parse_variant(text: str) -> tuple[str, SearchConfig]:
    """``NAME=LEVEL:FIELD=VALUE,...`` -> (NAME, config)."""
    name, _, rest = text.partition("=")
    base, _, fields = rest.partition(":")
    if not name or base not in BASES:
        raise SystemExit(f"error: --variant {text!r}: want NAME=strong|expert:FIELD=VALUE,...")
    types = {f.name: f.type for f in dataclasses.fields(SearchConfig)}
    changes: dict[str, object] = {}
    for item in filter(None, fields.split(",")):
        key, _, raw = item.partition("=")
        if key not in types:
            raise SystemExit(f"error: SearchConfig has no field {key!r}")
        value: object
        if raw.lower() in ("true", "false"):
            value = raw.lower() == "true"
        elif raw.lower() == "none":
            value = None
        else:
            value = float(raw) if "." in raw else int(raw)
        changes[key] = value
    return name, dataclasses.replace(BASES[base], **changes)  # type: ignore[arg-type]


def main(argv: list[str]) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--variant", action="append", default=[], required=True)
    args, rest = ap.parse_known_args(argv)
    for text in args.variant:
        name, config = parse_variant(text)

        def factory(seed: int | None = None, _c: SearchConfig = config,
                    _n: str = name) -> SearchBot:
            return SearchBot(seed, _c, _n)

        register_bot(name, factory, (text, text))
        print(f"{name}: {config}", flush=True)
    duplicate.main(rest)


if __name__ == "__main__":
    main(sys.argv[1:])
