"""One declaration per house-rule option (thousand.engine.options, the fields of Rules), and
everything made from it: the words, the groups, the C fields, and the C paths' allow-lists.

The walk at the end takes every option and every kind of value other than its default: the
solver's core and the fast path either play it (and then play it as the engine and the
pure-Python search do) or refuse it; neither may ignore it.
"""

from __future__ import annotations

import ast
import dataclasses
import random
from pathlib import Path
from typing import Any

import pytest

from thousand.engine.cards import mask_of
from thousand.engine.options import GROUPS, REACHES, Option
from thousand.engine.rules import OPTION_NAMES, OPTIONS, Rules, RulesError
from thousand.envs import fastsim
from thousand.server.catalog import rules_catalog
from thousand.solver import PlayOptions, PlayPosition, Solver
from thousand.solver import native_options as no
from thousand.words.rules import GROUP_TITLE, OPTION_TEXT, value_words
from thousand.words.rules import GROUPS as WORDED_GROUPS

ENGINE = Path(__file__).resolve().parent.parent / "src" / "thousand" / "engine"


def test_every_field_of_rules_is_one_declared_option() -> None:
    """Rules' fields are the declarations: every field but ``preset`` is an option with a
    group and a reach, its default the field's; every group holds an option."""
    fields = [f.name for f in dataclasses.fields(Rules) if f.name != "preset"]
    assert tuple(fields) == OPTION_NAMES == tuple(OPTIONS)
    classic = Rules()
    for name, o in OPTIONS.items():
        assert o.name == name and o.group in GROUPS and o.reach in REACHES, name
        assert getattr(classic, name) == o.default, name
    assert {o.group for o in OPTIONS.values()} == set(GROUPS)


def test_words_for_exactly_the_declared_options() -> None:
    """The words are keyed by option and group: each declared one has its title and its
    explanation in Russian and English, and nothing undeclared has words."""
    assert set(OPTION_TEXT) == set(OPTIONS)
    assert set(GROUP_TITLE) == set(GROUPS)
    for name, words in OPTION_TEXT.items():
        assert all((words.title.ru, words.title.en, words.text.ru, words.text.en)), name
    assert all(t.ru and t.en for t in GROUP_TITLE.values())
    for name, o in OPTIONS.items():  # each value that is a word is worded for players
        for word in [c for c in o.spec.choices if isinstance(c, str)] + list(o.spec.words):
            assert value_words(name, word, "ru") != word and value_words(name, word, "en")


@pytest.mark.parametrize("lang", ["ru", "en"])
def test_one_grouping_for_the_pages_and_the_picker(lang: str) -> None:
    """The rules pages' groups (rules_text.GROUPS) and the site's option picker
    (GET /api/rules) are the declaration's groups, in the same order, every option once."""
    picker = [(g["title"], tuple(o["name"] for o in g["options"]))
              for g in rules_catalog(lang)["groups"]]
    assert picker == [(ru if lang == "ru" else en, names) for ru, en, names in WORDED_GROUPS]
    listed = [n for _, names in picker for n in names]
    assert sorted(listed) == sorted(OPTION_NAMES)


def test_c_fields_are_the_declared_ones() -> None:
    """The C structs (native_options.PLAY and DEAL, from which options.h is written) hold
    exactly the declared C fields: a ``play`` option's in PlayOpts, a ``deal`` one's in
    DealOpts; the solver's PlayOptions has a field for each ``play`` option with a C field."""
    def declared(reach: str) -> set[str | None]:
        return {o.c_field for o in OPTIONS.values() if o.reach == reach and o.c is not None}

    assert declared("play") == {f.name for f in no.PLAY}
    assert declared("deal") == {f.name for f in no.DEAL}
    assert not declared("game")
    carried = {o.name for o in OPTIONS.values() if o.reach == "play" and o.c is not None}
    assert {f.name for f in dataclasses.fields(PlayOptions)} == carried


def _options_read(module: str) -> set[str]:
    """The options a module of the engine reads as attributes (``rules.bid_step``)."""
    tree = ast.parse((ENGINE / module).read_text(encoding="utf-8"))
    return {n.attr for n in ast.walk(tree)
            if isinstance(n, ast.Attribute) and n.attr in OPTIONS}


def test_reach_covers_what_the_engine_reads() -> None:
    """A declared reach is not smaller than the engine's use: what the card-play rules read
    is ``play``; what the deal reads is ``play`` or ``deal`` (never ``game``, which the C
    paths would then not refuse)."""
    for name in _options_read("play_rules.py"):
        assert OPTIONS[name].reach == "play", name
    for name in _options_read("deal.py"):
        assert OPTIONS[name].reach != "game", name


# --------------------------------------------------------------------------- the walk


def _other_values(o: Option) -> list[Any]:
    """Values of ``o`` other than its default: each other word or choice, the bounds of a
    number, none for an optional one."""
    spec = o.spec
    if spec.kind in ("bool", "bool_or_word"):
        values: list[Any] = [not o.default, *spec.words]
    elif spec.kind == "marriages":
        values = [(100, 80, 60, 40), (60, 60, 60, 60)]
    elif spec.kind == "ints":
        values = [(555, -555)]
    elif spec.choices:
        values = list(spec.choices)
    else:
        low = spec.minimum if spec.minimum is not None else -10
        high = spec.maximum if spec.maximum is not None else 10
        step = spec.multiple * 2
        values = [low, low + step, high, *spec.words]
        if isinstance(o.default, int):
            values += [o.default + step, o.default - step]
    if spec.optional:
        values.append(None)
    return [v for v in dict.fromkeys(values) if v != o.default]


#: What an option needs beside it to be played at all (RULES §7).
_NEEDS: dict[str, dict[str, Any]] = {"sitting_dealer_scores": {"players": 4}}


def _rulesets() -> list[tuple[str, Rules]]:
    out = []
    for name, o in OPTIONS.items():
        made = 0
        for value in _other_values(o):
            try:
                rules = Rules.preset_rules("classic", **{**_NEEDS.get(name, {}), name: value})
            except RulesError:
                continue
            made += 1
            out.append((f"{name}={value}", rules))
        assert made, f"no value of {name} other than its default makes a ruleset"
    return out


RULESETS = _rulesets()


@pytest.mark.needs("c-core")
def test_every_option_the_fast_path_plays_or_refuses() -> None:
    """For each option and value: the fast path refuses it (fast=True raises) or plays the
    engine's deals move for move."""
    assert fastsim.fast_module() is not None, fastsim.build_error
    played = 0
    for case, (label, rules) in enumerate(RULESETS):
        if not fastsim.supports(rules):
            with pytest.raises(RuntimeError, match="cannot play"):
                fastsim.random_deals(rules, 1, 1, fast=True)
            continue
        played += 1
        fast = fastsim.random_deals(rules, 7 + case, 30, record=True, fast=True)
        assert fast == fastsim.random_deals(rules, 7 + case, 30, record=True, fast=False), label
    assert played > len(RULESETS) // 3


def _small(rng: random.Random, options: PlayOptions) -> PlayPosition:
    """A random position of four tricks to go (every card still to play)."""
    deck = list(range(24))
    rng.shuffle(deck)
    return PlayPosition(hands=(mask_of(deck[0:4]), mask_of(deck[4:8]), mask_of(deck[8:12])),
                        leader=rng.randrange(3), declarer=rng.randrange(3),
                        tricks_played=4, options=options)


@pytest.mark.needs("c-core")
def test_every_option_the_solver_plays_or_refuses() -> None:
    """For each option and value: the solver refuses it (ValueError) or its C core plays it
    as the pure-Python search does; a card-play option it plays reaches the C dict."""
    rng = random.Random(30)
    classic = PlayOptions.of().native()
    for label, rules in RULESETS:
        name = label.partition("=")[0]
        try:
            options = PlayOptions.of(rules)
        except ValueError:
            assert OPTIONS[name].reach == "play" and OPTIONS[name].c is None, label
            continue
        if OPTIONS[name].reach != "play":
            continue
        assert options.native() != classic, label
        py, c = Solver(native=False), Solver(native=True)
        for _ in range(12):
            pos = _small(rng, options)
            assert py.solve(pos) == c.solve(pos), (label, repr(pos))


def test_undeclared_c_refuses(monkeypatch: pytest.MonkeyPatch) -> None:
    """Fail closed: an option declared as not read in C (as a new one is until its C field is
    written) is refused by both C paths when it is off its default."""
    rules = Rules.preset_rules("classic", must_overtake=True)
    assert fastsim.supports(rules)
    PlayOptions.of(rules)
    bare = dataclasses.replace(OPTIONS["must_overtake"], c=None)
    monkeypatch.setitem(OPTIONS, "must_overtake", bare)
    assert fastsim.why_unsupported(rules) == \
        "must_overtake=true: the fast path's C code does not play it"
    with pytest.raises(ValueError, match="must_overtake"):
        PlayOptions.of(rules)
    assert fastsim.supports(Rules())
    PlayOptions.of(Rules())

