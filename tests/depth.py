"""How deep a run goes: the default run (``./run test``, what CI runs) or the deep sweeps
(``./run test --deep``: Hypothesis's profile ``deep``, and the tests marked ``slow``).

One knob for every family of random tests: a test asks :func:`examples` for its count in
each kind of run, instead of reading an environment variable of its own.  The profiles are
registered in tests/conftest.py; docs/testing.md lists what moved to the deep run.
"""

from __future__ import annotations

from collections.abc import Container, Iterable
from typing import Any

import pytest
from hypothesis import settings


def deep() -> bool:
    """Whether this is the deep run (``--hypothesis-profile=deep``)."""
    return settings.get_current_profile_name() == "deep"


def examples(default: int, deep_count: int) -> int:
    """The number of examples (games, records, messages…) of a random test: ``default`` in
    the default run, ``deep_count`` in the deep one."""
    return deep_count if deep() else default


def kept(values: Iterable[Any], default: Container[Any]) -> list[Any]:
    """Parameters of a sweep: those in ``default`` run in every run, the others only in
    the deep one (marked ``slow``), e.g. one deal of every preset in the browser.  A tuple
    is the parameters of several names."""
    return [v if v in default else pytest.param(*(v if isinstance(v, tuple) else (v,)),
                                                marks=pytest.mark.slow) for v in values]
