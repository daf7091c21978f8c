"""The three fuzzers — hostile records (tests/test_fuzz_replay.py), hostile command lines
(tests/test_fuzz_cli.py) and hostile values at the engine's API (tests/test_fuzz_api.py) —
in one child pytest under ``RLIMIT_AS``: one interpreter and one import of the package for
the three, and a reader that tried to hold ``/dev/zero`` or build a huge structure fails
there with a MemoryError instead of swapping the machine.

The child runs the functions named ``child_*`` of the three files (the parent collects
none of them), with this run's Hypothesis profile (tests/depth.py: more examples under
``./run test --deep``).
"""

from __future__ import annotations

import os
import resource
import subprocess
import sys
from collections import Counter
from pathlib import Path
from xml.etree import ElementTree

import pytest
from hypothesis import settings

from depth import deep
from test_fuzz_replay import MEMORY_LIMIT

HERE = Path(__file__).resolve().parent
FUZZERS = ["test_fuzz_replay.py", "test_fuzz_cli.py", "test_fuzz_api.py"]

pytestmark = pytest.mark.fuzz


def run_in_child(test_files: list[str], tmp_path: Path, timeout: float = 300) -> Counter[str]:
    """Run the ``child_*`` tests of ``test_files`` in a child pytest with ``RLIMIT_AS`` set:
    how many passed in each file (the test fails unless every child test passed)."""

    def limit() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (MEMORY_LIMIT, MEMORY_LIMIT))

    env = {k: v for k, v in os.environ.items()
           if not k.startswith(("PYTEST_", "HYPOTHESIS_"))}
    env.update(HYPOTHESIS_STORAGE_DIRECTORY=str(tmp_path / "hyp"),
               PYTHONDONTWRITEBYTECODE="1", COLUMNS="120")
    result = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-p", "no:xdist",
         "-o", "python_functions=child_*", "--basetemp", str(tmp_path / "child"),
         f"--hypothesis-profile={settings.get_current_profile_name()}",
         f"--junit-xml={tmp_path / 'child.xml'}",
         *[str(HERE / f) for f in test_files]],
        cwd=HERE.parent, env=env, preexec_fn=limit, capture_output=True, text=True,
        timeout=timeout * (10 if deep() else 1), check=False,
    )
    tail = (result.stdout + result.stderr)[-6000:]
    assert result.returncode == 0, tail
    passed: Counter[str] = Counter()
    for case in ElementTree.parse(tmp_path / "child.xml").iter("testcase"):
        if not any(child.tag in ("failure", "error", "skipped") for child in case):
            passed[case.get("classname", "").rsplit(".", 1)[-1] + ".py"] += 1
    return passed


def test_the_fuzzers_under_a_memory_limit(tmp_path: Path) -> None:
    passed = run_in_child(FUZZERS, tmp_path)
    assert all(passed[f] > 0 for f in FUZZERS), passed  # every fuzzer ran in the child
