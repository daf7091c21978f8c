"""Cards, hands, tricks and moves as Rich markup for the terminal game.

Everything here draws the wire form of the table protocol
(:func:`thousand.engine.protocol.view_json` and the table's events): cards and moves in
record notation (``"KH"``, ``"give 9S"``), seats as numbers.  ``names`` are the players'
names *as markup*: the caller escapes them (a player called ``[/]`` must not close a style).

Suits are shown by their symbols in colour (♥ ♦ red, ♠ ♣ the terminal's own colour, bold);
ranks in Russian as ``9 В Д К 10 Т`` (RULES §1), in English as ``9 J Q K 10 A``.  A
hand is sorted by suit and, inside a suit, by the cards' strength under the rules (with
``ten_strength=natural`` the ten sits between the nine and the jack).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from thousand.engine import moves as mv
from thousand.engine.cards import (
    POINTS,
    STRENGTH,
    SUIT_SYMBOLS,
    SUITS,
    Card,
    Mask,
    card_label,
    cards_of,
    parse_card,
)
from thousand.engine.moves import Move
from thousand.engine.rules import Rules
from thousand.words.catalogue import SUIT_NAMES

from .i18n import T

SUIT_STYLE = ("bold", "bold", "bold red", "bold red")

#: A card as the engine counts it or as the protocol writes it.
CardLike = Card | str
WireView = Mapping[str, Any]


def to_card(card: CardLike) -> Card:
    return parse_card(card) if isinstance(card, str) else card


def to_cards(cards: Iterable[CardLike] | Mask | None) -> list[Card]:
    if cards is None:
        return []
    if isinstance(cards, int):
        return cards_of(cards)
    return [to_card(c) for c in cards]


def card_markup(card: CardLike, lang: str) -> str:
    """One card, coloured: ``[bold red]К♥[/]``."""
    c = to_card(card)
    return f"[{SUIT_STYLE[c // 6]}]{card_label(c, lang)}[/]"


def cards_markup(cards: Iterable[CardLike] | Mask | None, lang: str) -> str:
    return " ".join(card_markup(c, lang) for c in to_cards(cards)) or "—"


def hand_markup(hand: Iterable[CardLike] | Mask | None, lang: str,
                ten_strength: str = "high") -> str:
    """A hand sorted by suit (♠ ♣ ♦ ♥), the strongest card of a suit first, suits apart."""
    strength = STRENGTH[ten_strength]
    cards = to_cards(hand)
    groups = []
    for s in range(4):
        suit_cards = sorted((c for c in cards if c // 6 == s), key=lambda c: -strength[c])
        if suit_cards:
            groups.append(" ".join(card_markup(c, lang) for c in suit_cards))
    return "   ".join(groups) if groups else "—"


def suit_markup(suit: int | str, lang: str) -> str:
    index = SUITS.index(suit) if isinstance(suit, str) else suit
    name = SUIT_NAMES["ru" if lang == "ru" else "en"][index]
    return f"[{SUIT_STYLE[index]}]{SUIT_SYMBOLS[index]}[/] {name}"


def trump_markup(trump: int | str | None, lang: str) -> str:
    if trump is None or (isinstance(trump, int) and trump < 0):
        return T(lang, "no_trump")
    return suit_markup(trump, lang)


def opening_at_100(view: WireView, rules: Rules) -> bool:
    """The seat to move opens the auction where the opener may only say 100."""
    return (
        rules.opening_bid == "exactly_100"
        and view.get("phase") == "auction"
        and view.get("high_bid") is None
    )


def _move(move: Move | str) -> Move:
    return mv.parse_move(move) if isinstance(move, str) else move


def move_markup(move: Move | str, view: WireView, rules: Rules, names: Sequence[str],
                lang: str) -> str:
    """A legal move as the numbered list shows it."""
    m = _move(move)
    if mv.is_card_play(m):
        card = mv.card_of(m)
        text = card_markup(card, lang)
        if mv.is_declare(m):
            text += "+ " + _declare_text(card, view, rules, lang)
        return text
    if mv.is_give(m):
        to = give_target(view)
        return f"{card_markup(mv.card_of(m), lang)} ({T(lang, 'give_to', to=names[to])})"
    if mv.is_discard(m):
        return f"{card_markup(mv.card_of(m), lang)} ({T(lang, 'discard_word')})"
    if mv.is_bid(m):
        if mv.value_of(m) == 100 and opening_at_100(view, rules):
            return T(lang, "opt_sit_100")
        return T(lang, "opt_bid", n=mv.value_of(m))
    if mv.is_contract(m):
        return T(lang, "opt_contract", n=mv.value_of(m))
    if m == mv.BUY:
        return T(lang, "opt_buy", price=view.get("buy_price"))
    if m == mv.PASS and view.get("phase") == "buy":
        return T(lang, "opt_no_buy")
    if mv.is_talon_choice(m):
        return T(lang, "opt_talon", n=talon_number(m))
    return _word(m, lang)


def talon_number(move: Move) -> int:
    """Two players: 1 for ``talon 1``, 2 for ``talon 2`` (RULES §4 "Two players" 3)."""
    return 1 if move == mv.TALON_1 else 2


def talon_ordinal(n: int, lang: str) -> str:
    """«первый»/«второй» ("first"/"second"): talon ``n`` (1 or 2) in a sentence."""
    return T(lang, "talon_ordinals").split("|")[n - 1]


def cards_points(cards: Iterable[CardLike] | Mask | None) -> int:
    """The card points of ``cards`` (the unchosen talon's, which go to the defender)."""
    return sum(POINTS[c] for c in to_cards(cards))


def talons_markup(view: WireView, lang: str) -> str:
    """Two players' talons in words, for the line mode (a screen reader reads it): «1)
    рубашкой вверх; 2) 9♣ Д♥ — взят» — face down until chosen, the chosen one's cards
    when the seat sees them (RULES §4 "Two players" 3)."""
    chosen = view.get("talon_choice")
    parts = []
    for n in (1, 2):
        cards = view.get("talon") if n == chosen else view.get("other_talon")
        text = cards_markup(cards, lang) if cards else T(lang, "face_down")
        if n == chosen:
            text += " — " + T(lang, "talon_taken_mark")
        parts.append(f"{n}) {text}")
    return "; ".join(parts)


def discards_due(rules: Rules) -> bool:
    """Whether the declarer discards rather than gives: ``exchange=discard_three``, and
    always with two players (RULES §4 "Two players" 3)."""
    return rules.players == 2 or rules.exchange == "discard_three"


def discards_in_deal(rules: Rules) -> int:
    """How many cards the declarer discards: two with two players, else three."""
    return 2 if rules.players == 2 else 3


def tricks_in_deal(rules: Rules) -> int:
    """Tricks in a deal: 10 with two players, 7 after discarding three, else 8."""
    if rules.players == 2:
        return 10
    return 7 if rules.exchange == "discard_three" else 8


#: the i18n keys of the moves that are words
_WORDS = {
    mv.PASS: "opt_pass", mv.DARK: "opt_dark", mv.LOOK: "opt_look",
    mv.REDEAL: "opt_redeal", mv.CONCEDE: "opt_concede",
}


def _word(move: Move, lang: str) -> str:
    return T(lang, _WORDS[move]) if move in _WORDS else mv.move_str(move)


def move_plain(move: Move | str, lang: str) -> str:
    """A move in a few words without markup (for hints and logs)."""
    m = _move(move)
    if mv.is_card_play(m):
        return card_label(mv.card_of(m), lang) + ("+" if mv.is_declare(m) else "")
    if mv.is_give(m) or mv.is_discard(m):
        return card_label(mv.card_of(m), lang)
    if mv.is_bid(m):
        return str(mv.value_of(m))
    if mv.is_contract(m):
        return T(lang, "opt_contract", n=mv.value_of(m))
    if m == mv.BUY:
        return "buy"
    if mv.is_talon_choice(m):
        return T(lang, "opt_talon", n=talon_number(m))
    return _word(m, lang)


def give_target(view: WireView) -> int:
    """Whom the declarer's next card goes to: the first opponent clockwise, then the
    other (RULES §6)."""
    act: list[int] = list(view["active"])
    i = act.index(view["declarer"])
    first = not view.get("given")
    return act[(i + 1) % 3] if first else act[(i + 2) % 3]


def _declare_text(card: Card, view: WireView, rules: Rules, lang: str) -> str:
    s, rank = divmod(card, 6)
    if rank == 5:
        return T(lang, "declare_word", points=rules.ace_marriage)
    if rank == 0:
        return T(lang, "declare_word", points=rules.four_nines_bonus)
    hand = set(to_cards(view.get("hand")))
    full = rank in (2, 3) and s * 6 + 3 in hand and s * 6 + 2 in hand
    value = rules.marriage_values[s] if full else rules.marriage_values[s] // 2
    return T(lang, "declare_word", points=value)


def phase_line(view: WireView, rules: Rules, names: Sequence[str], lang: str, *,
               open_hands: bool = False) -> str:
    """What the human is asked to decide now.  In training (``open_hands``) the dark
    choice says that it is trivial there: the other hands lie face up."""
    ph = view.get("phase")
    if ph == "dark choice":
        return T(lang, "phase_dark") + (" " + T(lang, "dark_trivial") if open_hands else "")
    if ph == "auction":
        if view.get("high_bid") is None:
            key = "phase_auction_open_100" if opening_at_100(view, rules) else "phase_auction_open"
            return T(lang, key)
        bidder = view.get("high_bidder")
        who = f" ({names[bidder]})" if bidder is not None else ""
        return T(lang, "phase_auction", bid=view["high_bid"], who=who)
    if ph == "buy":
        return T(lang, "phase_buy", price=view.get("buy_price"))
    if ph == "talon choice":
        return T(lang, "phase_talon_choice")
    if ph == "exchange":
        if discards_due(rules):
            left = discards_in_deal(rules) - len(view.get("discards") or [])
            return T(lang, "phase_discard", n=left)
        return T(lang, "phase_exchange", to=names[give_target(view)])
    if ph == "contract":
        return T(lang, "phase_contract", bid=view.get("bid"))
    if ph == "redeal offer":
        return T(lang, "phase_redeal")
    return ""


def auction_markup(view: WireView, names: Sequence[str], lang: str) -> str:
    parts = []
    for entry in view.get("auction") or ():
        seat, m = entry["seat"], entry["move"]
        if m == "pass":
            parts.append(T(lang, "passes", name=names[seat]))
        elif m == "dark":
            parts.append(T(lang, "dark", name=names[seat]))
        elif m.isascii() and m.isdigit():
            parts.append(T(lang, "bids", name=names[seat], bid=m))
    return ", ".join(parts)


def trick_markup(trick: Iterable[Mapping[str, Any]], names: Sequence[str], lang: str) -> str:
    """A trick as ``[{"seat", "card"}]`` (the protocol's form)."""
    return ", ".join(f"{names[t['seat']]} {card_markup(t['card'], lang)}" for t in trick)
