"""Search iterations per second of the generic MCTS bot, for each registered game.

Run: ``.venv/bin/python benchmarks/bench_mcts.py [GAME ...] [--json] [--seconds S]``.
For each game, a few positions are taken from seeded random games (2 players, default options) and
searched with the ``hard`` preset's settings for about ``--seconds`` in total; also reports the
longest single ``hard`` decision seen (the issue's limit is 2 seconds).
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from dataclasses import replace
from typing import Any

from baseline import beside, load, write

from tabletown.bots.mcts import MCTSBot, config_for
from tabletown.core.game import Game, State
from tabletown.core.registry import all_games, get_game


def positions(game: Game, count: int, seed: int = 0) -> list[tuple[State, int]]:
    """Decision points with at least two choices, spread over seeded random 2-player games."""
    # _positions in tests/games/lordsofvegas/test_speed_records.py repeats this loop on purpose:
    # ab.py runs this file against older trees of src, so it can lean on no new shared helper.
    rng = random.Random(seed)
    found: list[tuple[State, int]] = []
    number = 0
    while len(found) < count and number < 50:
        state = game.new_game(2, None, seed=seed + number)
        number += 1
        while state.to_act and len(found) < count:
            seat = state.to_act[0]
            legal = state.legal_actions(seat)
            if len(legal) > 1 and rng.random() < 0.05:
                found.append((state.clone(), seat))
            state.apply(seat, rng.choice(legal))
    return found


def bench_game(game: Game, seconds: float, count: int = 6) -> dict[str, Any]:
    config = config_for(game, "hard")
    per_position = seconds / count
    iterations = 0
    spent = 0.0
    longest = 0.0
    for index, (state, seat) in enumerate(positions(game, count)):
        bot = MCTSBot(game, index, replace(config, max_seconds=per_position, iterations=10**9))
        start = time.perf_counter()
        bot.search(state, seat)
        spent += time.perf_counter() - start
        iterations += bot.last_iterations
        hard = MCTSBot(game, index, config)
        start = time.perf_counter()
        hard.choose(state, seat)
        longest = max(longest, time.perf_counter() - start)
    return {
        "game": game.name,
        "iterations_per_second": round(iterations / spent, 1) if spent else 0.0,
        "positions": count,
        "hard_iterations": config.iterations,
        "hard_longest_decision_s": round(longest, 3),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("games", nargs="*", help="games to measure (default: all registered)")
    parser.add_argument("--json", action="store_true", help="print a JSON list of records")
    parser.add_argument("--seconds", type=float, default=3.0, help="search seconds per game")
    parser.add_argument(
        "--write-baseline", action="store_true", help="store these figures in benchmarks/baseline.json"
    )
    args = parser.parse_args(argv)
    previous = load()
    games = [get_game(name) for name in args.games] if args.games else list(all_games().values())
    results = []
    for game in games:
        result = bench_game(game, args.seconds)
        results.append(result)
        if not args.json:
            print(
                f"{result['game']:14s} mcts {result['iterations_per_second']:9.1f} iterations/s   "
                f"hard ({result['hard_iterations']} it.) longest decision {result['hard_longest_decision_s']:.2f}s"
                + beside(
                    result["iterations_per_second"],
                    previous.get((game.name, "mcts"), {}).get("iterations_per_second"),
                ),
                flush=True,
            )
    if args.json:
        sys.stdout.write(json.dumps(results) + "\n")
    if args.write_baseline:
        write(
            [
                {"game": r["game"], "search": "mcts", "iterations_per_second": r["iterations_per_second"]}
                for r in results
            ]
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
