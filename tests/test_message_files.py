"""The client messages' declarations and what is written from them (thousand.engine.message_files):
the committed schema and docs/protocol.md's table are current, and the schema takes exactly
the messages the reader takes."""

from __future__ import annotations

import itertools
import json
from pathlib import Path
from typing import Any

import jsonschema

from thousand.engine.client_messages import (
    LIVE_TABLE_MESSAGES,
    ProtocolError,
    read_client_message,
)
from thousand.engine.message_files import client_message_schema, expected_files, main
from thousand.engine.protocol import schema

ROOT = Path(__file__).resolve().parents[1]


def test_the_committed_files_are_what_the_declarations_make() -> None:
    """A message or a field changed without ``python -m thousand.engine.message_files``
    leaves protocol.schema.json or docs/protocol.md behind: this names the file."""
    for path, text in expected_files(ROOT).items():
        assert (ROOT / path).read_text("utf-8") == text, (
            f"{path} is not current: run python -m thousand.engine.message_files")
    assert main(["--check"]) == 0


def _candidates() -> list[dict[str, Any]]:
    """Every message with each of its keys missing, or given a value of each kind, and an
    unknown key added."""
    values: list[Any] = [None, True, False, 0, -1, -2, 1, 7, 8, 2**31 - 1, 2**31, 1.5, "",
                         "105", "x" * 33, [], {}]
    out: list[dict[str, Any]] = []
    for kind, cls in LIVE_TABLE_MESSAGES.by_type.items():
        example = {"type": kind,
                   **{f: client_message_schema()["definitions"][cls.__name__]["properties"][f]
                      ["examples"][0] for f in cls.__struct_fields__}}
        out.append(example)
        for key, value in itertools.product([*example, "x"], values):
            out.append({**example, key: value})
        for key in example:
            out.append({k: v for k, v in example.items() if k != key})
    return out


def test_the_schema_takes_what_the_reader_takes() -> None:
    """The JSON Schema (a program in another language checks its messages with it) and
    the server's reader agree on every message, and on each wrong key and value."""
    whole = schema()
    jsonschema.Draft7Validator.check_schema(whole)
    validator = jsonschema.Draft7Validator({"definitions": whole["definitions"],
                                            "$ref": "#/definitions/client_message"})
    for message in _candidates():
        try:
            read_client_message(json.dumps(message), LIVE_TABLE_MESSAGES)
            read = True
        except ProtocolError:
            read = False
        assert validator.is_valid(message) == read, message
