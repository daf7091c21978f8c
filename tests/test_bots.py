"""Bots: the interface, the registry, seeing only the view, every preset, and the heuristic
bot's club-player habits (RULES §2; docs/bots.md)."""

from __future__ import annotations

import ast
import re
from pathlib import Path
from typing import Any

import pytest

from bot_rulesets import BOT_RULESETS
from thousand.bots import (
    BOT_LEVELS,
    Bot,
    HeuristicBot,
    RandomBot,
    best_level,
    bot_levels,
    checked_choice,
    decide_with_reason,
    make_bot,
    register_bot,
)
from thousand.bots.evaluate import make_chance, predict_auction, predict_play
from thousand.engine import moves as mv
from thousand.engine.cards import card_label, mask_of, parse_card, parse_cards, points_of
from thousand.engine.deal import Phase
from thousand.engine.game import Game
from thousand.engine.rules import Rules
from thousand.engine.view import View
from thousand.evaluation.arena import (
    labels_for,
    play_game,
    run_arena,
    wilson_interval,
)
from thousand.words.catalogue import advice_for

ROOT = Path(__file__).resolve().parents[1]
BOTS = ROOT / "src" / "thousand" / "bots"


def cards(text: str) -> int:
    return mask_of(parse_cards(text.split()))


def dealt_game(hands: list[str], talon: str, **overrides: Any) -> Game:
    """A classic game whose first deal has these hands (seat 0 deals, seat 1 opens)."""
    g = Game(Rules.preset_rules("classic", **overrides), first_dealer=0, seed=1,
             auto_deal=False)
    g.start_deal(tuple(cards(h) for h in hands), cards(talon))
    return g


def play(g: Game, *moves: str) -> None:
    for m in moves:
        g.apply(mv.parse_move(m))


# --------------------------------------------------------------------------- registry


def test_levels_and_registry() -> None:
    assert {"random", "beginner", "heuristic"} <= set(BOT_LEVELS)
    for level in BOT_LEVELS:
        bot = make_bot(level, seed=1)
        assert isinstance(bot, Bot)
    with pytest.raises(ValueError, match="unknown bot level"):
        make_bot("grandmaster")
    assert best_level() in bot_levels()


def test_register_bot_adds_a_level() -> None:
    register_bot("test-first", lambda seed: _FirstMove(), "always the first legal move")
    try:
        assert "test-first" in bot_levels()
        g = Game(Rules(max_deals=1), seed=3)
        play_game(g, [make_bot("test-first"), make_bot("random", 1), make_bot("heuristic", 2)])
        assert g.over
    finally:
        from thousand.bots import _DESCRIPTIONS, _REGISTRY

        _REGISTRY.pop("test-first", None)
        _DESCRIPTIONS.pop("test-first", None)


class _FirstMove:
    def choose(self, view: View) -> int:
        return view.legal[0]


def test_decide_with_reason_both_languages_and_plain_bots() -> None:
    g = Game(seed=5)
    view = g.view(g.to_move)
    for lang, word in (("en", "hand"), ("ru", "рука")):
        move, why = decide_with_reason(HeuristicBot(1), view, lang)
        assert move in view.legal
        assert word in why.lower() or "ставка" in why
    move, why = decide_with_reason(_FirstMove(), view, "ru")
    assert move == view.legal[0] and why == ""


# ------------------------------------------------------------------ only the view


class _Spy:
    """Wraps a bot and records what it was given."""

    def __init__(self, bot: Bot) -> None:
        self.bot = bot
        self.seen: set[type] = set()

    def choose(self, view: View) -> int:
        self.seen.add(type(view))
        assert view.my_turn
        return self.bot.choose(view)


def test_bots_get_only_their_own_view() -> None:
    spies = [_Spy(make_bot("heuristic", s)) for s in range(3)]
    g = Game(Rules(max_deals=2), seed=11)
    play_game(g, spies)
    assert all(s.seen == {View} for s in spies)


def test_bot_modules_never_touch_the_deal_or_the_game() -> None:
    """Structurally: the module of every registered bot, and the bot helpers it uses,
    import no Deal, DealContext or Game (arenas, which run games, are not bots)."""
    import importlib
    import sys

    modules = {type(make_bot(level, 1)).__module__ for level in bot_levels()}
    modules |= {"thousand.bots.base", "thousand.bots.evaluate"}
    for name in sorted(modules):
        module = sys.modules.get(name) or importlib.import_module(name)
        if not (module.__file__ or "").startswith(str(ROOT / "src")):
            continue
        tree = ast.parse(Path(module.__file__ or "").read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and node.module:
                names = {a.name for a in node.names}
                assert not names & {"Deal", "DealContext", "Game", "view_of"}, name
                assert node.module not in {"thousand.engine.game", "game"}, name
    assert "thousand.bots.heuristic" in modules and "thousand.bots.random_bot" in modules


# --------------------------------------------------------------- every preset


@pytest.mark.parametrize(("preset", "over"), BOT_RULESETS)
def test_bots_finish_games_under_every_preset(preset: str, over: dict[str, Any]) -> None:
    rules = Rules.preset_rules(preset, max_deals=8, **over)
    for g_i in range(2):
        bots: list[Bot] = [
            HeuristicBot(g_i * 10 + s, strict=True) if (s + g_i) % 2 == 0 else RandomBot(s)
            for s in range(rules.players)
        ]
        bots[-1] = make_bot("beginner", 3)
        g = play_game(Game(rules, seed=g_i), bots)
        assert g.over


class _Recorder:
    """Wraps a bot and keeps every move it chose and the choices it had."""

    def __init__(self, bot: Bot) -> None:
        self.bot = bot
        self.moves: list[tuple[int, tuple[int, ...]]] = []

    def choose(self, view: View) -> int:
        move = self.bot.choose(view)
        self.moves.append((move, tuple(view.legal)))
        return move


def test_random_bot_is_reproducible() -> None:
    """The same seeds give the same game move for move, and the seed is what decides:
    other seeds give other moves, and the bot picks among its choices, not the first of
    them (a bot that always plays its first legal move is reproducible too, and must not
    pass)."""

    def run(seeds: tuple[int, int, int]) -> tuple[tuple[int, ...], list[_Recorder]]:
        bots = [_Recorder(RandomBot(s)) for s in seeds]
        g = play_game(Game(Rules(max_deals=3), seed=4), bots)
        return g.scores, bots

    scores, bots = run((1, 2, 3))
    again, bots_again = run((1, 2, 3))
    assert again == scores
    assert [b.moves for b in bots_again] == [b.moves for b in bots]
    _, other = run((4, 5, 6))
    assert [b.moves for b in other] != [b.moves for b in bots]
    choices = [(m, legal) for b in bots for m, legal in b.moves if len(legal) > 1]
    assert choices and any(m != legal[0] for m, legal in choices)


# ------------------------------------------------------------- heuristic habits


def test_values_marriages_aces_and_tens() -> None:
    values = Rules().marriage_values
    weak = cards("9S JS 9C JC 9D JD QH")
    strong = cards("AH TH KH QH AS AC KC")
    assert predict_auction(strong, values) > predict_auction(weak, values) + 60
    assert predict_play(cards("AH TH KH QH AS AC KC QC"), values) > 150
    # the model fitted for the ten in its natural place (RULES §1 ten_strength) agrees
    assert predict_auction(strong, values, "natural") > predict_auction(weak, values,
                                                                        "natural") + 60
    assert predict_play(cards("AH TH KH QH AS AC KC QC"), values, "natural") > 150
    assert make_chance(140, 100, 20) > 0.9 > make_chance(100, 140, 20)


def test_passes_a_hopeless_hand_and_bids_a_strong_one() -> None:
    # seat 1 opens 100 (compulsory); seat 2 decides
    g = dealt_game(
        ["AS TS KS QS AC TC 9C", "JS 9S KC QC JC AD TD", "KD QD JD 9D 9H JH QH"],
        "KH TH AH",
    )
    assert HeuristicBot(1).choose(g.view(1)) == mv.bid(100)  # the opening is compulsory
    play(g, "100")
    assert HeuristicBot(1).choose(g.view(2)) == mv.PASS  # weak: no aces, one small marriage
    play(g, "pass")
    # seat 0: spade marriage, two aces, two tens: worth more than 105
    assert HeuristicBot(1).choose(g.view(0)) == mv.bid(105)


def test_keeps_marriages_when_giving_cards() -> None:
    g = dealt_game(
        ["JS 9S KC QC JC AD TD", "AS TS KS QS AC 9C JD", "KD QD 9D 9H JH QH TC"],
        "AH TH KH",
    )
    play(g, "100", "pass", "pass")  # seat 1 (AS TS KS QS AC 9C JD + AH TH KH) declares
    bot = HeuristicBot(1)
    given = []
    while g.deal is not None and g.deal.phase == Phase.EXCHANGE:
        m = bot.choose(g.view(1))
        given.append(mv.card_of(m))
        g.apply(m)
    kept = {parse_card(c) for c in ("KS", "QS", "KH", "QH", "AS", "AH", "AC")}
    assert len(given) == 2 and not kept & set(given)


def test_declares_its_marriage_and_leads_aces() -> None:
    # seat 1 declares with two marriages and aces
    g = dealt_game(
        ["9S JS 9C JC 9D TD JH", "AS KS QS AC KH QH 9H", "TS AD KD QD JD TH AH"],
        "KC QC TC",
    )
    play(g, "100", "pass", "pass", "give 9H", "give TC", "contract 100")
    bot = HeuristicBot(1)
    first = bot.choose(g.view(1))
    assert first in (mv.play(parse_card("AS")), mv.play(parse_card("AC")))  # an ace first
    g.apply(first)
    for seat in (2, 0):
        g.apply(bot.choose(g.view(seat)))
    assert g.deal is not None and g.deal.to_move == 1
    lead = bot.choose(g.view(1))
    assert mv.is_declare(lead)  # then it declares a marriage while it holds the lead


def test_does_not_throw_a_ten_under_an_ace() -> None:
    g = dealt_game(
        ["TS 9S JC 9C 9D JD 9H", "AS KS QS AC KH QH JH", "JS TC AD KD QD TH AH"],
        "KC QC TD",
    )
    play(g, "100", "pass", "pass", "give JH", "give TD", "contract 100", "AS")
    assert g.deal is not None and g.deal.to_move == 2
    play(g, "JS")
    assert HeuristicBot(1).choose(g.view(0)) == mv.play(parse_card("9S"))


def test_trumps_with_the_lowest_winning_trump() -> None:
    g = dealt_game(
        ["9S JS TC KC QC JC 9C", "KH QH AS AC TS AD TD", "9H JH TH AH KD QD JD"],
        "KS QS 9D",
    )
    play(g, "100", "pass", "pass", "give 9D", "give KS", "contract 100")
    play(g, "AS", "9D", "9S")  # seat 1 keeps the lead
    play(g, "QH+", "9H", "9C")  # hearts are trump; seat 0 showed it has none
    play(g, "AC")
    assert g.deal is not None and g.deal.to_move == 2
    # seat 2 has no clubs and must trump: the jack of hearts is enough
    assert HeuristicBot(1).choose(g.view(2)) == mv.play(parse_card("JH"))


# ------------------------------------------------------------------------ arena


def test_wilson_interval() -> None:
    lo, hi = wilson_interval(50, 100)
    assert 0.39 < lo < 0.41 and 0.59 < hi < 0.61
    assert wilson_interval(0, 10)[0] == 0.0
    assert wilson_interval(10, 10)[1] == 1.0


def test_labels_tell_equal_bots_apart() -> None:
    # the heuristic bot by its English name for people (issue 28, 9)
    assert labels_for(["heuristic", "random", "random"]) == ["amateur", "random 1", "random 2"]


def test_heuristic_crushes_random_in_a_small_arena() -> None:
    res = run_arena(["heuristic", "random", "random"], 6, Rules(max_deals=20), seed=3)
    h, r1, r2 = res.bots
    assert res.games == 6 and h.games == 6
    assert h.wins + r1.wins + r2.wins == pytest.approx(6)
    assert h.wins >= 5
    assert h.mean_score_per_deal > r1.mean_score_per_deal
    assert h.make_rate > 0.6 and r1.make_rate < 0.3
    assert res.deals > 0 and res.deals_per_second > 0


def test_arena_in_two_processes_matches_one() -> None:
    one = run_arena(["heuristic", "random", "random"], 4, Rules(max_deals=5), seed=9, jobs=1)
    two = run_arena(["heuristic", "random", "random"], 4, Rules(max_deals=5), seed=9, jobs=2)
    assert [b.wins for b in one.bots] == [b.wins for b in two.bots]
    assert [b.score for b in one.bots] == [b.score for b in two.bots]


# ------------------------------------------------------------------ docs example


def _doc_blocks() -> list[str]:
    text = (ROOT / "docs" / "bots.md").read_text(encoding="utf-8")
    return re.findall(r"```python\n(.*?)```", text, flags=re.S)


def test_the_docs_example_bot_plays_a_game() -> None:
    blocks = _doc_blocks()
    example = next(b for b in blocks if "class GreedyBot" in b)
    assert len(example.strip().splitlines()) <= 22  # "a dozen lines" of logic
    ns: dict[str, Any] = {}
    exec(compile(example, "docs/bots.md", "exec"), ns)
    usage = next(b for b in blocks if "play_game(" in b)
    try:
        exec(compile(usage, "docs/bots.md", "exec"), ns)
        game = ns["game"]
        assert game.over
        g = Game(seed=1)
        view = g.view(g.to_move)
        assert make_bot("greedy").choose(view) in view.legal
    finally:
        from thousand.bots import _DESCRIPTIONS, _REGISTRY

        _REGISTRY.pop("greedy", None)
        _DESCRIPTIONS.pop("greedy", None)


# -------------------------------------------------------------- the talon buy-out


def buy_game(hands: list[str], talon: str, **overrides: Any) -> Game:
    """``dealt_game`` with ``talon_buy`` on, the auction over: seat 1 opens 100 and the
    others pass, so seat 1 takes the talon and seat 2 is asked first to buy it at 120."""
    g = dealt_game(hands, talon, talon_buy=True, **overrides)
    play(g, "100", "pass", "pass")
    return g


#: Seat 2 holds A♥ 10♥ and the diamonds; the talon brings K♥ Q♥ A♠: a sure 120.
GOOD_TALON = (["QD 9H JH AC TC KC QC", "9S JS QS KS TS 9D JD", "AH TH AD TD KD 9C JC"],
              "KH QH AS")
#: Seat 2 holds nothing; the talon is two nines and a jack.
USELESS_TALON = (["JS AC TC KC AD TD KD", "AS KS QS AH TH KH QH", "9C JC QC 9D JD QD TS"],
                 "9H JH 9S")


@pytest.mark.parametrize("preset", ["classic", "textbook", "house"])
@pytest.mark.parametrize("level", ["random", "beginner", "heuristic"])
def test_every_level_plays_whole_games_with_the_buy_out(preset: str, level: str) -> None:
    """RULES §4 Talon buy-out (and the §5 presets): whole games with ``talon_buy`` in
    which every move is legal (play_game checks each); every level is asked to buy."""
    rules = Rules.preset_rules(preset, talon_buy=True, max_deals=6)
    answers: list[int] = []
    for seed in range(2):
        spies = [
            _BuySpy(HeuristicBot(seed * 10 + s, strict=True) if level == "heuristic"
                    else make_bot(level, seed * 10 + s), answers)
            for s in range(rules.players)
        ]
        g = play_game(Game(rules, seed=seed), spies)
        assert g.over
    assert answers  # the buy-out was offered
    assert set(answers) <= {mv.BUY, mv.PASS}
    if level == "random":
        assert mv.BUY in answers


class _BuySpy:
    """A bot that records its answers to buy offers."""

    def __init__(self, bot: Bot, answers: list[int]) -> None:
        self.bot = bot
        self.answers = answers

    def choose(self, view: View) -> int:
        move = self.bot.choose(view)
        if view.phase == Phase.BUY:
            self.answers.append(move)
        return move


def test_heuristic_buys_a_talon_that_makes_its_contract() -> None:
    """RULES §4 Talon buy-out: the talon, shown to all, completes the ♥ marriage of a seat
    with aces and tens: it buys at 120 (and names the price and the marriage)."""
    g = buy_game(*GOOD_TALON)
    view = g.view(2)
    assert view.phase == Phase.BUY and view.buy_price == 120
    move, why = HeuristicBot(1, strict=True).explain(view, "en")
    assert move == mv.BUY
    assert "is made in" in why and "♥ marriage" in why


def test_heuristic_passes_on_a_useless_talon() -> None:
    """RULES §4 Talon buy-out: two nines and a jack do not make a weak hand worth 120."""
    g = buy_game(*USELESS_TALON)
    bot = HeuristicBot(1, strict=True)
    assert bot.choose(g.view(2)) == mv.PASS
    play(g, "pass")
    # the other defender (aces and tens, no marriage) passes at 120 too
    assert g.view(0).phase == Phase.BUY
    assert bot.choose(g.view(0)) == mv.PASS


def test_buy_hint_names_the_price_in_both_languages() -> None:
    """RULES §4 Talon buy-out: ``hint`` says why to buy or pass, naming the price (the
    advice names it, the reason says why)."""
    from thousand.terminal.i18n import hint_line

    for (hands, talon), word_en, word_ru in (
        (GOOD_TALON, "Buy the talon at 120 — ", "Перекупите прикуп за 120 — "),
        (USELESS_TALON, "Do not buy the talon at 120 — ", "Не перекупайте прикуп за 120 — "),
    ):
        view = buy_game(hands, talon).view(2)
        for level in ("heuristic", "beginner"):
            for lang, word in (("en", word_en), ("ru", word_ru)):
                move, why = decide_with_reason(make_bot(level, 1), view, lang)
                assert word in hint_line(lang, level, view, move, why) and why


def test_a_bought_talon_above_the_cap_is_played_at_its_price() -> None:
    """RULES §4 Talon buy-out: a seat that bought at 240 without a marriage may only name
    240 (the price needs no marriage and lies above its cap) or concede; every bot level
    answers legally and the deal ends."""
    hands = ["JS AC TC KC AD TD KD", "AS KS QS AH TH KH QH", "9C JC QC 9D JD QD TS"]
    for level in ("heuristic", "beginner", "random"):
        for concede in (False, True):
            g = dealt_game(hands, "9H JH 9S", talon_buy=True, concede=concede)
            play(g, "100", "120", "pass", "pass")  # seat 2 declares 120
            play(g, "buy")  # seat 0 buys at 240
            assert g.deal is not None and g.deal.declarer == 0 and g.deal.bid == 240
            bot = HeuristicBot(1, strict=True) if level == "heuristic" else make_bot(level, 1)
            while g.deal is not None and not g.deal.done and g.deal.to_move != 0:
                play(g, "pass")  # the others pass at 360
            assert g.deal is not None
            seen = set()
            while g.deal is not None and not g.deal.done and g.deal.phase != Phase.PLAY:
                view = g.view(g.to_move)
                seen.add(view.phase)
                if view.phase == Phase.CONTRACT:
                    assert [mv.value_of(m) for m in view.legal if mv.is_contract(m)] == [240]
                g.apply(checked_choice(bot, view))
            assert Phase.EXCHANGE in seen


# ------------------------------------------------------------ the ten's strength


def _ten_under_a_jack(ten_strength: str) -> View:
    """Seat 1 declares and leads J♥; seat 2 has no heart and no trump is set; seat 0, last
    to play, holds 10♥ and 9♥."""
    g = dealt_game(
        ["TH 9H AD TD KD QD JD", "AS KS QS AC KC QC JH", "9S JS TS 9C JC TC 9D"],
        "AH KH QH", ten_strength=ten_strength,
    )
    play(g, "100", "pass", "pass", "give QS", "give KS", "contract 100", "JH", "9C")
    view = g.view(0)
    assert view.phase == Phase.PLAY and len(view.trick) == 2
    return view


def test_heuristic_knows_the_natural_ten_does_not_beat_a_jack() -> None:
    """RULES §1 ten_strength: with ``high`` the 10♥ takes the J♥ led (it plays it, last
    to the trick); with ``natural`` the ten ranks below the jack, so it keeps the ten
    and plays the nine."""
    bot = HeuristicBot(1, strict=True)
    assert bot.choose(_ten_under_a_jack("high")) == mv.play(parse_card("TH"))
    assert bot.choose(_ten_under_a_jack("natural")) == mv.play(parse_card("9H"))


def test_hand_model_orders_the_ten_by_its_strength() -> None:
    """RULES §1 ten_strength: A♥ 10♥ is an unbroken top run with ``high`` (the ten is a
    winner behind its ace) and not with ``natural`` (K Q J lie between them)."""
    from thousand.bots.evaluate import features, keep_score

    values = Rules().marriage_values
    hand = cards("AH TH 9S JS 9C JC 9D QD")
    high = features(hand, values, False, "high")
    natural = features(hand, values, False, "natural")
    assert high[5] == 21 and natural[5] == 11  # points of the top runs
    assert high[11] == 0 and natural[11] == 1  # tens outside the top run
    ten = parse_card("TH")
    assert keep_score(hand, ten, values, "high") > keep_score(hand, ten, values, "natural")


# ------------------------------------------------------------------ concede


def _hopeless_declarer(**overrides: Any) -> View:
    """Seat 1 plays the compulsory 100 with nines, jacks and two lone queens."""
    g = dealt_game(
        ["AS TS KS AC TC KC AD", "9S JS QS 9C JC 9D JD", "TD KD QD AH TH KH QH"],
        "9H JH QC", concede=True, **overrides,
    )
    play(g, "100", "pass", "pass", "give 9H", "give JH")
    view = g.view(1)
    assert view.phase == Phase.CONTRACT and mv.CONCEDE in view.legal
    return view


def test_heuristic_concedes_by_the_engines_payment() -> None:
    """RULES §4 concede_declarer_loses, concede_opponents_get: the heuristic's concede
    costs what the engine's ``concede_values`` says: a hopeless 100 is played when the
    concede costs the whole contract, conceded when it costs half (50) or nothing."""
    bot = HeuristicBot(1, strict=True)
    assert bot.choose(_hopeless_declarer()) == mv.contract(100)
    move, why = bot.explain(_hopeless_declarer(concede_declarer_loses="half"), "en")
    assert move == mv.CONCEDE and "costs 50" in why
    move, why = bot.explain(
        _hopeless_declarer(concede_declarer_loses=False, concede_opponents_get="aces"), "en")
    assert move == mv.CONCEDE and "costs 0, 0 to each" in why  # he holds no ace


# ------------------------------------------------------------------ two players


def two_game(hands: list[str], talons: list[str], cut: str = "", **overrides: Any) -> Game:
    """A game of two (preset ``two``) whose first deal has these hands (seat 0 deals,
    seat 1 opens), talon 1 and talon 2, and the cut's cards (``cut_nines``)."""
    g = Game(Rules.preset_rules("two", **overrides), first_dealer=0, seed=1, auto_deal=False)
    g.start_deal(tuple(cards(h) for h in hands), None, tuple(parse_cards(cut.split())),
                 tuple(cards(t) for t in talons))
    return g


TWO_RULESETS: list[dict[str, Any]] = [
    {},
    {"cut_nines": True, "first_bidder": "dealer", "concede": True, "golden_deals": True,
     "half_marriage": True, "ten_strength": "natural", "redeal_after_exchange": True},
]


@pytest.mark.parametrize("over", TWO_RULESETS)
@pytest.mark.parametrize("level", ["heuristic", "beginner"])
def test_two_player_games_are_played_out_with_legal_moves(level: str, over: dict[str, Any]
                                                          ) -> None:
    """"Two players" points 1-6: the heuristic and beginner bots play whole games of two
    (against each other and against random) for several seeds; play_game refuses any move
    not legal, and the heuristic bot is strict (its own errors raise).  They choose the
    talons and discard two in every deal they declare."""
    rules = Rules.preset_rules("two", max_deals=6, **over)
    phases: set[Phase] = set()
    for seed in range(4):
        bot = HeuristicBot(seed, strict=True) if level == "heuristic" else make_bot(level, seed)
        other: Bot = RandomBot(seed) if seed % 2 else HeuristicBot(seed + 50, strict=True)
        spy = _PhaseSpy(bot, phases)
        g = play_game(Game(rules, seed=seed), [spy, other] if seed < 2 else [other, spy])
        assert g.over and len(g.summaries) >= 1
    assert {Phase.TALON_CHOICE, Phase.EXCHANGE, Phase.PLAY} <= phases


class _PhaseSpy:
    """Wraps a bot and notes the phases it was asked to move in."""

    def __init__(self, bot: Bot, phases: set[Phase]) -> None:
        self.bot = bot
        self.phases = phases

    def choose(self, view: View) -> int:
        self.phases.add(view.phase)
        return self.bot.choose(view)


#: Seat 1 (the opener) holds the ♥ and ♦ marriages with their aces and tens and 9♠; talon 1
#: brings 9♣ and A♠.
MARRIAGES_AND_NINES = (["JS QS KS TS JC QC KC TC AC 9H", "AH TH KH QH JH AD TD KD QD 9S"],
                       ["9C AS", "9D JD"])


def _declarer_discards(g: Game, seat: int) -> tuple[list[int], list[str]]:
    """The heuristic declarer's two discards and their reasons (English, then Russian)."""
    bot = HeuristicBot(1, strict=True)
    thrown, reasons = [], []
    while g.deal is not None and g.deal.phase == Phase.EXCHANGE:
        view = g.view(seat)
        move, en = bot.explain(view, "en")
        reasons += [en, bot.explain(view, "ru")[1]]
        assert mv.is_discard(move)
        thrown.append(mv.card_of(move))
        g.apply(move)
    return thrown, reasons


def test_two_player_discards_keep_the_marriages_over_two_nines() -> None:
    """"Two players" point 3: the declarer discards two cards face down; the bot throws
    the two nines (one of them voids clubs) and keeps both marriages, and says why in both
    languages, naming the other discard but not the card of the move (the hint says it)."""
    g = two_game(*MARRIAGES_AND_NINES)
    play(g, "100", "pass", "talon 1")
    thrown, reasons = _declarer_discards(g, 1)
    assert sorted(thrown) == sorted(parse_cards(["9S", "9C"]))
    assert g.deal is not None and g.deal.phase == Phase.CONTRACT
    first, second = (card_label(c, "en") for c in thrown)
    en, ru = reasons[0], reasons[1]
    assert f"with {second}, the cards the hand needs least" in en and first not in en
    assert "♦, ♥ marriages stay" in en and "no ♣ left" in en
    assert f"вместе с {second} — карты" in ru and first not in ru
    assert "марьяжи ♦, ♥ остаются" in ru and "масть ♣ уходит совсем" in ru
    assert f"with {first}," in reasons[2] and f"вместе с {first} —" in reasons[3]


def test_two_player_talon_choice_follows_the_glimpsed_card() -> None:
    """"Two players" point 1 (with cut_nines the dealer's glimpse is a card of talon 2)
    and 3 (the talons chosen unseen): the dealer who saw A♥ at the bottom takes talon 2; a
    9♥ left at the bottom after three nines (seen by all) sends him to talon 1; the
    reasons name the card in both languages.  Without a glimpse either talon is alike and
    the bot's seed decides, the same for the same seed."""
    ace = two_game(["KS QS AC TC 9C 9D JD TD 9H JH", "AS TS JS 9S QC JC KC AD KD QD"],
                   ["TH QH", "KH AH"], "AH", cut_nines=True)
    nine = two_game(["KS QS AC TC KC JD QD AH JH TH", "AS TS JS 9S QC JC 9C AD TD KD"],
                    ["9D QH", "KH 9H"], "9C 9D 9H", cut_nines=True)
    for g, want, card in ((ace, mv.TALON_2, "A♥"), (nine, mv.TALON_1, "9♥")):
        play(g, "100", "105", "pass")  # the dealer (seat 0) declares
        view = g.view(0)
        assert view.phase == Phase.TALON_CHOICE
        move, en = HeuristicBot(1, strict=True).explain(view, "en")
        assert move == want and f"the {card} seen at the cut" in en
        ru = HeuristicBot(1, strict=True).explain(view, "ru")[1]
        assert f"карта {card.replace('A', 'Т')}, увиденная при сдвиге" in ru
        assert ("в нём" in ru) == (want == mv.TALON_2)
        assert ("other talon" in en) == (want == mv.TALON_1)
    g = two_game(*MARRIAGES_AND_NINES)
    play(g, "100", "pass")
    view = g.view(1)
    picks = {HeuristicBot(seed).choose(view) for seed in range(12)}
    assert picks == set(mv.TALONS)
    assert HeuristicBot(3).choose(view) == HeuristicBot(3).choose(view)
    assert HeuristicBot(3).explain(view, "ru")[1] == "оба прикупа закрыты: они равноценны"


def test_two_player_hand_with_nothing_bids_no_more_than_the_opening() -> None:
    """"Two players" point 2: the opener's 100 is compulsory; the dealer with nines,
    jacks and no marriage passes (the model: about 47 points), while the opener's two
    marriages would go far above 100."""
    g = two_game(["9S JS QS 9C JC KC 9D JD 9H JH", "AS TS AC TC QC AD TD KD QD AH"],
                 ["KS TH", "KH QH"])
    bot = HeuristicBot(1, strict=True)
    assert bot.choose(g.view(1)) == mv.bid(100)
    play(g, "100")
    view = g.view(0)
    assert bot.max_bid(view)[0] == 0 and bot.choose(view) == mv.PASS
    strong = two_game(*MARRIAGES_AND_NINES)
    assert bot.max_bid(strong.view(1))[0] >= 150


def test_two_player_hints_advise_the_talon_and_the_discard() -> None:
    """"Two players" point 3 in a hint: the advice names the talon to take and the card to
    discard as imperatives in both languages (thousand.words.catalogue.ADVICE), the reason follows
    and does not name the move again."""
    g = two_game(*MARRIAGES_AND_NINES)
    play(g, "100", "pass")
    bot = HeuristicBot(1, strict=True)
    view = g.view(1)
    move = bot.choose(view)
    number = "1" if move == mv.TALON_1 else "2"
    ordinal = "first" if number == "1" else "second"
    assert advice_for(view, move, "en") == f"Take the {ordinal} talon"
    assert advice_for(view, move, "ru") == (
        f"Возьмите {'первый' if number == '1' else 'второй'} прикуп")
    play(g, "talon 1")
    view = g.view(1)
    move, ru = bot.explain(view, "ru")
    card = card_label(mv.card_of(move), "ru")
    assert advice_for(view, move, "ru") == f"Снесите {card}" and card not in ru
    assert advice_for(view, move, "en").startswith("Discard ")


def test_two_player_discards_never_throw_a_marriage_card_for_nothing() -> None:
    """"Two players" point 3: of twelve cards the two discards are never the king or queen
    of a marriage held while two other cards may go (random hands, and one with four
    marriages, whose smallest the play model alone would throw for its 7 points), and a
    discard's points count to the declarer in the value."""
    import random

    from thousand.bots.evaluate import best_give

    values = Rules().marriage_values
    rng = random.Random(5)
    hands = [cards("KS QS KC QC JC AD TD KD QD AH KH QH")]
    hands += [mask_of(rng.sample(range(24), 12)) for _ in range(150)]
    for hand in hands:
        thrown, value = best_give(hand, values, 2, True, players=2)
        assert thrown.bit_count() == 2 and thrown & ~hand == 0
        for s in range(4):
            marriage = cards(["KS QS", "KC QC", "KD QD", "KH QH"][s])
            assert not (hand & marriage == marriage and thrown & marriage), hand
        assert value == pytest.approx(
            predict_play(hand & ~thrown, values, players=2) + points_of(thrown))
