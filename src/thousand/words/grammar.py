"""The grammar of the words: the templates every text of the package is written in, and
the agreement they need (names declined, counts agreed, numbers written as each language
writes them, the reader spoken to).

Every text is a template with ``{field}`` marks, and a mark may say how its value is to be
worded (:func:`render`):

* ``{name}`` — the value as it is: a player's name, a number, a card.  The reader himself
  (the player called "Вы"/"You", or ``reader_seat``) is "вы"/"you" there, "Вы"/"You" at the
  start of a sentence.
* ``{name:dat}`` — a name declined, in Russian with pymorphy3 (``nom gen dat acc ins loc``;
  ``poss`` is "Bob's"/"your" in English): «отдаёт карту Боре», «ход Ани»; the reader is
  «вам», «вас».  A name pymorphy3 does not know as a first name (a foreign one, "Бот 1")
  stays as it is.
* ``{name:отдаёт|отдаёте}`` — the first words for another player, the second when
  ``name`` is the reader (second person: «Вы берёте прикуп», "You take the talon"); either
  may hold marks of its own (``{name:Сдаёт {name}|Сдаёте вы}``).
* ``{n:#расклад|расклада|раскладов}`` — a count with its word agreed: «1 расклад»,
  «2 расклада», «5 раскладов» (Russian takes three forms, English two).
* ``{x:.1f}`` — anything else is a Python format specification.

Russian sentences avoid the past tense after a name (a name does not tell «сыграл» from
«сыграла»): «Заказ сыгран», «Аня берёт взятку».
"""

from __future__ import annotations

import functools
import re
from collections.abc import Mapping, Sequence
from typing import Any

#: The languages the words speak; Russian first, the default.
LANGS: tuple[str, ...] = ("ru", "en")

#: The grammatical cases a template may ask a name in (``{name:dat}``).
CASES: tuple[str, ...] = ("nom", "gen", "dat", "acc", "ins", "loc", "poss")
_GRAMMEMES = {"nom": "nomn", "gen": "gent", "dat": "datv", "acc": "accs", "ins": "ablt",
              "loc": "loct", "poss": "gent"}
#: What the reader is called: a player with this name is spoken to in the second person.
YOU = {"ru": "Вы", "en": "You"}
#: The reader in each case, inside a sentence.
YOU_FORMS = {
    "ru": {"nom": "вы", "gen": "вас", "dat": "вам", "acc": "вас", "ins": "вами", "loc": "вас",
           "poss": "ваш"},
    "en": {"nom": "you", "gen": "you", "dat": "you", "acc": "you", "ins": "you", "loc": "you",
           "poss": "your"},
}
_YOU_NAMES = frozenset({"вы", "you"})
_RU_WORD = re.compile(r"[А-ЯЁа-яё]+")


def lang_of(lang: str) -> str:
    """``lang`` as the words know it: Russian, or else English."""
    return "ru" if lang == "ru" else "en"


def label(name: object, lang: str) -> str:
    """A player's name heading a line («Боря: …»): the reader as ``lang`` calls him
    («Вы», "You"), whichever language his name was written in."""
    return YOU[lang_of(lang)] if is_you(name) else str(name)


def is_you(name: object) -> bool:
    """Whether ``name`` is the reader: "Вы" or "You" (in any letter case)."""
    return isinstance(name, str) and name.strip().lower() in _YOU_NAMES


class SeatLabel(str):
    """A seat without a known name ("игрок 2", "seat 2"), with its Russian case forms."""

    forms: dict[str, str]

    def __new__(cls, seat: int, lang: str) -> SeatLabel:
        if lang_of(lang) == "ru":
            self = super().__new__(cls, f"игрок {seat}")
            self.forms = {"gen": f"игрока {seat}", "dat": f"игроку {seat}",
                          "acc": f"игрока {seat}", "ins": f"игроком {seat}",
                          "loc": f"игроке {seat}", "poss": f"игрока {seat}"}
        else:
            self = super().__new__(cls, f"seat {seat}")
            self.forms = {"poss": f"seat {seat}'s"}
        return self


@functools.lru_cache(maxsize=1)
def _morph() -> Any:
    try:
        import pymorphy3  # type: ignore[import-untyped]
    except ImportError:  # pragma: no cover - a dependency; without it names stay as they are
        return None
    return pymorphy3.MorphAnalyzer(lang="ru")


def _like(form: str, original: str) -> str:
    """``form`` (pymorphy3's, in lower case) written in the letter case of ``original``."""
    out = form
    if len(original) > 1 and original.isupper():
        return out.upper()
    if original[:1].isupper():
        return out[:1].upper() + out[1:]
    return out


@functools.lru_cache(maxsize=4096)
def _ru_declined(name: str, case: str) -> str:
    word = name.strip()
    if case == "nom" or not _RU_WORD.fullmatch(word):
        return name
    morph = _morph()
    if morph is None:
        return name
    for parse in morph.parse(word):
        tag = parse.tag
        if "Name" in tag and tag.case == "nomn" and tag.number == "sing":
            form = parse.inflect({_GRAMMEMES[case]})
            return name if form is None else _like(form.word, word)
    return name


def declined(name: str, case: str, lang: str = "ru") -> str:
    """``name`` in grammatical ``case`` (one of :data:`CASES`): «Боря» → «Боре» (dat),
    «Ани» (gen of «Аня»), «Машей» (ins).  In Russian pymorphy3 declines a first name it
    knows; any other name (a foreign one, "Бот 1", two words) is left as it is.  The reader
    ("Вы"/"You") is a pronoun: «вам», «вас».  In English a name stays as it is, ``poss``
    adds "'s"."""
    if case not in CASES:
        raise ValueError(f"case must be one of {', '.join(CASES)}, not {case!r}")
    lang = lang_of(lang)
    if is_you(name):
        return YOU_FORMS[lang][case]
    forms = getattr(name, "forms", None)
    if isinstance(forms, dict) and case in forms:
        return str(forms[case])
    if lang == "en":
        return f"{name}'s" if case == "poss" else str(name)
    return _ru_declined(str(name), case)


def name_forms(name: str, lang: str = "ru") -> dict[str, str]:
    """Every case of ``name`` (:func:`declined`), for a client that words events itself."""
    return {case: declined(name, case, lang) for case in CASES}


def plural(n: int, forms: Sequence[str], lang: str = "ru") -> str:
    """The word of ``forms`` that agrees with ``n``: Russian ``(one, few, many)`` —
    «1 расклад, 2 расклада, 5 раскладов, 21 расклад, 11 раскладов» —, English
    ``(one, other)``."""
    n = abs(int(n))
    if lang_of(lang) == "ru" and len(forms) >= 3:
        n10, n100 = n % 10, n % 100
        if n10 == 1 and n100 != 11:
            return forms[0]
        if 2 <= n10 <= 4 and not 12 <= n100 <= 14:
            return forms[1]
        return forms[2]
    return forms[0] if n == 1 else forms[-1]


def count(n: int, forms: Sequence[str], lang: str = "ru") -> str:
    """``n`` and its agreed word: ``count(271, ("пробного расклада", "пробных раскладов",
    "пробных раскладов"))`` is «271 пробного расклада»."""
    return f"{n} {plural(n, forms, lang)}"


def decimal(value: float, lang: str = "ru", digits: int = 1, *, sign: bool = False) -> str:
    """A number with ``digits`` decimals as ``lang`` writes it: «96,4» in Russian (a
    decimal comma), "96.4" in English; ``sign``: "+3.5" with its sign always.  The one
    way the terminal and the commands write a fraction of a number, so that no Russian
    line has a decimal point."""
    text = f"{value:+.{digits}f}" if sign else f"{value:.{digits}f}"
    return text.replace(".", ",") if lang_of(lang) == "ru" else text


def percent(value: float, lang: str = "ru", digits: int = 1) -> str:
    """``value`` percent («96,4%», "96.4%"): :func:`decimal` and the sign, no space
    before it (the project's way, in both languages)."""
    return decimal(value, lang, digits) + "%"


def points_number(value: float, lang: str = "ru") -> str:
    """Points as the analysis gives them: whole when they are («25»), else to one
    decimal («12,5»)."""
    return f"{value:.0f}" if float(value).is_integer() else decimal(value, lang)


def _closing(text: str, start: int) -> int:
    """The index of the ``}`` that closes the ``{`` at ``start``, or -1."""
    depth = 0
    for i in range(start, len(text)):
        if text[i] == "{":
            depth += 1
        elif text[i] == "}":
            depth -= 1
            if depth == 0:
                return i
    return -1


def _alternatives(spec: str) -> list[str]:
    """``spec`` split at the ``|`` that stand outside nested marks."""
    out, depth, last = [], 0, 0
    for i, ch in enumerate(spec):
        if ch == "{":
            depth += 1
        elif ch == "}":
            depth -= 1
        elif ch == "|" and depth == 0:
            out.append(spec[last:i])
            last = i + 1
    out.append(spec[last:])
    return out


def _capital(text: str) -> str:
    return text[:1].upper() + text[1:]


def _field(name: str, spec: str | None, lang: str, values: Mapping[str, object],
           first: bool) -> str:
    value = values.get(name)
    you = is_you(value)
    if not spec:
        if you:
            word = YOU_FORMS[lang]["nom"]
            return _capital(word) if first else word
        return "?" if value is None else str(value)
    if spec.startswith("#"):
        forms = spec[1:].split("|")
        try:
            return count(int(str(value)), forms, lang)
        except ValueError:
            return "?" if value is None else f"{value} {forms[-1]}"
    alts = _alternatives(spec)
    if len(alts) > 1:
        return _render(alts[1] if you else alts[0], lang, values, first)
    if spec in CASES:
        if value is None:
            return "?"
        word = declined(str(value) if not isinstance(value, str) else value, spec, lang)
        return _capital(word) if first and you else word
    if value is None:
        return "?"
    return format(value, spec)


def _render(template: str, lang: str, values: Mapping[str, object], first: bool) -> str:
    out: list[str] = []
    i = 0
    while i < len(template):
        j = template.find("{", i)
        if j < 0:
            out.append(template[i:])
            break
        out.append(template[i:j])
        k = _closing(template, j)
        if k < 0:
            out.append(template[j:])
            break
        name, colon, spec = template[j + 1:k].partition(":")
        at_start = first and not any(out)
        out.append(_field(name.strip(), spec if colon else None, lang, values, at_start))
        i = k + 1
    return "".join(out)


def render(template: str, lang: str = "ru", values: Mapping[str, object] | None = None,
           **params: object) -> str:
    """``template`` (the marks of this module's docstring) with ``values`` filled in and
    worded in ``lang``; a missing value is "?"."""
    merged: dict[str, object] = dict(values or {})
    merged.update(params)
    return _render(template, lang_of(lang), merged, True)
