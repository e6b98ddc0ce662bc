"""Learning-environment speed: random-agent steps per second through ``tabletown.rl`` against the
raw engine's random actions per second, per game (issue 20: at least half).

Run with ``.venv/bin/python benchmarks/bench_rl.py [GAME ...] [--seconds S] [--json FILE]``.

* engine: ``core.bench.random_playout`` (legal moves, a uniform choice, apply), actions per second;
* AEC env: ``tabletown.rl.env``, each step ``env.last()`` (the seat's observation and legal-action
  mask as NumPy arrays) then a uniform choice among the mask's legal numbers (``np.flatnonzero``,
  Python's ``random``, as the engine's random agent) and ``env.step``, the way PettingZoo agents
  drive it; steps per second;
* gym: ``tabletown.rl.gym.TabletownEnv`` against ``bot:random``, learner steps per second (the bots'
  moves run inside each step).

The machine is shared, so every rate counts CPU time (``time.process_time``), and the engine and the
environments are measured in short turns, one after the other, ``--rounds`` times; the table shows
medians and the ratio is the median of the per-round ratios (the same method as benchmarks/ab.py).
docs/rl.md (Speed) has the results and where a step's time goes.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from pathlib import Path

import numpy as np

import tabletown.rl as rl
from tabletown.core.bench import random_playout
from tabletown.core.registry import get_game
from tabletown.rl.gym import TabletownEnv

GAMES = ("machikoro", "multicity", "lordsofvegas", "newlasvegas")


def engine_rate(game, players, seconds: float, seed: int) -> float:
    rng = random.Random(seed)
    actions, start = 0, time.process_time()
    while time.process_time() - start < seconds:
        actions += random_playout(game.new_game(players, {}, seed), rng)
        seed += 1
    return actions / (time.process_time() - start)


def aec_rate(name, players, seconds: float, seed: int) -> float:
    env = rl.env(name, players, seed=seed)
    rng = random.Random(seed)
    steps, start = 0, time.process_time()
    while time.process_time() - start < seconds:
        env.reset()
        for _agent in env.agent_iter():
            obs, _, term, trunc, _ = env.last()
            if term or trunc:
                env.step(None)
                continue
            legal = np.flatnonzero(obs["action_mask"].view(np.bool_))
            env.step(int(legal[rng.randrange(len(legal))]))
            steps += 1
    return steps / (time.process_time() - start)


def gym_rate(name, players, seconds: float, seed: int) -> float:
    env = TabletownEnv(name, players, opponents="random", seat=None, seed=seed)
    rng = random.Random(seed)
    steps, start = 0, time.process_time()
    while time.process_time() - start < seconds:
        obs, _ = env.reset()
        done = False
        while not done:
            legal = np.flatnonzero(obs["action_mask"].view(np.bool_))
            obs, _, term, trunc, _ = env.step(int(legal[rng.randrange(len(legal))]))
            done = term or trunc
            steps += 1
    return steps / (time.process_time() - start)


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("games", nargs="*", help="games to measure (default: all four)")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--seconds", type=float, default=1.0, help="seconds per measurement turn")
    parser.add_argument("--rounds", type=int, default=5, help="turns of engine, AEC and gym per game")
    parser.add_argument("--json", type=Path, help="also write the results to this file")
    args = parser.parse_args()
    results = []
    print(f"{'game':14s} {'engine actions/s':>17s} {'AEC steps/s':>12s} {'ratio':>6s} {'gym steps/s':>12s}")
    for name in args.games or GAMES:
        game = get_game(name)
        try:
            game.observation_size(args.players, {})
        except NotImplementedError as exc:
            print(f"{name:14s} skipped: {exc}")
            continue
        engines, aecs, gyms = [], [], []
        for turn in range(args.rounds):
            engines.append(engine_rate(game, args.players, args.seconds, 1000 * turn))
            aecs.append(aec_rate(name, args.players, args.seconds, 1000 * turn))
            gyms.append(gym_rate(name, args.players, args.seconds, 1000 * turn))
        engine, aec, gym = statistics.median(engines), statistics.median(aecs), statistics.median(gyms)
        ratio = statistics.median(a / e for a, e in zip(aecs, engines, strict=True))
        row = {"game": name, "players": args.players, "engine_actions_per_second": round(engine),
               "aec_steps_per_second": round(aec), "ratio": round(ratio, 3),
               "gym_steps_per_second": round(gym)}  # fmt: skip
        results.append(row)
        print(f"{name:14s} {engine:17.0f} {aec:12.0f} {ratio:6.2f} {gym:12.0f}", flush=True)
    if args.json:
        args.json.write_text(json.dumps(results, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
