"""A/B speed comparison of two source trees, interleaved so machine noise hits both alike.

    .venv/bin/python benchmarks/ab.py OLD_SRC NEW_SRC [GAME ...] [--rounds 5] [--seconds 2] [--cpu] [--search]

Each round measures every bench configuration once with the old code and once with the new, in
fresh subprocesses (old first on even rounds, new first on odd ones), then the table gives the median
games per second of each side, the median of the per-round ratios new/old, and their range. Point
OLD_SRC at a checkout of the code before a change (``git worktree add /tmp/base HEAD~3``, then
``/tmp/base/src``). With ``--search`` it compares MCTS iterations per second instead (this tree's
benchmarks/bench_mcts.py: the ``hard`` settings on the same seeded positions, ``--seconds`` of search
per game), with either tree's rules and bots.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
from pathlib import Path

PROBE = """
import json, sys, time
if sys.argv[3] == "cpu":  # count this process's CPU time, not the wall clock, on a busy machine
    time.perf_counter = time.process_time
from tabletown.core.bench import bench_config
from tabletown.core.registry import all_games
names, seconds = json.loads(sys.argv[1]), float(sys.argv[2])
out = []
for name, game in all_games().items():
    if names and name not in names:
        continue
    for players, options in game.bench_configs:
        r = bench_config(game, players, options, min_seconds=seconds)
        out.append([name, players, json.dumps(r["options"], sort_keys=True), r["games_per_second"]])
print(json.dumps(out))
"""


SEARCH_PROBE = """
import json, sys, time
if sys.argv[3] == "cpu":  # the search's own time limit then counts CPU time too
    time.perf_counter = time.process_time
sys.path.insert(0, sys.argv[4])
from bench_mcts import bench_game
from tabletown.core.registry import all_games
names, seconds = json.loads(sys.argv[1]), float(sys.argv[2])
out = []
for name, game in all_games().items():
    if names and name not in names:
        continue
    r = bench_game(game, seconds)
    out.append([name, 2, json.dumps({"search": "mcts hard"}), r["iterations_per_second"]])
print(json.dumps(out))
"""


def measure(
    src: Path, games: list[str], seconds: float, clock: str, search: bool = False
) -> dict[tuple[str, int, str], float]:
    env = {**os.environ, "PYTHONPATH": str(src)}
    probe = [SEARCH_PROBE if search else PROBE, json.dumps(games), str(seconds), clock]
    if search:
        probe.append(str(Path(__file__).parent))
    done = subprocess.run(
        [sys.executable, "-c", *probe],
        env=env,
        capture_output=True,
        text=True,
        check=True,
    )
    return {(name, players, options): speed for name, players, options, speed in json.loads(done.stdout)}


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("old", type=Path)
    parser.add_argument("new", type=Path)
    parser.add_argument("games", nargs="*")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--seconds", type=float, default=2.0)
    parser.add_argument("--json", type=Path, help="also write the rows to this file")
    parser.add_argument(
        "--cpu", action="store_true", help="time with each process's CPU time (busy machines)"
    )
    parser.add_argument(
        "--search", action="store_true", help="MCTS iterations per second instead of random games"
    )
    args = parser.parse_args()
    old_runs: list[dict] = []
    new_runs: list[dict] = []
    for number in range(args.rounds):
        order = [("old", args.old), ("new", args.new)]
        if number % 2:
            order.reverse()
        for side, src in order:
            clock = "cpu" if args.cpu else "wall"
            result = measure(src, args.games, args.seconds, clock, args.search)
            (old_runs if side == "old" else new_runs).append(result)
        print(f"round {number + 1} of {args.rounds} done", file=sys.stderr, flush=True)
    rows = []
    print(f"{'game':14s} {'p':>2s} {'options':34s} {'old/s':>9s} {'new/s':>9s} {'ratio':>6s} {'range':>13s}")
    for key in old_runs[0]:
        if not all(key in run for run in new_runs):
            continue
        olds = [run[key] for run in old_runs]
        news = [run[key] for run in new_runs]
        ratios = [n / o for n, o in zip(news, olds, strict=True)]
        row = {
            "game": key[0],
            "players": key[1],
            "options": json.loads(key[2]),
            "old": statistics.median(olds),
            "new": statistics.median(news),
            "ratio": statistics.median(ratios),
            "low": min(ratios),
            "high": max(ratios),
        }
        rows.append(row)
        print(
            f"{key[0]:14s} {key[1]:2d} {key[2][:34]:34s} {row['old']:9.1f} {row['new']:9.1f} "
            f"{row['ratio']:6.3f} {row['low']:6.3f}-{row['high']:.3f}"
        )
    if args.json:
        args.json.write_text(json.dumps(rows, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
