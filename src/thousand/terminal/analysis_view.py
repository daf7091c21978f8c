"""The analysis of a finished game in the terminal: one piece both modes share.

The analysis itself is :func:`thousand.analysis.analyse_record` (docs/analysis.md); this
module only runs it for the person's seat and turns its JSON (format 1) into what a
terminal shows: the decisions to step through (:func:`steps`, :func:`jump`), the deal's
position before each of them as the seat saw it (:func:`position`, a wire view that the
full-screen table's widgets draw), the lines about one decision (:func:`step_lines`) and
the per-player summary (:func:`summary_lines`).  The line mode prints the analysis'
own text report (:func:`report_text`, thousand/analysis/text.py); nothing here words a
second report.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from thousand.engine import moves as mv
from thousand.engine.protocol import view_json
from thousand.engine.record import load_record
from thousand.words.grammar import label, percent, points_number

from .render import move_plain

Analysis = Mapping[str, Any]
Progress = Callable[[int, int], None]

#: How many sampled deals the view-based valuation uses when nobody says otherwise (the
#: analysis' own default, docs/analysis.md).
DEFAULT_SAMPLES = 48

WORDS: dict[str, dict[str, str]] = {
    "ru": {
        "offer": "Разобрать партию? [д/Н] ",
        "running": "Анализ партии: {done} из {total}",
        "failed": "Анализ не удался: {why}",
        "step": "Раздача {deal}, ход {n} из {total}: {name}",
        "played": "Сыграно: {move}",
        "forced": " (единственный ход)",
        "better": "Лучше: {move} (−{cost} очк.)",
        "best": "Лучший ход.",
        "reason": "Почему: {reason}",
        "values": "Оценки ходов: {items}",
        "open": "В открытую: лучше {move}, потеря {lost}",
        "summary": "{name}: точность {accuracy}, неточностей {inaccuracy}, ошибок "
                   "{mistake}, грубых ошибок {blunder}, потеряно {lost} очк.",
        "inaccuracy": "неточность",
        "mistake": "ошибка",
        "blunder": "грубая ошибка",
        "none": "Решений для разбора нет.",
    },
    "en": {
        "offer": "Analyse the game? [y/N] ",
        "running": "Analysing the game: {done} of {total}",
        "failed": "The analysis failed: {why}",
        "step": "Deal {deal}, decision {n} of {total}: {name}",
        "played": "Played: {move}",
        "forced": " (the only move)",
        "better": "Better: {move} (−{cost} points)",
        "best": "The best move.",
        "reason": "Why: {reason}",
        "values": "Values of the moves: {items}",
        "open": "Open cards: better {move}, lost {lost}",
        "summary": "{name}: accuracy {accuracy}, inaccuracies {inaccuracy}, mistakes "
                   "{mistake}, blunders {blunder}, lost {lost} points",
        "inaccuracy": "inaccuracy",
        "mistake": "mistake",
        "blunder": "blunder",
        "none": "No decisions to analyse.",
    },
}

#: The answers that mean yes to the offer (Russian and English, either keyboard layout).
YES = {"y", "yes", "д", "да", "l", "lf"}


def word(lang: str, key: str, **params: object) -> str:
    """One of this module's texts in ``lang`` (Russian when the language is unknown)."""
    return WORDS.get(lang, WORDS["ru"])[key].format(**params)


def says_yes(answer: str | None) -> bool:
    """Whether an answer to the offer is a yes (no answer, or an empty one, is a no)."""
    return answer is not None and answer.strip().lower() in YES


def analyse_game(record: Mapping[str, Any], seat: int | None, *,
                 samples: int = DEFAULT_SAMPLES, lang: str = "ru",
                 progress: Progress | None = None) -> dict[str, Any]:
    """The analysis of ``record`` for ``seat`` (every seat with ``None``).  ``samples``
    0 asks for the open-card analysis alone (fast: no sampling), as ``thousand analyse
    --open-only`` does."""
    from thousand.analysis import analyse_record  # the sampling machinery: only when asked

    made: dict[str, Any] = analyse_record(
        record, seats=None if seat is None else [seat], view_based=samples > 0,
        samples=max(samples, 1), lang=lang, progress=progress)
    return made


def report_text(analysis: Analysis, lang: str) -> str:
    """The analysis' own text report (thousand/analysis/text.py)."""
    from thousand.analysis.text import render_text

    return render_text(analysis, lang)


@dataclass(frozen=True)
class Step:
    """One decision to look at: its deal (1-based) and its entry of the analysis."""

    deal: int
    decision: Mapping[str, Any]

    @property
    def mark(self) -> str | None:
        mark = self.decision.get("mark")
        return str(mark) if mark else None

    @property
    def index(self) -> int:
        return int(self.decision["index"])

    @property
    def seat(self) -> int:
        return int(self.decision["seat"])


def steps(analysis: Analysis, seat: int | None = None) -> list[Step]:
    """Every decision of ``seat`` (of everybody with ``None``) in the order played."""
    return [Step(int(d["number"]), dec) for d in analysis.get("deals", ())
            for dec in d.get("decisions", ()) if seat is None or dec["seat"] == seat]


def jump(all_steps: Sequence[Step], at: int, direction: int, marked: bool = False) -> int:
    """The step one decision on (``direction`` +1) or back (−1) from ``at``, or with
    ``marked`` the next marked one that way; ``at`` itself when there is none."""
    i = at + direction
    while 0 <= i < len(all_steps):
        if not marked or all_steps[i].mark:
            return i
        i += direction
    return at


def position(record: Mapping[str, Any], deal: int, index: int, seat: int) -> dict[str, Any]:
    """The wire view ``seat`` had in deal ``deal`` (1-based) before its move ``index``
    (0-based in the deal's record): the record replayed up to there."""
    from thousand.analysis.walk import game_before  # the analysis package: only when asked

    game = game_before(load_record(record), deal, index)
    assert game.deal is not None
    return view_json(game.deal.view(seat))


def _move(text: str, lang: str) -> str:
    """A move of the analysis (record notation) in the player's words."""
    try:
        return move_plain(mv.parse_move(text), lang)
    except mv.MoveError:
        return text


def _points(value: float, lang: str) -> str:
    return points_number(value, lang)


def step_lines(all_steps: Sequence[Step], at: int, names: Sequence[str],
               lang: str) -> list[str]:
    """What is said about decision ``at``: where it is, the move played and its mark,
    the better move and why, the values of the alternatives."""
    step = all_steps[at]
    d = step.decision
    lines = [word(lang, "step", deal=step.deal, n=at + 1, total=len(all_steps),
                  name=label(names[step.seat], lang) if step.seat < len(names) else step.seat)]
    played = word(lang, "played", move=_move(str(d["played"]), lang))
    if d.get("forced"):
        played += word(lang, "forced")
    elif step.mark:
        played += f" — {word(lang, step.mark)}"
    lines.append(played)
    view, opened = d.get("view"), d.get("open")
    basis = view if d.get("basis") != "open" and view else opened
    if basis and not d.get("forced"):
        best = str(basis.get("best"))
        cost = float(basis.get("cost", basis.get("lost", 0)) or 0)
        if best != d["played"] and cost > 0:
            lines.append(word(lang, "better", move=_move(best, lang), cost=_points(cost, lang)))
        else:
            lines.append(word(lang, "best"))
    if d.get("reason"):
        lines.append(word(lang, "reason", reason=d["reason"]))
    if basis and basis.get("moves"):
        items = ", ".join(f"{_move(str(m['move']), lang)} {_points(float(m['value']), lang)}"
                          for m in basis["moves"])
        lines.append(word(lang, "values", items=items))
    if view and opened and opened.get("best") is not None:
        lines.append(word(lang, "open", move=_move(str(opened["best"]), lang),
                          lost=_points(float(opened.get("lost") or 0), lang)))
    return lines


def _accuracy(value: object, lang: str) -> str:
    return "—" if value is None else percent(float(str(value)), lang)


def summary_lines(analysis: Analysis, lang: str) -> list[str]:
    """One line per analysed player: accuracy, marks, points lost."""
    out = []
    for p in analysis.get("players", ()):
        marks = p.get("marks") or {}
        lost = p.get("lost_view") if p.get("lost_view") is not None else p.get("lost_open")
        out.append(word(lang, "summary", name=label(p.get("name", p.get("seat")), lang),
                        accuracy=_accuracy(p.get("accuracy"), lang),
                        lost=_points(float(lost or 0), lang),
                        inaccuracy=marks.get("inaccuracy", 0),
                        mistake=marks.get("mistake", 0), blunder=marks.get("blunder", 0)))
    return out
