"""``thousand replay FILE``: check a game record move by move and show its score sheet.

Exit status says what went wrong, for scripts: 0 the record is a legal game (finished
or not), 1 a move (or a deal) breaks the rules, 2 the file is not a record at all (or
cannot be read).  Either failure is one line on stderr, never a traceback, and takes
bounded time and memory whatever the file holds: at most
:data:`~thousand.record.MAX_RECORD_BYTES` are read.
"""

from __future__ import annotations

import json
import sys
from typing import Annotated, BinaryIO

import typer
from rich.console import Console

from thousand.cli import app
from thousand.record import MAX_RECORD_BYTES, RecordError, ReplayError, load_record, replay
from thousand.rules import RulesError
from thousand.rules_text import check_lang

from .common import one_line


def _shown(path: str) -> str:
    """The file name as messages write it: short enough to leave room for the reason."""
    return one_line(path, 160)


def _fail(message: str, code: int) -> typer.Exit:
    typer.echo(one_line(message), err=True)
    return typer.Exit(code)


def _read_limited(stream: BinaryIO) -> bytes | None:
    """Up to :data:`MAX_RECORD_BYTES`; None when there is more (``/dev/zero``)."""
    data = stream.read(MAX_RECORD_BYTES + 1)
    return None if len(data) > MAX_RECORD_BYTES else data


def _read(path: str) -> bytes:
    file = _shown(path)
    try:
        if path == "-":
            data = _read_limited(sys.stdin.buffer)
        else:
            with open(path, "rb") as f:
                data = _read_limited(f)
    except FileNotFoundError:
        raise _fail(f"error: {file}: no such file", 2) from None
    except IsADirectoryError:
        raise _fail(f"error: {file}: is a directory, not a record", 2) from None
    except OSError as e:
        raise _fail(f"error: {file}: cannot read it: {e.strerror or e}", 2) from None
    except ValueError as e:  # a name the system cannot take (a NUL byte)
        raise _fail(f"error: {file}: cannot read it: {e}", 2) from None
    if data is None:
        raise _fail(
            f"error: {file}: larger than {MAX_RECORD_BYTES // 1_000_000} MB; "
            "a game record is far smaller", 2,
        )
    return data


@app.command("replay")
def replay_command(
    file: Annotated[
        str, typer.Argument(metavar="FILE", help="The game record (JSON, RULES §6); - for stdin.")
    ],
    as_json: Annotated[
        bool, typer.Option("--json", help="Print the result as JSON (RULES §6).")
    ] = False,
    lang: Annotated[str, typer.Option("--lang", help="ru or en")] = "ru",
) -> None:
    """Replay a game record, checking every move, and show the score sheet."""
    try:
        lang = check_lang(lang)
    except RulesError as e:
        raise _fail(f"error: {e}", 2) from None
    data = _read(file)
    shown = _shown(file)
    try:
        record = load_record(data)
    except RecordError as e:
        raise _fail(f"error: {shown}: {e}", 2) from None
    try:
        result = replay(record)
    except ReplayError as e:
        raise _fail(str(e), 1) from None
    except RecordError as e:
        raise _fail(f"error: {shown}: {e}", 2) from None

    if as_json:
        typer.echo(json.dumps(result.to_json(), ensure_ascii=False))
        return
    from thousand.terminal.sheet_view import render_sheet

    console = Console(highlight=False)
    if not console.is_terminal:
        # A file or a pipe has no edge: do not fold the sheet at 80 columns.
        console.width = max(console.width, 120)
    console.print(render_sheet(result.game, lang))
