"""The strength table of docs/bots.md: 1,000-game two-player arena runs of each game's strongest bot.

    .venv/bin/python benchmarks/strength.py [--workers 2] [--out runs/strength] [--only GAME ...]
    make strength

Every pairing is an ordinary arena job (the same as ``tabletown arena GAME --bot A --bot B --games N
--seed S``), written to ``OUT/<game>-<a>-<b>/`` and therefore resumable: interrupt it and run it again.
At the end a Markdown table (``OUT/strength.md``) lists each pairing's win rate, 95% Wilson interval,
the target from issue 6 and whether the point estimate meets it.
"""

from __future__ import annotations

import argparse
import sys
from dataclasses import dataclass
from pathlib import Path

from tabletown.arena.api import run_arena
from tabletown.arena.runner import Job
from tabletown.arena.stats import summarize
from tabletown.core.registry import get_game


@dataclass(frozen=True)
class Pairing:
    game: str
    bots: tuple[str, str]
    seed: int
    target: float
    games: int = 1000


# Each game's strongest bot (docs/bots.md says how that was decided).
STRONGEST = {"machikoro": "expert", "lordsofvegas": "expert", "newlasvegas": "expert", "multicity": "expert"}
# The fixed strategy that both the greedy and the expert bot beat least often (docs/games/machikoro.md).
BEST_FIXED_STRATEGY = "strategy:bakery"
# Seeds are base + 26 (greedy), + 27 (random), + 30 (strategy). A bot measured again after a change is
# measured on new seeds (Machi Koro's second expert and Lords of Vegas' size-aware expert: 3026...),
# never on ones it has already been shown.
SEED_BASE = {"machikoro": 3000, "lordsofvegas": 3000}


def pairings() -> list[Pairing]:
    """Issue 6's pairings: the strongest bot against random (95%) and greedy (65%) in every game, and in
    Machi Koro against the best fixed strategy (60%). Seeds were fixed before the runs and never used
    while the bots were tuned (tuning used seeds below 1,000)."""
    plan: list[Pairing] = []
    for game, strongest in STRONGEST.items():
        base = SEED_BASE.get(game, 2000)
        plan.append(Pairing(game, (strongest, "greedy"), base + 26, 0.65))
        plan.append(Pairing(game, (strongest, "random"), base + 27, 0.95))
    base = SEED_BASE.get("machikoro", 2000)
    plan.append(Pairing("machikoro", (STRONGEST["machikoro"], BEST_FIXED_STRATEGY), base + 30, 0.60))
    return plan


def folder_name(pairing: Pairing) -> str:
    return f"{pairing.game}-{pairing.bots[0]}-{pairing.bots[1]}-{pairing.seed}".replace(":", "_")


def run(pairing: Pairing, out: Path, workers: int, games: int | None) -> dict:
    game = get_game(pairing.game)
    job = Job(game.name, pairing.bots, games or pairing.games, pairing.seed, {})
    lines = run_arena(game, job, out / folder_name(pairing), workers)
    summary = summarize(job.bots, lines)
    return summary["bots"][0] | {"games_played": summary["games"]}


def row(pairing: Pairing, result: dict) -> str:
    low, high = result["ci95"]
    verdict = "yes" if result["win_rate"] >= pairing.target else "**no**"
    command = (
        f"`tabletown arena {pairing.game} --bot {pairing.bots[0]} --bot {pairing.bots[1]} "
        f"--games {result['games_played']} --seed {pairing.seed}`"
    )
    return (
        f"| {pairing.game} | {pairing.bots[0]} vs {pairing.bots[1]} | {result['games_played']:,} | "
        f"{result['win_rate']:.1%} | {low:.1%}–{high:.1%} | {pairing.target:.0%} | {verdict} | "
        f"{result['longest_decision_s']:.2f} s | {command} |"
    )


HEADER = (
    "| game | pairing | games | win rate | 95% CI | target | met | slowest move | reproduce with |\n"
    "| --- | --- | --- | --- | --- | --- | --- | --- | --- |"
)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--out", type=Path, default=Path("runs/strength"))
    parser.add_argument("--only", nargs="*", help="games to run (default: all)")
    parser.add_argument("--games", type=int, help="override the game count (quick looks; not the issue's)")
    args = parser.parse_args(argv)
    rows = []
    for pairing in pairings():
        if args.only and pairing.game not in args.only:
            continue
        result = run(pairing, args.out, args.workers, args.games)
        rows.append(row(pairing, result))
        print(rows[-1], flush=True)
    table = HEADER + "\n" + "\n".join(rows) + "\n"
    args.out.mkdir(parents=True, exist_ok=True)
    (args.out / "strength.md").write_text(table, encoding="utf-8")
    print("\n" + table)
    return 0


if __name__ == "__main__":
    sys.exit(main())
