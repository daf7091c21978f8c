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
from thousand.cards import FULL_DECK, HIGHER_IN_SUIT, SUIT_MASK, mask_of, parse_cards
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
    # voids and must_overtake
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
            else:
                if r.must_overtake and c < top:
                    assert not world.hands[seat] & HIGHER_IN_SUIT[top]
                top = max(top, c)


@pytest.mark.parametrize(
    ("preset", "overrides"),
    [("classic", {}), ("casual", {}), ("textbook", {}), ("house", {"players": 4}),
     ("classic", {"talon_shown": "not_at_100", "must_overtake": True})],
)
def test_sampler_respects_the_view(preset: str, overrides: dict[str, Any]) -> None:
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
    """Short games with the search bot in every seat in turn: every move legal (play_game
    checks), and the bot met every phase the rules have."""
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
        g = Game(seed=seed, auto_deal=False)
        g.seats[2].score = 880
        g.seats[2].on_barrel = True
        g.start_deal()
        g.apply(mv.bid(100))  # seat 1 opens
        moves.add(SearchBot(seed, SMALL).choose(g.view(2)))
    assert mv.PASS in moves and mv.bid(105) in moves
