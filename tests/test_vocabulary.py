"""One vocabulary of typed moves (thousand.words.vocabulary) for every front end: the terminal
reads a typed move with it, the pages get it in the catalogue (/api/texts, ``typed``) and
common.js reads with it in the same steps — for every word, card and number typed, in
every kind of position, the Python parse and the page's give the same move.  The words
every front end accepted before are all still words, and docs/typing.md lists them."""

from __future__ import annotations

import json
import random
import re
import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from thousand.engine.cards import RANKS, SUITS
from thousand.engine.rules import Rules
from thousand.engine.table import Table
from thousand.server.catalog import texts_catalog
from thousand.terminal import parse_input
from thousand.words.vocabulary import (
    CONTRACT_WORDS,
    GIVE_WORDS,
    RANK_WORDS,
    SUIT_WORDS,
    WORDS,
    normalise,
    parse_typed,
    vocabulary_json,
)

ROOT = Path(__file__).resolve().parent.parent
WEB = ROOT / "src" / "thousand" / "web"
NODE = shutil.which("node")
needs_node = pytest.mark.needs("node")


def _positions() -> list[list[str]]:
    """The legal moves of one position of each phase (and of each kind of move list) met in
    whole games of random moves under every kind of exchange: auction, buy, contract,
    giving, discarding, play, the redeal offer."""
    seen: dict[tuple[str, frozenset[str]], list[str]] = {}
    for preset, seed in (("classic", 1), ("house", 2), ("textbook", 3), ("dealer-opens", 4),
                         ("casual", 5), ("two", 6)):
        table = Table(Rules.preset_rules(preset), seed=seed)
        rng = random.Random(seed)
        while not table.over and table.version < 600:
            seat = table.to_move
            assert seat is not None
            view = table.view_json(seat)
            legal = [str(m) for m in view["legal"]]
            kinds = frozenset(re.sub(r"[0-9]+|[9JQKTA][SCDH]", "#", m) for m in legal)
            seen.setdefault((view["phase"], kinds), legal)
            table.submit(seat, rng.choice(legal), table.version)
    phases = {phase for phase, _ in seen}
    assert {"auction", "contract", "play", "talon choice"} <= phases and len(phases) >= 5, phases
    return list(seen.values())


def _typed() -> list[str]:
    """What players type: every word in upper and lower case, every card in every
    notation (and with ``+``, after a give or discard word), numbers, nonsense."""
    out = [*WORDS, *(w.upper() for w in WORDS), *(w.capitalize() for w in WORDS),
           "тёмная", "Тёмная", "  сижу   на ста ", "ТЕМНЮ"]
    for rank in RANK_WORDS:
        for suit in SUIT_WORDS:
            out += [rank + suit, (rank + suit).lower(), f"{rank}{suit}+", f"{rank} {suit}"]
    for kind_words in GIVE_WORDS.values():
        out += [f"{w} 9п" for w in kind_words] + [f"{w.upper()} тч" for w in kind_words]
        out += [*kind_words, *(f"{w} blah" for w in kind_words)]
    for word in CONTRACT_WORDS:
        out += [f"{word} 120", f"{word}130", f"{word}  0140", f"{word} {'9' * 9}", word]
    out += ["100", "105", "0105", "1", "2", "9" * 7, "1234567", "²", "", "   ", "blah",
            "[/]", "KH++", "AH +", "ё", "10", "T", "+", "give", "pass pass"]
    return out


@pytest.fixture(scope="module")
def positions() -> list[list[str]]:
    return _positions()


@pytest.fixture(scope="module")
def page(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """The page's modules in a folder node reads as ES modules."""
    folder = tmp_path_factory.mktemp("vocabulary")
    for path in WEB.glob("*.js"):
        shutil.copy(path, folder / path.name)
    (folder / "package.json").write_text('{"type": "module"}')
    (folder / "run.mjs").write_text(
        'import { typedMove, parseTyped } from "./common.js";\n'
        'import { readFileSync } from "node:fs";\n'
        'const d = JSON.parse(readFileSync(0, "utf8"));\n'
        "const f = d.wrapped ? parseTyped : typedMove;\n"
        "process.stdout.write(JSON.stringify(d.cases.map(([text, legal]) => "
        "f(text, legal, d.vocab))));\n"
    )
    yield folder


def _run_page(folder: Path, cases: list[tuple[str, list[str]]], vocab: Any,
              wrapped: bool = False) -> list[Any]:
    assert NODE is not None
    payload = json.dumps({"cases": cases, "vocab": vocab, "wrapped": wrapped})
    result = subprocess.run([NODE, "run.mjs"], input=payload, cwd=folder,
                            capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr
    out: list[Any] = json.loads(result.stdout)
    return out


def test_the_pages_are_served_the_vocabulary_in_both_languages() -> None:
    """The catalogue /api/texts serves carries the one vocabulary, the same whatever the
    page's language."""
    for lang in ("ru", "en"):
        assert texts_catalog(lang)["typed"] == vocabulary_json()


@needs_node
def test_both_front_ends_read_every_typed_move_alike(
        page: Path, positions: list[list[str]]) -> None:
    """For every word of the vocabulary, every card in every notation, bids, contracts and
    nonsense, in a position of every phase: common.js's typedMove, with the vocabulary the
    server serves, gives the move thousand.words.vocabulary.parse_typed gives."""
    cases = [(text, legal) for legal in positions for text in _typed()]
    got = _run_page(page, cases, texts_catalog("ru")["typed"])
    differ = [(text, legal[:4], js, parse_typed(text, legal))
              for (text, legal), js in zip(cases, got, strict=True)
              if js != parse_typed(text, legal)]
    assert not differ, differ[:10]
    # and the cases are no empty test: most of them are moves
    assert sum(move is not None for move in got) > len(got) // 2


@needs_node
def test_the_page_refuses_here_only_what_is_no_move_or_not_now(
        page: Path, positions: list[list[str]]) -> None:
    """The page's move box sends a legal move; a card while cards are played, given or
    discarded (the table says why it is not this one); refuses nonsense (typed_unknown),
    nothing (typed_empty) and any other move the rules do not allow now (typed_not_now)."""
    vocab = vocabulary_json()
    cards = [r + s for r in RANKS for s in SUITS]
    texts = ["", "  ", "blah", "пас", "сижу", "куплю", "105", "заказ 120", *cards[:6]]
    cases = [(text, legal) for legal in positions for text in texts]
    card_move = re.compile(r"((give|discard) )?[9JQKTA][SCDH]\+?")
    for (text, legal), answer in zip(cases, _run_page(page, cases, vocab, wrapped=True),
                                     strict=True):
        move = parse_typed(text, legal)
        if not text.strip():
            assert answer == {"error": "typed_empty"}
        elif move is None:
            assert answer == {"error": "typed_unknown"}
        elif move in legal or (card_move.fullmatch(move)
                               and any(card_move.fullmatch(m) for m in legal)):
            assert answer == {"move": move}, (text, legal)
        else:
            assert answer == {"error": "typed_not_now"}, (text, legal)


# the words each front end took before the one vocabulary (the terminal's, the pages')
OLD_WORDS = {
    "pass": ["pass", "пас", "p", "п"],
    "dark": ["dark", "тёмная", "темная", "темню", "темнить", "втемную"],
    "look": ["look", "смотреть", "смотрю"],
    "redeal": ["redeal", "пересдача"],
    "concede": ["concede", "расписать", "роспись", "расписываюсь", "расписаться"],
    "buy": ["buy", "куплю", "перекуп", "перекупаю", "перекупить", "покупаю", "купить"],
    "100": ["сижу", "сижу на ста"],
}


def test_every_word_either_front_end_took_is_still_a_word(positions: list[list[str]]) -> None:
    """The union of the two old lists: each word, in any case and with ё or е, is its move
    in every position (a word's move needs no position)."""
    for move, words in OLD_WORDS.items():
        for word in words:
            for typed in (word, word.upper(), word.replace("е", "ё")):
                assert {parse_typed(typed, legal) for legal in positions} == {move}, typed


def test_cards_numbers_and_contracts_as_both_front_ends_read_them() -> None:
    """Cards in Latin and Russian letters and with suit signs; a number is a bid, or the
    contract while one is named; a card is given or discarded while cards are, whatever
    word came before it, and a give word elsewhere stays a give (the table says why)."""
    auction, contract = ["pass", "100", "105"], ["contract 120", "contract 125"]
    give, discard = ["give 9S", "give AH"], ["discard 9S", "discard KD"]
    play = ["AH", "KH", "KH+"]
    for typed, card in (("Т♥", "AH"), ("10ч", "TH"), ("AH", "AH"), ("ah", "AH"),
                        ("кч", "KH"), ("Тб", "AD"), ("тт", "AC"), ("вп", "JS"), ("д♣", "QC")):
        assert parse_typed(typed, play) == card
        assert parse_typed(typed + "+", play) == card + "+"
        assert parse_typed(typed, give) == f"give {card}"
        assert parse_typed(f"снос {typed}", give) == f"give {card}"
        assert parse_typed(typed, discard) == f"discard {card}"
        assert parse_typed(f"отдать {typed}", play) == f"give {card}"
    assert parse_typed("105", auction) == "105"
    assert parse_typed("0105", auction) == "105"
    assert parse_typed("130", contract) == "contract 130"
    assert parse_typed("заказ 130", auction) == "contract 130"
    assert parse_typed("contract130", contract) == "contract 130"
    assert parse_typed("9" * 5000, auction) == "9" * 5000  # no int() of it: the table refuses
    for nonsense in ("²", "[/]", "blah", "", "  ", "KH++", "отдать"):
        assert parse_typed(nonsense, play) is None


def test_the_terminal_adds_only_its_numbers_and_commands() -> None:
    """The terminal reads every typed move with the vocabulary; what it adds is the
    number of a move in its numbered list and its own commands."""
    table = Table(Rules(), seed=2)
    seat = table.to_move
    assert seat is not None
    view = table.view_json(seat)
    legal = [str(m) for m in view["legal"]]
    assert parse_input("2", view) == legal[1]
    assert parse_input(str(len(legal) + 1), view) == parse_typed(str(len(legal) + 1), legal)
    for typed in (*WORDS, "Тч", "кч+", "заказ 120", "отдать 9п", "blah"):
        assert parse_input(typed, view) == parse_typed(typed, legal), typed
    assert [parse_input(c, view) for c in ("hint", "help", "quit")] == ["hint", "help", "quit"]


def test_the_players_doc_lists_every_word_once() -> None:
    """docs/typing.md is the one list for people: every word of the vocabulary is in it,
    once, and everything it shows in code is a move, a card's rank or suit, a terminal
    command, the command line or a file's name."""
    doc = (ROOT / "docs" / "typing.md").read_text(encoding="utf-8")
    listed = [normalise(x) for x in re.findall(r"`([^`]+)`", doc)]
    words = [*WORDS, *(w for ws in GIVE_WORDS.values() for w in ws), *CONTRACT_WORDS]
    for word in words:
        assert listed.count(normalise(word)) == 1, word
    table = Table(Rules(), seed=2)
    view = table.view_json(table.to_move or 0)
    letters = {normalise(x) for x in (*RANK_WORDS, *SUIT_WORDS)}
    for item in listed:
        moves = [x for x in (parse_typed(item, ["AH", "KH+", "pass"]),
                             parse_input(item, view)) if x is not None]
        assert (moves or item.split(" ")[0] in words or set(item.split()) <= letters
                or item.startswith("thousand ") or "/" in item or "." in item), item


def test_the_two_player_talon_choice_is_typed_in_both_languages(
        positions: list[list[str]]) -> None:
    """Two players, point 3: the declarer chooses ``talon 1`` or ``talon 2`` unseen; the
    words for it — «прикуп 1», «первый прикуп», «беру второй», "talon 2", "t1" — are those
    moves in every position (the table says when it is no talon choice), in any case and
    spacing, and the terminal's list numbers 1 and 2 are the two talons, in order."""
    words = {"talon 1": ["прикуп 1", "Первый прикуп", "беру первый", "t1", "TALON 1",
                         "talon  1", "первый", "прикуп1", "first talon"],
             "talon 2": ["прикуп 2", "второй прикуп", "Беру второй", "беру второй прикуп",
                         "T2", "talon 2", "второй", "second talon"]}
    for move, typed in words.items():
        for text in typed:
            assert {parse_typed(text, legal) for legal in positions} == {move}, text
    assert parse_typed("прикуп 3", ["talon 1", "talon 2"]) is None
    table = Table(Rules.preset_rules("two"), seed=6)
    for _ in range(10):  # the auction: whoever may bids 120, the other passes
        seat = table.to_move
        assert seat is not None
        view = table.view_json(seat)
        if view["phase"] == "talon choice":
            break
        table.submit(seat, "120" if "120" in view["legal"] else "pass", table.version)
    assert view["legal"] == ["talon 1", "talon 2"]
    assert [parse_input(n, view) for n in ("1", "2")] == ["talon 1", "talon 2"]
    assert parse_input("беру второй", view) == "talon 2"
