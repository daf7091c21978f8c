"""What a name may be, and when two names are one (docs/server.md "Players", "Names").

A name is shown to other people, so it must not pass for another one.  Two attacks were
seen (issue 27): *invisible* characters — zero-width spaces and joiners, the soft hyphen,
the Hangul filler, the braille blank, tag characters, left/right marks — that make «Anna»
and «An\u200bna» two names that look the same; and *look-alikes* — the Greek Α, Cherokee
Ꭺ, Armenian ո, Cyrillic а — that make «Αnna» pass for «Anna».

- :func:`check_person_name` refuses the first kind: each space-separated part of a name
  must pass the PRECIS ``UsernameCaseMapped`` profile (RFC 8265, the ``precis-i18n``
  package), which refuses every default-ignorable, format (Cf) and bidirectional control
  character, and every symbol outside ASCII (the braille blank is one); and its letters
  may not mix a script of look-alikes (Latin, Cyrillic, Greek...) with another.
- :func:`name_key` folds the second kind: the name's *confusable skeleton* (Unicode
  TR39) from the confusables data that ``confusable-homoglyphs`` ships, casefolded, so
  that a name that looks like another has the same key, and the key is what must be
  unique among accounts and what a guest may not take.
"""

from __future__ import annotations

import json
import unicodedata
from functools import cache
from importlib import resources

import confusable_homoglyphs  # type: ignore[import-untyped]
import precis_i18n

from .checks import check_name

__all__ = ["LEGACY_PREFIX", "check_person_name", "legacy_key", "name_key"]

#: The key of an account made before skeleton keys whose name now meets another's
#: (migration 0010 gives it this prefix and its old key, so that it still signs in).
LEGACY_PREFIX = "~"
#: Scripts whose letters pass for each other's: a name may not mix one with another
#: script («Аnna» with a Cyrillic А, «Ꭺnna» with a Cherokee one).
_ALIKE = {s: i for i, s in enumerate(
    ("LATIN", "CYRILLIC", "GREEK", "ARMENIAN", "CHEROKEE", "COPTIC"))}
_PROFILE = precis_i18n.get_profile("UsernameCaseMapped")
# The confusables data marks right-to-left prototypes with left-to-right marks.
_MARKS = "\u200e\u200f"


def check_person_name(value: object) -> str:
    """A person's name: :func:`checks.check_name`'s rules (1 to 32 characters, no control
    character), inner spaces folded to one, and each word a valid PRECIS username (no
    invisible, format, direction or non-ASCII symbol character).  ValueError says why."""
    name = " ".join(unicodedata.normalize("NFC", check_name(value)).split())
    for part in name.split(" "):
        try:
            _PROFILE.enforce(part)
        except UnicodeEncodeError as e:
            bad = part[e.start] if 0 <= e.start < len(part) else "?"
            raise ValueError(f"name: the character U+{ord(bad):04X} is not allowed in a "
                             f"name (invisible, a format or direction mark, or a "
                             f"symbol)") from None
    scripts = {_script(c) for c in name if c.isalpha()}
    if len(scripts) > 1 and scripts & _ALIKE.keys():
        named = sorted(scripts, key=lambda x: (x not in _ALIKE, _ALIKE.get(x, 0), x))
        raise ValueError(f"name: mixes {' and '.join(x.title() for x in named)} letters, which "
                         f"look alike; use one alphabet")
    return name


def _script(ch: str) -> str:
    """A letter's script, as the first word of its Unicode name (LATIN, CYRILLIC, CJK)."""
    return unicodedata.name(ch, "?").split(" ", 1)[0]


@cache
def _skeleton_map() -> dict[str, str]:
    """Each character of a confusable class → the class's representative (the lowest
    code point): the classes are the transitive closure of the pairs in Unicode's
    confusables.txt, as shipped by ``confusable-homoglyphs``."""
    text = resources.files(confusable_homoglyphs).joinpath("confusables.json").read_text(
        encoding="utf-8")
    data: dict[str, list[dict[str, str]]] = json.loads(text)
    parent: dict[str, str] = {}

    def find(c: str) -> str:
        while parent.get(c, c) != c:
            parent[c] = parent.get(parent[c], parent[c])
            c = parent[c]
        return c

    for key, entries in data.items():
        for entry in entries:
            other = entry["c"].strip(_MARKS)
            if len(key) != 1 or len(other) != 1:
                continue
            a, b = find(key), find(other)
            if a != b:
                parent[max(a, b)] = min(a, b)
    return {c: find(c) for c in parent}


def _skeleton(text: str) -> str:
    table = _skeleton_map()
    return "".join(table.get(c, c) for c in unicodedata.normalize("NFD", text))


def name_key(name: str) -> str:
    """What must be unique among names: the NFKC form in capitals, its skeleton,
    casefolded, skeleton again, recomposed.  Capitals first, because capitals are where
    the alphabets meet (Greek «ΡΟΡΕ» is Latin «POPE», though «ροπε» is not «pope»; and
    Cyrillic «Аня» and «АНЯ» are one name); the second skeleton folds the small letters
    that look alike.  «Anna», «ANNA», «Аnna», «Αnna» and «Ꭺnna» have one key."""
    once = _skeleton(unicodedata.normalize("NFKC", name).upper()).casefold()
    return unicodedata.normalize("NFC", _skeleton(once))


def legacy_key(name: str) -> str:
    """The key an account had before skeleton keys (NFKC, casefolded) under
    :data:`LEGACY_PREFIX`: how an account whose name became another's look-alike, or no
    longer a valid name, still signs in."""
    folded = unicodedata.normalize("NFKC", " ".join(name.split())).casefold()
    return LEGACY_PREFIX + folded[:63]
