"""``thousand play``: a whole game of Тысяча in the terminal against bots.

Russian by default (``--lang en`` for English).  The person sits at seat 0 (``--seat``);
the other seats are bots (``--bots heuristic`` or one level per seat, ``--bots
heuristic,random``).  ``--seed`` makes the deals reproducible, ``--save FILE`` keeps the
record (RULES.md §6) when the game ends, ``--open`` shows every hand (training), and
Ctrl-C or ``quit`` asks whether to save before leaving.  The first dealer is drawn by lot
(from the seed).  The game is a client of the table protocol (:mod:`thousand.table`):
see :mod:`thousand.terminal.session`.
"""

from __future__ import annotations

from typing import Annotated

import typer

from thousand.cli import app
from thousand.record import check_name
from thousand.rules import RulesError
from thousand.rules_text import check_lang
from thousand.table import Table

from .common import (
    PresetArgument,
    PresetOption,
    SetOption,
    fail,
    levels_or_exit,
    output_console,
    rules_or_exit,
)


@app.command("play")
def play_command(
    preset: PresetArgument = "classic",
    sets: SetOption = None,
    bots: Annotated[
        str, typer.Option("--bots", help="Bot level(s) of the opponents: LEVEL[,LEVEL...].")
    ] = "heuristic",
    lang: Annotated[str, typer.Option("--lang", help="ru or en")] = "ru",
    seed: Annotated[
        int | None, typer.Option("--seed", help="Seed for the deals (a reproducible game).")
    ] = None,
    save: Annotated[
        str | None, typer.Option("--save", metavar="FILE", help="Save the game record here.")
    ] = None,
    open_hands: Annotated[
        bool, typer.Option("--open", help="Open hands: every hand face up (training).")
    ] = False,
    seat: Annotated[
        int, typer.Option("--seat", help="Your seat, 0 to n-1 (the first dealer is by lot).")
    ] = 0,
    names: Annotated[
        str | None, typer.Option("--names", help="Player names, comma separated, by seat.")
    ] = None,
    preset_option: PresetOption = None,
) -> None:
    """Play a game of Тысяча in the terminal against bots."""
    if preset_option is not None:
        preset = preset_option
    try:
        lang = check_lang(lang)
    except RulesError as e:
        raise fail(str(e)) from None
    rules = rules_or_exit(preset, sets)
    levels = levels_or_exit(bots)
    n = rules.players
    if not 0 <= seat < n:
        raise fail(f"--seat must be from 0 to {n - 1}")
    from thousand.terminal.i18n import T
    from thousand.terminal.session import make_session

    if names is not None:
        player_names = [x.strip() for x in names.split(",")]
        if len(player_names) != n:
            raise fail(f"--names needs {n} names, comma separated")
        for s, name in enumerate(player_names):
            if not name:
                raise fail(f"--names: the name of seat {s} is empty")
            why = check_name(name)
            if why is not None:
                raise fail(f"--names: the name of seat {s} {why}")
    else:
        default = T(lang, "names").split(",")
        others = iter(default[1:])
        player_names = [default[0] if s == seat else next(others) for s in range(n)]
    table = Table(rules, player_names, seed=seed)  # the first dealer by lot, from the seed
    console = output_console()
    session = make_session(
        table, levels, human=seat, seed=seed, console=console, lang=lang,
        open_hands=open_hands, save_path=save,
    )
    raise typer.Exit(session.run())
