"""The rules model against RULES.md §4 (options), §5 (presets) and §7 (invalid combinations),
and the ``thousand rules`` command."""

from __future__ import annotations

import dataclasses
import json
import re
from pathlib import Path
from typing import Any

import pytest
import typer
from typer.testing import CliRunner

from thousand.engine.rules import (
    OPTION_NAMES,
    PRESET_NAMES,
    PRESETS,
    UNSUPPORTED,
    Rules,
    RulesError,
    format_value,
)
from thousand.words.rules import (
    LANGS,
    OPTION_TEXT,
    PRESET_TEXT,
    UNSUPPORTED_TEXT,
    explain,
    preset_description,
    preset_title,
    title,
    unsupported,
)

# ---------------------------------------------------------------- §4 options


def test_every_option_of_rules_4_is_a_field_in_order() -> None:
    """RULES §4: one field per option, named exactly, in the table's order."""
    fields = [f.name for f in dataclasses.fields(Rules) if f.name != "preset"]
    assert fields == list(OPTION_NAMES)
    assert OPTION_NAMES[:8] == (
        "players",
        "sitting_dealer_scores",
        "first_bidder",
        "opening_bid",
        "bid_step",
        "bid_jumps",
        "ten_strength",
        "bid_cap",
    )
    assert OPTION_NAMES[-3:] == ("max_deals", "settlement", "talon_buy")
    # The new options sit next to the option they refine, as in the §4 table.
    for before, after in (("dark", "dark_doubles"), ("barrel", "barrel_score")):
        assert OPTION_NAMES.index(after) == OPTION_NAMES.index(before) + 1
    assert len(OPTION_NAMES) == 65


def test_classic_defaults_are_the_bold_values_of_rules_4() -> None:
    r = Rules()
    assert r.preset == "classic"
    assert (r.players, r.sitting_dealer_scores, r.first_bidder) == (3, None, "left_of_dealer")
    assert (r.opening_bid, r.bid_jumps, r.ten_strength) == ("at_least_100", True, "high")
    assert (r.bid_step, r.bid_cap, r.min_score_to_bid) == (5, 120, None)
    assert (r.exchange, r.talon_shown, r.must_overtake) == ("give_one_each", "all", False)
    assert r.marriage_values == (40, 60, 80, 100)
    assert r.rounding == 5 and r.declarer_scores == "contract"
    assert (r.concede, r.concede_opponents_get, r.concede_declarer_loses) == (False, 60, True)
    assert r.concede_on_barrel and r.concede_in_golden
    assert not r.dark and r.dark_doubles == "declarer"
    assert r.dark_min_score == 0 and r.dark_outbid_needs_marriage
    assert r.dark_marriages_doubled and r.dark_talon_shown
    assert r.bolts is None and r.bolt_means == "no_trick" and r.samosval == ()
    assert (r.penalty, r.barrel, r.barrel_deals, r.barrel_reset_score) == (120, 880, 3, 0)
    assert r.barrel_score == "capped"
    assert (r.win_score, r.win_strict, r.max_deals, r.settlement) == (1000, False, 200, False)
    assert r.talon_buy is False
    assert Rules.preset_rules("classic") == r
    assert r.overrides() == {}


# ---------------------------------------------------------------- §5 presets


def test_preset_names_in_rules_5_order() -> None:
    assert PRESET_NAMES == ("classic", "dealer-opens", "house", "textbook", "casual", "two")
    assert set(PRESETS) == set(PRESET_NAMES)


def _diff_from_classic(r: Rules) -> dict[str, object]:
    classic = Rules()
    return {n: getattr(r, n) for n in OPTION_NAMES if getattr(r, n) != getattr(classic, n)}


def test_rules_5_classic_is_the_bold_values() -> None:
    """RULES §5 classic: "the bold values above" — no difference from itself, and the
    new options of §4 are off or at their bold value (no buy-out, capped barrel)."""
    r = Rules.preset_rules("classic")
    assert _diff_from_classic(r) == {} and PRESETS["classic"] == {}
    assert r.talon_buy is False and r.barrel_score == "capped" and r.bid_jumps


def test_rules_5_dealer_opens() -> None:
    """RULES §5 dealer-opens: `first_bidder=dealer`, `opening_bid=exactly_100`,
    `cut_nines`, `concede` (60 each, declarer − contract), `max_deals=none`, `settlement`."""
    r = Rules.preset_rules("dealer-opens")
    assert r.preset == "dealer-opens"
    assert _diff_from_classic(r) == {
        "first_bidder": "dealer",
        "opening_bid": "exactly_100",
        "cut_nines": True,
        "concede": True,
        "max_deals": None,
        "settlement": True,
    }
    assert r.concede_opponents_get == 60 and r.concede_declarer_loses


def test_rules_5_house() -> None:
    """RULES §5 house: `opening_bid=exactly_100`, `bid_jumps=false`, `golden_deals`,
    `concede` (60 each, every 3rd −120, not on barrel or golden), `dark`,
    `redeal_four_nines`, `redeal_weak_talon`, `redeal_penalty_after=3`, `bolts=every_3rd`,
    `samosval=[555,−555]`, `barrel_knock_off`, `barrel_falls_reset=3`, `max_deals=none`."""
    r = Rules.preset_rules("house")
    assert _diff_from_classic(r) == {
        "opening_bid": "exactly_100",
        "bid_jumps": False,
        "golden_deals": True,
        "concede": True,
        "concede_penalty_every": 3,
        "concede_on_barrel": False,
        "concede_in_golden": False,
        "dark": True,
        "redeal_four_nines": True,
        "redeal_weak_talon": True,
        "redeal_penalty_after": 3,
        "bolts": "every_3rd",
        "samosval": (555, -555),
        "barrel_knock_off": True,
        "barrel_falls_reset": 3,
        "max_deals": None,
    }
    assert r.penalty == 120 and r.concede_opponents_get == 60
    assert r.players == 3 and r.sitting_dealer_scores is None


def test_rules_5_house_with_four_players_scores_talon_marriage() -> None:
    """RULES §5 house: with players=4, sitting_dealer_scores=talon_marriage — unless the
    user says otherwise."""
    r = Rules.preset_rules("house", players=4)
    assert r.sitting_dealer_scores == "talon_marriage"
    assert r.overrides() == {"players": 4}
    assert Rules.from_cli("house", ["players=4"]) == r
    assert Rules.from_json({"preset": "house", "players": 4}) == r

    explicit = Rules.preset_rules("house", players=4, sitting_dealer_scores="talon_value")
    assert explicit.sitting_dealer_scores == "talon_value"
    off = Rules.from_json({"preset": "house", "players": 4, "sitting_dealer_scores": None})
    assert off.sitting_dealer_scores is None
    assert off.overrides() == {"players": 4, "sitting_dealer_scores": None}
    assert Rules.from_json({"preset": "house", **off.overrides()}) == off
    # The conditional belongs to house only.
    assert Rules.preset_rules("classic", players=4).sitting_dealer_scores is None


def test_rules_5_textbook() -> None:
    """RULES §5 textbook: `players=4`, `sitting_dealer_scores=talon_value`,
    `opening_bid=exactly_100`, `bid_step=10`, `bid_jumps=false`, `ten_strength=natural`,
    `exchange=discard_three`, `concede` (60 each, declarer loses nothing), `rounding=10`,
    `barrel=900`, `barrel_score=kept`, `barrel_deals=none`, `dark` with
    `dark_talon_shown=false`, `max_deals=none`."""
    r = Rules.preset_rules("textbook")
    assert _diff_from_classic(r) == {
        "players": 4,
        "sitting_dealer_scores": "talon_value",
        "opening_bid": "exactly_100",
        "bid_step": 10,
        "bid_jumps": False,
        "ten_strength": "natural",
        "exchange": "discard_three",
        "concede": True,
        "concede_declarer_loses": False,
        "rounding": 10,
        "barrel": 900,
        "barrel_score": "kept",
        "barrel_deals": None,
        "dark": True,
        "dark_talon_shown": False,
        "max_deals": None,
    }
    assert r.concede_opponents_get == 60


def test_rules_5_casual() -> None:
    """RULES §5 casual: `bid_step=10`, `must_overtake`, `declarer_scores=taken`,
    `rounding=1`, `barrel=850`, `barrel_deals=none`, `max_deals=none` (decision: one card
    to each opponent)."""
    r = Rules.preset_rules("casual")
    assert _diff_from_classic(r) == {
        "bid_step": 10,
        "must_overtake": True,
        "declarer_scores": "taken",
        "rounding": 1,
        "barrel": 850,
        "barrel_deals": None,
        "max_deals": None,
    }
    assert r.exchange == "give_one_each"


def test_preset_is_a_label_not_part_of_equality() -> None:
    spelled = Rules.preset_rules("classic", **PRESETS["casual"])
    assert spelled == Rules.preset_rules("casual")
    assert spelled.preset == "classic"
    assert hash(spelled) == hash(Rules.preset_rules("casual"))
    assert spelled.overrides() == {
        "bid_step": 10,
        "must_overtake": True,
        "declarer_scores": "taken",
        "rounding": 1,
        "barrel": 850,
        "barrel_deals": None,
        "max_deals": None,
    }


# ---------------------------------------------------------------- JSON


@pytest.mark.parametrize("name", PRESET_NAMES)
def test_json_round_trip_every_preset(name: str) -> None:
    r = Rules.preset_rules(name)
    data = r.to_json()
    assert list(data) == ["preset", *OPTION_NAMES]
    assert data["preset"] == name
    assert json.loads(json.dumps(data)) == data  # plain JSON types only
    assert Rules.from_json(data) == r
    assert Rules.from_json(data).preset == name
    assert Rules.from_json(name) == r
    assert Rules.from_json({"preset": name, **r.overrides()}) == r


def test_json_round_trip_with_every_kind_of_override() -> None:
    r = Rules.preset_rules(
        "house",
        players=4,
        marriage_values=(100, 80, 40, 60),
        samosval=(),
        concede_opponents_get="half_contract",
        barrel=None,
        min_score_to_bid=-120,
        bolts=None,
    )
    data = json.loads(json.dumps(r.to_json()))
    assert data["marriage_values"] == {"S": 100, "C": 80, "D": 40, "H": 60}
    assert data["samosval"] is None and data["barrel"] is None and data["bolts"] is None
    assert data["concede_opponents_get"] == "half_contract"
    assert Rules.from_json(data) == r
    short = {"preset": "house", **r.overrides()}
    assert Rules.from_json(json.loads(json.dumps(short))) == r


def test_json_values() -> None:
    r = Rules.from_json(
        {
            "rounding": 10,
            "marriage_values": {"S": 100, "H": 80, "C": 60, "D": 40},
            "samosval": [-555, 555],
            "barrel_deals": None,
        }
    )
    assert r.preset == "classic" and r.rounding == 10
    assert r.marriage_values == (100, 60, 40, 80)
    assert r.samosval == (555, -555)  # order does not matter
    assert r.barrel_deals is None
    assert Rules.from_json({"preset": "house", "samosval": None}).samosval == ()


def test_record_example_of_rules_6() -> None:
    """RULES §6: ``"rules": {"preset": "classic", "rounding": 10}``."""
    r = Rules.from_json({"preset": "classic", "rounding": 10})
    assert r.rounding == 10 and r.overrides() == {"rounding": 10}


@pytest.mark.parametrize(
    ("obj", "words"),
    [
        ({"barrel": "none"}, ["barrel", "'none'", "null"]),
        ({"players": None}, ["players", "3 or 4"]),
        ({"dark": 1}, ["dark", "true or false"]),
        ({"bid_step": 10.0}, ["bid_step", "a multiple of 5 from 5 to 50"]),
        ({"marriage_values": [40, 60, 80, 100]}, ["marriage_values", "S, C, D, H"]),
        ({"marriage_values": {"S": 40, "C": 60, "D": 80}}, ["marriage_values", "H missing"]),
        ({"samosval": 555}, ["samosval", "555"]),
        ({"bidstep": 10}, ["unknown option 'bidstep'", "did you mean 'bid_step'"]),
        ({"preset": "hous"}, ["unknown preset 'hous'", "classic, dealer-opens, house"]),
        (7, ["rules", "preset name"]),
    ],
)
def test_bad_json_is_rejected_naming_the_option(obj: object, words: list[str]) -> None:
    with pytest.raises(RulesError) as err:
        Rules.from_json(obj)
    for word in words:
        assert word in str(err.value)


# ---------------------------------------------------------------- CLI text


def test_from_cli_parses_each_kind_of_value() -> None:
    r = Rules.from_cli(
        "classic",
        [
            "bid_step=10",  # int choice
            "bid_cap=120",
            "barrel=none",  # optional int
            "dark=true",  # bool
            "must_overtake=yes",
            "half_marriage=1",
            "cut_nines=on",
            "concede=ON",
            "settlement=off",
            "samosval=555,-555",  # list
            "concede_opponents_get=half_contract",  # int or word
            "bolts=three_in_a_row",  # optional word
            "marriage_values=S:100,C:80,H:60,D:40",  # suit map
            "min_score_to_bid=−120",  # typographic minus, as in RULES.md
            "max_deals=300",
        ],
    )
    assert r.bid_step == 10 and r.barrel is None
    assert r.dark and r.must_overtake and r.half_marriage and r.cut_nines and r.concede
    assert not r.settlement
    assert r.samosval == (555, -555)
    assert r.concede_opponents_get == "half_contract"
    assert r.bolts == "three_in_a_row"
    assert r.marriage_values == (100, 80, 40, 60)
    assert r.min_score_to_bid == -120 and r.max_deals == 300


def test_from_cli_other_spellings() -> None:
    assert Rules.from_cli("house", ["samosval=none"]).samosval == ()
    assert Rules.from_cli("classic", ["samosval=[555, -555]"]).samosval == (555, -555)
    assert Rules.from_cli(
        "classic", ['marriage_values={"S":100,"C":80,"D":60,"H":40}']
    ).marriage_values == (
        100,
        80,
        60,
        40,
    )
    assert Rules.from_cli("classic", ["marriage_values=♠:100,♣:80,♦:60,♥:40"]).marriage_values == (
        100,
        80,
        60,
        40,
    )
    assert Rules.from_cli("classic", ["bid-step=10"]).bid_step == 10
    assert Rules.from_cli("classic", ["rounding=1", "rounding=10"]).rounding == 10  # last wins
    assert Rules.from_cli("house", ["concede=false"]).concede_penalty_every == 3
    assert Rules.from_cli("classic", ["concede_opponents_get=50"]).concede_opponents_get == 50
    assert Rules.from_cli("classic", ["sitting_dealer_scores=none", "players=4"]).players == 4


@pytest.mark.parametrize("name", PRESET_NAMES)
def test_format_value_reads_back_through_the_cli(name: str) -> None:
    r = Rules.preset_rules(name, marriage_values=(100, 80, 60, 40))
    sets = [f"{k}={format_value(k, getattr(r, k))}" for k in OPTION_NAMES]
    assert Rules.from_cli(name, sets) == r
    assert Rules.from_cli("classic", sets) == r


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("bid_step=7", ["bid_step: 7 is not allowed; use a multiple of 5 from 5 to 50"]),
        ("bid_step=ten", ["bid_step", "'ten'", "a multiple of 5 from 5 to 50"]),
        ("players=5", ["players", "3 or 4"]),
        ("dark=maybe", ["dark", "'maybe'", "true or false"]),
        ("rounding=2", ["rounding", "1, 5 or 10"]),
        ("first_bidder=me", ["first_bidder", "left_of_dealer or dealer"]),
        ("exchange=swap", ["exchange", "give_one_each or discard_three"]),
        ("bolts=sometimes", ["bolts", "none, every_3rd, three_in_a_row or every_5th"]),
        ("bolt_means=x", ["bolt_means", "no_trick or no_points"]),
        ("declarer_scores=all", ["declarer_scores", "contract or taken"]),
        ("talon_shown=never", ["talon_shown", "all or not_at_100"]),
        ("sitting_dealer_scores=x", ["sitting_dealer_scores", "talon_marriage"]),
        ("barrel=zero", ["barrel", "a whole number from 1 to 100000, or none"]),
        ("barrel=0", ["barrel", "from 1 to"]),
        ("max_deals=-1", ["max_deals", "from 1 to 100000"]),
        ("concede_limit=0", ["concede_limit", "from 1 to 100"]),
        ("ace_marriage=-200", ["ace_marriage", "from 0 to 1000"]),
        ("four_nines_bonus=x", ["four_nines_bonus", "from 0 to 1000"]),
        ("penalty=-120", ["penalty", "from 0 to 1000"]),
        ("win_score=0", ["win_score", "from 1 to 100000"]),
        ("concede_opponents_get=half", ["concede_opponents_get", "half_contract or aces"]),
        ("concede_opponents_get=-60", ["concede_opponents_get", "from 0 to 1000"]),
        ("marriage_values=S:40,C:60,D:80", ["marriage_values", "H missing"]),
        ("marriage_values=S:41,C:60,D:80,H:100", ["marriage_values", "multiple of 5"]),
        ("marriage_values=S:-40,C:60,D:80,H:100", ["marriage_values", "multiple of 5"]),
        ("marriage_values=X:40,C:60,D:80,H:100", ["marriage_values", "S, C, D, H"]),
        ("marriage_values=40,60,80,100", ["marriage_values", "S:40,C:60,D:80,H:100"]),
        ("samosval=555,x", ["samosval", "555,-555"]),
        ("samosval=555,555", ["samosval", "no repeats"]),
        ("samosval=0", ["samosval", "non-zero"]),
        ("dark", ["dark", "no value", "true or false"]),
        ("bidstep=10", ["unknown option 'bidstep' (did you mean 'bid_step'?)"]),
        ("colour=red", ["unknown option 'colour'"]),
    ],
)
def test_bad_cli_value_is_rejected_naming_option_and_allowed(text: str, words: list[str]) -> None:
    with pytest.raises(RulesError) as err:
        Rules.from_cli("classic", [text])
    for word in words:
        assert word in str(err.value)


def test_unknown_preset() -> None:
    with pytest.raises(RulesError) as err:
        Rules.preset_rules("hous")
    assert str(err.value) == (
        "unknown preset 'hous'; presets: classic, dealer-opens, house, textbook, casual, two"
    )
    with pytest.raises(RulesError, match="unknown preset 'x'"):
        Rules.from_cli("x", [])
    with pytest.raises(RulesError, match="unknown preset"):
        Rules(preset="nope")


def test_python_overrides_are_type_checked() -> None:
    with pytest.raises(RulesError, match="dark: 'yes' is not allowed; use true or false"):
        Rules.preset_rules("classic", dark="yes")
    with pytest.raises(RulesError, match="players: true is not allowed"):
        Rules.preset_rules("classic", players=True)
    with pytest.raises(RulesError, match="did you mean 'samosval'"):
        Rules.preset_rules("classic", samosvall=(555,))
    with pytest.raises(RulesError, match="'preset' is not an option"):
        Rules.preset_rules("classic", preset="house")
    # Lists and suit maps are accepted and stored as tuples (hashable, comparable).
    r = Rules.preset_rules(
        "classic", samosval=[-555, 555], marriage_values={"S": 100, "C": 80, "D": 60, "H": 40}
    )
    assert r.samosval == (555, -555) and r.marriage_values == (100, 80, 60, 40)
    hash(r)


def test_rules_are_frozen_and_replace_revalidates() -> None:
    r = Rules()
    with pytest.raises(dataclasses.FrozenInstanceError):
        r.bid_step = 10  # type: ignore[misc]
    assert dataclasses.replace(r, bid_step=10).bid_step == 10
    with pytest.raises(RulesError, match="bid_step"):
        dataclasses.replace(r, bid_step=3)


# ---------------------------------------------------------------- §7 combinations


@pytest.mark.parametrize(
    ("preset", "sets", "words"),
    [
        # RULES §7's own example.
        ("classic", ["first_bidder=dealer", "players=4"], ["first_bidder", "players=4"]),
        ("dealer-opens", ["players=4"], ["first_bidder", "players=4"]),
        (
            "classic",
            ["sitting_dealer_scores=talon_marriage"],
            ["sitting_dealer_scores", "players=4"],
        ),
        ("textbook", ["players=3"], ["sitting_dealer_scores", "players=4"]),
        ("classic", ["bid_cap=95"], ["bid_cap", "from 100 to 1000"]),
        ("classic", ["barrel=1000"], ["barrel", "below win_score"]),
        ("classic", ["win_score=800"], ["barrel", "below win_score (800)"]),
        ("classic", ["barrel_reset_score=880"], ["barrel_reset_score", "below barrel (880)"]),
        (
            "classic",
            ["barrel=none", "barrel_reset_score=1000"],
            ["barrel_reset_score", "win_score"],
        ),
        ("classic", ["samosval=1000"], ["samosval", "below win_score"]),
        ("classic", ["dark=true", "bid_cap=110", "bid_step=10"], ["dark", "bid_cap"]),
        ("classic", ["golden_deals=true", "bid_cap=100"], ["golden_deals", "bid_cap"]),
        (
            "classic",
            ["half_marriage=true", "marriage_values=S:45,C:60,D:80,H:100"],
            ["marriage_values", "S:45", "half_marriage", "multiples of 10"],
        ),
        (
            "textbook",
            ["marriage_values=S:40,C:60,D:80,H:105"],
            ["marriage_values", "H:105", "talon_value"],
        ),
    ],
)
def test_invalid_combinations_rejected(preset: str, sets: list[str], words: list[str]) -> None:
    with pytest.raises(RulesError) as err:
        Rules.from_cli(preset, sets)
    for word in words:
        assert word in str(err.value)


def test_options_of_a_switched_off_parent_are_not_errors() -> None:
    """A user may switch off an option a preset turns on, keeping its details."""
    r = Rules.from_cli("house", ["concede=false", "dark=false", "bolts=none"])
    assert not r.concede and r.concede_penalty_every == 3 and not r.concede_on_barrel
    Rules.from_cli(
        "classic",
        [
            "concede_limit=3",
            "redeal_weak_talon_only_at_100=true",
            "ace_marriage_trump=true",
            "golden_restart=true",
            "barrel=none",
            "barrel_deals=3",
            "dark_min_score=240",
        ],
    )
    # Odd marriage values are fine when nothing halves them.
    assert (
        Rules.from_cli("classic", ["marriage_values=S:45,C:60,D:80,H:100"]).marriage_values[0] == 45
    )


def test_valid_edge_combinations() -> None:
    assert Rules.from_cli("classic", ["bid_step=10", "bid_cap=130"]).bid_cap == 130
    # Decision (docs/rules-decisions.md, new options): bid_cap is an upper limit and need
    # not be a multiple of bid_step; a step that does not divide 20 is allowed.
    assert Rules.from_cli("classic", ["bid_step=10", "bid_cap=125"]).bid_cap == 125
    assert Rules.from_cli("classic", ["bid_step=15"]).bid_cap == 120
    assert Rules.from_cli("house", ["bid_step=50", "bid_cap=1000"]).bid_cap == 1000
    assert Rules.from_cli("classic", ["barrel=999"]).barrel == 999
    assert Rules.from_cli("textbook", ["players=3", "sitting_dealer_scores=none"]).players == 3
    assert Rules.from_cli("dealer-opens", ["players=4", "first_bidder=left_of_dealer"]).players == 4
    assert Rules.from_cli("classic", ["samosval=555,-555,-1000"]).samosval == (555, -555, -1000)


# ---------------------------------------------------------------- overrides


def test_overrides_are_relative_to_the_starting_preset() -> None:
    r = Rules.from_cli("casual", ["rounding=5", "dark=yes"])
    assert r.overrides() == {"rounding": 5, "dark": True}
    assert Rules.from_cli("house", ["samosval=555,-555"]).overrides() == {}
    assert Rules.from_cli("house", ["marriage_values=S:100,C:80,H:60,D:40"]).overrides() == {
        "marriage_values": {"S": 100, "C": 80, "D": 40, "H": 60}
    }


# ---------------------------------------------------------------- unsupported & texts


def test_nothing_is_unsupported_now_that_two_can_play() -> None:
    """RULES §4 "Two players": the two-player game, the one seed rule listed as not
    supported before, is the option players=2 and the preset ``two``."""
    assert UNSUPPORTED == {} and UNSUPPORTED_TEXT == {}
    assert unsupported("ru") == unsupported("en") == []
    assert Rules.preset_rules("two") == Rules.preset_rules("classic", players=2)


def test_every_option_and_preset_is_explained_in_both_languages() -> None:
    assert tuple(OPTION_TEXT) == OPTION_NAMES
    for name in OPTION_NAMES:
        ru, en = explain(name, "ru"), explain(name, "en")
        assert ru.startswith(name) and en.startswith(name)
        assert ru != en and "В пресетах" in ru and "In the presets" in en
        assert title(name, "ru") and title(name, "en")
    for name in PRESET_NAMES:
        assert PRESET_TEXT[name].ru and PRESET_TEXT[name].en
        assert preset_description(name, "en") == PRESET_TEXT[name].en


def test_russian_explanations_use_the_players_words() -> None:
    """RULES §8: the Russian interface speaks as players do."""
    assert "темнить" in explain("dark")
    assert "растемнить" in explain("dark_outbid_needs_marriage")
    assert "расписаться" in explain("concede")
    assert "хваленки" in explain("marriage_values")
    assert "прикуп" in explain("exchange")
    assert "болт" in explain("bolts").lower()
    assert "самосвал" in explain("samosval").lower()
    assert "садится на бочку" in explain("barrel")
    assert "пересдачу" in explain("redeal_four_nines")
    assert "Золотой кон" in explain("golden_deals")


def test_explain_shows_values_in_presets() -> None:
    assert "classic 880, dealer-opens 880, house 880, textbook 900, casual 850" in explain(
        "barrel", "en"
    )
    assert "house 555,-555" in explain("samosval", "en")


def test_explain_errors() -> None:
    with pytest.raises(RulesError, match=r"unknown option 'drak' \(did you mean 'dark'\?\)"):
        explain("drak")
    with pytest.raises(RulesError, match="lang: 'de' is not allowed; use ru or en"):
        explain("dark", "de")


# ---------------------------------------------------------------- the new options of §4


@pytest.mark.parametrize(
    ("option", "text", "value", "json_value"),
    [
        # `opening_bid`: **at_least_100**; `exactly_100`: the opener's bid is 100.
        ("opening_bid", "exactly_100", "exactly_100", "exactly_100"),
        ("opening_bid", "AT_LEAST_100", "at_least_100", "at_least_100"),
        # `bid_step`: **5**; 10, or any multiple of 5 up to 50.
        ("bid_step", "15", 15, 15),
        ("bid_step", "50", 50, 50),
        ("bid_step", "5", 5, 5),
        # `bid_jumps`: **true**; false: every raise in the auction is exactly one step.
        ("bid_jumps", "false", False, False),
        ("bid_jumps", "yes", True, True),
        # `ten_strength`: **high**; `natural`: 9 10 J Q K A in taking tricks.
        ("ten_strength", "natural", "natural", "natural"),
        ("ten_strength", "high", "high", "high"),
        # `concede_opponents_get`: **60** each; `half_contract`; `aces`.
        ("concede_opponents_get", "aces", "aces", "aces"),
        ("concede_opponents_get", "half_contract", "half_contract", "half_contract"),
        ("concede_opponents_get", "0", 0, 0),
        # `concede_declarer_loses`: **true**; false; `half`.
        ("concede_declarer_loses", "half", "half", "half"),
        ("concede_declarer_loses", "Half", "half", "half"),
        ("concede_declarer_loses", "false", False, False),
        ("concede_declarer_loses", "on", True, True),
        # `dark_doubles`: **declarer**; `all`.
        ("dark_doubles", "all", "all", "all"),
        ("dark_doubles", "declarer", "declarer", "declarer"),
        # `barrel_score`: **capped**; `kept`.
        ("barrel_score", "kept", "kept", "kept"),
        ("barrel_score", "capped", "capped", "capped"),
        # `talon_buy` (перекуп): **false**; true.
        ("talon_buy", "true", True, True),
        ("talon_buy", "off", False, False),
    ],
)
def test_new_option_values_are_accepted_from_json_and_cli(
    option: str, text: str, value: object, json_value: object
) -> None:
    """RULES §4, the rows of opening_bid, bid_step, bid_jumps, ten_strength,
    concede_opponents_get, concede_declarer_loses, dark_doubles, barrel_score, talon_buy:
    every value of the table reads the same from `--set` text and from a JSON record."""
    from_cli = Rules.from_cli("classic", [f"{option}={text}"])
    from_json = Rules.from_json({"preset": "classic", option: json_value})
    assert getattr(from_cli, option) == value
    assert from_cli == from_json
    assert from_cli.to_json()[option] == json_value
    assert Rules.from_json(json.loads(json.dumps(from_cli.to_json()))) == from_cli
    written = from_cli.value_text(option)
    assert Rules.from_cli("classic", [f"{option}={written}"]) == from_cli


def test_write_off_by_aces_is_two_option_values() -> None:
    """RULES §4: "Write-off by aces (списание «по тузам», seed 002) is
    `concede_declarer_loses=half` with `concede_opponents_get=aces`"."""
    r = Rules.from_cli(
        "dealer-opens", ["concede_declarer_loses=half", "concede_opponents_get=aces"]
    )
    assert (r.concede_declarer_loses, r.concede_opponents_get) == ("half", "aces")
    assert r.overrides() == {"concede_declarer_loses": "half", "concede_opponents_get": "aces"}
    assert Rules.from_json({"preset": "dealer-opens", **r.overrides()}) == r


_ALLOWED_BID_STEP = "use a multiple of 5 from 5 to 50"
_ALLOWED_SAMOSVAL = "whole numbers from -100000 to 100000"


@pytest.mark.parametrize(
    ("text", "message"),
    [
        # `bid_step`: "any multiple of 5 up to 50".
        ("bid_step=55", "bid_step: 55 is not allowed; " + _ALLOWED_BID_STEP),
        ("bid_step=12", "bid_step: 12 is not allowed; " + _ALLOWED_BID_STEP),
        ("bid_step=0", "bid_step: 0 is not allowed; " + _ALLOWED_BID_STEP),
        ("bid_step=-5", "bid_step: -5 is not allowed; " + _ALLOWED_BID_STEP),
        # `opening_bid`: at_least_100 | exactly_100.
        ("opening_bid=101", "opening_bid: '101' is not allowed; use at_least_100 or exactly_100"),
        ("opening_bid=", "opening_bid: '' is not allowed; use at_least_100 or exactly_100"),
        ("bid_jumps=sometimes", "bid_jumps: 'sometimes' is not allowed; use true or false"),
        ("ten_strength=low", "ten_strength: 'low' is not allowed; use high or natural"),
        # `concede_declarer_loses`: true | false | half.
        (
            "concede_declarer_loses=maybe",
            "concede_declarer_loses: 'maybe' is not allowed; use true, false or half",
        ),
        (
            "concede_declarer_loses=half_contract",
            "concede_declarer_loses: 'half_contract' is not allowed; use true, false or half",
        ),
        # `concede_opponents_get`: a number, half_contract or aces.
        (
            "concede_opponents_get=ace",
            "concede_opponents_get: 'ace' is not allowed; use a whole number from 0 to 1000, "
            "or half_contract or aces",
        ),
        (
            "concede_opponents_get=1005",
            "concede_opponents_get: 1005 is not allowed; use a whole number from 0 to 1000",
        ),
        ("dark_doubles=both", "dark_doubles: 'both' is not allowed; use declarer or all"),
        ("barrel_score=cut", "barrel_score: 'cut' is not allowed; use capped or kept"),
        ("talon_buy=maybe", "talon_buy: 'maybe' is not allowed; use true or false"),
        ("talon_buy=", "talon_buy: '' is not allowed; use true or false"),
        # Numeric bounds: points of a deal below 1000, scores within 100000.
        ("bid_cap=100000", "bid_cap: 100000 is not allowed; use a whole number from 100 to 1000"),
        ("bid_cap=1005", "bid_cap: 1005 is not allowed; use a whole number from 100 to 1000"),
        ("penalty=1000000", "penalty: 1000000 is not allowed; use a whole number from 0 to 1000"),
        ("win_score=100001", "win_score: 100001 is not allowed; use a whole number from 1 to"),
        ("concede_limit=1000", "concede_limit: 1000 is not allowed; use a whole number from 1"),
        (
            "marriage_values=S:1000,C:60,D:80,H:100",
            'marriage_values: {"S":1000,"C":60,"D":80,"H":100} is not allowed; use a value '
            "for each of the four suits S, C, D, H, each a multiple of 5, from 0 to 500",
        ),
        ("samosval=1000000,-555", "samosval: [1000000,-555] is not allowed; "),
        ("samosval=99999999999999,5", "samosval: '99999999999999,5' is not allowed; "),
        ("samosval=" + "9" * 5000, "samosval: "),
        # An empty value is an error, never "none".
        ("barrel=", "barrel: '' is not allowed; use a whole number from 1 to 100000, or none"),
        ("max_deals=", "max_deals: '' is not allowed"),
        ("samosval=", "samosval: '' is not allowed"),
        ("bolts=", "bolts: '' is not allowed; use none, every_3rd"),
    ],
)
def test_bad_new_values_name_the_option_and_the_allowed_values(text: str, message: str) -> None:
    """RULES §4 (values and bounds of each option) and §7 "Invalid combinations are rejected
    with a message": the message names the option, the value and what is allowed."""
    with pytest.raises(RulesError) as err:
        Rules.from_cli("classic", [text])
    assert str(err.value).startswith(message)
    if text.startswith("samosval"):
        assert _ALLOWED_SAMOSVAL in str(err.value)
    assert "\n" not in str(err.value)


@pytest.mark.parametrize(
    ("obj", "message"),
    [
        ({"bid_step": 55}, "bid_step: 55 is not allowed; " + _ALLOWED_BID_STEP),
        ({"bid_step": 12}, "bid_step: 12 is not allowed; " + _ALLOWED_BID_STEP),
        ({"bid_step": "10"}, "bid_step: '10' is not allowed; " + _ALLOWED_BID_STEP),
        ({"opening_bid": "exactly100"}, "opening_bid: 'exactly100' is not allowed; use at_le"),
        ({"bid_jumps": "false"}, "bid_jumps: 'false' is not allowed; use true or false"),
        ({"ten_strength": None}, "ten_strength: none is not allowed; use high or natural"),
        (
            {"concede_declarer_loses": "maybe"},
            "concede_declarer_loses: 'maybe' is not allowed; use true, false or half",
        ),
        (
            {"concede_declarer_loses": 0},
            "concede_declarer_loses: 0 is not allowed; use true, false or half",
        ),
        ({"concede_opponents_get": "Aces"}, "concede_opponents_get: 'Aces' is not allowed"),
        ({"dark_doubles": "everyone"}, "dark_doubles: 'everyone' is not allowed; use declarer"),
        ({"barrel_score": True}, "barrel_score: true is not allowed; use capped or kept"),
        ({"talon_buy": "yes"}, "talon_buy: 'yes' is not allowed; use true or false"),
        ({"bid_cap": 100000}, "bid_cap: 100000 is not allowed; use a whole number from 100"),
        (
            {"marriage_values": {"S": 1000, "C": 60, "D": 80, "H": 100}},
            'marriage_values: {"S":1000,"C":60,"D":80,"H":100} is not allowed',
        ),
        ({"samosval": [10**15, -555]}, "samosval: "),
        ({"barrel": ""}, "barrel: '' is not allowed; use a whole number from 1 to 100000"),
    ],
)
def test_bad_new_values_in_json_are_rejected(obj: dict[str, Any], message: str) -> None:
    """RULES §6: a record's `rules` are checked like `--set` values (§4 values and bounds)."""
    with pytest.raises(RulesError) as err:
        Rules.from_json({"preset": "classic", **obj})
    assert str(err.value).startswith(message)
    if "samosval" in obj:
        assert _ALLOWED_SAMOSVAL in str(err.value)


def test_option_without_a_value_is_an_error() -> None:
    """`--set barrel` (no `=`) is not "none": the user must say what he means."""
    with pytest.raises(RulesError, match="barrel: no value given; write barrel=VALUE"):
        Rules.from_cli("classic", ["barrel"])
    with pytest.raises(RulesError, match="talon_buy: no value given"):
        Rules.from_cli("classic", ["talon_buy"])


# ---------------------------------------------------------------- texts of the new options


def test_new_options_are_explained_as_the_rules_say() -> None:
    """RULES §4 rows and paragraphs, as the explanations (`--explain`) put them."""
    # `concede_opponents_get`: "`aces`: 11 for each ace the declarer holds when he concedes".
    assert "11 for each ace the declarer holds" in explain("concede_opponents_get", "en")
    assert "по 11 за каждый туз" in explain("concede_opponents_get")
    # `concede_declarer_loses`: "`half` (− half the contract, rounded with `rounding`)";
    # §7: "first rounded up to a whole number (52.5 → 53), then rounded with `rounding`".
    en = explain("concede_declarer_loses", "en")
    assert "half the contract" in en and "rounded up to a whole number" in en
    assert "половина заказа" in explain("concede_declarer_loses")
    # `concede_on_barrel`: "false: nobody may concede while any player sits on the barrel".
    assert "nobody may concede while any player sits on the barrel" in explain(
        "concede_on_barrel", "en"
    )
    assert "не расписывается никто" in explain("concede_on_barrel")
    # `dark`: "the player left of the dealer (also where the dealer opens) may bid 120
    # blind, if the bid is still below 120"; §7: "A dark deal cannot be conceded and its
    # talon cannot be bought".
    en = explain("dark", "en")
    assert "left of the dealer" in en and "also where the dealer opens" in en
    assert "below 120" in en and "cannot be conceded" in en and "cannot be bought" in en
    assert "не расписывают" in explain("dark") and "не перекупают" in explain("dark")
    # "The cut": "when the bottom card has been a nine three times, the cutter gets
    # −penalty ... A jack is shown to everyone and the dealer cuts once more himself".
    en = explain("cut_nines", "en")
    assert "three times" in en and "−penalty" in en and "jack" in en and "talon" in en
    # "Talon buy-out": "The price is the smallest of 120, 240, 360, … above the current
    # contract, and needs no marriage".
    en = explain("talon_buy", "en")
    assert "120, 240, 360" in en and "needs no marriage" in en and "loses nothing" in en
    assert "перекупить" in explain("talon_buy")
    # `bid_step`: "any multiple of 5 up to 50: a bid is 100 plus a multiple of the step".
    assert "up to 50" in explain("bid_step", "en") and "100, 115, 130" in explain("bid_step")
    assert "natural place" in explain("ten_strength", "en")
    assert "exactly one step" in explain("bid_jumps", "en")
    assert "every player's" in explain("dark_doubles", "en")
    assert "stays as it is" in explain("barrel_score", "en")


def test_russian_texts_of_the_new_options_use_the_players_words() -> None:
    """RULES §8: перекуп, «сижу на ста», темнить, бочка, роспись."""
    assert title("talon_buy") == "перекуп" and "\nПерекуп. " in explain("talon_buy")
    assert "«сидит на ста»" in explain("opening_bid")
    assert "темнить" in explain("dark") and "бочк" in explain("barrel_score")
    assert "по тузам" in explain("concede_declarer_loses")


def test_preset_texts_follow_rules_5() -> None:
    """RULES §5: each preset's one-line description says what it changes."""
    assert "exactly 100" in preset_description("dealer-opens", "en")
    assert "one step" in preset_description("house", "en")
    textbook = preset_description("textbook", "en")
    assert "natural place" in textbook and "score kept" in textbook
    assert "exactly 100" in textbook
    assert "«сидит на ста»" in preset_description("dealer-opens")


def _texts() -> list[str]:
    out: list[str] = []
    for option in OPTION_TEXT.values():
        out += [*option.title, *option.text]
    for text in [*PRESET_TEXT.values(), *UNSUPPORTED_TEXT.values()]:
        out += [*text]
    return out


_ROOT = Path(__file__).resolve().parents[1]


_PAGES = ("docs/rules.ru.md", "docs/rules.en.md")


def test_texts_and_rules_pages_stand_alone() -> None:
    """Users get the repository alone: the texts and the rules pages point at nothing
    outside it and ask nobody to look up a source by number; the README links both
    players' pages."""
    pages = ["README.md", "docs/rules.md", *_PAGES, "docs/rules-options.md",
             "docs/rules-decisions.md"]
    texts = _texts() + [(_ROOT / page).read_text(encoding="utf-8") for page in pages]
    for text in texts:
        assert "../shared" not in text and "RULES.md" not in text
    for text in _texts():
        assert "seed" not in text.lower()
    readme = (_ROOT / "README.md").read_text(encoding="utf-8")
    for page in _PAGES:
        assert page in readme


def test_players_rules_pages_name_every_option_and_preset() -> None:
    """RULES §4: "Every option has one name, used in code, records and the CLI" — each
    players' page (docs/rules.ru.md, docs/rules.en.md) tells the game, then each preset of
    §5 as a family's way of playing, then every option by its title with that name; the
    index docs/rules.md links both and keeps the rule citations."""
    for page, title_lang in zip(_PAGES, LANGS, strict=True):
        text = (_ROOT / page).read_text(encoding="utf-8")
        presets_at = text.index("— `classic`")
        options_at = text.index("(`players`)")
        assert presets_at < options_at  # the game, the families, then the options
        missing = [name for name in OPTION_NAMES if f"(`{name}`)" not in text]
        assert missing == [], page
        for name in OPTION_NAMES:
            shown = title(name, title_lang)
            assert f"**{shown[:1].upper()}{shown[1:]}** (`{name}`)" in text, (page, name)
        for preset in PRESET_NAMES:
            assert f"— `{preset}`\n" in text, (page, preset)
    index = (_ROOT / "docs" / "rules.md").read_text(encoding="utf-8")
    assert "## Rule citations" in index
    for page in _PAGES:
        assert f"({page.removeprefix('docs/')})" in index


# ---------------------------------------------------------------- thousand rules


def _app() -> typer.Typer:
    """``thousand`` with only ``rules`` in it, kept a group (Typer collapses a group of
    one command into that command, whatever else the real CLI has registered yet)."""
    from thousand.cli import rules_cmd

    app = typer.Typer()
    app.callback()(lambda: None)
    app.command("rules")(rules_cmd.rules_command)
    return app


def _run(*args: str, columns: int = 160) -> tuple[int, str, str]:
    result = CliRunner(env={"COLUMNS": str(columns)}).invoke(_app(), ["rules", *args])
    return result.exit_code, result.stdout, result.stderr


def _marked_rows(out: str) -> list[str]:
    """The table rows marked as differing from classic."""
    return [
        line
        for line in out.splitlines()
        if line.strip().startswith("*") and line.split()[1] in OPTION_NAMES
    ]


def test_rules_is_registered_on_the_real_app() -> None:
    import thousand.cli.rules_cmd  # noqa: F401  (registers itself on import)
    from thousand.cli import app

    names = [c.name for c in app.registered_commands]
    assert "rules" in names


def test_cli_table_for_house_with_ids() -> None:
    """``--ids``: every option by the name --set takes, the values as --set writes them,
    the ones house changes marked with the classic value beside them."""
    code, out, err = _run("house", "--lang", "en", "--ids")
    assert code == 0, err
    assert "Preset: house (house rules)" in out
    lines = {line.split()[1]: line for line in _marked_rows(out)}
    # Every option that house changes is marked, with the classic value beside it.
    assert set(lines) == set(PRESETS["house"])
    assert "every_3rd" in lines["bolts"] and "none" in lines["bolts"]
    assert "555,-555" in lines["samosval"]
    for name in OPTION_NAMES:
        assert name in out
    assert "Not supported" not in out


def test_cli_table_for_house_in_words() -> None:
    """Without ``--ids`` every rule is shown by its title and its value in words, by
    theme; the rules house changes are marked with the classic value in words."""
    code, out, err = _run("house", "--lang", "en")
    assert code == 0, err
    assert out.startswith("Thousand: house rules\n")
    for name in OPTION_NAMES:
        assert title(name, "en") in out
    marked = [line for line in out.splitlines() if line.startswith(" *")]
    assert len(marked) == len(PRESETS["house"])
    assert any("opening bid" in line and "exactly 100" in line and "100 or more" in line
               for line in marked)
    assert "every_3rd" not in out and "bid_jumps" not in out


def test_cli_table_in_russian_with_sets_on_a_narrow_terminal() -> None:
    code, out, err = _run("classic", "--set", "bid_step=10", "-s", "barrel=none", columns=80)
    assert code == 0, err
    assert "Тысяча: классика" in out and "Не поддерживается" not in out
    assert "Изменено: шаг торговли — 10; бочка — без бочки" in out
    marked = [line for line in out.splitlines() if line.startswith(" *")]
    assert len(marked) == 2
    code, out, err = _run("classic", "--set", "bid_step=10", "-s", "barrel=none", "--ids",
                          columns=80)
    assert code == 0, err
    assert "--set bid_step=10 barrel=none" in out
    assert [line.split()[1] for line in _marked_rows(out)] == ["bid_step", "barrel"]


_IDENTIFIER = re.compile(r"[A-Za-z_]+_[A-Za-z_]+|\b[a-z]{2,}\b")


@pytest.mark.parametrize("preset", PRESET_NAMES)
def test_rules_in_russian_show_no_option_identifiers(preset: str) -> None:
    """``thousand rules`` in Russian, without ``--ids``, names no option by its
    identifier and writes no value as the command line does (``every_3rd``, ``true``,
    ``none``): every rule is a title and a value in words.  The only Latin left is the
    command line it suggests; no "пресет", no "seed"."""
    code, out, err = _run(preset, columns=100)
    assert code == 0, err
    body = out.split("Что значит правило:")[0]
    words = set(re.findall(r"[A-Za-z_][A-Za-z_0-9]*", body))
    assert not words & set(OPTION_NAMES), words & set(OPTION_NAMES)
    assert not _IDENTIFIER.findall(body), _IDENTIFIER.findall(body)
    assert "пресет" not in out.lower() and "seed" not in out.lower()


@pytest.mark.parametrize("option", OPTION_NAMES)
def test_explain_in_russian_shows_no_identifiers(option: str) -> None:
    """``--explain`` in Russian, without ``--ids``: the rule's title, what it does and its
    value in each family's rules, all in Russian words — no identifier of an option or of
    a value is left in it (another option is named by its title in quotes)."""
    code, out, err = _run("--explain", option, columns=100)
    assert code == 0, err
    found = set(re.findall(r"[A-Za-z_][A-Za-z_0-9]*", out))
    assert not found, (option, found)


def test_cli_json() -> None:
    code, out, _ = _run("textbook", "--json", "-s", "rounding=5")
    assert code == 0
    data = json.loads(out)
    assert data["preset"] == "textbook" and data["rounding"] == 5 and data["barrel"] == 900
    assert Rules.from_json(data) == Rules.preset_rules("textbook", rounding=5)


def test_cli_explain_in_both_languages() -> None:
    """``--explain`` tells a rule by its title, what it does and how each family plays it;
    with ``--ids`` by its name, with the values as --set writes them."""
    code, out, _ = _run("--explain", "dark", "--lang", "en", "--ids")
    assert code == 0
    assert out.startswith("dark — dark bid") and "blind" in out
    code, out, _ = _run("--explain", "dark", "--ids")
    assert code == 0
    assert out.startswith("dark — тёмная") and "втемную" in out
    code, out, _ = _run("--explain", "dark")
    assert code == 0
    assert out.startswith("Тёмная\n") and "втемную" in out
    assert "домашние правила — да" in out and "классика — нет" in out
    code, out, _ = _run("--explain", "dark", "--lang", "en")
    assert out.startswith("Dark bid\n") and "house rules — yes" in out


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["hous"], "unknown preset 'hous'"),
        (["--set", "bid_step=7"], "bid_step: 7 is not allowed; use a multiple of 5 from 5 to 50"),
        (["--set", "bidstep=10"], "did you mean 'bid_step'"),
        (["dealer-opens", "--set", "players=4"], "first_bidder"),
        (["--explain", "drak"], "did you mean 'dark'"),
        (["--lang", "de"], "lang: 'de'"),
    ],
)
def test_cli_errors_exit_2_with_one_line(args: list[str], message: str) -> None:
    # English for scripts with --lang en (the Russian default words them in Russian:
    # tests/test_language.py)
    code, out, err = _run("--lang", "en", *args)
    assert code == 2
    assert out == ""
    assert err.count("\n") == 1 and message in err
    assert "Traceback" not in err


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("option", OPTION_NAMES)
def test_cli_explain_every_option(option: str, lang: str) -> None:
    """RULES §4: every option has one name, used in the CLI; `--explain` says what it
    does and its value in each preset of §5, in Russian and in English."""
    code, out, err = _run("--explain", option.replace("_", "-"), "--lang", lang, "--ids")
    assert code == 0, err
    assert out.startswith(f"{option} — {title(option, lang)}\n")
    label = "В пресетах" if lang == "ru" else "In the presets"
    assert f"{label}: classic " in out and ", casual " in out
    code, out, err = _run("--explain", option, "--lang", lang)
    assert code == 0, err
    shown = title(option, lang)
    assert out.startswith(f"{shown[:1].upper()}{shown[1:]}\n")
    assert f"{preset_title('classic', lang)} — " in out


@pytest.mark.parametrize(("lang", "label"), [("ru", "Не поддерживается"), ("en", "Not supported")])
def test_cli_lists_nothing_as_unsupported(lang: str, label: str) -> None:
    """RULES §4 "Two players": with the two-player game built, `thousand rules` has no
    "not supported" list; the listing ends by naming the players' rules page."""
    code, out, err = _run("--lang", lang)
    assert code == 0, err
    assert label not in out
    assert out.rstrip().splitlines()[-1].endswith(f"docs/rules.{lang}.md")
