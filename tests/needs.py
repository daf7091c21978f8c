"""What a test needs from the machine, and what happens when it is missing.

On a developer's machine a test whose service or tool is missing is skipped, saying what to
install; under CI (``CI=true``, as ``.ci/run`` runs) it fails with the same line, so that a
green CI run means every kind of check ran.  The run's summary lists the skips that
remain (pytest's ``-ra`` in pyproject.toml).

Use :func:`need` where the test finds out at run time (a service that does not answer), or
the marker ``@pytest.mark.needs("chromium", ...)`` (tests/conftest.py checks it before the
test runs) for what can be asked at once: :data:`CHECKS` names each thing.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Callable
from functools import cache
from pathlib import Path
from typing import NoReturn

import pytest

CHROMIUM = "/usr/bin/chromium"
AXE = Path(__file__).parent / "js" / "node_modules" / "axe-core" / "axe.min.js"
PG_URL = os.environ.get("THOUSAND_TEST_PG",
                        "postgresql+psycopg://postgres@127.0.0.1:5432/test")
REDIS_URL = os.environ.get("THOUSAND_TEST_REDIS", "redis://127.0.0.1:6379/0")


def in_ci() -> bool:
    """CI=true (or 1, yes): a missing need fails the test instead of skipping it."""
    return os.environ.get("CI", "").strip().lower() in ("1", "true", "yes")


def need(what: str, why: str) -> NoReturn:
    """The test cannot run here because ``what`` is missing (``why`` says how it was found
    out and what to install): fail under CI, skip elsewhere."""
    line = f"needs {what}: {why}"
    if in_ci():
        pytest.fail(f"CI is missing what this test {line}", pytrace=False)
    pytest.skip(line)


def _one_line(e: BaseException) -> str:
    return " ".join(str(e).split())[:200]


def redis_problem(url: str = REDIS_URL) -> str | None:
    """Why Redis at ``url`` cannot serve the tests, or None when it answers PING."""
    import redis

    try:
        client = redis.Redis.from_url(url, socket_connect_timeout=2, socket_timeout=2)
        try:
            client.ping()
        finally:
            client.close()
    except Exception as e:
        return f"Redis at {url} is unreachable ({_one_line(e)}; Debian: apt-get install " \
               "redis-server)"
    return None


def postgres_problem(url: str = PG_URL) -> str | None:
    """Why PostgreSQL at ``url`` cannot serve the tests, or None when it answers."""
    import sqlalchemy as sa
    from sqlalchemy.engine import make_url

    parsed = make_url(url)
    try:
        engine = sa.create_engine(parsed, connect_args={"connect_timeout": 3})
        try:
            with engine.connect() as conn:
                conn.execute(sa.text("select 1"))
        finally:
            engine.dispose()
    except Exception as e:  # any reason: no driver, no server, no database
        return (f"PostgreSQL at {parsed.render_as_string(hide_password=True)} is unreachable "
                f"({_one_line(e)}; Debian: apt-get install postgresql)")
    return None


def _native_problem() -> str | None:
    import thousand.solver as solver

    if solver.HAVE_NATIVE:
        return None
    return "the solver's C core is not built (a C compiler and the Python headers: " \
           "apt-get install gcc python3-dev, then ./run test again)"


#: Each need by name: a function saying why it is missing, or None when it is there.
CHECKS: dict[str, Callable[[], str | None]] = {
    "chromium": lambda: None if os.path.exists(CHROMIUM)
    else f"no {CHROMIUM} (Debian: apt-get install chromium)",
    "axe-core": lambda: None if AXE.is_file()
    else "axe-core is not installed (npm ci --prefix tests/js; ./run test does it)",
    "node": lambda: None if shutil.which("node")
    else "node is not installed (Debian: apt-get install nodejs)",
    "nginx": lambda: None if shutil.which("nginx") and shutil.which("openssl")
    else "no nginx or no openssl (Debian: apt-get install nginx-light openssl)",
    "redis-server": lambda: None if shutil.which("redis-server")
    else "redis-server is not installed (Debian: apt-get install redis-server)",
    "redis": redis_problem,
    "postgres": postgres_problem,
    "c-compiler": lambda: None if shutil.which("cc") or shutil.which("gcc")
    else "no C compiler (Debian: apt-get install gcc python3-dev)",
    "c-core": _native_problem,
}

#: THOUSAND_PURE_PYTHON=1 runs the suite without the C cores on purpose: then the tests of
#: the cores are skipped whatever CI says.
PURE_PYTHON = os.environ.get("THOUSAND_PURE_PYTHON") == "1"


@cache
def problem(what: str) -> str | None:
    """Why ``what`` (a name of :data:`CHECKS`) is missing, asked once a run."""
    return CHECKS[what]()


def require(*what: str) -> None:
    """Fail (CI) or skip unless every need in ``what`` is there."""
    for name in what:
        if PURE_PYTHON and name in ("c-compiler", "c-core"):
            pytest.skip("THOUSAND_PURE_PYTHON=1: the suite runs without the C cores on purpose")
        why = problem(name)
        if why is not None:
            need(name, why)
