"""Build of the optional C core of the double-dummy solver (thousand.solver._csolver).

Everything else about the package is in pyproject.toml.  The extension is optional: when it
cannot be compiled (no compiler, no Python headers) the install goes on and the solver runs in
pure Python (thousand.solver.search), which gives the same answers, only slower.

The module records a hash of its source, so that thousand.solver can tell a stale build (core.c
edited since the last ``pip install -e .``) and fall back to pure Python instead of using it.
"""

import hashlib
from pathlib import Path

from setuptools import Extension, setup

SOURCE = "src/thousand/solver/_native/core.c"
source_hash = hashlib.sha256(Path(__file__).with_name("src").joinpath(
    "thousand", "solver", "_native", "core.c").read_bytes()).hexdigest()[:16]

setup(
    ext_modules=[
        Extension(
            "thousand.solver._csolver",
            sources=[SOURCE],
            define_macros=[("CORE_SOURCE_HASH", f'"{source_hash}"')],
            extra_compile_args=["-O3"],
            optional=True,
        )
    ]
)
