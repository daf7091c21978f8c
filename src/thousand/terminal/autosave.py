"""The save of ``thousand play``: one piece of code for the line mode and the full screen.

Every game is saved after every move (:class:`Autosave`), so that whatever ends the
program — ``quit``, Ctrl-C, SIGTERM, a closed terminal window (SIGHUP), a kill at any
moment — the file holds the game up to its last move and ``thousand play --resume``
continues it.  Without ``--save FILE`` the file is a new one in the user's data folder,
like the server's database: ``$XDG_DATA_HOME/thousand/saves/`` (``~/.local/share/thousand/
saves/``), named by the time the game started; ``--resume`` with no file takes the newest
unfinished game there (:func:`last_unfinished`).

A save is written atomically (:func:`write_atomic`: a temporary file in the same folder,
``fsync``, then ``rename`` over the old one), so a reader — or a resume after a crash —
sees either the previous complete save or the new one, never half of one.

The form (docs/record.md): ``{"format": "thousand-save", "version": 2, …, "finished": …,
"record": <the finished deals, open>, "sealed": "<base64 of zlib'd JSON>"}``; the sealed
part holds the deal in play and the seed (:func:`thousand.engine.record.seal_record`): not a
secret, only not readable at a glance, so a player who opens the file does not see the
hands by accident.  A finished game is open whole.  Version 1 (the record open, no
``"finished"``) and a bare game record are read too.

Errors (:class:`SaveError`) carry a catalogue key and its values, so that ``thousand
play`` says them in the player's language (:mod:`thousand.terminal.i18n`).
"""

from __future__ import annotations

import contextlib
import datetime
import json
import os
import shlex
import signal
import tempfile
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from types import FrameType
from typing import Any

from thousand.engine.record import SAVE_FORMAT, seal_record
from thousand.engine.table import Table
from thousand.words.catalogue import record_error_text

from .i18n import T

#: The version of the save's layout this module writes; it reads 1 and 2.
SAVE_VERSION = 2
_VERSIONS = (1, 2)
_SAVE_KEYS = ("format", "version", "human", "bots", "lang", "open", "table_version",
              "finished", "record", "sealed")
#: The signals that end a game cleanly (saved, a line saying how to resume), and the
#: exit status for each: 128 + the signal's number, as a shell reports a signal.
END_SIGNALS = (signal.SIGTERM, signal.SIGHUP)


def exit_status(signum: int) -> int:
    """The exit status of a program ended by signal ``signum``: 128 + n."""
    return 128 + int(signum)


# ------------------------------------------------------------------ errors


class SaveError(ValueError):
    """A file that is not a save (nor a game record) that can be resumed.  ``key`` names
    the message in the terminal catalogue (``save_err_<key>``) and ``params`` its values;
    ``str()`` is the English line (what a script or a log reads)."""

    def __init__(self, key: str, **params: object) -> None:
        self.key = key
        self.params = params
        super().__init__(self.text("en"))

    def text(self, lang: str, file: str = "") -> str:
        """The message in ``lang``; with ``file``, prefixed by it (``game.json: …``)."""
        params = dict(self.params)
        if "why" in params:  # the record reader's English, in the player's language
            params["why"] = record_error_text(str(params["why"]), lang, known_only=True)
        words = T(lang, "save_err_" + self.key, **params)
        return f"{file}: {words}" if file else words


def _short(text: object, limit: int = 160) -> str:
    one = " ".join(str(text).split())
    return one if len(one) <= limit else one[: limit - 1] + "…"


# ------------------------------------------------------------------ writing


def save_text(
    table: Table,
    human: int | None,
    levels: Mapping[int, str],
    lang: str = "ru",
    open_hands: bool = False,
) -> str:
    """A save: a small JSON object (``"format": "thousand-save"``) around the table's
    private record — the game record (RULES §6, docs/record.md) with the seed, which tells
    every deal still to come — with the person's seat, the bots' levels by seat (``null``
    for the person), the language, the open-hands mode, the table's version and whether
    the game is over.  While it goes on, the deal in play and the seed are sealed
    (:func:`thousand.engine.record.seal_record`).  ``thousand play --resume`` continues it from
    its last move; ``thousand replay`` and ``thousand verify`` read the record in it."""
    from thousand.engine.record import dumps_record

    n = table.game.n
    head = {
        "format": SAVE_FORMAT,
        "version": SAVE_VERSION,
        "human": human,
        "bots": [levels.get(s) for s in range(n)],
        "lang": lang,
        "open": open_hands,
        "table_version": table.version,
        "finished": table.over,
    }
    record, sealed = seal_record(table.to_record(with_seed=True),
                                 in_play=table.game.deal is not None)
    lines = ["{"]
    lines += [f"  {json.dumps(k)}: {json.dumps(v, ensure_ascii=False)}," for k, v in head.items()]
    if sealed is not None:
        lines.append(f'  "sealed": "{sealed}",')
    lines.append('  "record": ' + dumps_record(record).rstrip("\n").replace("\n", "\n  "))
    lines.append("}")
    return "\n".join(lines) + "\n"


def write_atomic(path: str | os.PathLike[str], text: str) -> None:
    """Write ``text`` to ``path`` so that it is never seen half written: a temporary file
    in the same folder, flushed to the disk (``fsync``), renamed over ``path`` (atomic on
    POSIX), and the folder synced so the rename lasts.  A failure leaves the old file as
    it was and raises :class:`OSError` (or :class:`ValueError` for a name the system
    cannot take)."""
    target = Path(path)
    folder = target.parent
    fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=folder)
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(text.encode("utf-8"))
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, target)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise
    with contextlib.suppress(OSError):
        dir_fd = os.open(folder, os.O_RDONLY)
        try:
            os.fsync(dir_fd)
        finally:
            os.close(dir_fd)


def write_save(path: str, table: Table, human: int | None, levels: Mapping[int, str],
               lang: str, open_hands: bool) -> str | None:
    """Save the game to ``path`` atomically; ``None`` when it went well, else why not in
    one line (the system's words, or the catalogue's for a NUL byte)."""
    try:
        write_atomic(path, save_text(table, human, levels, lang, open_hands))
    except (OSError, ValueError) as e:
        if "\x00" in path:
            return T(lang, "nul_in_path")
        if isinstance(e, OSError) and e.strerror:
            return e.strerror
        return str(e)
    return None


# ------------------------------------------------------------------ where saves live


def saves_dir() -> Path:
    """The folder of the saves made after every move: ``$XDG_DATA_HOME/thousand/saves``,
    else ``~/.local/share/thousand/saves`` (the server keeps its database next to it)."""
    base = os.environ.get("XDG_DATA_HOME") or os.path.join(Path.home(), ".local", "share")
    return Path(base) / "thousand" / "saves"


def new_save_path(now: datetime.datetime | None = None) -> Path:
    """A file for a new game in :func:`saves_dir` (created), named by the time it starts:
    ``2026-12-01-225601.json`` (``-2``, ``-3`` … when two games start in one second)."""
    folder = saves_dir()
    folder.mkdir(parents=True, exist_ok=True)
    stamp = (now or datetime.datetime.now()).strftime("%Y-%m-%d-%H%M%S")
    path = folder / f"{stamp}.json"
    k = 2
    while path.exists():
        path = folder / f"{stamp}-{k}.json"
        k += 1
    return path


def last_unfinished(folder: Path | None = None) -> Path | None:
    """The newest save in ``folder`` (:func:`saves_dir`) whose game is not finished, or
    ``None``.  A file that is not a save is passed over; one that is a save but damaged
    is still picked (resuming it says what is wrong)."""
    folder = folder or saves_dir()
    try:
        files = [p for p in folder.iterdir() if p.suffix == ".json" and p.is_file()]
    except OSError:
        return None
    files.sort(key=lambda p: p.stat().st_mtime_ns, reverse=True)
    for path in files:
        try:
            obj = json.loads(path.read_bytes()[:2_000_000])
        except (OSError, ValueError, RecursionError):
            continue
        if isinstance(obj, dict) and obj.get("format") == SAVE_FORMAT and not obj.get("finished"):
            return path
    return None


#: Set by the repository's ``./run`` to the way it was started (``./run``), which then
#: stands for ``thousand`` in the commands a player is told to type.
LAUNCHER_ENV = "THOUSAND_LAUNCHER"


def play_command() -> str:
    """How the person started the game, to be typed again: ``thousand play``, or after
    ``./run play`` (where ``thousand`` is not on the PATH) ``./run play``."""
    launcher = os.environ.get(LAUNCHER_ENV, "").strip()
    return f"{shlex.quote(launcher)} play" if launcher else "thousand play"


def resume_command(path: str | os.PathLike[str]) -> str:
    """The command that continues the game saved at ``path``: ``thousand play --resume``
    (:func:`play_command`) when it is the newest unfinished game of :func:`saves_dir`, else
    with the file."""
    target = Path(path).resolve()
    try:
        newest = last_unfinished()
    except OSError:
        newest = None
    if newest is not None and newest.resolve() == target:
        return f"{play_command()} --resume"
    return f"{play_command()} --resume {shlex.quote(str(path))}"


@dataclass
class Autosave:
    """The file a game is saved to after every move, and what a save says besides the
    table (the person's seat, the bots, the language, the open-hands mode).  ``failed``
    holds the last failure, so that a front end says it once, not after every move."""

    path: str
    human: int | None
    levels: Mapping[int, str]
    lang: str
    open_hands: bool
    failed: str | None = None

    def write(self, table: Table) -> str | None:
        """Save now; a line to show when saving has just started to fail (``None`` when
        it went well or the failure was already said)."""
        why = write_save(self.path, table, self.human, self.levels, self.lang,
                         self.open_hands)
        said, self.failed = self.failed, why
        if why is None or said is not None:
            return None
        return T(self.lang, "autosave_failed", path=_short(self.path, 100), why=_short(why, 80))

    def where(self) -> str:
        """The line said when the game starts: where it is saved after every move."""
        return T(self.lang, "autosave_at", path=self.path)

    def resume_line(self) -> str:
        """The line said when the game stops before its end: where it is and how to go on."""
        return T(self.lang, "resume_hint", path=self.path, command=resume_command(self.path))


# ------------------------------------------------------------------ signals


class Stopped(Exception):
    """The program got ``signum`` (SIGTERM, SIGHUP): the game ends, saved."""

    def __init__(self, signum: int) -> None:
        super().__init__(f"signal {signum}")
        self.signum = signum


class SignalGuard:
    """SIGTERM and SIGHUP as :class:`Stopped` raised in the main thread, SIGINT (Ctrl-C) as
    :class:`KeyboardInterrupt` as usual — except inside :meth:`critical` (a move and its
    save), where the signal waits until the section ends, so a move is never half made
    nor made and left unsaved."""

    def __init__(self) -> None:
        self.pending: int | None = None
        self._depth = 0
        self._old: dict[int, Any] = {}

    def _handler(self, signum: int, frame: FrameType | None) -> None:
        if self._depth:
            if self.pending is None or self.pending == signal.SIGINT:
                self.pending = signum
            return
        self._raise(signum)

    @staticmethod
    def _raise(signum: int) -> None:
        if signum == signal.SIGINT:
            raise KeyboardInterrupt
        raise Stopped(signum)

    @contextlib.contextmanager
    def installed(self) -> Iterator[SignalGuard]:
        """The handlers, for the ``with`` block (the old ones put back after it)."""
        for sig in (*END_SIGNALS, signal.SIGINT):
            self._old[sig] = signal.signal(sig, self._handler)
        try:
            yield self
        finally:
            for number, old in self._old.items():
                signal.signal(number, old)

    @contextlib.contextmanager
    def critical(self) -> Iterator[None]:
        """A section no signal cuts: one that arrives meanwhile is raised at its end."""
        self._depth += 1
        try:
            yield
        finally:
            self._depth -= 1
        if not self._depth and self.pending is not None:
            signum, self.pending = self.pending, None
            self._raise(signum)


# ------------------------------------------------------------------ reading


@dataclass
class SavedGame:
    """A game read back from a save: the table at the move it was saved at, the person's
    seat, the bots' levels by seat, and the language and open-hands mode it was played in
    (``None`` for what a bare game record does not say)."""

    table: Table
    human: int | None
    levels: dict[int, str]
    lang: str | None
    open_hands: bool | None
    #: the file was a bare game record, not a save: a resumed game is saved elsewhere, so
    #: the record (a server's, say) is never overwritten
    record_only: bool = False

    @property
    def finished(self) -> bool:
        return self.table.over


def load_save(source: str | bytes) -> SavedGame:
    """The game a save holds (:func:`save_text`, either version), at the move it was saved
    at; a bare game record (with or without its seed) is read too, with ``levels`` empty
    and the person at seat 0.  Anything else raises :class:`SaveError`."""
    from thousand.bots import bot_levels
    from thousand.engine.record import MAX_RECORD_BYTES, RecordError, unseal_record
    from thousand.words.grammar import LANGS

    if len(source) > MAX_RECORD_BYTES:
        raise SaveError("too_large", mb=MAX_RECORD_BYTES // 1_000_000)
    try:
        obj = json.loads(source)
    except (ValueError, RecursionError) as e:
        raise SaveError("not_save", why=_short(f"not JSON: {e}", 120)) from None
    if not isinstance(obj, dict):
        raise SaveError("not_save", why="a save is a JSON object")
    if obj.get("format") != SAVE_FORMAT:
        return SavedGame(_restore(obj, None), 0, {}, None, None, record_only=True)
    for key in obj:
        if key not in _SAVE_KEYS:
            raise SaveError("not_save", why=f"unknown key {_short(key, 40)!r}")
    if obj.get("version") not in _VERSIONS:
        raise SaveError("version", version=_short(repr(obj.get("version")), 40),
                        known=", ".join(map(str, _VERSIONS)))
    version = obj.get("table_version")
    if version is not None and (not isinstance(version, int) or isinstance(version, bool)):
        raise SaveError("damaged", why="table_version: not a whole number")
    if not isinstance(obj.get("record"), dict):
        raise SaveError("not_save", why="no game record in it")
    try:
        record = unseal_record(obj)
    except RecordError as e:
        raise SaveError("damaged", why=_short(e, 300)) from None
    table = _restore(record, version)
    n = table.game.n
    human = obj.get("human")
    if human is not None and (
        not isinstance(human, int) or isinstance(human, bool) or not 0 <= human < n
    ):
        raise SaveError("damaged", why=f"human: {_short(repr(human), 40)} is not a seat "
                        f"from 0 to {n - 1}")
    bots = obj.get("bots")
    if not isinstance(bots, list) or len(bots) != n:
        raise SaveError("damaged", why=f"bots: a list of {n} levels by seat (null for the "
                        "person's seat)")
    known = bot_levels()
    levels: dict[int, str] = {}
    for seat, level in enumerate(bots):
        if seat == human:
            continue
        if not isinstance(level, str) or level not in known:
            raise SaveError("damaged", why=f"bots: seat {seat} has no bot level this "
                            f"thousand knows ({_short(repr(level), 40)}); levels: "
                            + ", ".join(known))
        levels[seat] = level
    lang = obj.get("lang")
    if lang is not None and lang not in LANGS:
        raise SaveError("damaged", why=f"lang: {_short(repr(lang), 40)} is not ru or en")
    open_hands = obj.get("open")
    if open_hands is not None and not isinstance(open_hands, bool):
        raise SaveError("damaged", why="open: true or false")
    return SavedGame(table, human, levels, lang, open_hands)


def _restore(record: object, version: int | None) -> Table:
    """The table of a record, at ``version`` when it is given: a record never holds a
    ``look``, so a save made right after one gets it back here."""
    from thousand.engine.record import RecordError

    if not isinstance(record, dict):
        raise SaveError("not_save", why="no game record in it")
    try:
        table = Table.from_record(record)
    except RecordError as e:
        raise SaveError("not_save", why=_short(e, 300)) from None
    except ValueError as e:  # a move the rules refuse, a deal cut short
        raise SaveError("cannot_replay", why=_short(e, 300)) from None
    if version is None or version == table.version:
        return table
    seat = table.to_move
    if (version == table.version + 1 and seat is not None
            and table.view_json(seat)["legal"] == ["dark", "look"]):
        table.submit(seat, "look", table.version)
    if version != table.version:
        raise SaveError("damaged", why=f"table_version {version} does not match the record "
                        f"({table.version} moves)")
    return table


def read_save(path: str) -> SavedGame:
    """:func:`load_save` of a file; a file that cannot be read raises :class:`SaveError`."""
    from thousand.engine.record import MAX_RECORD_BYTES

    try:
        with open(path, "rb") as f:
            data = f.read(MAX_RECORD_BYTES + 1)
    except FileNotFoundError:
        raise SaveError("no_file") from None
    except IsADirectoryError:
        raise SaveError("directory") from None
    except OSError as e:
        raise SaveError("unreadable", why=e.strerror or e) from None
    except ValueError as e:  # a name the system cannot take (a NUL byte)
        raise SaveError("unreadable", why=e) from None
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as e:
        raise SaveError("not_utf8", byte=f"0x{data[e.start]:02x}", offset=e.start) from None
    return load_save(text)
