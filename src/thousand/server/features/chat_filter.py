"""The chat's word filter (docs/server.md "Moderation"): the words no chat line, report
text or «о себе» may have.

A line with a filtered word is refused, not masked: the sender is told why in his
language and may say it otherwise, while a masked line («ты ***») still carries the
insult and teaches the filter's gaps.  The list is data: a small default shipped beside
this module (``chat_words.txt``: the commonest Russian and English obscenities), and the
operator's own words added from a file (``thousand serve --chat-filter FILE``, the same
format).  An entry is a whole word, or, ending in ``*``, every word that begins with it;
words are compared casefolded, «ё» read as «е», Latin letters that look Cyrillic read as
Cyrillic in a word that has Cyrillic letters (so «xуй» with a Latin x is caught).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from importlib import resources
from pathlib import Path

from ..errors import ServerError

__all__ = ["ChatFilter", "FilterFileError", "default_words", "filtered", "load"]

_WORD = re.compile(r"\w+")
# Latin letters drawn like Cyrillic ones, read as those in a Cyrillic word
_LOOKALIKE = str.maketrans("aceopxyk", "асеорхук")


def _fold(word: str) -> str:
    word = word.casefold().replace("ё", "е")
    if any("а" <= c <= "я" for c in word):
        word = word.translate(_LOOKALIKE)
    return word


class FilterFileError(ValueError):
    """An operator's filter file that cannot be read: what is wrong, for ``thousand
    serve`` to print."""


def _entries(lines: Iterable[str]) -> list[str]:
    out = []
    for line in lines:
        entry = line.split("#", 1)[0].strip()
        if entry:
            out.append(entry)
    return out


def default_words() -> list[str]:
    """The shipped list's entries."""
    text = resources.files(__package__).joinpath("chat_words.txt").read_text("utf-8")
    return _entries(text.splitlines())


@dataclass(frozen=True, slots=True)
class ChatFilter:
    """Whole words and word beginnings, folded (:func:`_fold`)."""

    words: frozenset[str]
    prefixes: tuple[str, ...]

    @classmethod
    def of(cls, entries: Iterable[str]) -> ChatFilter:
        words, prefixes = set(), set()
        for entry in entries:
            if entry.endswith("*"):
                if entry.rstrip("*"):
                    prefixes.add(_fold(entry.rstrip("*")))
            else:
                words.add(_fold(entry))
        return cls(frozenset(words), tuple(sorted(prefixes)))

    def matches(self, text: str) -> bool:
        """Whether ``text`` has a filtered word."""
        for found in _WORD.finditer(text):
            word = _fold(found.group())
            if word in self.words or word.startswith(self.prefixes):
                return True
        return False

    def check(self, text: str, field: str = "text") -> None:
        """Refuse ``text`` with a filtered word: ServerError ``filtered`` (400), worded in
        both languages."""
        if self.matches(text):
            raise filtered(field)


def filtered(field: str) -> ServerError:
    return ServerError("filtered", f"{field}: a word the site does not allow: say it "
                       "otherwise", status=400, field=field,
                       ru="здесь есть слово, которое на сайте не принято: скажите иначе")


def load(path: str | Path | None = None) -> ChatFilter:
    """The default list, and the operator's file's words when ``path`` names one."""
    entries = default_words()
    if path is not None:
        try:
            entries += _entries(Path(path).read_text("utf-8").splitlines())
        except (OSError, UnicodeDecodeError) as e:
            raise FilterFileError(f"--chat-filter {path}: {e}") from None
    return ChatFilter.of(entries)
