"""How the ACME architect cards 4-13 are made: our design, one difficulty dial per card.

Card 1 is the card decoded from the Polish rulebook's solo example and is kept as it is. Every other
card is card 1 with ACME's chain one longer (crane modifier -3 instead of -4, ``CRANES``) plus the
first ``level`` steps of one fixed cycle of small raises (``STEPS``): one column's base and upgraded
values +1, or every upgrade threshold -1. A cycle raises every column by 1 and the thresholds by 2,
so a higher level is never easier in any column. The crane is a separate, coarse lever: one more
casino in ACME's chain in all four streets decides whether the player's chains beat ACME's, and
measured with the solo expert that single step is worth 20-33 points of win rate, more than a
whole cycle of values. Each card also has its own approval schedule (``APPROVALS``): like card 1, ACME
completes one project and builds four grand hotels, but on harder cards the project comes with an
earlier approval and the hotels stand on other avenues (more projects and hotels were too coarse
a step; measured while designing, docs/games/newlasvegas.md).

The levels in ``LEVELS`` were found by a search (docs/games/newlasvegas.md): record expert games
against each card's approval schedule, re-score ACME's pile under every level (the pile, the player's
sheet and ACME's approvals fix both totals exactly) and take the level whose win rate is nearest the
card's target. Then fresh games against the written cards check the result.

    python -m tabletown.games.newlasvegas.solo_design record --cards 4,7,10,13 --seeds 0:200 --out g.jsonl
    python -m tabletown.games.newlasvegas.solo_design search g.jsonl

``cards.json`` holds the resulting values (``tests/games/newlasvegas/test_solo_design.py`` checks
they are ``card_at(number)``).
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from .data import ARCHITECTS, CARD_EFFECT

COLUMNS = ("opening", "show", "hotel", "street", "golf", "limousine")

# One cycle of raises; level L applies the first L steps (the cycle repeats).
STEPS: tuple[tuple[str, str], ...] = (
    ("value", "show"),
    ("value", "limousine"),
    ("threshold", ""),
    ("value", "opening"),
    ("value", "golf"),
    ("threshold", ""),
    ("value", "hotel"),
    ("value", "street"),
)

# (ACME completes the project?, avenues of its grand hotels) for its 1st, 2nd and 3rd approval.
APPROVALS: dict[int, tuple[tuple[bool, tuple[int, ...]], ...]] = {
    1: ((False, (6,)), (False, (7,)), (True, (8, 9))),
    4: ((False, (5,)), (True, (6,)), (False, (7, 8))),
    7: ((True, (4,)), (False, (5,)), (False, (8, 9))),
    10: ((True, (3,)), (False, (4, 5)), (False, (9,))),
    13: ((True, (2, 3)), (False, (4,)), (False, (10,))),
}

# Win-rate targets of the expert bot (issue 19) and the levels the search chose.
TARGETS = {1: 0.85, 4: 0.70, 7: 0.55, 10: 0.40, 13: 0.25}
LEVELS = {1: 0, 4: 3, 7: 5, 10: 9, 13: 10}
# ACME's crane modifier: its chain in every street is max(1, construction cards + crane).
CRANES = {1: -4, 4: -3, 7: -3, 10: -3, 13: -3}


def card_at(number: int, level: int | None = None) -> dict[str, Any]:
    """Architect card ``number`` at ``level`` (default: its chosen level) in ``cards.json``'s shape."""
    level = LEVELS[number] if level is None else level
    base = [2, 3, 4, 2, 2, 2]  # card 1, decoded from the rulebook
    gap = [1, 1, 2, 1, 1, 1]  # upgraded - base on card 1
    thresholds = [7, 8, 9, 10, 11, 12]
    for k in range(level):
        kind, column = STEPS[k % len(STEPS)]
        if kind == "value":
            base[COLUMNS.index(column)] += 1
        else:
            thresholds = [max(1, t - 1) for t in thresholds]
    return {
        "number": number,
        "approvals": [{"project": p, "hotels": list(h)} for p, h in APPROVALS[number]],
        "base": base,
        "upgraded": [b + g for b, g in zip(base, gap, strict=True)],
        "thresholds": thresholds,
        "crane": CRANES[number],
    }


# -- recording and re-scoring games ----------------------------------------------------------------


def _play(job: tuple[int, int, int, str]) -> dict[str, Any]:
    """One solo game of ``bot`` against card ``number`` at ``level``; what re-scoring needs."""
    from ...bots import make_bot
    from ...core.registry import get_game
    from ...core.rng import derive_seed
    from ...core.session import bot_agent, play_out
    from .state import NewLasVegasState

    number, level, seed, bot = job
    ARCHITECTS[number] = card_at(number, level)  # this worker's copy of the table
    game = get_game("newlasvegas")
    state = game.new_game(1, {"architect": number}, seed)
    assert isinstance(state, NewLasVegasState)
    bot_seed = derive_seed(seed, 0, f"bot:{bot}")  # as the arena seeds seat 0
    began = time.perf_counter()
    play_out(state, [bot_agent(make_bot(game, bot, bot_seed), bot_seed)])
    final = state.final
    result = state.result()
    assert final is not None and result is not None
    sheet = state.sheets[0]
    return {
        "card": number,
        "level": level,
        "seed": seed,
        "win": result.ranks[0] == 1,
        "total": final["players"][0]["total"],
        "columns": final["players"][0]["columns"],
        "acme": final["acme"]["total"],
        "acme_columns": final["acme"]["columns"],
        "pile": [CARD_EFFECT[c] for c in state.acme_pile],
        "acme_hotels": bin(state.acme_hotels).count("1"),
        "acme_projects": list(state.acme_proj),
        "loan": bool(state.loans[0]),
        "loan_card": final["loan_card"],
        "golf": state.golf,
        "bank_rule": state.bank_rule,
        "rounds": state.round_no,
        "sheet": {name: getattr(sheet, name) for name in type(sheet).__slots__},
        "seconds": round(time.perf_counter() - began, 3),
    }


def record(cards: Sequence[int], seeds: range, out: str, workers: int = 2, bot: str = "expert") -> None:
    import multiprocessing

    jobs = [(c, LEVELS[c], s, bot) for c in cards for s in seeds]
    with open(out, "a", encoding="utf-8") as fh, multiprocessing.get_context("fork").Pool(workers) as pool:
        for line in pool.imap_unordered(_play, jobs, chunksize=2):
            fh.write(json.dumps(line) + "\n")
            fh.flush()


def rescore(line: dict[str, Any], level: int) -> tuple[bool, int]:
    """(win, margin) of a recorded game had ACME's card been at ``level`` (same approvals)."""
    from .scoring import score_solo
    from .sheet import Sheet

    sheet = Sheet.__new__(Sheet)
    for name, value in line["sheet"].items():
        setattr(sheet, name, value)
    number = line["card"]
    saved = ARCHITECTS[number]
    ARCHITECTS[number] = card_at(number, level)
    try:
        mine, acme = score_solo(
            sheet,
            line["loan"],
            number,
            line["pile"],
            line["acme_hotels"],
            line["acme_projects"],
            line["loan_card"],
            line["golf"],
            line["bank_rule"],
        )
    finally:
        ARCHITECTS[number] = saved
    grands, smalls = sheet.hotel_counts()
    hotels = line["acme_hotels"]
    win = (mine["total"], grands + smalls, grands) >= (acme["total"], hotels, hotels)
    return win, mine["total"] - acme["total"]


def wilson(wins: float, games: int, z: float = 1.96) -> tuple[float, float]:
    p = wins / games
    d = 1 + z * z / games
    centre = (p + z * z / (2 * games)) / d
    half = z * math.sqrt(p * (1 - p) / games + z * z / (4 * games * games)) / d
    return centre - half, centre + half


def search(lines: Sequence[dict[str, Any]], max_level: int = 27) -> dict[int, int]:
    """For each card, the level whose re-scored win rate is nearest its target (ties: lower level)."""
    chosen: dict[int, int] = {}
    for number in sorted({line["card"] for line in lines}):
        games = [line for line in lines if line["card"] == number]
        target = TARGETS[number]
        rows = []
        for level in range(max_level + 1):
            scored = [rescore(line, level) for line in games]
            rate = sum(w for w, _ in scored) / len(scored)
            rows.append((abs(rate - target), level, rate, sum(m for _, m in scored) / len(scored)))
        best = min(rows)
        chosen[number] = best[1]
        print(
            f"card {number} ({len(games)} games, played at level {games[0]['level']}), target {target:.0%}:"
        )
        for _, level, rate, margin in rows:
            mark = " <" if level == best[1] else ""
            print(f"  level {level:2d}: win {rate:6.1%}  margin {margin:+6.1f}{mark}")
    return chosen


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m tabletown.games.newlasvegas.solo_design")
    sub = parser.add_subparsers(dest="command", required=True)
    rec = sub.add_parser("record", help="play expert games against cards at their current levels")
    rec.add_argument("--cards", default="1,4,7,10,13")
    rec.add_argument("--seeds", default="0:200", help="FIRST:END")
    rec.add_argument("--out", required=True)
    rec.add_argument("--workers", type=int, default=2)
    rec.add_argument("--bot", default="expert")
    find = sub.add_parser("search", help="re-score recorded games at every level")
    find.add_argument("files", nargs="+")
    args = parser.parse_args(argv)
    if args.command == "record":
        first, end = (int(x) for x in args.seeds.split(":"))
        record([int(c) for c in args.cards.split(",")], range(first, end), args.out, args.workers, args.bot)
    else:
        lines = [
            json.loads(text)
            for name in args.files
            for text in Path(name).read_text(encoding="utf-8").splitlines()
        ]
        print(json.dumps(search(lines)))


if __name__ == "__main__":
    main(sys.argv[1:])
