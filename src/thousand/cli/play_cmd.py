"""``thousand play``: a whole game of Тысяча in the terminal against bots.

On a terminal it opens the full-screen table (:mod:`thousand.terminal.tui`); ``--plain``
keeps the line mode (:mod:`thousand.terminal.session`), which a pipe or a screen reader
gets anyway.  Russian by default (``--lang en`` for English).  The person sits at seat 0
(``--seat``); the other seats are bots (``--bots heuristic`` or one level per seat,
``--bots heuristic,random``).  ``--seed`` makes the deals reproducible, ``--open`` shows
every hand (training), and Ctrl-C or ``quit`` asks whether to save a copy before leaving.
``thousand play two`` (or any preset with ``--set players=2``) is the game for two against
one bot, with two talons to choose from (RULES §4 "Two players").

Every game is saved after every move (:mod:`thousand.terminal.autosave`), to ``--save
FILE`` or else to a new file in the user's data folder, so that nothing is lost whatever
ends the program; SIGTERM and SIGHUP (a closed terminal window) end the game with a line
saying where it is and how to go on, and the exit status 128 + the signal's number.
``--resume FILE`` continues a saved game from its last move, with its bots and options;
``--resume`` alone the newest unfinished game of the data folder.  At the end of a game
the line mode offers its analysis (``--analyse`` without asking, ``--no-analyse``
never); the full-screen table opens it with F7.  The first dealer is
drawn by lot (from the seed).  Both modes are clients of the table protocol
(:mod:`thousand.engine.table`).

Every error says what is wrong in one line in the game's language (``--lang``; Russian
by default), through the terminal's catalogue.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Annotated, NoReturn

import typer

from thousand.cli import app
from thousand.engine.record import MAX_SEED, check_name
from thousand.engine.rules import Rules, RulesError
from thousand.engine.table import Table
from thousand.terminal.autosave import Autosave, saves_dir
from thousand.terminal.autosave import play_command as typed_play_command
from thousand.words.rules import rules_error_text

from .common import (
    PRESET_HELP,
    SetOption,
    lang_or_exit,
    one_line,
    output_console,
)
from .resume import LAST_GAME

#: The presets ``thousand play`` takes: the common ones and the game for two.
PLAY_PRESET_HELP = PRESET_HELP + "; two: the game for two against one bot (default classic)"

def _fail(lang: str, key: str, **params: object) -> NoReturn:
    """Exit 2 with one line in the game's language: ``ошибка: …`` / ``error: …``."""
    from thousand.terminal.i18n import T

    text = T(lang, key, **params) if key else str(params.get("text", ""))
    typer.echo(one_line(T(lang, "error", text=text)), err=True)
    raise typer.Exit(2)


def _echo(lines: Sequence[str]) -> None:
    """Lines for a terminal that may be gone (a closed window): then nothing is said."""
    try:
        for line in lines:
            typer.echo(line)
    except (OSError, ValueError):
        pass


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
    preset: Annotated[str | None, typer.Argument(help=PLAY_PRESET_HELP)] = None,
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
                     help="Save the game to FILE after every move (without it: a new file "
                     f"in {saves_dir()}); --resume continues it."),
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
    preset_option: Annotated[
        str | None, typer.Option("--preset", help=f"The preset: {PLAY_PRESET_HELP}.")
    ] = None,
    plain: Annotated[
        bool, typer.Option("--plain", help="Line mode instead of the full-screen table "
                           "(for screen readers; pipes get it anyway).")
    ] = False,
    resume: Annotated[
        str | None,
        typer.Option("--resume", metavar="[FILE]",
                     help="Continue a saved game from its last move, with its bots and "
                     "options; with no FILE the newest unfinished game of "
                     f"{saves_dir()}."),
    ] = None,
    analyse: Annotated[
        bool | None,
        typer.Option("--analyse/--no-analyse",
                     help="At the end of the game, analyse your decisions without asking "
                     "(or never; default: ask)."),
    ] = None,
    analysis_samples: Annotated[
        int,
        typer.Option("--analysis-samples", min=0, hidden=True,
                     help="Sampled deals per decision of the analysis; 0: open cards "
                     "only (fast, for tests)."),
    ] = 48,
) -> None:
    """Play a game of Тысяча in the terminal against bots (saved after every move)."""
    if preset_option is not None:
        preset = preset_option
    if lang is not None:
        lang = lang_or_exit(lang)
    if resume is not None:
        _refuse_new_game_options(lang or "ru", {
            "PRESET": preset, "--set": sets, "--bots": bots, "--seed": seed,
            "--seat": seat, "--names": names})
        game = _resumed(resume, lang, open_hands, save)
    else:
        game = _new_game(preset, sets, bots, lang or "ru", seed, seat, names, open_hands,
                         save)
    _play(game, plain, analyse, analysis_samples)


@dataclass(frozen=True)
class _Game:
    """The game about to be played, new or resumed, with how it is played and saved."""

    table: Table
    human: int | None  # the person's seat
    lang: str
    open_hands: bool
    save: str | None  # where it is saved after every move (None: a new file)
    level_by_seat: dict[int, str] | list[str]  # the bots' levels
    show_seed: bool  # whether the full-screen table shows the seed (--seed was given)
    bot_seed: int | None  # the bots' seed (--seed of a new game)


def _refuse_new_game_options(lang: str, given: dict[str, object]) -> None:
    """A resumed game keeps its own rules, bots, seed, seat and names: any of those
    options with ``--resume`` is an error naming them."""
    flags = [flag for flag, value in given.items() if value is not None]
    if flags:
        _fail(lang, "resume_options", flags=", ".join(flags))


def _resumed(resume: str, lang: str | None, open_hands: bool, save: str | None) -> _Game:
    """``--resume [FILE]``: the saved game (the newest unfinished one when no FILE),
    with its bots, language and open hands unless the options say otherwise; a save that
    cannot be read, or a finished game, exits 2 saying so."""
    from thousand.terminal.autosave import SaveError, read_save
    from thousand.terminal.i18n import T

    said = lang or "ru"  # the language of an error before the save says its own
    if resume == LAST_GAME:
        from thousand.terminal.autosave import last_unfinished

        found = last_unfinished()
        if found is None:
            _fail(said, "resume_none", dir=one_line(str(saves_dir()), 160),
                  play=typed_play_command())
        resume = str(found)
    shown = one_line(resume, 160)
    try:
        saved = read_save(resume)
    except SaveError as e:
        _fail(said, "", text=e.text(said, shown))
    lang = lang or saved.lang or "ru"
    if saved.finished:
        _fail(lang, "", text=f"{shown}: " + T(lang, "resume_finished"))
    # a bare game record: the bots are today's default
    level_by_seat: dict[int, str] | list[str] = saved.levels or ["heuristic"]
    # a save goes on in its file; a bare game record is left as it is
    return _Game(saved.table, saved.human, lang, open_hands or bool(saved.open_hands),
                 save or (None if saved.record_only else resume), level_by_seat,
                 show_seed=False, bot_seed=None)


def _new_game(preset: str | None, sets: list[str] | None, bots: str | None, lang: str,
              seed: int | None, seat: int | None, names: str | None, open_hands: bool,
              save: str | None) -> _Game:
    """A new game of the options, each checked (exit 2 saying in ``lang`` what is
    wrong); the first dealer by lot, from the seed."""
    level_by_seat = _levels(bots or "heuristic", lang)
    try:
        rules = Rules.from_cli(preset or "classic", sets or [])
    except RulesError as e:  # the rules engine's words, in the game's language
        _fail(lang, "", text=rules_error_text(e, lang))
    if seed is not None and not 0 <= seed < MAX_SEED:
        _fail(lang, "seed_range", max=MAX_SEED - 1)
    n = rules.players
    human = seat if seat is not None else 0
    if not 0 <= human < n:
        _fail(lang, "seat_range", max=n - 1)
    table = Table(rules, _player_names(names, n, human, lang), seed=seed)
    return _Game(table, human, lang, open_hands, save, level_by_seat,
                 show_seed=seed is not None, bot_seed=seed)


def _player_names(names: str | None, n: int, human: int, lang: str) -> list[str]:
    """``--names``, each checked; without it the language's default names, the
    person's first."""
    from thousand.terminal.i18n import T

    if names is None:
        default = T(lang, "names").split(",")
        others = iter(default[1:])
        return [default[0] if s == human else next(others) for s in range(n)]
    player_names = [x.strip() for x in names.split(",")]
    if len(player_names) != n:
        _fail(lang, "names_count", n=n)
    for s, name in enumerate(player_names):
        if not name:
            _fail(lang, "names_empty", seat=s)
        why = check_name(name)
        if why is not None:
            _fail(lang, "names_bad", seat=s, why=why)
    return player_names


def _play(game: _Game, plain: bool, analyse: bool | None, analysis_samples: int) -> NoReturn:
    """Play the game with its bots, on the full-screen table when the terminal can draw
    it and ``--plain`` is not given, else in line mode; exit with the game's status."""
    from thousand.terminal.session import Seats, make_bots, make_session

    table, human, lang = game.table, game.human, game.lang
    bots_by_seat, levels = make_bots(table, game.level_by_seat, human, game.bot_seed)
    autosave = _autosave(game.save, human, levels, lang, game.open_hands)
    if not plain and full_screen_possible():
        from thousand.terminal.tui import ThousandApp

        tui = ThousandApp(table, Seats(table, bots_by_seat, human, levels=levels),
                          lang=lang, open_hands=game.open_hands, save_path=game.save,
                          show_seed=game.show_seed, autosave=autosave,
                          analysis_samples=analysis_samples, analyse=analyse)
        tui.run()
        _echo(tui.farewell)
        # a crash (Textual printed its traceback) is a failure, whatever was said before
        raise typer.Exit(tui.exit_status or tui.return_code or 0)
    console = output_console()
    if not console.is_terminal:
        # Piped (a script, a screen reader): every line whole, whatever COLUMNS says.
        console.soft_wrap = True
    session = make_session(
        table, game.level_by_seat, human=human, seed=game.bot_seed, console=console,
        lang=lang, open_hands=game.open_hands, save_path=game.save, autosave=autosave,
        analyse=analyse, analysis_samples=analysis_samples,
    )
    raise typer.Exit(session.run())


def _levels(text: str, lang: str) -> list[str]:
    """The bot levels of ``--bots``, or exit 2 saying in ``lang`` what is wrong."""
    from thousand.bots import bot_levels

    levels = [t.strip() for t in text.split(",") if t.strip()]
    if not levels:
        _fail(lang, "bots_none")
    known = bot_levels()
    for level in levels:
        if level.startswith("cmd:"):
            _fail(lang, "bots_cmd", level=one_line(level, 60))
        if level not in known:
            _fail(lang, "bots_unknown", level=one_line(level, 60), levels=", ".join(known))
    return levels


def _autosave(save: str | None, human: int | None, levels: dict[int, str], lang: str,
              open_hands: bool) -> Autosave | None:
    """Where this game is saved after every move: ``--save FILE`` (or the resumed file),
    else a new file in the data folder; ``None`` (said in one line) when the data folder
    cannot be made — the game is still played."""
    from thousand.terminal.autosave import new_save_path
    from thousand.terminal.i18n import T

    if save is None:
        try:
            save = str(new_save_path())
        except OSError as e:
            typer.echo(one_line(T(lang, "autosave_failed", path=str(saves_dir()),
                                  why=e.strerror or str(e))), err=True)
            return None
    return Autosave(save, human, levels, lang, open_hands)
