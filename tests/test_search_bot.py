"""The search bots (strong, expert) and their sampler (thousand.bots.search, .sampling)."""

from __future__ import annotations

import random
from typing import Any

import pytest

from bot_rulesets import BOT_RULESETS
from thousand import moves as mv
from thousand.bots import bot_levels, decide_with_reason, make_bot
from thousand.bots.arena import play_game
from thousand.bots.heuristic import HeuristicBot
from thousand.bots.sampling import DISCARDS, TALON, knowledge, sample_worlds
from thousand.bots.search import SearchBot, SearchConfig, position
from thousand.cards import (
    FULL_DECK,
    HIGHER_BY_STRENGTH,
    STRENGTH,
    SUIT_MASK,
    mask_of,
    parse_cards,
)
from thousand.deal import Phase
from thousand.game import Game
from thousand.rules import Rules
from thousand.solver import solve_moves
from thousand.view import View

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
    if view.talon is not None and view.declarer >= 0 and me != view.declarer:
        # the talon went to the declarer: the other defender holds at most one card of it
        for s in view.active:
            if s not in (me, view.declarer):
                if r.exchange == "discard_three":
                    assert not world.hands[s] & view.talon
                else:
                    assert (world.hands[s] & view.talon).bit_count() <= 1
    for card, to in view.given:
        if card is not None and not played >> card & 1:
            assert world.hands[to] >> card & 1
    # voids and must_overtake (which card is higher follows ten_strength, RULES §1)
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
     ("classic", {"talon_buy": True})],
)
def test_sampler_respects_the_view(preset: str, overrides: dict[str, Any]) -> None:
    """RULES §2, §4 (must_overtake with either ten_strength, the talon buy-out): every
    world drawn agrees with what the seat saw."""
    rules = Rules.preset_rules(preset, max_deals=2, **overrides)
    rng = random.Random(7)
    bots = [HeuristicBot(s) for s in range(rules.players)]
    checked = 0
    for seed in range(3):
        g = Game(rules, seed=seed)
        while not g.over:
            seat = g.to_move
            view = g.view(seat)
            for w in sample_worlds(view, 3, rng):
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
        from thousand.bots.sampling import marriage_sum

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
    assert "buy at 120" in why and "♥ marriage" in why and "sampled deals" in why
    move, why = bot.explain(g.view(2), "ru")
    assert move == mv.BUY and "перекупаю за 120" in why and "раскладов" in why
    assert bot.last_samples == 24


@pytest.mark.parametrize("config", [SMALL, EXPERT_SMALL], ids=["strong", "expert"])
def test_passes_on_a_talon_that_cannot_make_the_price(config: SearchConfig) -> None:
    """RULES §4 Talon buy-out: two nines and a jack in the talon leave seat 2's nines,
    jacks and queens far from 120 in every sampled deal: it does not buy."""
    g = _buy_offer(["JS AC TC KC AD TD KD", "AS KS QS AH TH KH QH", "9C JC QC 9D JD QD TS"],
                   "9H JH 9S")
    move, why = SearchBot(1, config).explain(g.view(2), "en")
    assert move == mv.PASS, why
    assert "no buy at 120" in why


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
    """RULES §4 Talon buy-out: in the buy phase nobody has been given a card yet, so the
    worlds the bot values have all three talon cards in the declarer's 10."""
    from thousand.bots.sampling import World
    from thousand.bots.search import _talon_with_declarer

    g = _buy_offer(["QD 9H JH AC TC KC QC", "9S JS QS KS TS 9D JD", "AH TH AD TD KD 9C JC"],
                   "KH QH AS")
    view = g.view(2)
    talon = view.talon
    assert talon is not None
    rng = random.Random(3)
    for w in sample_worlds(view, 40, rng):
        fixed = _talon_with_declarer(w, 1, talon, rng)
        assert fixed.hands[1] & talon == talon
        assert [h.bit_count() for h in fixed.hands] == [7, 10, 7]
        assert fixed.hands[2] == view.hand
    # a talon card the sampler gave the other defender swaps with one of the declarer's
    w = World((_cards("KH 9S JS QS KS TS 9D"),
               _cards("QD 9H JH AC TC KC QC QH AS JD"),
               view.hand or 0))
    fixed = _talon_with_declarer(w, 1, talon, rng)
    assert fixed.hands[1] & talon == talon and fixed.hands[0].bit_count() == 7


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
        assert (st.mult, st.others) == (2, others)
        assert stakes(view, g.to_move, 250.0, dark=False).others == 1
