"""The auction's rule fitted to the defence's gap (docs/search-bots.md §2 and §7): the data
the search bots ship (``src/thousand/bots/search/defence_gap.json`` for three players,
``defence_gap_two.json`` for two) is what its fitting script gives on the deals kept beside
it, and the levels bid by it."""

from __future__ import annotations

import importlib.util
import json
import math
from pathlib import Path
from types import ModuleType

import pytest

from thousand.bots.search import EXPERT, STRONG, SearchBot
from thousand.bots.search.config import SearchConfig
from thousand.engine.game import Game
from thousand.engine.rules import Rules

ROOT = Path(__file__).resolve().parent.parent
SHIPPED = ROOT / "src" / "thousand" / "bots" / "search" / "defence_gap.json"
SHIPPED_TWO = SHIPPED.with_name("defence_gap_two.json")
ROWS = ROOT / "benchmarks" / "results" / "defence-gap"


def _fit_script() -> ModuleType:
    spec = importlib.util.spec_from_file_location("fit_defence", ROOT / "benchmarks" /
                                                  "fit_defence.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize("path", [SHIPPED, SHIPPED_TWO], ids=["three", "two"])
def test_the_shipped_fit_is_the_scripts_on_the_deals_beside_it(path: Path) -> None:
    """``benchmarks/fit_defence.py --data`` wrote the shipped file from the rows it names:
    fitted again from them (each kind of defence weighed alike), the gap's location and
    scale are the shipped ones, over as many deals (a refit that nobody shipped, or rows
    changed after, fails here)."""
    shipped = json.loads(path.read_text("utf-8"))
    fit = _fit_script()
    rows = [json.loads(line) for name in shipped["rows"]
            for line in (ROWS / name).read_text("utf-8").splitlines()]
    rows = [r for r in rows if r["declarer"] == shipped["declarer"]]
    assert len(rows) == shipped["deals"] > 300
    mu, s = fit.fit([r["table"] - r[shipped["total"]] for r in rows], fit.balanced(rows))
    assert (mu, s) == (shipped["mu"], shipped["s"])


def test_each_kind_of_defence_has_the_same_say() -> None:
    """The fit weighs each kind of defence (the defenders' levels) alike, however many of
    its deals were played: three deals of one kind and one of another weigh 2/3 and 2."""
    fit = _fit_script()
    rows = [{"others": ["strong", "strong"]}] * 3 + [{"others": ["heuristic", "heuristic"]}]
    weights = fit.balanced(rows)
    assert weights == pytest.approx([2 / 3] * 3 + [2.0])
    assert sum(weights[:3]) == pytest.approx(weights[3])


def test_the_fit_finds_a_known_logistic() -> None:
    """The fitting script's maximum likelihood finds the location and scale of gaps drawn
    from a known logistic distribution (its quantiles, so the answer is exact to the
    grid's quarter point)."""
    fit = _fit_script()
    n = 2000
    gaps = [4.0 + 9.0 * math.log(q / (1 - q)) for q in ((i + 0.5) / n for i in range(n))]
    mu, s = fit.fit(gaps)
    assert mu == pytest.approx(4.0, abs=0.25)
    assert s == pytest.approx(9.0, abs=0.25)


def test_the_levels_bid_by_the_fits() -> None:
    """``strong`` and ``expert`` count a bid made in a sampled deal by the fitted gap:
    margin −mu rounded, scale s, the three players' fit with three and the two players'
    with two (one defender, ten cards: another gap); the bare config keeps the hard
    margin of the bot before the fits (−15, no scale), the measurements' baseline."""
    three_fit = json.loads(SHIPPED.read_text("utf-8"))
    two_fit = json.loads(SHIPPED_TWO.read_text("utf-8"))
    assert two_fit["players"] == 2 and three_fit["players"] == 3
    for level in (STRONG, EXPERT):
        assert level.bid_margin == -round(three_fit["mu"])
        assert level.gap_scale == three_fit["s"] > 0
        assert level.bid_margin_two == -round(two_fit["mu"])
        assert level.gap_scale_two == two_fit["s"] > 0
    bare = SearchConfig()
    assert (bare.bid_margin, bare.gap_scale, bare.bid_margin_two, bare.gap_scale_two) == (
        -15, 0.0, -15, 0.0)
    bot = SearchBot(0, STRONG)
    three = Game(Rules(), first_dealer=0, seed=1).view(1)
    two = Game(Rules.preset_rules("two"), first_dealer=0, seed=1).view(1)
    assert (bot.bid_margin(three), bot.gap_scale(three)) == (STRONG.bid_margin,
                                                             STRONG.gap_scale)
    assert (bot.bid_margin(two), bot.gap_scale(two)) == (STRONG.bid_margin_two,
                                                         STRONG.gap_scale_two)
