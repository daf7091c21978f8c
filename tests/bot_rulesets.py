"""The rulesets every bot is played under in the bot tests (tests/test_bots.py and
tests/test_search_bot.py): the five presets and option-heavy variants."""

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
]
