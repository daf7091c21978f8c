"""The scan of the servers' logs that closes every test run (conftest.py,
issue 16: no token and no traceback from a client's input reach a log)."""

from __future__ import annotations

import secrets
import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from conftest import _server_log_faults


@pytest.fixture
def outside() -> Iterator[Path]:
    """A folder outside the run's temporary folder, which the real scan reads at the end
    (the planted faults below must not fail the run)."""
    folder = Path(tempfile.mkdtemp(prefix="thousand-log-scan-"))
    yield folder
    shutil.rmtree(folder)


def test_the_scan_finds_a_traceback_and_a_token_and_passes_a_clean_log(outside: Path) -> None:
    tmp_path = outside
    clean = tmp_path / "a" / "serve.log"
    clean.parent.mkdir()
    clean.write_text('INFO: 127.0.0.1 - "GET /api/tables HTTP/1.1" 200\n', "utf-8")
    assert _server_log_faults(tmp_path) == []
    (tmp_path / "b").mkdir()
    (tmp_path / "b" / "server.log").write_text("Traceback (most recent call last):\n", "utf-8")
    (tmp_path / "c").mkdir()
    token = secrets.token_urlsafe(32)  # checks.new_token's shape
    (tmp_path / "c" / "serve.log").write_text(f"GET /ws/abc?token={token}\n", "utf-8")
    (tmp_path / "c" / "other.log").write_text("Traceback\n", "utf-8")  # not a server's
    faults = _server_log_faults(tmp_path)
    assert len(faults) == 2
    assert "traceback" in faults[0] and "server.log" in faults[0]
    assert "token" in faults[1] and token not in faults[1]
