"""The one strict JSON reader: what a client, a bot or a file sends, refused before it is built.

``json.loads`` alone takes a key given twice (the last wins), reads ``NaN`` and
``Infinity``, guesses UTF-16 and UTF-32 for bytes, builds a number of thousands of digits
before ``int`` gives up, and runs out of stack on a text nested a few thousand levels deep.
Every reader of outside JSON — a client message (:mod:`thousand.engine.client_messages`), an
HTTP body (``server/reader.py``), a game record (:mod:`thousand.engine.record`) — reads it
through :func:`read_json`, which refuses all of these with one :class:`JsonRefused` per
reason.  Each refusal holds its facts and says them in a default sentence ("the body is
larger than 65536 bytes"); a caller with words of its own (a record's, the table protocol's)
words the same facts its way, so that the rules are kept in one place and the texts stay
what their readers have known.

The rules, checked in this order:

* size: at most ``limit`` bytes of UTF-8;
* encoding: UTF-8 only (bytes are never guessed to be another encoding; a text with a lone
  surrogate could not be written as UTF-8 and is refused too);
* numbers of at most ``digits`` digits (one key may be allowed more: a record's seed), and
  nesting at most ``depth`` levels: both checked on the text's shape alone, with ``re`` and
  ``bytes``, before ``json`` recurses or builds anything;
* no key twice in an object; no ``NaN``, ``Infinity`` or ``-Infinity``.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Mapping
from functools import cache
from typing import Any

__all__ = [
    "DEPTH",
    "DIGITS",
    "JsonRefused",
    "KeyTwice",
    "LongNumber",
    "NotANumber",
    "NotJson",
    "NotUtf8",
    "TooDeep",
    "TooLarge",
    "nested_deeper",
    "read_json",
]

#: The deepest nesting a client's JSON may have by default (a table's body needs 3, a
#: record 5).
DEPTH = 16
#: The longest number a client's JSON may hold by default (``int`` refuses over 4300
#: digits, slowly).
DIGITS = 40


class JsonRefused(ValueError):
    """A JSON text refused by :func:`read_json`; the subclass says why, its attributes the
    facts, ``str()`` a sentence about ``what`` ("the body", "a message")."""


class TooLarge(JsonRefused):
    """More than ``limit`` bytes of UTF-8 (``size`` of them)."""

    def __init__(self, what: str, size: int, limit: int) -> None:
        super().__init__(f"{what} is larger than {limit} bytes")
        self.size = size
        self.limit = limit


class NotUtf8(JsonRefused):
    """Bytes that are not UTF-8 (``byte`` at ``offset``), or a text with a lone surrogate
    (both ``None``)."""

    def __init__(self, what: str, byte: int | None = None, offset: int | None = None) -> None:
        where = "" if byte is None else f": byte 0x{byte:02x} at offset {offset}"
        super().__init__(f"{what} is not UTF-8 text{where}")
        self.byte = byte
        self.offset = offset


class LongNumber(JsonRefused):
    """A number of ``digits`` digits, over the ``most`` allowed."""

    def __init__(self, what: str, digits: int, most: int) -> None:
        super().__init__(f"{what}: a number of {digits} digits; at most {most}")
        self.digits = digits
        self.most = most


class TooDeep(JsonRefused):
    """Nested deeper than ``most`` levels."""

    def __init__(self, what: str, most: int) -> None:
        super().__init__(f"{what}: nested deeper than {most} levels")
        self.most = most


class KeyTwice(JsonRefused):
    """An object with ``key`` in it twice."""

    def __init__(self, what: str, key: str) -> None:
        super().__init__(f"{what}: the key {key[:40]!r} is given twice")
        self.key = key


class NotANumber(JsonRefused):
    """``NaN``, ``Infinity`` or ``-Infinity`` (``text``), which JSON does not have."""

    def __init__(self, what: str, text: str) -> None:
        super().__init__(f"{what}: {text} is not a JSON number")
        self.text = text


class NotJson(JsonRefused):
    """Not JSON at all: ``error`` is what ``json`` said (a ``JSONDecodeError`` with its
    place, another ``ValueError``, or a ``RecursionError`` for brackets opened deeper than
    the stack and never closed, which the scan of pairs does not see)."""

    def __init__(self, what: str, error: ValueError | RecursionError) -> None:
        if isinstance(error, json.JSONDecodeError):
            super().__init__(f"{what} is not JSON: {error.msg} at offset {error.pos}")
        else:
            super().__init__(f"{what} is not JSON")
        self.error = error


# The text's shape, seen at the speed of ``re`` and ``bytes``: the JSON strings (to skip
# them), long runs of digits, and the brackets alone ("[" and "{" alike, so that a pass of
# ``replace(b"[]", b"")`` takes one level off every innermost pair).
_JSON_STRING = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"')
_ALL_BUT_BRACKETS = bytes(b for b in range(256) if b not in b"[]{}")
_ONE_BRACKET = bytes.maketrans(b"{}", b"[]")


@cache
def _long_number(digits: int) -> re.Pattern[str]:
    return re.compile(f"[0-9]{{{digits + 1},}}")


@cache
def _after_key(key: str) -> re.Pattern[str]:
    return re.compile(f'"{re.escape(key)}"' + r"\s*:\s*-?\Z")


def _scan(text: str, what: str, depth: int, digits: int, wide: tuple[str, int] | None) -> None:
    """Refuse too long numbers and too deep nesting on the text's shape alone: the strings
    taken out (but the key ``wide`` names), the brackets kept, innermost pairs taken off
    level by level — never recursion, never a structure built."""
    if wide is None:
        outside = _JSON_STRING.sub('""', text)
    else:
        kept = f'"{wide[0]}"'
        outside = _JSON_STRING.sub(lambda m: m.group() if m.group() == kept else '""', text)
    for long in _long_number(digits).finditer(outside):
        # the value of the key ``wide`` names may have more digits (its place is the
        # caller's to check once the text is read)
        if (wide is not None and len(long.group()) <= wide[1]
                and _after_key(wide[0]).search(outside, max(0, long.start() - 64),
                                               long.start())):
            continue
        raise LongNumber(what, len(long.group()), digits)
    shape = outside.encode("utf-8", "surrogatepass").translate(_ONE_BRACKET, _ALL_BUT_BRACKETS)
    for _ in range(depth):
        inner = shape.replace(b"[]", b"")
        if len(inner) == len(shape):
            return
        shape = inner
    if b"[]" in shape:
        raise TooDeep(what, depth)


def read_json(data: str | bytes, *, limit: int, what: str = "the JSON", depth: int = DEPTH,
              digits: int = DIGITS, wide: tuple[str, int] | None = None) -> Any:
    """``data`` as JSON, by the module's rules, or the :class:`JsonRefused` that says what
    is wrong (``what`` names the thing: "the body", "a message").  ``wide``: a key whose
    number may have more digits than ``digits`` (``("seed", 39)``)."""
    size = len(data) if isinstance(data, bytes) else len(data.encode("utf-8", "surrogatepass"))
    if size > limit:
        raise TooLarge(what, size, limit)
    if isinstance(data, bytes):
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError as e:
            raise NotUtf8(what, data[e.start], e.start) from None
    else:
        text = data
        try:
            text.encode("utf-8")
        except UnicodeEncodeError:
            raise NotUtf8(what) from None
    _scan(text, what, depth, digits, wide)

    def pairs(items: list[tuple[str, Any]]) -> dict[str, Any]:
        obj = dict(items)
        if len(obj) != len(items):
            seen: set[str] = set()
            for key, _ in items:
                if key in seen:
                    raise KeyTwice(what, key)
                seen.add(key)
        return obj

    def constant(name: str) -> Any:
        raise NotANumber(what, name)

    try:
        return json.loads(text, object_pairs_hook=pairs, parse_constant=constant)
    except JsonRefused:
        raise
    except (ValueError, RecursionError) as e:  # JSONDecodeError is a ValueError
        raise NotJson(what, e) from None


def nested_deeper(obj: object, depth: int = DEPTH) -> bool:
    """Whether the lists and objects of an already read value nest deeper than ``depth``
    (a caller handed a value, not a text; no recursion)."""
    stack: list[tuple[object, int]] = [(obj, 1)]
    while stack:
        node, level = stack.pop()
        if level > depth:
            return True
        children = node.values() if isinstance(node, Mapping) else node
        assert isinstance(children, Iterable)
        stack.extend((c, level + 1) for c in children if isinstance(c, Mapping | list | tuple))
    return False
