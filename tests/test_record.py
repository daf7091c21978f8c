"""The game record and its replay (RULES §6, §7), the score sheet, ``thousand replay``.

Random legal games under every preset are written, read back and replayed: the replay
must reach the very scores and results the live game did.  A small hand-written record
checks the scoring against numbers worked out by hand, and each kind of broken record
must be reported with its own message and exit status.
"""

from __future__ import annotations

import contextlib
import copy
import io
import json
import random
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import typer
from rich.console import Console
from typer.testing import CliRunner

import needs
from thousand.bots import HeuristicBot, checked_choice
from thousand.cli import run
from thousand.engine import moves as mv
from thousand.engine.cards import mask_of, parse_cards
from thousand.engine.game import Game
from thousand.engine.record import (
    Record,
    RecordError,
    ReplayError,
    dumps_record,
    game_to_record,
    load_record,
    replay,
)
from thousand.engine.rules import PRESET_NAMES, Rules
from thousand.terminal.sheet_view import render_sheet
from thousand.words.catalogue import illegal_move_text
from thousand.words.sheet import sheet_footer

# ------------------------------------------------------------------ helpers


def random_game(rules: Rules, seed: int, stop_after: int | None = None) -> Game:
    """A game played to the end (or ``stop_after`` moves) by random legal moves."""
    game = Game(rules, first_dealer=0, seed=seed)
    rng = random.Random(seed)
    made = 0
    while not game.over and (stop_after is None or made < stop_after):
        game.apply(rng.choice(game.legal_moves()))
        made += 1
    return game


def rows(game: Game) -> list[dict[str, Any]]:
    """What the replay output says of each finished deal, from the live game."""
    return [
        {
            "declarer": s.result.declarer,
            "contract": s.result.contract,
            "points": list(s.result.points),
            "scores": list(s.scores),
        }
        for s in game.summaries
    ]


def sheet_text(game: Game, lang: str = "ru") -> str:
    out = io.StringIO()
    Console(file=out, width=200, color_system=None).print(render_sheet(game, lang))
    return out.getvalue()


# Worked out by hand (see test_hand_written_record_scores_as_worked_out_by_hand).
HAND_RECORD: dict[str, Any] = {
    "rules": "classic",
    "players": ["Аня", "Боря", "Вова"],
    "first_dealer": 0,
    "deals": [
        {
            "hands": [
                ["QS", "JS", "9S", "TC", "KC", "QC", "JC"],
                ["AH", "TH", "KH", "QH", "AS", "TS", "AC"],
                ["9C", "AD", "TD", "KD", "QD", "JD", "9D"],
            ],
            "talon": ["JH", "9H", "KS"],
            "moves": [
                "100", "110", "pass", "120", "pass", "give KS", "give 9H", "contract 200",
                "AS", "KS", "9S", "KH+", "9D", "9H", "AH", "9C", "JC", "TH", "JD", "QC",
                "QH", "QD", "KC", "JH", "KD", "TC", "TS", "TD", "JS", "AC", "AD", "QS",
            ],
        },
        {
            "hands": [
                ["AH", "TH", "KH", "QH", "JH", "AC", "TC"],
                ["AD", "TD", "KD", "QD", "JD", "KC", "QC"],
                ["AS", "TS", "KS", "QS", "9H", "9D", "9C"],
            ],
            "talon": ["JS", "9S", "JC"],
            "moves": [
                "100", "pass", "pass", "give 9H", "give 9D", "contract 100",
                "AS", "9H", "9D", "KS+", "JH", "JD", "9C", "AC", "QC", "KH+", "KC", "JC",
                "AH", "QD", "9S", "TH", "KD", "JS", "QH", "TD", "QS", "TC", "AD", "TS",
            ],
        },
    ],
}


def hand_record() -> dict[str, Any]:
    return copy.deepcopy(HAND_RECORD)


def hand_game(rules: Rules, scores: tuple[int, ...] = (0, 0, 0), deals: int = 2) -> Game:
    """The hand-written deals played live under ``rules``, from the given scores."""
    game = Game(rules, ["Аня", "Боря", "Вова"], 0, auto_deal=False)
    for seat, score in enumerate(scores):
        game.seats[seat].score = score
    for deal in HAND_RECORD["deals"][:deals]:
        hands = [mask_of(parse_cards(h)) for h in deal["hands"]]
        game.start_deal(hands, mask_of(parse_cards(deal["talon"])))
        for text in deal["moves"]:
            game.apply(mv.parse_move(text))
    return game


# ------------------------------------------------------- random games round trip

CASES: list[tuple[str, dict[str, Any]]] = [(p, {}) for p in PRESET_NAMES] + [
    ("house", {"players": 4}),
    ("classic", {"golden_deals": True, "golden_restart": True, "concede": True}),
    ("classic", {"redeal_four_nines": True, "redeal_weak_hand": 14, "redeal_weak_talon": True,
                 "redeal_after_exchange": True, "redeal_penalty_after": 3}),
    ("classic", {"dark": True, "half_marriage": True, "ace_marriage": 200,
                 "four_nines_bonus": 200, "bolts": "every_3rd", "settlement": True}),
]


@pytest.mark.parametrize(("preset", "overrides"), CASES)
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_random_games_replay_to_the_same_game(
    preset: str, overrides: dict[str, Any], seed: int
) -> None:
    """RULES §6: a record reproduces the game: same rows, scores, winner, settlement."""
    rules = Rules.preset_rules(preset, **{"max_deals": 30, **overrides})
    game = random_game(rules, seed)
    record = game_to_record(game)
    text = json.dumps(record, ensure_ascii=False)
    result = replay(text)
    assert result.scores == game.scores
    assert result.winner == game.winner
    assert result.finished
    out = result.to_json()
    assert out["deals"] == rows(game)
    assert out["scores"] == list(game.scores)
    assert out["winner"] == game.winner
    assert [s.events for s in result.summaries] == [s.events for s in game.summaries]
    if rules.settlement:
        assert out["settlement"] == game.settlement()
    else:
        assert "settlement" not in out
    # The record of the replayed game is the record itself: one game, one record.
    assert game_to_record(result.game) == record
    # The readable form is the same JSON.
    assert json.loads(dumps_record(record)) == record
    assert load_record(dumps_record(record)) == load_record(record)


@pytest.mark.parametrize("preset", PRESET_NAMES)
def test_unfinished_game_replays_to_the_scores_so_far(preset: str) -> None:
    """The last deal may be unfinished: its moves so far are replayed, winner is null."""
    game = random_game(Rules.preset_rules(preset, max_deals=30), seed=7, stop_after=200)
    assert not game.over and game.deal is not None
    record = game_to_record(game)
    assert len(record["deals"]) == len(game.summaries) + 1
    assert record["deals"][-1]["moves"] == [
        mv.move_str(m) for m in game.deal.history if m != mv.LOOK
    ]
    result = replay(record)
    assert result.to_json() == {"deals": rows(game), "scores": list(game.scores),
                                "winner": None}
    assert result.game.deal is not None
    # ``look`` is never recorded: the replay implies it, the live game may hold it.
    assert [m for m in result.game.deal.history if m != mv.LOOK] == [
        m for m in game.deal.history if m != mv.LOOK
    ]


def test_record_shape_follows_rules_6() -> None:
    game = random_game(Rules.preset_rules("textbook", max_deals=3), seed=3)
    record = game_to_record(game)
    assert list(record) == ["format", "rules", "players", "first_dealer", "deals"]
    assert record["format"] == 1
    assert record["rules"] == game.rules.to_json()
    assert record["players"] == ["P1", "P2", "P3", "P4"]
    for deal in record["deals"]:
        assert set(deal) <= {"hands", "talon", "moves", "cut"}
        # the sitting-out dealer's hand is []
        assert sorted(len(h) for h in deal["hands"]) == [0, 7, 7, 7]
        assert len(deal["talon"]) == 3
        assert "look" not in deal["moves"]
        assert all(isinstance(m, str) for m in deal["moves"])


def test_cut_is_recorded_only_with_cut_nines() -> None:
    game = random_game(Rules.preset_rules("dealer-opens", max_deals=5), seed=4)
    record = game_to_record(game)
    assert all(deal["cut"] for deal in record["deals"])
    assert replay(record).scores == game.scores
    plain = game_to_record(random_game(Rules.preset_rules("classic", max_deals=2), seed=4))
    assert all("cut" not in deal for deal in plain["deals"])


def test_preset_name_and_overrides_as_rules() -> None:
    """``rules`` may be a preset name or {"preset": ..., overrides...}."""
    game = random_game(Rules.preset_rules("casual", rounding=5, max_deals=4), seed=2)
    record = game_to_record(game)
    record["rules"] = {"preset": "casual", "rounding": 5, "max_deals": 4}
    assert replay(record).scores == game.scores
    classic = random_game(Rules.preset_rules("classic"), seed=2, stop_after=60)
    short = game_to_record(classic)
    short["rules"] = "classic"
    assert replay(short).scores == classic.scores


# ----------------------------------------------------------- hand-written record


def test_hand_written_record_scores_as_worked_out_by_hand() -> None:
    """Two classic deals scored by hand.

    Deal 1 (Аня deals, Боря opens): Боря 100, Вова 110, Аня pass, Боря 120, Вова pass.
    Боря takes JH 9H KS, gives KS to Вова and 9H to Аня, raises to 200 (cap 120 + ♥100).
    He takes all eight tricks: 120 card points + ♥ marriage 100 = 220 ≥ 200: +200.
    Аня and Вова take nothing (0 each; both bolts, no penalty in classic).
    Deal 2 (Боря deals, Вова opens): Вова 100, both pass.  Вова takes JS 9S JC, gives 9H
    to Аня and 9D to Боря, stays at 100.  Вова: AS 11, then KS+ (♠40) with JH JD: 8,
    then loses 9C to AC: 19 card points + 40 = 59 < 100: −100.  Аня wins every trick
    from there with ♥100 declared: 14+10+14+16+16+31 = 101 + 100 = 201 → 200.
    Боря: no trick, 0.
    """
    out = replay(json.dumps(HAND_RECORD, ensure_ascii=False)).to_json()
    assert out == {
        "deals": [
            {"declarer": 1, "contract": 200, "points": [0, 220, 0], "scores": [0, 200, 0]},
            {"declarer": 2, "contract": 100, "points": [201, 0, 59],
             "scores": [200, 200, -100]},
        ],
        "scores": [200, 200, -100],
        "winner": None,
    }


# ---------------------------------------------------------------- broken records


def _mutate(path: str, value: Any) -> Any:
    """A function that sets ``value`` at the dotted ``path`` of a record copy."""

    def apply(record: dict[str, Any]) -> None:
        *keys, last = path.split(".")
        node: Any = record
        for key in keys:
            node = node[int(key)] if key.isdigit() else node[key]
        if value is _DELETE:
            del node[int(last) if last.isdigit() else last]
        elif last.isdigit():
            node[int(last)] = value
        else:
            node[last] = value

    return apply


_DELETE = object()

MALFORMED = [
    (_mutate("deals", _DELETE), 'the record has no "deals"'),
    (_mutate("rules", _DELETE), 'the record has no "rules"'),
    (_mutate("date", "today"),
     "unknown key 'date'; a record has 'rules', 'players', 'first_dealer', 'deals'"),
    (_mutate("rules", {"preset": "classic", "bid_stp": 10}),
     "rules: unknown option 'bid_stp' (did you mean 'bid_step'?)"),
    (_mutate("rules", "klassik"), "rules: unknown preset 'klassik'"),
    (_mutate("rules", {"preset": "classic", "rounding": 7}), "rules: rounding: 7 is not allowed"),
    (_mutate("players", ["Аня", "Боря"]), "players: 2 names for a 3-player game"),
    (_mutate("players", "Аня"), "players: must be a list of names"),
    (_mutate("first_dealer", 3), "first_dealer: 3 is not a seat; use 0 to 2"),
    (_mutate("first_dealer", "0"), 'first_dealer: "0" is not a seat'),
    (_mutate("deals", {}), "deals: must be a list of deals, not an object"),
    (_mutate("deals.1", []), "deal 2: must be an object, not a list"),
    (_mutate("deals.1.talons", []), "deal 2: unknown key 'talons'"),
    (_mutate("deals.0.moves", _DELETE), 'deal 1: no "moves"'),
    (_mutate("deals.0.hands.2", _DELETE), "deal 1: hands: 2 hands for 3 players"),
    (_mutate("deals.1.hands.1.6", _DELETE), "deal 2: hands: seat 1 must be dealt 7 cards, not 6"),
    (_mutate("deals.1.talon.2", _DELETE), "deal 2: the talon must have 3 cards, not 2"),
    (_mutate("deals.0.hands.0.0", "XS"), "deal 1: hands: seat 0: 'XS' is not a card"),
    (_mutate("deals.0.hands.0.0", 9), "deal 1: hands: seat 0: item 1 must be a string"),
    (_mutate("deals.0.talon.0", "QS"), "deal 1: QS is dealt twice: seat 0 and the talon"),
    (_mutate("deals.0.hands.0.1", "QS"), "deal 1: QS is dealt twice: seat 0 again"),
    (_mutate("deals.0.moves.3", "giv 9S"), "deal 1, move 4: 'giv 9S' is not a move"),
    (_mutate("deals.1.moves.0", "look"), "deal 2, move 1: 'look' is never recorded"),
    (_mutate("deals.1.moves.0", 100), "deal 2: moves: item 1 must be a string, not a number"),
    (_mutate("deals.1.moves.0", "99000"), "deal 2, move 1: '99000' is not a move"),
    (_mutate("deals.0.cut", ["9S", "AD"]), "deal 1: cut: a cut is recorded only with cut_nines"),
]


@pytest.mark.parametrize(("mutate", "message"), MALFORMED)
def test_malformed_record_names_the_place(mutate: Any, message: str) -> None:
    record = hand_record()
    mutate(record)
    with pytest.raises(RecordError) as e:
        load_record(record)
    assert str(e.value).startswith(message)
    with pytest.raises(RecordError):
        replay(json.dumps(record))


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "not JSON:"),
        ("{'rules': 'classic'}", "not JSON:"),
        ("[1, 2]", "a record must be a JSON object, not a list"),
        (b"\xff\xfe\x00", "not"),
    ],
)
def test_not_a_record_at_all(text: str | bytes, message: str) -> None:
    with pytest.raises(RecordError, match="^" + message):
        load_record(text)


def test_empty_cut_is_allowed_and_a_cut_is_read() -> None:
    record = hand_record()
    record["deals"][0]["cut"] = []
    assert replay(record).scores == (200, 200, -100)
    record["rules"] = {"preset": "classic", "cut_nines": True}
    # three nines, the last (9H) left at the bottom of the deck: a talon card
    record["deals"][0]["cut"] = ["9S", "9D", "9H"]
    record["deals"][1]["cut"] = ["JD"]  # a jack: the dealer cuts again, unseen
    result = replay(record)
    # three nines at the cut cost the cutter (left of the dealer, Боря) the penalty
    assert result.scores == (200, 80, -100)
    assert load_record(record).deals[0].cut == tuple(parse_cards(["9S", "9D", "9H"]))


def test_four_players_the_empty_hand_must_be_the_dealers() -> None:
    game = random_game(Rules.preset_rules("textbook", max_deals=2), seed=5)
    record = game_to_record(game)
    assert record["deals"][0]["hands"][0] == []
    hands = record["deals"][0]["hands"]
    hands[0], hands[1] = hands[1], hands[0]
    load_record(record)  # one empty hand: whose it is, only the replay knows
    with pytest.raises(RecordError, match=r"^deal 1: hands: the sitting-out dealer must be "
                                          r"dealt 0 cards, not 7$"):
        replay(record)
    record["deals"][0]["hands"][0] = []  # two empty hands: seat 0 deals, seat 1 has none
    with pytest.raises(RecordError, match=r"^deal 1: hands: seat 1 must be dealt 7 cards, not 0"):
        load_record(record)


# -------------------------------------------------------------- illegal games


def test_illegal_move_names_deal_move_and_reason() -> None:
    record = hand_record()
    record["deals"][0]["moves"][9] = "9C"  # Вова holds KS and must follow spades
    with pytest.raises(ReplayError) as e:
        replay(record)
    assert str(e.value) == "deal 1, move 10: 9C: you must follow spades"
    assert (e.value.deal, e.value.move) == (1, 10)
    assert e.value.illegal is not None
    assert illegal_move_text(e.value.illegal, "ru") == "нужно ходить в масть: пики"


@pytest.mark.parametrize(
    ("where", "move", "message"),
    [
        ((1, 4), "120", "deal 2, move 5: 120: 120 is not possible now: seat 2 to give"),
        ((1, 1), "95", "deal 2, move 2: 95: a bid must be at least 105"),
        ((1, 1), "107", "deal 2, move 2: 107: bids go in steps of 5"),
        ((1, 0), "pass", "deal 2, move 1: pass: the first bid is compulsory: bid 100 or more"),
        ((0, 7), "contract 230", "deal 1, move 8: contract 230: you may not bid above 220"),
        ((0, 7), "contract 115", "deal 1, move 8: contract 115: the contract may not be lower"),
        ((0, 5), "give QS", "deal 1, move 6: give QS: you do not hold Q"),
        ((0, 8), "AS+", "deal 1, move 9: AS+: no declaration on the first lead of the deal"),
        ((0, 0), "dark", "deal 1, move 1: dark: a dark bid is not possible now"),
        ((0, 0), "redeal", "deal 1, move 1: redeal: you are not entitled to a redeal"),
    ],
)
def test_illegal_moves_of_every_phase(where: tuple[int, int], move: str, message: str) -> None:
    record = hand_record()
    d, m = where
    record["deals"][d]["moves"][m] = move
    with pytest.raises(ReplayError) as e:
        replay(record)
    assert str(e.value).startswith(message)


def test_moves_after_the_deal_is_over() -> None:
    record = hand_record()
    record["deals"][0]["moves"].append("AH")
    with pytest.raises(ReplayError, match=r"^deal 1, move 33: AH: the deal is over$"):
        replay(record)


def test_a_deal_cut_short_before_the_last() -> None:
    record = hand_record()
    del record["deals"][0]["moves"][17:]
    with pytest.raises(ReplayError) as e:
        replay(record)
    assert str(e.value) == "deal 1: the record ends the deal after move 17, before it is over"
    record["deals"][0]["moves"] = []
    with pytest.raises(ReplayError, match=r"^deal 1: the record ends the deal with no moves"):
        replay(record)
    # as the last deal it is a game in progress
    record = hand_record()
    del record["deals"][1]["moves"][17:]
    result = replay(record)
    assert result.to_json()["scores"] == [0, 200, 0] and result.winner is None


def test_deals_after_the_game_ended() -> None:
    game = random_game(Rules.preset_rules("classic", max_deals=2), seed=1)
    record = game_to_record(game)
    n = len(record["deals"])
    record["deals"].append(copy.deepcopy(record["deals"][0]))
    with pytest.raises(ReplayError) as e:
        replay(record)
    assert str(e.value) == f"deal {n + 1}: the game was already over after deal {n}"


def test_redeal_deal_is_a_row_and_the_same_dealer_deals_again() -> None:
    """RULES §6: after a redeal the same dealer deals; the row has declarer/contract null."""
    record = hand_record()
    record["rules"] = {"preset": "classic", "redeal_four_nines": True}
    four_nines = {
        "hands": [
            ["AS", "TS", "KS", "QS", "AC", "TC", "KC"],
            ["9S", "9C", "9D", "9H", "JS", "JC", "JD"],
            ["AD", "TD", "KD", "QD", "AH", "TH", "KH"],
        ],
        "talon": ["QC", "QH", "JH"],
        "moves": ["redeal"],
    }
    record["deals"].insert(0, four_nines)
    result = replay(record)
    out = result.to_json()
    assert out["deals"][0] == {"declarer": None, "contract": None, "points": [0, 0, 0],
                               "scores": [0, 0, 0]}
    assert out["scores"] == [200, 200, -100]
    assert [s.dealer for s in result.summaries] == [0, 0, 1]
    # Without the redeal rule the same move is illegal.
    record["rules"] = "classic"
    with pytest.raises(ReplayError, match=r"^deal 1, move 1: redeal: you are not entitled"):
        replay(record)


def test_replay_accepts_a_loaded_record_and_a_dict() -> None:
    loaded = load_record(HAND_RECORD)
    assert isinstance(loaded, Record)
    assert replay(loaded).scores == replay(HAND_RECORD).scores == (200, 200, -100)
    assert loaded.to_json()["deals"][1]["moves"] == HAND_RECORD["deals"][1]["moves"]


def test_settlement_in_the_output_only_for_a_finished_game() -> None:
    rules = Rules.preset_rules("dealer-opens", max_deals=3)
    done = random_game(rules, seed=3)
    out = replay(game_to_record(done)).to_json()
    assert out["settlement"] == done.settlement()
    assert out["settlement"][out["winner"]] == 0
    going = random_game(rules, seed=3, stop_after=30)
    assert "settlement" not in replay(game_to_record(going)).to_json()


# -------------------------------------------------------------------- the sheet


def _marks(game: Game, lang: str = "ru") -> list[tuple[int, int, str, str]]:
    """Every mark of the sheet: (row number, seat, words, short note)."""
    from thousand.words.sheet import score_sheet

    return [(r.number, seat, m.text, m.code)
            for r in score_sheet(game, lang).rows
            for seat, c in enumerate(r.cells) for m in c.marks]


def test_sheet_marks_barrel_bolts_and_sitting() -> None:
    """Боря starts at 700: his +200 takes him to 900, capped to 880 on the barrel; Аня and
    Вова bolt (bolts counted: ``bolts=every_3rd``).  In deal 2 he sits (a defender's score
    is not recorded on the barrel).  The drawn sheet writes the marks as short notes (Б↑,
    б1, Б1) and says under it what they mean."""
    game = hand_game(Rules(bolts="every_3rd"), scores=(0, 700, 0))
    assert game.scores == (200, 880, -100)
    marks = _marks(game)
    assert (1, 1, "на бочке", "Б↑") in marks
    assert (1, 0, "болт 1", "б1") in marks and (1, 2, "болт 1", "б1") in marks
    assert (2, 1, "бочка 1/3", "Б1") in marks
    assert not [m for m in marks if m[2] == "болт 2"]  # no bolt on the barrel
    text = sheet_text(game)
    row1, row2 = (line for line in text.splitlines() if line.strip()[:1] in ("1", "2"))
    assert "880 +180 Б↑" in row1 and "б1" in row1
    assert "880 Б1" in row2 and "880 +" not in row2
    legend = " ".join(text.split())
    assert "Б↑ сел на бочку" in legend and "бк к-й болт" in legend
    assert "Бк к-я раздача на бочке" in legend
    en = sheet_text(game, "en")
    assert "B↑ climbed on the barrel" in " ".join(en.split())
    assert "bk the k-th bolt" in " ".join(en.split())
    assert [m[2] for m in _marks(game, "en") if m[1] == 1] == ["on the barrel", "barrel 1/3"]
    assert "Игра продолжается." in text and "The game goes on." in en


def test_classic_sheet_marks_no_bolts() -> None:
    """The classic game counts no bolts: a defender without a trick gets no mark."""
    game = hand_game(Rules(), scores=(0, 700, 0))
    assert game.scores == (200, 880, -100)
    assert not [m for m in _marks(game) if "болт" in m[2]]
    assert "болт" not in sheet_text(game)


def test_sheet_marks_penalties_dark_and_golden() -> None:
    bolts = Rules(bolts="every_3rd")
    game = Game(bolts, ["Аня", "Боря", "Вова"], 0, auto_deal=False)
    game.seats[0].bolts = 2
    deal = HAND_RECORD["deals"][0]
    game.start_deal([mask_of(parse_cards(h)) for h in deal["hands"]],
                    mask_of(parse_cards(deal["talon"])))
    for text in deal["moves"]:
        game.apply(mv.parse_move(text))
    assert game.scores == (-120, 200, 0)
    assert (1, 0, "штраф за болты -120", "б!") in _marks(game)
    assert (1, 0, "bolt penalty -120", "b!") in _marks(game, "en")
    assert "б! штраф за болты" in sheet_text(game)

    golden = hand_game(Rules(golden_deals=True), deals=0)
    first = HAND_RECORD["deals"][0]
    golden.start_deal([mask_of(parse_cards(h)) for h in first["hands"]],
                      mask_of(parse_cards(first["talon"])))
    for text in first["moves"][5:]:  # no auction in a golden deal
        golden.apply(mv.parse_move(text))
    assert golden.scores == (0, 400, 0)
    assert "200з" in sheet_text(golden) and "з золотой кон" in sheet_text(golden)

    dark = hand_game(Rules(dark=True), deals=0)
    dark.start_deal([mask_of(parse_cards(h)) for h in first["hands"]],
                    mask_of(parse_cards(first["talon"])))
    for text in ["dark", "pass", "pass", *first["moves"][5:7], "contract 120",
                 *first["moves"][8:]]:
        dark.apply(mv.parse_move(text))
    assert dark.scores == (0, 240, 0)
    assert "120т" in sheet_text(dark) and "т тёмная" in sheet_text(dark)
    assert "120d" in sheet_text(dark, "en") and "d dark" in sheet_text(dark, "en")
    # ... and the record of the dark deal never writes "look"
    assert game_to_record(dark)["deals"][0]["moves"][:3] == ["dark", "pass", "pass"]


def test_sheet_redeal_row_and_footer() -> None:
    record = hand_record()
    record["rules"] = {"preset": "classic", "redeal_four_nines": True, "settlement": True,
                       "max_deals": 2}
    record["deals"].insert(0, {
        "hands": [
            ["AS", "TS", "KS", "QS", "AC", "TC", "KC"],
            ["9S", "9C", "9D", "9H", "JS", "JC", "JD"],
            ["AD", "TD", "KD", "QD", "AH", "TH", "KH"],
        ],
        "talon": ["QC", "QH", "JH"],
        "moves": ["redeal"],
    })
    game = replay(record).game
    assert game.over and game.winner == [0, 1]
    text = sheet_text(game)
    # the redeal row and the deal dealt again carry one number: the table's "Раздача 1"
    rows = [line.split() for line in text.splitlines() if line.strip()[:1].isdigit()]
    assert [r[0] for r in rows] == ["1", "1", "2"]
    assert rows[0][1:3] == ["Боря", "—"] and rows[0][3] == "П"
    assert "П пересдача: карты сдали заново, у раздачи тот же номер" in " ".join(text.split())
    assert "Победу делят: Аня, Боря" in text
    assert "Расчёт нет" not in text and "Расчёта нет: победа общая." in text
    assert sheet_footer(game, "en") == ["Shared win: Аня, Боря",
                                        "No settlement: the win is shared."]


def test_sheet_footer_winner_and_settlement() -> None:
    game = random_game(Rules.preset_rules("dealer-opens", max_deals=3), seed=3)
    assert isinstance(game.winner, int)
    owed = game.settlement()
    assert owed is not None
    lines = sheet_footer(game, "ru")
    assert lines[0] == f"Победитель — {game.names[game.winner]}"
    for seat, amount in enumerate(owed):
        if amount:
            assert f"{game.names[seat]} платит {amount}" in lines[1]
    you = Game(game.rules, ["Вы", *game.names[1:]], game.first_dealer, auto_deal=False)
    you.over, you.winner = True, 0
    assert sheet_footer(you, "ru")[0] == "Вы победили"
    assert sheet_footer(you, "en")[0] == "You won"
    with pytest.raises(ValueError, match="lang"):
        render_sheet(game, "de")


# ---------------------------------------------------------------------- the CLI


def _app() -> typer.Typer:
    """``thousand`` with only ``replay`` in it, kept a group, independent of the
    other command modules."""
    from thousand.cli import replay_cmd

    app = typer.Typer()
    app.callback()(lambda: None)
    app.command("replay")(replay_cmd.replay_command)
    return app


def _run(*args: str) -> tuple[int, str, str]:
    result = CliRunner(env={"COLUMNS": "200"}).invoke(_app(), ["replay", *args])
    return result.exit_code, result.stdout, result.stderr


def _write(tmp_path: Path, record: Any, name: str = "game.json") -> str:
    path = tmp_path / name
    text = record if isinstance(record, str) else json.dumps(record, ensure_ascii=False)
    path.write_text(text, encoding="utf-8")
    return str(path)


def test_cli_json_output(tmp_path: Path) -> None:
    code, out, err = _run(_write(tmp_path, HAND_RECORD), "--json")
    assert code == 0 and err == ""
    assert json.loads(out) == replay(HAND_RECORD).to_json()


def test_cli_sheet_in_both_languages(tmp_path: Path) -> None:
    path = _write(tmp_path, HAND_RECORD)
    code, out, _ = _run(path)
    assert code == 0
    assert "Запись — классика" in out and "✓ заказ сыгран" in out and "-100 -100" in out
    assert "✗ заказ не сыгран" in out
    code, out, _ = _run(path, "--lang", "en")
    assert code == 0 and "Score sheet — classic" in out and "✗ contract failed" in out
    code, _, err = _run(path, "--lang", "de")
    assert code == 2 and err.strip() == "error: lang: 'de' is not allowed; use ru or en"


def test_cli_illegal_move_is_one_line_and_status_1(tmp_path: Path) -> None:
    record = hand_record()
    # deal 2, trick 3: Вова leads 9C, Аня plays AC, and Боря, holding KC QC, plays KD
    record["deals"][1]["moves"][14] = "KD"
    code, out, err = _run(_write(tmp_path, record), "--json")
    assert code == 1 and out == ""
    assert err == "deal 2, move 15: KD: you must follow clubs\n"


@pytest.mark.parametrize(
    ("content", "start"),
    [
        ("not json", "error: {path}: not JSON:"),
        ("[]", "error: {path}: a record must be a JSON object"),
        ('{"rules": "classic"}', 'error: {path}: the record has no "players"'),
        ('{"rules": "nope", "players": [], "first_dealer": 0, "deals": []}',
         "error: {path}: rules: unknown preset 'nope'"),
    ],
)
def test_cli_malformed_file_is_status_2(tmp_path: Path, content: str, start: str) -> None:
    path = _write(tmp_path, content)
    code, out, err = _run(path)
    assert code == 2 and out == ""
    assert err.startswith(start.format(path=path))
    assert err.count("\n") == 1 and "Traceback" not in err


def test_cli_missing_file_and_directory(tmp_path: Path) -> None:
    code, _, err = _run(str(tmp_path / "nope.json"))
    assert code == 2 and err == f"error: {tmp_path / 'nope.json'}: no such file\n"
    code, _, err = _run(str(tmp_path))
    assert code == 2 and err.startswith(f"error: {tmp_path}: ")


def test_cli_reads_stdin() -> None:
    result = CliRunner().invoke(_app(), ["replay", "-", "--json"],
                                input=json.dumps(HAND_RECORD))
    assert result.exit_code == 0
    assert json.loads(result.stdout)["scores"] == [200, 200, -100]


def test_installed_command_exit_statuses(tmp_path: Path) -> None:
    """The real ``thousand`` entry point: 0, 1 and 2, one line on stderr."""
    exe = Path(sys.executable).parent / "thousand"
    if not exe.exists():
        needs.need("the thousand script", f"no {exe}: install the package (./run test does)")
    good = _write(tmp_path, HAND_RECORD, "good.json")
    bad = hand_record()
    bad["deals"][0]["moves"][9] = "9C"
    illegal = _write(tmp_path, bad, "illegal.json")
    broken = _write(tmp_path, "{", "broken.json")

    def run(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run([str(exe), "replay", *args], capture_output=True, text=True,
                              timeout=60, check=False)

    ok = run(good, "--json")
    assert ok.returncode == 0 and json.loads(ok.stdout)["scores"] == [200, 200, -100]
    sheet = run(good, "--lang", "en")
    assert sheet.returncode == 0 and "Score sheet" in sheet.stdout
    one = run(illegal)
    assert one.returncode == 1 and one.stderr == "deal 1, move 10: 9C: you must follow spades\n"
    two = run(broken)
    assert two.returncode == 2 and two.stderr.startswith(f"error: {broken}: not JSON")
    assert "Traceback" not in two.stderr


# ------------------------------------------------- format, hostile JSON, limits, the cut


def test_format_version_is_written_and_checked() -> None:
    """``"format": 1`` is written; a record without it is format 1; others are refused."""
    record = game_to_record(random_game(Rules.preset_rules("classic", max_deals=2), seed=2))
    assert record["format"] == 1
    assert dumps_record(record).startswith('{\n  "format": 1,\n')
    assert load_record(record).to_json()["format"] == 1
    del record["format"]
    assert replay(record).finished
    for value, message in [(2, "format: 2 is not supported; this version of thousand reads "
                               "format 1"),
                           ("1", 'format: "1" is not a format number'),
                           (1.0, "format: 1.0 is not a format number"),
                           (True, "format: true is not a format number")]:
        with pytest.raises(RecordError) as e:
            load_record({"format": value, **record})
        assert str(e.value).startswith(message)


_TEXT = json.dumps(HAND_RECORD, ensure_ascii=False)


@pytest.mark.parametrize(
    ("source", "message"),
    [
        (_TEXT[:-1] + ', "deals": []}', "not a record: the key 'deals' is written twice"),
        (_TEXT.replace('"first_dealer": 0', '"first_dealer": NaN'),
         "not a record: NaN is not a JSON number"),
        (_TEXT.replace('"first_dealer": 0', '"first_dealer": ' + "7" * 4400),
         "not a record: a number of 4400 digits"),
        (_TEXT.replace('"rules": "classic"', '"rules": ' + "[" * 1000 + "]" * 1000),
         "not a record: nested deeper than 16 levels"),
        (_TEXT.encode("utf-16"), "not UTF-8 text: byte 0xff at offset 0"),
        (" " * 10_000_001, "not a record: larger than 10 MB"),
        (_TEXT.replace('"100"', '"' + "1" * 5000 + '"', 1), "deal 1, move 1: '1111"),
        (_TEXT.replace('"Боря"', '"\\u001b[2J"'), "players: the name of seat 1 holds the "
                                                  "control character U+001B"),
    ],
    ids=["duplicate", "nan", "digits", "deep", "utf-16", "size", "long move", "control"],
)
def test_hostile_json_is_a_short_record_error(source: str | bytes, message: str) -> None:
    with pytest.raises(RecordError) as e:
        load_record(source)
    assert str(e.value).startswith(message)
    assert "\n" not in str(e.value) and len(str(e.value)) <= 300


def test_a_record_holds_at_most_2000_deals() -> None:
    record = hand_record()
    record["deals"] = [record["deals"][0]] * 2001
    with pytest.raises(RecordError, match=r"^deals: 2001 deals; a record holds at most 2000$"):
        load_record(record)


@pytest.mark.parametrize(
    ("cut", "deal"),
    [(["9S", "9D"], 1), (["9S", "9D", "9C", "9H"], 1), (["JD", "KS"], 1), (["KS", "9H"], 1),
     (["9S", "AD"], 1), (None, 2)],
    ids=["ends with a nine", "four nines", "after a jack", "two cards", "not in the talon",
         "missing"],
)
def test_impossible_cut_is_an_illegal_record(cut: list[str] | None, deal: int) -> None:
    """RULES §6: a cut the cut cannot produce makes the game illegal (exit 1)."""
    record = hand_record()
    record["rules"] = {"preset": "classic", "cut_nines": True}
    record["deals"][0]["cut"] = ["KS"] if cut is None else cut
    if cut is not None:
        record["deals"][1]["cut"] = ["JD"]
    load_record(record)  # the cards are cards: the file is a record
    with pytest.raises(ReplayError) as e:
        replay(record)
    assert str(e.value).startswith(f"deal {deal}: cut: ")
    assert (e.value.deal, e.value.move) == (deal, None)


def test_sheet_data_and_markup_in_names() -> None:
    """thousand.words.sheet is data without Rich; the drawn sheet shows names as written."""
    from thousand.words.sheet import score_sheet

    record = hand_record()
    record["players"] = ["[/]", "[bold]Б", "В[/i]"]
    game = replay(record).game
    sheet = score_sheet(game, "en")
    assert sheet.names == ("[/]", "[bold]Б", "В[/i]")
    assert [(r.number, r.declarer, r.contract, r.outcome) for r in sheet.rows] == [
        (1, "[bold]Б", "200", "made"), (2, "В[/i]", "100", "failed")]
    assert sheet.rows[0].cells[1].score == 200 and sheet.rows[0].cells[1].change == 200
    assert [m.text for m in sheet.rows[0].cells[0].marks] == []  # classic: no bolts
    text = sheet_text(game, "en")
    assert "[/]" in text and "[bold]Б" in text and "В[/i]" in text
    out = subprocess.run([sys.executable, "-c", "import sys, thousand.words.sheet; "
                          "print(any(m.startswith('rich') for m in sys.modules))"],
                         capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


def test_cli_speaks_the_chosen_language_and_names_players(tmp_path: Path) -> None:
    """``--lang ru``: every line of ``thousand replay`` in Russian — a missing file, a
    broken record, an illegal move; whose turn it was is said by the player's name (never
    "seat 2"), in either language.  Without ``--lang`` the error lines stay English."""
    code, _, err = _run(str(tmp_path / "nope.json"), "--lang", "ru")
    assert code == 2 and err == f"ошибка: {tmp_path / 'nope.json'}: такого файла нет\n"
    broken = _write(tmp_path, "[]", "broken.json")
    code, _, err = _run(broken, "--lang", "ru")
    assert code == 2 and err.startswith(f"ошибка: {broken}: это не запись партии (")
    record = hand_record()
    record["deals"][1]["moves"][4] = "120"  # deal 2: Вова, the declarer, is to give a card
    path = _write(tmp_path, record, "wrong.json")
    code, _, err = _run(path, "--lang", "ru")
    assert code == 1
    assert err == "раздача 2, ход 5: 120: 120 сейчас невозможно: очередь Вовы — отдать карту\n"
    code, _, err = _run(path, "--lang", "en")
    assert err == "deal 2, move 5: 120: 120 is not possible now: Вова to give a card\n"
    code, _, err = _run(path)
    assert err.startswith("deal 2, move 5: 120: ") and "seat" not in err
    record["deals"][1]["moves"][4] = "9C"
    code, _, err = _run(_write(tmp_path, record, "card.json"), "--lang", "ru")
    assert code == 1 and err.startswith("раздача 2, ход 5: 9♣: ")


def test_verify_speaks_russian(tmp_path: Path) -> None:
    """``thousand verify --lang ru``: a line per deal and the verdict in Russian."""
    from thousand.engine.table import Table

    table = Table(Rules(max_deals=2), ["Аня", "Боря", "Вова"], seed=3)
    bots = [HeuristicBot(s) for s in range(3)]
    while not table.over:
        seat = table.to_move
        assert seat is not None
        table.submit(seat, mv.move_str(checked_choice(bots[seat], table.view(seat))),
                     table.version)
    path = _write(tmp_path, table.to_record(), "table.json")
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        code = run(["verify", path, "--lang", "ru"])
    assert code == 0
    lines = out.getvalue().splitlines()
    assert lines[0].startswith("раздача 1: карты совпадают с обещанными")
    assert lines[-1] == f"{path}: все раздачи подтверждены (2)"
