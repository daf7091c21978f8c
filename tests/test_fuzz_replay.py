"""Hostile records against ``thousand replay``: one clear line, the right exit status,
bounded time and memory, nothing changed.

Every kind of break a fuzzer found has its own case below (``CLASSES``), and Hypothesis
mutates real records (written from :class:`~thousand.engine.game.Game` games of random legal
moves, under several presets) at the level of the JSON tree and of the bytes.  Each
input goes through the whole command line in-process (:func:`thousand.cli.run`, the
function behind the ``thousand`` script), and the outcome must be:

* exit 0: the record is a legal game; ``--json`` prints one JSON line, the sheet prints;
* exit 1: an illegal game: one line ``deal N...`` on stderr, nothing on stdout;
* exit 2: not a record: one line ``error: FILE: ...`` on stderr, nothing on stdout;
* never an exception (a traceback), never a line longer than a few hundred characters,
  within seconds, and the file and its directory as they were.

The library must agree with the command: ``RecordError`` is exit 2, ``ReplayError`` 1.

The functions named ``child_*`` are tests of a child ``pytest`` started by
tests/test_fuzzers.py (``-o python_functions=child_*``, the three fuzzers in one child)
with ``RLIMIT_AS`` (address space) set, so a reader that tried to hold ``/dev/zero`` or to
build a huge structure would fail there with a MemoryError instead of swapping the
machine; the suite itself does not collect them.  ``./run test --deep`` raises the number
of Hypothesis examples (tests/depth.py).
"""

from __future__ import annotations

import contextlib
import copy
import io
import json
import os
import random
import sys
import time
import unicodedata
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from depth import examples
from thousand.cli import run
from thousand.engine.game import Game
from thousand.engine.record import (
    MAX_RECORD_BYTES,
    RecordError,
    ReplayError,
    dumps_record,
    game_to_record,
    replay,
)
from thousand.engine.rules import Rules

pytestmark = pytest.mark.fuzz

#: The address space the child may use: python, pytest, Hypothesis and the largest
#: record (10 MB of text) with room to spare (the run fits in 250 MB); a reader that
#: held /dev/zero, or built a structure from it, would not.
MEMORY_LIMIT = 768 * 2**20
#: Hostile inputs a Hypothesis test of the fuzzers tries (tests/depth.py).
EXAMPLES = examples(50, 2000)
#: No single input may take longer (seconds; generous for a loaded 2-core machine).
TIME_LIMIT = 20.0
#: The longest line allowed on stderr.
MAX_LINE = 500



# ------------------------------------------------------------------ running a command


@contextlib.contextmanager
def _swapped_streams(stdin: io.IOBase) -> Iterator[tuple[io.BytesIO, io.BytesIO]]:
    """stdout as strict UTF-8 (a lone surrogate would raise, as on a real terminal),
    stderr as the interpreter's own (backslashreplace), stdin as given."""
    out, err = io.BytesIO(), io.BytesIO()
    wrappers = (
        io.TextIOWrapper(stdin, encoding="utf-8"),  # type: ignore[arg-type]
        io.TextIOWrapper(out, encoding="utf-8", errors="strict", write_through=True),
        io.TextIOWrapper(err, encoding="utf-8", errors="backslashreplace", write_through=True),
    )
    saved = sys.stdin, sys.stdout, sys.stderr
    sys.stdin, sys.stdout, sys.stderr = wrappers
    try:
        yield out, err
    finally:
        sys.stdin, sys.stdout, sys.stderr = saved
        for wrapper in wrappers:
            if not wrapper.closed:
                wrapper.flush()
                wrapper.detach()  # leave the buffers open to be read


def invoke(args: list[str], stdin: bytes | io.IOBase = b"") -> tuple[int, str, str, float]:
    """Run ``thousand ARGS`` in this process: exit status, stdout, stderr, seconds."""
    stream = io.BytesIO(stdin) if isinstance(stdin, bytes) else stdin
    start = time.perf_counter()
    with _swapped_streams(stream) as (out, err):
        code = run(args)
    return (code, out.getvalue().decode("utf-8"), err.getvalue().decode("utf-8"),
            time.perf_counter() - start)


def check_outcome(code: int, out: str, err: str, seconds: float, *, label: str = "") -> None:
    """What every run must look like, whatever the input."""
    where = f"{label}: exit {code}, stderr {err[:300]!r}"
    assert seconds < TIME_LIMIT, f"{where}: took {seconds:.1f} s"
    assert "Traceback" not in err, where
    if code == 0:
        assert err == "", where
        return
    assert code in (1, 2), where
    assert out == "", where
    assert err.endswith("\n") and err.count("\n") == 1, where
    assert 0 < len(err) <= MAX_LINE, where
    if code == 1:
        assert err.startswith("deal "), where
    else:
        assert err.startswith("error: "), where


def snapshot(directory: Path) -> dict[str, tuple[bytes, int]]:
    """Every file of a directory with its content and modification time."""
    return {p.name: (p.read_bytes(), p.stat().st_mtime_ns) for p in sorted(directory.iterdir())}


def child_runs_under_the_memory_limit() -> None:
    import resource

    assert resource.getrlimit(resource.RLIMIT_AS)[0] == MEMORY_LIMIT
    with pytest.raises(MemoryError):
        bytearray(MEMORY_LIMIT)


# ------------------------------------------------------------------ real records


def random_game(rules: Rules, seed: int, stop_after: int | None = None) -> Game:
    game = Game(rules, first_dealer=seed % rules.players, seed=seed)
    rng = random.Random(seed)
    made = 0
    while not game.over and (stop_after is None or made < stop_after):
        game.apply(rng.choice(game.legal_moves()))
        made += 1
    return game


def _corpus() -> list[dict[str, Any]]:
    cases: list[tuple[str, dict[str, Any], int | None]] = [
        ("classic", {"max_deals": 3}, None),
        ("dealer-opens", {"max_deals": 3}, None),  # the cut
        ("house", {"max_deals": 3}, None),  # dark, redeals, bolts
        ("textbook", {"max_deals": 3}, None),  # four players, the dealer sits out
        ("casual", {}, 70),  # a game in progress
        ("classic", {"redeal_four_nines": True, "redeal_weak_hand": 14, "concede": True,
                     "golden_deals": True, "max_deals": 3}, None),
    ]
    return [game_to_record(random_game(Rules.preset_rules(p, **o), seed=i + 1, stop_after=s))
            for i, (p, o, s) in enumerate(cases)]


CORPUS = _corpus()


def test_the_corpus_replays() -> None:
    """The mutations start from legal records of every kind."""
    for record in CORPUS:
        replay(dumps_record(record))
    assert any("cut" in d for r in CORPUS for d in r["deals"])
    assert any(len(r["players"]) == 4 for r in CORPUS)


# ------------------------------------------------------------------ each class of break

Case = Callable[[Path], tuple[list[str], bytes | io.IOBase]]

def _record() -> dict[str, Any]:
    return copy.deepcopy(CORPUS[0])


def _text(record: dict[str, Any] | None = None, ascii: bool = False) -> str:
    return json.dumps(_record() if record is None else record, ensure_ascii=ascii)


def _with(path: str, value: Any) -> dict[str, Any]:
    record = _record()
    *keys, last = path.split(".")
    node: Any = record
    for key in keys:
        node = node[int(key)] if key.isdigit() else node[key]
    node[int(last) if last.isdigit() else last] = value
    return record


def _raw(path: str, raw: str) -> str:
    """The record with the value at ``path`` written as the raw JSON text ``raw``."""
    return _text(_with(path, "\u0000RAW")).replace('"\\u0000RAW"', raw, 1)


def _cut_record(cuts: list[list[str] | None]) -> dict[str, Any]:
    """The hand-checked classic deals of test_record with ``cut_nines`` and these cuts
    (None: no cut listed)."""
    from test_record import HAND_RECORD

    record = copy.deepcopy(HAND_RECORD)
    record["rules"] = {"preset": "classic", "cut_nines": True}
    for deal, cut in zip(record["deals"], cuts, strict=True):
        if cut is not None:
            deal["cut"] = cut
    return record


#: (class, name, the file's bytes, expected exit status, a fragment of stderr)
CLASSES: list[tuple[str, str, bytes, int, str]] = [
    # integers over 4300 digits (and anything over 20)
    ("big int", "first_dealer", _raw("first_dealer", "1" * 5000).encode(), 2,
     "a number of 5000 digits; a record's numbers have at most 20"),
    ("big int", "rules option", _raw("rules.rounding", "9" * 4301).encode(), 2, "digits"),
    ("big int", "negative", _raw("first_dealer", "-" + "9" * 30).encode(), 2, "digits"),
    ("big int", "as a bid", _text(_with("deals.0.moves.0", "1" * 5000)).encode(), 2,
     "is not a move: too long"),
    ("big int", "as a contract", _text(_with("deals.0.moves.0", "contract 9999999")).encode(),
     2, "no contract is that high"),
    # non-ASCII digits in moves
    ("digits", "superscript", _text(_with("deals.0.moves.0", "²")).encode(), 2,
     "'²' is not a move"),
    ("digits", "arabic-indic", _text(_with("deals.0.moves.0", "١٢٠")).encode(), 2,
     "is not a move"),
    ("digits", "fullwidth", _text(_with("deals.0.moves.0", "１２０")).encode(), 2,
     "is not a move"),
    ("digits", "contract", _text(_with("deals.0.moves.0", "contract ²")).encode(), 2,
     "is not a move"),
    # JSON nested deep
    ("nesting", "1000 deep in the rules",
     _raw("rules", "[" * 1000 + "]" * 1000).encode(), 2, "nested deeper than 16"),
    ("nesting", "1000 deep objects",
     ('{"a":' * 1000 + "1" + "}" * 1000).encode(), 2, "nested deeper than 16"),
    ("nesting", "unclosed, 100000", b"[" * 100_000, 2, "error: "),
    ("nesting", "10 MB deep", b"[" * (MAX_RECORD_BYTES // 2) + b"]" * (MAX_RECORD_BYTES // 2),
     2, "nested deeper than 16"),
    # duplicated keys
    ("duplicate key", "a second deals", (_text()[:-1] + ', "deals": []}').encode(), 2,
     "the key 'deals' is written twice"),
    ("duplicate key", "in a deal",
     _text().replace('"moves": [', '"moves": [], "moves": [', 1).encode(), 2,
     "the key 'moves' is written twice"),
    ("duplicate key", "in the rules",
     _text().replace('"preset": "classic"', '"preset": "classic", "preset": "house"', 1)
     .encode(), 2, "the key 'preset' is written twice"),
    # floats and booleans where whole numbers belong
    ("not an int", "float dealer", _raw("first_dealer", "0.0").encode(), 2,
     "first_dealer: 0.0 is not a seat"),
    ("not an int", "bool dealer", _raw("first_dealer", "false").encode(), 2,
     "first_dealer: false is not a seat"),
    ("not an int", "float option", _raw("rules.rounding", "10.0").encode(), 2, "rounding"),
    ("not an int", "bool option", _raw("rules.rounding", "true").encode(), 2, "rounding"),
    ("not an int", "NaN", _raw("first_dealer", "NaN").encode(), 2, "NaN is not a JSON number"),
    ("not an int", "Infinity", _raw("first_dealer", "-Infinity").encode(), 2,
     "-Infinity is not a JSON number"),
    ("not an int", "1e999", _raw("first_dealer", "1e999").encode(), 2,
     "first_dealer: Infinity is not a seat"),
    ("not an int", "a bid as a number", _raw("deals.0.moves.0", "100").encode(), 2,
     "item 1 must be a string"),
    # not UTF-8
    ("encoding", "latin-1", _text().replace("P1", "Zoë").encode("latin-1", "replace"), 2,
     "not UTF-8 text: byte 0xeb"),
    ("encoding", "utf-16", _text().encode("utf-16"), 2, "not UTF-8 text: byte 0xff at offset 0"),
    ("encoding", "cut in a character", _text().encode()[:-1] + "ё".encode()[:1], 2,
     "not UTF-8 text"),
    ("encoding", "escaped lone surrogate",
     _text(_with("players.0", "\ud800"), ascii=True).encode(), 2, "lone surrogate U+D800"),
    ("encoding", "raw surrogate bytes",
     _text(_with("players.0", "\udcff")).encode("utf-8", "surrogatepass").replace(
         b"\\udcff", b"\xed\xb3\xbf"), 2, "not UTF-8 text"),
    ("encoding", "a byte-order mark is fine", b"\xef\xbb\xbf" + _text().encode(), 0, ""),
    # size
    ("size", "over 10 MB", b" " * (MAX_RECORD_BYTES + 1), 2,
     "larger than 10 MB; a game record is far smaller"),
    ("size", "a move of a megabyte", _text(_with("deals.0.moves.0", "A" * 2**20)).encode(), 2,
     "is not a move: too long"),
    ("size", "a key of a megabyte", (_text()[:-1] + ', "' + "k" * 2**20 + '": 1}').encode(),
     2, "unknown key 'kkkk"),
    ("size", "1 MB of empty lists",
     _text().replace('"deals": [', '"deals": [' + "[]," * 333_333, 1).encode(), 2,
     "deals: 333336 deals; a record holds at most 2000"),
    ("size", "2001 deals", _text(_with("deals", [{}] * 2001)).encode(), 2,
     "deals: 2001 deals; a record holds at most 2000"),
    # names
    ("names", "markup", _text(_with("players", ["[/]", "[bold]", "[red]x[/"])).encode(), 0, ""),
    ("names", "control character", _text(_with("players.1", "\x1b[31mred")).encode(), 2,
     "control character U+001B"),
    ("names", "newline", _text(_with("players.1", "a\nb")).encode(), 2,
     "control character U+000A"),
    ("names", "too long", _text(_with("players.2", "я" * 101)).encode(), 2,
     "101 characters long"),
    # impossible cut lists (RULES §6): an illegal record
    ("cut", "ends with a nine", json.dumps(_cut_record([["9S", "9D"], ["JD"]])).encode(), 1,
     "deal 1: cut: "),
    ("cut", "four nines", json.dumps(_cut_record([["9S", "9D", "9C", "9H"], ["JD"]])).encode(),
     1, "deal 1: cut: "),
    ("cut", "a card after three nines",
     json.dumps(_cut_record([["9S", "9D", "9H", "JH"], ["JD"]])).encode(), 1, "deal 1: cut: "),
    ("cut", "a card after a jack", json.dumps(_cut_record([["JD", "KS"], ["JD"]])).encode(), 1,
     "deal 1: cut: "),
    ("cut", "two cards", json.dumps(_cut_record([["KS", "9H"], ["JD"]])).encode(), 1,
     "deal 1: cut: "),
    ("cut", "the last card not in the talon",
     json.dumps(_cut_record([["9S", "AD"], ["JD"]])).encode(), 1, "deal 1: cut: "),
    ("cut", "missing with cut_nines", json.dumps(_cut_record([["KS"], None])).encode(), 1,
     "deal 2: cut: "),
    ("cut", "empty with cut_nines", json.dumps(_cut_record([["KS"], []])).encode(), 1,
     "deal 2: cut: "),
    ("cut", "not a card", json.dumps(_cut_record([["KS"], ["XX"]])).encode(), 2,
     "deal 2: cut: 'XX' is not a card"),
    ("cut", "possible lists", json.dumps(_cut_record([["9S", "9D", "9H"], ["9C", "JS"]]))
     .encode(), 0, ""),
    ("cut", "a card in the talon", json.dumps(_cut_record([["9C", "KS"], ["JC"]])).encode(), 0,
     ""),
    # the format version
    ("format", "1", _raw("format", "1").encode(), 0, ""),
    ("format", "absent", _text({k: v for k, v in _record().items() if k != "format"}).encode(),
     0, ""),
    ("format", "2", _raw("format", "2").encode(), 2,
     "format: 2 is not supported; this version of thousand reads format 1"),
    ("format", "a string", _raw("format", '"1"').encode(), 2, 'format: "1" is not a format'),
    ("format", "a float", _raw("format", "1.0").encode(), 2, "format: 1.0 is not a format"),
    ("format", "true", _raw("format", "true").encode(), 2, "format: true is not a format"),
]


def _ids() -> list[str]:
    return [f"{c}: {n}" for c, n, *_ in CLASSES]


@pytest.mark.parametrize(("kind", "name", "data", "status", "fragment"), CLASSES, ids=_ids())
@pytest.mark.parametrize("as_json", [True, False], ids=["json", "sheet"])
def child_each_class_of_break(
    tmp_path: Path, kind: str, name: str, data: bytes, status: int, fragment: str,
    as_json: bool,
) -> None:
    if not as_json and status != 0 and kind != "names":
        pytest.skip("the sheet is drawn only for a legal record")
    path = tmp_path / "game.json"
    path.write_bytes(data)
    before = snapshot(tmp_path)
    args = ["replay", str(path), *(["--json"] if as_json else ["--lang", "en"])]
    code, out, err, seconds = invoke(args)
    check_outcome(code, out, err, seconds, label=f"{kind}: {name}")
    assert code == status, err
    assert fragment in err
    if status == 2:
        assert err.startswith(f"error: {path}: ")
    if status == 0 and as_json:
        assert set(json.loads(out)) >= {"deals", "scores", "winner"}
    if status == 0 and not as_json:
        assert "Score sheet" in out
        if kind == "names":
            assert "[/]" in out and "[bold]" in out and "[red]x[/" in out
    assert snapshot(tmp_path) == before


@pytest.mark.parametrize("where", ["file", "stdin"])
def child_an_endless_file_is_read_only_up_to_the_cap(where: str) -> None:
    """``/dev/zero`` (and an endless pipe): 10 MB are read, then the file is refused."""
    with open("/dev/zero", "rb") as zero:
        if where == "file":
            code, out, err, seconds = invoke(["replay", "/dev/zero"])
        else:
            code, out, err, seconds = invoke(["replay", "-"], stdin=zero)
    check_outcome(code, out, err, seconds)
    name = "/dev/zero" if where == "file" else "-"
    assert code == 2 and err == f"error: {name}: larger than 10 MB; a game record is far smaller\n"


def child_unreadable_paths(tmp_path: Path) -> None:
    (tmp_path / "file").write_text("{}")
    os.symlink(tmp_path / "loop", tmp_path / "loop")
    cases = {
        str(tmp_path / "missing.json"): "no such file",
        str(tmp_path): "is a directory, not a record",
        str(tmp_path / "file" / "x.json"): "cannot read it: Not a directory",
        str(tmp_path / ("n" * 300)): "cannot read it: File name too long",
        str(tmp_path / "loop"): "cannot read it: Too many levels of symbolic links",
        str(tmp_path / "\udcff\n.json"): "no such file",
    }
    for path, reason in cases.items():
        code, out, err, seconds = invoke(["replay", path])
        check_outcome(code, out, err, seconds, label=path)
        assert code == 2 and err.endswith(f": {reason}\n"), err


def child_an_illegal_move_is_status_1() -> None:
    record = _record()
    moves = record["deals"][0]["moves"]
    moves[0] = "pass" if moves[0] != "pass" else "100"
    code, out, err, seconds = invoke(["replay", "-", "--json"], stdin=_text(record).encode())
    check_outcome(code, out, err, seconds)
    assert code == 1 and err.startswith("deal 1, move 1: ")


# ------------------------------------------------------------------ mutations

#: Values a mutation puts anywhere in a record.
HOSTILE: list[Any] = [
    None, True, False, 0, -1, 1.5, 2**31, 10**19, "", " ", "²", "٣", "１２０", "contract ²",
    "contract 99999", "99000", "x" * 5000, "[/]", "[bold]", "\ud800", "\x1b[2J", "\n", [], {},
    [[]], {"preset": "classic"}, ["AH"], ["AH", "AH"], "AH", "KH+", "10S", "give 9S",
    "discard 9S", "9S", "JD", "pass", "look", "dark", "redeal", "buy", "concede",
    "contract 120", "120", "classic", "house", ["9S", "9D", "9H"], ["JD", "AH"],
]
#: Raw JSON texts a mutation puts in place of a value.
RAW: list[str] = [
    "1" * 5000, "1" * 25, "-" + "9" * 30, "1e999", "NaN", "Infinity", "-0", "0.0", "1E2",
    "[" * 1000 + "]" * 1000, '{"a":' * 40 + "1" + "}" * 40, '"\\ud800"', '"\\u0000"',
    '"\\udcff\\ud800"', '{"a": 1, "a": 2}',
]
_RAW_MARK = "\u0000RAW{}"
#: Moves, legal somewhere: one in place of another makes most games illegal.
MOVES: list[str] = [
    *(r + s for r in "9JQKTA" for s in "SCDH"), "KH+", "QS+", "AD+", "give 9S", "give AH",
    "discard KC", "pass", "100", "105", "110", "120", "200", "contract 120", "contract 300",
    "dark", "redeal", "concede", "buy", "look",
]


def _places(node: Any, out: list[tuple[Any, Any]]) -> list[tuple[Any, Any]]:
    """Every (container, key or index) of a JSON tree, depth first."""
    if isinstance(node, dict):
        for key, value in node.items():
            out.append((node, key))
            _places(value, out)
    elif isinstance(node, list):
        for i, value in enumerate(node):
            out.append((node, i))
            _places(value, out)
    return out


@st.composite
def mutated_records(draw: st.DrawFn) -> tuple[bytes, str]:
    """A real record, mutated in its tree and maybe in its bytes; and what was done."""
    record = copy.deepcopy(draw(st.sampled_from(CORPUS)))
    done = []
    raws: list[str] = []
    for _ in range(draw(st.integers(1, 3))):
        op = draw(st.sampled_from(["move", "move", "value", "raw", "delete", "copy", "swap",
                                   "insert"]))
        deals = record.get("deals")
        if op == "move" and isinstance(deals, list) and deals:
            # The game itself: another move in place of one, as a fuzzer of moves would.
            deal = deals[draw(st.integers(0, len(deals) - 1))]
            moves = deal.get("moves") if isinstance(deal, dict) else None
            if isinstance(moves, list) and moves:
                at = draw(st.integers(0, len(moves) - 1))
                moves[at] = draw(st.sampled_from(MOVES))
                done.append(f"move {at + 1} = {moves[at]!r}")
                continue
        places = _places(record, [])
        container, key = places[draw(st.integers(0, len(places) - 1))]
        op = "value" if op == "move" else op
        done.append(f"{op} at {key!r}")
        if op == "value":
            container[key] = copy.deepcopy(draw(st.sampled_from(HOSTILE)))
        elif op == "raw":
            container[key] = _RAW_MARK.format(len(raws))
            raws.append(draw(st.sampled_from(RAW)))
        elif op == "delete":
            del container[key]
        elif isinstance(container, list):
            other = draw(st.integers(0, len(container) - 1))
            if op == "copy":
                container.insert(other, copy.deepcopy(container[key]))
            elif op == "swap":
                container[key], container[other] = container[other], container[key]
            else:
                container.insert(other, copy.deepcopy(draw(st.sampled_from(HOSTILE))))
        else:
            container[draw(st.sampled_from(["date", "format", "cut", "moves", key]))] = (
                copy.deepcopy(draw(st.sampled_from(HOSTILE))))
    text = json.dumps(record, ensure_ascii=draw(st.booleans()))
    for i, raw in enumerate(raws):
        text = text.replace(json.dumps(_RAW_MARK.format(i)), raw, 1)
    data = text.encode("utf-8", "surrogatepass")
    edit = draw(st.sampled_from(["none"] * 6 + ["truncate", "byte", "duplicate", "utf16",
                                               "bom", "readable"]))
    done.append(edit)
    if edit == "truncate":
        data = data[: draw(st.integers(0, len(data)))]
    elif edit == "byte":
        at = draw(st.integers(0, len(data)))
        byte = draw(st.sampled_from([b"\xff", b"\xc3", b"\x00", b"{", b"]", b'"', b"\\", b"9"]))
        data = data[:at] + byte + data[at + draw(st.integers(0, 1)):]
    elif edit == "duplicate":
        key = draw(st.sampled_from(["deals", "rules", "players", "first_dealer", "format"]))
        data = b'{"%s": [], ' % key.encode() + data.lstrip()[1:]
    elif edit == "utf16":
        data = text.encode("utf-16", "surrogatepass")
    elif edit == "bom":
        data = b"\xef\xbb\xbf" + data
    elif edit == "readable" and not raws:
        # The writer is for records: a broken one may lack what it writes.
        with contextlib.suppress(KeyError, TypeError, AttributeError):
            data = dumps_record(record).encode("utf-8", "surrogatepass")
    return data, "; ".join(done)


def _library_status(data: bytes) -> int:
    try:
        replay(data)
    except RecordError:
        return 2
    except ReplayError:
        return 1
    return 0


@settings(max_examples=EXAMPLES, deadline=None, database=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large,
                                 HealthCheck.function_scoped_fixture])
@given(case=mutated_records(), as_json=st.booleans())
def child_mutated_records(tmp_path: Path, case: tuple[bytes, str], as_json: bool) -> None:
    data, done = case
    path = tmp_path / "game.json"
    path.write_bytes(data)
    before = snapshot(tmp_path)
    args = ["replay", str(path), *(["--json"] if as_json else [])]
    code, out, err, seconds = invoke(args)
    check_outcome(code, out, err, seconds, label=done)
    assert code == _library_status(data), done
    if code == 0 and as_json:
        assert set(json.loads(out)) >= {"deals", "scores", "winner"}
    assert snapshot(tmp_path) == before
    path.unlink()


# ------------------------------------------------------------------ the score sheet


@settings(max_examples=EXAMPLES, deadline=None, database=None)
@given(names=st.lists(st.text(st.characters(codec=None, exclude_categories=()), max_size=12),
                      min_size=3, max_size=3),
       lang=st.sampled_from(["ru", "en"]))
def child_any_name_prints_on_the_sheet(names: list[str], lang: str) -> None:
    """The sheet of a game (the terminal game's names come from the command line, not
    from a checked record): markup is shown as written, and a surrogate or a control
    character is escaped instead of breaking the output."""
    from rich.console import Console

    from thousand.terminal.sheet_view import plain, render_sheet
    from thousand.words.sheet import score_sheet

    game = Game(Rules.preset_rules("classic", max_deals=2), names, first_dealer=0, seed=1)
    rng = random.Random(1)
    while not game.over:
        game.apply(rng.choice(game.legal_moves()))
    out = io.BytesIO()
    stream = io.TextIOWrapper(out, encoding="utf-8", errors="strict", write_through=True)
    Console(file=stream, width=300, color_system=None).print(render_sheet(game, lang))
    text = out.getvalue().decode("utf-8")
    assert score_sheet(game, lang).names == tuple(names)
    for name in names:
        if name.isascii() and name.isprintable() and name.strip() == name and name:
            assert name in text  # markup such as "[/]" is shown as written
        # nothing a terminal would act on or an encoder refuse
        assert not any(unicodedata.category(ch) in ("Cs", "Cc") and ch != "\n"
                       for ch in plain(name))


# ------------------------------------------------------------------ the notation (API)


@pytest.mark.parametrize(
    "text",
    ["²", "³", "١٢٠", "１２０", "٣", "contract ²", "contract ١٢٠", "1" * 5000,
     "contract " + "1" * 5000, "9" * 7, "contract 9999999", "1" * 4301],
)
def test_parse_move_rejects_other_digits_and_long_numbers(text: str) -> None:
    """``str.isdigit`` takes "²" and other scripts' digits, and ``int`` gives up past 4300
    digits: the notation has ASCII digits and short numbers only (a MoveError, never a
    ValueError of another kind)."""
    from thousand.engine.moves import MoveError, parse_move

    with pytest.raises(MoveError):
        parse_move(text)


def child_parse_move_any_text() -> None:
    """Any text is a move or a MoveError; a move written back reads the same."""
    from thousand.engine.moves import MoveError, move_str, parse_move

    @settings(max_examples=EXAMPLES, deadline=None, database=None)
    @given(text=st.one_of(
        st.text(st.characters(codec=None, exclude_categories=()), max_size=20),
        st.from_regex(r"\A(contract |give |discard )?[0-9²٣١２]{0,12}[SCDH+]?\Z"),
    ))
    def check(text: str) -> None:
        try:
            move = parse_move(text)
        except MoveError:
            return
        assert parse_move(move_str(move)) == move

    check()
