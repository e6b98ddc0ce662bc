"""The baseline file: each benchmark figure of a previous release, printed beside today's.

``benchmarks/baseline.json`` is a JSON list with one row per line, one row per game and set-up:
``{"game": ..., "players": ..., "options": {...}, "games_per_second": ...}`` for random play and
``{"game": ..., "search": "mcts", "iterations_per_second": ...}`` for the search benchmark. Writing
(``run.py GAME --write-baseline``) replaces only the rows measured, so each game's figures can be
refreshed on their own.

Figures: the code before issue 21 (commit c8638be), measured by ``benchmarks/ab.py --cpu`` (and
``--search``) in the run that closed the issue: the median over 5 alternated rounds of games (or
search iterations) per CPU second, 2 s per set-up (4 s of search per game). ``make bench`` times the
wall clock, so on a busy machine today's figures read low against these.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

BASELINE = Path(__file__).with_name("baseline.json")


def row_key(row: dict[str, Any]) -> tuple:
    if "search" in row:
        return (row["game"], row["search"])
    return (row["game"], row["players"], json.dumps(row["options"], sort_keys=True))


def load(path: Path = BASELINE) -> dict[tuple, dict[str, Any]]:
    """The baseline rows by key; empty when there is no baseline file."""
    if not path.exists():
        return {}
    return {row_key(row): row for row in json.loads(path.read_text())}


def beside(figure: float, previous: float | None) -> str:
    """Today's figure against the baseline's: "was 1578.3 (1.52x)", or nothing without one."""
    if not previous:
        return ""
    return f"  was {previous:9.1f} ({figure / previous:.2f}x)"


def write(rows: list[dict[str, Any]], path: Path = BASELINE) -> None:
    """Replace the rows for the same game and set-up as ``rows``; keep every other row."""
    keys = {row_key(row) for row in rows}
    kept = [row for key, row in load(path).items() if key not in keys]
    lines = [json.dumps(row, sort_keys=True) for row in kept + rows]
    path.write_text("[\n" + ",\n".join(lines) + "\n]\n")
