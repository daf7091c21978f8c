"""The fast path of random play (thousand.envs.fastsim, in C) against the engine, its one home.

fastsim.c keeps fast copies of the engine's rules around the solver's card play: the bid
ladder and who may bid (RULES §3, §4 first_bidder, opening_bid, bid_step, bid_jumps,
bid_cap), the contract choices, the lead rules (§4 ace duty, no_lead_own_trump, no "+" on the
first lead, through core.c's lead_cards) and the played deal's score (§4 rounding,
round_declarer_before_compare, declarer_scores, marriage_points_declarer_only).  Here each is
tied to the engine move for move: random rulesets of every option the fast path accepts, the
same seeds played through thousand.engine.game.Game, every move and every deal value equal.
"""

from __future__ import annotations

import os
import random

import pytest

import needs
from thousand.engine import moves as mv
from thousand.engine.rules import OPTIONS, Rules
from thousand.envs import fastsim


def _require_fast_path() -> None:
    if os.environ.get("THOUSAND_PURE_PYTHON") == "1":
        pytest.skip("THOUSAND_PURE_PYTHON=1: the suite runs without the C cores on purpose")
    if fastsim.fast_module() is None:
        needs.require("c-compiler")
        pytest.fail(f"the fast path is not built: {fastsim.build_error}")


def random_rules(rng: random.Random) -> Rules:
    """A ruleset the fast path plays, each option that changes its play drawn at random."""
    values = [40, 60, 80, 100]
    rng.shuffle(values)
    return Rules.preset_rules(
        "classic",
        first_bidder=rng.choice(("left_of_dealer", "dealer")),
        opening_bid=rng.choice(("at_least_100", "exactly_100")),
        bid_step=rng.choice((5, 5, 10)),
        bid_jumps=rng.random() < 0.6,
        bid_cap=rng.choice((120, 120, 130)),  # 130: the longest ladder it takes
        marriage_values=(values[0], values[1], values[2], values[3]),
        must_overtake=rng.random() < 0.4,
        marriage_on_first_lead=rng.random() < 0.4,
        marriage_points_declarer_only=rng.random() < 0.4,
        half_marriage=rng.random() < 0.5,
        ace_marriage=rng.choice((0, 200)),
        ace_marriage_trump=rng.random() < 0.5,
        ace_marriage_all_in_row=rng.random() < 0.6,
        four_nines_bonus=rng.choice((0, 100, 200)),
        no_lead_own_trump=rng.random() < 0.5,
        rounding=rng.choice((1, 5, 10)),
        round_declarer_before_compare=rng.random() < 0.5,
        declarer_scores=rng.choice(("contract", "taken")),
    )


@pytest.mark.parametrize("case", range(8))
def test_fast_path_is_the_engine_move_for_move(case: int) -> None:
    """RULES §3-§4 (the auction, the contract, the lead rules, the deal score): on random
    rulesets the fast path plays the engine's moves and scores the engine's values."""
    _require_fast_path()
    rules = random_rules(random.Random(1900 + case))
    assert fastsim.supports(rules) is True
    fast = fastsim.random_deals(rules, 40 + case, 120, record=True, fast=True)
    engine = fastsim.random_deals(rules, 40 + case, 120, record=True, fast=False)
    for k, (a, b) in enumerate(zip(fast, engine, strict=True)):
        assert a == b, f"deal {k} of {rules}:\n{fastsim.describe(a.moves)}\n" \
                       f"{fastsim.describe(b.moves)}"


def test_random_rulesets_reach_the_rules_they_test() -> None:
    """The random deals above do reach what they are to check: declarations, raised
    contracts, made and failed deals.  (The ace marriage is too rare in random deals to count
    on; the ace duty of lead_cards is checked against the engine in tests/test_solver.py.)"""
    _require_fast_path()
    declared = raised = made = failed = 0
    for case in range(8):
        rules = random_rules(random.Random(1900 + case))
        for d in fastsim.random_deals(rules, 40 + case, 120, record=True, fast=True):
            declared += any(24 <= m < 48 for m in d.moves)
            bids = [m - 1000 for m in d.moves if 1000 <= m < 100000]
            raised += d.contract > max(bids)
            made += d.values[d.declarer] > 0
            failed += d.values[d.declarer] < 0
    assert declared > 50 and raised > 50 and made > 5 and failed > 50


def test_random_rulesets_draw_every_option_the_fast_path_plays() -> None:
    """The random rulesets above vary every option whose declaration says the fast path
    plays it (a C field it reads), and nothing else: a new one must be drawn here too."""
    rng = random.Random(5)
    drawn = set()
    for _ in range(60):
        rules = random_rules(rng)
        drawn |= {name for name, o in OPTIONS.items() if o.off_default(rules)}
    assert drawn == {name for name, o in OPTIONS.items() if o.c is not None and o.c.fast_path}


def test_options_cross_by_name() -> None:
    """The fast path reads the table of the options by name: a ruleset's dict has each field
    of DEAL and PLAY once, and the C side refuses a dict without one of them."""
    from thousand.solver import native_options as no

    _require_fast_path()
    module = fastsim.fast_module()
    assert module is not None
    opts = no.values(no.DEAL + no.PLAY, Rules())
    assert sorted(opts) == sorted(f.name for f in no.DEAL + no.PLAY)
    del opts["bid_cap"]
    with pytest.raises(KeyError, match="bid_cap"):
        module.play(opts, 1, 0, 1, False)


def test_without_the_build_the_engine_plays(monkeypatch: pytest.MonkeyPatch) -> None:
    """Where the extension is not built (or stale), fast=None plays through the engine and
    fast=True says why."""
    monkeypatch.setattr(fastsim, "_tried", True)
    monkeypatch.setattr(fastsim, "_module", None)
    monkeypatch.setattr(fastsim, "build_error", "not built (test)")
    deals = fastsim.random_deals(Rules(), 3, 2, record=True)
    assert deals == [fastsim.engine_deal(Rules(), 3, k) for k in range(2)]
    with pytest.raises(RuntimeError, match="not built"):
        fastsim.random_deals(Rules(), 3, 1, fast=True)


def test_a_stale_build_is_not_used(monkeypatch: pytest.MonkeyPatch) -> None:
    """A build whose recorded hash is not that of the sources beside it (fastsim.c, core.c or
    options.h edited since) is not used, and build_error says to rebuild."""
    from thousand.solver import native_options as no

    _require_fast_path()
    monkeypatch.setattr(fastsim, "build_error", "")  # restored after the test
    monkeypatch.setattr(no, "source_hash", lambda module: "0123456789abcdef")
    assert fastsim._load() is None
    assert "older sources" in fastsim.build_error


def test_two_players_are_refused_and_played_by_the_engine() -> None:
    """Two players (RULES §4 "Two players" 1, 3, 5): the C path deals 7, 7, 7 and a talon of
    3, so it refuses players=2, saying why and to use fast=False; the engine's path deals
    10 and 10 and two talons of two from the same numbers, and plays ten tricks of two."""
    two = Rules.preset_rules("two")
    assert fastsim.supports(two) is False
    why = fastsim.why_unsupported(two)
    assert why is not None and "players=2" in why and "fast=False" in why
    with pytest.raises(RuntimeError, match="fast=False"):
        fastsim.random_deals(two, 1, 1, fast=True)
    deals = fastsim.random_deals(two, 4, 6, record=True)  # fast=None: the engine
    assert deals == fastsim.random_deals(two, 4, 6, record=True, fast=False)
    played = 0
    for d in deals:
        assert len(d.values) == 2
        if d.declarer < 0:
            continue
        bids_end = next(i for i, m in enumerate(d.moves) if mv.is_talon_choice(m))
        assert all(mv.is_bid(m) or m == mv.PASS for m in d.moves[:bids_end])
        assert sum(mv.is_discard(m) for m in d.moves) == 2
        cards = [m for m in d.moves if mv.is_card_play(m)]
        played += len(cards) == 20
    assert played >= 1
