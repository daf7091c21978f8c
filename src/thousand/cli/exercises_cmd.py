"""``thousand exercises``: solve again the costliest decisions of a player's games.

The games are analysed (thousand.analysis), the marked decisions of the player become
exercises (thousand.analysis.exercises), and each is shown from the player's seat with
the line-mode renderer and answered with ``thousand play``'s move input.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Annotated

import typer
from rich.console import Console

from thousand.analysis.exercises import Exercise, check, position_view
from thousand.engine.protocol import view_json

from . import app

_TEXTS = {
    "ru": {
        "title": "Найдите лучший ход",
        "header": "Упражнение {n} из {total}: раздача {deal}, место {seat}",
        "hand": "Рука", "trick": "Взятка", "auction": "Торговля",
        "ask": "Ваш ход: ",
        "right": "Верно! Хороший ход: {good}.",
        "wrong": "Неверно. В партии сыграно {played}; лучше: {good} (потеря {cost:.0f} очк.).",
        "score": "Решено {right} из {total}",
        "none": "Упражнений нет: в этих партиях нет отмеченных ошибок игрока.",
    },
    "en": {
        "title": "Find the best move",
        "header": "Exercise {n} of {total}: deal {deal}, seat {seat}",
        "hand": "Hand", "trick": "Trick", "auction": "Auction",
        "ask": "Your move: ",
        "right": "Right! A good move: {good}.",
        "wrong": "Wrong. The game had {played}; better: {good} (it cost {cost:.0f} points).",
        "score": "Solved {right} of {total}",
        "none": "No exercises: the player made no marked mistakes in these games.",
    },
}


def text(lang: str, key: str, **params: object) -> str:
    """A user-visible line in ``lang`` (ru or en)."""
    return _TEXTS["en" if lang == "en" else "ru"][key].format(**params)


def show_position(ex: Exercise, n: int, total: int, lang: str, console: Console) -> None:
    """The seat's view before the move: hand, trick and auction (line-mode renderer)."""
    from thousand.terminal.render import auction_markup, hand_markup, trick_markup

    view = position_view(ex)
    wire = view_json(view)
    names = list(ex.record.get("players") or [str(i) for i in range(view.players)])
    console.print(f"[bold]{text(lang, 'title')}[/] — "
                  + text(lang, "header", n=n, total=total, deal=ex.deal, seat=names[ex.seat]))
    console.print(f"{text(lang, 'hand')}: {hand_markup(view.hand, lang)}")
    if wire.get("auction"):
        console.print(f"{text(lang, 'auction')}: {auction_markup(wire, names, lang)}")
    if wire.get("trick"):
        console.print(f"{text(lang, 'trick')}: {trick_markup(wire['trick'], names, lang)}")


def drill(exercises: Sequence[Exercise], lang: str, ask: Callable[[str], str],
          console: Console) -> int:
    """Ask each exercise once and say right or wrong; the number solved."""
    from thousand.terminal.session import parse_input

    right = 0
    for n, ex in enumerate(exercises, 1):
        show_position(ex, n, len(exercises), lang, console)
        answer = parse_input(ask(text(lang, "ask")), position_view(ex)) or ""
        good = ", ".join(ex.good)
        if check(ex, answer):
            right += 1
            console.print(text(lang, "right", good=good))
        else:
            console.print(text(lang, "wrong", played=ex.played, good=good, cost=ex.cost))
    console.print(f"[bold]{text(lang, 'score', right=right, total=len(exercises))}[/]")
    return right


@app.command("exercises")
def exercises_command(
    files: Annotated[list[str], typer.Argument(metavar="FILE...", help="Records or saves.")],
    seat: Annotated[int | None, typer.Option("--seat", help="The player's seat.")] = None,
    lang: Annotated[str, typer.Option("--lang", help="ru or en")] = "ru",
    limit: Annotated[int, typer.Option("--limit", help="At most this many.")] = 10,
    samples: Annotated[int, typer.Option("--samples", help="Sampled deals per move.")] = 48,
    open_only: Annotated[bool, typer.Option("--open-only", help="Open-card analysis.")] = False,
) -> None:
    """Solve again the costliest decisions of a player's games.  Справка по-русски:
    thousand exercises --help --lang ru."""
    from thousand.analysis import analyse_record
    from thousand.analysis.exercises import exercises_from
    from thousand.engine.record import RecordError, ReplayError

    from .replay_cmd import _fail, _shown, not_a_record, read_record, replay_failure, said_lang

    lang = said_lang(lang)
    found: list[Exercise] = []
    for path in files:
        rec = read_record(path, lang)
        try:
            analysis = analyse_record(rec, seats=None if seat is None else [seat],
                                      view_based=not open_only, samples=samples, lang=lang)
        except ReplayError as e:
            raise replay_failure(e, rec, lang) from None
        except RecordError as e:
            raise not_a_record(_shown(path), e, lang) from None
        except ValueError as e:
            raise _fail(f"error: {e}", 2) from None
        found += exercises_from(analysis, rec.to_json(), seat=seat, limit=limit)
    found.sort(key=lambda e: -e.cost)
    console = Console(highlight=False)
    if not found:
        console.print(text(lang, "none"))
        return
    drill(found[:limit], lang, input, console)
