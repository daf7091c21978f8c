"""The build the tests run on: the solver's compiled core must be there and current.

The C core is optional for users (a machine without a compiler plays on the pure-Python
solver, which gives the same answers), but a test run that silently skipped the native
tests, or used a core built from an older core.c, would prove nothing about it. Set
``THOUSAND_PURE_PYTHON=1`` to run the suite on purpose without it.
"""

from __future__ import annotations

import os

import pytest

import thousand.solver as solver


@pytest.mark.skipif(os.environ.get("THOUSAND_PURE_PYTHON") == "1",
                    reason="THOUSAND_PURE_PYTHON=1: the suite runs without the C core on purpose")
def test_the_compiled_solver_core_is_built_and_current() -> None:
    """docs/solver.md: the C core is compiled from this checkout's core.c (./run rebuilds it
    when core.c changes); a missing or stale core fails here instead of skipping."""
    assert solver._native_mod is not None, "the C core is not compiled: run ./run test again"
    assert not solver._stale_build(), "the C core is older than core.c: reinstall (./run)"
    assert solver.HAVE_NATIVE
