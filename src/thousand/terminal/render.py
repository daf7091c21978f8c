"""Cards, hands, tricks and moves as Rich markup for the terminal game.

Suits are shown by their symbols in colour (♥ ♦ red, ♠ ♣ the terminal's own colour, bold);
ranks in Russian as ``9 В Д К 10 Т`` (RULES.md §1), in English as ``9 J Q K 10 A``.
"""

from __future__ import annotations

from collections.abc import Sequence

from thousand import moves as mv
from thousand.cards import SUIT_MASK, SUIT_SYMBOLS, Card, Mask, card_label, cards_of
from thousand.deal import Phase
from thousand.messages import SUIT_NAMES
from thousand.moves import Move
from thousand.view import View

from .i18n import T

SUIT_STYLE = ("bold", "bold", "bold red", "bold red")


def card_markup(card: Card, lang: str) -> str:
    """One card, coloured: ``[bold red]К♥[/]``."""
    return f"[{SUIT_STYLE[card // 6]}]{card_label(card, lang)}[/]"


def cards_markup(cards: Sequence[Card] | Mask, lang: str) -> str:
    if isinstance(cards, int):
        cards = cards_of(cards)
    return " ".join(card_markup(c, lang) for c in cards)


def hand_markup(hand: Mask, lang: str) -> str:
    """A hand sorted by suit (♠ ♣ ♦ ♥), high cards first, suits apart."""
    groups = []
    for s in range(4):
        suit_cards = cards_of(hand & SUIT_MASK[s])
        if suit_cards:
            groups.append(" ".join(card_markup(c, lang) for c in suit_cards))
    return "   ".join(groups) if groups else "—"


def suit_markup(suit: int, lang: str) -> str:
    name = SUIT_NAMES["ru" if lang == "ru" else "en"][suit]
    return f"[{SUIT_STYLE[suit]}]{SUIT_SYMBOLS[suit]}[/] {name}"


def trump_markup(trump: int, lang: str) -> str:
    return suit_markup(trump, lang) if trump >= 0 else T(lang, "no_trump")


def move_markup(move: Move, view: View, names: Sequence[str], lang: str) -> str:
    """A legal move as the numbered list shows it."""
    if mv.is_card_play(move):
        card = mv.card_of(move)
        text = card_markup(card, lang)
        if mv.is_declare(move):
            text += "+ " + _declare_text(card, view, lang)
        return text
    if mv.is_give(move):
        card = mv.card_of(move)
        first = len(view.given) == 0
        to = _give_target(view, first)
        return f"{card_markup(card, lang)} ({T(lang, 'give_to', to=names[to])})"
    if mv.is_discard(move):
        return f"{card_markup(mv.card_of(move), lang)} ({T(lang, 'discard_word')})"
    if mv.is_bid(move):
        return T(lang, "opt_bid", n=mv.value_of(move))
    if mv.is_contract(move):
        return T(lang, "opt_contract", n=mv.value_of(move))
    return _word(move, lang)


#: the i18n keys of the moves that are words
_WORDS = {
    mv.PASS: "opt_pass", mv.DARK: "opt_dark", mv.LOOK: "opt_look",
    mv.REDEAL: "opt_redeal", mv.CONCEDE: "opt_concede",
}


def _word(move: Move, lang: str) -> str:
    return T(lang, _WORDS[move]) if move in _WORDS else mv.move_str(move)


def move_plain(move: Move, lang: str) -> str:
    """A move in a few words without markup (for hints and logs)."""
    if mv.is_card_play(move):
        return card_label(mv.card_of(move), lang) + ("+" if mv.is_declare(move) else "")
    if mv.is_give(move) or mv.is_discard(move):
        return card_label(mv.card_of(move), lang)
    if mv.is_bid(move):
        return str(mv.value_of(move))
    if mv.is_contract(move):
        return T(lang, "opt_contract", n=mv.value_of(move))
    return _word(move, lang)


def _give_target(view: View, first: bool) -> int:
    act = view.active
    i = act.index(view.declarer)
    a = act[(i + 1) % 3]
    b = act[(i + 2) % 3]
    return a if first else b


def _declare_text(card: Card, view: View, lang: str) -> str:
    r = view.rules
    s, rank = divmod(card, 6)
    if rank == 5:
        return T(lang, "declare_word", points=r.ace_marriage)
    if rank == 0:
        return T(lang, "declare_word", points=r.four_nines_bonus)
    hand = view.hand or 0
    full = rank in (2, 3) and hand >> (s * 6 + 3) & 1 and hand >> (s * 6 + 2) & 1
    value = r.marriage_values[s] if full else r.marriage_values[s] // 2
    return T(lang, "declare_word", points=value)


def phase_line(view: View, names: Sequence[str], lang: str) -> str:
    """What the human is asked to decide now."""
    ph = view.phase
    if ph == Phase.DARK_CHOICE:
        return T(lang, "phase_dark")
    if ph == Phase.AUCTION:
        if view.high_bid == 0:
            return T(lang, "phase_auction_open")
        who = f" ({names[view.high_bidder]})" if view.high_bidder >= 0 else ""
        return T(lang, "phase_auction", bid=view.high_bid, who=who)
    if ph == Phase.EXCHANGE:
        if view.rules.exchange == "discard_three":
            done = view.discards.bit_count() if view.discards is not None else 0
            return T(lang, "phase_discard", n=3 - done)
        return T(lang, "phase_exchange", to=names[_give_target(view, not view.given)])
    if ph == Phase.CONTRACT:
        return T(lang, "phase_contract", bid=view.bid)
    if ph == Phase.REDEAL_OFFER:
        return T(lang, "phase_redeal")
    return ""


def auction_markup(view: View, names: Sequence[str], lang: str) -> str:
    parts = []
    for seat, m in view.auction:
        if m == mv.PASS:
            parts.append(T(lang, "passes", name=names[seat]))
        elif m == mv.DARK:
            parts.append(T(lang, "dark", name=names[seat]))
        elif mv.is_bid(m):
            parts.append(T(lang, "bids", name=names[seat], bid=mv.value_of(m)))
    return ", ".join(parts)


def trick_markup(trick: Sequence[tuple[int, Card]], names: Sequence[str], lang: str) -> str:
    return ", ".join(f"{names[s]} {card_markup(c, lang)}" for s, c in trick)
