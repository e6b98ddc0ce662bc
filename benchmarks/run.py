"""Engine benchmarks: full random games per second for every game and configuration.

Run with ``make bench`` (or ``.venv/bin/python benchmarks/run.py [GAME ...] [--seconds S] [--json FILE]``).
Each configuration plays uniformly random legal moves to the end in this one process, so the figure
is the speed of the rules themselves (legal move generation + apply), the number bots and
tournaments depend on. The MCTS search benchmark (benchmarks/bench_mcts.py) runs after it.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from pathlib import Path

from baseline import beside, load, row_key, write

from tabletown.core.bench import bench_config
from tabletown.core.registry import all_games, get_game


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("games", nargs="*", help="games to measure (default: all)")
    parser.add_argument("--seconds", type=float, default=3.0, help="minimum seconds per configuration")
    parser.add_argument("--json", type=Path, help="also write the results to this file")
    parser.add_argument("--no-search", action="store_true", help="skip the MCTS benchmark")
    parser.add_argument(
        "--write-baseline",
        action="store_true",
        help="store these figures in benchmarks/baseline.json (other games' rows are kept)",
    )
    args = parser.parse_args()
    previous = load()
    games = [get_game(name) for name in args.games] if args.games else list(all_games().values())
    results = []
    print(f"{'game':14s} {'players':>7s}  {'options':42s} {'games/s':>9s} {'actions/game':>13s}")
    for game in games:
        for players, options in game.bench_configs:
            r = bench_config(game, players, options, min_seconds=args.seconds)
            results.append(r)
            print(
                f"{r['game']:14s} {players:7d}  {json.dumps(r['options']):42s} {r['games_per_second']:9.1f} "
                f"{r['actions_per_game']:13.1f}"
                + beside(r["games_per_second"], _previous(previous, r, "games_per_second")),
                flush=True,
            )
    if args.json:
        args.json.write_text(json.dumps(results, indent=1) + "\n")
    if args.write_baseline:
        write([_baseline_row(r) for r in results])
    search = Path(__file__).with_name("bench_mcts.py")
    if search.exists() and not args.no_search:
        print("\nMCTS search:", flush=True)
        extra = ["--write-baseline"] if args.write_baseline else []
        return subprocess.call([sys.executable, str(search), *args.games, *extra])
    return 0


def _baseline_row(result: dict) -> dict:
    return {key: result[key] for key in ("game", "players", "options", "games_per_second")}


def _previous(previous: dict, result: dict, figure: str) -> float | None:
    row = previous.get(row_key(result))
    return row.get(figure) if row else None


if __name__ == "__main__":
    sys.exit(main())
