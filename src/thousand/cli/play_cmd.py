"""``thousand play``: a whole game of Тысяча in the terminal against bots.

Russian by default (``--lang en`` for English).  The person sits at seat 0 (``--seat``);
the other seats are bots (``--bots heuristic`` or one level per seat, ``--bots
heuristic,random``).  ``--seed`` makes the deals reproducible, ``--save FILE`` keeps the
record (RULES.md §6) when the game ends, ``--open`` shows every hand (training), and
Ctrl-C or ``quit`` asks whether to save before leaving.
"""

from __future__ import annotations

from typing import Annotated

import typer
from rich.console import Console

from thousand.bots import bot_levels
from thousand.cli import app
from thousand.game import Game
from thousand.rules import Rules, RulesError
from thousand.rules_text import check_lang


def _fail(message: str) -> typer.Exit:
    typer.echo(f"error: {message}", err=True)
    return typer.Exit(2)


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


@app.command("play")
def play_command(
    preset: Annotated[
        str, typer.Argument(help="classic, dealer-opens, house, textbook or casual")
    ] = "classic",
    sets: Annotated[
        list[str] | None,
        typer.Option("--set", "-s", help="Change an option: name=value (repeatable)."),
    ] = None,
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
    seat: Annotated[int, typer.Option("--seat", help="Your seat (0 deals first).")] = 0,
    names: Annotated[
        str | None, typer.Option("--names", help="Player names, comma separated, by seat.")
    ] = None,
    preset_option: Annotated[
        str | None, typer.Option("--preset", help="The preset (as the argument; wins over it).")
    ] = None,
) -> None:
    """Play a game of Тысяча in the terminal against bots."""
    if preset_option is not None:
        preset = preset_option
    try:
        lang = check_lang(lang)
        rules = Rules.from_cli(preset, sets or [])
    except RulesError as e:
        raise _fail(str(e)) from None
    try:
        levels = parse_levels(bots)
    except ValueError as e:
        raise _fail(str(e)) from None
    n = rules.players
    if not 0 <= seat < n:
        raise _fail(f"--seat must be from 0 to {n - 1}")
    from thousand.terminal.i18n import T
    from thousand.terminal.session import make_session

    if names:
        player_names = [x.strip() for x in names.split(",")]
        if len(player_names) != n:
            raise _fail(f"--names needs {n} names")
    else:
        default = T(lang, "names").split(",")
        others = iter(default[1:])
        player_names = [default[0] if s == seat else next(others) for s in range(n)]
    game = Game(rules, players=player_names, first_dealer=0, seed=seed)
    console = Console(highlight=False)
    if not console.is_terminal:  # piped: do not cut tables at 80 columns
        console = Console(highlight=False, width=max(console.width, 120))
    session = make_session(
        game, levels, human=seat, seed=seed, console=console, lang=lang,
        open_hands=open_hands, save_path=save,
    )
    raise typer.Exit(session.run())
