"""Research environments' speed: steps per second with random legal actions, one core.

Run by hand:  .venv/bin/python benchmarks/envs.py [--seconds S] [--preset P]

Times are CPU time of this process (time.process_time), as in benchmarks/engine.py.  Each
line plays random legal actions for about ``--seconds`` and counts the steps (moves, and for
OpenSpiel the chance nodes of the dealing too):

* ``engine``: ``Game.legal_moves()`` and ``Game.apply()``, the bare engine;
* ``pettingzoo (mask)``: ``env.last(observe=False)``, ``env.action_mask(agent)``,
  ``env.step(action)``: the environment's own work per step;
* ``pettingzoo (observe)``: ``env.last()`` with the observation (the view of the agent to
  move, encoded) every step, as a learner reads it;
* ``openspiel``: ``state.legal_actions()`` (or ``chance_outcomes()``) and
  ``state.apply_action()``;
* ``openspiel (observe)``: the same with ``observation_tensor(player)`` every step.

Then whole deals of random legal play per second (``thousand.envs.fastsim``): through the
engine (``Game``, the reference path) and on the fast path (C, on the solver's core), which
plays the same deals (target: 10,000 deals a second for ``classic``).

Target (issue: research environments): PettingZoo steps at least half the engine's moves.
"""

from __future__ import annotations

import argparse
import random
import time

from thousand.engine.game import Game
from thousand.engine.rules import Rules


def engine(rules: Rules, seconds: float) -> float:
    rng = random.Random(1)
    endless = Rules.from_json({**rules.to_json(), "max_deals": None})
    g = Game(endless, seed=1)
    steps = 0
    start = time.process_time()
    while True:
        for _ in range(1000):
            legal = g.legal_moves()
            g.apply(legal[rng.randrange(len(legal))])
        steps += 1000
        if time.process_time() - start > seconds:
            return steps / (time.process_time() - start)


def pettingzoo(preset: str, seconds: float, observe: bool) -> float:
    from thousand.envs.pettingzoo import env

    e = env(preset=preset, max_deals=None)
    rng = random.Random(1)
    e.reset(seed=1)
    steps = 0
    start = time.process_time()
    while time.process_time() - start < seconds:
        for agent in e.agent_iter():
            if observe:
                obs, _, term, trunc, _ = e.last()
                mask = obs["action_mask"]
            else:
                _, _, term, trunc, _ = e.last(observe=False)
                mask = e.action_mask(agent)
            if term or trunc:
                e.step(None)
                continue
            legal = mask.nonzero()[0]
            e.step(int(legal[rng.randrange(len(legal))]))
            steps += 1
            if steps % 1000 == 0 and time.process_time() - start > seconds:
                break
        else:
            e.reset()
    return steps / (time.process_time() - start)


def openspiel(preset: str, seconds: float, observe: bool) -> float:
    import pyspiel

    import thousand.envs.openspiel  # noqa: F401

    game = pyspiel.load_game("thousand", {"preset": preset, "deals": 1000})
    rng = random.Random(1)
    steps = 0
    start = time.process_time()
    state = game.new_initial_state()
    while time.process_time() - start < seconds:
        for _ in range(500):
            if state.is_terminal():
                state = game.new_initial_state()
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                state.apply_action(outcomes[rng.randrange(len(outcomes))][0])
            else:
                if observe:
                    state.observation_tensor(state.current_player())
                legal = state.legal_actions()
                state.apply_action(legal[rng.randrange(len(legal))])
            steps += 1
    return steps / (time.process_time() - start)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--seconds", type=float, default=5.0)
    ap.add_argument("--preset", default="classic")
    args = ap.parse_args()
    rules = Rules.preset_rules(args.preset)
    base = engine(rules, args.seconds)
    rows = [("engine", base)]
    rows.append(("pettingzoo (mask)", pettingzoo(args.preset, args.seconds, False)))
    rows.append(("pettingzoo (observe)", pettingzoo(args.preset, args.seconds, True)))
    try:
        rows.append(("openspiel", openspiel(args.preset, args.seconds, False)))
        rows.append(("openspiel (observe)", openspiel(args.preset, args.seconds, True)))
    except ImportError:
        pass
    print(f"{args.preset}: steps per second, random legal actions, one core")
    print(f"{'':22} {'steps/s':>10} {'of engine':>10}")
    for name, rate in rows:
        print(f"{name:22} {rate:10.0f} {100 * rate / base:9.0f}%")
    from thousand.envs import fastsim

    print(f"{args.preset}: whole deals of random legal play per second, one core")
    slow = fastsim.deals_per_second(rules, max(200, int(800 * args.seconds)), fast=False)
    print(f"{'engine':22} {slow:10.0f}")
    why = fastsim.why_unsupported(rules)
    if why is not None or fastsim.fast_module() is None:
        print(f"{'fast path':22} {'-':>10}  ({why or 'not built: ' + fastsim.build_error})")
    else:
        quick = fastsim.deals_per_second(rules, max(20000, int(60000 * args.seconds)), fast=True)
        print(f"{'fast path':22} {quick:10.0f} {quick / slow:9.0f}x")


if __name__ == "__main__":
    main()
