"""An independent reading of RULES for the game for two (RULES §4 "Two players", §2-§3, §7),
written from the rules text alone and importing nothing from ``thousand``: it reads a
two-player game record (RULES §6) and computes what ``thousand replay FILE --json``
prints.  It trusts the record's moves to be legal (the engine checks them) and supports
the ``two`` preset's (classic) options: bids, the talon choice, two discards, the
contract, marriages (S 40, C 60, D 80, H 100), trumps, ten-high tricks, rounding to 5
(a remainder of 1-2 down, 3-4 up, as ``thousand rules classic --explain rounding`` says),
the barrel at 880 (three deals, -120), the win at 1000 and max_deals.

Usage: ``python independent_two.py RECORD.json`` prints the JSON.
"""

from __future__ import annotations

import json
import sys
from typing import Any

RANKS = "9JQKTA"  # weakest to strongest, ten high
POINTS = {"9": 0, "J": 2, "Q": 3, "K": 4, "T": 10, "A": 11}
MARRIAGES = {"S": 40, "C": 60, "D": 80, "H": 100}
BARREL, WIN, PENALTY, BARREL_DEALS = 880, 1000, 120, 3


def card_points(cards: list[str]) -> int:
    return sum(POINTS[c[0]] for c in cards)


def round5(x: int) -> int:
    """To the nearest 5: a remainder of 1-2 goes down, 3-4 up (17 -> 15, 18 -> 20)."""
    r = x % 5
    return x - r + (5 if r >= 3 else 0)


def beats(card: str, best: str, trump: str | None) -> bool:
    """Whether ``card`` takes the trick from ``best`` (the card winning it so far)."""
    if card[1] == best[1]:
        return RANKS.index(card[0]) > RANKS.index(best[0])
    return card[1] == trump


class Seat:
    def __init__(self) -> None:
        self.score = 0
        self.on_barrel = False
        self.barrel_deals = 0


def play_deal(deal: dict[str, Any], dealer: int) -> dict[str, Any]:
    """One deal: who declared, the contract and the points (cards, discards, the other
    talon for the defender, declarations)."""
    hands = [list(h) for h in deal["hands"]]
    talons = [deal["talon"][:2], deal["talon"][2:]]
    moves = list(deal["moves"])
    turn = 1 - dealer  # the non-dealer opens
    high, high_bidder = 0, -1
    i = 0
    while True:  # the auction: ends when one passes after a bid (two players)
        m = moves[i]
        i += 1
        if m == "pass":  # the first bid is compulsory: someone has bid
            break
        high, high_bidder = int(m), turn
        turn = 1 - turn
    declarer = high_bidder
    defender = 1 - declarer
    contract = high
    choice = int(moves[i].split()[1]) - 1
    i += 1
    hands[declarer] += talons[choice]
    discards = [moves[i].split()[1], moves[i + 1].split()[1]]
    i += 2
    for c in discards:
        hands[declarer].remove(c)
    contract = int(moves[i].split()[1])
    i += 1
    points = [0, 0]
    points[declarer] += card_points(discards)
    points[defender] += card_points(talons[1 - choice])
    trump: str | None = None
    leader = declarer
    while i < len(moves):
        lead = moves[i]
        follow = moves[i + 1]
        i += 2
        if lead.endswith("+"):
            lead = lead[:-1]
            points[leader] += MARRIAGES[lead[1]]
            trump = lead[1]
        winner = 1 - leader if beats(follow, lead, trump) else leader
        points[winner] += card_points([lead, follow])
        leader = winner
    return {"declarer": declarer, "contract": contract, "points": points}


def score(seats: list[Seat], row: dict[str, Any]) -> None:
    """The deal's values through the barrel (RULES §7): the declarer ± his contract, the
    defender his points rounded; nothing for a sitter but a winning contract; a failed
    contract takes him off; the third deal on it costs 120; 880-999 climbs to 880."""
    d = row["declarer"]
    made = row["points"][d] >= row["contract"]
    values = [0, 0]
    values[d] = row["contract"] if made else -row["contract"]
    values[1 - d] = round5(row["points"][1 - d])
    sat_before = [s.on_barrel for s in seats]
    fell = [False, False]
    for k, s in enumerate(seats):
        if not s.on_barrel:
            s.score += values[k]
        elif k == d and (not made or s.score + values[k] >= WIN):
            s.score += values[k]
            s.on_barrel = False
            s.barrel_deals = 0
            fell[k] = not made
    for k, s in enumerate(seats):
        if not s.on_barrel and not fell[k] and BARREL <= s.score < WIN:
            s.score = BARREL
            s.on_barrel = True
            s.barrel_deals = 0
    for k, s in enumerate(seats):
        if s.on_barrel and sat_before[k]:
            s.barrel_deals += 1
            if s.barrel_deals >= BARREL_DEALS:
                s.score -= PENALTY
                s.on_barrel = False
                s.barrel_deals = 0


def replay_json(record: dict[str, Any]) -> dict[str, Any]:
    max_deals = record["rules"].get("max_deals", 200)
    seats = [Seat(), Seat()]
    dealer = record["first_dealer"]
    rows: list[dict[str, Any]] = []
    winner: int | list[int] | None = None
    for deal in record["deals"]:
        if not deal["moves"] or "contract" not in " ".join(deal["moves"]):
            break
        row = play_deal(deal, dealer)
        score(seats, row)
        rows.append({**row, "scores": [s.score for s in seats]})
        scores = [s.score for s in seats]
        reached = [k for k in (0, 1) if scores[k] >= WIN]
        if reached or (max_deals is not None and len(rows) >= max_deals):
            pool = reached or [0, 1]
            if row["declarer"] in reached:
                winner = row["declarer"]
            else:
                top = [k for k in pool if scores[k] == max(scores[j] for j in pool)]
                winner = top[0] if len(top) == 1 else top
            break
        dealer = 1 - dealer
    return {"deals": rows, "scores": [s.score for s in seats], "winner": winner}


if __name__ == "__main__":
    with open(sys.argv[1], encoding="utf-8") as f:
        print(json.dumps(replay_json(json.load(f))))
