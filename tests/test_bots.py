"""Bots: the interface, the registry, seeing only the view, every preset, and the heuristic
bot's club-player habits (RULES.md §2; docs/bots.md)."""

from __future__ import annotations

import ast
import re
from pathlib import Path
from typing import Any

import pytest

from bot_rulesets import BOT_RULESETS
from thousand import moves as mv
from thousand.bots import (
    BOT_LEVELS,
    Bot,
    HeuristicBot,
    RandomBot,
    best_level,
    bot_levels,
    decide_with_reason,
    make_bot,
    register_bot,
)
from thousand.bots.arena import (
    labels_for,
    play_game,
    run_arena,
    wilson_interval,
)
from thousand.bots.evaluate import make_chance, predict_auction, predict_play
from thousand.cards import mask_of, parse_card, parse_cards
from thousand.deal import Phase
from thousand.game import Game
from thousand.rules import Rules
from thousand.view import View

ROOT = Path(__file__).resolve().parents[1]
BOTS = ROOT / "src" / "thousand" / "bots"


def cards(text: str) -> int:
    return mask_of(parse_cards(text.split()))


def dealt_game(hands: list[str], talon: str, **overrides: Any) -> Game:
    """A classic game whose first deal has these hands (seat 0 deals, seat 1 opens)."""
    g = Game(Rules.preset_rules("classic", **overrides), seed=1, auto_deal=False)
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
                assert node.module not in {"thousand.game", "game"}, name
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


def test_random_bot_is_reproducible() -> None:
    def run() -> tuple[int, ...]:
        g = Game(Rules(max_deals=3), seed=4)
        return play_game(g, [RandomBot(1), RandomBot(2), RandomBot(3)]).scores

    assert run() == run()


# ------------------------------------------------------------- heuristic habits


def test_values_marriages_aces_and_tens() -> None:
    values = Rules().marriage_values
    weak = cards("9S JS 9C JC 9D JD QH")
    strong = cards("AH TH KH QH AS AC KC")
    assert predict_auction(strong, values) > predict_auction(weak, values) + 60
    assert predict_play(cards("AH TH KH QH AS AC KC QC"), values) > 150
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
    assert labels_for(["heuristic", "random", "random"]) == ["heuristic", "random 1", "random 2"]


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
        assert make_bot("greedy").choose(Game(seed=1).view(1)) in Game(seed=1).view(1).legal
    finally:
        from thousand.bots import _DESCRIPTIONS, _REGISTRY

        _REGISTRY.pop("greedy", None)
        _DESCRIPTIONS.pop("greedy", None)
