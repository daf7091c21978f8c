"""The analysis as text for people: a block per deal, a line per decision worth a word
(every marked one; with ``everything``, every unforced one), then the summary per player.

The one text renderer of the analysis: ``thousand analyse`` prints it, and so does
``thousand play`` at the end of a game.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from thousand.words.catalogue import move_words
from thousand.words.grammar import decimal, label, percent, render

#: The chess-like sign of each mark.
SIGNS = {"inaccuracy": "?!", "mistake": "?", "blunder": "??"}
WORDS = {
    "ru": {"deal": "Раздача {n}", "declarer": "{name} {name:разыгрывает|разыгрываете} заказ {c}",
           "no_declarer": "без розыгрыша", "dd": "с открытыми картами: {best} ({made})",
           "made": "играется", "failed": "не играется", "trick": "взятка {n}",
           "better": "Лучше {best}: {cost:#очко|очка|очков} потеряно.", "summary": "Итог",
           "inaccuracy": "неточность", "mistake": "ошибка", "blunder": "грубая ошибка",
           "accuracy": "точность {acc}", "lost": "потеряно за раздачу: {view} (по своим "
           "картам), {open} (с открытыми)", "worst": "дороже всего: {items}",
           "where": "раздача {deal}, ход {move}", "none": "ни одной отмеченной ошибки",
           "no_acc": "нет решений"},
    "en": {"deal": "Deal {n}", "declarer": "{name} {name:declares|declare} {c}",
           "no_declarer": "not played", "dd": "with every card open: {best} ({made})",
           "made": "makeable", "failed": "not makeable", "trick": "trick {n}",
           "better": "Better {best}: {cost:#point|points} lost.", "summary": "Summary",
           "inaccuracy": "inaccuracy", "mistake": "mistake", "blunder": "blunder",
           "accuracy": "accuracy {acc}", "lost": "lost per deal: {view} (from the "
           "player's view), {open} (every card open)", "worst": "costliest: {items}",
           "where": "deal {deal}, move {move}", "none": "no decision marked",
           "no_acc": "no decisions"},
}


def _number(value: float | None, lang: str) -> str:
    return "—" if value is None else decimal(value, lang)


def _cost_of(entry: Mapping[str, Any]) -> float | None:
    block = entry.get("view") if entry.get("basis") == "view" else entry.get("open")
    if not block:
        return None
    return float(block["cost"] if "cost" in block else block["lost"])


def _best_of(entry: Mapping[str, Any]) -> str | None:
    block = entry.get("view") if entry.get("basis") == "view" else entry.get("open")
    return str(block["best"]) if block else None


def decision_line(entry: Mapping[str, Any], names: list[str], lang: str) -> str:
    """``Боря: Т♦ — ошибка (?), взятка 3. Лучше К♣: 26 очков потеряно. Why.``: one
    sentence for the move, one for the better one, then the reason (a sentence of its
    own, thousand/analysis/reasons.py)."""
    w = WORDS[lang]
    mark = entry.get("mark")
    head = f"{label(names[entry['seat']], lang)}: {move_words(entry['played'], lang)}"
    if mark:
        head += f" — {w[mark]} ({SIGNS[mark]})"
    if entry.get("trick"):
        head += ", " + w["trick"].format(n=entry["trick"])
    sentences = [head + "."]
    best, cost = _best_of(entry), _cost_of(entry)
    if best is not None and cost is not None and best != entry["played"] and cost > 0:
        sentences.append(render(w["better"], lang, best=move_words(best, lang),
                                cost=round(cost)))
    if entry.get("reason"):
        reason = str(entry["reason"])
        sentences.append(reason if reason.endswith((".", "!", "?")) else reason + ".")
    return " ".join(sentences)


def render_text(analysis: Mapping[str, Any], lang: str = "ru", everything: bool = False
                ) -> str:
    """The whole analysis as text in ``lang`` (ru or en)."""
    w = WORDS["ru" if lang == "ru" else "en"]
    names = list(analysis["game"]["players"])
    lines: list[str] = []
    for deal in analysis["deals"]:
        head = w["deal"].format(n=deal["number"])
        if deal.get("declarer") is not None:
            head += ": " + render(w["declarer"], lang, name=names[deal["declarer"]],
                                  c=deal["contract"])
        else:
            head += ": " + w["no_declarer"]
        dd = deal.get("double_dummy")
        if dd:
            head += "; " + w["dd"].format(best=dd["declarer_best"],
                                          made=w["made"] if dd["makeable"] else w["failed"])
        lines.append(head)
        shown = [e for e in deal["decisions"] if e.get("mark") or (
            everything and not e.get("forced"))]
        for e in shown:
            lines.append("  " + decision_line(e, names, lang))
        if not shown:
            lines.append("  " + w["none"])
    lines.append("")
    lines.append(w["summary"])
    for p in analysis["players"]:
        acc = w["accuracy"].format(acc=percent(p["accuracy"], lang)) if p["accuracy"] is not None \
            else w["no_acc"]
        marks = ", ".join(f"{w[k]} {p['marks'][k]}" for k in ("inaccuracy", "mistake",
                                                               "blunder"))
        lines.append(f"  {label(p['name'], lang)}: {acc}; {marks}")
        lines.append("    " + w["lost"].format(view=_number(p["lost_per_deal_view"], lang),
                                               open=_number(p["lost_per_deal_open"], lang)))
        if p["worst"]:
            items = "; ".join(w["where"].format(deal=x["deal"], move=x["index"] + 1)
                              + f" (−{round(x['cost'])})" for x in p["worst"])
            lines.append("    " + w["worst"].format(items=items))
    return "\n".join(lines)
