"""What the browser needs to word things: the rules (``GET /api/rules``) and the message
catalogue (``GET /api/texts``), in Russian or English.

The words are those of :mod:`thousand.words.rules` (the same as ``thousand rules
--explain``), :mod:`thousand.words.catalogue` and :mod:`thousand.words.grammar`; this module
only arranges them as JSON.
"""

from __future__ import annotations

import functools
from typing import Any

from thousand.bots import bot_levels, describe_level
from thousand.engine.rules import OPTIONS, PRESET_NAMES, Rules
from thousand.words import catalogue, grammar
from thousand.words.rules import GROUPS, PRESET_TEXT, explain, preset_title, title
from thousand.words.vocabulary import vocabulary_json

__all__ = ["name_forms_json", "rules_catalog", "texts_catalog"]


def _option(name: str, lang: str, classic: dict[str, Any]) -> dict[str, Any]:
    out: dict[str, Any] = {
        "name": name,
        "title": title(name, lang),
        "explain": explain(name, lang),
        "default": classic[name],
    }
    spec = OPTIONS[name].spec
    kind = str(spec.kind)
    values: list[Any] | None = None
    if kind == "bool":
        values = [True, False]
    elif spec.choices:
        values = list(spec.choices)
    elif kind == "bool_or_word":
        values = [True, False, *spec.words]
    elif kind == "int_or_word":
        out["words"] = list(spec.words)  # a whole number, or one of these words
    if values is not None and spec.optional:
        values = [None, *values]
    out["kind"] = kind
    if values is not None:
        out["values"] = values
    if spec.minimum is not None:
        out["min"] = spec.minimum
    if spec.maximum is not None:
        out["max"] = spec.maximum
    if spec.multiple != 1:
        out["step"] = spec.multiple
    if spec.optional:
        out["optional"] = True
    return out


def _preset_title(name: str, lang: str) -> tuple[str, str]:
    """A preset's title (its name for people, :data:`thousand.words.presets.PRESET_TITLES`, the
    one home of those names) and its description without the heading it starts with."""
    text = PRESET_TEXT[name].get(lang) if name in PRESET_TEXT else name
    head, sep, rest = text.partition(": ")
    title_text = preset_title(name, lang)
    return title_text[:1].upper() + title_text[1:], (rest if sep and len(head) <= 40 else text)


def rules_catalog(lang: str) -> dict[str, Any]:
    """``GET /api/rules``: the presets (every option's value in each) and the options in
    the groups of the rules pages (:data:`thousand.words.rules.GROUPS`), with their titles,
    explanations, kinds, values and classic defaults."""
    classic = Rules().to_json()
    presets = []
    for name in PRESET_NAMES:
        head, description = _preset_title(name, lang)
        options = Rules.preset_rules(name).to_json()
        options.pop("preset", None)
        presets.append({"name": name, "title": head, "description": description,
                        "options": options})
    groups = [
        {"title": ru if lang == "ru" else en,
         "options": [_option(n, lang, classic) for n in names]}
        for ru, en, names in GROUPS
    ]
    return {"presets": presets, "groups": groups}


def _worded(value: Any, lang: str) -> Any:
    """A catalogue table in ``lang``: ``(English, Russian)`` pairs and ``{"en", "ru"}``
    maps pick the language; other values pass as they are."""
    if isinstance(value, dict):
        if set(value) == {"en", "ru"}:
            return _worded(value[lang], lang)
        return {str(k): _worded(v, lang) for k, v in value.items()}
    if (isinstance(value, tuple) and len(value) == 2
            and all(isinstance(v, str) for v in value)):
        return value[1] if lang == "ru" else value[0]
    if isinstance(value, tuple | list):
        return [_worded(v, lang) for v in value]
    return value


def texts_catalog(lang: str) -> dict[str, Any]:
    """``GET /api/texts``: every table of :mod:`thousand.words.catalogue` (illegal-move texts,
    reasons, tasks, suit names, event texts when it has them) and of
    :mod:`thousand.words.grammar` (what the reader is called) in ``lang``, plus the bot
    levels with their descriptions and the words of typed moves (``typed``:
    :func:`thousand.words.vocabulary.vocabulary_json`, the same in both languages).  Keys are
    the tables' names in lower case, in the order of their names."""
    out: dict[str, Any] = {"lang": lang}
    tables = {name: getattr(module, name) for module in (grammar, catalogue)
              for name in dir(module)
              if name.isupper() and not name.startswith("_") and name != "LANGS"}
    for name, value in sorted(tables.items()):
        if isinstance(value, dict) and value:
            out[name.lower()] = _worded(value, lang)
    out["suits"] = "".join(getattr(catalogue, "SUITS", "SCDH"))
    out["bot_levels"] = {level: describe_level(level, lang) for level in bot_levels()}
    # every registered level has a name for people (a level without one: its identifier)
    out["bot_level_names"] = {level: catalogue.level_name(level, lang) for level in bot_levels()}
    # the words a player may type for a move, the terminal's own (web/common.js reads them)
    out["typed"] = vocabulary_json()
    return out


@functools.lru_cache(maxsize=256)
def name_forms_json(names: tuple[str, ...]) -> dict[str, dict[str, dict[str, str]]]:
    """The players' names in every case, for the browser to decline them in the event
    lines (``{f:dat}``): ``{"ru": {name: grammar.name_forms(name, "ru")}, "en": {...}}``.
    Treat the result as read-only (it is cached)."""
    return {lang: {n: grammar.name_forms(n, lang) for n in names if isinstance(n, str) and n}
            for lang in grammar.LANGS}
