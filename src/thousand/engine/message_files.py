"""The files written from the client messages' declarations (engine/client_messages.py).

Two files describe the messages a client sends, and neither is written by hand:

* ``protocol.schema.json`` beside this module: its definition ``client_message`` (the JSON
  Schema ``msgspec`` makes of the declarations, the messages' own schemas inside it), the
  rest of the file as it is;
* docs/protocol.md: the table of client messages between its two marker lines.

``python -m thousand.engine.message_files`` writes both after a message or a field changes;
``--check`` only says whether they are current (tests/test_message_files.py checks it too,
so that a declaration and its descriptions never drift apart).  It works in a source
checkout (docs/ is not installed with the package).
"""

from __future__ import annotations

import json
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import msgspec

from .client_messages import LIVE_TABLE_MESSAGES, TABLE_MESSAGES

__all__ = ["DOC_BEGIN", "DOC_END", "client_message_schema", "expected_files", "main",
           "messages_table"]

#: The checkout this module lies in (src/thousand/engine/ → the top).
ROOT = Path(__file__).resolve().parents[3]
#: Where the files are, from the top of the checkout.
SCHEMA_PATH = Path("src/thousand/engine/protocol.schema.json")
DOC_PATH = Path("docs/protocol.md")
#: The lines around the generated table in docs/protocol.md.
DOC_BEGIN = ("<!-- The table below is written by `python -m thousand.engine.message_files` "
             "from src/thousand/engine/client_messages.py: change the declarations there, "
             "not the table. -->")
DOC_END = "<!-- End of the written table. -->"

_REF = "#/definitions/client_message/definitions/{name}"


def client_message_schema() -> dict[str, Any]:
    """The schema's ``client_message``: one of the live table's messages (the table
    protocol's among them), each message's schema in its ``definitions``."""
    (union,), parts = msgspec.json.schema_components([LIVE_TABLE_MESSAGES.union],
                                                    ref_template=_REF)
    return {**union, "definitions": parts}


def _field_words(schema: dict[str, Any]) -> str:
    """What a value may be, from its schema: the bounds a client is held to."""
    kind = schema.get("type")
    if kind == "integer":
        low, below = schema.get("minimum"), schema.get("exclusiveMaximum")
        return f"a whole number from {low} below {below}"
    if kind == "string":
        short, long = schema.get("minLength"), schema.get("maxLength")
        return "a text" if long is None else f"a text of {short or 0} to {long} characters"
    if kind == "boolean":
        return "`true` or `false`"
    raise ValueError(f"no words for a value of type {kind!r}")


def messages_table() -> str:
    """The Markdown table of client messages, one row a message: an example, who reads it,
    each field (its bounds and its meaning) and what it asks."""
    schema = client_message_schema()["definitions"]
    rows = ["| message | read by | fields | meaning |", "|---|---|---|---|"]
    for kind, cls in LIVE_TABLE_MESSAGES.by_type.items():
        part = schema[cls.__name__]
        fields = {name: value for name, value in part["properties"].items() if name != "type"}
        example = {"type": kind, **{name: value["examples"][0]
                                    for name, value in fields.items()}}
        words = "; ".join(f"`{name}`: {_field_words(value)}, {value['description']}"
                          for name, value in fields.items()) or "—"
        reader = "every table" if kind in TABLE_MESSAGES.by_type else "the server"
        rows.append(f"| `{json.dumps(example, ensure_ascii=False)}` | {reader} | {words} "
                    f"| {part['description']} |")
    return "\n".join(rows)


def expected_files(root: Path = ROOT) -> dict[Path, str]:
    """Each generated file of the checkout at ``root`` (its path from there) with the text
    it should have."""
    schema_text = (root / SCHEMA_PATH).read_text("utf-8")
    schema = json.loads(schema_text)
    schema["definitions"]["client_message"] = client_message_schema()
    doc = (root / DOC_PATH).read_text("utf-8")
    head, begin, rest = doc.partition(DOC_BEGIN + "\n")
    _, end, tail = rest.partition(DOC_END)
    if not begin or not end:
        raise ValueError(f"{DOC_PATH} has lost the marker lines around its table of client "
                         "messages")
    return {
        SCHEMA_PATH: json.dumps(schema, indent=1) + "\n",
        DOC_PATH: f"{head}{begin}{messages_table()}\n{end}{tail}",
    }


def main(argv: Sequence[str] | None = None) -> int:
    """Write the files (or, with ``--check``, say which are not current: exit 1)."""
    args = list(sys.argv[1:] if argv is None else argv)
    check = args == ["--check"]
    if args and not check:
        print("usage: python -m thousand.engine.message_files [--check]", file=sys.stderr)
        return 2
    if not (ROOT / DOC_PATH).is_file():
        print(f"no {DOC_PATH} at {ROOT}: run this in a source checkout", file=sys.stderr)
        return 2
    stale = {path: text for path, text in expected_files().items()
             if (ROOT / path).read_text("utf-8") != text}
    for path, text in stale.items():
        if check:
            print(f"{path} is not what the declarations make", file=sys.stderr)
        else:
            (ROOT / path).write_text(text, "utf-8")
            print(f"wrote {path}")
    return 1 if check and stale else 0


if __name__ == "__main__":
    sys.exit(main())
