"""What several commands share: the ``--preset``/``--set`` options, bot levels, errors.

Every command reads a ruleset the same way and reports a bad option the same way (one
``error: …`` line on stderr, exit status 2), so the options live here once.
"""

from __future__ import annotations

import os
import unicodedata
from typing import Annotated

import typer
from rich.console import Console

from thousand.bots import bot_levels
from thousand.rules import Rules, RulesError

PRESET_HELP = "classic, dealer-opens, house, textbook or casual"

PresetArgument = Annotated[str, typer.Argument(help=PRESET_HELP)]
PresetOption = Annotated[str | None, typer.Option("--preset", help=f"The preset: {PRESET_HELP}.")]
SetOption = Annotated[
    list[str] | None,
    typer.Option("--set", "-s", help="Change an option: name=value (repeatable)."),
]


#: The longest error line printed: a message quoting a megabyte of input stays readable.
MAX_LINE = 400


def one_line(text: str, limit: int = MAX_LINE) -> str:
    """``text`` as one printable line: line breaks become spaces, other control
    characters and lone surrogates (a file name that is not UTF-8) visible escapes, and
    a long text is cut with "…"."""
    text = text[: limit * 2].replace("\r\n", " ").replace("\n", " ").replace("\r", " ")
    out = []
    for ch in text:
        code = ord(ch)
        if 0xD800 <= code <= 0xDFFF:
            out.append(f"\\u{code:04x}")
        elif unicodedata.category(ch) == "Cc":
            out.append(f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}")
        else:
            out.append(ch)
    line = "".join(out)
    return line if len(line) <= limit else line[: limit - 1] + "…"


def fail(message: str, code: int = 2) -> typer.Exit:
    """Print one ``error:`` line to stderr and return the exit to raise."""
    typer.echo(f"error: {one_line(message)}", err=True)
    return typer.Exit(code)


def rules_or_exit(preset: str, sets: list[str] | None) -> Rules:
    """The ruleset of a preset and ``--set`` overrides, or exit 2 naming what is wrong."""
    try:
        return Rules.from_cli(preset, sets or [])
    except RulesError as e:
        raise fail(str(e)) from None


def parse_levels(text: str) -> list[str]:
    """``heuristic,random`` -> ``["heuristic", "random"]``, every level checked."""
    levels = [t.strip() for t in text.split(",") if t.strip()]
    if not levels:
        raise ValueError("--bots needs at least one level")
    known = bot_levels()
    for lv in levels:
        if lv.startswith("cmd:"):
            raise ValueError(f"{lv!r}: --bots names levels; a command plays a seat with "
                             "`thousand arena --seat N=cmd:COMMAND`")
        if lv not in known:
            raise ValueError(f"unknown bot level {lv!r}; choose from {', '.join(known)}")
    return levels


def levels_or_exit(text: str) -> list[str]:
    try:
        return parse_levels(text)
    except ValueError as e:
        raise fail(str(e)) from None


def seat_levels(levels: list[str], seats: list[str], players: int) -> list[str]:
    """The bot of every seat from ``--bots`` and ``--seat N=BOT`` (N from 0; BOT a level or
    ``cmd:COMMAND``).  ``--bots`` names every seat (``--seat`` replaces some) or exactly
    the seats ``--seat`` leaves free, in order."""
    from thousand.bots.external import check_level

    given: dict[int, str] = {}
    for spec in seats:
        n_text, eq, bot = spec.partition("=")
        try:
            n = int(n_text.strip())
        except ValueError:
            n = -1
        if not eq or not 0 <= n < players:
            raise ValueError(f"--seat {spec!r}: write N=BOT with N a seat from 0 to "
                             f"{players - 1}, e.g. --seat 2=cmd:\"node bot.js\"")
        if n in given:
            raise ValueError(f"--seat {n} is given twice")
        bot = bot.strip()
        try:
            check_level(bot)
        except ValueError as e:
            raise ValueError(f"--seat {n}: {e}") from None
        given[n] = bot
    if len(levels) == players:
        out = list(levels)
    elif len(levels) == players - len(given):
        free = iter(levels)
        out = [given.get(s) or next(free) for s in range(players)]
    else:
        raise ValueError(
            f"--bots names {len(levels)} bots for a {players}-player game: one level per "
            + ("seat" if not given else f"seat, or one for each of the {players - len(given)} "
               "seats --seat leaves free")
        )
    for s, bot in given.items():
        out[s] = bot
    return out


def seat_levels_or_exit(levels: list[str], seats: list[str] | None, players: int) -> list[str]:
    try:
        return seat_levels(levels, seats or [], players)
    except ValueError as e:
        raise fail(str(e)) from None


def output_console() -> Console:
    """A console for tables; when piped, wide enough not to cut them at 80 columns, unless
    ``COLUMNS`` says how wide the reader's screen is (then that width, as on a terminal)."""
    console = Console(highlight=False)
    if not console.is_terminal and "COLUMNS" not in os.environ:
        console = Console(highlight=False, width=max(console.width, 120))
    return console
