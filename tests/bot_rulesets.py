"""The rulesets every bot is played under in the bot tests (tests/test_bots.py and
tests/test_search_bot.py): the five presets and option-heavy variants, the talon buy-out
among them (RULES §4, §5)."""

from __future__ import annotations

from typing import Any

#: (preset, option overrides)
BOT_RULESETS: list[tuple[str, dict[str, Any]]] = [
    ("classic", {}),
    ("dealer-opens", {}),
    ("house", {}),
    ("house", {"players": 4}),
    ("textbook", {}),
    ("casual", {}),
    ("classic", {"half_marriage": True, "ace_marriage": 200, "ace_marriage_trump": True,
                 "ace_marriage_all_in_row": True, "four_nines_bonus": 200,
                 "no_lead_own_trump": True}),
    ("classic", {"golden_deals": True, "concede": True, "concede_declarer_loses": False,
                 "dark": True, "redeal_weak_hand": 14, "redeal_after_exchange": True,
                 "redeal_weak_talon": True, "must_overtake": True,
                 "marriage_on_first_lead": True, "min_score_to_bid": -120}),
    ("classic", {"players": 4, "exchange": "discard_three", "talon_shown": "not_at_100",
                 "dark": True, "dark_talon_shown": False,
                 "sitting_dealer_scores": "talon_value"}),
    # RULES §4 "Talon buy-out", with the presets whose auction changed (§5)
    ("classic", {"talon_buy": True}),
    ("house", {"talon_buy": True}),
    ("textbook", {"talon_buy": True}),
    # the new options together: one-step raises of 15 (the dark 120 between two bids), the
    # dealer opens at exactly 100, dark doubling for all, concede by aces for half, the
    # ten in its natural place, and the buy-out
    ("dealer-opens", {"dark": True, "dark_doubles": "all", "bid_step": 15,
                      "bid_jumps": False, "concede_declarer_loses": "half",
                      "concede_opponents_get": "aces", "ten_strength": "natural",
                      "talon_buy": True}),
]
