"""A deal of two players the search-bot, valuation and analysis tests share (RULES §4 "Two
players"): seat 0 deals and holds K♥ Q♥ T♥ 9♥ (the hearts marriage); the cut showed him
the bottom card, which lies in talon 2 (A♥, or another card of it); seat 1 opens 100, seat 0
declares 105 and is to choose a talon."""

from __future__ import annotations

from thousand.engine import moves as mv
from thousand.engine.cards import mask_of, parse_cards
from thousand.engine.deal import Phase
from thousand.engine.game import Game
from thousand.engine.rules import Rules

HANDS = (["KH", "QH", "TH", "9H", "AS", "KS", "AC", "KC", "AD", "9D"],
         ["QS", "TS", "JC", "QC", "TC", "JD", "QD", "KD", "TD", "JH"])
TALONS = (["9S", "9C"], ["AH", "JS"])


def talon_choice(rules: Rules, cut: tuple[str, ...] = ("AH",)) -> Game:
    """The deal above at seat 0's talon choice (``cut``: the cards seen at the cut, the
    last one at the bottom, in talon 2; a jack last: nobody saw the bottom card)."""
    g = Game(rules, first_dealer=0, seed=0, auto_deal=False)
    g.start_deal([mask_of(parse_cards(h)) for h in HANDS], None, parse_cards(list(cut)),
                 [mask_of(parse_cards(t)) for t in TALONS])
    for m in ("100", "105", "pass"):
        g.apply(mv.parse_move(m))
    assert g.deal is not None and g.deal.phase == Phase.TALON_CHOICE and g.to_move == 0
    return g
