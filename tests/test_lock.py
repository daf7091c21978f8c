"""The lock file and the way ./run installs from it (README "Dependencies").

``uv.lock`` pins every version ``./run`` and CI install; ``pyproject.toml`` says the ranges.
When the two disagree (a dependency added or a range changed without ``./run lock``) the
suite fails here, and ``./run`` refuses to install, naming ``./run lock``.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
UV = Path(sys.executable).parent / "uv"  # the lock's own uv, in the test environment


def test_the_lock_matches_pyproject() -> None:
    """`uv lock --check`: uv.lock is what pyproject.toml resolves to (offline: from what is
    recorded in the lock and uv's cache)."""
    done = subprocess.run([str(UV), "lock", "--check"], cwd=ROOT,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, (f"uv.lock does not match pyproject.toml (run ./run lock): "
                                  f"{done.stderr[-2000:]}")


def test_run_refuses_a_lock_older_than_pyproject(tmp_path: Path) -> None:
    """A copy of the project whose pyproject.toml asks a range the lock does not satisfy:
    ./run installs nothing and says to run ./run lock."""
    for name in ("run", "pyproject.toml", "uv.lock", "setup.py", "README.md", "LICENSE"):
        shutil.copy2(ROOT / name, tmp_path / name)
    shutil.copytree(ROOT / "src", tmp_path / "src",
                    ignore=shutil.ignore_patterns("__pycache__", "*.so", "*.egg-info"))
    pyproject = tmp_path / "pyproject.toml"
    text = pyproject.read_text("utf-8")
    assert '"orjson>=3.10,<4"' in text
    pyproject.write_text(text.replace('"orjson>=3.10,<4"', '"orjson>=3.11,<4"'), "utf-8")
    env = {**os.environ, "PATH": f"{UV.parent}:{os.environ['PATH']}"}
    done = subprocess.run(["./run", "--version"], cwd=tmp_path, capture_output=True,
                          text=True, timeout=300, env=env)
    assert done.returncode == 1, done.stdout + done.stderr
    assert "uv.lock does not match pyproject.toml: run ./run lock" in done.stderr, done.stderr
    assert not (tmp_path / ".venv" / "bin" / "thousand").exists()
