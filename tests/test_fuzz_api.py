"""Hostile values at the engine's API: every one is refused with the engine's own error and
changes nothing, in bounded time and memory.

* ``Deal.apply`` / ``Game.apply``: negative numbers, numbers past every move, floats equal
  to a legal move (``1105.0``), bools, strings, ``None``; a failed move in the dark choice
  leaves the implied ``look`` unapplied;
* ``view(seat)`` for a seat that is not at the table;
* ``Table.submit``: any seat, move and version; ``parse_client_message`` on any text;
* ``Rules``: numbers of any size for every numeric option (each bounded, RULES §4).

As in tests/test_fuzz_replay.py, the ``child_*`` functions run in a child pytest under
``RLIMIT_AS`` (tests/test_fuzzers.py).
"""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from test_fuzz_replay import EXAMPLES
from thousand.engine.deal import Phase
from thousand.engine.errors import IllegalMove
from thousand.engine.game import Game
from thousand.engine.protocol import ProtocolError, parse_client_message
from thousand.engine.rules import OPTION_NAMES, PRESET_NAMES, Rules, RulesError
from thousand.engine.table import Table, TableError

pytestmark = pytest.mark.fuzz

JUNK = st.one_of(
    st.integers(-10**30, 10**30),
    st.integers(-30, 120),
    st.floats(allow_nan=True),
    st.booleans(),
    st.none(),
    st.text(max_size=40),
    st.lists(st.integers(), max_size=3),
)


def random_position(seed: int, steps: int, preset: str) -> Game:
    rng = random.Random(seed)
    g = Game(Rules.preset_rules(preset, max_deals=3), seed=seed)
    for _ in range(steps):
        if g.over:
            break
        g.apply(rng.choice(g.legal_moves()))
    return g


def state(g: Game) -> str:
    deal = g.deal
    views = [g.view(s) for s in (None, *range(g.n))] if deal is not None else []
    return repr((views, g.scores, [r.moves for r in g.records]))


@settings(max_examples=max(EXAMPLES // 4, 50), deadline=None,
          suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10**6), steps=st.integers(0, 80),
       preset=st.sampled_from(PRESET_NAMES), junk=JUNK)
def child_apply_refuses_what_is_not_a_legal_move(
    seed: int, steps: int, preset: str, junk: Any
) -> None:
    """Game.apply takes a legal move or raises IllegalMove; nothing changes either way but
    by the legal move itself."""
    g = random_position(seed, steps, preset)
    if g.over:
        return
    legal = g.legal_moves()
    if type(junk) is int and junk in legal:
        return
    before = state(g)
    with pytest.raises(IllegalMove):
        g.apply(junk)
    assert state(g) == before


@settings(max_examples=max(EXAMPLES // 4, 50), deadline=None)
@given(seed=st.integers(0, 10**6), junk=st.integers(-50, 10**6))
def child_a_failed_move_in_the_dark_choice_leaves_the_hand_unseen(seed: int, junk: int) -> None:
    """RULES §4 dark: an illegal move in the dark choice does not leave the implied look
    applied: the seat still has not seen its hand."""
    g = Game(Rules.preset_rules("house", golden_deals=False), seed=seed, first_dealer=0)
    deal = g.deal
    assert deal is not None and deal.phase == Phase.DARK_CHOICE
    before = state(g)
    try:
        g.apply(junk)
    except IllegalMove:
        assert state(g) == before
        assert deal.phase == Phase.DARK_CHOICE and g.view(deal.to_move).hand is None


@settings(max_examples=max(EXAMPLES // 4, 50), deadline=None)
@given(seat=JUNK)
def child_view_of_a_seat_not_at_the_table(seat: Any) -> None:
    """view(seat): a seat of the table or None; anything else is a ValueError."""
    g = Game(seed=1)
    if seat is None or (type(seat) is int and 0 <= seat < 3):
        g.view(seat)
        return
    with pytest.raises(ValueError, match="no seat"):
        g.view(seat)


@settings(max_examples=max(EXAMPLES // 4, 50), deadline=None,
          suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10**6), steps=st.integers(0, 60), seat=JUNK, move=JUNK,
       version=JUNK)
def child_table_refuses_any_wrong_message(
    seed: int, steps: int, seat: Any, move: Any, version: Any
) -> None:
    """Table.submit: a wrong seat, move or version is a TableError with a code; the table,
    its version and its log stay as they were."""
    table = Table(Rules.preset_rules("classic", talon_buy=True), seed=seed)
    rng = random.Random(seed)
    for _ in range(steps):
        table.submit(table.to_move, rng.choice(table.view(table.to_move).legal),  # type: ignore
                     table.version)
    before = (json.dumps(table.snapshot(None)), table.version, len(table.log))
    try:
        table.submit(seat, move, version)
    except TableError as e:
        assert e.code in ("not_your_turn", "stale_version", "malformed", "illegal_move",
                          "no_such_seat")
        assert (json.dumps(table.snapshot(None)), table.version, len(table.log)) == before
        json.dumps(e.to_json())  # plain data


@settings(max_examples=max(EXAMPLES // 2, 100), deadline=None)
@given(raw=st.one_of(st.text(max_size=300), st.binary(max_size=300),
                     st.recursive(st.none() | st.booleans() | st.integers() | st.text(max_size=8),
                                  lambda kids: st.lists(kids, max_size=4)
                                  | st.dictionaries(st.text(max_size=8), kids, max_size=4),
                                  max_leaves=12).map(json.dumps)))
def child_client_messages_parse_or_say_why(raw: Any) -> None:
    """parse_client_message: a message or a ProtocolError, never another exception."""
    try:
        msg = parse_client_message(raw)
    except ProtocolError as e:
        assert str(e)
    else:
        assert msg.type in ("move", "sync", "snapshot")


@settings(max_examples=max(EXAMPLES // 2, 100), deadline=None)
@given(option=st.sampled_from(OPTION_NAMES), value=st.integers(-10**40, 10**40))
def child_every_numeric_option_is_bounded(option: str, value: int) -> None:
    """RULES §4: every option has a range the engine can play; a huge value is a RulesError
    naming the option, at once, and never a ruleset."""
    try:
        r = Rules.preset_rules("classic", **{option: value})
    except RulesError as e:
        # the option is named: first, or in a combination it breaks ("barrel: 880 is not
        # allowed; use a score below win_score (1)")
        assert str(e).startswith(option) or option in str(e), str(e)
        return
    assert abs(value) <= 100_000, f"{option}={value} was accepted"
    assert r.bid_cap <= 1000
