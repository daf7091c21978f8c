"""``thousand replay FILE``: check a game record move by move and show its score sheet.

Exit status says what went wrong, for scripts: 0 the record is a legal game (finished
or not), 1 a move (or a deal) breaks the rules, 2 the file is not a record at all.
Either failure is one line on stderr, never a traceback.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console

from thousand.cli import app
from thousand.record import RecordError, ReplayError, load_record, replay
from thousand.rules import RulesError
from thousand.rules_text import check_lang
from thousand.sheet import render_sheet


def _fail(message: str, code: int) -> typer.Exit:
    typer.echo(message, err=True)
    return typer.Exit(code)


def _read(file: str) -> bytes:
    if file == "-":
        return sys.stdin.buffer.read()
    path = Path(file)
    try:
        return path.read_bytes()
    except FileNotFoundError:
        raise _fail(f"error: {file}: no such file", 2) from None
    except IsADirectoryError:
        raise _fail(f"error: {file}: is a directory, not a record", 2) from None
    except OSError as e:
        raise _fail(f"error: {file}: cannot read it: {e.strerror or e}", 2) from None


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
    try:
        record = load_record(data)
    except RecordError as e:
        raise _fail(f"error: {file}: {e}", 2) from None
    try:
        result = replay(record)
    except ReplayError as e:
        raise _fail(str(e), 1) from None
    except RecordError as e:
        raise _fail(f"error: {file}: {e}", 2) from None

    if as_json:
        typer.echo(json.dumps(result.to_json(), ensure_ascii=False))
        return
    console = Console(highlight=False)
    if not console.is_terminal:
        # A file or a pipe has no edge: do not fold the sheet at 80 columns.
        console.width = max(console.width, 120)
    console.print(render_sheet(result.game, lang))
