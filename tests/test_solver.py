"""Tests of the double-dummy solver (thousand.solver).

The reference is a plain minimax over a separate, literal implementation of the play rules
(``ref_moves`` / ``ref_play`` below, written from RULES without the solver's code), run on
thousands of random small positions with random options.
"""

from __future__ import annotations

import os
import random
import time
import zlib
from dataclasses import replace

import pytest

import needs
from thousand.engine import moves as engine_moves
from thousand.engine.cards import POINTS, mask_of, parse_card, parse_cards
from thousand.solver import (
    CLASSIC,
    HAVE_NATIVE,
    PlayOptions,
    PlayPosition,
    Solver,
    apply_move,
    legal_moves,
    makes,
    solve,
    solve_moves,
    trick_winner,
)

# --- the reference: literal rules, plain minimax ----------------------------------------------


def _suit(c: int) -> int:
    return c // 6


def _rank(c: int) -> int:
    return c % 6


def _holds(hand: set[int], *cards: int) -> bool:
    return all(c in hand for c in cards)


#: RULES §1: the ranks from low to high in taking tricks, by ten_strength (a card's rank is
#: its place in "9JQKTA").  Written out here, not taken from thousand.engine.cards.
TRICK_ORDER = {"high": "9JQKTA", "natural": "9TJQKA"}


def _strength(o: PlayOptions, c: int) -> int:
    return TRICK_ORDER[o.ten_strength].index("9JQKTA"[_rank(c)])


def ref_declaration(
    hand: set[int], card: int, o: PlayOptions, declared: int = 0
) -> tuple[int, bool] | None:
    """(value, trump changes) of leading ``card`` with + from ``hand``, literally."""
    s, r = _suit(card), _rank(card)
    k, q, j = 6 * s + 3, 6 * s + 2, 6 * s + 1
    if r in (1, 2, 3) and declared >> s & 1:
        return None  # a suit's queen serves one declaration only
    if r in (3, 2) and _holds(hand, k, q):
        return o.marriage_values[s], True
    if o.half_marriage and r in (2, 1) and _holds(hand, q, j):
        return o.marriage_values[s] // 2, True
    if r == 5 and o.ace_marriage and _holds(hand, 5, 11, 17, 23):
        return o.ace_marriage, o.ace_marriage_trump
    if r == 0 and o.four_nines_bonus and _holds(hand, 0, 6, 12, 18):
        return o.four_nines_bonus, False
    return None


def ref_moves(st: dict) -> list[int]:
    o: PlayOptions = st["opts"]
    seat = (st["leader"] + len(st["trick"])) % len(st["hands"])
    hand: set[int] = st["hands"][seat]
    trump = st["trump"]
    if st["trick"]:
        led = _suit(st["trick"][0])
        same = [c for c in hand if _suit(c) == led]
        if same:
            if o.must_overtake:
                top = max(
                    (c for c in st["trick"] if _suit(c) == led), key=lambda c: _strength(o, c)
                )
                above = [c for c in same if _strength(o, c) > _strength(o, top)]
                if above:
                    return sorted(above)
            return sorted(same)
        trumps = [c for c in hand if _suit(c) == trump]
        if trumps:
            return sorted(trumps)
        return sorted(hand)
    own_trump_barred = (
        o.no_lead_own_trump
        and trump >= 0
        and st["tdecl"] == seat
        and any(_suit(c) != trump for c in hand)
    )
    if o.ace_marriage_all_in_row and st["aces"] == seat and any(_rank(c) == 5 for c in hand):
        return sorted(c for c in hand if _rank(c) == 5)  # the ace duty
    leads = sorted(c for c in hand if not (own_trump_barred and _suit(c) == trump))
    out = list(leads)
    if st["tricks_played"] > 0 or o.marriage_on_first_lead:
        # a declaring lead is a lead: the same cards
        out += [
            24 + c for c in leads if ref_declaration(hand, c, o, st["declared"]) is not None
        ]
    return out


def ref_play(st: dict, mv: int) -> dict:
    o: PlayOptions = st["opts"]
    seat = (st["leader"] + len(st["trick"])) % len(st["hands"])
    st = {**st, "hands": [set(h) for h in st["hands"]], "trick": list(st["trick"])}
    card = mv % 24
    if mv >= 24:
        value, changes = ref_declaration(  # type: ignore[misc]
            st["hands"][seat], card, o, st["declared"]
        )
        if seat == st["declarer"]:
            st["points"] += value
        if changes:
            st["trump"], st["tdecl"] = _suit(card), seat
        if _rank(card) == 5 and o.ace_marriage_all_in_row:
            st["aces"] = seat
        if _rank(card) in (1, 2, 3):
            st["declared"] |= 1 << _suit(card)
    st["hands"][seat].discard(card)
    st["trick"].append(card)
    if len(st["trick"]) == len(st["hands"]):  # a trick has a card from each seat
        led = _suit(st["trick"][0])
        trumps = [c for c in st["trick"] if _suit(c) == st["trump"]]
        followed = [c for c in st["trick"] if _suit(c) == led]
        win_card = max(trumps or followed, key=lambda c: _strength(o, c))
        winner = (st["leader"] + st["trick"].index(win_card)) % len(st["hands"])
        if winner == st["declarer"]:
            st["points"] += sum(POINTS[c] for c in st["trick"])
        if st["aces"] != winner:
            st["aces"] = -1
        st["leader"], st["trick"] = winner, []
        st["tricks_played"] += 1
    return st


def ref_state(pos: PlayPosition) -> dict:
    return {
        "opts": pos.options,
        "hands": [{c for c in range(24) if h >> c & 1} for h in pos.hands],
        "leader": pos.leader,
        "trick": list(pos.trick),
        "trump": pos.trump,
        "tdecl": pos.trump_declarer,
        # the duty lasts while its seat keeps the lead: any other seat means none
        "aces": pos.aces_in_row_seat if pos.aces_in_row_seat == pos.leader else -1,
        "tricks_played": pos.tricks_played,
        "declarer": pos.declarer,
        "points": pos.declarer_points,
        "declared": pos.declared_suits,
    }


def ref_value(st: dict) -> int:
    if not any(st["hands"]) and not st["trick"]:
        return st["points"]
    seat = (st["leader"] + len(st["trick"])) % len(st["hands"])
    values = [ref_value(ref_play(st, m)) for m in ref_moves(st)]
    return max(values) if seat == st["declarer"] else min(values)


def ref_solve(pos: PlayPosition) -> int:
    return ref_value(ref_state(pos))


# --- random positions ---------------------------------------------------------------------------


def random_options(rng: random.Random) -> PlayOptions:
    if rng.random() < 0.25:
        return PlayOptions.of()
    values = [40, 60, 80, 100]
    if rng.random() < 0.3:
        rng.shuffle(values)
    return PlayOptions.of(
        must_overtake=rng.random() < 0.4,
        marriage_values=(values[0], values[1], values[2], values[3]),
        marriage_on_first_lead=rng.random() < 0.3,
        marriage_points_declarer_only=rng.random() < 0.3,
        half_marriage=rng.random() < 0.4,
        ace_marriage=rng.choice((0, 0, 200)),
        ace_marriage_trump=rng.random() < 0.5,
        ace_marriage_all_in_row=rng.random() < 0.5,
        four_nines_bonus=rng.choice((0, 0, 200, 360)),
        no_lead_own_trump=rng.random() < 0.4,
        ten_strength="natural" if rng.random() < 0.35 else "high",
    )


def random_position(
    rng: random.Random,
    tricks: int,
    opts: PlayOptions | None = None,
    four: bool = False,
    seats: int = 3,
) -> PlayPosition:
    """A random position with ``tricks`` tricks left (counting the one in progress).

    ``four``: the leader holds four aces or four nines and the trick is still to be led.
    ``seats``: 3, or 2 for the game for two (RULES §4 "Two players").
    """
    opts = random_options(rng) if opts is None else opts
    deck = list(range(24))
    rng.shuffle(deck)
    leader = rng.randrange(seats)
    in_trick = 0 if four else rng.choice((0, 0, 1, 2)[: seats + 1])
    hands: list[set[int]] = [set() for _ in range(seats)]
    # Sometimes stack a hand with four aces, four nines or marriages.
    if tricks >= 4 and (four or rng.random() < 0.3):
        seat = leader if four else rng.randrange(seats)
        special = [5, 11, 17, 23] if rng.random() < 0.5 else [0, 6, 12, 18]
        hands[seat].update(special)
        deck = [c for c in deck if c not in special]
    elif rng.random() < 0.4:
        seat = rng.randrange(seats)
        s = rng.randrange(4)
        special = [6 * s + 3, 6 * s + 2] + ([6 * s + 1] if rng.random() < 0.5 else [])
        special = special[:tricks]
        hands[seat].update(special)
        deck = [c for c in deck if c not in special]
    sizes = [tricks - (1 if (i - leader) % seats < in_trick else 0) for i in range(seats)]
    for i in range(seats):
        while len(hands[i]) > sizes[i]:
            hands[i].pop()
    trick = []
    for _ in range(in_trick):
        trick.append(deck.pop())
    for i in range(seats):
        while len(hands[i]) < sizes[i]:
            hands[i].add(deck.pop())
    trump = rng.choice((-1, -1, 0, 1, 2, 3))
    return PlayPosition(
        hands=tuple(mask_of(h) for h in hands),
        leader=leader,
        trick=tuple(trick),
        trump=trump,
        trump_declarer=rng.randrange(seats) if trump >= 0 else -1,
        tricks_played=rng.choice((0, 1, 3)) if not trick and not four else rng.choice((0, 2, 2)),
        declarer=rng.randrange(seats),
        declarer_points=rng.choice((0, 0, 37, 100)),
        options=opts,
        aces_in_row_seat=rng.choice((-1, -1, leader, (leader + 1) % seats)),
        declared_suits=rng.choice((0, 0, rng.randrange(16))),
    )


def H(text: str) -> int:
    """A hand from the record notation: H("AS TS 9C")."""
    return mask_of(parse_cards(text.split()))


def C(text: str) -> int:
    return parse_card(text)


def D(text: str) -> int:
    """A declaring lead: D("KH") is KH+."""
    return engine_moves.play(parse_card(text), declare=True)


# --- hand-worked positions ----------------------------------------------------------------------


def test_last_trick():
    hands = (H("AS"), H("9S"), H("KH"))
    pos = PlayPosition(hands=hands, leader=0, declarer=0, declarer_points=50, tricks_played=7)
    assert solve(pos) == 50 + 11 + 0 + 4
    # Hearts trump: seat 2 has no spade, so he must ruff, and takes the trick.
    ruffed = PlayPosition(
        hands=hands, leader=0, declarer=0, declarer_points=50, trump=3, trump_declarer=1,
        tricks_played=7,
    )
    assert solve(ruffed) == 50
    assert solve_moves(ruffed) == {C("AS"): 50}
    # Declarer to play last in a trick in progress.
    pos = PlayPosition(hands=(H("TS"), 0, 0), leader=1, trick=(C("9S"), C("AC")), declarer=0)
    assert legal_moves(pos) == [C("TS")]
    assert solve(pos) == 10 + 0 + 11


def test_must_trump_two_tricks():
    """Hearts are trump.  Leading AS first loses it to seat 2's ruff and the rest with it;
    leading 9C first draws both defenders' trumps (seat 1 ruffs with AH, seat 2 must add 9H),
    then AS takes KS and TD: 11 + 4 + 10 = 25."""
    pos = PlayPosition(
        hands=(H("AS 9C"), H("KS AH"), H("TD 9H")), leader=0, trump=3, trump_declarer=1,
        tricks_played=6, declarer=0,
    )
    assert solve_moves(pos) == {C("AS"): 0, C("9C"): 25}
    assert solve(pos) == 25
    after = apply_move(pos, C("AS"))
    assert legal_moves(after) == [C("KS")]  # follow suit
    after = apply_move(after, C("KS"))
    assert legal_moves(after) == [C("9H")]  # no spade: must ruff


def test_declaring_the_marriage_is_worth_it():
    """KH QH 9S: the hearts win two tricks either way (29 card points: the defenders keep
    their aces for the spade trick); declaring adds 100.  Leading 9S gives up the lead for
    good: the hearts are thrown away on clubs and spades."""
    hands = (H("KH QH 9S"), H("AS TS JC"), H("AC TC 9C"))
    pos = PlayPosition(hands=hands, leader=0, declarer=0, tricks_played=2)
    values = solve_moves(pos)
    assert values == {C("KH"): 29, C("QH"): 29, C("9S"): 0, D("KH"): 129, D("QH"): 129}
    assert solve(pos) == 129
    # No marriage on the first lead of the deal (classic) ...
    first = PlayPosition(hands=hands, leader=0, declarer=0, tricks_played=0)
    assert D("KH") not in legal_moves(first)
    assert solve(first) == 29
    # ... unless the option allows it.
    allowed = PlayPosition(
        hands=hands, leader=0, declarer=0, options=PlayOptions.of(marriage_on_first_lead=True)
    )
    assert solve(allowed) == 129
    after = apply_move(pos, D("KH"))
    assert after.trump == 3 and after.trump_declarer == 0 and after.declarer_points == 100


def test_defender_marriage_changes_trump_but_scores_nothing():
    # Seat 1 (a defender) declares spades: trump changes, the declarer's total does not.
    pos = PlayPosition(
        hands=(H("AH 9D"), H("KS QS"), H("TH JD")), leader=1, declarer=0, tricks_played=3
    )
    after = apply_move(pos, D("KS"))
    assert after.trump == 0 and after.declarer_points == 0
    assert solve(pos) == ref_solve(pos)


def test_must_overtake():
    """All spades.  Without the option the defenders duck and take everything; with it,
    after QS seat 1 must put up AS, seat 2 throws KS, and TS wins the last trick over JS
    and 9S (seat 2 would rather keep 9S and give KS: 2 + 0 + 10 = 12)."""
    hands = (H("TS QS"), H("AS JS"), H("KS 9S"))
    free = PlayPosition(hands=hands, leader=0, declarer=0, tricks_played=6)
    forced = PlayPosition(
        hands=hands, leader=0, declarer=0, tricks_played=6,
        options=PlayOptions.of(must_overtake=True),
    )
    assert solve(free) == 0
    assert solve(forced) == 12
    assert legal_moves(apply_move(free, C("QS"))) == [C("AS"), C("JS")]
    assert legal_moves(apply_move(forced, C("QS"))) == [C("AS")]
    # Following a ruffed trick still means beating the highest card of the led suit.
    pos = PlayPosition(
        hands=(H("AD"), H("TC"), H("KS JS")), leader=0, trick=(C("QS"), C("9H")), trump=3,
        trump_declarer=0, declarer=0, tricks_played=3,
        options=PlayOptions.of(must_overtake=True),
    )
    assert legal_moves(pos) == [C("KS")]


def test_no_lead_own_trump_and_ace_duty():
    opts = PlayOptions.of(no_lead_own_trump=True)
    pos = PlayPosition(
        hands=(H("AH 9S"), H("TS JS"), H("KS QD")), leader=0, trump=3, trump_declarer=0,
        tricks_played=2, options=opts,
    )
    assert legal_moves(pos) == [C("9S")]
    only_trumps = PlayPosition(
        hands=(H("AH 9H"), H("TS JS"), H("KS QD")), leader=0, trump=3, trump_declarer=0,
        tricks_played=2, options=opts,
    )
    assert sorted(legal_moves(only_trumps)) == [C("9H"), C("AH")]
    # The four aces declared with all_in_row: the next leads must be aces while he keeps
    # the lead.
    aces = PlayOptions.of(ace_marriage=200, ace_marriage_all_in_row=True)
    pos = PlayPosition(
        hands=(H("AS AC AD AH"), H("9S JC QD KH"), H("TS TC TD TH")), leader=0, tricks_played=1,
        options=aces,
    )
    assert D("AS") in legal_moves(pos)
    after = apply_move(pos, D("AS"))
    assert after.declarer_points == 200 and after.aces_in_row_seat == 0 and after.trump == -1
    after = apply_move(apply_move(after, C("9S")), C("TS"))
    assert after.leader == 0 and sorted(legal_moves(after)) == [C("AC"), C("AD"), C("AH")]
    assert solve(pos) == ref_solve(pos)


def test_four_nines_and_half_marriage():
    opts = PlayOptions.of(four_nines_bonus=200, half_marriage=True)
    pos = PlayPosition(
        hands=(H("9S 9C 9D 9H"), H("QS JS AC TC"), H("KD QD AH TH")), leader=0,
        tricks_played=1, options=opts,
    )
    moves = legal_moves(pos)
    assert D("9S") in moves and D("JS") not in moves
    assert apply_move(pos, D("9H")).declarer_points == 200
    assert solve(pos) == ref_solve(pos)
    # Half marriage: seat 1 (the declarer here) leads Q+ or J+ of a Q+J for half the value.
    pos = PlayPosition(
        hands=(H("AS TS 9S"), H("QC JC 9D"), H("AD TD KD")), leader=1, declarer=1,
        tricks_played=1, options=PlayOptions.of(half_marriage=True),
    )
    assert D("QC") in legal_moves(pos) and D("JC") in legal_moves(pos)
    assert apply_move(pos, D("JC")).declarer_points == 30
    assert solve(pos) == ref_solve(pos)
    # A suit's queen serves one declaration: after KC+ no QC+ (half) with the jack.
    pos = PlayPosition(
        hands=(H("AS TS 9S KH"), H("KC QC JC 9D"), H("AD TD KD AH")), leader=1, declarer=1,
        tricks_played=1, options=PlayOptions.of(half_marriage=True),
    )
    assert D("QC") in legal_moves(pos) and D("JC") in legal_moves(pos)  # Q+ is the full one
    after = apply_move(pos, D("KC"))
    assert after.declared_suits == 0b0010
    back = replace(after, hands=(after.hands[0], after.hands[1], after.hands[2]), trick=(),
                   leader=1, tricks_played=2)
    back = replace(back, hands=(H("TS 9S KH"), H("QC JC 9D"), H("TD KD AH")))
    assert D("QC") not in legal_moves(back) and D("JC") not in legal_moves(back)
    assert D("QC") in legal_moves(replace(back, declared_suits=0))
    assert solve(pos) == ref_solve(pos)


def test_options_from_rules():
    """RULES §4: PlayOptions takes every play option from a Rules (which owns the defaults)."""
    from thousand.engine.rules import Rules

    rules = Rules.preset_rules(
        "classic", must_overtake=True, marriage_values=(100, 80, 60, 40), half_marriage=True
    )
    opts = PlayOptions.from_rules(rules)
    assert opts == PlayOptions.of(rules)
    assert (opts.must_overtake, opts.marriage_values, opts.half_marriage) == (
        True, (100, 80, 60, 40), True)
    assert PlayOptions.of() == PlayOptions.of(Rules()) == CLASSIC
    assert PlayOptions.of(rules, half_marriage=False).half_marriage is False
    with pytest.raises(ValueError):
        PlayOptions.of(ace_marriage=-5)


def test_play_options_are_fields_of_the_rules():
    """PlayOptions keeps no option of its own: each field is a field of Rules, of the same
    type, with no default (Rules owns them), and PlayOptions.of copies it."""
    import dataclasses

    from thousand.engine.rules import Rules

    rules_fields = {f.name: f for f in dataclasses.fields(Rules)}
    rules = Rules.preset_rules("house")
    opts = PlayOptions.of(rules)
    for f in dataclasses.fields(PlayOptions):
        assert f.name in rules_fields, f.name
        assert f.type == rules_fields[f.name].type, f.name
        assert f.default is dataclasses.MISSING, f.name
        assert getattr(opts, f.name) == getattr(rules, f.name), f.name


def test_ten_strength_option_passes_through():
    """RULES §1 ten_strength: PlayOptions takes it from the rules, checks it, and the C core
    reads it (ten_natural) from the table of the options."""
    from thousand.engine.rules import Rules

    natural = PlayOptions.of(Rules.preset_rules("textbook"))
    assert natural.ten_strength == "natural" == Rules.preset_rules("textbook").ten_strength
    assert PlayOptions.of().ten_strength == "high"
    assert natural.native()["ten_natural"] == 1
    assert PlayOptions.of().native()["ten_natural"] == 0
    with pytest.raises(ValueError):
        PlayOptions.of(ten_strength="low")


# --- the one table of the options the C cores read (thousand.solver.native_options) ------------


def test_options_header_is_what_the_table_gives():
    """_native/options.h is generated from native_options (setup.py writes it before each
    build): the committed file is the table's text, so C and Python cannot drift apart; and
    each field of the table has its member and its read by name in it."""
    from thousand.solver import native_options as no

    text = no.HEADER.read_text(encoding="utf-8")
    assert text == no.header()
    for struct, fields in no.STRUCTS:
        assert f"}} {struct};" in text and f"int read_{struct}(PyObject *dict" in text
        for f in fields:
            assert f'read_option(dict, "{f.name}", ' in text
            assert f" {f.name}{f'[{f.size}]' if f.size > 1 else ''}; " in text


@pytest.mark.parametrize("preset", ["classic", "house", "textbook", "casual"])
def test_options_table_reads_the_rules(preset: str):
    """Every field of the table is derived from Rules alone, and from a PlayOptions alike
    (the solver passes its options, the fast path the rules): the same values, in range,
    of the declared size."""
    from thousand.engine.rules import Rules
    from thousand.solver import native_options as no

    rules = Rules.preset_rules(preset)
    from_rules = no.values(no.PLAY, rules)
    assert from_rules == PlayOptions.of(rules).native()
    assert from_rules["ten_natural"] == int(rules.ten_strength == "natural")
    for f in no.PLAY + no.DEAL:
        value = f.of(rules)
        items = value if isinstance(value, tuple) else (value,)
        assert len(items) == f.size, f.name
        assert all(0 <= v <= no.MAX_VALUE for v in items), f.name


@pytest.mark.needs("c-core")
def test_native_core_reads_its_options_by_name():
    """The C core reads each option by its name: a missing name or a value out of range is
    refused, naming it; a value that changes the play changes the answer."""
    from thousand.solver import _csolver

    good = CLASSIC.native()
    _csolver.Core(good, 0)
    missing = dict(good)
    del missing["no_lead_own_trump"]
    with pytest.raises(KeyError, match="no_lead_own_trump"):
        _csolver.Core(missing, 0)
    with pytest.raises(ValueError, match="marriage_values"):
        _csolver.Core({**good, "marriage_values": (40, 60, 80)}, 0)
    with pytest.raises(ValueError, match="ace_marriage"):
        _csolver.Core({**good, "ace_marriage": 5000}, 0)


@pytest.mark.skipif(os.environ.get("THOUSAND_PURE_PYTHON") == "1",
                    reason="THOUSAND_PURE_PYTHON=1: the suite runs without the C cores on purpose")
@pytest.mark.parametrize("module", ["thousand.solver._csolver", "thousand.envs._fastsim"])
def test_native_builds_are_of_these_sources(module: str):
    """Each built extension records the hash of its sources (setup.py); the package uses a
    build only when it matches the sources beside it, so an edited core is never run stale."""
    import importlib

    from thousand.solver import native_options as no

    try:
        built = importlib.import_module(module)
    except ImportError:
        needs.require("c-compiler")
        pytest.fail(f"{module} is not built (python setup.py build_ext --inplace)")
    assert built.SOURCE_HASH == no.source_hash(module) != ""


def _solvers() -> list[Solver]:
    return [Solver(native=False)] + ([Solver(native=True)] if HAVE_NATIVE else [])


def test_ten_strength_natural_ten_below_the_jack():
    """RULES §1 ten_strength=natural: the ten takes tricks between the nine and the jack (it
    loses to the jack, the king); with high it beats the king.  Points never change."""
    natural = PlayOptions.of(ten_strength="natural")
    for other, high_value in (("JS", 10 + 2), ("KS", 10 + 4)):
        hands = (H("TS"), H(other), H("9C"))
        high_pos = PlayPosition(hands=hands, leader=0, declarer=0, tricks_played=7)
        nat_pos = replace(high_pos, options=natural)
        for solver in _solvers():
            assert solver.solve(high_pos) == high_value
            assert solver.solve(nat_pos) == 0
        assert trick_winner((C("TS"), C(other), C("9C")), -1) == 0
        assert trick_winner((C("TS"), C(other), C("9C")), -1, "natural") == 1
        assert apply_move(apply_move(apply_move(nat_pos, C("TS")), C(other)), C("9C")).leader == 1
    # The nine still loses to the ten, the ace still beats it.
    assert trick_winner((C("9S"), C("TS"), C("AS")), -1, "natural") == 2
    assert trick_winner((C("9S"), C("TS"), C("9H")), -1, "natural") == 1
    # A trump ten still beats any card of another suit.
    assert trick_winner((C("AS"), C("TH")), 3, "natural") == 1


def test_ten_strength_natural_must_overtake():
    """RULES §4 must_overtake with ten_strength=natural: over a led ten a jack is higher (and
    must be played); over a led jack a ten is lower (and need not be)."""
    opts = PlayOptions.of(must_overtake=True, ten_strength="natural")
    high = PlayOptions.of(must_overtake=True)
    hands = (H("9H TS"), H("JS 9S"), H("KC 9C"))
    pos = PlayPosition(hands=hands, leader=0, declarer=0, tricks_played=6, options=opts)
    assert legal_moves(apply_move(pos, C("TS"))) == [C("JS")]
    assert sorted(legal_moves(apply_move(replace(pos, options=high), C("TS")))) == sorted(
        [C("JS"), C("9S")]
    )
    pos = PlayPosition(
        hands=(H("9H JS"), H("TS QS"), H("KC 9C")), leader=0, declarer=0, tricks_played=6,
        options=opts,
    )
    assert legal_moves(apply_move(pos, C("JS"))) == [C("QS")]
    pos = replace(pos, hands=(H("9H JS"), H("TS 9S"), H("KC 9C")))
    assert sorted(legal_moves(apply_move(pos, C("JS")))) == sorted([C("TS"), C("9S")])
    for solver in _solvers():
        assert solver.solve(pos) == ref_solve(pos)


def test_ten_strength_natural_equivalent_cards_keep_points():
    """RULES §1 ten_strength=natural: TS and JS are neighbours in strength (equivalent cards
    for the solver), but the ten is worth 10 and the jack 2.  Seat 1 throws the ten on his
    partner's ace and keeps the jack for the declarer's heart trick: 11 + 2 = 13 (keeping
    the ten would give 21)."""
    for opts in (PlayOptions.of(ten_strength="natural"), CLASSIC):
        pos = PlayPosition(
            hands=(H("9S AH"), H("TS JS"), H("AS 9H")), leader=2, declarer=0, tricks_played=6,
            options=opts,
        )
        for solver in _solvers():
            assert solver.solve(pos) == 13 == ref_solve(pos)
            after = apply_move(apply_move(pos, C("AS")), C("9S"))
            assert solver.solve_moves(after) == {C("TS"): 13, C("JS"): 21}
            # Under the declarer's winning ace, the same seat gives the jack.
            after = apply_move(apply_move(pos, C("9H")), C("AH"))
            assert solver.solve_moves(after) == {C("TS"): 21, C("JS"): 13}


def test_layouts_come_from_the_engine_tables():
    """RULES §1 ten_strength: the search's numbering is the engine's strength order
    (thousand.engine.cards.STRENGTH, HIGHER_BY_STRENGTH) with the points of the real cards."""
    from thousand.engine.cards import HIGHER_BY_STRENGTH, STRENGTH
    from thousand.solver.alphabeta import layout

    for name, strength in STRENGTH.items():
        lay = layout(name)
        for c in range(24):
            p = lay.pos[c]
            assert lay.card[p] == c and lay.points[p] == POINTS[c]
            assert p % 6 == strength[c] and p // 6 == c // 6
            assert lay.from_layout(lay.higher[p]) == HIGHER_BY_STRENGTH[name][c]
            assert lay.from_layout(lay.to_layout(1 << c)) == 1 << c
    nat = layout("natural")
    tj = nat.to_layout(H("TS JS"))
    assert nat.card[nat.pat_dear[tj]] == C("TS") and nat.card[nat.pat_cheap[tj]] == C("JS")
    assert layout("high").identity and not nat.identity


def test_move_encoding_is_the_engine_one():
    assert D("KH") == engine_moves.parse_move("KH+")
    assert C("KH") == engine_moves.parse_move("KH")


def test_validation():
    with pytest.raises(ValueError):
        PlayPosition(hands=(H("AS"), H("AS"), H("9S"))).validate()
    with pytest.raises(ValueError):
        PlayPosition(hands=(H("AS TS"), H("KS"), H("9S"))).validate()
    with pytest.raises(ValueError):
        apply_move(PlayPosition(hands=(H("AS"), H("KS"), H("9S"))), C("KS"))
    done = PlayPosition(hands=(0, 0, 0), declarer_points=77)
    assert solve(done) == 77 and makes(done, 77) and not makes(done, 78)


# --- agreement with the reference minimax --------------------------------------------------------


def _check_against_reference(rng: random.Random, tricks: int, count: int) -> None:
    for _ in range(count):
        pos = random_position(rng, tricks)
        pos.validate()
        st = ref_state(pos)
        assert sorted(legal_moves(pos)) == sorted(ref_moves(st)), pos
        expected = ref_value(st)
        solver = Solver(native=False)
        assert solver.solve(pos) == expected, (repr(pos), expected)
        if HAVE_NATIVE:
            assert Solver(native=True).solve(pos) == expected, (repr(pos), expected)


def test_reference_one_to_three_tricks():
    rng = random.Random(20241129)
    for tricks, count in ((1, 300), (2, 2000), (3, 2000)):
        _check_against_reference(rng, tricks, count)


def test_reference_four_and_five_tricks():
    rng = random.Random(7)
    _check_against_reference(rng, 4, 120)
    _check_against_reference(rng, 5, 10)


def test_reference_natural_and_must_overtake():
    """RULES §1 ten_strength=natural, alone and with must_overtake: both backends equal the
    reference minimax on random positions of 1-4 tricks."""
    rng = random.Random(1991)
    for tricks, count in ((1, 100), (2, 400), (3, 400), (4, 40)):
        for i in range(count):
            opts = replace(random_options(rng), ten_strength="natural", must_overtake=i % 2 == 0)
            pos = random_position(rng, tricks, opts)
            st = ref_state(pos)
            assert sorted(legal_moves(pos)) == sorted(ref_moves(st)), pos
            expected = ref_value(st)
            for solver in _solvers():
                assert solver.solve(pos) == expected, (repr(pos), expected)


def test_reference_four_aces_and_four_nines():
    rng = random.Random(44)
    for _ in range(80):
        opts = PlayOptions.of(
            ace_marriage=200,
            ace_marriage_trump=rng.random() < 0.5,
            ace_marriage_all_in_row=rng.random() < 0.7,
            four_nines_bonus=rng.choice((200, 360)),
            no_lead_own_trump=rng.random() < 0.5,
            must_overtake=rng.random() < 0.3,
            half_marriage=rng.random() < 0.3,
        )
        pos = random_position(rng, 4, opts, four=True)
        st = ref_state(pos)
        assert sorted(legal_moves(pos)) == sorted(ref_moves(st)), pos
        expected = ref_value(st)
        assert Solver(native=False).solve(pos) == expected, repr(pos)
        if HAVE_NATIVE:
            assert Solver(native=True).solve(pos) == expected, repr(pos)


def test_solve_moves_against_reference():
    rng = random.Random(11)
    for _ in range(300):
        pos = random_position(rng, rng.choice((2, 3)))
        st = ref_state(pos)
        expected = {m: ref_value(ref_play(st, m)) for m in ref_moves(st)}
        values = Solver(native=False).solve_moves(pos)
        assert values == expected, repr(pos)
        best = max(values.values()) if pos.to_move == pos.declarer else min(values.values())
        assert solve(pos) == best
        # apply_move agrees with the reference's play of each move
        for m in values:
            child = apply_move(pos, m)
            ref_child = ref_play(st, m)
            assert child.declarer_points == ref_child["points"]
            assert child.trump == ref_child["trump"] and child.leader == ref_child["leader"]


@pytest.mark.parametrize("native", [False, True] if HAVE_NATIVE else [False])
def test_makes_is_the_threshold_of_solve(native: bool):
    rng = random.Random(3)
    solver = Solver(native=native)
    for _ in range(300):
        pos = random_position(rng, rng.choice((2, 3, 4)))
        value = solver.solve(pos)
        for t in {value - 7, value - 1, value, value + 1, value + 12, 0, 120}:
            assert solver.makes(pos, t) == (value >= t), (repr(pos), t, value)


# --- whole deals, both backends -------------------------------------------------------------------


def _deal(rng: random.Random, opts: PlayOptions = CLASSIC) -> PlayPosition:
    deck = list(range(24))
    rng.shuffle(deck)
    return PlayPosition(
        hands=(mask_of(deck[0:8]), mask_of(deck[8:16]), mask_of(deck[16:24])),
        leader=0, declarer=rng.randrange(3), options=opts,
    )


@pytest.mark.needs("c-core")
def test_native_and_python_agree_on_whole_deals():
    rng = random.Random(99)
    py, c = Solver(native=False), Solver(native=True)
    for i in range(16):
        pos = _deal(rng, CLASSIC if i % 2 else random_options(rng))
        # seven-card deals as with exchange=discard_three, now and then
        if i % 4 == 3:
            pos = PlayPosition(
                hands=tuple(h & ~(1 << (h.bit_length() - 1)) for h in pos.hands),  # type: ignore[arg-type]
                declarer=pos.declarer, declarer_points=25, options=pos.options,
            )
        assert py.solve(pos) == c.solve(pos)
        mid = pos
        for _ in range(rng.randrange(1, 9)):
            mid = apply_move(mid, rng.choice(legal_moves(mid)))
        assert py.solve_moves(mid) == c.solve_moves(mid)
    for _ in range(1500):
        pos = random_position(rng, rng.choice((2, 3, 4, 5)))
        assert py.solve(pos) == c.solve(pos), repr(pos)
    # The C core is alphabeta.py line by line: from empty tables both search the same nodes.
    for _ in range(5):
        pos = _deal(rng)
        py, c = Solver(native=False), Solver(native=True)
        assert py.solve(pos) == c.solve(pos)
        assert py.nodes == c.nodes


@pytest.mark.needs("c-core")
def test_native_and_python_agree_with_natural_ten():
    """RULES §1 ten_strength=natural (with and without must_overtake): the C core equals the
    pure-Python search on whole deals, mid-deal positions and random small positions, node
    for node from empty tables."""
    rng = random.Random(1004)
    for i in range(10):
        opts = replace(
            CLASSIC if i % 3 else random_options(rng), ten_strength="natural",
            must_overtake=i % 2 == 1,
        )
        pos = _deal(rng, opts)
        py, c = Solver(native=False), Solver(native=True)
        assert py.solve(pos) == c.solve(pos)
        assert py.nodes == c.nodes
        mid = pos
        for _ in range(rng.randrange(1, 12)):
            mid = apply_move(mid, rng.choice(legal_moves(mid)))
        assert py.solve_moves(mid) == c.solve_moves(mid)
    py, c = Solver(native=False), Solver(native=True)
    for i in range(600):
        opts = replace(random_options(rng), ten_strength="natural", must_overtake=i % 2 == 0)
        pos = random_position(rng, rng.choice((2, 3, 4, 5)), opts)
        assert py.solve(pos) == c.solve(pos), repr(pos)


def test_whole_deal_is_fast_enough():
    """A smoke test of speed: a whole deal from the first lead (see benchmarks/solver.py)."""
    rng = random.Random(5)
    solver = Solver()
    start = time.perf_counter()
    for _ in range(3):
        solver.solve(_deal(rng))
    assert time.perf_counter() - start < (5 if HAVE_NATIVE else 60)


# --- agreement with the engine (thousand.engine.deal) ---------------------------------------------


def position_from_deal(deal) -> PlayPosition:  # type: ignore[no-untyped-def]
    """The solver's position of an engine deal in its play phase (seat i = ``deal.active[i]``)."""
    from thousand.engine.cards import points_of

    act = tuple(deal.active)
    idx = {s: i for i, s in enumerate(act)}
    decl = deal.declarer
    return PlayPosition(
        hands=tuple(deal.hands[s] for s in act),  # two with two players
        leader=idx[deal.leader],
        trick=tuple(deal.trick),
        trump=deal.trump,
        trump_declarer=idx.get(deal.trump_declarer, -1),
        tricks_played=len(deal.tricks),
        declarer=idx[decl],
        declarer_points=deal.taken[decl] + deal.bonus[decl] + points_of(deal.discards),
        options=PlayOptions.from_rules(deal.rules),
        aces_in_row_seat=idx.get(deal.aces_in_row, -1),
        declared_suits=getattr(deal, "declared_suits", 0),
    )


ENGINE_VARIANTS = [
    ("classic", {}),
    ("casual", {}),
    ("textbook", {}),  # ten_strength=natural
    ("classic", {"ten_strength": "natural"}),
    ("casual", {"ten_strength": "natural"}),  # with must_overtake
    ("classic", {"half_marriage": True, "no_lead_own_trump": True, "marriage_on_first_lead": True}),
    ("classic", {"ace_marriage": 200, "ace_marriage_trump": True,
                 "ace_marriage_all_in_row": True, "four_nines_bonus": 200,
                 "must_overtake": True, "marriage_points_declarer_only": True}),
]


@pytest.mark.parametrize(("preset", "overrides"), ENGINE_VARIANTS)
def test_engine_agrees(preset: str, overrides: dict):
    """Random games through the engine: at every card play the solver's legal moves and its
    bookkeeping (apply_move) match the engine's; near the end its value matches the reference.
    RULES §1 ten_strength=natural: the textbook preset and two overrides play it."""
    deal_mod = pytest.importorskip("thousand.engine.deal")
    game_mod = pytest.importorskip("thousand.engine.game")
    rules_mod = pytest.importorskip("thousand.engine.rules")
    rng = random.Random(zlib.crc32(preset.encode()) % 1000 + len(overrides))
    rules = rules_mod.Rules.preset_rules(preset, **overrides)
    checked = finals = declared = 0
    for seed in range(12):
        game = game_mod.Game(rules, seed=seed)
        while not game.over and checked < 400 * (seed + 1):
            deal = game.deal
            if deal is None:
                break
            if deal.phase != deal_mod.Phase.PLAY:
                game.apply(rng.choice(game.legal_moves()))
                continue
            pos = position_from_deal(deal)
            assert sorted(legal_moves(pos)) == sorted(deal.legal_moves()), pos
            n_left = pos.hands[pos.to_move].bit_count()
            if n_left <= 2 and rng.random() < 0.3:
                assert solve(pos) == ref_solve(pos), repr(pos)
            moves = legal_moves(pos)
            declaring = [m for m in moves if m >= 24]
            move = rng.choice(declaring if declaring and rng.random() < 0.7 else moves)
            declared += move >= 24
            mine = apply_move(pos, move)
            game.apply(move)
            checked += 1
            if game.deal is deal and not deal.done:
                assert position_from_deal(deal) == mine
            elif deal.result is not None and deal.result.declarer is not None:
                final = deal.result.points[deal.result.declarer]
                assert mine.declarer_points == final
                finals += 1
            if game.over:
                break
    assert checked > 50 and finals > 3 and declared > 3, (checked, finals, declared)


# --- the search's fast paths against the engine's rules (thousand.engine.play_rules) --------------

RULE_VARIANTS = [
    PlayOptions.of(),
    PlayOptions.of(ten_strength="natural"),
    PlayOptions.of(must_overtake=True),
    PlayOptions.of(must_overtake=True, ten_strength="natural"),
    PlayOptions.of(no_lead_own_trump=True, marriage_on_first_lead=True),
    PlayOptions.of(ace_marriage=200, ace_marriage_all_in_row=True, no_lead_own_trump=True),
    PlayOptions.of(ace_marriage=200, ace_marriage_trump=True, four_nines_bonus=200),
    PlayOptions.of(half_marriage=True, ten_strength="natural", no_lead_own_trump=True),
    PlayOptions.of(half_marriage=True, must_overtake=True, four_nines_bonus=360,
                ace_marriage=200, ace_marriage_all_in_row=True),
]


def test_solver_rules_are_the_engine_functions():
    """The solver's legal moves, trick winners and declarations are the engine's functions
    (thousand.engine.play_rules) on random positions of several rulesets (ten_strength=natural,
    must_overtake, no_lead_own_trump, the ace marriage, half marriages); and the fast paths
    the search keeps for itself (in the numbering of its Layout) equal them: the cards a
    follower may play, the trick winner, the leads tried, the best declaration on a lead."""
    from thousand.engine import play_rules as pr
    from thousand.solver.alphabeta import Search, _winner2, _winner3
    from thousand.solver.position import ACES

    rng = random.Random(515)
    checked_leads = declarations = 0
    for i in range(3000):
        opts = RULE_VARIANTS[i % len(RULE_VARIANTS)] if i % 4 else random_options(rng)
        pos = random_position(rng, rng.choice((1, 2, 3, 4, 5)), opts, four=i % 7 == 0)
        ts = opts.ten_strength
        seat = pos.to_move
        hand = pos.hands[seat]
        # legal_moves: play_rules.follow_cards / lead_cards
        if pos.trick:
            expected = engine_cards(pr.follow_cards(hand, pos.trick, pos.trump,
                                                    opts.must_overtake, ts))
        else:
            leads, declaring = pr.lead_cards(
                hand, seat, pos.trump, pos.trump_declarer, pos.aces_in_row_seat,
                pos.declared_suits, pos.tricks_played, opts,
            )
            expected = engine_cards(leads) + [24 + c for c in engine_cards(declaring)]
        assert legal_moves(pos) == expected, repr(pos)
        # apply_move: declarations and trick winners are play_rules'
        for m in expected:
            child = apply_move(pos, m)
            gain = child.declarer_points - pos.declarer_points
            if m >= 24:
                what = pr.declaration(hand, m - 24, opts, pos.declared_suits)
                assert what is not None
                kind, value, changes = what
                assert (child.trump == (m - 24) // 6) == (changes or pos.trump == (m - 24) // 6)
                if seat == pos.declarer:
                    gain -= value
                assert (child.declared_suits != pos.declared_suits) == (
                    kind in ("marriage", "half_marriage")
                    and not pos.declared_suits >> ((m - 24) // 6) & 1
                )
            if len(pos.trick) == 2:
                trick = (*pos.trick, m % 24)
                w = pr.trick_winner(trick, child.trump if m < 24 else pos.trump, ts)
                assert child.leader == (pos.leader + w) % 3
                if child.leader == pos.declarer:
                    gain -= sum(POINTS[c] for c in trick)
            assert gain == 0
        # the search's own follow_cands, _winner2/_winner3 (cards in its layout's numbering)
        s = Search(opts, pos.declarer)
        lay = s.layout
        to, p = lay.to_layout, lay.pos
        if pos.trick:
            c0 = p[pos.trick[0]]
            c1 = p[pos.trick[1]] if len(pos.trick) > 1 else -1
            assert s.follow_cands(to(hand), c0, c1, pos.trump) == to(
                pr.follow_cards(hand, pos.trick, pos.trump, opts.must_overtake, ts)
            )
        deck = list(range(24))
        rng.shuffle(deck)
        trump = rng.choice((-1, 0, 1, 2, 3))
        three = deck[:3]
        assert _winner3(p[three[0]], p[three[1]], p[three[2]], trump) == pr.trick_winner(
            three, trump, ts
        )
        assert _winner2(p[three[0]], p[three[1]], trump) == pr.trick_winner(three[:2], trump, ts)
        # the search's leads: legal by lead_cards; every + lead but the dominated ones; the
        # best declaration bound is the best value lead_cards allows
        if not pos.trick and hand:
            s.h = [to(h) for h in pos.hands]
            s.ds = pos.declared_suits
            nodecl = pos.tricks_played == 0 and not opts.marriage_on_first_lead
            aces = pos.aces_in_row_seat
            if not opts.ace_marriage_all_in_row or aces != pos.leader:
                aces = -1
            leads, declaring = pr.lead_cards(
                hand, seat, pos.trump, pos.trump_declarer, aces, pos.declared_suits,
                pos.tricks_played, opts,
            )
            tried = s.lead_moves(seat, pos.trump, pos.trump_declarer, aces, nodecl)
            back = [lay.card[m] if m < 24 else 24 + lay.card[m - 24] for m in tried]
            assert all(m in expected for m in back), (repr(pos), back, expected)
            plus = {m - 24 for m in back if m >= 24}
            declarations += bool(declaring)
            dominated = set()
            for c in engine_cards(declaring):
                what = pr.declaration(hand, c, opts, pos.declared_suits)
                assert what is not None
                plain_ace = c % 6 == 5 and not what[2] and not opts.ace_marriage_all_in_row
                if c % 6 == 0 or plain_ace:
                    if seat != pos.declarer:
                        dominated.add(c)
                    else:
                        assert c not in back  # the plain card: the + lead is worth more
            assert plus == set(engine_cards(declaring)) - dominated, repr(pos)
            if aces == seat and hand & ACES:
                assert sorted(back) == sorted(engine_cards(hand & ACES)) and not declaring
            if not nodecl and aces != seat:
                values = [pr.declaration(hand, c, opts, pos.declared_suits)[1]  # type: ignore[index]
                          for c in engine_cards(declaring)]
                assert s.best_declaration(to(leads), to(hand)) == max(values, default=0)
            checked_leads += 1
    assert checked_leads > 500 and declarations > 100, (checked_leads, declarations)


def engine_cards(mask: int) -> list[int]:
    """The cards of a mask in the order of the legal moves (suit by suit, highest first)."""
    from thousand.engine.cards import cards_of

    return cards_of(mask)
