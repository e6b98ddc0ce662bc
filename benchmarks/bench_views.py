"""View benchmark: what one seat's view costs, for every game and configuration.

The server builds a view for every listener after every move and for every GET of a table, so a
view that grows slow slows every table (a New Las Vegas view once went from 0.16 to 32 ms).
``make bench`` runs it after the engine benchmark:

    .venv/bin/python benchmarks/bench_views.py [GAME ...] [--plays N] [--seed S]

Plays ``--plays`` random games per configuration and times ``state.view(seat, since)`` for every
seat and the spectator at every position (``since``: the events that seat has already seen, as in a
push), plus the view encoded as the server sends it (orjson); prints the mean, the 99th percentile
and the slowest, in milliseconds, and the mean size.
"""

from __future__ import annotations

import argparse
import random
import sys
import time

import orjson

from tabletown.core.registry import all_games, get_game


def measure(game, players: int, options: dict, games: int, seed: int) -> dict:
    rng = random.Random(seed)
    times: list[float] = []
    encoded: list[int] = []
    for n in range(games):
        state = game.new_game(players, options, seed=seed + n)
        since: dict[int | None, int] = {}
        while not state.is_over:
            for viewer in (*range(players), None):
                start = time.perf_counter()
                view = state.view(viewer, since.get(viewer, 0))
                text = orjson.dumps(view, option=orjson.OPT_NON_STR_KEYS)
                times.append(time.perf_counter() - start)
                encoded.append(len(text))
                since[viewer] = view.get("event_count", 0)
            seat = rng.choice(state.to_act)
            state.apply(seat, rng.choice(state.legal_actions(seat)))
    times.sort()
    return {
        "views": len(times),
        "mean_ms": 1000 * sum(times) / len(times),
        "p99_ms": 1000 * times[min(len(times) - 1, int(0.99 * len(times)))],
        "max_ms": 1000 * times[-1],
        "mean_kb": sum(encoded) / len(encoded) / 1024,
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("games", nargs="*", help="games to measure (default: all)")
    parser.add_argument("--plays", type=int, default=3, help="random games per configuration")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    games = [get_game(name) for name in args.games] if args.games else list(all_games().values())
    print(f"{'game':14s} {'players':>7s}  {'options':34s} {'views':>7s} {'mean ms':>8s} {'p99 ms':>8s} "
          f"{'max ms':>8s} {'mean KB':>8s}")  # fmt: skip
    for game in games:
        for players, options in game.bench_configs:
            r = measure(game, players, options, args.plays, args.seed)
            print(
                f"{game.name:14s} {players:7d}  {str(options)[:34]:34s} {r['views']:7d} {r['mean_ms']:8.3f} "
                f"{r['p99_ms']:8.3f} {r['max_ms']:8.2f} {r['mean_kb']:8.1f}",
                flush=True,
            )
    return 0


if __name__ == "__main__":
    sys.exit(main())
