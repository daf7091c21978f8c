"""The words a player may type for a move: one list for every front end.

The terminal's line mode and full-screen table read typed moves with :func:`parse_typed`;
the pages get the same lists in the message catalogue (``GET /api/texts``, key
``typed``: :func:`vocabulary_json`) and ``web/common.js`` reads a typed move with them in
the same steps.  Before this module each front end kept its own list, and they drifted
apart («темню» in one, «темнить» in the other); now a word is added here once, and
``tests/test_vocabulary.py`` checks that both parses give the same move for every word.
The words for people are listed once, in docs/typing.md.

What a front end adds on its own is not a move's wording: the terminal's commands
(``hint``, ``help``, ``quit``, ``save``) and the number of a move in its numbered list.

Typed text is compared after :func:`normalise`: lower case, «ё» read as «е», runs of
spaces as one.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any

__all__ = [
    "CONTRACT_WORDS", "GIVE_WORDS", "RANK_WORDS", "SUIT_WORDS", "WORDS",
    "normalise", "parse_typed", "typed_card", "vocabulary_json",
]

#: The moves that are words, by what a person types (normalised), in record notation.
WORDS: dict[str, str] = {
    "pass": "pass", "p": "pass", "пас": "pass", "п": "pass",
    "dark": "dark", "темная": "dark", "темню": "dark", "темнить": "dark", "втемную": "dark",
    "look": "look", "смотреть": "look", "смотрю": "look",
    "redeal": "redeal", "пересдача": "redeal",
    "concede": "concede", "расписать": "concede", "роспись": "concede",
    "расписаться": "concede", "расписываюсь": "concede",
    "buy": "buy", "куплю": "buy", "купить": "buy", "покупаю": "buy",
    "перекуп": "buy", "перекупаю": "buy", "перекупить": "buy",
    "сижу": "100", "сижу на ста": "100",
    # two players (RULES §4 "Two players" 3): the declarer chooses a talon unseen
    "talon 1": "talon 1", "talon1": "talon 1", "t1": "talon 1", "first talon": "talon 1",
    "прикуп 1": "talon 1", "прикуп1": "talon 1", "первый прикуп": "talon 1",
    "первый": "talon 1", "беру первый": "talon 1", "беру первый прикуп": "talon 1",
    "talon 2": "talon 2", "talon2": "talon 2", "t2": "talon 2", "second talon": "talon 2",
    "прикуп 2": "talon 2", "прикуп2": "talon 2", "второй прикуп": "talon 2",
    "второй": "talon 2", "беру второй": "talon 2", "беру второй прикуп": "talon 2",
}
#: The words before a card that give it away or discard it («отдать 9п»), by move kind.
GIVE_WORDS: dict[str, tuple[str, ...]] = {
    "give": ("give", "отдать", "отдаю"),
    "discard": ("discard", "снос", "сношу", "снести"),
}
#: The words before a number that name the contract («заказ 120»).
CONTRACT_WORDS: tuple[str, ...] = ("contract", "заказ")
#: A card's rank as typed (upper case), in record notation: Latin, Russian, ``10``.
RANK_WORDS: dict[str, str] = {
    "9": "9", "J": "J", "Q": "Q", "K": "K", "T": "T", "10": "T", "A": "A",
    "В": "J", "Д": "Q", "К": "K", "Т": "A",
}
#: A card's suit as typed (upper case), in record notation: letters, signs, Russian letters.
SUIT_WORDS: dict[str, str] = {
    "S": "S", "C": "C", "D": "D", "H": "H",
    "♠": "S", "♣": "C", "♦": "D", "♥": "H", "♤": "S", "♧": "C", "♢": "D", "♡": "H",
    "П": "S", "Т": "C", "Б": "D", "Ч": "H",
}

_CONTRACT = re.compile(rf"(?:{'|'.join(CONTRACT_WORDS)}) ?([0-9]+)")
#: The longest number read as a bid; a longer one is passed on for the table to refuse.
_DIGITS = 6


def normalise(text: str) -> str:
    """Typed text as it is compared: lower case, «ё» as «е», one space between words."""
    return " ".join(text.lower().replace("ё", "е").split())


def typed_card(text: str) -> str | None:
    """A card as typed — ``KH``, ``10h``, ``к♥``, ``Тб`` (ace of diamonds), ``тт`` (ace
    of clubs) — in record notation, or ``None``."""
    t = text.strip().upper().replace("Ё", "Е")
    rank, suit = RANK_WORDS.get(t[:-1]), SUIT_WORDS.get(t[-1:])
    return rank + suit if rank and suit else None


def _kind_legal(legal: Iterable[str], prefix: str) -> bool:
    return any(m.startswith(prefix) for m in legal)


def _card_move(text: str, legal: list[str]) -> str | None:
    """A typed card move — ``Тч``, ``Кч+``, ``отдать 9п`` — in record notation.  While
    cards are given or discarded, a card is what this phase does with it, whatever word
    came before it; elsewhere a give or discard word keeps its move (the table then says
    why it is not now)."""
    word = None
    head, _, rest = text.partition(" ")
    for kind, words in GIVE_WORDS.items():
        if head in words and rest:
            word, text = kind, rest
    declare = text.endswith("+")
    card = typed_card(text[:-1] if declare else text)
    if card is None:
        return None
    if _kind_legal(legal, "discard "):
        return f"discard {card}"
    if _kind_legal(legal, "give "):
        return f"give {card}"
    if word is not None:
        return f"{word} {card}"
    return card + ("+" if declare else "")


def parse_typed(text: str, legal: Iterable[str]) -> str | None:
    """The move ``text`` asks for, in record notation, or ``None`` when it means no move.
    ``legal`` (the legal moves, in record notation) only settles what the text leaves
    open — a number is a bid or a contract, a card is played, given or discarded — and
    is no check: a move the rules do not allow now is returned all the same, so that the
    table says why."""
    moves = [str(m) for m in legal]
    low = normalise(text)
    if not low:
        return None
    if low in WORDS:
        return WORDS[low]
    if low.isascii() and low.isdigit():  # "²" and other scripts' digits are no numbers
        if len(low) > _DIGITS:
            return low  # no bid is that high: the table refuses it
        number = str(int(low))
        return f"contract {number}" if _kind_legal(moves, "contract ") else number
    contract = _CONTRACT.fullmatch(low)
    if contract:
        digits = contract.group(1)
        return f"contract {digits if len(digits) > _DIGITS else int(digits)}"
    return _card_move(low, moves)


def vocabulary_json() -> dict[str, Any]:
    """The lists for the pages (the catalogue's ``typed``): ``web/common.js`` reads a
    typed move with them as :func:`parse_typed` does."""
    return {
        "words": dict(WORDS),
        "give_words": {kind: list(words) for kind, words in GIVE_WORDS.items()},
        "contract_words": list(CONTRACT_WORDS),
        "ranks": dict(RANK_WORDS),
        "suits": dict(SUIT_WORDS),
        "digits": _DIGITS,
    }
