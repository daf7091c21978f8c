"""What several commands share: the ``--preset``/``--set`` options, bot levels, errors.

Every command reads a ruleset the same way and reports a bad option the same way (one
``error: …`` line on stderr, exit status 2), so the options live here once.
"""

from __future__ import annotations

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


def fail(message: str, code: int = 2) -> typer.Exit:
    """Print one ``error:`` line to stderr and return the exit to raise."""
    typer.echo(f"error: {message}", err=True)
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
        if lv not in known:
            raise ValueError(f"unknown bot level {lv!r}; choose from {', '.join(known)}")
    return levels


def levels_or_exit(text: str) -> list[str]:
    try:
        return parse_levels(text)
    except ValueError as e:
        raise fail(str(e)) from None


def output_console() -> Console:
    """A console for tables; when piped, wide enough not to cut them at 80 columns."""
    console = Console(highlight=False)
    if not console.is_terminal:
        console = Console(highlight=False, width=max(console.width, 120))
    return console
