"""Root parallelism of ``bot:search`` (issue 29): the same decisions on one process and on several.

Run: ``.venv/bin/python benchmarks/bench_search_workers.py [GAME ...] [--positions N] [--workers W]``.
For each game, ``--positions`` decision points are taken from seeded expert-against-expert 2-player
games; each is decided by the game's ``search:hard`` settings without its time cap, once alone and once
with ``--workers`` processes. Prints the seconds of both, the speed-up, and how many decisions came out
the same (all of them should: the samples and their seeds are the same).
"""

from __future__ import annotations

import argparse
import random
import time
from dataclasses import replace

from tabletown.bots.search import SearchBot, settings_for
from tabletown.core.game import Game, State
from tabletown.core.registry import get_game

GAMES = ("machikoro", "multicity", "lordsofvegas", "newlasvegas")


def expert_positions(game: Game, count: int, seed: int) -> list[tuple[State, int]]:
    """Decision points with a choice, taken at random from expert games."""
    rng = random.Random(seed)
    found: list[tuple[State, int]] = []
    game_seed = seed
    while len(found) < count:
        state = game.new_game(2, seed=game_seed)
        experts = [game.bots()["expert"](game_seed * 2 + seat) for seat in range(2)]
        game_seed += 1
        while state.to_act and len(found) < count:
            seat = state.to_act[0]
            if len(state.legal_actions(seat)) > 1 and rng.random() < 0.1:
                found.append((state.clone(), seat))
            state.apply(seat, experts[seat].choose(state, seat))
    return found


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("games", nargs="*", default=list(GAMES))
    parser.add_argument("--positions", type=int, default=8)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    print(
        f"{'game':14} {'decisions':>9} {'alone s':>8} {f'{args.workers} workers s':>12} {'speed-up':>8} same"
    )
    for name in args.games:
        game = get_game(name)
        # min_players=2: every table is searched (Machi Koro's hard level leaves two-player ones alone).
        settings = replace(settings_for(game, "hard"), max_seconds=3600.0, min_players=2)
        alone = SearchBot(game, 11, settings)
        parallel = SearchBot(game, 11, replace(settings, workers=args.workers))  # the pool starts here
        spent = [0.0, 0.0]
        same = 0
        points = expert_positions(game, args.positions, args.seed)
        for state, seat in points:
            moves = []
            for index, bot in enumerate((alone, parallel)):
                started = time.perf_counter()
                moves.append(bot.choose(state.clone(), seat))
                spent[index] += time.perf_counter() - started
            same += moves[0] == moves[1] and alone.last_values == parallel.last_values
        print(
            f"{name:14} {len(points):9d} {spent[0]:8.2f} {spent[1]:12.2f} {spent[0] / spent[1]:8.2f}"
            f" {same}/{len(points)}"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
