"""Build of the optional C core of the double-dummy solver (thousand.solver._csolver).

Everything else about the package is in pyproject.toml.  The extension is optional: when it
cannot be compiled (no compiler, no Python headers) the install goes on and the solver runs in
pure Python (thousand.solver.search), which gives the same answers, only slower.
"""

from setuptools import Extension, setup

setup(
    ext_modules=[
        Extension(
            "thousand.solver._csolver",
            sources=["src/thousand/solver/_native/core.c"],
            extra_compile_args=["-O3"],
            optional=True,
        )
    ]
)
