"""``thousand tournament``: a tournament of bots, for a bot ladder (docs/ratings.md).

``thousand tournament --bots random,beginner,heuristic,strong --rounds 6
[--format round-robin|swiss] [--scoring places|duplicate] [--deals N | --games] [--seed S]
[--jobs N] [--preset P] [--set k=v] [--lang ru|en] [--json]``: the bots play at
three-player tables (four for a four-player preset) over the rounds, each table a whole
game or ``--deals N`` deals; then the standings (points by place, byes, first places,
game score) and each bot's rating after the tournament's games with its change (in a
duplicate tournament, where every table of a round is dealt the same cards, first the
duplicate score: a bot's game score less the mean of the others who held its seat's
cards), in a table that fits ``COLUMNS``, or all of it as JSON.  The tournament itself
is :mod:`thousand.evaluation.tournament`.
"""

from __future__ import annotations

import json
import os
import secrets
import sys
from typing import Annotated

import typer
from rich.markup import escape
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

from thousand.cli import app
from thousand.engine.rules import Rules
from thousand.evaluation.arena import Columns, Rows, labels_for
from thousand.evaluation.tournament import (
    FORMATS,
    SCORINGS,
    TournamentError,
    TournamentResult,
    run_tournament,
    word,
)
from thousand.words.catalogue import preset_name
from thousand.words.grammar import decimal

from .arena_cmd import _print_tables
from .common import (
    SetOption,
    fail,
    lang_or_exit,
    levels_or_exit,
    output_console,
    rules_or_exit,
)


def standings_columns(result: TournamentResult, lang: str = "en") -> tuple[Columns, Rows]:
    """The standings as columns (header, justify) and rows, best first: place, player
    (a bot by its name for people), points, games, byes, first places, game score,
    rating and its change over the tournament."""
    duplicate = result.tournament.scoring == "duplicate"
    keys = ["place", "player", *(["duplicate"] if duplicate else []), "points", "games",
            "byes", "firsts", "score", "rating", "change"]
    cols = [(word(key, lang), "left" if key == "player" else "right") for key in keys]
    names = list(result.levels)
    shown = dict(zip(names, labels_for(list(result.levels.values()), lang), strict=True))
    rows = []
    for s in result.tournament.standings():
        change = result.ratings[s.name]
        rows.append([
            str(s.place), shown[s.name],
            *([f"{s.duplicate or 0:+.1f}"] if duplicate else []), f"{s.points:g}",
            str(s.games), str(s.byes), str(s.firsts), f"{s.score:+d}",
            str(change.after.display), f"{change.delta:+d}",
        ])
    return cols, rows


def title(result: TournamentResult, seed: int, lang: str = "en") -> str:
    """What was played: the format, the rounds, whole games or deals, the rules, the seed."""
    rules = result.rules
    what = (word("whole", lang) if result.deals_limit is None
            else word("deals", lang, n=result.deals_limit))
    shown = preset_name(rules.preset, lang)
    if rules.overrides():
        shown += ", " + " ".join(f"{k}={rules.value_text(k)}" for k in rules.overrides())
    return word("title", lang, format=word(result.tournament.format, lang),
                rounds=result.tournament.total_rounds, what=what, rules=shown, seed=seed)


def footer(result: TournamentResult, lang: str = "en", given: bool = False) -> str:
    """Which ratings these are (a family's, or the tournament's own), and the pace."""
    start = word("given" if given else "new", lang)
    ratings = (word("family", lang, family=family_label(result.family, lang), start=start)
               if result.family is not None else word("own", lang, start=start))
    pace = word("pace", lang, tables=result.tables, deals=result.deals,
                sec=decimal(result.seconds, lang))
    return f"{ratings}\n{pace}"


def family_label(family: str, lang: str = "en") -> str:
    """A rating family for people: its preset's name, and the player count when the
    family has its own (``house-4p``: «домашние правила, 4 игрока»)."""
    preset, _, players = family.rpartition("-")
    if players.endswith("p") and players[:-1].isdigit():
        return f"{preset_name(preset, lang)}, {word('players_n', lang, n=int(players[:-1]))}"
    return preset_name(family, lang)


@app.command("tournament")
def tournament_command(
    bots: Annotated[
        str, typer.Option("--bots", help="The bots that take part (a level may repeat), "
                          "e.g. random,beginner,heuristic,strong.")
    ] = "random,beginner,heuristic",
    rounds: Annotated[int, typer.Option("--rounds", help="How many rounds.")] = 6,
    format: Annotated[
        str, typer.Option("--format", help="round-robin (every pair meets as evenly as the "
                          "rounds allow) or swiss (tables by standing).")
    ] = "round-robin",
    scoring: Annotated[
        str, typer.Option("--scoring", help="places (points by place at each table) or "
                          "duplicate (every table of a round dealt the same cards; ranked "
                          "by game score less the mean of the others who held them).")
    ] = "places",
    deals: Annotated[
        int | None, typer.Option("--deals", metavar="N",
                                 help="Each table plays N deals instead of a whole game.")
    ] = None,
    games: Annotated[
        bool, typer.Option("--games", help="Each table plays a whole game (the default).")
    ] = False,
    preset: Annotated[str, typer.Option("--preset", help="The rules preset.")] = "classic",
    sets: SetOption = None,
    seed: Annotated[int | None, typer.Option("--seed", help="Seed for the pairings and the "
                                             "deals (random when not given; printed).")
                    ] = None,
    jobs: Annotated[
        int, typer.Option("--jobs", "-j", help="Processes to play in (0: one per CPU).")
    ] = 1,
    as_json: Annotated[bool, typer.Option("--json", help="Print the result as JSON.")] = False,
    quiet: Annotated[bool, typer.Option("--quiet", help="No progress bar.")] = False,
    lang: Annotated[str, typer.Option("--lang", help="ru or en: the report and its messages")
                    ] = "en",
) -> None:
    """Bots play a tournament; print the standings and their ratings."""
    lang = lang_or_exit(lang)
    if deals is not None and games:
        raise fail(word("deals_or_games", lang), lang=lang)
    if format not in FORMATS:
        raise fail(TournamentError("bad_format", format=repr(format)).text(lang), lang=lang)
    if scoring not in SCORINGS:
        raise fail(TournamentError("bad_scoring", scoring=repr(scoring)).text(lang),
                   lang=lang)
    rules: Rules = rules_or_exit(preset, sets, lang)
    levels = levels_or_exit(bots, lang)
    if jobs <= 0:
        jobs = os.cpu_count() or 1
    if seed is None:
        seed = secrets.randbelow(2**31)
    console = output_console()
    progress = Progress(
        TextColumn(f"[bold]{escape(word('progress', lang))}[/]"), BarColumn(),
        MofNCompleteColumn(), TimeRemainingColumn(), console=console,
        disable=quiet or as_json, transient=True, redirect_stderr=sys.stderr.isatty(),
    )
    with progress:
        task = progress.add_task("", total=None)
        try:
            result = run_tournament(
                levels, format=format, rounds=rounds, rules=rules, deals=deals, seed=seed,
                jobs=jobs, scoring=scoring,
                progress=lambda done, total: progress.update(task, completed=done,
                                                             total=total),
            )
        except TournamentError as e:
            raise fail(e.text(lang), lang=lang) from None
    if as_json:
        typer.echo(json.dumps({**result.to_json(), "seed": seed}, ensure_ascii=False,
                              indent=1))
        return
    console.print(f"[bold]{escape(title(result, seed, lang))}[/]")
    _print_tables(console, *standings_columns(result, lang))
    console.print(footer(result, lang), markup=False)
