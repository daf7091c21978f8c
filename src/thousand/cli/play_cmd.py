"""``thousand play``: a whole game of Тысяча in the terminal against bots.

On a terminal it opens the full-screen table (:mod:`thousand.terminal.tui`); ``--plain``
keeps the line mode (:mod:`thousand.terminal.session`), which a pipe or a screen reader
gets anyway.  Russian by default (``--lang en`` for English).  The person sits at seat 0
(``--seat``); the other seats are bots (``--bots heuristic`` or one level per seat,
``--bots heuristic,random``).  ``--seed`` makes the deals reproducible, ``--save FILE``
keeps the game when it ends, ``--open`` shows every hand (training), and Ctrl-C or
``quit`` asks whether to save before leaving.  ``--resume FILE`` continues a saved game
from its last move, with its bots and options.  The first dealer is drawn by lot (from
the seed).  Both modes are clients of the table protocol (:mod:`thousand.table`).
"""

from __future__ import annotations

import os
import sys
from typing import Annotated

import typer

from thousand.cli import app
from thousand.record import check_name
from thousand.rules import RulesError
from thousand.rules_text import check_lang
from thousand.table import Table

from .common import (
    PRESET_HELP,
    PresetOption,
    SetOption,
    fail,
    levels_or_exit,
    one_line,
    output_console,
    rules_or_exit,
)


def full_screen_possible() -> bool:
    """Whether the full-screen table can be drawn: input and output are a terminal that
    is not a dumb one."""
    try:
        ttys = sys.stdin.isatty() and sys.stdout.isatty()
    except (AttributeError, ValueError):
        return False
    return ttys and os.environ.get("TERM", "") not in ("dumb", "")


@app.command("play")
def play_command(
    preset: Annotated[str | None, typer.Argument(help=PRESET_HELP + " (default classic)")] = None,
    sets: SetOption = None,
    bots: Annotated[
        str | None,
        typer.Option("--bots", help="Bot level(s) of the opponents: LEVEL[,LEVEL...] "
                     "(default heuristic)."),
    ] = None,
    lang: Annotated[str | None, typer.Option("--lang", help="ru or en (default ru)")] = None,
    seed: Annotated[
        int | None, typer.Option("--seed", help="Seed for the deals (a reproducible game).")
    ] = None,
    save: Annotated[
        str | None,
        typer.Option("--save", metavar="FILE",
                     help="Save the game here when it ends (--resume continues it)."),
    ] = None,
    open_hands: Annotated[
        bool, typer.Option("--open", help="Open hands: every hand face up (training).")
    ] = False,
    seat: Annotated[
        int | None,
        typer.Option("--seat", help="Your seat, 0 to n-1 (default 0; the first dealer is "
                     "by lot)."),
    ] = None,
    names: Annotated[
        str | None, typer.Option("--names", help="Player names, comma separated, by seat.")
    ] = None,
    preset_option: PresetOption = None,
    plain: Annotated[
        bool, typer.Option("--plain", help="Line mode instead of the full-screen table "
                           "(for screen readers; pipes get it anyway).")
    ] = False,
    resume: Annotated[
        str | None,
        typer.Option("--resume", metavar="FILE",
                     help="Continue a saved game from its last move, with its bots and "
                     "options."),
    ] = None,
) -> None:
    """Play a game of Тысяча in the terminal against bots."""
    if preset_option is not None:
        preset = preset_option
    if lang is not None:
        try:
            lang = check_lang(lang)
        except RulesError as e:
            raise fail(str(e)) from None
    from thousand.terminal.i18n import T
    from thousand.terminal.session import Seats, make_bots

    if resume is not None:
        given = [flag for flag, value in (
            ("PRESET", preset), ("--set", sets), ("--bots", bots), ("--seed", seed),
            ("--seat", seat), ("--names", names)) if value is not None]
        if given:
            raise fail(f"--resume takes the rules, the bots and the seats from the save; "
                       f"leave out {', '.join(given)}")
        from thousand.terminal.session import SaveError, read_save

        try:
            saved = read_save(resume)
        except SaveError as e:
            raise fail(f"{one_line(resume, 160)}: {e}") from None
        table = saved.table
        human = saved.human
        lang = lang or saved.lang or "ru"
        open_hands = open_hands or bool(saved.open_hands)
        save = save or resume
        if saved.levels:
            level_by_seat: dict[int, str] | list[str] = saved.levels
        else:  # a bare game record: the bots are today's default
            level_by_seat = ["heuristic"]
        show_seed = False
    else:
        lang = lang or "ru"
        rules = rules_or_exit(preset or "classic", sets)
        level_by_seat = levels_or_exit(bots or "heuristic")
        n = rules.players
        human = seat if seat is not None else 0
        if not 0 <= human < n:
            raise fail(f"--seat must be from 0 to {n - 1}")
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
            player_names = [default[0] if s == human else next(others) for s in range(n)]
        # the first dealer by lot, from the seed
        table = Table(rules, player_names, seed=seed)
        show_seed = seed is not None
    bot_seed = seed if resume is None else None
    if not plain and full_screen_possible():
        from thousand.terminal.tui import ThousandApp

        bots_by_seat, levels = make_bots(table, level_by_seat, human, bot_seed)
        tui = ThousandApp(table, Seats(table, bots_by_seat, human, levels=levels),
                          lang=lang, open_hands=open_hands, save_path=save,
                          show_seed=show_seed)
        tui.run()
        for line in tui.farewell:
            typer.echo(line)
        raise typer.Exit(0)
    from thousand.terminal.session import make_session

    console = output_console()
    session = make_session(
        table, level_by_seat, human=human, seed=bot_seed, console=console, lang=lang,
        open_hands=open_hands, save_path=save,
    )
    raise typer.Exit(session.run())
