"""The rules model against RULES.md §4 (options), §5 (presets) and §7 (invalid combinations),
and the ``thousand rules`` command."""

from __future__ import annotations

import dataclasses
import json

import pytest
import typer
from typer.testing import CliRunner

from thousand.rules import (
    OPTION_NAMES,
    PRESET_NAMES,
    PRESETS,
    UNSUPPORTED,
    Rules,
    RulesError,
    format_value,
)
from thousand.rules_text import (
    OPTION_TEXT,
    PRESET_TEXT,
    explain,
    preset_description,
    title,
    unsupported,
)

# ---------------------------------------------------------------- §4 options


def test_every_option_of_rules_4_is_a_field_in_order() -> None:
    """RULES §4: one field per option, named exactly, in the table's order."""
    fields = [f.name for f in dataclasses.fields(Rules) if f.name != "preset"]
    assert fields == list(OPTION_NAMES)
    assert OPTION_NAMES[:4] == ("players", "sitting_dealer_scores", "first_bidder", "bid_step")
    assert OPTION_NAMES[-3:] == ("win_strict", "max_deals", "settlement")
    assert len(OPTION_NAMES) == 59


def test_classic_defaults_are_the_bold_values_of_rules_4() -> None:
    r = Rules()
    assert r.preset == "classic"
    assert (r.players, r.sitting_dealer_scores, r.first_bidder) == (3, None, "left_of_dealer")
    assert (r.bid_step, r.bid_cap, r.min_score_to_bid) == (5, 120, None)
    assert (r.exchange, r.talon_shown, r.must_overtake) == ("give_one_each", "all", False)
    assert r.marriage_values == (40, 60, 80, 100)
    assert r.rounding == 5 and r.declarer_scores == "contract"
    assert (r.concede, r.concede_opponents_get, r.concede_declarer_loses) == (False, 60, True)
    assert r.concede_on_barrel and r.concede_in_golden
    assert not r.dark and r.dark_min_score == 0 and r.dark_outbid_needs_marriage
    assert r.dark_marriages_doubled and r.dark_talon_shown
    assert r.bolts is None and r.bolt_means == "no_trick" and r.samosval == ()
    assert (r.penalty, r.barrel, r.barrel_deals, r.barrel_reset_score) == (120, 880, 3, 0)
    assert (r.win_score, r.win_strict, r.max_deals, r.settlement) == (1000, False, 200, False)
    assert Rules.preset_rules("classic") == r
    assert r.overrides() == {}


# ---------------------------------------------------------------- §5 presets


def test_preset_names_in_rules_5_order() -> None:
    assert PRESET_NAMES == ("classic", "dealer-opens", "house", "textbook", "casual")
    assert set(PRESETS) == set(PRESET_NAMES)


def _diff_from_classic(r: Rules) -> dict[str, object]:
    classic = Rules()
    return {n: getattr(r, n) for n in OPTION_NAMES if getattr(r, n) != getattr(classic, n)}


def test_rules_5_dealer_opens() -> None:
    """RULES §5 dealer-opens: first_bidder=dealer, cut_nines, concede (60 each, declarer
    − contract), max_deals=none, settlement."""
    r = Rules.preset_rules("dealer-opens")
    assert r.preset == "dealer-opens"
    assert _diff_from_classic(r) == {
        "first_bidder": "dealer",
        "cut_nines": True,
        "concede": True,
        "max_deals": None,
        "settlement": True,
    }
    assert r.concede_opponents_get == 60 and r.concede_declarer_loses


def test_rules_5_house() -> None:
    """RULES §5 house: concede (60 each, every 3rd −120, not on barrel or golden), dark,
    redeals, bolts=every_3rd, samosval [555, −555], knock-off, falls reset 3."""
    r = Rules.preset_rules("house")
    assert _diff_from_classic(r) == {
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
    """RULES §5 textbook: 4 players, talon_value, bid_step 10, discard_three, concede
    without loss, rounding 10, barrel 900 without a deal limit, dark with the talon hidden."""
    r = Rules.preset_rules("textbook")
    assert _diff_from_classic(r) == {
        "players": 4,
        "sitting_dealer_scores": "talon_value",
        "bid_step": 10,
        "exchange": "discard_three",
        "concede": True,
        "concede_declarer_loses": False,
        "rounding": 10,
        "barrel": 900,
        "barrel_deals": None,
        "dark": True,
        "dark_talon_shown": False,
        "max_deals": None,
    }
    assert r.concede_opponents_get == 60


def test_rules_5_casual() -> None:
    """RULES §5 casual: bid_step 10, must_overtake, declarer_scores=taken, rounding 1,
    barrel 850, barrel_deals none, max_deals none (and one card to each opponent)."""
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
        ({"bid_step": 10.0}, ["bid_step", "5 or 10"]),
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
        ("bid_step=7", ["bid_step: 7 is not allowed; use 5 or 10"]),
        ("bid_step=ten", ["bid_step", "'ten'", "5 or 10"]),
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
        ("barrel=zero", ["barrel", "positive whole number", "none"]),
        ("barrel=0", ["barrel", "positive"]),
        ("max_deals=-1", ["max_deals", "positive"]),
        ("concede_limit=0", ["concede_limit", "positive"]),
        ("ace_marriage=-200", ["ace_marriage", "0 or more"]),
        ("four_nines_bonus=x", ["four_nines_bonus", "0 or more"]),
        ("penalty=-120", ["penalty", "0 or more"]),
        ("win_score=0", ["win_score", "positive"]),
        ("concede_opponents_get=half", ["concede_opponents_get", "half_contract"]),
        ("concede_opponents_get=-60", ["concede_opponents_get", "0 or more"]),
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
        "unknown preset 'hous'; presets: classic, dealer-opens, house, textbook, casual"
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
        ("classic", ["bid_step=10", "bid_cap=125"], ["bid_cap", "multiple of bid_step"]),
        ("classic", ["bid_cap=95"], ["bid_cap", "at least 100"]),
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


def test_unsupported_agreements_of_rules_4() -> None:
    keys = " ".join(UNSUPPORTED)
    assert "перекуп" in keys and "по тузам" in keys and "two players" in keys
    assert all(reason for reason in UNSUPPORTED.values())
    assert len(unsupported("ru")) == len(unsupported("en")) == 3


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


def test_cli_table_for_house() -> None:
    code, out, err = _run("house", "--lang", "en")
    assert code == 0, err
    assert "Preset: house" in out
    lines = {line.split()[1]: line for line in _marked_rows(out)}
    # Every option that house changes is marked, with the classic value beside it.
    assert set(lines) == set(PRESETS["house"])
    assert "every_3rd" in lines["bolts"] and "none" in lines["bolts"]
    assert "555,-555" in lines["samosval"]
    for name in OPTION_NAMES:
        assert name in out
    assert "talon buy-out" in out and "перекуп" in out and "two players" in out


def test_cli_table_in_russian_with_sets_on_a_narrow_terminal() -> None:
    code, out, err = _run("classic", "--set", "bid_step=10", "-s", "barrel=none", columns=80)
    assert code == 0, err
    assert "Пресет: classic" in out and "Не поддерживается" in out
    assert "--set bid_step=10 barrel=none" in out
    marked = [line.split()[1] for line in _marked_rows(out)]
    assert marked == ["bid_step", "barrel"]


def test_cli_json() -> None:
    code, out, _ = _run("textbook", "--json", "-s", "rounding=5")
    assert code == 0
    data = json.loads(out)
    assert data["preset"] == "textbook" and data["rounding"] == 5 and data["barrel"] == 900
    assert Rules.from_json(data) == Rules.preset_rules("textbook", rounding=5)


def test_cli_explain_in_both_languages() -> None:
    code, out, _ = _run("--explain", "dark", "--lang", "en")
    assert code == 0
    assert out.startswith("dark — dark bid") and "blind" in out
    code, out, _ = _run("--explain", "dark")
    assert code == 0
    assert out.startswith("dark — тёмная") and "втемную" in out


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["hous"], "unknown preset 'hous'"),
        (["--set", "bid_step=7"], "bid_step: 7 is not allowed; use 5 or 10"),
        (["--set", "bidstep=10"], "did you mean 'bid_step'"),
        (["dealer-opens", "--set", "players=4"], "first_bidder"),
        (["--explain", "drak"], "did you mean 'dark'"),
        (["--lang", "de"], "lang: 'de'"),
    ],
)
def test_cli_errors_exit_2_with_one_line(args: list[str], message: str) -> None:
    code, out, err = _run(*args)
    assert code == 2
    assert out == ""
    assert err.count("\n") == 1 and message in err
    assert "Traceback" not in err
