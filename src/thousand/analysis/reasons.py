"""One line in the player's language on why a marked decision cost what it did.

Each reason states a fact the analysis found — the marriage not declared, the ten that
fell to a higher card, the contract the open cards cannot make — and its figures; it
never names rules of its own (the facts come from the record, the engine's view and the
solver's values).
"""

from __future__ import annotations

from collections.abc import Sequence

from thousand.engine import moves as mv
from thousand.engine.cards import TEN, card_label
from thousand.engine.moves import Move
from thousand.engine.view import View
from thousand.words.catalogue import move_words, suit_name
from thousand.words.grammar import count, declined, render


def _words(m: Move, lang: str) -> str:
    return move_words(mv.move_str(m), lang)


def _pick(lang: str, ru: str, en: str) -> str:
    return ru if lang == "ru" else en


def _points(n: int, lang: str) -> str:
    """«1 очко», «3 очка», «10 очков»; "1 point", "10 points"."""
    forms = ("очко", "очка", "очков") if lang == "ru" else ("point", "points")
    return count(n, forms, lang)


def totals_reason(declarer: str | None, played: float, best: float, sampled: int | None,
                  lang: str) -> str:
    """What the declarer takes after the move played against after the best: with every
    card open, or on average over ``sampled`` deals drawn from the seat's view.
    ``declarer`` is the name of the player of the decision when he is the declarer (the
    reader "Вы"/"You" is spoken to: «вы берёте»), None when he defends (the declarer is
    then «разыгрывающий»)."""
    p, b = round(played), round(best)
    if sampled:
        head = _pick(lang, f"В среднем по {sampled} раскладам ",
                     f"On average over {sampled} deals ")
    else:
        head = _pick(lang, "С открытыми картами ", "With every card open ")
    if declarer is None:
        return head + _pick(lang, f"разыгрывающий берёт {p} вместо {b}",
                            f"the declarer takes {p} instead of {b}")
    return render(head + _pick(lang, "{name} {name:берёт|берёте} {p} вместо {b}",
                               "{name} {name:takes|take} {p} instead of {b}"),
                  lang, name=declarer, p=p, b=b)


def play_reason(view: View, played: Move, best: Move, cost: float, lang: str,
                names: Sequence[str], fell_to: tuple[int, int] | None,
                totals: tuple[float, float] | None, sampled: int | None = None,
                open_totals: tuple[float, float] | None = None) -> str:
    """A card's reason.  ``fell_to``: (seat, card) that won the trick the played card went
    to, when an opponent took it; ``totals``: the declarer's total after the best and
    after the played card (with every card open, or the means over ``sampled`` deals);
    ``open_totals``: the same with every card open, which alone says whether the card
    decided the contract."""
    c = view.contract
    player = names[view.seat] if view.seat is not None and view.seat < len(names) else "?"
    if (mv.is_card_play(played) and not mv.is_declare(played)
            and mv.play(mv.card_of(played), True) in view.legal):
        suit_index = mv.card_of(played) // 6
        suit = suit_name(suit_index, lang)
        worth = _points(view.rules.marriage_values[suit_index], lang)
        text = _pick(lang, f"Марьяж ({suit}) не объявлен: {worth}",
                     f"The marriage of {suit} was not declared: {worth}")
    elif (mv.is_card_play(played) or mv.is_declare(played)) and mv.card_of(
            played) % 6 == TEN and fell_to is not None:
        seat, card = fell_to
        who = declined(names[seat], "gen", lang) if lang == "ru" else names[seat]
        text = render(_pick(lang, "{name} {name:отдаёт|отдаёте} десятку: {card} был у {who}",
                            "{name} {name:gives|give} away a ten: {who} held {card}"),
                      lang, name=player, card=card_label(card, lang), who=who)
    elif totals is not None:
        text = totals_reason(player if view.seat == view.declarer else None, totals[1],
                             totals[0], sampled, lang)
    else:
        text = generic_reason(best, cost, lang, sampled)
    if open_totals is not None and c > 0:
        b, p = open_totals
        declarer = view.seat == view.declarer
        if declarer and b >= c > p:
            text += _pick(lang, f"; без этого заказ {c} не играется",
                          f"; without it the contract {c} fails")
        elif not declarer and p >= c > b:
            text += _pick(lang, f"; после этого хода заказ {c} играется",
                          f"; after this card the contract {c} is made")
    return text


def contract_reason(played: Move, best: Move, declarer_best: int, lang: str) -> str:
    """A contract's or a concede's reason, with what the open cards make."""
    if mv.is_contract(played) and mv.value_of(played) > declarer_best:
        c = mv.value_of(played)
        return _pick(lang, f"Заказ {c} не играется: с открытыми картами разыгрывающий "
                           f"берёт {declarer_best}",
                     f"The contract {c} cannot be made: with every card open the declarer "
                     f"takes {declarer_best}")
    if best == mv.CONCEDE:
        return _pick(lang, f"Сдаться было дешевле: с открытыми картами берётся лишь "
                           f"{declarer_best}",
                     f"Conceding was cheaper: with every card open only {declarer_best} "
                     f"is taken")
    return _pick(lang, f"Можно было {_words(best, lang)}: с открытыми картами берётся "
                       f"{declarer_best}",
                 f"Better {_words(best, lang)}: with every card open {declarer_best} is "
                 f"taken")


def generic_reason(best: Move, cost: float, lang: str, sampled: int | None) -> str:
    """Any other decision: what the move played was worth less than the best."""
    pts = _points(round(cost), lang)
    if sampled:
        return _pick(lang, f"В среднем по {sampled} раскладам этот ход на {pts} хуже, "
                           f"чем {_words(best, lang)}",
                     f"On average over {sampled} deals this move is {pts} worse than "
                     f"{_words(best, lang)}")
    return _pick(lang, f"Этот ход на {pts} хуже, чем {_words(best, lang)}",
                 f"This move is {pts} worse than {_words(best, lang)}")


def talon_reason(view: View, best: Move, cost: float, lang: str, sampled: int | None) -> str:
    """A talon choice's reason (two players, RULES §4 "Two players" 3): the card of talon 2
    the seat saw at the cut (what tells the talons apart), then what the choice cost."""
    text = generic_reason(best, cost, lang, sampled)
    known = view.talon_known
    if not known:
        return text
    label = card_label((known & -known).bit_length() - 1, lang)
    head = _pick(lang, f"Во втором прикупе лежала примеченная при срезе карта {label}",
                 f"Talon 2 held the {label} glimpsed at the cut")
    return f"{head}; {text[0].lower()}{text[1:]}"
