"""The research environments (thousand.envs): the dense action space, PettingZoo's API and
seed tests, OpenSpiel's random simulation test and its search bots, and random games walked
through both environments with every observation checked against ``view(seat)``."""

from __future__ import annotations

import random
from collections.abc import Iterator

import numpy as np
import pyspiel
import pytest

import needs
from thousand.engine import moves as mv
from thousand.engine.cards import JACK
from thousand.engine.deal import Phase
from thousand.engine.game import Game
from thousand.engine.rules import PRESET_NAMES, Rules
from thousand.envs.actions import ActionSpace
from thousand.envs.observation import ObservationEncoder, view_key

# --------------------------------------------------------------------------- actions


@pytest.mark.parametrize("preset", PRESET_NAMES)
def test_every_legal_move_has_an_index_and_back(preset: str) -> None:
    rules = Rules.preset_rules(preset, max_deals=6)
    space = ActionSpace(rules)
    universal = ActionSpace(rules, universal=True)
    rng = random.Random(preset)
    game = Game(rules, seed=7)
    while not game.over:
        legal = game.legal_moves()
        idx = space.indices(legal)
        assert len(set(idx)) == len(legal)
        assert all(0 <= i < space.n for i in idx)
        assert sorted(space.move(i) for i in idx) == sorted(legal)
        for m in legal:
            assert space.move(space.index(m)) == m
            # the universal space keeps the words' and every value's index
            assert universal.move(universal.index(m)) == m
            if m < 102:
                assert universal.index(m) == space.index(m) == m
        game.apply(legal[rng.randrange(len(legal))])


def test_action_space_sizes_and_bounds() -> None:
    classic = ActionSpace(Rules())
    assert classic.n == 224 and classic.top == 400
    assert ActionSpace(universal=True).n == 102 + 2 * 581
    assert classic.index(mv.bid(100)) == 102
    assert classic.index(mv.contract(400)) == 223
    for bad in (mv.bid(405), mv.bid(103), mv.contract(95)):
        with pytest.raises(ValueError):
            classic.index(bad)
    with pytest.raises(ValueError):
        classic.move(224)
    assert classic.describe(24 + 3) == "KS+"


def test_two_players_add_the_talon_choice_after_the_contracts() -> None:
    """Two players, point 3: the declarer's unseen choice of talon is two actions, after the
    contracts, so that the indices of three and four players stay as they were."""
    two = ActionSpace(Rules.preset_rules("two"))
    assert two.n == 226 and two.first_talon == 224
    assert two.index(mv.TALON_1) == 224 and two.index(mv.TALON_2) == 225
    assert two.move(225) == mv.TALON_2 and two.describe(224) == "talon 1"
    assert two.index(mv.bid(100)) == 102 and two.index(mv.contract(400)) == 223
    assert two.table()[-1] == ("224-225", "choose talon 1, talon 2 (two players)")
    assert ActionSpace(Rules.preset_rules("two"), universal=True).n == 102 + 2 * 581 + 2
    classic = ActionSpace(Rules())
    assert classic.first_talon == -1 and classic.n == 224
    with pytest.raises(ValueError, match="two players only"):
        classic.index(mv.TALON_1)


def _two_player_deals(rules: Rules, seed: int, deals: int) -> Iterator[Game]:
    """Random play of ``deals`` two-player deals, yielding the game before every move."""
    rng = random.Random(seed)
    game = Game(rules, seed=seed)
    while len(game.summaries) < deals and not game.over:
        yield game
        legal = game.legal_moves()
        game.apply(legal[rng.randrange(len(legal))])


def test_two_player_observation_hides_what_the_view_hides() -> None:
    """Two players, point 3: both talons are hidden until the declarer chooses one; the one
    he leaves is hidden from both until the deal ends, and then shown; his discards are his
    alone.  The vector shows exactly that: its own fields ``talon_choice`` and
    ``other_talon``, and no card the seat's view does not show."""
    rules = Rules.preset_rules("two", cut_nines=True, talon_shown="not_at_100")
    enc = ObservationEncoder(rules)
    o = enc.offset
    assert enc.trick_size == 2 and enc.size == o["other_talon"] + 24
    seen_choice = seen_other = 0
    for game in _two_player_deals(rules, 8, 6):
        deal = game.deal
        assert deal is not None
        for seat in range(2):
            view = game.view(seat)
            vec = enc.encode(view)
            shown = enc.visible_cards(vec)
            assert shown & ~view.visible_cards() == 0
            choice = vec[o["talon_choice"]:o["talon_choice"] + 2]
            # the cards seen at the cut aside (the bottom one lies in talon 2), a talon
            # nobody has chosen is unseen
            cut = view.talon_known | sum(1 << c for c in view.cut if c is not None)
            if deal.talon_choice < 0:
                assert not choice.any() and shown & deal.ctx.talon & ~cut == 0
            else:
                seen_choice += 1
                assert list(np.flatnonzero(choice)) == [deal.talon_choice]
                assert shown & deal.unchosen_talon & ~cut == 0
                assert not vec[o["other_talon"]:o["other_talon"] + 24].any()
            if seat != deal.declarer and deal.discards:
                assert not vec[o["discards"]:o["discards"] + 24].any()
                # (a discarded talon card it saw in the talon shown stays seen)
                assert shown & deal.discards & ~(view.talon or 0) & ~cut == 0
    # the deal's end shows the other talon to both
    game = Game(rules, seed=3)
    rng = random.Random(3)
    while not game.summaries:
        deal = game.deal
        legal = game.legal_moves()
        game.apply(legal[rng.randrange(len(legal))])
    assert deal is not None and deal.result is not None
    if deal.talon_choice >= 0:
        for seat in range(2):
            vec = enc.encode(deal.view(seat))
            other = vec[o["other_talon"]:o["other_talon"] + 24]
            assert sum(1 << int(c) for c in np.flatnonzero(other)) == deal.unchosen_talon
            seen_other += 1
    assert seen_choice > 20 and seen_other == 2


# --------------------------------------------------------------------------- PettingZoo


def test_pettingzoo_api_and_seed() -> None:
    from pettingzoo.test import api_test, seed_test

    from thousand.envs.pettingzoo import env

    api_test(env(preset="classic", max_deals=4), num_cycles=200)
    api_test(env(preset="textbook", max_deals=2, reward="game"), num_cycles=100)
    seed_test(lambda: env(preset="house", max_deals=3), num_cycles=150)


def test_pettingzoo_api_with_two_players() -> None:
    """Two players (RULES §4 "Two players"): two agents, the talon choice in the actions;
    PettingZoo's API and seed tests pass."""
    from pettingzoo.test import api_test, seed_test

    from thousand.envs.pettingzoo import env

    e = env(preset="two")
    assert e.possible_agents == ["player_0", "player_1"] and e.actions.n == 226
    api_test(env(preset="two", max_deals=4), num_cycles=200)
    seed_test(lambda: env(preset="two", max_deals=3, cut_nines=True), num_cycles=150)


def test_pettingzoo_render_and_rewards() -> None:
    from thousand.envs.pettingzoo import env

    e = env(render_mode="ansi", max_deals=3)
    e.reset(seed=5)
    total = dict.fromkeys(e.possible_agents, 0.0)
    for agent in e.agent_iter():
        obs, reward, term, trunc, _ = e.last()
        total[agent] += reward
        e.step(None if term or trunc else e.action_space(agent).sample(obs["action_mask"]))
    text = e.render()
    assert isinstance(text, str) and "scores" in text
    # deal rewards add up to the scores
    assert [total[a] for a in e.possible_agents] == list(e.game.scores)
    with pytest.raises(ValueError):
        env(reward="money")


def _walk_pettingzoo(preset: str, seed: int, steps: int, **options: object) -> None:
    from thousand.envs.pettingzoo import env

    e = env(preset=preset, max_deals=6, **options)
    e.reset(seed=seed)
    rules = e.rules
    enc = ObservationEncoder(rules, e.actions)
    ref = Game(rules, seed=seed)  # the engine, fed the same moves
    rng = random.Random(seed)
    for n, agent in enumerate(e.agent_iter()):
        if n >= steps:
            break
        obs, _, term, trunc, _ = e.last()
        if term or trunc:
            e.step(None)
            continue
        seat = e.possible_agents.index(agent)
        assert seat == ref.to_move
        for other in e.possible_agents:
            s = e.possible_agents.index(other)
            view = ref.view(s)
            got = e.observe(other)
            assert np.array_equal(got["observation"], enc.encode(view))
            # nothing the view hides: every card the vector shows, the view shows
            assert enc.visible_cards(got["observation"]) & ~view.visible_cards() == 0
            mask = got["action_mask"]
            want = e.actions.indices(view.legal)
            assert list(np.flatnonzero(mask)) == want
            assert (s == ref.to_move) == bool(mask.any())
        action = rng.choice(list(np.flatnonzero(obs["action_mask"])))
        ref.apply(e.actions.move(int(action)))
        e.step(int(action))


@pytest.mark.parametrize(
    ("preset", "options"),
    [("classic", {}), ("house", {}), ("textbook", {}), ("dealer-opens", {}),
     ("casual", {"talon_buy": True, "talon_shown": "not_at_100"}), ("two", {}),
     ("two", {"cut_nines": True, "talon_shown": "not_at_100"})],
)
def test_pettingzoo_observations_are_the_views(preset: str, options: dict[str, object]) -> None:
    _walk_pettingzoo(preset, 11, 160, **options)


# --------------------------------------------------------------------------- OpenSpiel


def _openspiel_game(preset: str = "classic", options: str = "", deals: int = 1) -> object:
    import thousand.envs.openspiel  # noqa: F401  (registers the game)

    return pyspiel.load_game("thousand", {"preset": preset, "options": options,
                                          "deals": deals})


def test_openspiel_random_sim_test() -> None:
    pyspiel.random_sim_test(_openspiel_game(), num_sims=3, serialize=True, verbose=False)
    pyspiel.random_sim_test(_openspiel_game("house", deals=2), num_sims=2, serialize=False,
                            verbose=False)
    pyspiel.random_sim_test(_openspiel_game("dealer-opens"), num_sims=2, serialize=False,
                            verbose=False)
    pyspiel.random_sim_test(_openspiel_game("textbook"), num_sims=2,
                            serialize=False, verbose=False)


def test_openspiel_two_players() -> None:
    """Two players (RULES §4 "Two players"): two players, 226 actions; OpenSpiel's random
    simulation test passes (with the cut too)."""
    game = _openspiel_game("two", deals=2)
    assert game.num_players() == 2 and game.num_distinct_actions() == 226
    pyspiel.random_sim_test(game, num_sims=3, serialize=True, verbose=False)
    pyspiel.random_sim_test(_openspiel_game("two", '{"cut_nines": true}'), num_sims=2,
                            serialize=False, verbose=False)


@pytest.mark.parametrize("options", ["", '{"cut_nines": true}'])
def test_openspiel_deals_two_players_as_the_engine_lays_the_deck(options: str) -> None:
    """Two players, point 1: the chance nodes deal 10 cards to the seat left of the dealer,
    10 to the dealer, then talon 1 (the 21st and 22nd cards) and talon 2 (the last two);
    the cut's bottom card, kept for the bottom of the deck, lies in talon 2."""
    rng = random.Random(options)
    cuts = 0
    for _ in range(6):
        state = _openspiel_game("two", options).new_initial_state()
        order: list[int] = []
        while state.is_chance_node():
            outcomes = [a for a, _ in state.chance_outcomes()]
            card = rng.choice(outcomes)
            if not state._core.cutting():
                order.append(card)
            state.apply_action(card)
        rec = state._core.game.records[-1]
        bottom = [rec.cut[-1]] if rec.cut and rec.cut[-1] % 6 != JACK else []
        rest = [c for c in range(24) if c not in order and c not in bottom]
        assert len(rest) == 1  # the deck's last card (placed without a node), then the bottom
        order += rest + bottom
        masks = [sum(1 << c for c in order[a:b]) for a, b in ((0, 10), (10, 20), (20, 22),
                                                               (22, 24))]
        assert rec.hands == (masks[1], masks[0])  # dealer 0: seat 1 is dealt first
        assert rec.talons == (masks[2], masks[3]) and rec.talon == masks[2] | masks[3]
        cuts += bool(bottom)
    assert cuts or not options


@pytest.mark.parametrize(
    ("preset", "options"),
    [("classic", ""), ("textbook", ""), ("dealer-opens", ""),
     ("house", '{"talon_buy": true, "players": 4}'),
     ("two", '{"cut_nines": true, "talon_shown": "not_at_100"}')],
)
def test_openspiel_observations_are_the_views(preset: str, options: str) -> None:
    game = _openspiel_game(preset, options, deals=3)
    rules = game.rules
    enc = ObservationEncoder(rules, game.actions)
    rng = random.Random(preset)
    for _ in range(2):
        state = game.new_initial_state()
        ref = Game(rules, first_dealer=0, seed=0, auto_deal=False)
        deals = 0
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                assert abs(sum(p for _, p in outcomes) - 1) < 1e-9
                state.apply_action(rng.choice([a for a, _ in outcomes]))
                if not state.is_chance_node():  # dealt: the same cards to the engine
                    rec = state._core.game.records[-1]
                    ref.start_deal(rec.hands, rec.talon, rec.cut, rec.talons)
                    deals += 1
                continue
            for p in range(game.num_players()):
                view = ref.view(p)
                obs = np.asarray(state.observation_tensor(p), np.float32)
                assert np.array_equal(obs, enc.encode(view))
                assert enc.visible_cards(obs) & ~view.visible_cards() == 0
                assert state.observation_string(p) == view_key(view)
                assert state.information_state_string(p).endswith(view_key(view))
                info = np.asarray(state.information_state_tensor(p), np.float32)
                assert np.array_equal(info[:enc.size], obs)
            player = state.current_player()
            assert player == ref.to_move
            legal = state.legal_actions()
            assert legal == game.actions.indices(ref.legal_moves())
            action = rng.choice(legal)
            state.apply_action(action)
            ref.apply(game.actions.move(action))
        assert deals >= 1
        returns = state.returns()
        assert returns == [float(s) for s in ref.scores]


@pytest.mark.parametrize(
    "preset", ["classic", "two"],  # two: RULES §4 "Two players", the talons and discards
)
def test_openspiel_resample_keeps_the_information_state(preset: str) -> None:
    game = _openspiel_game(preset, '{"talon_shown": "not_at_100", "cut_nines": true}'
                           if preset == "two" else '{"talon_shown": "not_at_100"}')
    rng = random.Random(3)
    checked = 0
    for _ in range(4):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(rng.choice([a for a, _ in state.chance_outcomes()]))
                continue
            p = state.current_player()
            if rng.random() < 0.3:
                other = state.resample_from_infostate(p, pyspiel.UniformProbabilitySampler(0, 1))
                assert other.information_state_string(p) == state.information_state_string(p)
                assert other.observation_tensor(p) == state.observation_tensor(p)
                assert other.legal_actions() == state.legal_actions()
                checked += 1
            state.apply_action(rng.choice(state.legal_actions()))
    assert checked > 10


def test_two_player_determinizations_redraw_what_is_hidden() -> None:
    """Two players, points 1 and 3: a seat's drawn deals keep what it has seen (its hand,
    the talon it was shown, the view) and redraw what it has not: the talon the declarer
    left, and for the defender his discards; talon 2 holds the cut's bottom card."""
    from thousand.envs.worlds import determinize

    rules = Rules.preset_rules("two", cut_nines=True)
    rng = random.Random(4)
    checked = cuts = 0
    for game in _two_player_deals(rules, 2, 4):
        deal = game.deal
        assert deal is not None
        if deal.phase != Phase.PLAY or deal.tricks:
            continue
        defender = deal.opponents()[0]
        view = game.view(defender)
        left, discards = set(), set()
        for _ in range(8):
            got = determinize(view, rng)
            assert got is not None
            det, world = got
            assert world.view(defender) == view
            t1, t2 = det.talons
            assert det.talon == t1 | t2 and det.hands[defender] == deal.ctx.hands[defender]
            assert (t1, t2)[deal.talon_choice] == deal.talon  # shown to him: talon_shown
            # the drawn cut's bottom card (the dealer's glimpse drawn, if he did not see it)
            assert not det.cut or det.cut[-1] % 6 == JACK or t2 >> det.cut[-1] & 1
            cuts += bool(det.cut) and det.cut[-1] % 6 != JACK
            left.add((t1, t2)[1 - deal.talon_choice])
            discards.add(world.deal.discards if world.deal else 0)
        assert len(left) > 1 and len(discards) > 1
        checked += 1
    assert checked >= 2 and cuts > 0


def test_openspiel_search_bots_play_it() -> None:
    from open_spiel.python.algorithms import ismcts, mcts

    game = _openspiel_game()
    rs = np.random.RandomState(1)
    evaluator = mcts.RandomRolloutEvaluator(1, rs)
    bots = [
        ismcts.ISMCTSBot(game, evaluator, 2.0, max_simulations=15, random_state=rs),
        mcts.MCTSBot(game, 2.0, 15, evaluator, random_state=rs),
        ismcts.ISMCTSBot(game, evaluator, 2.0, max_simulations=15, random_state=rs),
    ]
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            actions, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(int(rs.choice(actions, p=probs)))
        else:
            state.apply_action(int(bots[state.current_player()].step(state)))
    assert len(state.returns()) == 3


def test_openspiel_seat_in_the_duplicate_arena() -> None:
    from thousand.bots import _DESCRIPTIONS, _REGISTRY
    from thousand.evaluation.arena import openspiel_level, run_arena
    from thousand.evaluation.duplicate import run_duplicate

    level = openspiel_level("openspiel:ismcts:0.02")
    assert level == "openspiel-ismcts-20ms"
    mlevel = openspiel_level("openspiel:mcts:0.02")
    try:
        report = run_duplicate(["heuristic", level, mlevel], 1, Rules(), seed=4)
        assert all(not e.faults for e in report.entries())
        result = run_arena([level, "random", "random"], 1, Rules(max_deals=1), seed=2)
        assert result.games == 1 and result.bots[0].faults == 0
        with pytest.raises(ValueError):
            openspiel_level("openspiel:alphazero")
    finally:  # the levels exist for this test only
        for name in (level, mlevel):
            _REGISTRY.pop(name, None)
            _DESCRIPTIONS.pop(name, None)


def test_openspiel_seat_plays_two_players() -> None:
    """Two players (RULES §4 "Two players"): an OpenSpiel bot's state is drawn from a
    two-player view (the talons, the discards) and searched; it plays a duplicate set
    without a fault."""
    from thousand.bots import _DESCRIPTIONS, _REGISTRY
    from thousand.envs.openspiel_bots import OpenSpielBot
    from thousand.evaluation.arena import openspiel_level
    from thousand.evaluation.duplicate import run_duplicate

    rules = Rules.preset_rules("two", cut_nines=True, talon_shown="not_at_100")
    bot = OpenSpielBot("ismcts", seed=1, seconds=0.02)
    searched = 0
    for game in _two_player_deals(rules, 5, 1):
        view = game.view(game.to_move)
        if len(view.legal) > 1 and mv.LOOK not in view.legal:
            assert bot.choose(view) in view.legal
            searched += bot.simulations > 0
    assert searched >= 5
    level = openspiel_level("openspiel:ismcts:0.01")
    try:
        report = run_duplicate([level, "random"], 1, rules, seed=4)
        assert len(report.sets[0].seatings) == 2
        assert all(not e.faults for e in report.entries())
    finally:  # the level exists for this test only
        _REGISTRY.pop(level, None)
        _DESCRIPTIONS.pop(level, None)


# --------------------------------------------------------------------------- fast path


@pytest.mark.parametrize(
    ("preset", "options"),
    [
        ("classic", {}),
        ("casual", {}),
        ("classic", {"half_marriage": True, "ace_marriage": 200, "ace_marriage_trump": True,
                     "ace_marriage_all_in_row": True, "four_nines_bonus": 100,
                     "no_lead_own_trump": True, "marriage_on_first_lead": True,
                     "marriage_points_declarer_only": True, "first_bidder": "dealer",
                     "opening_bid": "exactly_100", "bid_jumps": False, "rounding": 10,
                     "round_declarer_before_compare": True}),
    ],
)
def test_fast_path_plays_the_engines_games(preset: str, options: dict[str, object]) -> None:

    from thousand.envs import fastsim

    if fastsim.fast_module() is None:
        needs.require("c-compiler")
        pytest.fail(f"the fast path did not build: {fastsim.build_error}")
    rules = Rules.preset_rules(preset, **options)
    assert fastsim.supports(rules) is True
    fast = fastsim.random_deals(rules, 5, 250, first=1000, record=True, fast=True)
    engine = fastsim.random_deals(rules, 5, 250, first=1000, record=True, fast=False)
    for k, (a, b) in enumerate(zip(fast, engine, strict=True)):
        assert a == b, f"deal {1000 + k}:\n{fastsim.describe(a.moves)}\n{fastsim.describe(b.moves)}"


def test_fast_path_falls_back_to_the_engine() -> None:
    from thousand.envs import fastsim

    house = Rules.preset_rules("house")
    assert fastsim.supports(house) is False
    assert fastsim.why_unsupported(house) is not None
    with pytest.raises(RuntimeError):
        fastsim.random_deals(house, 1, 1, fast=True)
    for preset in PRESET_NAMES:  # the engine's path plays every ruleset
        deals = fastsim.random_deals(Rules.preset_rules(preset), 3, 4, record=True, fast=False)
        assert all(d.moves for d in deals)


def test_arena_command_takes_an_openspiel_seat() -> None:
    import subprocess
    import sys

    cli = [sys.executable, "-c", "from thousand.cli import main; main()"]
    p = subprocess.run(
        [*cli, "arena", "--bots", "heuristic,random", "--seat", "2=openspiel:ismcts:0.01",
         "-n", "1", "--set", "max_deals=1", "--quiet", "--seed", "3"],
        capture_output=True, text=True, timeout=300,
    )
    assert p.returncode == 0, p.stderr
    assert "openspiel-ismcts-10ms" in p.stdout
    p = subprocess.run([*cli, "arena", "--seat", "1=openspiel:alphago", "-n", "1"],
                       capture_output=True, text=True, timeout=300)
    assert p.returncode == 2 and "openspiel:ALGORITHM" in p.stderr


# --------------------------------------------------------------------------- issue 28


def test_a_pettingzoo_episode_of_a_preset_without_a_deal_limit_ends() -> None:
    """Issue 28, 20: ``house`` sets no deal limit of its own, so an episode of random play
    must end at the environment's cap, which is there unless taken away."""
    from thousand.envs.pettingzoo import DEFAULT_MAX_DEALS, env

    assert Rules.preset_rules("house").max_deals is None
    e = env(preset="house")
    assert e.max_deals == DEFAULT_MAX_DEALS
    short = env(preset="house", max_deals=2)
    short.reset(seed=4)
    steps = 0
    for agent in short.agent_iter():
        obs, _, terminated, truncated, _ = short.last()
        if terminated or truncated:
            short.step(None)
            continue
        short.step(short.action_space(agent).sample(obs["action_mask"]))
        steps += 1
        assert steps < 2000, "two deals never end"
    assert len(short.game.summaries) <= 2


def test_the_reinforce_example_keeps_every_episodes_rewards() -> None:
    """Issue 28, 22: docs/research.md's REINFORCE loop prints the mean deal reward of the
    whole run, so its list of rewards is made once, before the episodes."""
    from pathlib import Path

    doc = (Path(__file__).resolve().parent.parent / "docs" / "research.md").read_text()
    example = doc.split("REINFORCE", 1)[1].split("```python", 1)[1].split("```", 1)[0]
    lines = example.splitlines()
    loop = next(i for i, line in enumerate(lines) if line.startswith("for episode"))
    made = [i for i, line in enumerate(lines) if line.strip().startswith("totals = []")]
    assert made and all(i < loop and not lines[i].startswith(" ") for i in made)
