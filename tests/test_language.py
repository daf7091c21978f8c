"""The language of every message: one catalogue (thousand.words.catalogue) for the terminal and the
browser, in Russian and English, spoken to the player in the second person, with names
declined in Russian and counts agreed; the score sheet that fits 80 columns; the rules
command without identifiers; ``thousand --version``.

Whole games of every preset are played through :class:`thousand.engine.table.Table` (random and
heuristic bots), every event is worded in both languages for several tables of players —
the person called "Вы"/"You", names of both genders (Аня, Маша, Боря, Вова, Саша), or the
reader's own seat given as ``reader_seat`` — and so is every refusal the table gave on the
way (the illegal-move catalogue) and every phrase of the terminal's story.  The checks
read the lines as a person would: no «Вы берёт», «Играет Вы», «Победил: Вы», "You takes";
«отдаёт … Боре», «у Ани», «Борю сталкивают»; «1 очко, 2 очка, 5 очков»; no "seat 0".
"""

from __future__ import annotations

import io
import random
import re
from collections.abc import Iterator, Sequence
from typing import Any

import pytest
from rich.console import Console

from thousand.bots import checked_choice, make_bot
from thousand.cli import run
from thousand.engine import moves as mv
from thousand.engine.game import Game
from thousand.engine.rules import PRESET_NAMES, Rules
from thousand.engine.table import Table, TableError
from thousand.terminal.i18n import T
from thousand.terminal.sheet_view import SHEET_WIDTH, render_sheet
from thousand.words.catalogue import EVENTS, ILLEGAL, PHRASES, event_key, event_text, illegal_text
from thousand.words.grammar import declined, plural, render

# --------------------------------------------------------------------------- the people

#: The names in each case, written out by hand (pymorphy3 must agree with them).
FORMS: dict[str, dict[str, str]] = {
    "Аня": {"gen": "Ани", "dat": "Ане", "acc": "Аню", "ins": "Аней"},
    "Маша": {"gen": "Маши", "dat": "Маше", "acc": "Машу", "ins": "Машей"},
    "Боря": {"gen": "Бори", "dat": "Боре", "acc": "Борю", "ins": "Борей"},
    "Вова": {"gen": "Вовы", "dat": "Вове", "acc": "Вову", "ins": "Вовой"},
    "Саша": {"gen": "Саши", "dat": "Саше", "acc": "Сашу", "ins": "Сашей"},
}
YOU_RU = {"gen": "вас", "dat": "вам", "acc": "вас", "ins": "вами"}
FEMALE = ("Аня", "Маша")

#: Tables of players: the person as "Вы"/"You" in different seats, both genders.
TABLES_3: tuple[tuple[str, ...], ...] = (
    ("Вы", "Аня", "Боря"),
    ("Маша", "Вы", "Саша"),
    ("Вова", "Маша", "Вы"),
    ("Аня", "Боря", "Вова"),
)
TABLES_4: tuple[tuple[str, ...], ...] = (
    ("Вы", "Аня", "Боря", "Маша"),
    ("Саша", "Вова", "Вы", "Аня"),
    ("Аня", "Маша", "Боря", "Вова"),
)


def _for_lang(names: Sequence[str], lang: str) -> list[str]:
    return [("You" if n == "Вы" else n) if lang == "en" else n for n in names]


# --------------------------------------------------------------------------- the games


def _bots(n: int, seed: int) -> list[Any]:
    levels = ["heuristic", "random", "heuristic", "random"]
    return [make_bot(levels[(s + seed) % 4], seed=seed * 10 + s) for s in range(n)]


_TRIES = ("pass", "dark", "look", "redeal", "concede", "buy", "contract 100", "100", "95",
          "107", "300", "give 9S", "discard 9S", "AS", "KH+", "QS+", "AH+", "9C+")


def _whole_game(preset: str, seed: int, max_deals: int = 14
                ) -> tuple[list[dict[str, Any]], list[dict[str, Any]], Table]:
    """A game of ``preset`` through a Table: its events, and the refusals the table gave
    to moves tried on the way (illegal moves of every phase, another seat's turn)."""
    rules = Rules.preset_rules(preset, max_deals=max_deals)
    table = Table(rules, [f"p{s}" for s in range(rules.players)], seed=seed)
    bots = _bots(rules.players, seed)
    rng = random.Random(seed)
    refusals: list[dict[str, Any]] = []
    step = 0
    while not table.over:
        seat = table.to_move
        assert seat is not None
        if step % 3 == 0:
            for text in rng.sample(_TRIES, 4):
                try:
                    table.submit(seat, text, table.version)
                except TableError as e:
                    refusals.append({"error": e.code, **e.params})
                    continue
                break  # a legal move after all: the game goes on from there
            else:
                other = (seat + 1) % rules.players
                try:
                    table.submit(other, "pass", table.version)
                except TableError as e:
                    refusals.append({"error": e.code, **e.params})
        if table.over:
            break
        seat = table.to_move
        assert seat is not None
        table.submit(seat, mv.move_str(checked_choice(bots[seat], table.view(seat))),
                     table.version)
        step += 1
    return list(table.log), refusals, table


@pytest.fixture(scope="module")
def games() -> dict[str, tuple[list[dict[str, Any]], list[dict[str, Any]], Table]]:
    out = {}
    for i, preset in enumerate(PRESET_NAMES):
        events, refusals, table = _whole_game(preset, seed=11 + i)
        more_events, more_refusals, _ = _whole_game(preset, seed=40 + i, max_deals=8)
        out[preset] = (events + more_events, refusals + more_refusals, table)
    return out


#: Events of the kinds a short game seldom reaches, to word every line of the catalogue.
SYNTHETIC: list[dict[str, Any]] = [
    {"type": "deal_started", "number": 3, "dealer": 0, "opener": 1, "active": [0, 1, 2],
     "golden": True},
    {"type": "deal_started", "number": 4, "dealer": 2, "opener": 2, "active": [0, 1, 2],
     "golden": True},
    {"type": "cut", "cards": ["9S", None]},
    {"type": "declarer", "seat": 1, "bid": 120, "dark": True, "golden": False},
    {"type": "declarer", "seat": 2, "bid": 120, "dark": False, "golden": True},
    {"type": "talon", "seat": 1, "cards": None},
    {"type": "buy", "seat": 2, "seller": 1, "price": 240},
    {"type": "buy", "seat": 0, "seller": 2, "price": 120},
    {"type": "buy", "seat": 1, "seller": 0, "price": 120},
    {"type": "pass", "seat": 0, "phase": "buy"},
    {"type": "pass", "seat": 0, "phase": "redeal offer"},
    {"type": "redeal", "seat": 0, "phase": "auction"},
    {"type": "dark", "seat": 0, "value": 120},
    {"type": "look", "seat": 0},
    {"type": "concede", "seat": 0, "contract": 120},
    {"type": "declaration", "seat": 0, "kind": "half_marriage", "suit": "H", "points": 50,
     "trump": "H"},
    {"type": "declaration", "seat": 1, "kind": "ace_marriage", "suit": "S", "points": 200,
     "trump": None},
    {"type": "declaration", "seat": 2, "kind": "four_nines", "suit": "C", "points": 200,
     "trump": None},
    {"type": "trick", "winner": 0, "leader": 1, "points": 1,
     "cards": [{"seat": 1, "card": "9D"}, {"seat": 2, "card": "JD"}]},
    {"type": "trick", "winner": 1, "leader": 1, "points": 22,
     "cards": [{"seat": 1, "card": "TH"}, {"seat": 2, "card": "AH"}]},
    {"type": "deal_scored", "number": 4, "dealer": 1, "outcome": "redeal", "declarer": None,
     "redeal_by": 0, "changes": [0, 0, 0], "scores": [10, 20, 30]},
    {"type": "deal_scored", "number": 4, "dealer": 1, "outcome": "redeal", "declarer": None,
     "redeal_by": 2, "changes": [0, 0, 0], "scores": [10, 20, 30]},
    {"type": "deal_scored", "number": 5, "dealer": 1, "outcome": "conceded", "declarer": 0,
     "contract": 120, "changes": [-120, 60, 60], "scores": [0, 80, 90]},
    {"type": "deal_scored", "number": 5, "dealer": 1, "outcome": "played", "declarer": 1,
     "contract": 120, "made": True, "points": [21, 121, 0], "changes": [20, 120, 0],
     "scores": [0, 80, 90]},
    {"type": "deal_scored", "number": 5, "dealer": 1, "outcome": "played", "declarer": 2,
     "contract": 125, "made": False, "points": [21, 98, 1], "changes": [20, 100, -125],
     "scores": [0, 80, 90]},
    {"type": "barrel_on", "seat": 0, "amount": 0},
    {"type": "fall", "seat": 1, "amount": -120},
    {"type": "knocked_off", "seat": 0, "amount": -120},
    {"type": "knocked_off", "seat": 1, "amount": -120},
    {"type": "barrel_timeout", "seat": 0, "amount": -120},
    {"type": "barrel_timeout", "seat": 2, "amount": -120},
    {"type": "bolt", "seat": 0, "amount": 0},
    {"type": "bolt", "seat": 1, "amount": 0},
    {"type": "penalty", "seat": 0, "amount": -120, "reason": "cut"},
    {"type": "penalty", "seat": 1, "amount": -120, "reason": "bolt"},
    {"type": "penalty", "seat": 2, "amount": -120, "reason": "concede"},
    {"type": "penalty", "seat": 0, "amount": -120, "reason": "redeal"},
    {"type": "samosval", "seat": 0, "amount": -555},
    {"type": "samosval", "seat": 2, "amount": -555},
    {"type": "bolt_samosval", "seat": 1, "amount": -300},
    {"type": "bolt_samosval", "seat": 0, "amount": -300},
    {"type": "fall_reset", "seat": 0, "amount": -760},
    {"type": "golden_restart", "seat": None, "amount": 0},
    {"type": "penalty", "seat": 1, "amount": -120, "reason": "other"},
    {"type": "deal_scored", "number": 6, "dealer": 1, "outcome": "played", "declarer": None,
     "changes": [0, 0, 0], "scores": [0, 80, 90]},
    {"type": "game_over", "winner": 0, "scores": [1000, 500, 200], "settlement": [0, 500, 800]},
    {"type": "game_over", "winner": 2, "scores": [1000, 500, 1005], "settlement": None},
    {"type": "game_over", "winner": [0, 1], "scores": [1000, 1000, 200], "settlement": None},
]


# --------------------------------------------------------------------------- the checks

_RU_VERB_3 = r"\w+(?:ет|ёт|ит|ат|ят)"


def ru_problems(text: str) -> list[str]:
    """What is wrong with a Russian line, as a reader would notice it."""
    out = []
    if re.search(rf"\b[Вв]ы\s+{_RU_VERB_3}\b", text):
        out.append("«Вы» with a verb of the third person")
    if re.search(rf"\b{_RU_VERB_3}\s+[Вв]ы\b", text):
        out.append("a verb of the third person before «Вы»")
    if re.search(r"\b\w+л:?\s+[Вв]ы\b|\b[Вв]ы\s+\w+л\b", text):
        out.append("«Вы» with a verb in the singular past")
    if re.search(rf"\b(?:{'|'.join(FEMALE)})\s+\w+л\b", text):
        out.append("a woman's name with a masculine past tense")
    if "должен" in text:
        out.append("«должен»: a gender the text cannot know")
    for about, n, word in re.findall(r"(около )?−?(\d+) (очко|очка|очков)\b", text):
        forms = ("очка", "очков", "очков") if about else ("очко", "очка", "очков")
        if word != _ru_plural(int(n), forms):
            out.append(f"«{about}{n} {word}»")
    for n, word in re.findall(r"из (\d+) (пробного расклада|пробных раскладов)", text):
        want = "пробного расклада" if int(n) % 10 == 1 and int(n) % 100 != 11 else (
            "пробных раскладов")
        if word != want:
            out.append(f"«из {n} {word}»")
    return out


def _ru_plural(n: int, forms: Sequence[str]) -> str:
    if n % 10 == 1 and n % 100 != 11:
        return forms[0]
    if n % 10 in (2, 3, 4) and n % 100 not in (12, 13, 14):
        return forms[1]
    return forms[2]


def en_problems(text: str) -> list[str]:
    out = []
    for word in re.findall(r"\b[Yy]ou\s+(\w+)", text):
        if word in ("is", "has", "was", "does") or (
            word.endswith("s") and not word.endswith("ss")
        ):
            out.append(f'"you {word}"')
    if re.search(r"\bWinner:\s+You\b|\b\w+s\s+You\b", text):
        out.append('"You" as a third person')
    for n, word in re.findall(r"\b(\d+) (points?)\b", text):
        if (int(n) == 1) != (word == "point"):
            out.append(f'"{n} {word}"')
    return out


def problems(text: str, lang: str) -> list[str]:
    out = ru_problems(text) if lang == "ru" else en_problems(text)
    if "{" in text or "}" in text or "None" in text:
        out.append("a template mark left")
    if re.search(r"\b(?:игрок|seat) \d", text):
        out.append("a seat number instead of a name")
    return out


#: Where a line must name a seat in a case: event key -> (field, case).
CASED: dict[str, tuple[str, str]] = {
    "give": ("to_seat", "dat"),
    "give:hidden": ("to_seat", "dat"),
    "buy": ("seller", "gen"),
    "hand": ("seat", "gen"),
    "knocked_off": ("seat", "acc"),
    "barrel_timeout": ("seat", "gen"),
    "bolt": ("seat", "gen"),
    "penalty": ("seat", "dat"),
    "penalty:bolt": ("seat", "dat"),
    "penalty:concede": ("seat", "dat"),
    "penalty:redeal": ("seat", "dat"),
    "penalty:cut": ("seat", "dat"),
    "samosval": ("seat", "gen"),
    "bolt_samosval": ("seat", "gen"),
    "fall_reset": ("seat", "gen"),
    "deal_scored:made": ("declarer", "gen"),
    "deal_scored:failed": ("declarer", "gen"),
}


def check_cases(event: dict[str, Any], text: str, names: Sequence[str],
                reader: int | None) -> None:
    key = event_key(event)
    if key not in CASED:
        return
    field, case = CASED[key]
    seat = event.get(field)
    if not isinstance(seat, int):
        return
    name = names[seat]
    if seat == reader or name == "Вы":
        low = text.lower()
        assert YOU_RU[case] in low or (case == "gen" and "ваш" in low), (text, case)
    elif name in FORMS:
        assert FORMS[name][case] in text, (text, name, case)


def _lines(events: Sequence[dict[str, Any]], lang: str, n: int = 3
           ) -> Iterator[tuple[dict[str, Any], str, Sequence[str], int | None]]:
    """Every event worded for every table of ``n`` players, and for each seat as the
    reader."""
    for event in events:
        for names in (TABLES_4 if n == 4 else TABLES_3):
            shown = _for_lang(names, lang)
            yield event, event_text(event, lang, shown), shown, None
        plain = TABLES_4[-1] if n == 4 else TABLES_3[-1]
        for reader in range(n):
            yield event, event_text(event, lang, plain, reader), plain, reader


# --------------------------------------------------------------------------- the tests


def test_names_are_declined_by_pymorphy3() -> None:
    """Names are declined in Russian (dative «отдать Боре», genitive «ход Ани»,
    instrumental «с Машей»); a name pymorphy3 does not know as a first name stays as it
    is; the reader is a pronoun; English leaves names alone."""
    for name, forms in FORMS.items():
        for case, form in forms.items():
            assert declined(name, case) == form, (name, case)
    assert declined("Пётр", "gen") == "Петра" and declined("Алёна", "dat") == "Алёне"
    assert declined("Гена", "gen") == "Гены"  # a name first, not the gene
    for foreign in ("John", "Бот 1", "heuristic", "Анна-Мария", "[/]"):
        assert declined(foreign, "dat") == foreign
    assert declined("Вы", "dat") == "вам" and declined("Вы", "gen") == "вас"
    assert declined("Bob", "dat", "en") == "Bob" and declined("You", "acc", "en") == "you"
    assert render("отдать {to:dat}", "ru", to="Боря") == "отдать Боре"
    assert render("ход {who:gen}", "ru", who="Аня") == "ход Ани"
    assert render("{name:Сдаёт {name}|Сдаёте вы}", "ru", name="Вы") == "Сдаёте вы"


def test_counts_agree() -> None:
    """«1 расклад / 2 расклада / 5 раскладов», «из 271 пробного расклада»; English one/other."""
    forms = ("расклад", "расклада", "раскладов")
    assert [f"{n} {plural(n, forms)}" for n in (1, 2, 5, 11, 21, 22, 112, 271)] == [
        "1 расклад", "2 расклада", "5 раскладов", "11 раскладов", "21 расклад",
        "22 расклада", "112 раскладов", "271 расклад"]
    of = ("пробного расклада", "пробных раскладов", "пробных раскладов")
    assert render("из {n:#" + "|".join(of) + "}", "ru", n=271) == "из 271 пробного расклада"
    assert render("{n:#deal|deals}", "en", n=1) == "1 deal"
    assert render("{n:#deal|deals}", "en", n=3) == "3 deals"


@pytest.mark.parametrize("lang", ["ru", "en"])
def test_every_event_of_whole_games_reads_right(
    games: dict[str, tuple[list[dict[str, Any]], list[dict[str, Any]], Table]], lang: str
) -> None:
    """Every event of whole games of all five presets (and the rarer ones written out),
    for tables with "Вы"/"You" in each seat, names of both genders, and each seat as the
    reader: the second person agrees (no «Вы берёт», "You takes"), names are declined
    where the sentence needs a case, counts agree, no seat numbers, no template marks."""
    seen: set[str] = set()
    checked = 0
    for preset, (events, _, table) in games.items():
        lines = [*_lines(events, lang, table.rules.players), *_lines(SYNTHETIC, lang)]
        for event, text, names, reader in lines:
            seen.add(event_key(event))
            assert not problems(text, lang), (preset, event, text, problems(text, lang))
            if lang == "ru":
                check_cases(event, text, names, reader)
            checked += 1
    # every line of the catalogue was worded (but its pieces)
    assert set(EVENTS) - seen <= {"settlement", "settlement_item", "no_trump", "hidden_card"}
    assert checked > 1000


def test_the_reader_is_spoken_to() -> None:
    """The reader's own moments in the second person, in both languages."""
    give = {"type": "give", "seat": 0, "to_seat": 1, "card": "KS"}
    assert event_text(give, "ru", ["Вы", "Боря", "Аня"]) == "Вы отдаёте К♠ Боре."
    assert event_text(give, "ru", ["Аня", "Боря", "Вова"], reader_seat=1) == "Аня отдаёт К♠ вам."
    assert event_text(give, "en", ["You", "Bob", "Ann"]) == "You give K♠ to Bob."
    trick = {"type": "trick", "winner": 2, "leader": 0, "points": 21,
             "cards": [{"seat": 0, "card": "AS"}]}
    assert event_text(trick, "ru", ["Аня", "Боря", "Вы"]).startswith(
        "Вы берёте взятку (21 очко)")
    assert event_text(trick, "en", ["Ann", "Bob", "You"]).startswith(
        "You take the trick (21 points)")
    declarer = {"type": "declarer", "seat": 0, "bid": 110, "dark": False, "golden": False}
    assert event_text(declarer, "ru", ["Вы", "Аня", "Боря"]) == "Играете вы, ставка 110."
    assert event_text(declarer, "ru", ["Маша", "Аня", "Боря"]) == "Играет Маша, ставка 110."
    over = {"type": "game_over", "winner": 0, "scores": [1000, 10, 20], "settlement": None}
    assert "Вы победили" in event_text(over, "ru", ["Вы", "Аня", "Боря"])
    assert "You win" in event_text(over, "en", ["You", "Ann", "Bob"])
    knocked = {"type": "knocked_off", "seat": 1, "amount": -120}
    assert event_text(knocked, "ru", ["Аня", "Вы", "Боря"]).startswith("Вас сталкивают")
    assert event_text(knocked, "ru", ["Аня", "Саша", "Боря"]).startswith("Сашу сталкивают")


@pytest.mark.parametrize("lang", ["ru", "en"])
def test_every_refusal_of_whole_games_reads_right(
    games: dict[str, tuple[list[dict[str, Any]], list[dict[str, Any]], Table]], lang: str
) -> None:
    """Every refusal the table gave during the games (illegal moves of every phase), worded
    from the illegal-move catalogue with names: whose turn it is by name, declined («очередь
    Бори — сходить», «ваша очередь — отдать карту»), never «игрок 0 должен», "seat 0 to"."""
    codes: set[str] = set()
    # the table's refusal carries the engine's code and parameters
    found = 0
    for _, refusals, table in games.values():
        tables = TABLES_4 if table.rules.players == 4 else TABLES_3
        for refusal in refusals:
            if refusal["error"] != "illegal_move":
                continue
            found += 1
            code, params = str(refusal["code"]), dict(refusal["params"] or {})
            codes.add(code)
            for names in tables:
                shown = _for_lang(names, lang)
                text = illegal_text(code, params, lang, shown)
                assert not problems(text, lang), (code, params, text)
                if code == "wrong_phase" and lang == "ru":
                    seat = params["seat"]
                    want = ("ваша очередь" if names[seat] == "Вы"
                            else f"очередь {FORMS[names[seat]]['gen']}")
                    assert want in text, text
    assert found > 20 and "wrong_phase" in codes and len(codes) >= 6


def test_every_illegal_message_reads_right() -> None:
    """Every message of the illegal-move catalogue, with every reason it may carry, in
    both languages: no template mark left, no grammar slip."""
    from thousand.words.catalogue import REASONS, TASKS

    sample: dict[str, object] = {"card": "KS", "suit": "H", "led": "D", "min": 100,
                                 "step": 5, "next": 105, "cap": 120, "limit": -120, "bid": 110,
                                 "what": "pass"}
    for code in ILLEGAL:
        for why in REASONS:
            for task in TASKS:
                for seat in range(3):
                    params = {**sample, "why": why, "extra": why, "task": task, "seat": seat}
                    for lang in ("ru", "en"):
                        for names in TABLES_3:
                            text = illegal_text(code, params, lang, _for_lang(names, lang))
                            assert not problems(text, lang), (code, text)
                if code != "wrong_phase":
                    break


@pytest.mark.parametrize("lang", ["ru", "en"])
def test_every_phrase_of_the_terminal_reads_right(lang: str) -> None:
    """Every phrase of the table's story (thousand.words.catalogue.PHRASES, the terminal's
    lines) with the person as "Вы"/"You" and names of both genders in every role: agreed,
    declined."""
    roles = ("name", "to", "seller", "player", "cutter", "dealer")
    people = ["Вы", "Аня", "Боря", "Маша", "Вова", "Саша"]
    values = {"n": 3, "bid": 110, "cards": "К♠ Д♠", "card": "Т♥", "price": 240, "points": 21,
              "amount": -120, "old": 555, "score": 0, "penalty": 120, "items": "…",
              "names": "Аня, Боря", "what": "…", "reason": "…", "dark": "", "golden": "",
              "suit": "♥ черви"}
    for key in PHRASES:
        for i in range(len(people)):
            names = {role: people[(i + k) % len(people)] for k, role in enumerate(roles)}
            shown = {r: ("You" if v == "Вы" and lang == "en" else v) for r, v in names.items()}
            text = T(lang, key, **values, **shown)
            assert not problems(text, lang), (key, text)
            if lang == "ru" and key in ("gives", "gives_open", "you_give") and (
                    names["to"] in FORMS):
                assert FORMS[names["to"]]["dat"] in text, text
        for points in (1, 2, 5, 11, 21, 22):
            text = T(lang, key, **{**values, "points": points}, name="Аня")
            assert not problems(text, lang), (key, text)
    # the person's own moments: the phrase key with _you
    assert T("ru", "trick_you", n=2, cards="…", points=21) == "Взятка 2: … — ваша (21 очко)"
    assert T("en", "made_you", n=120, points=125) == "You make 120: 125 points."
    assert T("ru", "give_to", to="Боря") == "отдать Боре"
    assert T("ru", "not_your_turn", name="Аня") == "Сейчас ход Ани, не ваш."


@pytest.mark.parametrize("lang", ["ru", "en"])
def test_the_line_mode_tells_a_whole_game_in_the_second_person(lang: str) -> None:
    """The terminal game, played to the end by a person who always takes the first move of
    the list: every line it prints reads right (the person is "Вы"/"You")."""
    from thousand.terminal.session import TerminalGame

    for preset in ("house", "textbook"):
        rules = Rules.preset_rules(preset, max_deals=4)
        you = "Вы" if lang == "ru" else "You"
        names = [you, "Аня", "Боря", "Маша"][: rules.players]
        table = Table(rules, names, seed=5)
        bots = {s: make_bot("heuristic", seed=s) for s in range(1, rules.players)}
        out = io.StringIO()
        console = Console(file=out, width=200, color_system=None, highlight=False)
        game = TerminalGame(table, bots, human=0, console=console,
                            input_fn=lambda prompt: "1", lang=lang, show_seed=False)
        assert game.run() == 0
        text = out.getvalue()
        for line in text.splitlines():
            assert not problems(line, lang), line


def test_a_sixty_deal_house_game_sheet_fits_80_columns() -> None:
    """The score sheet of a 60-deal house game fits 80 columns: short notes for the marks
    (б3, Б↓, Р!) and a legend under the sheet saying what each means."""
    rules = Rules.preset_rules("house", max_deals=60)
    game = Game(rules, ["Вы", "Аня", "Боря"], seed=3)
    bots = [make_bot("random", seed=s) for s in range(3)]
    while not game.over:
        seat = game.to_move
        game.apply(checked_choice(bots[seat], game.view(seat)))
    assert len(game.summaries) >= 60
    for lang in ("ru", "en"):
        sheet = render_sheet(game, lang)
        console = Console(width=SHEET_WIDTH, file=io.StringIO(), color_system=None)
        assert console.measure(sheet).maximum <= SHEET_WIDTH
        console.print(sheet)
        out = console.file.getvalue()  # type: ignore[attr-defined]
        lines = out.splitlines()
        assert max(len(line.rstrip()) for line in lines) <= SHEET_WIDTH
        final = " ".join(str(s) for s in game.scores)
        last = [line for line in lines if line.strip().startswith(f"{rules.max_deals} ")
                or line.strip().startswith(f"{game.deals_played} ")]
        assert last and all(str(s) in last[-1] for s in final.split())
        legend = "Пометки:" if lang == "ru" else "Notes:"
        assert legend in out
        for line in lines:
            assert not problems(line, lang), line


def test_the_sheet_numbers_deals_as_the_table_does() -> None:
    """One numbering: a sheet row carries the number the table announced for its deal; a
    redeal row keeps the number of the deal dealt again after it, and the legend says what
    a redeal row is."""
    from thousand.words.sheet import score_sheet

    for preset, seed in (("house", 3), ("classic", 4)):
        rules = Rules.preset_rules(preset, max_deals=30)
        table = Table(rules, ["Вы", "Аня", "Боря"], seed=seed)
        bots = _bots(3, seed)
        while not table.over:
            s = table.to_move
            assert s is not None
            table.submit(s, mv.move_str(checked_choice(bots[s], table.view(s))), table.version)
        started = [e["number"] for e in table.log if e["type"] == "deal_started"]
        sheet = score_sheet(table.game, "ru")
        assert [r.number for r in sheet.rows] == started
        redeals = [i for i, r in enumerate(sheet.rows) if r.outcome == "redeal"]
        for i in redeals:
            assert sheet.rows[i + 1].number == sheet.rows[i].number
        if preset == "house":
            assert redeals, "house redeals on a weak talon: the seed should show one"
            assert any(note == "П" and "тот же номер" in meaning
                       for note, meaning in sheet.legend)


def test_bolt_marks_only_under_rules_that_count_bolts() -> None:
    """A defender who takes no trick is a bolt only where the rules count bolts: the
    classic sheet shows no «болт», the house sheet «б1»."""
    from thousand.engine.cards import mask_of, parse_cards
    from thousand.words.sheet import score_sheet

    hands = ["AS TS AC TC AD TD AH", "KS QS KC QC KD QD TH", "9S JS 9C JC 9D JD 9H"]
    for preset in ("classic", "house"):
        rules = Rules.preset_rules(preset, golden_deals=False, redeal_weak_talon=False,
                                   redeal_four_nines=False)
        game = Game(rules, ["Вы", "Аня", "Маша"], first_dealer=2, seed=1, auto_deal=False)
        game.start_deal([mask_of(parse_cards(h.split())) for h in hands],
                        mask_of(parse_cards(["KH", "QH", "JH"])))
        bots = [make_bot("heuristic", seed=s) for s in range(3)]
        while game.deal is not None and not game.deal.done:
            seat = game.to_move
            game.apply(checked_choice(bots[seat], game.view(seat)))
        assert game.summaries[-1].result.tricks.count(0) >= 1  # a defender took no trick
        sheet = score_sheet(game, "ru")
        kinds = {m.kind for r in sheet.rows for c in r.cells for m in c.marks}
        codes = {m.code for r in sheet.rows for c in r.cells for m in c.marks}
        if preset == "classic":
            assert "bolt" not in kinds and not any("болт" in x for _, x in sheet.legend)
        else:
            assert "bolt" in kinds and "б1" in codes


def test_hints_say_why_in_words() -> None:
    """Hints never show a move in record notation ("TC", "QH+"), never repeat the move
    they recommend, agree their counts, and a redeal says why in words."""
    from thousand.bots.search import SearchBot, SearchConfig
    from thousand.engine.cards import card_label

    tiny = SearchConfig(time_limit=None, min_samples=21, max_samples=21, exchange_cards=3,
                        bid_gives=1)
    bots = {"heuristic": make_bot("heuristic", seed=1), "search": SearchBot(1, tiny)}
    raw = re.compile(r"\b[9TJQKA][SCDH]\+?(?![\w♠♣♦♥])")
    for preset, seed in (("classic", 1), ("house", 2), ("textbook", 3)):
        rules = Rules.preset_rules(preset, max_deals=2)
        game = Game(rules, None, seed=seed)
        steps = 0
        while not game.over and steps < 60:
            view = game.view(game.to_move)
            for bot in bots.values():
                for lang in ("ru", "en"):
                    move, why = bot.explain(view, lang)
                    assert not raw.search(why), why
                    assert not problems(why, lang), why
                    if mv.is_card_play(move) or mv.is_give(move) or mv.is_discard(move):
                        label = card_label(mv.card_of(move), lang)
                        assert not why.startswith(label), why
            game.apply(checked_choice(bots["heuristic"], view))
            steps += 1


def test_version() -> None:
    """``thousand --version`` prints the version and exits 0."""
    from thousand import __version__

    out = io.StringIO()
    import contextlib

    with contextlib.redirect_stdout(out):
        code = run(["--version"])
    assert code == 0 and out.getvalue().strip() == f"thousand {__version__}"


# --------------------------------------------------------------------------- the command line


def _cli(args: list[str]) -> tuple[int, str, str]:
    """``thousand ARGS`` in this process: exit status, stdout, stderr."""
    from test_fuzz_replay import invoke

    code, out, err, _ = invoke(args)
    return code, out, err


_CYRILLIC = re.compile(r"[А-Яа-яЁё]")
#: English words a Russian error line or help must not hold (Click's and our catalogue's).
_ENGLISH = re.compile(
    r"\b(No such|Missing|Invalid|Usage|unexpected|requires|Possible|option|argument|"
    r"not allowed|unknown|cannot|choose|needs|Show this|default|for more|is a directory|"
    r"Permission|must|write it|OPTIONS|COMMAND|FILE)\b|\berror:")

USAGE_RU = [
    ["replay", "--lang", "ru"],
    ["replay", "--jsn", "game.json", "--lang", "ru"],
    ["replay", "a.json", "b.json", "--lang", "ru"],
    ["arena", "-n", "abc", "--lang", "ru"],
    ["arena", "--jobs", "²", "--lang=ru"],
    ["arena", "--seed", "1e9", "--lang", "ru"],
    ["arena", "--lang", "ru", "--seat"],
    ["play", "--seat", "x"],
    ["play", "--bogus"],
    ["play", "--open=1"],
    ["rules", "--bogus"],
    ["rules", "a", "b"],
    ["serve", "--port", "99999"],
    ["serve", "--bot-delay", "x"],
    ["verify", "--lang", "ru"],
    ["nosuch", "--lang", "ru"],
    ["--bogus", "--lang", "ru"],
]


@pytest.mark.parametrize("args", USAGE_RU, ids=[" ".join(a)[:40] for a in USAGE_RU])
def test_usage_errors_speak_russian(args: list[str]) -> None:
    """Issue 15: Click's usage errors (an unknown option, a missing argument, a bad number,
    an extra argument, an unknown command) come in Russian under ``--lang ru`` — or the
    command's own Russian default (``play``, ``rules``, ``serve``) — with the usage line
    in Russian too, and no English word."""
    code, out, err = _cli(args)
    assert code == 2 and out == "", err
    first, usage = err.splitlines()
    assert first.startswith("ошибка: ") and _CYRILLIC.search(first[8:]), err
    assert not _ENGLISH.search(first), first
    assert usage.startswith("Запуск: thousand") and not _ENGLISH.search(usage), usage


def test_usage_errors_stay_english_where_english_is_chosen() -> None:
    """``--lang en`` (and the English default of replay, verify and arena) keep Click's
    English for scripts."""
    code, _, err = _cli(["play", "--bogus", "--lang", "en"])
    assert code == 2 and err.startswith("error: No such option: --bogus")
    code, _, err = _cli(["replay", "--jsn", "x"])
    assert err.splitlines()[1].startswith("Usage: thousand replay")


COMMANDS = ["", "rules", "replay", "play", "arena", "verify", "serve", "tournament", "admin"]


@pytest.mark.parametrize("command", COMMANDS)
def test_every_command_has_russian_help(command: str) -> None:
    """Issue 15: ``thousand [COMMAND] --help --lang ru`` prints the help in Russian: the
    usage, what the command does, and every argument and option with a Russian line (an
    option added without one fails here)."""
    import typer.main

    from thousand.cli import _register, app
    from thousand.cli.words import HELP

    _register()
    group: Any = typer.main.get_command(app)
    click_command = group.commands[command] if command else group
    args = [command] if command else []
    code, out, err = _cli([*args, "--help", "--lang", "ru"])
    assert code == 0 and err == "", err
    assert out.startswith(f"Запуск: thousand {command}".rstrip()), out
    assert "Параметры:" in out and not _ENGLISH.search(out), out
    for param in click_command.params:
        assert HELP[command].get(param.name), (
            f"no Russian help for {command} {param.name}: add it to thousand.cli.words.HELP")
        if param.opts[0].startswith("-"):  # shown unless hidden, as Click's own help
            assert (param.opts[0] in out) != bool(getattr(param, "hidden", False))
        if param.help:
            assert param.help not in out
    assert HELP[command][""] in " ".join(out.split())


def test_the_russian_commands_give_russian_help_by_default() -> None:
    """``thousand play --help`` (Russian by default) is Russian; ``--lang en`` gives
    Typer's English; the English helps of arena and the root point to the Russian one."""
    code, out, _ = _cli(["play", "--help"])
    assert code == 0 and out.startswith("Запуск: thousand play")
    code, out, _ = _cli(["play", "--help", "--lang", "en"])
    assert code == 0 and "Usage: thousand play" in out and "Запуск" not in out
    for args in (["arena", "--help"], ["--help"]):
        code, out, _ = _cli(args)
        assert code == 0 and "--help --lang ru" in " ".join(out.split()), out


ERRORS_RU = [
    ["rules", "--set", "nosuch=1"],
    ["rules", "--set", "bid_stp=5"],
    ["rules", "--set", "bid_step=7"],
    ["rules", "--set", "novalue"],
    ["rules", "--set", "players=4", "--set", "first_bidder=dealer"],
    ["rules", "nosuch"],
    ["rules", "--explain", "nosuch"],
    ["arena", "--bots", "foo"],
    ["arena", "--bots", "random,random"],
    ["arena", "--seat", "9=random"],
    ["arena", "--seat", "1=nosuch"],
    ["arena", "--seat", "1=cmd:/nonexistent/bot"],
    ["arena", "--seat", "1=openspiel:alphago"],
    ["arena", "-n", "0"],
    ["arena", "--whole-games", "2", "-n", "1"],
    ["arena", "--set", "win_score=x", "-n", "1"],
    ["replay", "/nonexistent/game.json"],
    ["replay", "/"],
    ["verify", "/nonexistent/game.json"],
    ["serve", "--log-level", "loud"],
    ["serve", "--smtp", "smtp://relay"],
    ["serve", "--smtp", "http://relay", "--public-url", "https://example.org"],
    ["play", "--set", "bid_step=7"],
    ["play", "nosuch"],
]


@pytest.mark.parametrize("args", ERRORS_RU, ids=[" ".join(a)[:40] for a in ERRORS_RU])
def test_command_errors_speak_russian(args: list[str], tmp_path: Any) -> None:
    """Issue 15: every command's own errors speak ``--lang ru`` (``ошибка: …`` in
    Russian; the options' names and values stay as typed), and ``--lang en`` keeps the
    English for scripts."""
    code, out, err = _cli([*args, "--lang", "ru"])
    assert code == 2 and out == "" and err.count("\n") == 1, err
    assert err.startswith("ошибка: ") and _CYRILLIC.search(err[8:]), err
    assert not _ENGLISH.search(err), err
    code, _, english = _cli([*args, "--lang", "en"])
    assert code == 2 and english.startswith("error: "), english


def test_a_record_that_is_not_json_is_told_in_russian(tmp_path: Any) -> None:
    """``thousand replay FILE --lang ru`` on a file that is not JSON: the reason too is
    Russian."""
    path = tmp_path / "x.json"
    path.write_text("not json", encoding="utf-8")
    for command in ("replay", "verify"):
        code, _, err = _cli([command, str(path), "--lang", "ru"])
        assert code == 2 and "не JSON" in err and not _ENGLISH.search(err), err


def test_the_opening_line_names_levels_and_preset_in_russian() -> None:
    """Issue 15: ``thousand play --plain --lang ru`` opens with the opponents' levels and
    the preset in Russian («Ваши соперники: любитель, новичок. Правила: домашние
    правила.»), never the identifiers; English names them in words too («amateur» for heuristic)."""
    import subprocess
    import sys

    cli = [sys.executable, "-c", "from thousand.cli import main; main()"]
    p = subprocess.run([*cli, "play", "--plain", "--lang", "ru", "--bots", "heuristic,beginner",
                        "house", "--seed", "1"], input="quit\nн\n", capture_output=True,
                       text=True, timeout=60)
    first = p.stdout.splitlines()[0]
    assert first == "Тысяча. Ваши соперники: любитель, новичок. Правила: домашние правила.", first
    p = subprocess.run([*cli, "play", "--plain", "--lang", "en", "--seed", "1"],
                       input="quit\nn\n", capture_output=True, text=True, timeout=60)
    first = p.stdout.splitlines()[0]
    assert first == "Thousand. Your opponents: amateur, amateur. Rules: classic.", first


def test_level_and_preset_names_have_one_home() -> None:
    """The names for people live in thousand.words.catalogue and reach the pages through
    ``/api/texts`` and ``/api/rules``: every registered level and preset has a Russian and
    an English name."""
    from thousand.bots import bot_levels
    from thousand.server.catalog import rules_catalog, texts_catalog
    from thousand.words.catalogue import BOT_LEVEL_NAMES, level_name
    from thousand.words.presets import PRESET_TITLES
    from thousand.words.rules import preset_title

    assert set(bot_levels()) <= set(BOT_LEVEL_NAMES)
    assert set(PRESET_NAMES) == set(PRESET_TITLES)
    ru = texts_catalog("ru")
    assert ru["bot_level_names"]["heuristic"] == level_name("heuristic", "ru") == "любитель"
    assert ru["preset_titles"]["house"] == preset_title("house", "ru") == "домашние правила"
    titles = {p["name"]: p["title"] for p in rules_catalog("ru")["presets"]}
    assert titles["house"] == "Домашние правила"
    assert texts_catalog("en")["bot_level_names"]["expert"] == "expert"


#: A hint's advice starts with one of these imperatives (thousand.words.catalogue.ADVICE).
_ADVICE_RU = re.compile(r"^(Сыграйте|Отдайте|Снесите|Скажите|Закажите|Поднимите заказ до|"
                        r"Пасуйте|Не перекупайте|Играйте без пересдачи|Темните|Посмотрите|"
                        r"Потребуйте|Распишитесь|Перекупите)(\s|$)")
_ADVICE_EN = re.compile(r"^(Play|Give|Discard|Bid|Name the contract|Raise the contract to|"
                        r"Pass|Do not buy|Play on without|Look at|Demand|Concede|Buy)(\s|$)")
#: The bot speaking of itself («поднимаю», "raise to 130:") — not for a hint.
_BOT_VOICE = re.compile(
    r"\b(поднимаю|оставляю|играю|темню|смотрю|перекупаю|объявляю|выбиваю|хожу|подкладываю|"
    r"забираю|сбрасываю|бью|пробую|кладу|беру)\b|\b(raise to|keep \d|play it|bid dark|"
    r"look first|buy at|no buy at|redeal$)", re.IGNORECASE)
#: A figure told through its negation: «не добирает … в 0%», "fails 120 in 100%".
_NEGATIVE_FIGURE = re.compile(r"\bне \w+[^;]*? в \d+%|\bfails \d+ in \d+%")


def test_hints_advise_the_reader_in_the_second_person() -> None:
    """Issue 15: a hint is advice to the reader — «Подсказка (мастер): Поднимите заказ до
    130 — играется в 92% раскладов» — in both languages: the level by its name for
    people, the move as an imperative, a reason that is not the bot speaking of itself,
    that tells its figures positively and does not name the move again.  Positions of
    random deals of three presets, the heuristic and a small search bot."""
    from thousand.bots.search import SearchBot, SearchConfig
    from thousand.engine.cards import card_label
    from thousand.terminal.i18n import hint_line

    tiny = SearchConfig(time_limit=None, min_samples=12, max_samples=12, exchange_cards=3,
                        bid_gives=1)
    bots = {"heuristic": make_bot("heuristic", seed=2), "expert": SearchBot(2, tiny)}
    seen: set[str] = set()
    for preset, seed in (("classic", 4), ("house", 5), ("textbook", 6)):
        rules = Rules.preset_rules(preset, max_deals=1)
        game = Game(rules, None, seed=seed)
        steps = 0
        while not game.over and steps < 40:
            view = game.view(game.to_move)
            for level, bot in bots.items():
                for lang in ("ru", "en"):
                    move, why = bot.explain(view, lang)
                    line = hint_line(lang, level, view, move, why)
                    head = {"ru": "Подсказка", "en": "Hint"}[lang]
                    name = {("ru", "heuristic"): "любитель", ("en", "heuristic"): "amateur",
                            ("ru", "expert"): "мастер"}.get(
                        (lang, level), level)
                    assert line.startswith(f"{head} ({name}): "), line
                    said, _, reason = line.split("): ", 1)[1].partition(" — ")
                    pattern = _ADVICE_RU if lang == "ru" else _ADVICE_EN
                    assert pattern.match(said), line
                    seen.add(said.split()[0])
                    assert not _BOT_VOICE.search(reason), line
                    assert not _NEGATIVE_FIGURE.search(reason), line
                    if mv.is_card_play(move) or mv.is_give(move) or mv.is_discard(move):
                        assert card_label(mv.card_of(move), lang) not in reason, line
                    if mv.is_contract(move):
                        assert str(mv.value_of(move)) not in reason, line
                    assert not problems(line, lang), line
            game.apply(checked_choice(bots["heuristic"], view))
            steps += 1
    assert {"Сыграйте", "Play"} <= seen and len(seen) >= 5, seen


# --------------------------------------------------------------------------- issue 28


def test_the_analysis_speaks_to_you_and_of_the_others_in_agreement() -> None:
    """Issue 28, 13: the analysis' deal heading and reasons agree with «Вы» («Вы
    разыгрываете», «вы берёте»; "You declare") and never say «вы» of another player."""
    from thousand.analysis.reasons import totals_reason
    from thousand.analysis.text import WORDS

    heading = WORDS["ru"]["declarer"]
    assert render(heading, "ru", name="Вы", c=120) == "Вы разыгрываете заказ 120"
    assert render(heading, "ru", name="Боря", c=120) == "Боря разыгрывает заказ 120"
    assert render(WORDS["en"]["declarer"], "en", name="Вы", c=120) == "You declare 120"
    assert render(WORDS["en"]["declarer"], "en", name="Bob", c=120) == "Bob declares 120"
    assert "вы берёте 66" in totals_reason("Вы", 66, 70, None, "ru")
    bot = totals_reason("Боря", 66, 70, 48, "ru")
    assert "Боря берёт 66" in bot and "вы" not in bot.lower().split()
    assert "you take 66" in totals_reason("You", 66, 70, None, "en")


def test_the_full_screen_seat_of_the_reader_is_spoken_to() -> None:
    """Issue 28, 13: the panel of «Вы» says «сдаёте, вне игры» (as wide as «сдаёт, не
    играет», which four seats in a row of 80 columns hold) and «сдаёте»."""
    from thousand.terminal.tui.words import W

    assert W("ru", "sits_out_you") == "сдаёте, вне игры"
    assert W("ru", "dealer_mark_you") == "сдаёте"
    assert W("en", "sits_out_you") == "deal, sit out"


def test_record_and_save_faults_are_told_in_russian(tmp_path: Any,
                                                     capsys: pytest.CaptureFixture[str]
                                                     ) -> None:
    """Issue 28, 14: a card dealt twice names the seats in Russian («месту 0 и месту
    2», «раздача 1»), and ``play --resume`` of a file that is not JSON says it as
    ``replay`` does, not in the JSON parser's English."""
    from thousand.words.catalogue import record_error_text

    said = record_error_text("deal 1: KS is dealt twice: seat 0 and seat 2", "ru")
    assert said == "раздача 1: KS сдана дважды: месту 0 и месту 2"
    assert "seat" not in record_error_text("deal 2: AH is dealt twice: seat 1 and the talon",
                                           "ru")
    bad = tmp_path / "bad.json"
    bad.write_text('{"format": 1, "rules": ', encoding="utf-8")
    assert run(["play", "--plain", "--resume", str(bad)]) == 2
    err = capsys.readouterr().err
    assert "не JSON: ошибка в строке 1, позиция 24" in err
    assert "Expecting" not in err


def test_f1_help_has_a_russian_word_for_look() -> None:
    """Issue 28, 14: every word move of F1's help has its Russian beside it."""
    from thousand.terminal.tui.words import W
    from thousand.words.vocabulary import parse_typed

    assert "look (смотрю)" in W("ru", "help")
    assert parse_typed("смотрю", ["look", "dark"]) == parse_typed("look", ["look", "dark"])


def test_russian_numbers_have_a_decimal_comma_everywhere() -> None:
    """Issue 28, 19: one helper writes fractions (texts.decimal and percent): «96,4%» in
    Russian, "96.4%" in English; the analysis' summary and the F7 summary use it."""
    from thousand.analysis.text import render_text
    from thousand.terminal.analysis_view import summary_lines
    from thousand.words.grammar import decimal, percent

    assert percent(96.4, "ru") == "96,4%" and percent(96.4, "en") == "96.4%"
    assert decimal(-3.25, "ru", 1, sign=True) == "-3,2" or decimal(-3.25, "ru", 1,
                                                                      sign=True) == "-3,3"
    player = {"seat": 0, "name": "Вы", "accuracy": 73.6, "marks": {
        "inaccuracy": 1, "mistake": 0, "blunder": 0}, "lost_per_deal_view": 12.5,
        "lost_per_deal_open": 0.0, "lost_view": 12.5, "lost_open": None, "worst": []}
    analysis = {"game": {"players": ["Вы", "Боря", "Вова"]}, "deals": [],
                "players": [player]}
    text = render_text(analysis, "ru")
    assert "73,6%" in text and "12,5" in text and not re.search(r"\d\.\d", text)
    assert "73.6%" in render_text(analysis, "en")
    assert "73,6%" in summary_lines(analysis, "ru")[0]


def test_the_duplicate_table_fits_80_columns_in_a_pipe() -> None:
    """Issue 28, 19: a pipe without COLUMNS gets the table laid out to 80 columns (it
    was 88), its figures with decimal commas in Russian."""
    import os
    import subprocess
    import sys

    env = {k: v for k, v in os.environ.items() if k != "COLUMNS"}
    p = subprocess.run([sys.executable, "-c", "from thousand.cli import main; main()",
                        "arena", "--duplicate", "--bots", "heuristic,random,random", "-n",
                        "2", "--seed", "3", "--quiet", "--lang", "ru"],
                       capture_output=True, text=True, timeout=120, env=env)
    assert p.returncode == 0, p.stderr
    table = [line for line in p.stdout.splitlines() if line.startswith(" ")]
    assert table and max(len(line) for line in table) <= 80, p.stdout
    assert not re.search(r"\d\.\d", p.stdout) and re.search(r"\d,\d", p.stdout)


def test_english_explanations_quote_in_english() -> None:
    """Issue 28, 19: ``rules --explain dark --lang en`` quotes an option's title “so”."""
    from thousand.words.rules import OPTION_TEXT, plain_explanation

    for option in OPTION_TEXT:
        assert "«" not in plain_explanation(option, "en"), option
    assert "“" in plain_explanation("dark", "en")


def test_a_give_list_names_the_opponent_once_and_breaks_between_moves() -> None:
    """Issue 28, 19: the line mode's moves of an exchange say «(отдать Боре)» once, and a
    narrow terminal breaks the list between moves, never inside «10) К♥»."""
    from thousand.terminal.session import moves_lines

    table = Table(Rules(), ["Вы", "Боря", "Вова"], seed=5)
    while table.view_json(table.to_move)["phase"] != "exchange":
        seat = table.to_move
        assert seat is not None
        legal = table.view_json(seat)["legal"]
        table.submit(seat, "100" if "100" in legal else "pass" if "pass" in legal
                     else legal[0], table.version)
    seat = table.to_move
    assert seat is not None
    view = table.view_json(seat)
    lines = moves_lines(view, Rules(), ["Вы", "Боря", "Вова"], "ru", width=40)
    from rich.text import Text

    plain = [Text.from_markup(line).plain for line in lines]
    assert len(plain) > 1 and all(len(line) <= 40 for line in plain)
    assert " ".join(plain).count("отдать") == 1
    items = re.findall(r"\d+\) \S+", " ".join(plain))
    assert len(items) == len(view["legal"])


def test_the_reader_heads_english_analysis_lines_as_you() -> None:
    """Issue 28, 13: a game whose person is «Вы», analysed in English, says "You: …",
    never "Вы: …" (nor "Вы declares")."""
    from thousand.analysis.text import decision_line

    entry = {"seat": 0, "played": "KS", "mark": None, "trick": 2, "basis": "open",
             "open": {"best": "KS", "lost": 0}, "reason": None}
    assert decision_line(entry, ["Вы", "Боря"], "en").startswith("You: ")
    assert decision_line(entry, ["Вы", "Боря"], "ru").startswith("Вы: ")
    assert decision_line(entry, ["Боря", "Вы"], "en").startswith("Боря: ")
