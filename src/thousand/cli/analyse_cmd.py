"""``thousand analyse FILE``: the analysis of a game record or a save (docs/analysis.md).

It reads the file as ``thousand replay`` does (its errors and exit codes: 2 for a file that
is not a record, 1 for a game that breaks the rules), then values every decision of the
chosen seats and deals and prints the text report or, with ``--json``, the data of
docs/analysis.schema.json.  The progress goes to stderr when stderr is a terminal.
"""

from __future__ import annotations

import json
import sys
from typing import Annotated

import typer

from thousand.cli import app
from thousand.engine.record import RecordError, ReplayError

from .replay_cmd import _fail, _shown, not_a_record, read_record, replay_failure, said_lang


def _progress(done: int, total: int) -> None:
    width = 30
    filled = width * done // max(1, total)
    sys.stderr.write(f"\r[{'#' * filled}{'.' * (width - filled)}] {done}/{total}")
    if done >= total:
        sys.stderr.write("\n")
    sys.stderr.flush()


@app.command("analyse")
def analyse_command(
    file: Annotated[str, typer.Argument(metavar="FILE",
                                        help="The game record or save (JSON); - for stdin.")],
    as_json: Annotated[bool, typer.Option("--json", help="Print the analysis as JSON "
                                                         "(docs/analysis.schema.json).")] = False,
    lang: Annotated[str, typer.Option("--lang", help="ru or en.")] = "ru",
    seat: Annotated[list[int] | None, typer.Option(
        "--seat", help="Analyse this seat (0-based; repeat for more). Default: all.")] = None,
    deal: Annotated[list[int] | None, typer.Option(
        "--deal", help="Analyse this deal (1-based; repeat for more). Default: all.")] = None,
    open_only: Annotated[bool, typer.Option(
        "--open-only", help="Only the values with every card open (fast).")] = False,
    samples: Annotated[int, typer.Option(
        "--samples", min=1, max=2000, help="Deals sampled per decision from the player's "
                                           "view.")] = 48,
    seed: Annotated[int, typer.Option("--seed", min=0, help="The sampling's seed.")] = 0,
    jobs: Annotated[int, typer.Option("--jobs", min=1, max=64,
                                      help="Processes (the deals are shared out).")] = 1,
    everything: Annotated[bool, typer.Option(
        "--all", help="List every unforced decision, not only the marked ones.")] = False,
) -> None:
    """Analyse a finished game: every decision valued, the mistakes marked, a summary
    per player.  Справка по-русски: thousand analyse --help --lang ru."""
    said = said_lang(lang)
    record = read_record(file, said)
    from thousand.analysis import analyse_record
    from thousand.analysis.text import render_text

    try:
        result = analyse_record(
            record, seats=seat or None, deals=deal or None, view_based=not open_only,
            samples=samples, seed=seed, lang=said, jobs=jobs,
            progress=_progress if sys.stderr.isatty() else None)
    except ReplayError as e:
        raise replay_failure(e, record, said) from None
    except RecordError as e:
        raise not_a_record(_shown(file), e, said) from None
    except ValueError as e:
        raise _fail(f"error: {e}", 2) from None
    if as_json:
        typer.echo(json.dumps(result, ensure_ascii=False))
        return
    typer.echo(render_text(result, said, everything=everything))
