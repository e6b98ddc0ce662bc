"""Round robin: every pair of bots plays a two-player job; the results form a win-rate matrix.

Each pairing is an ordinary arena job (seats rotate, deals are shared) in its own sub-folder of
``--out`` named after the two bots, so a round robin resumes pairing by pairing like any job. The
matrix cell (row A, column B) is A's share of first places against B, with its Wilson interval.
"""

from __future__ import annotations

import csv
import importlib.util
import json
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from ..core.game import Game
from ..core.rng import derive_seed
from .api import run_arena
from .runner import Job
from .stats import summarize, wilson

Pairing = tuple[str, str]


def pairings(bots: Sequence[str]) -> list[Pairing]:
    """Every unordered pair of distinct bots, in the order the bots were given."""
    return [(a, b) for i, a in enumerate(bots) for b in bots[i + 1 :]]


def folder_name(pair: Pairing) -> str:
    return "__".join(name.replace(":", "-").replace("/", "-") for name in pair)


def run_round_robin(
    game: Game,
    bots: Sequence[str],
    games: int,
    seed: int,
    options: dict[str, Any],
    out: Path | None,
    workers: int = 1,
    backend: str = "process",
    on_pairing: Callable[[Pairing, int, int], None] | None = None,
    **arena_args: Any,
) -> dict[str, Any]:
    """Play every pairing (``games`` games each); returns the matrix as data."""
    if len(set(bots)) != len(bots) or len(bots) < 2:
        raise ValueError("a round robin needs at least two different bots")
    cells: dict[Pairing, dict[str, Any]] = {}
    for number, pair in enumerate(pairings(bots)):
        if on_pairing is not None:
            on_pairing(pair, number, len(pairings(bots)))
        job = Job(game.name, pair, games, derive_seed(seed, "round-robin", *pair), options)
        folder = out / folder_name(pair) if out is not None else None
        lines = run_arena(game, job, folder, workers, backend, **arena_args)
        summary = summarize(pair, lines)
        first, second = summary["bots"]
        cells[pair] = {"games": summary["games"], "wins": first["wins"], "losses": second["wins"]}
    return matrix(bots, cells)


def matrix(bots: Sequence[str], cells: dict[Pairing, dict[str, Any]]) -> dict[str, Any]:
    """Rows and columns in the given bot order; each cell the row bot's share against the column bot."""
    rows = []
    for a in bots:
        row: list[dict[str, Any] | None] = []
        for b in bots:
            if a == b:
                row.append(None)
                continue
            cell = cells.get((a, b))
            wins = cell["wins"] if cell else None
            if cell is None:
                cell = cells[(b, a)]
                wins = cell["losses"]
            rate = wins / cell["games"] if cell["games"] else 0.0
            low, high = wilson(wins, cell["games"])  # type: ignore[arg-type]  # wins: from one of the two cells
            row.append({"games": cell["games"], "wins": wins, "win_rate": rate, "ci95": [low, high]})
        rows.append(row)
    overall = []
    for a, row in zip(bots, rows, strict=True):
        played = [cell for cell in row if cell is not None]
        total = sum(cell["games"] for cell in played)
        overall.append({"bot": a, "games": total, "win_rate": sum(cell["wins"] for cell in played) / total})
    return {"bots": list(bots), "cells": rows, "overall": overall}


def write_matrix(folder: Path, title: str, table: dict[str, Any]) -> list[Path]:
    """matrix.csv, matrix.json and matrix.png (a heat map; only with matplotlib, the research extra)
    into ``folder``."""
    folder.mkdir(parents=True, exist_ok=True)
    bots = table["bots"]
    csv_path = folder / "matrix.csv"
    with csv_path.open("w", newline="", encoding="utf-8") as handle:
        writer = csv.writer(handle)
        writer.writerow(["row vs column", *bots, "overall"])
        for bot, row, overall in zip(bots, table["cells"], table["overall"], strict=True):
            cells = ["" if cell is None else f"{cell['win_rate']:.4f}" for cell in row]
            writer.writerow([bot, *cells, f"{overall['win_rate']:.4f}"])
    json_path = folder / "matrix.json"
    json_path.write_text(json.dumps(table, indent=1) + "\n", encoding="utf-8")
    if importlib.util.find_spec("matplotlib") is None:  # a play-only install: no charts
        return [csv_path, json_path]
    png_path = folder / "matrix.png"
    _heat_map(png_path, title, table)
    return [csv_path, json_path, png_path]


def _heat_map(path: Path, title: str, table: dict[str, Any]) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    bots = table["bots"]
    size = len(bots)
    values = [[float("nan") if cell is None else cell["win_rate"] for cell in row] for row in table["cells"]]
    figure, axis = plt.subplots(figsize=(1.2 * size + 3, 1.0 * size + 2))
    image = axis.imshow(values, cmap="RdYlGn", vmin=0.0, vmax=1.0)
    axis.set_xticks(range(size), bots, rotation=35, ha="right")
    axis.set_yticks(range(size), bots)
    for i in range(size):
        for j in range(size):
            if values[i][j] == values[i][j]:  # not NaN
                axis.text(j, i, f"{values[i][j]:.0%}", ha="center", va="center", fontsize=9)
    axis.set_title(f"{title}: row's win rate against column")
    figure.colorbar(image, ax=axis, fraction=0.046)
    figure.tight_layout()
    figure.savefig(path, dpi=110)
    plt.close(figure)
