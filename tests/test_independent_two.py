"""The engine's two-player game against an independent reading of the rules
(tests/independent_two.py, RULES §4 "Two players" 1-8): random games' records replayed by
``thousand replay --json`` (its function, and the CLI itself once) and by the independent
implementation must print the same JSON."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from thousand.engine.game import Game
from thousand.engine.record import game_to_record, replay
from thousand.engine.rules import Rules

sys.path.insert(0, str(Path(__file__).parent))
from independent_two import replay_json

THOUSAND = Path(sys.executable).with_name("thousand")


def random_record(seed: int, max_deals: int | None, timid: bool = False) -> dict[str, Any]:
    """A random game's record; ``timid``: the opener plays 100 and the other passes at
    once, so that scores climb to the barrel and the win."""
    rng = random.Random(seed)
    g = Game(Rules.preset_rules("two", max_deals=max_deals or 200), seed=seed,
             first_dealer=seed % 2)
    while not g.over:
        legal = g.legal_moves()
        g.apply(legal[0] if timid and legal[0] not in CARDS else rng.choice(legal))
    return game_to_record(g)


#: The card plays (led or followed, declared or not): played at random even when timid.
CARDS = frozenset(range(48))


@pytest.mark.parametrize("seed", range(30))
def test_the_engine_and_the_independent_reading_agree(seed: int) -> None:
    """Two players 1-8: every deal's declarer, contract, points and scores, the final
    scores and the winner, short games and (every fifth) games played to the end."""
    record = random_record(seed, None if seed % 5 == 0 else 6, timid=seed % 3 == 1)
    assert replay_json(record) == replay(record).to_json()


def test_the_cli_prints_what_the_independent_reading_computes(tmp_path: Path) -> None:
    """Two players 8: `thousand replay FILE --json` itself, on one record."""
    record = random_record(99, 4)
    path = tmp_path / "two.json"
    path.write_text(json.dumps(record), encoding="utf-8")
    out = subprocess.run([str(THOUSAND), "replay", str(path), "--json"], capture_output=True,
                         text=True, timeout=60, check=True)
    assert json.loads(out.stdout) == replay_json(record)
