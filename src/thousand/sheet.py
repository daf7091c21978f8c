"""The score sheet (запись, пуля) a player would keep on paper, as plain data.

One row per deal: who dealt, who played what contract and how it went, and for
each player the running total with the change and the marks players write next
to it: the barrel, bolts, falls, penalties, samosval.  It is built from the
game's :class:`~thousand.game.DealSummary` rows only, so the same data serves
``thousand replay`` and the terminal game after each deal, and it never sees a
hidden card.  This module is part of the engine and draws nothing: the Rich table
is :func:`thousand.terminal.sheet_view.render_sheet`.

Russian words are those of RULES.md §8 (бочка, болт, роспись, самосвал,
пересдача, тёмная, золотой кон); ``lang="en"`` gives English.
"""

from __future__ import annotations

from dataclasses import dataclass

from .game import DealSummary, Event, Game

__all__ = [
    "LANGS",
    "WORDS",
    "Mark",
    "Sheet",
    "SheetCell",
    "SheetRow",
    "event_mark",
    "score_sheet",
    "sheet_footer",
    "sheet_rows",
]

LANGS = ("ru", "en")

#: Every word the sheet writes, by language.
WORDS: dict[str, dict[str, str]] = {
    "ru": {
        "title": "Запись (пуля)",
        "number": "№",
        "dealer": "сдаёт",
        "declarer": "играет",
        "contract": "заказ",
        "result": "итог",
        "dark": "тёмная",
        "golden": "золотой кон",
        "made": "сыграл",
        "failed": "не сыграл",
        "conceded": "роспись",
        "redeal": "пересдача",
        "golden_restart": "золотые коны заново, счёт с 0",
        "on_barrel": "бочка {k}/{n}",
        "on_barrel_open": "бочка {k}",
        "winner": "Победил: {name}",
        "shared": "Победу делят: {names}",
        "in_progress": "Игра продолжается.",
        "deal_in_progress": "Игра продолжается: идёт раздача {n}.",
        "settlement": "Расчёт: {items}",
        "owes": "{name} должен {amount}",
        "nobody_owes": "никто ничего не должен",
        "no_settlement": "Расчёта нет: победа общая.",
        # event marks
        "barrel_on": "на бочке",
        "fall": "слетел с бочки",
        "knocked_off": "сбит с бочки",
        "barrel_timeout": "не сыграл на бочке за {n} кона",
        "barrel_timeout_open": "слетел с бочки",
        "bolt": "болт {k}",
        "bolt_penalty": "штраф за болты",
        "bolt_samosval": "самосвал за болты",
        "concede_penalty": "штраф за роспись",
        "redeal_penalty": "штраф за пересдачи",
        "cut_penalty": "три девятки при съёме",
        "fall_reset": "сброс за падения с бочки",
        "samosval": "самосвал",
    },
    "en": {
        "title": "Score sheet",
        "number": "#",
        "dealer": "dealer",
        "declarer": "declarer",
        "contract": "contract",
        "result": "result",
        "dark": "dark",
        "golden": "golden",
        "made": "made",
        "failed": "failed",
        "conceded": "conceded",
        "redeal": "redeal",
        "golden_restart": "golden deals again, scores from 0",
        "on_barrel": "barrel {k}/{n}",
        "on_barrel_open": "barrel {k}",
        "winner": "Winner: {name}",
        "shared": "Shared win: {names}",
        "in_progress": "The game goes on.",
        "deal_in_progress": "The game goes on: deal {n} is in progress.",
        "settlement": "Settlement: {items}",
        "owes": "{name} owes {amount}",
        "nobody_owes": "nobody owes anything",
        "no_settlement": "No settlement: the win is shared.",
        "barrel_on": "on the barrel",
        "fall": "fell off the barrel",
        "knocked_off": "knocked off the barrel",
        "barrel_timeout": "no win in {n} deals on the barrel",
        "barrel_timeout_open": "fell off the barrel",
        "bolt": "bolt {k}",
        "bolt_penalty": "bolt penalty",
        "bolt_samosval": "samosval for bolts",
        "concede_penalty": "concede penalty",
        "redeal_penalty": "redeal penalty",
        "cut_penalty": "three nines at the cut",
        "fall_reset": "reset for barrel falls",
        "samosval": "samosval",
    },
}

#: Marks that are news for the row (penalties, falls) stand out; the rest are notes.
_LOUD = frozenset({
    "fall", "knocked_off", "barrel_timeout", "bolt_penalty", "bolt_samosval",
    "concede_penalty", "redeal_penalty", "cut_penalty", "fall_reset", "samosval",
})
#: Events after which a player no longer sits on the barrel.
_OFF_BARREL = frozenset({"fall", "knocked_off", "barrel_timeout", "fall_reset"})


def _words(lang: str) -> dict[str, str]:
    if lang not in WORDS:
        raise ValueError(f"lang: {lang!r} is not allowed; use ru or en")
    return WORDS[lang]


def event_mark(event: Event, lang: str = "ru", bolts: int = 0, barrel_deals: int | None = 3
               ) -> str:
    """The note a player writes for ``event`` (with the points it cost, if any).

    ``bolts`` is the player's bolt count including this one (a sheet counts them);
    ``barrel_deals`` the rule's number of deals on the barrel.
    """
    w = _words(lang)
    kind = event.kind
    if kind == "bolt":
        text = w["bolt"].format(k=bolts) if bolts else w["bolt"].split()[0]
    elif kind == "barrel_timeout":
        text = (w["barrel_timeout"].format(n=barrel_deals) if barrel_deals
                else w["barrel_timeout_open"])
    else:
        text = w.get(kind, kind)
    if event.amount and kind not in ("barrel_on",):
        text += f" {event.amount:+d}"
    return text


@dataclass(frozen=True, slots=True)
class Mark:
    """A note next to a score: ``kind`` is the event's (``bolt``, ``fall`` …) or
    ``on_barrel`` for the count of deals sat; ``loud`` marks news for the row (a
    penalty, a fall), the rest are notes."""

    text: str
    kind: str
    loud: bool


@dataclass(frozen=True, slots=True)
class SheetCell:
    """One player's entry in a row: the running total, its change and the marks."""

    score: int
    change: int
    marks: tuple[Mark, ...]


@dataclass(frozen=True, slots=True)
class SheetRow:
    """One deal of the sheet, every cell already in words.

    ``outcome`` is the deal's (``played`` split into ``made``/``failed``, or
    ``conceded``, ``redeal``); ``result`` its word; ``redeal_by`` the name of whoever
    demanded a redeal; ``golden_restart`` the note when the golden deals start again.
    """

    number: int
    dealer: str
    declarer: str
    contract: str
    outcome: str
    result: str
    redeal_by: str | None
    golden_restart: str | None
    cells: tuple[SheetCell, ...]


@dataclass(frozen=True, slots=True)
class Sheet:
    """The whole sheet: the title, the column headers (``number``, ``dealer``,
    ``declarer``, ``contract``, ``result``, then the names), the rows and the lines
    under it (:func:`sheet_footer`)."""

    title: str
    headers: tuple[str, ...]
    names: tuple[str, ...]
    rows: tuple[SheetRow, ...]
    footer: tuple[str, ...]


def _contract_cell(s: DealSummary, w: dict[str, str]) -> str:
    res = s.result
    if res.outcome == "redeal" or res.contract is None:
        return "—"
    parts = [str(res.contract)]
    if res.dark:
        parts.append(w["dark"])
    if res.golden:
        parts.append(w["golden"])
    return " ".join(parts)


def _outcome(s: DealSummary) -> str:
    res = s.result
    if res.outcome in ("redeal", "conceded"):
        return res.outcome
    return "made" if res.made else "failed"


def sheet_rows(game: Game, lang: str = "ru") -> list[SheetRow]:
    """A row per finished deal (redeals included), in order."""
    w = _words(lang)
    names = list(game.names)
    n = game.n
    barrel_deals = game.rules.barrel_deals
    bolts = [0] * n
    sitting = [False] * n  # on the barrel before this row
    sat_deals = [0] * n  # deals sat on the barrel so far
    rows = []
    for s in game.summaries:
        res = s.result
        marks: list[list[Mark]] = [[] for _ in range(n)]
        on_now = list(sitting)
        restart = False
        for e in s.events:
            if e.seat < 0:
                if e.kind == "golden_restart":
                    restart = True
                    on_now = [False] * n
                    bolts = [0] * n
                continue
            if e.kind == "bolt":
                bolts[e.seat] += 1
            text = event_mark(e, lang, bolts[e.seat], barrel_deals)
            marks[e.seat].append(Mark(text, e.kind, e.kind in _LOUD))
            if e.kind == "barrel_on":
                on_now[e.seat] = True
                sat_deals[e.seat] = 0
            elif e.kind in _OFF_BARREL:
                on_now[e.seat] = False
        if res.outcome != "redeal":
            for seat in range(n):
                if sitting[seat] and on_now[seat]:
                    # Still sitting after a deal on the barrel: count it, as players do.
                    sat_deals[seat] += 1
                    key = "on_barrel" if barrel_deals else "on_barrel_open"
                    text = w[key].format(k=sat_deals[seat], n=barrel_deals)
                    marks[seat].append(Mark(text, "on_barrel", False))
        # A player who wins from the barrel leaves it without an event.
        sitting = [on and not game.rules.wins(s.scores[seat])
                   for seat, on in enumerate(on_now)]
        outcome = _outcome(s)
        rows.append(SheetRow(
            number=s.number,
            dealer=names[s.dealer],
            declarer=names[res.declarer] if res.declarer is not None else "—",
            contract=_contract_cell(s, w),
            outcome=outcome,
            result=w[outcome],
            redeal_by=(names[res.redeal_by]
                       if outcome == "redeal" and res.redeal_by is not None else None),
            golden_restart=w["golden_restart"] if restart else None,
            cells=tuple(
                SheetCell(s.scores[seat], s.changes[seat], tuple(marks[seat]))
                for seat in range(n)
            ),
        ))
    return rows


def score_sheet(game: Game, lang: str = "ru") -> Sheet:
    """The score sheet of ``game`` so far, as data (:class:`Sheet`)."""
    w = _words(lang)
    return Sheet(
        title=f"{w['title']}: {game.rules.preset}",
        headers=tuple(w[k] for k in ("number", "dealer", "declarer", "contract", "result")),
        names=tuple(game.names),
        rows=tuple(sheet_rows(game, lang)),
        footer=tuple(sheet_footer(game, lang)),
    )


def sheet_footer(game: Game, lang: str = "ru") -> list[str]:
    """The lines under the sheet: the winner (or that the game goes on) and, with the
    ``settlement`` rule on a finished game, what each loser owes the winner."""
    w = _words(lang)
    names = list(game.names)
    if not game.over:
        if game.deal is not None:
            return [w["deal_in_progress"].format(n=len(game.summaries) + 1)]
        return [w["in_progress"]]
    lines = []
    winner = game.winner
    if isinstance(winner, list):
        lines.append(w["shared"].format(names=", ".join(names[s] for s in winner)))
    elif winner is not None:
        lines.append(w["winner"].format(name=names[winner]))
    if game.rules.settlement:
        owed = game.settlement()
        if owed is None:
            lines.append(w["no_settlement"])
        else:
            items = [
                w["owes"].format(name=names[s], amount=a) for s, a in enumerate(owed) if a
            ]
            lines.append(w["settlement"].format(items=", ".join(items) or w["nobody_owes"]))
    return lines
