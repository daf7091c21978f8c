"""Every message a client sends to a table, declared once, and the one function that reads it.

Each message is a :class:`ClientMessage`, a ``msgspec`` struct tagged by its ``type``; each
field's type carries its bounds, the words a client is told when the value does not fit
(``extra={"refused": ...}``) and an example.  From these declarations alone come:

* the reading of a frame, :func:`read_client_message`: JSON by the one strict reader
  (:mod:`thousand.engine.strict_json`), then a known ``type``, exactly its keys, each value
  of its type — refused with a :class:`ProtocolError` that says what is wrong;
* the ``client_message`` part of ``protocol.schema.json`` and the table of client messages
  in docs/protocol.md, written by ``python -m thousand.engine.message_files`` (a test
  checks that the committed files are what the declarations make).

Two sets of messages are read: :data:`TABLE_MESSAGES`, the table protocol every front end
speaks (a move, a sync, a snapshot: :func:`thousand.engine.protocol.parse_client_message`,
a bot in another language, ``Table.submit_json``), and :data:`LIVE_TABLE_MESSAGES`, what
the server's live table reads besides (chat, hints, training, mute, rematch).
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import cache
from typing import Annotated, Any, Generic, TypeVar, get_args

import msgspec
from msgspec import Meta

from .strict_json import JsonRefused, read_json

__all__ = [
    "LIVE_TABLE_MESSAGES",
    "MAX_MESSAGE_BYTES",
    "TABLE_MESSAGES",
    "ChatMessage",
    "ClientMessage",
    "HintMessage",
    "LiveTableMessage",
    "MessageSet",
    "MoveMessage",
    "MuteMessage",
    "OpenMessage",
    "ProtocolError",
    "RematchMessage",
    "SnapshotMessage",
    "SyncMessage",
    "TableMessage",
    "UnmuteMessage",
    "read_client_message",
]

#: The longest client message read, in bytes of UTF-8 (a move is a few bytes; this bounds
#: hostile input).
MAX_MESSAGE_BYTES = 4096

#: The key of a field's ``Meta.extra`` that holds what a client is told when its value
#: does not fit.
REFUSED = "refused"


class ProtocolError(ValueError):
    """A client message that is not a message: its ``code`` is ``malformed``."""

    code = "malformed"


# ------------------------------------------------------------------ the fields

Version = Annotated[int, Meta(
    ge=0, lt=2**31, examples=[12],
    description="the table's version the client knows: the move is made against it",
    extra={REFUSED: "version must be a whole number from 0 (the table's version)"})]
SyncVersion = Annotated[int, Meta(
    ge=-1, lt=2**31, examples=[12],
    description="the events after this version are sent (-1: every event)",
    extra={REFUSED: "version must be a whole number from -1 (-1: every event)"})]
MoveText = Annotated[str, Meta(
    min_length=1, max_length=32, examples=["105"],
    description="a move in notation (docs/record.md)",
    extra={REFUSED: 'move must be a move in notation, e.g. "105", "pass", "AH"'})]
ChatText = Annotated[str, Meta(
    examples=["..."],
    description="the line (the server takes 1 to 200 characters, no control characters)",
    extra={REFUSED: "text must be a text"})]
On = Annotated[bool, Meta(
    examples=[True], description="open hands on or off",
    extra={REFUSED: "on must be true or false"})]
Seat = Annotated[int, Meta(
    ge=0, lt=8, examples=[1], description="another seat of the table",
    extra={REFUSED: "seat must be a seat's number"})]


# ------------------------------------------------------------------ the messages


class ClientMessage(msgspec.Struct, tag_field="type", forbid_unknown_fields=True):
    """A message from a client; the subclass's tag is its ``type``.  A subclass's docstring
    is what the message asks, in one line: the schema's description and docs/protocol.md's
    "meaning" are made of it."""

    @property
    def type(self) -> str:
        """The message's ``type`` (its tag), for the words that name it."""
        tag = self.__struct_config__.tag
        assert isinstance(tag, str)
        return tag


class MoveMessage(ClientMessage, tag="move"):
    """Make a move for my seat."""

    # version first: a message wrong in both is told about its version (as it always was)
    version: Version
    move: MoveText


class SyncMessage(ClientMessage, tag="sync"):
    """Send me the events after my version (-1: all of them) and the table's version."""

    version: SyncVersion


class SnapshotMessage(ClientMessage, tag="snapshot"):
    """Send me my snapshot."""


class ChatMessage(ClientMessage, tag="chat"):
    """Say a line to the table (a seat only)."""

    text: ChatText


class HintMessage(ClientMessage, tag="hint"):
    """Tell me a good move (the seat to move only)."""


class OpenMessage(ClientMessage, tag="open"):
    """Show me every hand, or stop (training: a table of one person and bots only)."""

    on: On


class MuteMessage(ClientMessage, tag="mute"):
    """Send me no more chat of that seat."""

    seat: Seat


class UnmuteMessage(ClientMessage, tag="unmute"):
    """Send me the chat of that seat again."""

    seat: Seat


class RematchMessage(ClientMessage, tag="rematch"):
    """Ask for another game with the same people (a finished table)."""


#: The table protocol's messages (every front end).
TableMessage = MoveMessage | SyncMessage | SnapshotMessage
#: What the server's live table reads: the table protocol's and its own.
LiveTableMessage = (TableMessage | ChatMessage | HintMessage | OpenMessage | MuteMessage
                    | UnmuteMessage | RematchMessage)

M = TypeVar("M", bound=ClientMessage)


class MessageSet(Generic[M]):
    """The messages one reader takes (``union``: their union type): each class by its
    ``type``, and the words for a ``type`` that is none of them."""

    def __init__(self, union: Any) -> None:
        self.union = union
        self.classes: tuple[type[M], ...] = get_args(union)
        self.by_type: dict[str, type[M]] = {_tag(c): c for c in self.classes}
        *most, last = self.by_type
        self.type_refused = f"type must be {', '.join(most)} or {last}"


def _tag(cls: type[ClientMessage]) -> str:
    tag = cls.__struct_config__.tag
    assert isinstance(tag, str)
    return tag


TABLE_MESSAGES = MessageSet[TableMessage](TableMessage)
LIVE_TABLE_MESSAGES = MessageSet[LiveTableMessage](LiveTableMessage)


# ------------------------------------------------------------------ reading


@cache
def _fields(cls: type[ClientMessage]) -> tuple[tuple[str, Any, str], ...]:
    """Each field of ``cls`` in order: its name, its type and what a client is told when
    its value does not fit."""
    return tuple((field.encode_name, field.type, _refused(field.type))
                 for field in msgspec.structs.fields(cls))


def _refused(value_type: Any) -> str:
    """The words of an ``Annotated`` field type's ``Meta(extra={REFUSED: ...})``."""
    for meta in get_args(value_type)[1:]:
        if isinstance(meta, Meta) and meta.extra and REFUSED in meta.extra:
            return str(meta.extra[REFUSED])
    raise TypeError(f"{value_type} does not say what a client is told when it does not fit")


def read_client_message(raw: str | bytes | Mapping[str, Any], kinds: MessageSet[M]) -> M:
    """A client's message — a frame of JSON text (or bytes), or an object already read —
    as one of ``kinds``, or a :class:`ProtocolError` saying what is wrong, in this order:
    the JSON (:func:`~thousand.engine.strict_json.read_json`, at most
    :data:`MAX_MESSAGE_BYTES`: the refusal is the error's ``__cause__``), one object, a
    known ``type``, no unknown key, no missing key, then each value in the field order."""
    if isinstance(raw, str | bytes):
        try:
            obj = read_json(raw, limit=MAX_MESSAGE_BYTES, what="a message")
        except JsonRefused as e:
            raise ProtocolError(str(e)) from e
    else:
        obj = raw
    if not isinstance(obj, Mapping):
        raise ProtocolError("a message is one JSON object")
    kind = obj.get("type")
    cls = kinds.by_type.get(kind) if isinstance(kind, str) else None
    if cls is None:
        raise ProtocolError(kinds.type_refused)
    fields = _fields(cls)
    extra = set(obj) - {"type", *(name for name, _, _ in fields)}
    if extra:
        raise ProtocolError(f"unknown key {sorted(extra)[0]!r} in a {kind} message")
    missing = {name for name, _, _ in fields} - set(obj)
    if missing:
        raise ProtocolError(f"a {kind} message needs {sorted(missing)[0]!r}")
    try:
        return msgspec.convert(dict(obj), cls, strict=True)
    except msgspec.ValidationError as e:
        # the first value that does not fit, in its field's words
        for name, value_type, refused in fields:
            try:
                msgspec.convert(obj[name], value_type, strict=True)
            except msgspec.ValidationError:
                raise ProtocolError(refused) from None
        raise ProtocolError(str(e)) from None  # no field depends on another: not reached
