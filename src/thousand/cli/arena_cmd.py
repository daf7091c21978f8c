"""``thousand arena``: bots play many games against each other; a table says who is better.

``thousand arena --bots heuristic,random,random -n 1000 [--preset P] [--set k=v] [--seed S]
[--jobs N] [--save DIR]``: one bot per seat (seats rotate from game to game), a progress
bar, then per bot: games won with a 95% interval (Wilson; a shared win counts 1/k to each
of its k winners), mean score per deal, how often it declared and made its contract, its
mean contract; and the pace in games and deals per second.

``--seat 2=cmd:"node bot.js"`` (repeatable) seats an external bot, a program speaking
JSON lines (thousand.bots.external, docs/bots.md); ``--move-timeout`` is its time a move.
``--seat 1=openspiel:ismcts[:SECONDS]`` seats one of OpenSpiel's search bots
(thousand.envs.openspiel_bots, docs/research.md; needs the ``research`` extra).
A bot that fails to move is logged on stderr and counted in the table's "faults" column.
"""

from __future__ import annotations

import os
import secrets
import sys
from typing import Annotated

import typer
from rich.console import Console
from rich.markup import escape
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

from thousand.bots.external import DEFAULT_TIMEOUT, is_command
from thousand.cli import app
from thousand.engine.rules import Rules
from thousand.evaluation.arena import (
    OPENSPIEL_PREFIX,
    ArenaResult,
    Columns,
    Rows,
    labels_for,
    openspiel_level,
    report_tables,
    report_word,
    run_arena,
    shown_level,
    verdict,
)
from thousand.words.catalogue import preset_name
from thousand.words.grammar import decimal, percent, points_number

from .common import (
    SetOption,
    bot_reason,
    fail,
    lang_or_exit,
    levels_or_exit,
    one_line,
    os_reason,
    output_console,
    rules_or_exit,
    seat_levels_or_exit,
    value_reason,
)


def result_columns(result: ArenaResult, lang: str = "en") -> tuple[Columns, Rows]:
    """The arena's table, as columns (header, justify) and rows: per bot its games, wins
    with the 95% interval, score, bidding; faults where a bot had one."""
    def w(key: str, **params: object) -> str:
        return report_word(key, lang, **params)

    def d(value: float) -> str:
        return decimal(value, lang)

    cols = [
        (w("bot"), "left"), (w("games"), "right"), (w("won"), "right"), (w("win"), "right"),
        (w("score"), "right"), (w("declared"), "right"), (w("made"), "right"),
        (w("contested"), "right"), (w("contract"), "right"),
    ]
    # faults: shown when a bot had one, or a seat is an external bot
    with_faults = any(b.faults or b.fallback_moves or is_command(b.level) for b in result.bots)
    if with_faults:
        cols += [(w("faults"), "right"), (w("fallback"), "right")]
    labels = labels_for([b.level for b in result.bots], lang)
    rows = []
    for b, label in zip(result.bots, labels, strict=True):
        lo, hi = b.win_interval
        wins = points_number(b.wins, lang)
        row = [
            label,
            str(b.games),
            wins,
            f"{d(100 * b.win_rate)} ({d(100 * lo)}–{d(100 * hi)})",
            decimal(b.mean_score_per_deal, lang, sign=True),
            percent(100 * b.declare_rate, lang),
            w("of", p=percent(100 * b.make_rate, lang), n=b.declared),
            w("of", p=percent(100 * b.contested_make_rate, lang), n=b.declared - b.compulsory),
            d(b.mean_contract),
        ]
        if with_faults:
            row += [str(b.faults), str(b.fallback_moves)]
        rows.append(row)
    return cols, rows


def pace_line(result: ArenaResult, lang: str = "en") -> str:
    """The notes under the table, whether the games tell the bots apart, and the pace."""
    pace = report_word(
        "pace", lang, games=result.games, deals=result.deals, sec=decimal(result.seconds, lang),
        gps=decimal(result.games_per_second, lang, 2),
        dps=decimal(result.deals_per_second, lang),
    )
    return f"{report_word('notes', lang)}\n{verdict(result, lang)}\n{pace}"


#: The command's own error messages: key -> (English, Russian).
_ERRORS: dict[str, tuple[str, str]] = {
    "timeout": ("--move-timeout must be more than 0 seconds",
                "--move-timeout: нужно больше 0 секунд"),
    "n": ("-n must be at least 1", "-n: нужна хотя бы одна партия"),
    "whole": ("--whole-games must be 0 or more", "--whole-games: нужно 0 или больше"),
    "dup_only": ("--whole-games and --resume go with --duplicate",
                 "--whole-games и --resume — только вместе с --duplicate"),
    "file_there": ("--save {dir}: a file is there; --save names a directory for the records",
                   "--save {dir}: там файл, а --save называет папку для записей"),
    "no_dir": ("--save {dir}: cannot make the directory: {why}",
               "--save {dir}: не удаётся создать папку: {why}"),
    "openspiel": ("{where}: {spec} needs OpenSpiel: pip install 'thousand[research]'",
                  "{where}: для {spec} нужен OpenSpiel: pip install 'thousand[research]'"),
}


def _error(key: str, lang: str, **params: object) -> str:
    en, ru = _ERRORS[key]
    return (ru if lang == "ru" else en).format(**params)


@app.command("arena")
def arena_command(
    bots: Annotated[
        str, typer.Option("--bots", help="One bot level per seat, e.g. heuristic,random,random.")
    ] = "heuristic,random,random",
    seat: Annotated[
        list[str] | None,
        typer.Option(
            "--seat", metavar="N=BOT",
            help="Seat N (from 0; its place in --bots) is played by BOT: a level, "
            "cmd:COMMAND, a program speaking JSON lines (docs/bots.md), or "
            "openspiel:ismcts[:SECONDS] / openspiel:mcts[:SECONDS], OpenSpiel's search "
            "(docs/research.md). Repeatable; --bots names every seat or the seats left free.",
        ),
    ] = None,
    move_timeout: Annotated[
        float,
        typer.Option("--move-timeout", metavar="SECONDS",
                     help="An external bot's time for each move."),
    ] = DEFAULT_TIMEOUT,
    games: Annotated[
        int, typer.Option("-n", "--games", help="How many games (with --duplicate: dealt sets).")
    ] = 100,
    preset: Annotated[str, typer.Option("--preset", help="The rules preset.")] = "classic",
    sets: SetOption = None,
    seed: Annotated[int | None, typer.Option("--seed", help="Seed for the deals.")] = None,
    jobs: Annotated[
        int, typer.Option("--jobs", "-j", help="Processes to play in (0: one per CPU).")
    ] = 1,
    save: Annotated[
        str | None, typer.Option("--save", metavar="DIR", help="Keep every game record here.")
    ] = None,
    quiet: Annotated[bool, typer.Option("--quiet", help="No progress bar.")] = False,
    duplicate: Annotated[
        bool,
        typer.Option(
            "--duplicate",
            help="Deal each set of hands once for every seating of the bots, so the luck "
            "of the cards cancels; -n counts the dealt sets.",
        ),
    ] = False,
    whole_games: Annotated[
        int,
        typer.Option(
            "--whole-games",
            help="With --duplicate: also play this many whole games per seating (win rate).",
        ),
    ] = 0,
    resume: Annotated[
        bool, typer.Option("--resume", help="With --duplicate --save: go on with a saved run.")
    ] = False,
    lang: Annotated[str, typer.Option("--lang", help="ru or en: the report and its messages")
                    ] = "en",
) -> None:
    """Bots play games against each other; print who won and how they bid.  Справка
    по-русски: thousand arena --help --lang ru."""
    lang = lang_or_exit(lang)
    rules = rules_or_exit(preset, sets, lang)
    bots, seat = _openspiel_seats(bots, seat, lang)
    levels = seat_levels_or_exit(levels_or_exit(bots, lang), seat, rules.players, lang)
    _check_run(move_timeout, games, whole_games, resume, duplicate, lang)
    if save is not None:
        _save_dir_or_exit(save, lang)
    if jobs <= 0:
        jobs = os.cpu_count() or 1
    progress = _progress(quiet, lang)
    if duplicate:
        _duplicate(levels, games, rules, seed, jobs, save, whole_games, resume, lang, progress,
                   move_timeout)
    else:
        _arena(levels, games, rules, seed, jobs, save, lang, progress, move_timeout)


def _check_run(move_timeout: float, games: int, whole_games: int, resume: bool,
               duplicate: bool, lang: str) -> None:
    """The run's numbers and the options that go with ``--duplicate`` only: a bad one
    exits 2 saying so in ``lang``."""
    if not move_timeout > 0:
        raise fail(_error("timeout", lang), lang=lang)
    if games < 1:
        raise fail(_error("n", lang), lang=lang)
    if whole_games < 0:
        raise fail(_error("whole", lang), lang=lang)
    if (whole_games or resume) and not duplicate:
        raise fail(_error("dup_only", lang), lang=lang)


def _progress(quiet: bool, lang: str) -> Progress:
    """The progress bar on the output console (none with ``--quiet``)."""
    # A fault line (stderr) shows above the bar on a terminal, and goes as it is to a
    # stderr sent elsewhere.
    return Progress(
        TextColumn(f"[bold]{report_word('title', lang)}[/]"), BarColumn(), MofNCompleteColumn(),
        TimeRemainingColumn(),
        console=output_console(), disable=quiet, transient=True,
        redirect_stderr=sys.stderr.isatty(),
    )


def _arena(levels: list[str], games: int, rules: Rules, seed: int | None, jobs: int,
           save: str | None, lang: str, progress: Progress,
           move_timeout: float = DEFAULT_TIMEOUT) -> None:
    """The games with seats rotating (thousand.evaluation.arena), then the report."""
    with progress:
        task = progress.add_task("", total=games)
        result = run_arena(
            levels, games, rules, seed=seed, jobs=jobs, save_dir=save,
            progress=lambda done: progress.update(task, completed=done),
            move_timeout=move_timeout,
        )
    console = progress.console
    console.print(f"[bold]{escape(_title(levels, rules, lang))}[/]")
    _print_tables(console, *result_columns(result, lang))
    console.print(pace_line(result, lang), markup=False)
    if save:
        console.print(report_word("records", lang, n=len(result.records), dir=save),
                      markup=False)


def _openspiel_seats(bots: str, seats: list[str] | None,
                     lang: str = "en") -> tuple[str, list[str] | None]:
    """``openspiel:ALGORITHM[:SECONDS]`` in --bots or --seat: registered as a bot level
    (``openspiel-ismcts-300ms``) and named by it."""

    def level(spec: str, where: str) -> str:
        if not spec.strip().startswith(OPENSPIEL_PREFIX):
            return spec
        try:
            return openspiel_level(spec.strip())
        except ImportError:
            raise fail(_error("openspiel", lang, where=where, spec=one_line(spec, 80)),
                       lang=lang) from None
        except ValueError as e:
            raise fail(f"{where}: {bot_reason(e, lang)}", lang=lang) from None

    bots = ",".join(level(b, "--bots") for b in bots.split(","))
    if seats is None:
        return bots, None
    out = []
    for spec in seats:
        n, eq, bot = spec.partition("=")
        out.append(f"{n}={level(bot, f'--seat {n.strip()}')}" if eq else spec)
    return bots, out


#: The width a table is laid out to in a pipe that no ``COLUMNS`` describes: a report
#: pasted into a mail or a terminal of the usual size reads whole.
PIPE_WIDTH = 80


def _print_tables(console: Console, columns: Columns, rows: Rows) -> None:
    """The report's table in as many tables as the reader's width needs: ``COLUMNS`` on
    a terminal or when given, else 80 columns (a file or a pipe)."""
    width = console.width if console.is_terminal or "COLUMNS" in os.environ else PIPE_WIDTH
    for i, table in enumerate(report_tables(columns, rows, width)):
        if i:
            console.print()
        console.print(table)


def _save_dir_or_exit(save: str, lang: str = "en") -> None:
    """``--save DIR`` must be a directory (made if missing): a file there is left alone."""
    shown = one_line(save, 160)
    if os.path.lexists(save) and not os.path.isdir(save):
        raise fail(_error("file_there", lang, dir=shown), lang=lang)
    try:
        os.makedirs(save, exist_ok=True)
    except OSError as e:
        raise fail(_error("no_dir", lang, dir=shown, why=os_reason(e, lang)),
                   lang=lang) from None
    except ValueError as e:  # a name the system cannot take (a NUL byte)
        raise fail(_error("no_dir", lang, dir=shown, why=value_reason(e, lang)),
                   lang=lang) from None


def _title(levels: list[str], rules: Rules, lang: str = "en") -> str:
    """The bots by their names for people and the preset (what ``--set`` changed as it
    is written)."""
    bots = ", ".join(shown_level(lv, lang) for lv in levels)
    title = f"{bots} — {preset_name(rules.preset, lang)}"
    if rules.overrides():
        title += ", " + " ".join(f"{k}={rules.value_text(k)}" for k in rules.overrides())
    return title


def _duplicate(
    levels: list[str],
    sets: int,
    rules: Rules,
    seed: int | None,
    jobs: int,
    save: str | None,
    whole_games: int,
    resume: bool,
    lang: str,
    progress: Progress,
    move_timeout: float = DEFAULT_TIMEOUT,
) -> None:
    """``--duplicate``: the same dealt sets in every seating (thousand.evaluation.duplicate)."""
    from thousand.evaluation.duplicate import RunError, report_columns, report_lines, run_duplicate
    from thousand.evaluation.duplicate import report_word as report_word_dup

    if seed is None:
        seed = secrets.randbelow(2**31)
    console = progress.console
    with progress:
        task = progress.add_task("", total=sets + whole_games)
        try:
            report = run_duplicate(
                levels, sets, rules, seed=seed, jobs=jobs, games=whole_games,
                save_dir=save, resume=resume,
                progress=lambda done, total: progress.update(task, completed=done, total=total),
                move_timeout=move_timeout,
            )
        except ValueError as e:
            text = e.text(lang) if isinstance(e, RunError) else str(e)
            raise fail(text, lang=lang) from None
    head = report_word_dup("title", lang, title=_title(levels, rules, lang), seed=seed)
    console.print(f"[bold]{escape(head)}[/]")
    _print_tables(console, *report_columns(report, lang))
    for line in report_lines(report, lang):
        console.print(line, markup=False)
    if save:
        console.print(report_word_dup("saved", lang, dir=save), markup=False)
