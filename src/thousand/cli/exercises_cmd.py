"""``thousand exercises``: solve again the costliest decisions of a player's games.

The games are analysed (thousand.analysis), the marked decisions of the player become
exercises (thousand.analysis.exercises), and each is shown from the player's seat with
the line-mode renderer and answered with ``thousand play``'s move input.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from typing import Annotated

import typer
from rich.console import Console
from rich.markup import escape

from thousand.analysis.exercises import Exercise, check, position_view
from thousand.engine.protocol import view_json
from thousand.engine.record import SAVE_FORMAT
from thousand.words.catalogue import move_words
from thousand.words.grammar import is_you, render

from . import app
from .common import output_console

_TEXTS = {
    "ru": {
        "title": "Найдите лучший ход",
        "header": "Упражнение {n} из {total}: раздача {deal}, {name:ход {name:gen}|ваш ход}",
        "ask": "Ваш ход: ",
        "ask_for": "Ход за {name:acc}: ",
        "unknown": "Не понял «{text}»: наберите номер хода или карту (справка — помощь, "
                   "выход — закончить). Упражнение не засчитано, ответьте ещё раз.",
        "illegal": "Так сейчас нельзя: {move}. Выберите один из ходов списка.",
        "help": "Ответ — ход из списка: его номер, карта (кч, 10п, KH) или слово (пас, "
                "заказ 120); выход — закончить.",
        "right": "Верно! Хорошие ходы: {good}.",
        "wrong": "Неверно. В партии сыграно: {played}; лучше: {good} (потеря: "
                 "{cost:#очко|очка|очков}).",
        "score": "Решено {right} из {total}.",
        "none": "Упражнений нет: анализ не отметил в этих партиях {name:ни одного хода "
                "{name:gen}|ни одного вашего хода}.",
        "none_all": "Упражнений нет: анализ не отметил в этих партиях ни одного хода.",
    },
    "en": {
        "title": "Find the best move",
        "header": "Exercise {n} of {total}: deal {deal}, {name:{name:poss}|your} move",
        "ask": "Your move: ",
        "ask_for": "The move for {name}: ",
        "unknown": "I did not understand \"{text}\": type a move number or a card (help, "
                   "quit to stop). Not counted: answer again.",
        "illegal": "Not possible now: {move}. Pick one of the listed moves.",
        "help": "An answer is one of the listed moves: its number, a card (KH, 10s) or a "
                "word (pass, contract 120); quit stops.",
        "right": "Right! Good moves: {good}.",
        "wrong": "Wrong. The game had {played}; better: {good} (it cost "
                 "{cost:#point|points}).",
        "score": "Solved {right} of {total}.",
        "none": "No exercises: the analysis marked no move of {name:{name}|yours} in these "
                "games.",
        "none_all": "No exercises: the analysis marked no move in these games.",
    },
}


def text(lang: str, key: str, **params: object) -> str:
    """A user-visible line in ``lang`` (ru or en), names agreed and declined
    (:func:`thousand.words.grammar.render`)."""
    return render(_TEXTS["en" if lang == "en" else "ru"][key], lang, params)


def _names(ex: Exercise, players: int) -> list[str]:
    return list(ex.record.get("players") or [str(i) for i in range(players)])


def show_position(ex: Exercise, n: int, total: int, lang: str, console: Console) -> None:
    """The seat's view before the move, as the line mode shows a turn
    (:func:`thousand.terminal.session.turn_lines`, with what the line mode would have told
    on the way: the auction, the contract, the cards already played), and the moves."""
    from thousand.terminal.session import moves_lines, turn_lines

    view = position_view(ex)
    wire = view_json(view)
    names = [escape(name) for name in _names(ex, view.players)]
    console.print(f"[bold]{text(lang, 'title')}[/] — "
                  + text(lang, "header", n=n, total=total, deal=ex.deal, name=names[ex.seat]))
    for line in turn_lines(wire, view.rules, names, lang, ex.seat, recap=True):
        console.print(line)
    for line in moves_lines(wire, view.rules, names, lang, console.width,
                            wrap=not console.soft_wrap):
        console.print(line)


def _words(moves: Sequence[str], lang: str) -> str:
    return ", ".join(move_words(m, lang) for m in moves)


def drill(exercises: Sequence[Exercise], lang: str, ask: Callable[[str], str],
          console: Console, reader: int | None = None) -> int:
    """Ask each exercise and say right or wrong; the number solved.  An answer that is
    no move (a typo, ``help``) or not a legal one is said so and asked again: only a move
    uses an exercise up.  The prompt is «Ваш ход» at the ``reader``'s seat, else it names
    the player whose move it is.  ``quit`` (or the end of input) stops."""
    from thousand.terminal.session import parse_input

    right = 0
    for n, ex in enumerate(exercises, 1):
        show_position(ex, n, len(exercises), lang, console)
        wire = view_json(position_view(ex))
        name = _names(ex, len(wire["hand_sizes"]))[ex.seat]
        prompt = (text(lang, "ask") if ex.seat == reader or is_you(name)
                  else text(lang, "ask_for", name=name))
        while True:
            try:
                line = ask(prompt)
            except (EOFError, KeyboardInterrupt):  # the end of input, Ctrl-C: stop here
                console.print()
                line = "quit"
            answer = parse_input(line, wire)
            if answer == "quit":
                console.print(f"[bold]{text(lang, 'score', right=right, total=n - 1)}[/]")
                return right
            if answer == "help" or answer == "hint":
                console.print(text(lang, "help"))
            elif answer is None:
                console.print(escape(text(lang, "unknown", text=" ".join(line.split())[:60])))
            elif answer not in wire["legal"]:
                console.print(text(lang, "illegal", move=move_words(answer, lang)))
            else:
                break
        good = _words(ex.good, lang)
        if check(ex, answer):
            right += 1
            console.print(text(lang, "right", good=good))
        else:
            console.print(text(lang, "wrong", played=move_words(ex.played, lang), good=good,
                               cost=round(ex.cost)))
    console.print(f"[bold]{text(lang, 'score', right=right, total=len(exercises))}[/]")
    return right


def reader_seat(path: str, lang: str, players: Sequence[str]) -> int | None:
    """Whose games these are when ``--seat`` is not given: the person's seat of a save of
    ``thousand play``, else the seat called «Вы»/"You"; None when nothing says (every
    player's decisions, each prompt naming its player)."""
    from .replay_cmd import _read

    try:
        obj = json.loads(_read(path, lang))
    except ValueError:
        obj = None
    if isinstance(obj, dict) and obj.get("format") == SAVE_FORMAT:
        human = obj.get("human")
        if isinstance(human, int) and not isinstance(human, bool):
            return human
    return next((s for s, name in enumerate(players) if is_you(name)), None)


@app.command("exercises")
def exercises_command(
    files: Annotated[list[str], typer.Argument(metavar="FILE...", help="Records or saves.")],
    seat: Annotated[
        int | None,
        typer.Option("--seat", help="The player's seat (default: the person's seat of a "
                     "save, or the seat called You; else every player's moves)."),
    ] = None,
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
    reader = seat
    for path in files:
        rec = read_record(path, lang)
        mine = seat if seat is not None else reader_seat(path, lang, rec.players)
        reader = mine if reader is None else reader
        try:
            analysis = analyse_record(rec, seats=None if mine is None else [mine],
                                      view_based=not open_only, samples=samples, lang=lang)
        except ReplayError as e:
            raise replay_failure(e, rec, lang) from None
        except RecordError as e:
            raise not_a_record(_shown(path), e, lang) from None
        except ValueError as e:
            raise _fail(f"error: {e}", 2) from None
        found += exercises_from(analysis, rec.to_json(), seat=mine, limit=limit)
    found.sort(key=lambda e: -e.cost)
    console = output_console()
    if not found:
        if reader is None or not 0 <= reader < len(rec.players):
            console.print(text(lang, "none_all"))
        else:
            console.print(text(lang, "none", name=rec.players[reader]))
        return
    drill(found[:limit], lang, input, console, reader)
