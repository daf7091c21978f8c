"""Build of the optional C cores: the double-dummy solver's (thousand.solver._csolver) and the
fast path of random play (thousand.envs._fastsim, which includes the solver's core).

Everything else about the package is in pyproject.toml.  Both extensions are optional: when they
cannot be compiled (no compiler, no Python headers) the install goes on, says what to install,
and the pure-Python paths serve instead (the solver in thousand.solver.alphabeta, which gives the
same answers, only slower; fastsim plays through the engine).

Before building, the header of the options (src/thousand/solver/_native/options.h) is written
from its one table, thousand/solver/native_options.py.  Each module records a hash of its
sources (native_options.source_hash), so that an edited checkout not rebuilt is told stale at
import and not used.
"""

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

HERE = Path(__file__).resolve().parent


def _options_table() -> ModuleType:
    """thousand.solver.native_options, loaded by its path (the package is not installed yet)."""
    path = HERE / "src" / "thousand" / "solver" / "native_options.py"
    spec = importlib.util.spec_from_file_location("_thousand_native_options", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up
    spec.loader.exec_module(module)
    return module


table = _options_table()
table.write_header()

NO_COMPILER = """
*** thousand: the C cores ({name}) could not be compiled:
***   {error}
*** The game works without them (the solver in pure Python, several times slower; the fast
*** random play of thousand.envs.fastsim through the engine).  To build them, install a C
*** compiler and the Python headers (Debian/Ubuntu: apt-get install gcc python3-dev; Fedora:
*** dnf install gcc python3-devel; macOS: xcode-select --install) and install again
*** (pip install -e .).
"""


class OptionalBuild(build_ext):
    """build_ext that reports a failed compile with what to install, and goes on."""

    def build_extension(self, ext: Extension) -> None:
        try:
            super().build_extension(ext)
        except Exception as e:  # any compiler failure: the build goes on
            sys.stderr.write(NO_COMPILER.format(name=ext.name, error=str(e).strip()[-300:]))


def _extension(name: str) -> Extension:
    sources = table.SOURCES[name]
    return Extension(
        name,
        sources=[str(sources[0].relative_to(HERE))],
        depends=[str(p.relative_to(HERE)) for p in sources[1:]],
        define_macros=[("CORE_SOURCE_HASH", f'"{table.source_hash(name)}"')],
        extra_compile_args=["-O3"],
        optional=True,  # a failed build leaves the module out (the pure-Python paths serve)
    )


setup(
    ext_modules=[_extension(name) for name in table.SOURCES],
    cmdclass={"build_ext": OptionalBuild},
)
