"""Instructions, not seconds: the rules' cost counted by valgrind's callgrind, the one speed measure
that repeats on a shared machine (wall-clock and CPU-time A/B runs swing by 15% here).

    .venv/bin/python benchmarks/instructions.py [GAME ...] [--games 12] [--old OLD_SRC]

For each game it plays ``--games`` seeded random games per bench configuration under
``valgrind --tool=callgrind`` and subtracts the same run with no games (the interpreter starting and
importing everything), so what remains is the rules' own work. With ``--old`` (a checkout's ``src``,
e.g. from ``git worktree add /tmp/base HEAD~5``) both trees are counted and the table gives the
ratio old/new: above 1 means the new code does the same games with fewer instructions. Counts
repeat exactly for the same code, inputs and Python; they are a proxy for time, not time itself.
Needs valgrind (every machine kind here has it); without it the script says so and exits 0.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

WORKLOAD = """
import random, sys
from tabletown.core.registry import get_game
game = get_game(sys.argv[1])
for players, options in game.bench_configs:
    for seed in range(int(sys.argv[2])):
        state = game.new_game(players, dict(options), seed)
        rng = random.Random(seed)
        while not state.is_over:
            seat = state.to_act[0]
            state.apply(seat, rng.choice(state.legal_actions(seat)))
"""
HERE = Path(__file__).resolve().parents[1]


def count(src: Path, game: str, games: int) -> int:
    """Instructions of ``games`` seeded games per configuration of ``game`` with the code in ``src``."""
    env = dict(os.environ, PYTHONPATH=str(src))
    done = subprocess.run(
        [
            "valgrind",
            "--tool=callgrind",
            "--callgrind-out-file=/dev/null",
            sys.executable,
            "-c",
            WORKLOAD,
            game,
            str(games),
        ],
        env=env,
        capture_output=True,
        text=True,
        check=True,
    )
    found = re.search(r"Collected : (\d+)", done.stderr)
    if found is None:
        raise RuntimeError(f"callgrind printed no count:\n{done.stderr[-2000:]}")
    return int(found.group(1))


def rules_cost(src: Path, game: str, games: int) -> int:
    return count(src, game, games) - count(src, game, 0)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("games_names", nargs="*", metavar="GAME")
    parser.add_argument("--games", type=int, default=12, help="seeded games per bench configuration")
    parser.add_argument("--old", type=Path, help="another tree's src to compare with")
    args = parser.parse_args()
    if shutil.which("valgrind") is None:
        print("instructions: valgrind is not installed; nothing counted")
        return 0
    sys.path.insert(0, str(HERE / "src"))
    from tabletown.core.registry import all_games

    names = args.games_names or sorted(all_games())
    print(f"{'game':14s} {'instructions':>14s}" + (f" {'old':>14s} {'old/new':>8s}" if args.old else ""))
    for name in names:
        new = rules_cost(HERE / "src", name, args.games)
        line = f"{name:14s} {new / 1e6:13.1f}M"
        if args.old:
            old = rules_cost(args.old, name, args.games)
            line += f" {old / 1e6:13.1f}M {old / new:8.3f}"
        print(line, flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
