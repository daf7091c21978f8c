"""A deal anyone can check (docs/record.md "commitment", thousand.engine.fairness): a table
publishes a hash of each deal's cards with a secret salt when the deal starts and reveals
the salt when it ends; ``thousand verify`` recomputes it from the record."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path
from typing import Any

from thousand.engine.fairness import commitment, salt_for, verify_commitment
from thousand.engine.record import load_record
from thousand.engine.rules import Rules
from thousand.engine.table import Table

VERIFY = [sys.executable, "-c", "from thousand.cli import main; main()", "verify"]


def played(seed: int, deals: int, stop_early: int = 0) -> Table:
    table = Table(Rules.preset_rules("classic", max_deals=deals), seed=seed)
    rng = random.Random(seed)
    while not table.over:
        if stop_early and len(table.moves) >= stop_early:
            break
        seat = table.to_move
        assert seat is not None
        table.submit(seat, rng.choice(table.view(seat).legal), table.version)
    return table


def test_the_commitment_is_published_at_the_start_and_the_salt_at_the_end() -> None:
    """The deal_started event carries the hash of the cards dealt; the salt comes with
    deal_scored; hash(salt + cards) is the published hash."""
    table = played(5, 2)
    started = [e for e in table.log if e["type"] == "deal_started"]
    scored = [e for e in table.log if e["type"] == "deal_scored"]
    assert len(started) == len(scored) == 2
    for k, (start, end) in enumerate(zip(started, scored, strict=True)):
        rec = table.game.records[k]
        assert start["commitment"] == commitment(rec.hands, rec.talon, end["salt"])
        assert end["salt"] == salt_for(table.seed, k)
        assert start["v"] < end["v"]


def test_the_salt_stays_secret_while_the_deal_is_played() -> None:
    """The record of a table in the middle of a deal holds the deal's hash but not its salt;
    no event told the salt either."""
    table = played(6, 3, stop_early=20)
    rec = table.to_record()
    last = rec["deals"][-1]["commitment"]
    assert "salt" not in last and len(last["sha256"]) == 64
    secret = salt_for(table.seed, len(rec["deals"]) - 1)
    assert secret not in json.dumps(table.log)


def test_a_changed_card_breaks_the_commitment() -> None:
    """verify_commitment: the recorded cards must be the committed ones."""
    table = played(7, 1)
    rec = table.game.records[0]
    salt = salt_for(table.seed, 0)
    digest = commitment(rec.hands, rec.talon, salt)
    assert verify_commitment(rec.hands, rec.talon, digest, salt)
    swapped = (rec.hands[1], rec.hands[0], *rec.hands[2:])
    assert not verify_commitment(swapped, rec.talon, digest, salt)
    assert not verify_commitment(rec.hands, rec.talon, digest, "0" * 64)


def test_a_restored_table_makes_the_same_commitments() -> None:
    """The salt comes from the table's secret seed: a table restored from its record and
    seed publishes the same hashes."""
    table = played(8, 2, stop_early=40)
    again = Table.from_record(table.to_record(with_seed=True))
    assert again.to_record() == table.to_record()


def run_verify(path: Path) -> tuple[int, str, str]:
    done = subprocess.run([*VERIFY, str(path)], capture_output=True, text=True, timeout=60,
                          check=False)
    return done.returncode, done.stdout, done.stderr


def test_thousand_verify(tmp_path: Path) -> None:
    """thousand verify: 0 when every deal matches; 1 for a changed salt or card, or a deal
    not yet revealed; the same one line as thousand replay for an illegal move (1) or a
    malformed file (2)."""
    table = played(9, 2)
    good = tmp_path / "good.json"
    rec: dict[str, Any] = table.to_record()
    good.write_text(json.dumps(rec), encoding="utf-8")
    code, out, _ = run_verify(good)
    assert code == 0 and out.count("match the commitment") == 2 and "all 2 deals verified" in out
    load_record(good.read_text(encoding="utf-8"))  # the commitment is part of the format

    rec["deals"][1]["commitment"]["salt"] = "1" * 64
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(rec), encoding="utf-8")
    code, out, err = run_verify(bad)
    assert code == 1 and "deal 2: the cards do NOT match" in out and err.count("\n") == 1

    midway = tmp_path / "midway.json"
    midway.write_text(json.dumps(played(10, 3, stop_early=15).to_record()), encoding="utf-8")
    code, out, _ = run_verify(midway)
    assert code == 1 and "salt not revealed yet" in out

    rec["deals"][0]["commitment"]["sha256"] = "xyz"
    broken = tmp_path / "broken.json"
    broken.write_text(json.dumps(rec), encoding="utf-8")
    code, _, err = run_verify(broken)
    assert code == 2 and "64 hexadecimal digits" in err
