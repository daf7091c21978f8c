"""The search bots (strong, expert) and their sampler (thousand.bots.search, .sampling)."""

from __future__ import annotations

import random
from typing import Any

import pytest

from bot_rulesets import BOT_RULESETS
from thousand.bots import bot_levels, decide_with_reason, make_bot
from thousand.bots.heuristic import HeuristicBot
from thousand.bots.sampling import (
    DISCARDS,
    OTHER_TALON,
    TALON,
    TALON_1,
    TALON_2,
    knowledge,
    sample_worlds,
)
from thousand.bots.search import SearchBot, SearchConfig, position
from thousand.engine import moves as mv
from thousand.engine.cards import (
    FULL_DECK,
    HIGHER_BY_STRENGTH,
    STRENGTH,
    SUIT_MASK,
    mask_of,
    parse_cards,
)
from thousand.engine.deal import Phase
from thousand.engine.game import Game
from thousand.engine.rules import Rules
from thousand.engine.view import View
from thousand.evaluation.arena import play_game
from thousand.solver import solve_moves
from two_player_deals import talon_choice

TINY = SearchConfig(time_limit=None, min_samples=3, max_samples=3, exchange_cards=4,
                    bid_gives=1)
SMALL = SearchConfig(time_limit=None, min_samples=24, max_samples=24)


def tiny_bot(seed: int = 1) -> SearchBot:
    return SearchBot(seed, TINY, "tiny")


# ------------------------------------------------------------------------- the sampler


def _constraints_hold(view: View, world: Any) -> None:
    """Every rule the view imposes holds in ``world``."""
    r = view.rules
    me = view.seat
    assert me is not None
    played = view.played_cards()
    # sizes and every card exactly once
    seen = played
    for s in view.active:
        h = world.hands[s]
        assert h.bit_count() == view.hand_sizes[s], (s, view.phase)
        assert not h & seen
        seen |= h
    for extra in (world.talon, world.discards):
        assert not extra & seen
        seen |= extra
    if view.hand is not None:
        assert world.hands[me] == view.hand
    if view.phase <= Phase.AUCTION:
        assert seen == FULL_DECK and world.talon.bit_count() == 3
        # the cut (RULES §4): a talon card known before the talon is shown is in it
        assert world.talon & view.talon_known == view.talon_known
    talon = view.talon if view.talon is not None else view.talon_known
    if talon and view.declarer >= 0 and me != view.declarer:
        # the talon went to the declarer: the other defender holds at most one card of it,
        # none before he was given a card (the buy phase, RULES §4 Talon buy-out)
        for s in view.active:
            if s not in (me, view.declarer):
                if r.exchange == "discard_three" or all(to != s for _, to in view.given):
                    assert not world.hands[s] & talon
                else:
                    assert (world.hands[s] & talon).bit_count() <= 1
    for card, to in view.given:
        if card is not None and not played >> card & 1:
            assert world.hands[to] >> card & 1
    _voids_hold(view, world)


def _voids_hold(view: View, world: Any) -> None:
    """Voids and must_overtake (which card is higher follows ten_strength, RULES §1)."""
    r = view.rules
    strength = STRENGTH[r.ten_strength]
    higher = HIGHER_BY_STRENGTH[r.ten_strength]
    tricks = [t.cards for t in view.tricks]
    trumps = [t.trump for t in view.tricks]
    if len(view.trick) > 1:
        tricks.append(view.trick)
        trumps.append(view.trump)
    for cards, trump in zip(tricks, trumps, strict=True):
        led = cards[0][1] // 6
        top = cards[0][1]
        for seat, c in cards[1:]:
            if c // 6 != led:
                assert not world.hands[seat] & SUIT_MASK[led]
                if trump >= 0 and c // 6 != trump:
                    assert not world.hands[seat] & SUIT_MASK[trump]
            elif strength[c] < strength[top]:
                if r.must_overtake:
                    assert not world.hands[seat] & higher[top]
            else:
                top = c


@pytest.mark.parametrize(
    ("preset", "overrides"),
    [("classic", {}), ("casual", {}), ("textbook", {}), ("house", {"players": 4}),
     ("classic", {"talon_shown": "not_at_100", "must_overtake": True}),
     ("classic", {"must_overtake": True, "ten_strength": "natural"}),
     ("classic", {"talon_buy": True}), ("textbook", {"talon_buy": True}),
     ("dealer-opens", {"talon_buy": True, "talon_shown": "not_at_100"})],
)
def test_sampler_respects_the_view(preset: str, overrides: dict[str, Any]) -> None:
    """RULES §2, §4 (must_overtake with either ten_strength, the talon buy-out, the cut):
    worlds are found at every decision, and every world drawn agrees with what the seat
    saw."""
    rules = Rules.preset_rules(preset, max_deals=2, **overrides)
    rng = random.Random(7)
    bots = [HeuristicBot(s) for s in range(rules.players)]
    checked = 0
    for seed in range(3):
        g = Game(rules, seed=seed)
        while not g.over:
            seat = g.to_move
            view = g.view(seat)
            worlds = sample_worlds(view, 3, rng)
            assert len(worlds) == 3, (seed, view.phase)  # the truth fits: worlds exist
            for w in worlds:
                _constraints_hold(view, w)
                checked += 1
            # the truth is always possible: a world drawn is never ruled out by the view
            g.apply(bots[seat].choose(view))
    assert checked > 200


def test_must_overtake_exclusions_follow_ten_strength() -> None:
    """RULES §4 must_overtake with RULES §1 ten_strength=natural: a seat that followed below
    the strongest card of the suit led holds no card above it *by strength*: under a led
    jack the ten is below (no Q, K, A left); under a led king the ten is below too (no A);
    with high the ten is above both."""
    from thousand.bots.sampling import _note_voids

    js, ts, ks, qs, s9 = parse_cards(["JS", "TS", "KS", "QS", "9S"])
    qka = mask_of(parse_cards(["QS", "KS", "AS"]))
    ace = mask_of(parse_cards(["AS"]))
    cases: list[tuple[tuple[tuple[int, int], ...], str, dict[int, int]]] = [
        (((0, js), (1, ts), (2, s9)), "natural", {1: qka, 2: qka}),
        (((0, js), (1, ts), (2, s9)), "high", {2: ace}),  # TS beat JS: only AS is above
        (((0, ks), (1, ts), (2, qs)), "natural", {1: ace, 2: ace}),
        (((0, ks), (1, ts), (2, qs)), "high", {2: ace}),
    ]
    for cards, strength, expected in cases:
        exclude: dict[int, int] = {}
        _note_voids(cards, -1, True, exclude, strength)
        assert exclude == expected, (cards, strength)
        free: dict[int, int] = {}
        _note_voids(cards, -1, False, free, strength)
        assert free == {}  # without must_overtake following low says nothing


def test_sampler_is_reproducible() -> None:
    g = Game(seed=3)
    bots = [HeuristicBot(s) for s in range(3)]
    for _ in range(12):
        g.apply(bots[g.to_move].choose(g.view(g.to_move)))
    view = g.view(g.to_move)
    a = sample_worlds(view, 10, random.Random(5))
    b = sample_worlds(view, 10, random.Random(5))
    c = sample_worlds(view, 10, random.Random(6))
    assert a == b and a != c


def test_known_places() -> None:
    """The places of the knowledge: the hidden talon before the exchange, the hidden
    discards for a defender of discard_three."""
    g = Game(seed=1)
    k = knowledge(g.view(g.to_move))
    assert k.sizes[TALON] == 3
    rules = Rules.preset_rules("textbook")
    g = Game(rules, seed=2)
    bots = [HeuristicBot(s) for s in range(4)]
    while g.deal is not None and g.deal.phase != Phase.PLAY:
        g.apply(bots[g.to_move].choose(g.view(g.to_move)))
    deal = g.deal
    assert deal is not None
    defender = deal.opponents()[0]
    k = knowledge(g.view(defender))
    assert k.sizes[DISCARDS] == 3


def test_a_bid_above_the_cap_proves_a_marriage() -> None:
    rules = Rules()
    hands = [parse_cards(h) for h in (
        ["KH", "QH", "AS", "TS", "AC", "9C", "JD"],  # seat 1 bids 125 with the hearts
        ["9S", "JS", "QS", "KS", "TC", "KC", "QC"],
        ["AD", "TD", "KD", "QD", "9D", "AH", "TH"],
    )]
    g = Game(rules, first_dealer=2, seed=0, auto_deal=False)
    g.start_deal([mask_of(hands[1]), mask_of(hands[0]), mask_of(hands[2])],
                 mask_of(parse_cards(["JC", "9H", "JH"])))
    g.apply(mv.bid(100))  # seat 0 opens
    g.apply(mv.bid(125))  # seat 1: above 120, so he holds a marriage
    view = g.view(2)
    for w in sample_worlds(view, 30, random.Random(1)):
        from thousand.engine.cards import marriage_sum

        assert marriage_sum(w.hands[1], rules.marriage_values) >= 5


# ---------------------------------------------------------------------------- the bots


def test_levels_registered() -> None:
    levels = bot_levels()
    assert "strong" in levels and "expert" in levels
    assert levels.index("heuristic") < levels.index("strong") < levels.index("expert")
    assert isinstance(make_bot("strong", 1), SearchBot)


@pytest.mark.parametrize(("preset", "overrides"), BOT_RULESETS)
def test_legal_moves_in_every_phase(preset: str, overrides: dict[str, Any]) -> None:
    """RULES §2, §4, §5: short games with the search bot in every seat in turn: every move
    legal (play_game checks), and the bot met the phases the rules have (the buy-out where
    ``talon_buy`` is on)."""
    rules = Rules.preset_rules(preset, max_deals=4, **overrides)
    phases: set[Phase] = set()
    for seed in range(2):
        n = rules.players
        bot = tiny_bot(seed)
        seat = seed % n

        class Spy:
            def __init__(self, inner: SearchBot) -> None:
                self.inner = inner

            def choose(self, view: View) -> int:
                phases.add(view.phase)
                return self.inner.choose(view)

        bots: list[Any] = [HeuristicBot(s) for s in range(n)]
        bots[seat] = Spy(bot)
        g = play_game(Game(rules, seed=seed + 10), bots)
        assert g.over
    assert Phase.PLAY in phases
    assert Phase.AUCTION in phases or rules.golden_deals
    if rules.talon_buy and not rules.golden_deals:
        assert Phase.BUY in phases  # RULES §4 Talon buy-out: it was asked to buy


def test_reproducible_with_a_sample_count() -> None:
    g = Game(seed=21)
    view = g.view(g.to_move)
    a = SearchBot(4, SMALL).choose(view)
    b = SearchBot(4, SMALL).choose(view)
    assert a == b


def _replay(hands: list[list[str]], talon: list[str], moves: list[str], dealer: int) -> Game:
    g = Game(Rules(), first_dealer=dealer, seed=0, auto_deal=False)
    g.start_deal([mask_of(parse_cards(h)) for h in hands], mask_of(parse_cards(talon)))
    for m in moves:
        g.apply(mv.parse_move(m))
    return g


def test_finds_the_forced_win_the_heuristic_misses() -> None:
    """Contract 130, three cards left: the declarer leads a heart (K♥ or J♥) and makes
    it whatever the defenders hold; the heuristic leads 9♠ and fails (found by search
    over random heuristic games)."""
    g = _replay(
        [["TS", "TC", "KC", "QC", "JC", "9C", "AD"], ["AS", "KS", "QS", "AC", "TD", "KD", "AH"],
         ["JS", "QD", "JD", "9D", "TH", "QH", "9H"]],
        ["9S", "KH", "JH"],
        ["100", "pass", "105", "110", "115", "120", "125", "130", "pass", "give TD",
         "give KD", "contract 130", "AS", "JS", "TS", "QS+", "9D", "9C", "AC", "9H", "JC",
         "AH", "QH", "KD", "KS", "JD", "TC"],
        dealer=0,
    )
    view = g.view(g.to_move)
    assert view.seat == view.declarer == 1
    deal = g.deal
    assert deal is not None
    from thousand.bots.sampling import World

    truth = solve_moves(position(view, World(tuple(deal.hands))))
    move, why = SearchBot(1, SMALL).explain(view)
    assert truth[move] >= 130, (mv.move_str(move), truth)
    assert "130" in why


def test_does_not_concede_a_laydown_and_keeps_its_marriage() -> None:
    """A declarer with a huge hand gives low cards, keeps the hearts marriage and plays
    (raising), rather than conceding."""
    rules = Rules(concede=True)
    hands = [
        ["AH", "KH", "QH", "TH", "AD", "TD", "AS"],
        ["9S", "JS", "QS", "KS", "9C", "JC", "QC"],
        ["KC", "TC", "AC", "KD", "QD", "JD", "9H"],
    ]
    g = Game(rules, first_dealer=2, seed=0, auto_deal=False)
    g.start_deal([mask_of(parse_cards(h)) for h in hands],
                 mask_of(parse_cards(["JH", "9D", "TS"])))
    g.apply(mv.bid(100))
    g.apply(mv.PASS)
    g.apply(mv.PASS)
    bot = SearchBot(2, SMALL)
    for _ in range(2):
        view = g.view(0)
        assert view.phase == Phase.EXCHANGE
        move = bot.choose(view)
        assert mv.is_give(move)
        assert mv.card_of(move) not in parse_cards(["KH", "QH", "AH", "AD", "AS"])
        g.apply(move)
    view = g.view(0)
    move, why = decide_with_reason(bot, view, "ru")
    assert move != mv.CONCEDE and mv.value_of(move) >= 120, why
    assert "раскладов" in why


def test_defender_and_auction_reasons_in_both_languages() -> None:
    g = Game(seed=8)
    bot = SearchBot(3, TINY)
    view = g.view(g.to_move)
    for lang, word in (("en", "sampled"), ("ru", "раскладов")):
        move, why = decide_with_reason(bot, view, lang)
        assert move in view.legal and word in why


def test_modelled_pass_value_gives_legal_bids() -> None:
    """``model_pass``: the value of passing from how often the bidder in front makes it."""
    from dataclasses import replace

    bot = SearchBot(5, replace(TINY, model_pass=True))
    g = Game(seed=30)
    seen = 0
    while g.deal is not None and g.deal.phase == Phase.AUCTION:
        view = g.view(g.to_move)
        move = bot.choose(view)
        assert move in view.legal
        seen += 1
        g.apply(move)
    assert seen >= 2


def test_on_the_barrel_it_bids_towards_the_win() -> None:
    """At 880 on the barrel only a contract of 120 wins; a bid of 105 may still be raised
    to it after the talon, so the bot bids with a good hand and passes with a poor one."""
    moves = set()
    for seed in range(8):
        g = Game(seed=seed, first_dealer=0, auto_deal=False)
        g.seats[2].score = 880
        g.seats[2].on_barrel = True
        g.start_deal()
        g.apply(mv.bid(100))  # seat 1 opens
        moves.add(SearchBot(seed, SMALL).choose(g.view(2)))
    assert mv.PASS in moves and mv.bid(105) in moves


# -------------------------------------------------------------- the talon buy-out

#: ``expert`` with a fixed number of deals (reproducible)
EXPERT_SMALL = SearchConfig(time_limit=None, min_samples=24, max_samples=24,
                            play_inference=10.0, inference_moves=6)


def _cards(text: str) -> int:
    return mask_of(parse_cards(text.split()))


def _buy_offer(hands: list[str], talon: str, **overrides: Any) -> Game:
    """Seat 1 opens 100, the others pass: seat 1 takes the talon, seat 2 is asked to buy
    it at 120 (RULES §4 "Talon buy-out")."""
    g = Game(Rules.preset_rules("classic", talon_buy=True, **overrides), first_dealer=0,
             seed=0, auto_deal=False)
    g.start_deal([mask_of(parse_cards(h.split())) for h in hands],
                 mask_of(parse_cards(talon.split())))
    for m in ("100", "pass", "pass"):
        g.apply(mv.parse_move(m))
    assert g.view(2).phase == Phase.BUY and g.view(2).buy_price == 120
    return g


@pytest.mark.parametrize("config", [SMALL, EXPERT_SMALL], ids=["strong", "expert"])
def test_buys_a_talon_that_makes_the_price(config: SearchConfig) -> None:
    """RULES §4 Talon buy-out: K♥ Q♥ A♠ in the talon complete seat 2's ♥ marriage beside
    A♥ 10♥ and the diamonds: in the sampled deals it makes 120 (and more) nearly always,
    so it buys, and says so naming the price."""
    g = _buy_offer(["QD 9H JH AC TC KC QC", "9S JS QS KS TS 9D JD", "AH TH AD TD KD 9C JC"],
                   "KH QH AS")
    bot = SearchBot(1, config)
    move, why = bot.explain(g.view(2), "en")
    assert move == mv.BUY, why
    assert "made in" in why and "♥ marriage" in why and "sampled deals" in why
    move, why = bot.explain(g.view(2), "ru")
    assert move == mv.BUY and "играется в" in why and "раскладов" in why
    assert bot.last_samples == 24


@pytest.mark.parametrize("config", [SMALL, EXPERT_SMALL], ids=["strong", "expert"])
def test_passes_on_a_talon_that_cannot_make_the_price(config: SearchConfig) -> None:
    """RULES §4 Talon buy-out: two nines and a jack in the talon leave seat 2's nines,
    jacks and queens far from 120 in every sampled deal: it does not buy."""
    g = _buy_offer(["JS AC TC KC AD TD KD", "AS KS QS AH TH KH QH", "9C JC QC 9D JD QD TS"],
                   "9H JH 9S")
    move, why = SearchBot(1, config).explain(g.view(2), "en")
    assert move == mv.PASS, why
    assert "120 is made in only" in why


def test_a_bought_talon_above_the_cap_is_played_at_its_price() -> None:
    """RULES §4 Talon buy-out: bought at 240 without a marriage (above the cap of 120),
    the only contract is the price; the search bot exchanges and names it (or concedes)
    and the deal goes on legally."""
    rules = Rules.preset_rules("classic", talon_buy=True, concede=True)
    g = Game(rules, first_dealer=0, seed=0, auto_deal=False)
    g.start_deal(
        [mask_of(parse_cards(h.split())) for h in
         ("JS AC TC KC AD TD KD", "AS KS QS AH TH KH QH", "9C JC QC 9D JD QD TS")],
        _cards("9H JH 9S"),
    )
    for m in ("100", "120", "pass", "pass", "buy", "pass", "pass"):
        g.apply(mv.parse_move(m))
    deal = g.deal
    assert deal is not None and deal.declarer == 0 and deal.bid == 240
    bot = tiny_bot(3)
    while deal.phase != Phase.PLAY and not deal.done:
        view = g.view(g.to_move)
        if view.phase == Phase.CONTRACT:
            assert [mv.value_of(m) for m in view.legal if mv.is_contract(m)] == [240]
        move = bot.choose(view)
        assert move in view.legal
        g.apply(move)


def test_buy_sampling_puts_the_whole_talon_in_the_declarers_hand() -> None:
    """RULES §4 Talon buy-out: in the buy phase nobody has been given a card yet, so every
    world drawn has all three talon cards in the declarer's 10, for the seat asked first
    and, after a buy, for the seats asked again (the former declarer among them)."""
    g = _buy_offer(["QD 9H JH AC TC KC QC", "9S JS QS KS TS 9D JD", "AH TH AD TD KD 9C JC"],
                   "KH QH AS")
    talon = _cards("KH QH AS")
    rng = random.Random(3)
    worlds = sample_worlds(g.view(2), 40, rng)
    assert len(worlds) == 40
    for w in worlds:
        assert w.hands[1] & talon == talon
        assert [h.bit_count() for h in w.hands] == [7, 10, 7]
    g.apply(mv.BUY)  # seat 2 buys at 120: seats 0 and 1 are asked at 240
    for seat in (0, 1):
        view = g.view(seat)
        assert view.phase == Phase.BUY and view.declarer == 2
        worlds = sample_worlds(view, 40, rng)
        assert len(worlds) == 40
        for w in worlds:
            assert w.hands[2] & talon == talon and w.hands[2].bit_count() == 10


def _cut_deal(rules: Rules, hands: list[str], talon: str, cut: str) -> Game:
    g = Game(rules, first_dealer=0, seed=0, auto_deal=False)
    g.start_deal([_cards(h) for h in hands], _cards(talon), cut=parse_cards(cut.split()))
    return g


def _where(worlds: list[Any], card: int) -> set[str]:
    """Where ``card`` lies in the worlds: "talon", or "hand" of some seat."""
    return {"talon" if w.talon >> card & 1 else "hand" for w in worlds
            if (w.talon | w.hands[0] | w.hands[1] | w.hands[2]) >> card & 1}


CUT_HANDS = ["JS AC TC KH AD TD KD", "AS KS QS AH TH 9D QH", "9C JC QC KC JD QD 9S"]
CUT_TALON = "9H JH TS"


def test_the_dealers_glimpse_of_the_cut_is_a_talon_card() -> None:
    """RULES §4 The cut (dealer-opens): the dealer saw the bottom card (10♠, after a public
    9♠), so every world he draws has it in the talon, never in a hand; the others do not
    know it (it lies in a hand in some of their worlds), and the nine shown before it tells
    nobody where it lies.  Once the declarer takes a talon he keeps hidden
    (``talon_shown=not_at_100``), the dealer's card is in the declarer's hand."""
    rules = Rules.preset_rules("dealer-opens")
    g = _cut_deal(rules, CUT_HANDS, CUT_TALON, "9S TS")
    ten_s, nine_s = parse_cards(["TS", "9S"])
    assert g.view(0).talon_known == 1 << ten_s and g.view(1).talon_known == 0
    g.apply(mv.bid(100))  # the dealer opens
    rng = random.Random(2)
    dealer = sample_worlds(g.view(0), 30, rng)
    assert len(dealer) == 30 and _where(dealer, ten_s) == {"talon"}
    other = sample_worlds(g.view(1), 30, rng)
    assert _where(other, ten_s) == {"talon", "hand"}
    assert _where(dealer, nine_s) == _where(other, nine_s) == {"talon", "hand"}
    # the talon stays hidden at 100: the glimpsed card went into the declarer's hand
    rules = Rules.preset_rules("classic", cut_nines=True, talon_shown="not_at_100")
    g = _cut_deal(rules, CUT_HANDS, CUT_TALON, "TS")  # seat 1 opens, seat 0 deals
    for m in ("100", "pass", "pass"):
        g.apply(mv.parse_move(m))
    view = g.view(0)
    assert view.phase == Phase.EXCHANGE and view.declarer == 1 and view.talon is None
    for w in sample_worlds(view, 20, rng):
        assert w.hands[1] >> ten_s & 1 and w.hands[1].bit_count() == 10


def test_a_third_nine_at_the_cut_is_a_talon_card_for_everyone() -> None:
    """RULES §4 The cut: after three nines the deck stays as it lies and the third nine,
    shown to all, is the bottom card: every seat's worlds have it in the talon."""
    rules = Rules.preset_rules("dealer-opens")
    g = _cut_deal(rules, CUT_HANDS, CUT_TALON, "9C 9D 9H")
    nine_h = parse_cards(["9H"])[0]
    rng = random.Random(4)
    for seat in range(3):
        worlds = sample_worlds(g.view(seat), 20, rng)
        assert len(worlds) == 20 and _where(worlds, nine_h) == {"talon"}


def _bought_at_240() -> Game:
    """Seat 2 wins the auction at 120 with seat 1's ♠ and ♥ marriages elsewhere; seat 0
    buys the talon at 240 with no marriage at all (RULES §4 Talon buy-out)."""
    rules = Rules.preset_rules("classic", talon_buy=True)
    g = Game(rules, first_dealer=0, seed=0, auto_deal=False)
    g.start_deal([_cards(h) for h in
                  ("JS AC TC KC AD TD KD", "AS KS QS AH TH KH QH", "9C JC QC 9D JD QD TS")],
                 _cards("9H JH 9S"))
    for m in ("100", "120", "pass", "pass", "buy"):
        g.apply(mv.parse_move(m))
    return g


def test_a_bought_price_proves_no_marriage() -> None:
    """RULES §4 Talon buy-out: the price needs no marriage, so after a buy at 240 (kept at
    240) the sampler rejects no world for the buyer's missing marriages, in the buy phase
    that follows and in the play: worlds come, and in some the buyer has none."""
    from thousand.engine.cards import marriage_sum

    g = _bought_at_240()
    rng = random.Random(5)
    values = g.rules.marriage_values
    views = [g.view(1)]  # asked to buy at 360
    for m in ("pass", "pass", "give 9H", "give 9S", "contract 240"):
        g.apply(mv.parse_move(m))
    views.append(g.view(2))
    assert views[0].phase == Phase.BUY and views[1].phase == Phase.PLAY
    for view in views:
        assert view.declarer == 0 and view.contract == view.bid == 240
        k = knowledge(view, soft=False)
        placed = [p for p in (k.deal_once(rng) for _ in range(30)) if p is not None]
        assert len(placed) == 30 and all(k.weight(p) == 1.0 for p in placed)
        worlds = sample_worlds(view, 30, rng)
        assert len(worlds) == 30
        assert any(marriage_sum(w.hands[0], values) < 120 for w in worlds)


def test_the_auction_is_read_on_the_engines_ladder() -> None:
    """RULES §4 bid_step, dark, opening_bid, bid_jumps: with steps of 15 the bid after a
    dark 120 is 130 (as the engine has it), so a pass over it says the hand was not worth
    130; the opener's 100 at exactly_100 says nothing; a one-step raise under
    bid_jumps=false sets no upper bound on the hand; a pass that could not be a bid (over
    the dark 120 without a marriage) says nothing."""
    from thousand.bots.sampling import auction_acts, auction_check

    rules = Rules.preset_rules("dealer-opens", dark=True, bid_step=15, bid_jumps=False)
    g = _cut_deal(rules, CUT_HANDS, CUT_TALON, "JH")
    for m in ("100", "dark"):
        g.apply(mv.parse_move(m))
    deal = g.deal
    assert deal is not None and deal.next_bid(120) == 130
    assert mv.bid(130) in g.view(2).legal  # seat 2 holds the ♣ marriage
    g.apply(mv.PASS)
    acts = auction_acts(g.view(0))
    assert [(a.seat, a.bid, a.next_bid, a.informative) for a in acts] == [
        (0, 100, 0, False), (2, 0, 130, True)]
    check = auction_check(g.view(0), 2, lambda placed: placed[2])
    assert check is not None
    strong = _cards("AS AC TC AD TD AH TH")  # no marriage: it had to pass
    assert check({2: strong}) == 1.0
    assert check({2: _cards("AS TS AC TC AD KD QD")}) < 0.5  # it could have bid 130
    # a one-step raise (all that bid_jumps=false allows): the stronger the hand, the likelier
    g = _cut_deal(rules, CUT_HANDS, CUT_TALON, "JH")
    for m in ("100", "look", "115"):
        g.apply(mv.parse_move(m))
    check = auction_check(g.view(2), 1, lambda placed: placed[1])
    assert check is not None
    weights = [check({1: _cards(h)}) for h in
               ("9S JS 9C JC 9D JD QH", "AS TS AC TC 9D JD QH", "AS TS AC TC AD TD AH")]
    assert weights == sorted(weights) and weights[-1] > 0.9


# ---------------------------------------------------------- concede, dark doubling


def test_concede_follows_the_engines_payment() -> None:
    """RULES §4 concede_declarer_loses, concede_opponents_get: with nines, jacks and lone
    queens the search bot plays the compulsory 100 when a concede costs the whole contract
    and concedes when it costs half of it."""
    hands = ["AS TS KS AC TC KC AD", "9S JS QS 9C JC 9D JD", "TD KD QD AH TH KH QH"]
    moves = []
    for loses in (True, "half"):
        rules = Rules.preset_rules("classic", concede=True, concede_declarer_loses=loses)
        g = Game(rules, first_dealer=0, seed=0, auto_deal=False)
        g.start_deal([mask_of(parse_cards(h.split())) for h in hands],
                     _cards("9H JH QC"))
        for m in ("100", "pass", "pass", "give 9H", "give JH"):
            g.apply(mv.parse_move(m))
        moves.append(SearchBot(1, SMALL).choose(g.view(1)))
    assert moves == [mv.contract(100), mv.CONCEDE]


def test_dark_doubling_for_all_doubles_the_defenders_stakes() -> None:
    """RULES §4 dark_doubles, §7 Dark doubling: with ``all`` a dark deal doubles every
    player's deal value, so the bot weighs the defenders' points twice; with ``declarer``
    only its own."""
    from thousand.bots.search import stakes

    for doubles, others in (("declarer", 1), ("all", 2)):
        g = Game(Rules.preset_rules("classic", dark=True, dark_doubles=doubles), seed=4)
        view = g.view(g.to_move)
        assert view.phase == Phase.DARK_CHOICE
        st = stakes(view, g.to_move, 250.0, dark=True)
        assert (st.failed(120), st.others) == (-240.0, others)  # the declarer's: doubled
        assert stakes(view, g.to_move, 250.0, dark=False).others == 1


# ------------------------------------------------------------------------- two players

TWO = Rules.preset_rules("two", max_deals=1, cut_nines=True)


def _two_player_positions(seeds: range) -> Any:
    """(deal, view) for both seats before every move of heuristic 2-player deals."""
    bots = [HeuristicBot(s) for s in range(2)]
    for seed in seeds:
        g = Game(TWO, seed=seed)
        while not g.over:
            assert g.deal is not None
            for seat in (0, 1):
                yield g.deal, g.view(seat)
            g.apply(bots[g.to_move].choose(g.view(g.to_move)))


def _two_player_world_holds(deal: Any, view: View, world: Any) -> None:
    """What a two-player seat knows holds in ``world`` (RULES §4 "Two players" 1, 3)."""
    me = view.seat
    assert me is not None and view.hand is not None
    opp = 1 - me
    played = view.played_cards()
    places = [*world.hands, *world.talons, world.other_talon, world.discards, world.talon]
    assert sum(m.bit_count() for m in places) + played.bit_count() == 24  # each card once
    assert world.cards() | played == FULL_DECK
    assert world.hands[me] == view.hand
    assert world.hands[opp].bit_count() == view.hand_sizes[opp]
    hidden = world.hands[opp] | world.other_talon | (world.talons[0] if world.talons else 0)
    if world.talons:
        hidden |= world.talons[1]
    if me != view.declarer:
        hidden |= world.discards
    assert not hidden & (view.hand | played)  # nothing seen is placed out of sight
    if view.talon_choice < 0:
        # both talons unseen; the cut's bottom card lies in talon 2
        assert [t.bit_count() for t in world.talons] == [2, 2]
        assert world.talons[1] & view.talon_known == view.talon_known
        return
    assert not world.talons and world.other_talon.bit_count() == 2
    if view.talon_choice == 0:
        assert world.other_talon & view.talon_known == view.talon_known
    if me == view.declarer:
        assert world.discards == deal.discards  # his own discards, as they are
    else:
        assert world.discards.bit_count() == deal.discards.bit_count()
        if view.talon is not None:  # shown: in his hand or discards, never the other talon
            assert not world.other_talon & view.talon
            assert view.talon & ~played == view.talon & (world.hands[opp] | world.discards)
    _voids_hold(view, world)


def test_two_player_worlds_fit_every_view() -> None:
    """RULES §4 "Two players" 1 and 3: at every move of random two-player deals (cut_nines),
    for both seats, every world drawn deals the right counts (the opponent's hand, both
    talons before the choice, the talon not chosen and the discards after it), places no
    card the seat saw, honours the dealer's glimpse of talon 2 and the voids; and the
    true deal is never ruled out by the knowledge."""
    rng = random.Random(3)
    checked = 0
    for deal, view in _two_player_positions(range(8)):
        know = knowledge(view)
        for place, cards in know.known.items():  # the truth fits what is known
            truth = _true_place(deal, place)
            assert cards & truth == cards, (place, view.phase)
        for place, cards in know.exclude.items():
            assert not cards & _true_place(deal, place), (place, view.phase)
        for w in know.samples(rng, 2):
            _two_player_world_holds(deal, view, w)
            checked += 1
    assert checked > 400


def _true_place(deal: Any, place: int) -> int:
    """The cards really in ``place`` (a seat or a sampler location) of a two-player deal."""
    if place >= 0:
        return int(deal.hands[place])
    return int({TALON_1: deal.ctx.talons[0], TALON_2: deal.ctx.talons[1],
                OTHER_TALON: deal.unchosen_talon, DISCARDS: deal.discards}[place])


def test_two_player_hidden_places() -> None:
    """RULES §4 "Two players" 3: before the choice the declarer's unknowns are the
    opponent's 10 cards and both talons; after it the defender's 10 and the talon not
    chosen; the defender's are the declarer's hand, his two discards and that talon."""
    g = Game(TWO, seed=5)
    bots = [HeuristicBot(s) for s in range(2)]
    while g.deal is not None and g.deal.phase != Phase.TALON_CHOICE:
        g.apply(bots[g.to_move].choose(g.view(g.to_move)))
    deal = g.deal
    assert deal is not None
    d, defender = deal.declarer, deal.opponents()[0]
    assert knowledge(g.view(d)).sizes == {defender: 10, TALON_1: 2, TALON_2: 2}
    g.apply(mv.TALON_2)
    assert knowledge(g.view(d)).sizes == {defender: 10, OTHER_TALON: 2}
    while deal.phase == Phase.EXCHANGE:
        g.apply(bots[d].choose(g.view(d)))
    assert knowledge(g.view(defender)).sizes == {d: 10, DISCARDS: 2, OTHER_TALON: 2}
    assert knowledge(g.view(d)).fixed[DISCARDS] == deal.discards


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_strong_plays_whole_two_player_deals(seed: int) -> None:
    """RULES §4 "Two players" 2-5: the search bot in both seats plays a whole deal of two
    (max_deals=1) with legal moves only: the talon chosen right after the auction, two
    discards, then ten tricks of two cards (unless conceded)."""
    g = Game(TWO, seed=seed)
    bots = [tiny_bot(seed + s) for s in range(2)]
    while not g.over:
        view = g.view(g.to_move)
        move = bots[g.to_move].choose(view)
        assert move in view.legal, (view.phase, move)
        g.apply(move)
    moves = g.records[-1].moves
    choice = [i for i, m in enumerate(moves) if mv.is_talon_choice(m)]
    assert len(choice) == 1
    assert all(not mv.is_talon_choice(m) and not mv.is_discard(m) for m in moves[:choice[0]])
    assert sum(mv.is_discard(m) for m in moves) == 2
    plays = sum(mv.is_card_play(m) for m in moves)
    assert plays == 20 or mv.CONCEDE in moves


def _two_player_declarer(cut: tuple[str, ...]) -> Game:
    """The shared deal of two (tests/two_player_deals.py) at the dealer's talon choice."""
    return talon_choice(TWO, cut)


def test_the_talon_choice_takes_the_glimpsed_ace() -> None:
    """RULES §4 "Two players" 1 and 3: the dealer who saw A♥ at the bottom (in talon 2)
    takes talon 2 (it completes A K Q T 9 of hearts), and the reason names the card in
    both languages without naming the move or speaking as the bot."""
    g = _two_player_declarer(("AH",))
    bot = SearchBot(1, SMALL, "small")
    view = g.view(0)
    assert view.talon_known == mask_of(parse_cards(["AH"]))
    move, ru = decide_with_reason(bot, view, "ru")
    _, en = decide_with_reason(bot, view, "en")
    assert move == mv.TALON_2 and bot.last_samples == SMALL.max_samples
    assert "Т♥" in ru and "A♥" in en, (ru, en)
    assert "беру" not in ru.lower() and "второй прикуп" not in ru


def test_unseen_talons_are_alike() -> None:
    """RULES §4 "Two players" 3: with no card of either talon seen (the cut ended on a
    jack: the dealer cut again unseen) nothing tells them apart: talon 1, no deal sampled."""
    g = _two_player_declarer(("JS",))
    bot = SearchBot(1, SMALL, "small")
    view = g.view(0)
    assert view.talon_known == 0
    move, why = decide_with_reason(bot, view, "en")
    assert move == mv.TALON_1 and bot.last_samples == 0 and "apart" in why


def test_two_player_discards_keep_the_marriage() -> None:
    """RULES §4 "Two players" 3 (two discards, which count to the declarer) and §2 (a
    marriage scores only with both cards held): holding K♥ Q♥ after taking talon 2, the
    declarer discards neither while nines, a jack and lone kings are there to go; the first
    discard's reason names the second card of the pair."""
    g = _two_player_declarer(("AH",))
    g.apply(mv.TALON_2)
    bot = SearchBot(1, SearchConfig(time_limit=None, min_samples=8, max_samples=8), "eight")
    marriage = set(parse_cards(["KH", "QH"]))
    first = True
    while g.deal is not None and g.deal.phase == Phase.EXCHANGE:
        view = g.view(0)
        move, why = decide_with_reason(bot, view, "ru")
        assert mv.is_discard(move) and mv.card_of(move) not in marriage, why
        if first:
            assert why.startswith("вместе с "), why
            first = False
        g.apply(move)
    assert g.deal is not None and g.deal.discards.bit_count() == 2
