"""The browser client's files (src/thousand/web/ and the pages' shell, server/templates/):
present and ready to serve, every module parses, no HTML is built from text, every UI
string exists in both languages and comes from the words package (thousand.words.pages),
the event lines come from the one catalogue the terminal also uses
(thousand.words.catalogue.EVENTS), worded the same way by the page's JavaScript as by
Python, and the pages' cards are the engine's."""

from __future__ import annotations

import json
import random
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from thousand.engine.cards import N_CARDS, POINTS, RANKS, SUITS, card_label, card_str
from thousand.engine.rules import Rules
from thousand.engine.table import EVENT_TYPES, Table
from thousand.server.pages import shell_html
from thousand.words.catalogue import EVENTS, SUIT_NAMES, SUIT_OF, event_key, event_text
from thousand.words.grammar import YOU_FORMS, name_forms
from thousand.words.pages import PAGE_WORDS, PAGE_WORDS_JS, page_words_module

WEB = Path(__file__).resolve().parent.parent / "src" / "thousand" / "web"
#: The pages' shells (server/templates, written by thousand.server.pages).
TEMPLATES = WEB.parent / "server" / "templates"
#: Pages whose shells are checked: each is the one shell with its script web/<page>.js.
PAGES = ("lobby", "table", "history", "replay", "exercises")
MODULES = ("i18n.js", "cards.js", "common.js", "board.js", "sheet.js", "lobby.js", "table.js",
           "history.js", "replay.js", "exercises.js")
NODE = shutil.which("node")


def _js_files() -> list[Path]:
    return sorted(WEB.glob("*.js"))


def _text_files() -> list[Path]:
    return sorted(p for folder in (WEB, TEMPLATES) for p in folder.iterdir()
                  if p.suffix in (".js", ".html", ".css", ".svg"))


def _page_modules(folder: Path, script: str) -> None:
    """The pages' modules in ``folder`` as Node reads them, with ``run.mjs`` (``script``)
    beside them to import them."""
    for path in _js_files():
        shutil.copy(path, folder / path.name)
    (folder / "package.json").write_text('{"type": "module"}')
    (folder / "run.mjs").write_text(script)


def _run_node(folder: Path, payload: str) -> object:
    """What ``run.mjs`` in ``folder`` writes (JSON) when it reads ``payload``."""
    result = subprocess.run([NODE, "run.mjs"], input=payload, cwd=folder,
                            capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout)


def test_the_files_are_there() -> None:
    for name in (*(f"{page}.js" for page in PAGES), *MODULES, "style.css", "favicon.svg"):
        assert (WEB / name).is_file(), name
    for name in ("shell.html", "error.html"):
        assert (TEMPLATES / name).is_file(), name


@pytest.mark.parametrize("page", PAGES)
def test_pages_are_served_ready(page: str) -> None:
    html = shell_html(page)
    assert html.lower().startswith("<!doctype html>")
    assert '<meta charset="utf-8">' in html
    assert 'name="viewport"' in html
    assert '<html lang="ru">' in html
    scripts = re.findall(r'<script type="module" src="/static/([\w.-]+)"></script>', html)
    assert len(scripts) == 1, page
    assert (WEB / scripts[0]).is_file()
    for ref in re.findall(r'(?:href|src)="/static/([\w./-]+)"', html):
        assert (WEB / ref).is_file(), ref


def test_imports_resolve_and_nothing_comes_from_outside() -> None:
    for path in _js_files():
        text = path.read_text("utf-8")
        for ref in re.findall(r'^\s*(?:import|export)\b[^;]*?from\s+"([^"]+)"', text, re.M | re.S):
            assert ref.startswith("./") and (WEB / ref[2:]).is_file(), (path.name, ref)
    for path in _text_files():
        text = path.read_text("utf-8")
        # the SVG namespace is a name, not a download
        text = text.replace("http://www.w3.org/2000/svg", "")
        assert not re.search(r"https?://|//cdn|@import", text), path.name


@pytest.mark.needs("node")
@pytest.mark.parametrize("name", [p.name for p in sorted(WEB.glob("*.js"))])
def test_every_module_parses(name: str) -> None:
    # `node --check file.js` takes a module for a script and passes broken code; read it
    # as a module from stdin instead
    source = (WEB / name).read_text("utf-8")
    result = subprocess.run([NODE, "--input-type=module", "--check"], input=source,
                            capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stderr


def test_no_html_is_built_from_text() -> None:
    """Player text (names, chat) goes in with textContent: no innerHTML and the like."""
    bad = re.compile(r"\.(?:innerHTML|outerHTML)\s*\+?=\s*(?!\"\"|'')|insertAdjacentHTML|"
                     r"document\.write|\beval\(|new Function\(")
    for path in _js_files():
        for number, line in enumerate(path.read_text("utf-8").splitlines(), 1):
            assert not bad.search(line), f"{path.name}:{number}: {line.strip()}"


def _i18n_keys() -> dict[str, list[str]]:
    """The keys of the pages' words (thousand.words.pages, which web/page_words.js is)."""
    return {lang: list(PAGE_WORDS[lang]) for lang in ("ru", "en")}


def test_the_pages_get_their_words_from_the_python_words() -> None:
    """web/page_words.js is thousand.words.pages as written now (one home: change the words
    there and run `python -m thousand.words.pages`), and i18n.js takes its words from it."""
    assert (WEB / "page_words.js").read_text("utf-8") == page_words_module()
    assert PAGE_WORDS_JS == WEB / "page_words.js"
    assert 'import { STRINGS } from "./page_words.js";' in (WEB / "i18n.js").read_text("utf-8")


def test_both_languages_have_the_same_strings() -> None:
    keys = _i18n_keys()
    for lang, found in keys.items():
        assert len(found) == len(set(found)), f"{lang}: a key twice"
    assert set(keys["ru"]) == set(keys["en"])
    assert len(keys["ru"]) > 100



def test_the_pages_call_the_sheet_zapis_not_pulya() -> None:
    """«Пуля» is the score sheet of преферанс; in Тысяча the sheet is «запись» (issue 15)."""
    for path in sorted(WEB.glob("*.js")) + sorted(TEMPLATES.glob("*.html")):
        text = path.read_text("utf-8").lower()
        assert "пуля" not in text, path.name

def test_every_string_the_pages_use_exists() -> None:
    keys = set(_i18n_keys()["ru"])
    used: set[str] = set()
    for path in _text_files():
        text = path.read_text("utf-8")
        used |= set(re.findall(r'\bt\(\s*"([a-z0-9_]+)"', text))
        used |= set(re.findall(r'data-i18n"?\s*[:=]\s*"([a-z0-9_]+)"', text))
    assert len(used) > 100
    assert used <= keys, sorted(used - keys)
    # and nothing looks a key up by a computed name (but i18n.js itself, which fills the
    # data-i18n elements checked above)
    for path in _js_files():
        if path.name == "i18n.js":
            continue
        for number, line in enumerate(path.read_text("utf-8").splitlines(), 1):
            assert not re.search(r"(?<!function )\bt\(\s*[^\s\"')]", line), f"{path.name}:{number}"


# ---------------------------------------------------------------- event texts


def _sample_events() -> list[dict[str, object]]:
    """Every event of a few whole games of every kind of rules (random legal moves)."""
    events: list[dict[str, object]] = []
    for preset, seed in (("classic", 1), ("house", 2), ("textbook", 3), ("dealer-opens", 4),
                         ("casual", 5), ("two", 6)):
        table = Table(Rules.preset_rules(preset), seed=seed)
        rng = random.Random(seed)
        while not table.over and table.version < 1500:
            seat = table.to_move
            assert seat is not None
            table.submit(seat, rng.choice(table.view_json(seat)["legal"]), table.version)
        events.extend(table.log)
    return events


SYNTHETIC: dict[str, dict[str, object]] = {
    "deal_started": {"number": 3, "dealer": 0, "opener": 1, "active": [1, 2, 0], "golden": True},
    "cut": {"cards": ["9S", None]},
    "hand": {"seat": 1, "cards": ["AH", "TS"]},
    "look": {"seat": 2},
    "dark": {"seat": 2, "value": 120},
    "bid": {"seat": 0, "value": 105},
    "pass": {"seat": 1, "phase": "buy"},
    "redeal": {"seat": 1, "phase": "auction"},
    "declarer": {"seat": 1, "bid": 120, "dark": True, "golden": False},
    "talon": {"seat": 1, "cards": None},
    "buy": {"seat": 2, "seller": 1, "price": 240},
    "give": {"seat": 1, "to_seat": 2, "card": None},
    "discard": {"seat": 1, "card": "9S"},
    "contract": {"seat": 1, "value": 130},
    "concede": {"seat": 1, "contract": 120},
    "card": {"seat": 0, "card": "KH", "declare": True},
    "declaration": {"seat": 0, "kind": "half_marriage", "suit": "H", "points": 50, "trump": "H"},
    "trick": {"winner": 2, "leader": 0, "points": 21,
              "cards": [{"seat": 0, "card": "9D"}, {"seat": 1, "card": "TH"}]},
    "deal_scored": {"number": 4, "dealer": 1, "outcome": "redeal", "declarer": None,
                    "redeal_by": 2, "changes": [0, 0, 0], "scores": [10, 20, 30]},
    "barrel_on": {"seat": 0, "amount": 0},
    "fall": {"seat": 0, "amount": -120},
    "knocked_off": {"seat": 0, "amount": -120},
    "barrel_timeout": {"seat": 0, "amount": -120},
    "bolt": {"seat": 1, "amount": 0},
    "penalty": {"seat": 1, "amount": -120, "reason": "cut"},
    "samosval": {"seat": 1, "amount": 555},
    "bolt_samosval": {"seat": 1, "amount": 0},
    "fall_reset": {"seat": 1, "amount": 0},
    "golden_restart": {"seat": None},
    "game_over": {"winner": 0, "scores": [1000, 500, 200], "settlement": [0, 500, 800]},
    "talon_choice": {"seat": 1, "talon": 2},
    "other_talon": {"talon": 1, "cards": ["AS", "KS"]},
}


def test_the_catalogue_words_every_event_in_both_languages() -> None:
    assert set(SYNTHETIC) == set(EVENT_TYPES)
    for kind in EVENT_TYPES:
        assert kind in EVENTS, kind
    marks = re.compile(r"\{(\w+)")  # the fields, whatever their wording (:dat, :A|B, :#)
    for key, (en, ru) in EVENTS.items():
        assert en and ru, key
        assert set(marks.findall(en)) == set(marks.findall(ru)), key
    names = ["Аня", "Боря", "Вова"]
    for kind, data in SYNTHETIC.items():
        event = {"type": kind, "audience": "all", "v": 1, **data}
        for lang in ("ru", "en"):
            text = event_text(event, lang, names)
            assert text and "{" not in text and "None" not in text, (kind, lang, text)
    assert "Вова платит 800" in event_text({"type": "game_over", **SYNTHETIC["game_over"]},
                                           "ru", names)


def test_every_event_of_whole_games_has_a_line() -> None:
    seen: set[str] = set()
    for event in _sample_events():
        seen.add(event_key(event))
        for lang in ("ru", "en"):
            text = event_text(event, lang)
            assert text and "{" not in text and "None" not in text, (event, text)
    assert len(seen) > 20
    # the game for two ("Two players" point 3): the talon chosen, the other one shown
    assert {"talon_choice", "other_talon"} <= seen


@pytest.mark.needs("node")
def test_the_page_words_events_as_python_does(tmp_path: Path) -> None:
    """The page's eventText (common.js), fed the catalogue /api/texts serves and the names'
    case forms the snapshot sends, writes the same line as thousand.words.catalogue.event_text for
    every event of whole games: names declined, counts agreed, the reader's own seat (or a
    player called "Вы"/"You") spoken to, seats without a name as «игрок N»."""
    events = _sample_events()
    events += [{"type": k, "audience": "all", "v": 1, **d} for k, d in SYNTHETIC.items()]
    # one of each kind of line is enough, and keeps the exchange small
    picked: dict[tuple[str, str], dict[str, object]] = {}
    for e in events:
        picked.setdefault((event_key(e), json.dumps(sorted(e))), e)
    sample = list(picked.values())
    script = (
        'import { eventText, eventKey } from "./common.js";\n'
        'import { readFileSync } from "node:fs";\n'
        'const data = JSON.parse(readFileSync(0, "utf8"));\n'
        "const out = data.cases.map((c) => [eventKey(c.event, data.cat.events), "
        "eventText(c.event, c.names, data.cat, data.lang, c.reader, data.forms)]);\n"
        "process.stdout.write(JSON.stringify(out));\n"
    )
    _page_modules(tmp_path, script)
    for lang in ("ru", "en"):
        name_sets: list[list[str] | None] = [
            ["Аня", "Боря", "Вова", "Гена"],
            ["Вы" if lang == "ru" else "You", "Маша", "Саша", "John"],
            None,
        ]
        cases = [{"event": e, "names": names, "reader": reader}
                 for e in sample for names in name_sets for reader in (None, 1)]
        forms = {n: name_forms(n, lang) for names in name_sets if names for n in names}
        catalogue = {
            "events": {k: (ru if lang == "ru" else en) for k, (en, ru) in EVENTS.items()},
            "suit_names": list(SUIT_NAMES[lang]),
            "you_forms": YOU_FORMS[lang],
        }
        payload = json.dumps({"cases": cases, "cat": catalogue, "lang": lang, "forms": forms})
        out = _run_node(tmp_path, payload)
        assert isinstance(out, list)
        for case, (key, text) in zip(cases, out, strict=True):
            event = case["event"]
            assert key == event_key(event), event
            assert text == event_text(event, lang, case["names"], case["reader"]), (case, lang)


@pytest.mark.needs("node")
def test_the_page_words_illegal_moves_as_python_does(tmp_path: Path) -> None:
    """errorText (common.js) with the catalogue /api/texts serves gives the reason of
    thousand.words.catalogue.illegal_text: the move in words, whose turn it is (the reader's own:
    «ваша очередь»), names declined."""
    from thousand.server.catalog import name_forms_json, texts_catalog
    from thousand.words.catalogue import illegal_text

    _page_modules(
        tmp_path,
        'import { errorText } from "./common.js";\n'
        'import { readFileSync } from "node:fs";\n'
        'const d = JSON.parse(readFileSync(0, "utf8"));\n'
        "process.stdout.write(JSON.stringify(d.cases.map((c) => "
        "errorText(c.msg, d.names, d.cat, d.lang, c.reader, d.forms))));\n",
    )
    names = ["Аня", "Боря", "Вова"]
    reasons = [("wrong_phase", {"what": "give 9S", "seat": 1, "task": "contract"}),
               ("wrong_phase", {"what": "KS+", "seat": 0, "task": "give"}),
               ("wrong_phase", {"what": "contract 120", "seat": 2, "task": "bid"}),
               ("must_follow", {"suit": "H"}), ("not_in_hand", {"card": "TS"}),
               ("bid_over_cap", {"cap": 120, "why": "no_marriage"})]
    for lang in ("ru", "en"):
        cases = [{"msg": {"type": "error", "code": "illegal_move",
                          "params": {"code": code, "params": params}}, "reader": reader}
                 for code, params in reasons for reader in (None, 1)]
        payload = json.dumps({"cases": cases, "cat": texts_catalog(lang), "lang": lang,
                              "names": names, "forms": name_forms_json(tuple(names))[lang]})
        out = _run_node(tmp_path, payload)
        assert isinstance(out, list)
        for case, text in zip(cases, out, strict=True):
            p = case["msg"]["params"]
            assert text.endswith(illegal_text(p["code"], p["params"], lang, names,
                                              case["reader"])), (case, text)


# ---------------------------------------------------------------- the cards


@pytest.mark.needs("node")
def test_the_pages_cards_are_the_engines(tmp_path: Path) -> None:
    """cards.js keeps the pages' own copy of the card points, the cards' labels and the
    suits' names (a page counts a pile's points and names a card as it draws it, without
    asking): for every card they are the engine's (engine/cards.py POINTS, card_label) and
    the catalogue's (SUIT_NAMES; SUIT_OF ends a card's name), and so are the suits' and
    ranks' orders."""
    _page_modules(
        tmp_path,
        'import { SUITS, RANKS, SUIT_NAME, pointsOf, cardLabel, cardName } from "./cards.js";\n'
        'import { readFileSync } from "node:fs";\n'
        'const cards = JSON.parse(readFileSync(0, "utf8"));\n'
        "const langs = ['ru', 'en'];\n"
        "process.stdout.write(JSON.stringify({suits: SUITS, ranks: RANKS, names: langs.map("
        "(l) => [...SUITS].map((s) => SUIT_NAME[l][s])), cards: cards.map((c) => [pointsOf(c), "
        "...langs.map((l) => cardLabel(c, l)), ...langs.map((l) => cardName(c, l))])}));\n",
    )
    every = range(N_CARDS)
    out = _run_node(tmp_path, json.dumps([card_str(c) for c in every]))
    assert isinstance(out, dict)
    assert (out["suits"], out["ranks"]) == (SUITS, RANKS)
    assert out["names"] == [list(SUIT_NAMES["ru"]), list(SUIT_NAMES["en"])]
    for c, (points, label_ru, label_en, name_ru, name_en) in zip(every, out["cards"],
                                                                strict=True):
        assert (points, label_ru, label_en) == (POINTS[c], card_label(c, "ru"),
                                                card_label(c, "en"))
        suit = c // 6
        assert name_ru.endswith(" " + SUIT_OF["ru"][suit]), name_ru
        assert name_en.endswith(" of " + SUIT_OF["en"][suit]), name_en
