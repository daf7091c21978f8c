"""The game record of RULES §6: write it from a game, read and check it, replay it.

A game *is* its record (docs/record.md): the resolved ruleset, the names, the first
dealer, and for every deal the cards dealt and the moves in order.  Replaying
goes through the same :class:`~thousand.engine.game.Game` code path as live play, so a
record that replays here is a game the engine accepts move for move.

Errors come in two kinds, because the command line treats them differently
(exit status 2 for a file that is not a record, 1 for a game that breaks the
rules):

* :class:`RecordError`: the JSON is not a record (missing keys, wrong types,
  unknown rules, a card or a move that cannot be read, cards dealt wrongly).
  :func:`load_record` finds these before any move is made.
* :class:`ReplayError`: the record reads fine but the game in it is not a legal
  game: an illegal move, moves after a deal ended, a deal cut short in the
  middle of the record, deals after the game was over.

Every message names its place with 1-based numbers, ``deal 3, move 12: ...``,
the way a person counts the deals and moves of a record, so it can be found by
eye in the file.

Decisions (documented in docs/record.md):

* ``look`` is never written: any move other than ``dark`` implies it, and a
  record that contains it is rejected, so one game has one record.
* A redeal deal stays in the record as its own deal (its last move is
  ``redeal``) and in the output as a row with ``declarer``/``contract`` null.
* The last deal may be unfinished: a record of a game in progress replays to
  the scores so far and ``winner`` null.
* Unknown keys are errors, so a misspelt ``"talon"`` is not silently ignored;
  so is a key written twice in one object (JSON would keep the last one).
* A record carries ``"format": 1``; a record without it (written before the
  key existed) is read as format 1, any other number is refused.
* Hostile input is refused with a :class:`RecordError`, never a crash: a text
  over :data:`MAX_RECORD_BYTES`, bytes that are not UTF-8, JSON nested deeper
  than :data:`MAX_DEPTH`, a number with more than :data:`MAX_DIGITS` digits (the
  top-level ``"seed"`` alone may have :data:`SEED_DIGITS`: a seed is any number below
  ``2**128``, :data:`MAX_SEED`), ``NaN``/``Infinity``, more than :data:`MAX_DEALS`
  deals, a name longer than :data:`MAX_NAME` or with a control character or a lone
  surrogate.
* A save of ``thousand play`` keeps its unfinished deal and its seed sealed
  (:func:`seal_record`: not a secret, only not readable at a glance); the record read
  from a save is its open part with the sealed part put back.
* A ``cut`` whose shape RULES §6 does not allow (up to three nines, then one
  other card unless there were three; nothing after a jack; the last card in the
  talon unless it is a jack; Game.check_cut) makes the game illegal:
  :class:`ReplayError`, like an illegal move.
"""

from __future__ import annotations

import base64
import binascii
import codecs
import json
import unicodedata
import zlib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from .cards import Card, CardError, Mask, cards_str, mask_of, parse_card
from .errors import IllegalMove
from .game import DealRecord, DealSummary, Game
from .moves import LOOK, REDEAL, Move, is_bid, move_str, parse_move
from .rules import Rules
from .strict_json import (
    JsonRefused,
    KeyTwice,
    LongNumber,
    NotANumber,
    NotJson,
    NotUtf8,
    TooDeep,
    TooLarge,
    nested_deeper,
    read_json,
)

__all__ = [
    "FORMAT",
    "MAX_DEALS",
    "MAX_DEPTH",
    "MAX_DIGITS",
    "MAX_NAME",
    "MAX_RECORD_BYTES",
    "MAX_SEED",
    "SEED_DIGITS",
    "Record",
    "RecordError",
    "RecordedDeal",
    "ReplayError",
    "ReplayResult",
    "check_name",
    "deal_to_json",
    "dumps_record",
    "game_to_record",
    "load_record",
    "replay",
    "seal_record",
    "unseal_record",
]

#: What a save of ``thousand play`` calls itself: a record wrapped with the seats' bots.
SAVE_FORMAT = "thousand-save"

#: The record format this module writes (``"format": 1``) and the only one it reads.
FORMAT = 1
#: The largest record read, in bytes (UTF-8): far above any real game, small enough
#: that a wrong file (``/dev/zero``, a video) is refused before it fills the memory.
MAX_RECORD_BYTES = 10_000_000
#: How deep the JSON may nest: a record needs 5 (record, deals, deal, hands, hand).
MAX_DEPTH = 16
#: The most digits a JSON number may have (a record's numbers are all small) but the seed.
MAX_DIGITS = 20
#: A game's seed is a whole number from 0 below this (``Table`` draws 128 random bits when
#: no ``--seed`` is given), so the top-level ``"seed"`` may have up to :data:`SEED_DIGITS`.
MAX_SEED = 2**128
SEED_DIGITS = len(str(MAX_SEED - 1))
#: The longest player name, in characters.
MAX_NAME = 100
#: The most deals a record may hold, redeals included: ten times the classic cap
#: (``max_deals=200``), and few enough that the score sheet prints in seconds.
MAX_DEALS = 2000

_TOP_KEYS = ("format", "rules", "players", "first_dealer", "deals", "seed")
_DEAL_KEYS = ("hands", "talon", "moves", "cut", "commitment")
#: The longest text of a card or a move worth parsing (``discard 10S`` has 11).
_MAX_TOKEN = 32
#: Messages quote what they read; a quote is cut to this many characters.
_MAX_QUOTE = 40
_MAX_MESSAGE = 300


def _clip(text: str, limit: int = _MAX_QUOTE) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


class RecordError(ValueError):
    """The text is not a well-formed game record; the message names the place.

    The message is one line of at most a few hundred characters, whatever the input.
    """

    def __init__(self, message: str) -> None:
        super().__init__(_clip(" ".join(message.split()), _MAX_MESSAGE))


class ReplayError(ValueError):
    """The record is well formed but its game is not legal.

    ``deal`` and ``move`` are the 1-based place (``move`` is None when the fault is
    the deal as a whole); ``illegal`` is the engine's :class:`IllegalMove` when a
    move broke the rules, so a front end can show the reason in Russian too.
    """

    def __init__(
        self, message: str, deal: int, move: int | None = None,
        illegal: IllegalMove | None = None,
    ) -> None:
        super().__init__(message)
        self.deal = deal
        self.move = move
        self.illegal = illegal


# --------------------------------------------------------------------------- the value


@dataclass(frozen=True, slots=True)
class RecordedDeal:
    """One deal of a record, read into engine values (masks, move ints)."""

    hands: tuple[Mask, ...]
    talon: Mask
    moves: tuple[Move, ...]
    cut: tuple[Card, ...] = ()
    #: The table's commitment to the cards (thousand.engine.fairness): ``sha256`` published when
    #: the deal started, ``salt`` revealed when it ended (absent while it is played).
    commitment: tuple[str, str | None] | None = None
    #: Two players: talon 1 and talon 2, the record's ``talon`` list in halves (RULES §4
    #: "Two players" 8); ``talon`` is both.
    talons: tuple[Mask, ...] = ()


@dataclass(frozen=True, slots=True)
class Record:
    """A checked game record: everything :func:`replay` needs, nothing else."""

    rules: Rules
    players: tuple[str, ...]
    first_dealer: int
    deals: tuple[RecordedDeal, ...]
    #: The game's seed, when the record keeps it (a table's private record): it tells the
    #: cards of the deals after the recorded ones (docs/protocol.md).
    seed: int | None = None

    def to_json(self) -> dict[str, Any]:
        """The record as JSON (RULES §6), with the whole resolved ruleset."""
        out: dict[str, Any] = {
            "format": FORMAT,
            "rules": self.rules.to_json(),
            "players": list(self.players),
            "first_dealer": self.first_dealer,
            "deals": [_deal_json(d.hands, d.talon, d.moves, d.cut, d.commitment, d.talons)
                      for d in self.deals],
        }
        if self.seed is not None:
            out["seed"] = self.seed
        return out


# --------------------------------------------------------------------------- writing


def _deal_json(
    hands: Sequence[Mask], talon: Mask, moves: Sequence[Move], cut: Sequence[Card],
    commitment: tuple[str, str | None] | None = None, talons: Sequence[Mask] = (),
) -> dict[str, Any]:
    out: dict[str, Any] = {
        "hands": [cards_str(h) for h in hands],
        # two players: talon 1's two cards, then talon 2's (RULES §4 "Two players" 8)
        "talon": [c for t in talons for c in cards_str(t)] if talons else cards_str(talon),
        # ``look`` is implied by any other move (moves.py); the game never stores it,
        # and filtering again keeps a hand-built DealRecord canonical too.
        "moves": [move_str(m) for m in moves if m != LOOK],
    }
    if cut:
        out["cut"] = [_card(c) for c in cut]
    if commitment is not None:
        digest, salt = commitment
        out["commitment"] = {"sha256": digest, **({"salt": salt} if salt else {})}
    return out


def _card(card: Card) -> str:
    return cards_str(1 << card)[0]


def deal_to_json(deal: DealRecord) -> dict[str, Any]:
    """One deal of a game as its record entry (a sitting-out dealer's hand is ``[]``)."""
    return _deal_json(deal.hands, deal.talon, deal.moves, deal.cut, talons=deal.talons)


def game_to_record(game: Game) -> dict[str, Any]:
    """The record of ``game`` so far (RULES §6), ready for :func:`json.dumps`.

    The rules are written whole (``Rules.to_json``), not as a preset name, so the
    record replays the same even if a preset's definition changes later.  The deal
    in progress, if any, is included with the moves made so far.
    """
    return {
        "format": FORMAT,
        "rules": game.rules.to_json(),
        "players": list(game.names),
        "first_dealer": game.first_dealer,
        "deals": [deal_to_json(d) for d in game.records],
    }


def dumps_record(record: Mapping[str, Any]) -> str:
    """JSON text for a record that people can read and diff: one option per line,
    and each hand, talon and move list on one line (``json.dumps(indent=2)`` would
    put every card on a line of its own)."""

    def one(value: object) -> str:
        return json.dumps(value, ensure_ascii=False)

    lines = ["{"]
    if "format" in record:
        lines.append(f'  "format": {one(record["format"])},')
    rules = record.get("rules")
    if isinstance(rules, Mapping):
        items = [f"    {one(k)}: {one(v)}" for k, v in rules.items()]
        lines.append('  "rules": {\n' + ",\n".join(items) + "\n  },")
    else:
        lines.append(f'  "rules": {one(rules)},')
    lines.append(f'  "players": {one(record.get("players"))},')
    lines.append(f'  "first_dealer": {one(record.get("first_dealer"))},')
    if "seed" in record:
        lines.append(f'  "seed": {one(record["seed"])},')
    deals = record.get("deals") or []
    blocks = []
    for deal in deals:
        fields = [f'"{k}": {one(deal[k])}' for k in _DEAL_KEYS if k in deal]
        blocks.append("    {" + ",\n     ".join(fields) + "}")
    lines.append('  "deals": [' + ("\n" + ",\n".join(blocks) + "\n  ]" if blocks else "]"))
    lines.append("}")
    return "\n".join(lines) + "\n"


# --------------------------------------------------------------------------- reading


def _type_name(value: object) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, int | float):
        return "a number"
    if isinstance(value, str):
        return "a string"
    if isinstance(value, list):
        return "a list"
    if isinstance(value, Mapping):
        return "an object"
    return type(value).__name__


def _show(value: object) -> str:
    """A value as a message quotes it: JSON, cut short."""
    try:
        text = json.dumps(value, ensure_ascii=False)
    except (TypeError, ValueError):
        text = repr(value)
    return _clip(text)


def _check_keys(obj: Mapping[Any, Any], allowed: Sequence[str], where: str) -> None:
    for key in obj:
        if key not in allowed:
            shown = _clip(key) if isinstance(key, str) else key
            raise RecordError(
                f"{where}unknown key {shown!r}; a {'deal' if where else 'record'} has "
                + ", ".join(repr(k) for k in allowed if k != "format")
                + (" (and 'format')" if "format" in allowed else "")
            )


def _string_list(value: object, where: str, what: str) -> list[str]:
    if not isinstance(value, list):
        raise RecordError(f"{where}: must be a list of {what}, not {_type_name(value)}")
    for i, item in enumerate(value, 1):
        if not isinstance(item, str):
            raise RecordError(f"{where}: item {i} must be a string, not {_type_name(item)}")
    return value


def _parse_cards(texts: list[str], where: str) -> list[Card]:
    out = []
    for text in texts:
        if len(text) > _MAX_TOKEN:
            raise RecordError(f"{where}: {_clip(text)!r} is not a card: too long")
        try:
            out.append(parse_card(text))
        except CardError as e:
            raise RecordError(f"{where}: {e}") from None
    return out


def _parse_moves(texts: list[str], where: str) -> tuple[Move, ...]:
    out = []
    for j, text in enumerate(texts, 1):
        place = f"{where}, move {j}"
        if len(text) > _MAX_TOKEN:
            raise RecordError(f"{place}: {_clip(text)!r} is not a move: too long")
        try:
            move = parse_move(text)
        except ValueError as e:  # MoveError, and anything else the notation trips on
            raise RecordError(f"{place}: {e}") from None
        if move == LOOK:
            raise RecordError(
                f"{place}: 'look' is never recorded: any move other than 'dark' implies it"
            )
        number = text.strip()
        if number.isascii() and number.isdigit() and not is_bid(move):
            # moves.py encodes a bid as 1000 + N below the contracts: a huge number
            # would read as a contract.  No real bid comes near.
            raise RecordError(f"{place}: {text!r} is not a move: no bid is that high")
        out.append(move)
    return tuple(out)


def _parse_deal(
    obj: object, i: int, rules: Rules, players: int, dealer: int, checker: Game
) -> RecordedDeal:
    where = f"deal {i}"
    if not isinstance(obj, Mapping):
        raise RecordError(f"{where}: must be an object, not {_type_name(obj)}")
    _check_keys(obj, _DEAL_KEYS, f"{where}: ")
    for key in ("hands", "talon", "moves"):
        if key not in obj:
            raise RecordError(f'{where}: no "{key}"')
    raw_hands = obj["hands"]
    if not isinstance(raw_hands, list):
        raise RecordError(f"{where}: hands: must be a list of hands by seat, not "
                          f"{_type_name(raw_hands)}")
    if len(raw_hands) != players:
        raise RecordError(f"{where}: hands: {len(raw_hands)} hands for {players} players")
    places: dict[Card, str] = {}

    def take(cards: list[Card], place: str) -> Mask:
        mask = 0
        for c in cards:
            if c in places:
                first = places[c]
                also = "again" if first == place else f"and {place}"
                raise RecordError(f"{where}: {_card(c)} is dealt twice: {first} {also}")
            places[c] = place
            mask |= 1 << c
        return mask

    hands = []
    for seat, raw in enumerate(raw_hands):
        texts = _string_list(raw, f"{where}: hands: seat {seat}", "cards")
        hands.append(take(_parse_cards(texts, f"{where}: hands: seat {seat}"), f"seat {seat}"))
    talon_texts = _string_list(obj["talon"], f"{where}: talon", "cards")
    talon_cards = _parse_cards(talon_texts, f"{where}: talon")
    talon = take(talon_cards, "the talon")
    talons: tuple[Mask, ...] = ()
    if players == 2:
        # talon 1 is the first two cards listed, talon 2 the next two (RULES §4 "Two
        # players" 8); a talon of another size is the engine's message below
        talons = (mask_of(talon_cards[:2]), mask_of(talon_cards[2:]))
    # The sizes (7 each, 0 for a sitting-out dealer, 3 in the talon) are the engine's
    # to say: ask it, with the dealer this deal should have.  With four players, one
    # empty hand is taken as the dealer's: whether he is the right one depends on the
    # earlier deals being legal (a redeal keeps the dealer), which only the replay
    # knows, and an illegal move there is the better message.
    empty = [s for s, h in enumerate(hands) if not h]
    checker.dealer = empty[0] if players == 4 and len(empty) == 1 else dealer
    _check_cards(checker, tuple(hands), talon, where, talons)
    cut: tuple[Card, ...] = ()
    if "cut" in obj:
        cut_texts = _string_list(obj["cut"], f"{where}: cut", "cards")
        if cut_texts and not rules.cut_nines:
            raise RecordError(f"{where}: cut: a cut is recorded only with cut_nines")
        # Its shape (RULES §6) is a rule of the game: Game.start_deal checks it.
        cut = tuple(_parse_cards(cut_texts, f"{where}: cut"))
    move_texts = _string_list(obj["moves"], f"{where}: moves", "moves")
    return RecordedDeal(tuple(hands), talon, _parse_moves(move_texts, where), cut,
                        _parse_commitment(obj.get("commitment"), where), talons)


def _parse_commitment(value: object, where: str) -> tuple[str, str | None] | None:
    """``{"sha256": hex, "salt": hex}`` (the salt once the deal has ended)."""
    if value is None:
        return None
    if not isinstance(value, Mapping):
        raise RecordError(f"{where}: commitment: must be an object, not {_type_name(value)}")
    _check_keys(value, ("sha256", "salt"), f"{where}: commitment: ")
    digest, salt = value.get("sha256"), value.get("salt")
    for name, text in (("sha256", digest), ("salt", salt)):
        if text is None and name == "salt":
            continue
        if not (isinstance(text, str) and len(text) == 64
                and all(c in "0123456789abcdef" for c in text)):
            raise RecordError(f"{where}: commitment: {name} must be 64 hexadecimal digits")
    assert isinstance(digest, str)
    return digest, salt if isinstance(salt, str) else None


def _check_cards(
    game: Game, hands: tuple[Mask, ...], talon: Mask, where: str, talons: tuple[Mask, ...] = ()
) -> None:
    try:
        game.check_cards(hands, talon, talons)
    except ValueError as e:
        text = str(e)
        part = "" if text.startswith("the talon") else "hands: "
        raise RecordError(f"{where}: {part}{text}") from None


def check_name(name: str) -> str | None:
    """What is wrong with a player name, or None: at most :data:`MAX_NAME` characters,
    no control characters (a name is shown on a terminal), no lone surrogates (it must
    be written as UTF-8)."""
    if len(name) > MAX_NAME:
        return f"is {len(name)} characters long; a name has at most {MAX_NAME}"
    for ch in name:
        if "\ud800" <= ch <= "\udfff":
            return f"is not text: it holds the lone surrogate U+{ord(ch):04X}"
        if unicodedata.category(ch) == "Cc":
            return f"holds the control character U+{ord(ch):04X}"
    return None


def _record_words(refused: JsonRefused) -> str:
    """A refusal of :func:`~thousand.engine.strict_json.read_json` in the words a record's
    reader has always been told (``thousand replay``, the upload of a record)."""
    if isinstance(refused, TooLarge):
        return (f"not a record: larger than {MAX_RECORD_BYTES // 1_000_000} MB "
                f"({MAX_RECORD_BYTES} bytes); a record is far smaller")
    if isinstance(refused, NotUtf8):
        return "not UTF-8 text" + ("" if refused.byte is None else
                                   f": byte 0x{refused.byte:02x} at offset {refused.offset}")
    if isinstance(refused, NotJson) and not isinstance(refused.error, RecursionError):
        return f"not JSON: {refused.error}"
    if isinstance(refused, LongNumber):
        why = (f"a number of {refused.digits} digits; a record's numbers have at most "
               f"{MAX_DIGITS} (the seed {SEED_DIGITS})")
    elif isinstance(refused, KeyTwice):
        why = f"the key {_clip(refused.key)!r} is written twice in one object"
    elif isinstance(refused, TooDeep | NotJson):  # NotJson: brackets never closed
        why = f"nested deeper than {MAX_DEPTH} levels"
    else:
        assert isinstance(refused, NotANumber)
        why = f"{refused.text} is not a JSON number"
    return f"not a record: {why}"


def _parse_json(source: str | bytes) -> object:
    """A record's JSON text read by the one strict reader, with the record's bounds: the
    seed alone may have more digits than the other numbers.  A UTF-8 byte order mark
    (which some editors write) is let through."""
    if isinstance(source, bytes) and source.startswith(codecs.BOM_UTF8):
        source = source[len(codecs.BOM_UTF8):]
    try:
        return read_json(source, limit=MAX_RECORD_BYTES, what="a record", depth=MAX_DEPTH,
                         digits=MAX_DIGITS, wide=("seed", SEED_DIGITS))
    except JsonRefused as e:
        raise RecordError(_record_words(e)) from None


def load_record(source: str | bytes | Mapping[str, Any]) -> Record:
    """Read and check a record: JSON text, or the object :func:`json.loads` gave.

    Checks everything that can be checked without playing: the size and the JSON
    (UTF-8, no key twice, small numbers, shallow nesting), the format, the keys and
    their types, the rules, the names against ``rules.players``, the first dealer,
    each card and move written in the notation, and that each deal holds every card
    once with the right number in each hand.  Raises :class:`RecordError` naming the
    place.
    """
    if isinstance(source, str | bytes):
        obj: object = _parse_json(source)
    else:
        obj = source
        if nested_deeper(obj, MAX_DEPTH):  # a text is checked before parsing
            raise RecordError(f"not a record: nested deeper than {MAX_DEPTH} levels")
    if not isinstance(obj, Mapping):
        raise RecordError(f"a record must be a JSON object, not {_type_name(obj)}")
    if obj.get("format") == SAVE_FORMAT and isinstance(obj.get("record"), Mapping):
        # A save of ``thousand play`` wraps the game record with the seats' bots: the
        # record is what replays (docs/record.md), its sealed part put back.
        obj = unseal_record(obj)
    if "format" in obj:
        fmt = obj["format"]
        if not isinstance(fmt, int) or isinstance(fmt, bool):
            raise RecordError(f"format: {_show(fmt)} is not a format number; "
                              f"this version reads format {FORMAT}")
        if fmt != FORMAT:
            raise RecordError(f"format: {fmt} is not supported; this version of thousand "
                              f"reads format {FORMAT} (or a record without \"format\")")
    _check_keys(obj, _TOP_KEYS, "")
    for key in _TOP_KEYS[1:-1]:
        if key not in obj:
            raise RecordError(f'the record has no "{key}"')
    try:
        rules = Rules.from_json(obj["rules"])
    except (ValueError, TypeError) as e:
        raise RecordError(f"rules: {e}") from None
    players = obj["players"]
    if not isinstance(players, list) or not all(isinstance(p, str) for p in players):
        raise RecordError("players: must be a list of names (strings)")
    n = rules.players
    if len(players) != n:
        raise RecordError(
            f"players: {len(players)} names for a {n}-player game (rules: players={n})"
        )
    for seat, name in enumerate(players):
        problem = check_name(name)
        if problem:
            raise RecordError(f"players: the name of seat {seat} {problem}")
    first = obj["first_dealer"]
    if not isinstance(first, int) or isinstance(first, bool) or not 0 <= first < n:
        raise RecordError(f"first_dealer: {_show(first)} is not a seat; use 0 to {n - 1}")
    raw_deals = obj["deals"]
    if not isinstance(raw_deals, list):
        raise RecordError(f"deals: must be a list of deals, not {_type_name(raw_deals)}")
    if len(raw_deals) > MAX_DEALS:
        raise RecordError(f"deals: {len(raw_deals)} deals; a record holds at most {MAX_DEALS}")
    checker = Game(rules, players, first, auto_deal=False)
    deals = []
    dealer = first
    for i, raw in enumerate(raw_deals, 1):
        deal = _parse_deal(raw, i, rules, n, dealer, checker)
        deals.append(deal)
        # A redeal (which ends its deal) is dealt again by the same dealer; the replay
        # checks that the redeal was legal.
        if REDEAL not in deal.moves:
            dealer = (dealer + 1) % n
    seed = obj.get("seed")
    if seed is not None and (
        not isinstance(seed, int) or isinstance(seed, bool) or not 0 <= seed < MAX_SEED
    ):
        raise RecordError(f"seed: {_show(seed)} is not a seed; use a whole number from 0 "
                          f"below 2**128")
    return Record(rules, tuple(players), first, tuple(deals), seed)


# --------------------------------------------------------------------------- saves

#: The key of a save of ``thousand play`` that holds what a player must not read at a
#: glance: the unfinished deal (every hand of it) and the seed (every deal to come).
SEALED = "sealed"


def seal_record(record: Mapping[str, Any], in_play: bool) -> tuple[dict[str, Any], str | None]:
    """A private record (with its seed) split for a save: the open part — the finished
    deals, which anyone may read — and, while the game goes on, the sealed text of the
    rest: ``{"seed": …, "deals": [the deal in play]}`` as JSON, compressed with zlib and
    written in base64.  Not a secret (:func:`unseal_record` reads it back, and so can
    anyone with a Python prompt), only not readable at a glance, so a player who opens
    the file does not see the hands by accident.  ``in_play``: the last deal is not
    finished.  A finished game (``None`` for the sealed part) stays open whole."""
    open_part = dict(record)
    hidden: dict[str, Any] = {}
    if "seed" in open_part and in_play:
        hidden["seed"] = open_part.pop("seed")
    deals = list(open_part.get("deals") or [])
    if in_play and deals:
        hidden["deals"] = [deals.pop()]
    open_part["deals"] = deals
    if not hidden:
        return open_part, None
    raw = json.dumps(hidden, ensure_ascii=False, separators=(",", ":")).encode("utf-8")
    return open_part, base64.b64encode(zlib.compress(raw, 9)).decode("ascii")


def unseal_record(save: Mapping[str, Any]) -> dict[str, Any]:
    """The whole record of a save (``{"format": "thousand-save", "record": …,
    "sealed": …}``): its open record with the sealed deal appended and the seed put back
    (:func:`seal_record`).  A save without ``"sealed"`` (a finished game, or a save
    written before the key existed) is its record as it stands.  A sealed text that does
    not decode raises :class:`RecordError`; what it holds is read with the same guards
    as any record (size, depth, digits, no key twice)."""
    record = save.get("record")
    if not isinstance(record, Mapping):
        raise RecordError("not a save: no game record in it")
    sealed = save.get(SEALED)
    if sealed is None:
        return dict(record)
    if not isinstance(sealed, str):
        raise RecordError(f"{SEALED}: must be a string, not {_type_name(sealed)}")
    try:
        packed = base64.b64decode(sealed.encode("ascii"), validate=True)
        inflate = zlib.decompressobj()
        raw = inflate.decompress(packed, MAX_RECORD_BYTES + 1)
    except (ValueError, binascii.Error, zlib.error, UnicodeEncodeError):
        raise RecordError(f"{SEALED}: damaged: not the base64 of zlib data") from None
    if len(raw) > MAX_RECORD_BYTES or inflate.unconsumed_tail:
        raise RecordError(f"{SEALED}: larger than {MAX_RECORD_BYTES // 1_000_000} MB "
                          "unpacked; a save is far smaller")
    try:
        hidden = _parse_json(raw)
    except RecordError as e:
        raise RecordError(f"{SEALED}: damaged: {e}") from None
    if not isinstance(hidden, Mapping):
        raise RecordError(f"{SEALED}: damaged: not an object")
    _check_keys(hidden, ("seed", "deals"), f"{SEALED}: ")
    out = dict(record)
    deals = hidden.get("deals", [])
    if not isinstance(deals, list) or not isinstance(out.get("deals", []), list):
        raise RecordError(f"{SEALED}: deals: must be a list of deals")
    out["deals"] = [*out.get("deals", []), *deals]
    if "seed" in hidden:
        out["seed"] = hidden["seed"]
    return out


# --------------------------------------------------------------------------- replaying


@dataclass(frozen=True, slots=True)
class ReplayResult:
    """A replayed game: the :class:`Game` itself (its sheet, its state) and the
    output of ``thousand replay --json`` (:meth:`to_json`)."""

    game: Game

    @property
    def summaries(self) -> list[DealSummary]:
        """One per finished deal, redeals included, in order."""
        return self.game.summaries

    @property
    def scores(self) -> tuple[int, ...]:
        return self.game.scores

    @property
    def winner(self) -> int | list[int] | None:
        return self.game.winner

    @property
    def finished(self) -> bool:
        return self.game.over

    def to_json(self) -> dict[str, Any]:
        """The replay output of RULES §6: a row per finished deal, the scores, the
        winner, and with ``settlement`` on a finished game what each owes."""
        deals = [
            {
                "declarer": s.result.declarer,
                "contract": s.result.contract,
                "points": list(s.result.points),
                "scores": list(s.scores),
            }
            for s in self.game.summaries
        ]
        winner = self.game.winner
        out: dict[str, Any] = {
            "deals": deals,
            "scores": list(self.game.scores),
            "winner": list(winner) if isinstance(winner, list) else winner,
        }
        if self.game.rules.settlement and self.game.over:
            out["settlement"] = self.game.settlement()
        return out


def replay(record: Record | str | bytes | Mapping[str, Any]) -> ReplayResult:
    """Play a record through the engine, checking every move.

    Raises :class:`RecordError` if it is not a well-formed record and
    :class:`ReplayError` (``deal 3, move 12: KS: you must follow hearts``) at the
    first thing the rules do not allow.  The last deal may be unfinished.
    """
    rec = record if isinstance(record, Record) else load_record(record)
    game = Game(rec.rules, rec.players, rec.first_dealer, auto_deal=False)
    last_moves = 0
    for i, deal in enumerate(rec.deals, 1):
        if game.over:
            raise ReplayError(f"deal {i}: the game was already over after deal {i - 1}", i)
        if game.deal is not None:
            raise ReplayError(_cut_short(i - 1, last_moves), i - 1)
        # load_record checked the cards against the dealer the record implies; check
        # again against the dealer the game has (four players: who sits out).
        _check_cards(game, deal.hands, deal.talon, f"deal {i}", deal.talons)
        try:
            game.start_deal(deal.hands, deal.talon, deal.cut, deal.talons)
        except ValueError as e:
            # Game.check_cut: a cut list the cut cannot produce (RULES §6) makes the
            # game illegal, like an illegal move.
            text = str(e)
            raise ReplayError(
                f"deal {i}: {text if text.startswith('cut') else 'cut: ' + text}", i
            ) from None
        for j, move in enumerate(deal.moves, 1):
            if game.deal is None:
                over = IllegalMove(move_str(move), "deal_over")
                raise ReplayError(f"deal {i}, move {j}: {over}", i, j, over)
            try:
                game.apply(move)
            except IllegalMove as e:
                raise ReplayError(f"deal {i}, move {j}: {e}", i, j, e) from None
        last_moves = len(deal.moves)
    return ReplayResult(game)


def _cut_short(deal: int, moves: int) -> str:
    if moves == 0:
        return f"deal {deal}: the record ends the deal with no moves, before it is over"
    return f"deal {deal}: the record ends the deal after move {moves}, before it is over"
