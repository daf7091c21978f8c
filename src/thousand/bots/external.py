"""A bot in any language: a seat played by a command that speaks the table protocol as
JSON lines on its standard input and output (docs/bots.md, "A bot in any language").

One JSON object a line; the bot writes nothing but its answers on its standard output
(its standard error is the arena's):

* to the bot, once: ``{"type": "hello", "seat": N, "timeout": 5.0, "table": <header>}``
  (the header of :func:`thousand.engine.protocol.table_header`: protocol version, rules, names);
* to the bot, at each of its turns: ``{"type": "move_request", "version": V,
  "view": <its seat's view_json>, "events": [<the events of its seat since its last
  request>]}``;
* from the bot, the answer: ``{"type": "move", "move": "<notation>", "version": V}``, the
  client message of :func:`thousand.engine.protocol.parse_client_message`; the move must be one
  of ``view.legal``;
* to the bot, at the end: ``{"type": "game_over", "finished": true, "winner": W,
  "scores": [...], "events": [...]}`` (``finished`` is false when the arena stops the
  game early, as the duplicate arena does after one deal); then its standard input is
  closed, and the process is given a second to exit before it is killed.

One process plays one game: :meth:`ExternalBot.sit` starts it, :meth:`ExternalBot.stand`
ends it.  What goes wrong is raised from :meth:`ExternalBot.choose` as a :class:`BotFault`
(``timeout``, ``malformed``, ``exited``), which the arena counts and answers with a
fallback move (:class:`thousand.evaluation.arena.Referee`):

* no answer within ``timeout`` seconds: a fault; the process keeps its seat, and its late
  answer is dropped when it comes (its version is old);
* a line that is not a move message for this version, or not a move: a fault; the process
  keeps its seat;
* the process exited (or closed its output, or stopped reading its input for ``timeout``
  seconds, after which it is killed): one fault, and the fallback plays its seat for the
  rest of the game; the next game starts a new process.

Processes run in a session of their own (Ctrl-C reaches the arena, which stops them), are
killed with their whole process group when the game ends or the arena stops for any
reason, are always waited for (no zombies), and on Linux die with the process that
started them should it be killed outright.  This needs a POSIX system (``select`` on
pipes).
"""

from __future__ import annotations

import atexit
import contextlib
import json
import os
import select
import shlex
import shutil
import signal
import subprocess
import sys
import time
import weakref
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, Literal, Protocol, runtime_checkable

from thousand.engine import moves as mv
from thousand.engine.moves import Move
from thousand.engine.protocol import MoveMessage, ProtocolError, parse_client_message, view_json
from thousand.engine.view import View

if TYPE_CHECKING:
    from thousand.engine.table import Table

    from .base import Bot

__all__ = [
    "COMMAND_PREFIX",
    "DEFAULT_TIMEOUT",
    "BotFault",
    "ExternalBot",
    "FaultKind",
    "TableBot",
    "check_level",
    "display_name",
    "is_command",
    "parse_command",
    "seat_bot",
]

#: A seat given as ``cmd:COMMAND`` is played by that command.
COMMAND_PREFIX = "cmd:"
#: Seconds a bot has for each move.
DEFAULT_TIMEOUT = 5.0
#: Seconds a process has to exit once its input is closed, before it is killed.
EXIT_GRACE = 1.0
#: The longest line read from a bot (a move message is a few dozen bytes).
MAX_LINE = 1 << 16

FaultKind = Literal["timeout", "malformed", "illegal", "exited", "error"]


class BotFault(Exception):
    """A bot gave no usable move: ``kind`` and a ``reason`` for people.

    ``counted`` is false for the moves of a seat whose process is already gone (the fault
    was counted when it went): the fallback plays them without a new fault."""

    def __init__(self, kind: FaultKind, reason: str, *, counted: bool = True) -> None:
        super().__init__(f"{kind}: {reason}")
        self.kind: FaultKind = kind
        self.reason = reason
        self.counted = counted


@runtime_checkable
class TableBot(Protocol):
    """A bot that follows the table, not only its view: told when it sits down at a table
    and when the game ends.  :func:`thousand.evaluation.arena.play_game` plays a game through a
    :class:`~thousand.engine.table.Table` when a seat holds one."""

    def choose(self, view: View) -> Move: ...

    def sit(self, table: Table, seat: int) -> None: ...

    def stand(self, table: Table) -> None: ...

    def close(self) -> None: ...


# ------------------------------------------------------------------ levels and commands


def is_command(level: str) -> bool:
    """Whether an arena seat (``heuristic``, ``cmd:node bot.js``) is a command."""
    return level.startswith(COMMAND_PREFIX)


def parse_command(text: str) -> list[str]:
    """``node "my bot.js"`` -> ``["node", "my bot.js"]`` (shell quoting, no shell)."""
    if text.startswith(COMMAND_PREFIX):
        text = text[len(COMMAND_PREFIX):]
    try:
        argv = shlex.split(text)
    except ValueError as e:
        raise ValueError(f"cannot read the command {text!r}: {e}") from None
    if not argv:
        raise ValueError("the command is empty: write cmd:PROGRAM [ARGUMENTS]")
    return argv


def display_name(level: str, limit: int = 60) -> str:
    """A short name for a seat, for tables and game records: a command's paths cut to
    their last part (``cmd:/home/me/bots/first.py`` -> ``cmd:first.py``)."""
    if not is_command(level):
        return level
    try:
        argv = parse_command(level)
    except ValueError:
        argv = [level[len(COMMAND_PREFIX):]]
    text = COMMAND_PREFIX + " ".join(
        os.path.basename(a.rstrip("/\\")) or a if ("/" in a or "\\" in a) else a for a in argv
    )
    return text if len(text) <= limit else text[: limit - 1] + "…"


def check_level(level: str) -> None:
    """Raise ValueError unless ``level`` is a bot level or a command whose program exists."""
    if is_command(level):
        argv = parse_command(level)
        if shutil.which(argv[0]) is None:
            raise ValueError(f"{level}: cannot find the program {argv[0]!r}")
        return
    from . import bot_levels

    if level not in bot_levels():
        raise ValueError(
            f"unknown bot level {level!r}; choose one of: {', '.join(bot_levels())}, "
            f"or {COMMAND_PREFIX}COMMAND"
        )


def seat_bot(level: str, seed: int | None = None, timeout: float = DEFAULT_TIMEOUT) -> Bot:
    """The bot of an arena seat: a level (:func:`thousand.bots.make_bot`) or
    ``cmd:COMMAND`` (an :class:`ExternalBot`)."""
    if is_command(level):
        return ExternalBot(level, timeout=timeout)
    from . import make_bot

    return make_bot(level, seed=seed)


# ---------------------------------------------------------------------------- the bot


class ExternalBot:
    """A seat played by a command speaking JSON lines (see the module docstring).

    ``command`` is split like a shell would (``shlex``) but run without one.  Use it where
    a bot goes: :func:`thousand.evaluation.arena.play_game` (with a Table), ``run_arena`` and
    ``run_duplicate`` (as ``cmd:COMMAND``)."""

    def __init__(self, command: str | Sequence[str], timeout: float = DEFAULT_TIMEOUT,
                 name: str | None = None) -> None:
        if isinstance(command, str):
            self.argv = parse_command(command)
        else:
            self.argv = list(command)
            if not self.argv:
                raise ValueError("the command is empty")
        if not timeout > 0:
            raise ValueError("the timeout must be more than 0 seconds")
        self.timeout = float(timeout)
        self.name = name or COMMAND_PREFIX + shlex.join(self.argv)
        self._proc: subprocess.Popen[bytes] | None = None
        self._owner = os.getpid()
        self._table: Table | None = None
        self._seat = 0
        self._seen = -1  # the version up to which the bot has its events
        self._buf = bytearray()
        self._skipping = False  # dropping the rest of an overlong line
        self._down: str | None = None  # why the process is gone, for the rest of this game
        self._told = False  # the process's end was raised as a fault

    def __repr__(self) -> str:
        return f"ExternalBot({self.name!r})"

    # ------------------------------------------------------------------ life cycle

    def sit(self, table: Table, seat: int) -> None:
        """Start the process for a new game at ``seat`` and say hello."""
        self.close()
        self._table, self._seat, self._seen = table, seat, -1
        self._buf.clear()
        self._skipping = False
        self._down, self._told = None, False
        try:
            self._proc = _spawn(self.argv)
        except (OSError, ValueError) as e:
            self._down = f"could not start {self.argv[0]!r}: {getattr(e, 'strerror', None) or e}"
            return
        self._owner = os.getpid()  # only this process stops it (not a fork of it)
        _LIVE.add(self)
        hello = {"type": "hello", "seat": seat, "timeout": self.timeout, "table": table.header()}
        try:
            self._send(hello, time.monotonic() + self.timeout)
        except BotFault as e:  # told at its first turn
            self._told = False
            self._down = self._down or e.reason

    def stand(self, table: Table) -> None:
        """The game is over (or the arena stops it): say so, close its input, let it exit."""
        if self._proc is not None and self._down is None:
            msg = {
                "type": "game_over",
                "finished": table.over,
                "winner": table.game.winner,
                "scores": list(table.game.scores),
                "events": table.events_since(self._seat, self._seen),
            }
            with contextlib.suppress(BotFault):
                self._send(msg, time.monotonic() + min(self.timeout, EXIT_GRACE))
        self.close(EXIT_GRACE)
        self._table = None

    def close(self, grace: float = 0.0) -> None:
        """Stop the process (and its process group) at once, or after ``grace`` seconds
        for it to exit by itself; always wait for it.  Calling it again does nothing."""
        proc = self._proc
        if proc is None or os.getpid() != self._owner:
            return
        self._proc = None
        _LIVE.discard(self)
        for pipe in (proc.stdin, proc.stdout):
            if pipe is not None:
                with contextlib.suppress(OSError):
                    pipe.close()
        if grace > 0:
            with contextlib.suppress(subprocess.TimeoutExpired):
                proc.wait(timeout=grace)
        _kill_group(proc)

    def __enter__(self) -> ExternalBot:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # ------------------------------------------------------------------ moves

    def choose(self, view: View) -> Move:
        """Ask the process for its move (raises :class:`BotFault` when it gives none)."""
        if self._down is not None:
            counted = not self._told
            self._told = True
            raise BotFault("exited", self._down, counted=counted)
        table = self._table
        if table is None or self._proc is None:
            raise RuntimeError(f"{self.name} is not seated: play it through a Table")
        version = table.version
        request = {
            "type": "move_request",
            "version": version,
            "view": view_json(view),
            "events": table.events_since(self._seat, self._seen),
        }
        self._seen = version
        deadline = time.monotonic() + self.timeout
        self._send(request, deadline)
        return self._answer(version, deadline)

    def _answer(self, version: int, deadline: float) -> Move:
        while True:
            line = self._readline(deadline)
            try:
                msg = parse_client_message(line)
            except ProtocolError as e:
                raise BotFault("malformed", f"{e}: {_shown(line)}") from None
            if not isinstance(msg, MoveMessage):
                raise BotFault("malformed", f"a {msg.type} message where a move was asked for")
            if msg.version < version:
                continue  # the late answer to a request that timed out
            if msg.version != version:
                raise BotFault("malformed", f"the answer has version {msg.version}, "
                                            f"the request {version}")
            try:
                return mv.parse_move(msg.move)
            except mv.MoveError as e:
                raise BotFault("malformed", f"{msg.move!r} is not a move: {e}") from None

    # ------------------------------------------------------------------ the pipes

    def _send(self, message: dict[str, Any], deadline: float) -> None:
        proc = self._proc
        assert proc is not None and proc.stdin is not None
        fd = proc.stdin.fileno()
        data = memoryview((json.dumps(message, separators=(",", ":")) + "\n").encode())
        while data:
            left = deadline - time.monotonic()
            if left <= 0:
                # half a line may be in the pipe: the process cannot go on after this
                self._down = "stopped: it did not read its input"
                self._told = True
                self.close()
                raise BotFault("timeout", f"it did not read its input for {self.timeout:g} s; "
                                          "stopped for the rest of the game")
            _, writable, _ = select.select([], [fd], [], left)
            if not writable:
                continue
            try:
                data = data[os.write(fd, data):]
            except BlockingIOError:
                continue
            except (BrokenPipeError, ConnectionResetError):
                raise self._gone() from None

    def _readline(self, deadline: float) -> bytes:
        proc = self._proc
        assert proc is not None and proc.stdout is not None
        fd = proc.stdout.fileno()
        while True:
            end = self._buf.find(b"\n")
            if self._skipping:
                if end < 0:
                    self._buf.clear()
                else:
                    del self._buf[:end + 1]
                    self._skipping = False
                    continue
            elif end >= 0:
                line = bytes(self._buf[:end])
                del self._buf[:end + 1]
                return line
            elif len(self._buf) > MAX_LINE:
                self._buf.clear()
                self._skipping = True
                raise BotFault("malformed", f"a line longer than {MAX_LINE} bytes")
            left = deadline - time.monotonic()
            if left <= 0:
                raise BotFault("timeout", f"no answer in {self.timeout:g} s")
            readable, _, _ = select.select([fd], [], [], left)
            if not readable:
                continue
            chunk = os.read(fd, 65536)
            if not chunk:
                raise self._gone()
            self._buf += chunk

    def _gone(self) -> BotFault:
        """The process closed its pipes: wait for it, and say how it ended."""
        proc = self._proc
        assert proc is not None
        try:
            code: int | None = proc.wait(timeout=EXIT_GRACE)
        except subprocess.TimeoutExpired:
            code = None
        self.close()
        if code is None:
            why = "it closed its output; stopped"
        elif code < 0:
            try:
                why = f"killed by {signal.Signals(-code).name}"
            except ValueError:
                why = f"killed by signal {-code}"
        else:
            why = f"exited with status {code}"
        self._down = f"the process is gone ({why})"
        self._told = True
        return BotFault("exited", f"{self._down}; the fallback plays for it until the game ends")


def _shown(line: bytes, limit: int = 80) -> str:
    text = line[: limit + 1].decode("utf-8", "replace")
    return repr(text if len(text) <= limit else text[:limit] + "…")


# ------------------------------------------------------------------ processes


#: Every running process started here, stopped when the interpreter exits.
_LIVE: weakref.WeakSet[ExternalBot] = weakref.WeakSet()


@atexit.register
def _close_all() -> None:
    for bot in list(_LIVE):
        bot.close()


_prctl: Any = None


def _die_with_parent() -> Callable[[], None] | None:
    """On Linux, a function for the child to run before its program: it is killed when
    the process that started it dies (PR_SET_PDEATHSIG), even by SIGKILL."""
    global _prctl
    if not sys.platform.startswith("linux"):
        return None
    if _prctl is None:
        try:
            import ctypes

            _prctl = ctypes.CDLL(None, use_errno=True).prctl
        except (OSError, AttributeError):
            _prctl = False
    if _prctl is False:
        return None
    prctl, parent = _prctl, os.getpid()

    def in_child() -> None:
        prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG
        if os.getppid() != parent:  # the parent died before that
            os._exit(1)

    return in_child


def _spawn(argv: Sequence[str]) -> subprocess.Popen[bytes]:
    proc = subprocess.Popen(
        list(argv), stdin=subprocess.PIPE, stdout=subprocess.PIPE, bufsize=0,
        start_new_session=True, preexec_fn=_die_with_parent(),
    )
    assert proc.stdin is not None
    os.set_blocking(proc.stdin.fileno(), False)
    return proc


def _kill_group(proc: subprocess.Popen[bytes]) -> None:
    """Kill the process and whatever it started in its session, then wait for it."""
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(proc.pid, signal.SIGKILL)
    if proc.poll() is None:
        with contextlib.suppress(ProcessLookupError):
            proc.kill()
    proc.wait()
