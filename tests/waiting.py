"""One way for a test to wait: poll a condition until it holds or a deadline passes.

A test never sleeps a fixed time and then asserts (on a loaded machine the event may come
later); it polls with a deadline made for a loaded machine, and fails saying what did not
happen.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import TypeVar

import pytest

T = TypeVar("T")


def until(check: Callable[[], T], seconds: float = 120.0, what: str = "it happened",
          every: float = 0.05) -> T:
    """Poll ``check()`` every ``every`` seconds until its value is true (returned), or
    fail after ``seconds`` saying that ``what`` did not happen."""
    deadline = time.monotonic() + seconds
    while True:
        value = check()
        if value:
            return value
        if time.monotonic() > deadline:
            pytest.fail(f"not in {seconds:.0f} s: {what}")
        time.sleep(every)
