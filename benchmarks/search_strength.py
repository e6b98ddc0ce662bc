"""``bot:search`` against each game's expert (issue 29): run the arena jobs, or summarize their folders.

    nice -n 19 .venv/bin/python benchmarks/search_strength.py run --games 100 [--only GAME ...] [--out DIR]
    .venv/bin/python benchmarks/search_strength.py summary DIR/machikoro-search-hard [...]

``run`` plays ``tabletown arena GAME --bot search:hard --bot expert --games N --seed S --workers 1``
for each game (S from ``SEEDS``) into ``OUT/<game>-search-hard`` (resumable like any arena folder). ``summary`` reads one
or more such folders (``games.jsonl``) and prints, per folder, the search bot's games, win rate with
its 95% Wilson interval, its longest single decision and how many of its decisions hit the time cap.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

from tabletown.arena.stats import wilson

GAMES = ("machikoro", "multicity", "lordsofvegas", "newlasvegas")
# Lords of Vegas' run was restarted on a new seed after its search settings changed (docs/bots.md).
SEEDS = {"machikoro": 29001, "multicity": 29001, "lordsofvegas": 29002, "newlasvegas": 29001}


def summary(folder: Path, bot: str = "search:hard") -> dict[str, Any]:
    lines = [json.loads(line) for line in (folder / "games.jsonl").read_text().splitlines() if line.strip()]
    wins = 0.0
    longest = 0.0
    capped = 0
    think = 0.0
    for line in lines:
        seat = line["seats"].index(bot)
        winners = line["result"]["winners"]
        wins += 1.0 / len(winners) if seat in winners else 0.0
        longest = max(longest, line["timing"]["longest_decision"][seat])
        capped += line["timing"].get("capped", [0] * len(line["seats"]))[seat]
        think += line["timing"]["think"][seat]
    low, high = wilson(wins, len(lines))
    return {
        "folder": str(folder),
        "games": len(lines),
        "wins": wins,
        "rate": wins / len(lines) if lines else 0.0,
        "ci": (low, high),
        "longest_decision": longest,
        "capped_decisions": capped,
        "think_per_game": think / len(lines) if lines else 0.0,
    }


def print_summary(row: dict[str, Any]) -> None:
    low, high = row["ci"]
    print(
        f"{row['folder']}: {row['games']} games, win rate {row['rate']:.1%} "
        f"(95% CI {low:.1%}-{high:.1%}), longest decision {row['longest_decision']:.2f} s, "
        f"capped decisions {row['capped_decisions']}, thinking {row['think_per_game']:.1f} s a game"
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    sub = parser.add_subparsers(dest="command", required=True)
    run = sub.add_parser("run")
    run.add_argument("--games", type=int, default=100)
    run.add_argument("--only", nargs="*", default=list(GAMES))
    run.add_argument("--out", type=Path, default=Path("runs/search-strength"))
    run.add_argument("--seed", type=int, default=None, help="one seed for every game (default: SEEDS)")
    show = sub.add_parser("summary")
    show.add_argument("folders", nargs="+", type=Path)
    args = parser.parse_args(argv)
    if args.command == "summary":
        for folder in args.folders:
            print_summary(summary(folder))
        return 0
    tabletown = str(Path(sys.executable).with_name("tabletown"))
    for game in args.only:
        folder = args.out / f"{game}-search-hard"
        command = [
            *("nice", "-n", "19", tabletown, "arena", game),
            *("--bot", "search:hard", "--bot", "expert"),
            *(
                "--games",
                str(args.games),
                "--seed",
                str(args.seed if args.seed is not None else SEEDS[game]),
                "--workers",
                "1",
            ),
            *("--out", str(folder), "--no-progress"),
        ]
        subprocess.run(command, check=True)
        print_summary(summary(folder))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
