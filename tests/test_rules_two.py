"""The game for two players against its rules (RULES §4 "Two players", points 1-8).

Every test names the point it checks.  Deals are built from hand-picked cards: dealer 0,
so seat 1 opens; the talons are talon 1 = KH QH (7 points, the heart marriage) and
talon 2 = JH 9H (2 points) unless a test says otherwise.
"""

from __future__ import annotations

import json
import random
import subprocess
import sys
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

import pytest

from thousand.engine import moves as mv
from thousand.engine.cards import card_str, cards_of, mask_of, parse_card, points_of
from thousand.engine.deal import Deal, DealResult, Phase
from thousand.engine.draws import Draws
from thousand.engine.errors import IllegalMove
from thousand.engine.game import Game
from thousand.engine.moves import MoveError, parse_move
from thousand.engine.protocol import view_json
from thousand.engine.record import RecordError, game_to_record, load_record, replay
from thousand.engine.rules import Rules, RulesError
from thousand.engine.table import Table, audience_includes

THOUSAND = Path(sys.executable).with_name("thousand")

#: Seat 0 (the dealer) holds the spade and club marriages; seat 1 the diamond one.
HANDS = ("AS TS KS QS JS 9S AC TC KC QC", "JC 9C AD TD KD QD JD 9D AH TH")
#: Seat 1 holds every trick-taker: given the talon and the lead he takes all ten tricks.
STRONG = ("JS 9S JC 9C KD QD JD 9D AH TH", "AS TS KS QS AC TC KC QC AD TD")
TALONS = ("KH QH", "JH 9H")
#: The leads that win seat 1 every trick with STRONG (the first one declares nothing).
STRONG_LEADS = ("AS", "TS", "KS+", "QS", "AC", "TC", "KC+", "QC", "AD", "TD")


# ------------------------------------------------------------------------- helpers


def cards(text: str) -> int:
    """A mask from ``"AH TH 9S"``."""
    return mask_of(parse_card(t) for t in text.split())


def two(**overrides: Any) -> Rules:
    return Rules.preset_rules("two", **overrides)


def game_of(
    r: Rules | None = None,
    hands: Sequence[str] = HANDS,
    talons: Sequence[str] = TALONS,
    dealer: int = 0,
) -> Game:
    """A game whose first deal is the given cards."""
    g = Game(r or two(), first_dealer=dealer, auto_deal=False)
    g.start_deal(tuple(cards(h) for h in hands), talons=tuple(cards(t) for t in talons))
    return g


def deal_of(g: Game) -> Deal:
    assert g.deal is not None
    return g.deal


def do(g: Game, *moves: str) -> Game:
    for m in moves:
        g.apply(parse_move(m))
    return g


def legal(deal: Deal) -> list[str]:
    return [mv.move_str(m) for m in deal.legal_moves()]


def play_out(g: Game, leads: Sequence[str] = ()) -> DealResult:
    """Play the deal to its end: the declarer leads ``leads`` in order (then his first
    legal move), everyone else plays his first legal move."""
    deal = deal_of(g)
    queue = list(leads)
    while not deal.done:
        if deal.to_move == deal.declarer and not deal.trick and queue:
            g.apply(parse_move(queue.pop(0)))
        else:
            g.apply(deal.legal_moves()[0])
    assert deal.result is not None
    return deal.result


def to_discards(g: Game, bid: str = "100", talon: str = "talon 1") -> Deal:
    """Seat 1 opens with ``bid``, seat 0 passes, seat 1 takes ``talon``."""
    do(g, bid, "pass", talon)
    return deal_of(g)


def random_game(r: Rules, seed: int) -> Game:
    rng = random.Random(seed)
    g = Game(r, seed=seed, first_dealer=0)
    while not g.over:
        g.apply(rng.choice(g.legal_moves()))
    return g


# ------------------------------------------------------------------ 1. the deal


def test_deal_is_ten_each_and_two_talons_of_the_last_four_cards() -> None:
    """Two players 1: 10 cards to each player; the 21st-22nd cards are talon 1, the
    23rd-24th talon 2 (the deck as Game.random_cards shuffles it)."""
    for seed in range(20):
        g = Game(two(), seed=seed, first_dealer=seed % 2, auto_deal=False)
        dealt = g.random_cards()
        deck = list(range(24))
        Draws(seed, "deal/0").shuffle(deck)
        assert [h.bit_count() for h in dealt.hands] == [10, 10]
        assert dealt.talons == (mask_of(deck[20:22]), mask_of(deck[22:24]))
        assert dealt.talon == mask_of(deck[20:])
        # the non-dealer is dealt first
        assert dealt.hands[1 - g.dealer] == mask_of(deck[:10])


def test_the_cut_glimpse_is_a_card_of_talon_2() -> None:
    """Two players 1: with cut_nines the dealer's glimpse, the bottom card, lies in
    talon 2; a record whose cut ends on a card of talon 1 is refused."""
    seen = 0
    for seed in range(40):
        g = Game(two(cut_nines=True), seed=seed, first_dealer=0, auto_deal=False)
        dealt = g.random_cards()
        if dealt.cut[-1] % 6 != 1:  # a jack: the dealer cut again, nobody looked
            assert dealt.talons[1] >> dealt.cut[-1] & 1
            seen += 1
    assert seen > 20
    g = Game(two(cut_nines=True), first_dealer=0, auto_deal=False)
    hands = tuple(cards(h) for h in HANDS)
    talons = (cards("KH JH"), cards("QH 9H"))
    with pytest.raises(ValueError, match="talon 2"):
        g.start_deal(hands, cut=(parse_card("KH"),), talons=talons)
    g.start_deal(hands, cut=(parse_card("QH"),), talons=talons)
    assert deal_of(g).view(0).talon_known == cards("QH")
    assert deal_of(g).view(1).talon_known == 0


# --------------------------------------------------------------- 2. the auction


def test_the_non_dealer_opens_and_plays_his_bid_if_the_other_passes_at_once() -> None:
    """Two players 2: the non-dealer opens; when the other passes at once the opener is
    the declarer with his bid."""
    g = game_of()
    deal = deal_of(g)
    assert deal.to_move == 1 and "pass" not in legal(deal)
    do(g, "105", "pass")
    assert (deal.declarer, deal.bid, deal.phase) == (1, 105, Phase.TALON_CHOICE)


def test_the_auction_goes_back_and_forth_until_one_passes() -> None:
    """Two players 2: the two bid in turn; who passes leaves the other the declarer;
    the cap is 120 plus the marriages held (seat 0: spades and clubs, 220)."""
    g = game_of()
    deal = deal_of(g)
    do(g, "100", "110", "120")
    assert deal.to_move == 0
    assert legal(deal)[-1] == "220"
    do(g, "125", "pass")
    assert (deal.declarer, deal.bid) == (0, 125)


def test_first_bidder_dealer_lets_the_dealer_open() -> None:
    """Two players 2: with first_bidder=dealer the dealer opens."""
    g = game_of(two(first_bidder="dealer"))
    deal = deal_of(g)
    assert deal.to_move == 0 == deal.ctx.opener
    do(g, "100", "pass")
    assert deal.declarer == 0


# ---------------------------------------------------------------- 3. the talons


def test_only_a_talon_choice_is_legal_after_the_auction_and_none_is_seen() -> None:
    """Two players 3: right after the auction the declarer may only say talon 1 or
    talon 2, and neither talon is visible to either seat (nor to a spectator)."""
    g = game_of()
    do(g, "100", "pass")
    deal = deal_of(g)
    assert legal(deal) == ["talon 1", "talon 2"]
    for seat in (0, 1, None):
        v = deal.view(seat)
        assert v.talon is None and v.other_talon is None and v.talon_choice == -1
        assert v.visible_cards() & deal.ctx.talon == 0
    assert deal.talon == 0 and deal.unchosen_talon == 0


@pytest.mark.parametrize("move, chosen, other", [("talon 1", 0, 1), ("talon 2", 1, 0)])
def test_the_declarer_takes_the_chosen_talon_and_holds_twelve(
    move: str, chosen: int, other: int
) -> None:
    """Two players 3: the declarer takes the talon he names (12 cards), shown to his
    opponent (talon_shown=all); the other talon stays hidden from both."""
    g = game_of()
    deal = to_discards(g, "100", move)
    t = tuple(cards(x) for x in TALONS)
    assert deal.talon == t[chosen] and deal.talon_choice == chosen
    assert deal.unchosen_talon == t[other]
    assert deal.hands[1].bit_count() == 12 and deal.hands[1] & t[chosen] == t[chosen]
    assert deal.view(0).talon == t[chosen] and deal.view(None).talon == t[chosen]
    for seat in (0, 1, None):
        v = deal.view(seat)
        assert v.talon_choice == chosen
        assert v.other_talon is None and v.visible_cards() & t[other] == 0


@pytest.mark.parametrize("bid, shown", [("100", False), ("105", True)])
def test_talon_shown_not_at_100_hides_the_chosen_talon_from_the_defender(
    bid: str, shown: bool
) -> None:
    """Two players 3 with talon_shown=not_at_100: at a contract of 100 the defender does
    not see the talon chosen; above 100 he does.  The declarer always sees it."""
    g = game_of(two(talon_shown="not_at_100"))
    deal = to_discards(g, bid)
    assert deal.view(1).talon == cards("KH QH")
    assert (deal.view(0).talon is not None) == shown
    assert (deal.view(None).talon is not None) == shown


def test_a_dark_talon_with_dark_talon_shown_false_stays_hidden() -> None:
    """Two players 3 with dark and dark_talon_shown=false: the dark declarer's talon is
    not shown to the defender."""
    g = game_of(two(dark=True, dark_talon_shown=False))
    deal = deal_of(g)
    assert legal(deal) == ["dark", "look"]
    do(g, "dark", "pass", "talon 2")
    assert deal.dark_standing and deal.declarer == 1
    assert deal.view(1).talon == cards("JH 9H")
    assert deal.view(0).talon is None
    assert deal.view(0).visible_cards() & deal.ctx.talon == 0


def test_the_discards_are_two_face_down_and_count_to_the_declarer() -> None:
    """Two players 3: the declarer discards exactly two cards (`discard`, never `give`);
    the defender never sees them; they count to the declarer's points."""
    g = game_of()
    deal = to_discards(g)
    assert all(m.startswith("discard ") for m in legal(deal)) and len(legal(deal)) == 12
    with pytest.raises(IllegalMove) as e:
        g.apply(parse_move("give AH"))
    assert e.value.code == "wrong_phase"
    do(g, "discard AH", "discard TH")
    assert deal.phase == Phase.CONTRACT and deal.hands[1].bit_count() == 10
    assert deal.hands[0].bit_count() == 10, "nothing is given to the defender"
    assert deal.view(0).discards is None and deal.view(None).discards is None
    assert "discard ??" in deal.view(0).history and "discard AH" in deal.view(1).history
    res = play_out(do(g, "contract 100"))
    assert deal.view(0).visible_cards() & cards("AH TH") == 0
    assert res.points[1] == deal.taken[1] + deal.bonus[1] + 21


def test_the_unchosen_talon_counts_to_the_defender_and_every_deal_holds_120() -> None:
    """Two players 3: the talon not chosen counts its card points to the defender, so the
    tricks, the discards and that talon hold 120 card points; the deal's points are
    those plus the declarations."""
    g = game_of()
    deal = to_discards(g, "100", "talon 1")
    res = play_out(do(g, "discard 9D", "discard JD", "contract 100"))
    unchosen = points_of(cards("JH 9H"))
    assert res.points[0] == deal.taken[0] + deal.bonus[0] + unchosen
    assert sum(deal.taken) + points_of(deal.discards) + unchosen == 120
    assert sum(res.points) == 120 + sum(deal.bonus)


def test_the_unchosen_talon_is_shown_to_all_only_when_the_deal_ends() -> None:
    """Two players 3: the other talon is seen by nobody until the deal ends; then it is
    shown to both players and spectators (View.other_talon)."""
    g = game_of()
    deal = to_discards(g)
    do(g, "discard AH", "discard TH", "contract 100")
    while not deal.done:
        for seat in (0, 1, None):
            assert deal.view(seat).other_talon is None
            assert deal.view(seat).visible_cards() & cards("JH 9H") == 0
        g.apply(deal.legal_moves()[0])
    for seat in (0, 1, None):
        assert deal.view(seat).other_talon == cards("JH 9H")


def table_deal_events(table: Table) -> Iterator[tuple[int, list[dict[str, Any]]]]:
    """Each finished deal's index and its events, from its start to its end."""
    index = -1
    events: list[dict[str, Any]] = []
    for e in table.log:
        if e["type"] == "deal_started":
            if index >= 0:
                yield index, events
            index += 1
            events = []
        events.append(e)
    if index >= 0 and any(e["type"] == "deal_scored" for e in events):
        yield index, events


def test_no_event_or_view_carries_the_unchosen_talon_before_the_end() -> None:
    """Two players 3, 8: in the table protocol no event any seat receives and no view
    shows the other talon's cards before the deal ends; the `other_talon` event then
    shows them to all, with its number; `talon_choice` says 1 or 2."""
    rng = random.Random(7)
    table = Table(two(max_deals=6), seed=11, first_dealer=0)
    while not table.over:
        deal = deal_of(table.game)
        if deal.talon_choice >= 0:
            hidden = [f'"{card_str(c)}"' for c in cards_of(deal.unchosen_talon)]
            for seat in (0, 1, None):
                text = json.dumps(table.view_json(seat))
                assert not any(h in text for h in hidden)
                assert table.view_json(seat)["talon_choice"] == deal.talon_choice + 1
        legal_now = deal.legal_moves()
        table.submit(deal.to_move, mv.move_str(rng.choice(legal_now)), table.version)
    checked = 0
    for index, events in table_deal_events(table):
        rec = table.game.records[index]
        choice = next((e for e in events if e["type"] == "talon_choice"), None)
        if choice is None:
            continue
        other = rec.talons[2 - choice["talon"]]
        hidden = [f'"{card_str(c)}"' for c in cards_of(other)]
        end = next(i for i, e in enumerate(events) if e["type"] == "other_talon")
        assert events[end]["audience"] == "all" and events[end]["talon"] == 3 - choice["talon"]
        assert events[end]["cards"] == [card_str(c) for c in cards_of(other)]
        for e in events[:end]:
            for seat in (0, 1, None):
                if audience_includes(e["audience"], seat):
                    assert not any(h in json.dumps(e) for h in hidden), e
        checked += 1
    assert checked >= 3


def test_a_golden_or_dark_declarer_receives_his_hand_before_choosing() -> None:
    """Two players 3: the declarer chooses a talon without seeing it, but he sees his own
    ten cards: in a golden deal (no auction) and after a dark bid the table sends him
    his hand before the talon choice, as his view shows it."""
    for r, moves in ((two(golden_deals=True), ()), (two(dark=True), ("dark", "pass"))):
        table = Table(r, seed=3, first_dealer=0)
        for m in moves:
            table.submit(table.game.deal.to_move, m, table.version)  # type: ignore[union-attr]
        deal = deal_of(table.game)
        assert deal.phase == Phase.TALON_CHOICE
        d = deal.declarer
        hands = [e for e in table.events_since(d, -1) if e["type"] == "hand" and e["seat"] == d]
        assert hands and hands[-1]["cards"] == [card_str(c) for c in cards_of(deal.hands[d])]
        assert view_json(deal.view(d))["hand"] == hands[-1]["cards"]


# -------------------------------------------------------------- 4. the contract


def test_the_declarer_raises_his_contract_up_to_his_cap_with_the_talon() -> None:
    """Two players 4: after the discards the declarer names his contract, from his bid
    up to 120 plus the marriages he holds (the talon's heart marriage included)."""
    g = game_of()
    deal = to_discards(g, "100", "talon 1")
    do(g, "discard JD", "discard 9D")
    assert legal(deal)[0] == "contract 100" and legal(deal)[-1] == "contract 300"
    do(g, "contract 150")
    assert deal.contract == 150 and deal.phase == Phase.PLAY


@pytest.mark.parametrize(
    "get, loses, bid, defender, declarer",
    [
        (60, True, "100", 60, -100),
        ("half_contract", "half", "105", 55, -55),
        ("aces", False, "100", 22, 0),
    ],
)
def test_concede_pays_the_defender_and_counts_no_points(
    get: object, loses: object, bid: str, defender: int, declarer: int
) -> None:
    """Two players 4: a concede gives the defender concede_opponents_get and costs the
    declarer as concede_declarer_loses says; the deal's points are all 0 (the unchosen
    talon is not counted), and the other talon is shown, the deal having ended."""
    g = game_of(two(concede=True, concede_opponents_get=get, concede_declarer_loses=loses))
    deal = to_discards(g, bid, "talon 2")
    do(g, "discard JH", "discard 9H", "concede")
    res = deal.result
    assert res is not None and res.outcome == "conceded"
    assert res.points == (0, 0)
    assert res.values == (defender, declarer)
    assert g.scores == (defender, declarer)
    assert deal.view(0).other_talon == cards("KH QH")


# ----------------------------------------------------------------- 5. the play


def test_ten_tricks_of_two_cards_and_the_declarer_leads_first() -> None:
    """Two players 5: 10 tricks of two cards; the declarer leads the first; follow suit as
    usual (seat 0, holding spades, must follow a spade lead)."""
    g = game_of()
    deal = to_discards(g, "100", "talon 2")
    do(g, "discard JH", "discard 9H", "contract 100")
    assert deal.to_move == 1 == deal.leader
    do(g, "JC")
    assert legal(deal) == ["AC", "TC", "KC", "QC"]
    play_out(g)
    assert len(deal.tricks) == 10 and deal.tricks[0].leader == 1
    assert all(len(t.cards) == 2 for t in deal.tricks)
    assert [h.bit_count() for h in deal.hands] == [0, 0]


def test_no_marriage_is_declared_on_the_first_lead() -> None:
    """Two players 5: marriages as the options say: not on the deal's first lead
    (marriage_on_first_lead=false), and a marriage lead later makes its suit trump."""
    g = game_of(hands=STRONG)
    deal = to_discards(g, "100", "talon 2")
    do(g, "discard JH", "discard 9H", "contract 100")
    assert "KS+" not in legal(deal)
    do(g, "AS", "JS")
    assert "KS+" in legal(deal)
    do(g, "KS+")
    assert deal.trump == 0 and deal.bonus[1] == 40


# ------------------------------------------------------ 6. scoring and the game


def test_the_defender_scores_his_rounded_points_and_the_declarer_his_contract() -> None:
    """Two players 6: as usual: the declarer ± his contract, the defender his points
    (tricks, the unchosen talon, his declarations) rounded to 5."""
    g = game_of(hands=STRONG)
    deal = to_discards(g, "100", "talon 2")
    res = play_out(do(g, "discard JH", "discard 9H", "contract 180"), STRONG_LEADS)
    assert deal.tricks_won == [0, 10]
    assert res.points == (7, 113 + 100)  # KH QH unchosen; the spade and club marriages
    assert res.values == (5, 180) and g.scores == (5, 180)


def test_the_golden_deals_are_the_first_two_each_player_once() -> None:
    """Two players 6: with golden_deals the first two deals are golden, each player
    playing one of them (the opener at 120, no auction); the third is not."""
    g = Game(two(golden_deals=True, max_deals=3), seed=4, first_dealer=0)
    rng = random.Random(4)
    seen: list[tuple[bool, int]] = []
    while not g.over:
        deal = deal_of(g)
        if not deal.history:
            seen.append((deal.ctx.golden, deal.ctx.opener))
            if deal.ctx.golden:
                assert deal.phase == Phase.TALON_CHOICE and deal.bid == 120
        g.apply(rng.choice(g.legal_moves()))
    assert g.golden_count == 2
    assert seen == [(True, 1), (True, 0), (False, 1)]


def test_golden_restart_after_the_two_golden_deals() -> None:
    """Two players 6: with golden_restart, when neither of the two golden deals is made
    the scores go back to 0 and two golden deals are played again."""
    g = Game(two(golden_deals=True, golden_restart=True, concede=True), seed=2,
             first_dealer=0)
    for _ in range(2):
        deal = deal_of(g)
        assert deal.ctx.golden
        do(g, "talon 1")
        do(g, *[mv.move_str(m) for m in deal.legal_moves()[:2]], "concede")
    assert g.summaries[-1].events[-1].kind == "golden_restart"
    assert g.scores == (0, 0) and deal_of(g).ctx.golden


def test_a_defender_without_a_trick_has_a_bolt() -> None:
    """Two players 6: bolts as the options say, for the defender: taking no trick
    (bolt_means=no_trick) is a bolt though the unchosen talon gives him points."""
    g = game_of(two(bolts="every_3rd"), hands=STRONG)
    to_discards(g, "100", "talon 2")
    play_out(do(g, "discard JH", "discard 9H", "contract 100"), STRONG_LEADS)
    assert [e.kind for e in g.summaries[-1].events] == ["bolt"]
    assert g.summaries[-1].events[0].seat == 0 and g.seats[0].bolts == 1


def test_bolt_means_no_points_counts_the_unchosen_talon() -> None:
    """Two players 6 *(decision)*: with bolt_means=no_points a defender who takes no trick
    but has the unchosen talon's points (7 or 2 here) has no bolt."""
    for talons, bolt in ((TALONS, False), (("JH 9H", "KH QH"), False)):
        g = game_of(two(bolts="every_3rd", bolt_means="no_points"), hands=STRONG,
                    talons=talons)
        to_discards(g, "100", "talon 1")
        deal = deal_of(g)
        discards = [f"discard {card_str(c)}" for c in cards_of(deal.talon)]
        res = play_out(do(g, *discards, "contract 100"), STRONG_LEADS)
        assert (res.points[0] == 0) == bolt
        assert any(e.kind == "bolt" for e in g.summaries[-1].events) == bolt


def test_the_barrel_as_usual_between_two() -> None:
    """Two players 6: the barrel: a score from 880 is set to 880 and he sits on it; a
    defender on the barrel records nothing."""
    g = game_of(hands=STRONG)
    g.seats[1].score = 800
    g.seats[0].score = 880
    g.seats[0].on_barrel = True
    to_discards(g, "100", "talon 2")
    play_out(do(g, "discard JH", "discard 9H", "contract 100"), STRONG_LEADS)
    assert g.scores == (880, 880)
    assert g.seats[1].on_barrel and g.seats[0].barrel_deals == 1
    assert [e.kind for e in g.summaries[-1].events] == ["barrel_on"]


def test_a_game_is_won_at_1000_by_one_of_the_two() -> None:
    """Two players 6: the game ends when a player reaches 1000 (or after max_deals)."""
    g = random_game(two(), 21)
    assert g.over and (max(g.scores) >= 1000 or g.deals_played == 200)
    assert all(len(r.hands) == 2 for r in g.records)


# ------------------------------------------- 7. the options that need three players

NEEDS_THREE: list[tuple[str, object]] = [
    ("talon_buy", True),
    ("exchange", "discard_three"),
    ("sitting_dealer_scores", "talon_value"),
    ("redeal_weak_talon", True),
    ("redeal_weak_talon_only_at_100", True),
    ("barrel_simultaneous_fall", True),
]


@pytest.mark.parametrize("name, value", NEEDS_THREE)
def test_each_option_that_needs_a_third_player_is_refused_by_name(
    name: str, value: object
) -> None:
    """Two players 7: each option that needs a third player is refused with players=2, by
    a message that names it and says how to turn it off."""
    with pytest.raises(RulesError) as e:
        two(**{name: value})
    text = str(e.value)
    assert f"{name}=" in text and "third player" in text and f"--set {name}=" in text
    assert text.count("=") == 2


def test_several_refused_options_are_named_together() -> None:
    """Two players 7: several such options at once are all named in one message."""
    with pytest.raises(RulesError) as e:
        two(talon_buy=True, redeal_weak_talon=True, barrel_simultaneous_fall=True)
    text = str(e.value)
    for name in ("talon_buy", "redeal_weak_talon", "barrel_simultaneous_fall"):
        assert f"{name}=true" in text and f"--set {name}=false" in text
    assert "they need a third player" in text


def test_a_preset_takes_players_2_only_with_its_three_player_options_off() -> None:
    """Two players 7: house has redeal_weak_talon and textbook discard_three and the
    sitting dealer's score: with players=2 the message names them; turned off too, the
    preset plays for two."""
    with pytest.raises(RulesError, match="redeal_weak_talon=true") as e:
        Rules.from_cli("house", ["players=2"])
    assert "--set redeal_weak_talon=false" in str(e.value)
    with pytest.raises(RulesError) as e2:
        Rules.from_cli("textbook", ["players=2"])
    assert "exchange=discard_three" in str(e2.value)
    assert "sitting_dealer_scores=talon_value" in str(e2.value)
    assert Rules.from_cli("house", ["players=2", "redeal_weak_talon=false"]).players == 2
    assert Rules.from_cli("textbook", ["players=2", "exchange=give_one_each",
                                       "sitting_dealer_scores=none"]).players == 2


def thousand(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([str(THOUSAND), *args], capture_output=True, text=True,
                          timeout=60, check=False)


def test_the_cli_shows_two_and_refuses_house_for_two() -> None:
    """Two players 7: `thousand rules two` lists the preset (exit 0); `thousand rules house
    --set players=2` exits 2 naming redeal_weak_talon; `--explain players` mentions
    two players."""
    ok = thousand("rules", "two", "--lang", "en")
    assert ok.returncode == 0 and "two players" in ok.stdout.lower()
    bad = thousand("rules", "house", "--set", "players=2", "--lang", "en")
    assert bad.returncode == 2
    assert "redeal_weak_talon" in bad.stderr and "third player" in bad.stderr
    explain = thousand("rules", "--explain", "players", "--lang", "en")
    assert explain.returncode == 0 and "2: two play" in explain.stdout


# ---------------------------------------------------------------- 8. the record


def test_the_record_lists_the_four_talon_cards_and_the_talon_move() -> None:
    """Two players 8: the record's `talon` is talon 1's two cards then talon 2's; the
    move `talon N` comes right after the auction; points count the discards to the
    declarer and the unchosen talon to the defender; the record replays the same."""
    g = game_of(two(max_deals=1))
    to_discards(g, "100", "talon 2")
    res = play_out(do(g, "discard AH", "discard TH", "contract 100"))
    rec = game_to_record(g)
    deal = rec["deals"][0]
    assert deal["talon"] == ["KH", "QH", "JH", "9H"]
    assert deal["moves"][:4] == ["100", "pass", "talon 2", "discard AH"]
    out = replay(rec).to_json()
    assert out["deals"][0]["points"] == list(res.points)
    loaded = load_record(rec)
    assert loaded.deals[0].talons == (cards("KH QH"), cards("JH 9H"))


def test_a_record_with_the_talons_swapped_plays_the_other_talon() -> None:
    """Two players 8: which two cards are talon 1 is the record's order, not the cards':
    swapping the halves swaps what `talon 1` takes."""
    g = game_of(two(max_deals=1), talons=("JH 9H", "KH QH"))
    deal = to_discards(g, "100", "talon 1")
    assert deal.talon == cards("JH 9H")


def test_a_redeal_before_the_choice_comes_before_any_talon_move() -> None:
    """Two players 8: a redeal demand is the auction's; the talon is not chosen and the
    other talon is not shown (talon_choice stays -1)."""
    nines = ("JS 9S JC 9C KD QD JD 9D AH 9H", STRONG[1])
    g = game_of(two(redeal_four_nines=True), hands=nines, talons=("KH QH", "JH TH"))
    deal = deal_of(g)
    assert "redeal" not in legal(deal)
    do(g, "100")
    assert legal(deal)[0] == "redeal"  # seat 0 holds the four nines
    do(g, "redeal")
    assert deal.result is not None and deal.result.outcome == "redeal"
    assert deal.talon_choice == -1 and deal.view(1).other_talon is None


# ------------------------------------------------------------ the wrong inputs


def test_talon_3_is_not_a_move_and_says_what_is() -> None:
    """Two players 3: only `talon 1` and `talon 2` exist; `talon 3` is refused with a
    message that names them."""
    for text in ("talon 3", "talon 0", "talon"):
        with pytest.raises(MoveError, match="'talon 1' or 'talon 2'"):
            parse_move(text)


def test_a_talon_choice_in_a_three_player_game_is_no_two_talons() -> None:
    """Two players 3: only the game for two has two talons: `talon 1` with three players
    is refused (no_two_talons); in the two-player auction it is the wrong phase."""
    g = Game(Rules.preset_rules("classic"), seed=1)
    deal = deal_of(g)
    with pytest.raises(IllegalMove) as e:
        g.apply(mv.TALON_1)
    assert e.value.code == "no_two_talons"
    g2 = game_of()
    with pytest.raises(IllegalMove) as e2:
        g2.apply(mv.TALON_1)
    assert e2.value.code == "wrong_phase"
    assert deal.history == []


def record_of(r: Rules, hands: Sequence[str], talon: Sequence[str]) -> dict[str, Any]:
    return {"format": 1, "rules": r.to_json(), "players": [f"P{i}" for i in range(len(hands))],
            "first_dealer": 0,
            "deals": [{"hands": [h.split() for h in hands], "talon": list(talon),
                       "moves": []}]}


def test_a_record_with_a_talon_of_the_wrong_size_is_refused() -> None:
    """Two players 8: a two-player record needs a talon of four cards (3 is refused); a
    three-player record one of three (4 is refused)."""
    hands2 = HANDS
    with pytest.raises(RecordError, match="4 cards, not 3"):
        load_record(record_of(two(), hands2, ["KH", "QH", "JH"]))
    hands3 = ("AS TS KS QS JS 9S AC", "TC KC QC JC 9C AD TD", "KD QD JD 9D AH TH QH")
    with pytest.raises(RecordError, match="3 cards, not 4"):
        load_record(record_of(Rules(), ("AS TS KS QS JS 9S AC", "TC KC QC JC 9C AD TD",
                                        "KD QD JD 9D AH TH"), ["QH", "KH", "JH", "9H"]))
    assert load_record(record_of(Rules(), hands3, ["KH", "JH", "9H"]))
