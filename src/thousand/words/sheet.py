"""The score sheet (запись) a player would keep on paper, as plain data.

One row per deal: who played what contract and how it went, and for each player the
running total with the change and the marks players write next to it: the barrel,
bolts, falls, penalties, samosval.  It is built from the game's
:class:`~thousand.engine.game.DealSummary` rows only, so the same data serves ``thousand
replay``, the terminal game after each deal and the full-screen table, and it never sees
a hidden card.  This module is part of the engine and draws nothing: the Rich table is
:func:`thousand.terminal.sheet_view.render_sheet`.

**Numbering.**  A row's ``number`` is the number of its deal as the table announces it
("Раздача 5"): a redeal does not count, so the row of a redeal and the row of the deal
dealt again after it carry the same number; the redeal row says so (``outcome`` "redeal",
:data:`LEGEND`).

**Marks.**  Each mark has words (``text``, e.g. «болт 3», «штраф за болты −120») and a
short note (``code``, e.g. «б3», «б!») for a narrow sheet; :attr:`Sheet.legend` explains
the notes a sheet uses.  Bolts are marked only under rules that count them (``bolts`` or
``bolt_samosval``): the engine notes every deal a defender took no trick, the classic
game has no bolts.

Russian words are those the players use (бочка, болт, роспись, самосвал, пересдача,
тёмная, золотой кон); ``lang="en"`` gives English.
"""

from __future__ import annotations

from dataclasses import dataclass

from thousand.engine.game import DealSummary, Event, Game

from .catalogue import counts_bolts
from .grammar import LANGS, render
from .rules import preset_title

__all__ = [
    "LANGS",
    "LEGEND",
    "MARK_CODES",
    "RESULT_CODES",
    "WORDS",
    "Mark",
    "Sheet",
    "SheetCell",
    "SheetRow",
    "event_mark",
    "score_sheet",
    "sheet_footer",
    "sheet_legend",
    "sheet_rows",
]

#: Every word the sheet writes, by language (templates of :func:`thousand.words.grammar.render`).
WORDS: dict[str, dict[str, str]] = {
    "ru": {
        "title": "Запись — {rules}",
        "number": "№",
        "dealer": "сдаёт",
        "declarer": "играет",
        "contract": "заказ",
        "result": "итог",
        "dark": "тёмная",
        "golden": "золотой кон",
        "made": "сыгран",
        "failed": "не сыгран",
        "conceded": "роспись",
        "redeal": "пересдача",
        "golden_restart": "золотые коны заново, счёт с 0",
        "on_barrel": "бочка {k}/{n}",
        "on_barrel_open": "бочка {k}",
        "winner": "{name:Победитель — {name}|Вы победили}",
        "shared": "Победу делят: {names}",
        "in_progress": "Игра продолжается.",
        "deals_behind": "Игра продолжается, сыграно раздач: {n}.",
        "settlement": "Расчёт: {items}",
        "owes": "{name:{name} платит|вы платите} {amount}",
        "nobody_owes": "никто ничего не должен",
        "no_settlement": "Расчёта нет: победа общая.",
        "legend": "Пометки",
        # event marks
        "barrel_on": "на бочке",
        "fall": "падение с бочки",
        "knocked_off": "столкнули с бочки",
        "barrel_timeout": "{n:#кон|кона|конов} на бочке без выигрыша",
        "barrel_timeout_open": "срок на бочке вышел",
        "bolt": "болт {k}",
        "bolt_plain": "болт",
        "bolt_penalty": "штраф за болты",
        "bolt_samosval": "самосвал за болты",
        "concede_penalty": "штраф за роспись",
        "redeal_penalty": "штраф за пересдачи",
        "cut_penalty": "три девятки при съёме",
        "fall_reset": "сброс за падения с бочки",
        "samosval": "самосвал",
    },
    "en": {
        "title": "Score sheet — {rules}",
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
        "winner": "{name:Winner: {name}|You won}",
        "shared": "Shared win: {names}",
        "in_progress": "The game goes on.",
        "deals_behind": "The game goes on: {n:#deal|deals} played.",
        "settlement": "Settlement: {items}",
        "owes": "{name:{name} owes|you owe} {amount}",
        "nobody_owes": "nobody owes anything",
        "no_settlement": "No settlement: the win is shared.",
        "legend": "Notes",
        "barrel_on": "on the barrel",
        "fall": "fell off the barrel",
        "knocked_off": "knocked off the barrel",
        "barrel_timeout": "no win in {n:#deal|deals} on the barrel",
        "barrel_timeout_open": "the barrel deals ran out",
        "bolt": "bolt {k}",
        "bolt_plain": "bolt",
        "bolt_penalty": "bolt penalty",
        "bolt_samosval": "samosval for bolts",
        "concede_penalty": "concede penalty",
        "redeal_penalty": "redeal penalty",
        "cut_penalty": "three nines at the cut",
        "fall_reset": "reset for barrel falls",
        "samosval": "samosval",
    },
}

#: A mark's short note, by kind: (Russian, English); ``{k}`` is the count (the k-th bolt,
#: the k-th deal on the barrel).
MARK_CODES: dict[str, tuple[str, str]] = {
    "barrel_on": ("Б↑", "B↑"),
    "on_barrel": ("Б{k}", "B{k}"),
    "fall": ("Б↓", "B↓"),
    "knocked_off": ("Б×", "B×"),
    "barrel_timeout": ("Б!", "B!"),
    "bolt": ("б{k}", "b{k}"),
    "bolt_penalty": ("б!", "b!"),
    "bolt_samosval": ("б0", "b0"),
    "concede_penalty": ("Р!", "C!"),
    "redeal_penalty": ("П!", "R!"),
    "cut_penalty": ("9!", "9!"),
    "fall_reset": ("↓0", "↓0"),
    "samosval": ("С0", "S0"),
}
#: A row's result as one sign: (Russian, English).
RESULT_CODES: dict[str, tuple[str, str]] = {
    "made": ("✓", "✓"),
    "failed": ("✗", "✗"),
    "conceded": ("Р", "C"),
    "redeal": ("П", "R"),
}
#: What each note means, for the legend under a sheet: (Russian, English).
LEGEND: dict[str, tuple[str, str]] = {
    "made": ("заказ сыгран", "contract made"),
    "failed": ("заказ не сыгран", "contract failed"),
    "conceded": ("роспись", "conceded"),
    "redeal": ("пересдача: карты сдали заново, у раздачи тот же номер",
               "redeal: the cards were dealt again, the deal keeps its number"),
    "dark": ("т — тёмная", "d — dark"),
    "golden": ("з — золотой кон", "g — golden deal"),
    "barrel_on": ("сел на бочку", "climbed on the barrel"),
    "on_barrel": ("к-я раздача на бочке", "k-th deal on the barrel"),
    "fall": ("слетел с бочки", "fell off the barrel"),
    "knocked_off": ("столкнули с бочки", "knocked off the barrel"),
    "barrel_timeout": ("срок на бочке вышел", "the barrel deals ran out"),
    "bolt": ("к-й болт", "the k-th bolt"),
    "bolt_penalty": ("штраф за болты", "bolt penalty"),
    "bolt_samosval": ("самосвал за болты", "samosval for bolts"),
    "concede_penalty": ("штраф за роспись", "concede penalty"),
    "redeal_penalty": ("штраф за пересдачи", "redeal penalty"),
    "cut_penalty": ("три девятки при съёме", "three nines at the cut"),
    "fall_reset": ("сброс за падения с бочки", "reset for barrel falls"),
    "samosval": ("самосвал", "samosval"),
}
#: The letter that stands for a mark's count in the legend («Бк»): (Russian, English).
_COUNT = ("к", "k")
#: The flags a contract cell may carry in a short sheet: (Russian, English).
CONTRACT_FLAGS: dict[str, tuple[str, str]] = {"dark": ("т", "d"), "golden": ("з", "g")}

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


def _i(lang: str) -> int:
    return 0 if lang == "ru" else 1


def mark_code(kind: str, lang: str = "ru", k: int = 0) -> str:
    """The short note of a mark of ``kind`` (``k`` its count, where it has one)."""
    pair = MARK_CODES.get(kind)
    if pair is None:
        return kind
    return pair[_i(lang)].replace("{k}", str(k) if k else "")


def event_mark(event: Event, lang: str = "ru", bolts: int = 0, barrel_deals: int | None = 3
               ) -> str:
    """The note a player writes for ``event`` (with the points it cost, if any).

    ``bolts`` is the player's bolt count including this one (a sheet counts them);
    ``barrel_deals`` the rule's number of deals on the barrel.
    """
    w = _words(lang)
    kind = event.kind
    if kind == "bolt":
        text = w["bolt"].format(k=bolts) if bolts else w["bolt_plain"]
    elif kind == "barrel_timeout":
        text = (render(w["barrel_timeout"], lang, n=barrel_deals) if barrel_deals
                else w["barrel_timeout_open"])
    else:
        text = w.get(kind, kind)
    if event.amount and kind not in ("barrel_on",):
        text += f" {event.amount:+d}"
    return text


@dataclass(frozen=True, slots=True)
class Mark:
    """A note next to a score: ``kind`` is the event's (``bolt``, ``fall`` …) or
    ``on_barrel`` for the count of deals sat; ``text`` says it in words, ``code`` as a
    short note (:data:`MARK_CODES`); ``loud`` marks news for the row (a penalty, a fall),
    the rest are notes; ``amount`` is what it cost, if anything."""

    text: str
    kind: str
    loud: bool
    code: str = ""
    amount: int = 0


@dataclass(frozen=True, slots=True)
class SheetCell:
    """One player's entry in a row: the running total, its change and the marks."""

    score: int
    change: int
    marks: tuple[Mark, ...]


@dataclass(frozen=True, slots=True)
class SheetRow:
    """One deal of the sheet, every cell already in words.

    ``number`` is the deal's number as the table announced it (a redeal keeps the number
    of the deal it replaces); ``outcome`` is the deal's (``played`` split into
    ``made``/``failed``, or ``conceded``, ``redeal``); ``result`` its word and ``sign``
    its short sign (:data:`RESULT_CODES`); ``redeal_by`` the name of whoever demanded a
    redeal; ``golden_restart`` the note when the golden deals start again; ``short`` the
    contract with its flags as a short sheet writes it (``120тз``).
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
    sign: str = ""
    short: str = ""


@dataclass(frozen=True, slots=True)
class Sheet:
    """The whole sheet: the title, the column headers (``number``, ``dealer``,
    ``declarer``, ``contract``, ``result``, then the names), the rows, the lines under it
    (:func:`sheet_footer`) and the legend of the short notes its rows use
    (:func:`sheet_legend`: ``(note, meaning)`` pairs)."""

    title: str
    headers: tuple[str, ...]
    names: tuple[str, ...]
    rows: tuple[SheetRow, ...]
    footer: tuple[str, ...]
    legend: tuple[tuple[str, str], ...] = ()
    legend_title: str = ""


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


def _short_contract(s: DealSummary, lang: str) -> str:
    res = s.result
    if res.outcome == "redeal" or res.contract is None:
        return "—"
    flags = "".join(CONTRACT_FLAGS[f][_i(lang)] for f in ("dark", "golden")
                    if getattr(res, f))
    return f"{res.contract}{flags}"


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
    with_bolts = counts_bolts(game.rules)
    bolts = [0] * n
    sitting = [False] * n  # on the barrel before this row
    sat_deals = [0] * n  # deals sat on the barrel so far
    number = 1  # the deal's number as the table announces it: redeals do not count
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
                if not with_bolts:
                    continue
            k = bolts[e.seat] if e.kind == "bolt" else 0
            text = event_mark(e, lang, bolts[e.seat], barrel_deals)
            marks[e.seat].append(Mark(text, e.kind, e.kind in _LOUD, mark_code(e.kind, lang, k),
                                      e.amount))
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
                    marks[seat].append(Mark(text, "on_barrel", False,
                                            mark_code("on_barrel", lang, sat_deals[seat])))
        # A player who wins from the barrel leaves it without an event.
        sitting = [on and not game.rules.wins(s.scores[seat])
                   for seat, on in enumerate(on_now)]
        outcome = _outcome(s)
        rows.append(SheetRow(
            number=number,
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
            sign=RESULT_CODES[outcome][_i(lang)],
            short=_short_contract(s, lang),
        ))
        if res.outcome != "redeal":
            number += 1
    return rows


def sheet_legend(rows: list[SheetRow] | tuple[SheetRow, ...], lang: str = "ru"
                 ) -> list[tuple[str, str]]:
    """What the short notes of ``rows`` mean: the result signs, the contract flags and
    the marks that occur, each once, as ``(note, meaning)``."""
    i = _i(lang)
    out: list[tuple[str, str]] = []
    outcomes = {r.outcome for r in rows}
    for outcome, pair in RESULT_CODES.items():
        if outcome in outcomes:
            out.append((pair[i], LEGEND[outcome][i]))
    shorts = "".join(r.short.lstrip("0123456789") for r in rows)
    for flag, pair in CONTRACT_FLAGS.items():
        if pair[i] in shorts:
            note, _, meaning = LEGEND[flag][i].partition(" — ")
            out.append((note, meaning))
    kinds = {m.kind for r in rows for c in r.cells for m in c.marks}
    for kind, pair in MARK_CODES.items():
        if kind in kinds:
            out.append((pair[i].replace("{k}", _COUNT[i]), LEGEND[kind][i]))
    return out


def score_sheet(game: Game, lang: str = "ru") -> Sheet:
    """The score sheet of ``game`` so far, as data (:class:`Sheet`)."""
    w = _words(lang)
    rows = sheet_rows(game, lang)
    return Sheet(
        title=w["title"].format(rules=preset_title(game.rules.preset, lang)),
        headers=tuple(w[k] for k in ("number", "dealer", "declarer", "contract", "result")),
        names=tuple(game.names),
        rows=tuple(rows),
        footer=tuple(sheet_footer(game, lang)),
        legend=tuple(sheet_legend(rows, lang)),
        legend_title=w["legend"],
    )


def sheet_footer(game: Game, lang: str = "ru") -> list[str]:
    """The lines under the sheet: the winner (or that the game goes on) and, with the
    ``settlement`` rule on a finished game, what each loser owes the winner."""
    w = _words(lang)
    names = list(game.names)
    if not game.over:
        # What is true at any moment: between deals the next one may be dealt already
        # and not yet shown to the players, so the sheet counts the deals behind.
        if game.deal is not None and game.deals_played:
            return [render(w["deals_behind"], lang, n=game.deals_played)]
        return [w["in_progress"]]
    lines = []
    winner = game.winner
    if isinstance(winner, list):
        lines.append(w["shared"].format(names=", ".join(names[s] for s in winner)))
    elif winner is not None:
        lines.append(render(w["winner"], lang, name=names[winner]))
    if game.rules.settlement:
        owed = game.settlement()
        if owed is None:
            lines.append(w["no_settlement"])
        else:
            items = [render(w["owes"], lang, name=names[s], amount=a)
                     for s, a in enumerate(owed) if a]
            lines.append(w["settlement"].format(items=", ".join(items) or w["nobody_owes"]))
    return lines
