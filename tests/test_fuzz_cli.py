"""Hostile command lines: one clear line (two for a usage error), exit status 2, bounded
time and memory, nothing changed.

* usage errors (an unknown option, a missing argument, a bad number): ``error: ...`` and
  the usage line, never Rich's boxed panel;
* ``--set`` values of any size and shape: one ``error:`` line (the lead bounded every
  numeric option in rules.py; checked here from the command line);
* ``arena --save FILE`` on a file that is there: refused, the file untouched;
* any OSError a command lets through (missing file, directory, permission): one line;
* random command lines of the commands' own options and hostile values (Hypothesis).

As in tests/test_fuzz_replay.py, the ``child_*`` functions are the tests of a child pytest
under ``RLIMIT_AS``, run in-process through :func:`thousand.cli.run`; a few tests run the
real entry point in a process of its own.
"""

from __future__ import annotations

import os
import resource
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from test_fuzz_replay import (
    CORPUS,
    EXAMPLES,
    MAX_LINE,
    MEMORY_LIMIT,
    TIME_LIMIT,
    invoke,
    snapshot,
)
from thousand.cli import language_of
from thousand.engine.record import dumps_record

pytestmark = pytest.mark.fuzz

CLI = [sys.executable, "-c", "from thousand.cli import main; main()"]
BOX = "╭│╰─"


#: How an error line starts in each language (the command line's language:
#: :func:`thousand.cli.language_of`, ``--lang`` or the command's default).
PREFIX = {"en": "error: ", "ru": "ошибка: "}
USAGE_PREFIX = {"en": "Usage: thousand", "ru": "Запуск: thousand"}


def check_error(code: int, out: str, err: str, seconds: float, *, lines: int = 1,
                label: str = "", lang: str = "en") -> None:
    """A failure: exit 2, nothing on stdout, ``lines`` short lines on stderr."""
    where = f"{label}: exit {code}, stderr {err[:400]!r}"
    assert seconds < TIME_LIMIT, where
    assert code == 2, where
    assert out == "", where
    assert err.endswith("\n") and err.count("\n") == lines, where
    assert err.startswith(PREFIX[lang]), where
    assert all(len(line) <= MAX_LINE for line in err.splitlines()), where
    assert "Traceback" not in err and not any(c in err for c in BOX), where


def check_usage(code: int, out: str, err: str, seconds: float, label: str = "",
                lang: str = "en") -> None:
    check_error(code, out, err, seconds, lines=2, label=label, lang=lang)
    assert err.splitlines()[1].startswith(USAGE_PREFIX[lang]), err


# ------------------------------------------------------------------ usage errors

USAGE = [
    ["replay"],
    ["replay", "--jsn", "game.json"],
    ["replay", "a.json", "b.json"],
    ["replay", "--lang"],
    ["arena", "-n", "abc"],
    ["arena", "-n", "9" * 5000],
    ["arena", "--jobs", "²"],
    ["arena", "--seed", "1e9"],
    ["play", "--seat", "x"],
    ["play", "--bogus"],
    ["rules", "--bogus"],
    ["rules", "a", "b"],
    ["nosuch"],
    ["--bogus"],
    ["replay", "-" + "x" * 5000],
]


@pytest.mark.parametrize("args", USAGE, ids=[" ".join(a)[:40] for a in USAGE])
def child_usage_errors_are_one_line_and_the_usage(args: list[str]) -> None:
    code, out, err, seconds = invoke(args)
    check_usage(code, out, err, seconds, label=" ".join(args)[:60], lang=language_of(args))


def child_no_arguments_and_help() -> None:
    code, out, err, _ = invoke([])
    assert code == 2 and "Usage: thousand" in out + err and "Traceback" not in err
    code, out, err, _ = invoke(["replay", "--help"])
    assert code == 0 and "FILE" in out and err == ""


# ------------------------------------------------------------------ --set

SETS = [
    "win_score=" + "9" * 5000,
    "win_score=1e9",
    "barrel=",
    "bid_step=1e9",
    "bid_step=" + "5" * 30,
    "rounding=²",
    "rounding=٣",
    "penalty=-" + "1" * 100,
    "x" * 10_000 + "=1",
    "samosval=" + ",".join(["5"] * 10_000),
    "samosval=" + "[" * 1000,
    "=",
    "novalue",
    "players=²",
    "max_deals=0",
    "max_deals=" + "1" * 4400,
    "dark=maybe",
    "bid_step=\udcff",
    "bid_step=[/]",
    "win_score=10\n0",
]


@pytest.mark.parametrize("value", SETS, ids=[v[:30] for v in SETS])
@pytest.mark.parametrize("command", ["rules", "arena", "play"])
def child_set_values_of_any_size(command: str, value: str) -> None:
    extra = {"rules": [], "arena": ["-n", "1"], "play": []}[command]
    args = [command, "--set", value, *extra]
    code, out, err, seconds = invoke(args)
    check_error(code, out, err, seconds, label=f"{command} --set {value[:40]}",
                lang=language_of(args))


def child_large_allowed_values_are_accepted() -> None:
    for value in ("win_score=100000", "max_deals=100000", "barrel=none"):
        code, _, err, _ = invoke(["rules", "--set", value, "--json"])
        assert code == 0 and err == "", (value, err)


def child_many_set_options() -> None:
    args = ["rules"]
    for _ in range(5000):
        args += ["--set", "bid_step=10"]
    code, _, _, seconds = invoke([*args, "--json"])
    assert code == 0 and seconds < TIME_LIMIT


# ------------------------------------------------------------------ files


@pytest.mark.parametrize("duplicate", [False, True], ids=["arena", "duplicate"])
def child_arena_save_on_a_file_leaves_it_alone(tmp_path: Path, duplicate: bool) -> None:
    record = tmp_path / "game.json"
    record.write_text(dumps_record(CORPUS[0]), encoding="utf-8")
    before = snapshot(tmp_path)
    flags = ["--duplicate"] if duplicate else []
    for save, reason in (
        (record, "a file is there; --save names a directory"),
        (record / "sub", "cannot make the directory: Not a directory"),
    ):
        args = ["arena", "--bots", "random,random,random", "-n", "1", "--quiet", *flags,
                "--save", str(save)]
        code, out, err, seconds = invoke(args)
        check_error(code, out, err, seconds, label=str(save))
        assert reason in err
    assert snapshot(tmp_path) == before


@pytest.mark.parametrize(
    ("error", "line"),
    [
        (PermissionError(13, "Permission denied", "/etc/thousand"),
         "error: /etc/thousand: Permission denied\n"),
        (IsADirectoryError(21, "Is a directory", "/tmp"), "error: /tmp: Is a directory\n"),
        (FileNotFoundError(2, "No such file or directory"), "error: No such file or directory\n"),
        (OSError("disk on fire\nsecond line"), "error: disk on fire second line\n"),
    ],
    ids=["permission", "directory", "missing", "no errno"],
)
def child_an_uncaught_os_error_is_one_line(
    monkeypatch: pytest.MonkeyPatch, error: OSError, line: str
) -> None:
    """Whatever a command lets through: ``error: FILE: REASON``, exit 2."""
    import thousand.cli.rules_cmd as rules_cmd

    def broken(*args: object, **kwargs: object) -> str:
        raise error

    monkeypatch.setattr(rules_cmd, "explain", broken)
    code, out, err, seconds = invoke(["rules", "--explain", "dark", "--lang", "en"])
    check_error(code, out, err, seconds)
    assert err == line


def child_a_closed_pipe_is_quiet(monkeypatch: pytest.MonkeyPatch) -> None:
    """``thousand rules | head -1``: the reader went away; no message, exit 1."""
    import thousand.cli.rules_cmd as rules_cmd

    def broken(*args: object, **kwargs: object) -> str:
        raise BrokenPipeError(32, "Broken pipe")

    monkeypatch.setattr(rules_cmd, "explain", broken)
    code, out, err, _ = invoke(["rules", "--explain", "dark"])
    assert (code, out, err) == (1, "", "")


def child_a_permission_denied_file(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    path.write_text(dumps_record(CORPUS[0]), encoding="utf-8")
    path.chmod(0)
    try:
        if os.access(path, os.R_OK):
            pytest.skip("running as root: every file is readable")
        code, out, err, seconds = invoke(["replay", str(path)])
        check_error(code, out, err, seconds)
        assert err == f"error: {path}: cannot read it: Permission denied\n"
    finally:
        path.chmod(0o644)


# ------------------------------------------------------------------ random command lines

OPTIONS = {
    "rules": ["--set", "-s", "--lang", "--explain", "--json", "--help"],
    "replay": ["--json", "--lang"],
    "arena": ["--bots", "-n", "--games", "--preset", "--set", "--seed", "--jobs", "-j",
              "--save", "--quiet", "--duplicate", "--whole-games", "--resume", "--lang"],
    "play": ["--set", "--bots", "--lang", "--seed", "--save", "--open", "--seat", "--names",
             "--preset"],
}
VALUES = [
    "", "-", "--", "0", "-1", "1", "3", "²", "٣", "9" * 5000, "1e9", "[/]", "[bold]x",
    "\udcff", "a\nb", "classic", "house", "textbook", "ru", "en", "de", "heuristic",
    "random,random,random", "random,,", "x" * 3000, "win_score=1e9", "barrel=", "bid_step=10",
    "dark=on", "players=4", "dark", "nosuch.json", "/dev/null", "/", "/dev/zero",
]


@st.composite
def command_lines(draw: st.DrawFn) -> list[str]:
    command = draw(st.sampled_from(sorted(OPTIONS)))
    args = [command]
    for _ in range(draw(st.integers(0, 5))):
        if draw(st.booleans()):
            args.append(draw(st.sampled_from(OPTIONS[command])))
        args.append(draw(st.sampled_from(VALUES)))
    # Never start a game: the arena plays no game with -n 0, a game has no seat 99.
    if command == "arena":
        args += ["-n", "0"]
    if command == "play":
        args += ["--seat", "99"]
    return args


@settings(max_examples=EXAMPLES, deadline=None, database=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(args=command_lines())
def child_random_command_lines(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, args: list[str]
) -> None:
    monkeypatch.chdir(tmp_path)  # a relative --save or FILE lands here, not in the repository
    before = snapshot(tmp_path)
    with open("/dev/null", "rb") as stdin:
        code, _, err, seconds = invoke(args, stdin=stdin)
    label = repr(args)[:300]
    assert seconds < TIME_LIMIT, label
    assert "Traceback" not in err and not any(c in err for c in BOX), label
    if code == 0:
        assert err == "", label
    else:
        assert code in (1, 2), label
        assert err.startswith(PREFIX[language_of(args)]) or (
            # a --lang the command refuses is said in the command's own default
            err.startswith(tuple(PREFIX.values())) and "--lang" in args), label
        assert 1 <= err.count("\n") <= 2 and err.endswith("\n"), label
        assert all(len(line) <= MAX_LINE for line in err.splitlines()), label
    assert snapshot(tmp_path) == before, label


# ------------------------------------------------------------------ the real entry point


def _limited() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (MEMORY_LIMIT, MEMORY_LIMIT))


def _thousand(*args: str, stdin: int | None = None, cwd: Path | None = None
              ) -> subprocess.CompletedProcess[str]:
    return subprocess.run([*CLI, *args], capture_output=True, text=True, timeout=120,
                          check=False, preexec_fn=_limited, stdin=stdin, cwd=cwd,
                          env={**os.environ, "COLUMNS": "80"})


def test_real_process_dev_zero_and_usage(tmp_path: Path) -> None:
    """The installed entry point (``main``) under the same address-space limit."""
    zero = _thousand("replay", "/dev/zero")
    assert zero.returncode == 2
    assert zero.stderr == "error: /dev/zero: larger than 10 MB; a game record is far smaller\n"
    with open("/dev/zero", "rb") as f:
        piped = _thousand("replay", "-", stdin=f.fileno())
    assert piped.returncode == 2 and piped.stderr.count("\n") == 1
    usage = _thousand("replay", "--jsn", "game.json")
    assert usage.returncode == 2 and usage.stdout == ""
    assert usage.stderr.splitlines() == [
        "error: No such option: --jsn (Possible options: --json)",
        usage.stderr.splitlines()[1],
    ]
    assert usage.stderr.splitlines()[1].startswith("Usage: thousand replay")
    record = tmp_path / "game.json"
    record.write_text("{}", encoding="utf-8")
    arena = _thousand("arena", "--bots", "random,random,random", "-n", "1", "--save",
                      str(record), cwd=tmp_path)
    assert arena.returncode == 2 and arena.stderr.count("\n") == 1
    assert record.read_text(encoding="utf-8") == "{}"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["game.json"]
