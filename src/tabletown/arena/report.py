"""Showing an arena summary: a Rich table, a CSV and JSON summary, and PNG charts."""

from __future__ import annotations

import csv
import json
from pathlib import Path
from typing import Any

from rich.table import Table

SUMMARY_CSV = "summary.csv"
SUMMARY_JSON = "summary.json"
WINRATE_PNG = "win_rates.png"
LENGTH_PNG = "game_lengths.png"


def _pct(value: float) -> str:
    return f"{100 * value:.1f}%"


def tables(title: str, summary: dict[str, Any]) -> list[Table]:
    bots = Table(title=f"{title}: {summary['games']} games")
    bots.add_column("bot", no_wrap=True)
    for column in ("games", "win rate", "95% CI", "rating", "score", "rank", "slowest"):
        bots.add_column(column, justify="right", no_wrap=True)
    for row in summary["bots"]:
        low, high = row["ci95"]
        bots.add_row(
            row["bot"],
            str(row["games"]),
            _pct(row["win_rate"]),
            f"{_pct(low)}–{_pct(high)}",
            f"{row['rating']:.1f}",
            f"{row['avg_score']:.1f}",
            f"{row['avg_rank']:.2f}",
            f"{row['longest_decision_s']:.2f}s",
        )
    bots.caption = "rating: openskill mu-3σ (mu, σ in summary.csv); score, rank: averages; slowest: longest single decision"
    seats = Table(title="by seat (any bot)")
    for column in ("seat", "games", "win rate", "95% CI"):
        seats.add_column(column, justify="right")
    for row in summary["seats"]:
        low, high = row["ci95"]
        seats.add_row(str(row["seat"]), str(row["games"]), _pct(row["win_rate"]), f"{_pct(low)}–{_pct(high)}")
    length = summary["length"]
    seats.caption = (
        f"game length (actions): mean {length['mean']:.1f}, median {length['median']:g}, "
        f"min {length['min']}, max {length['max']}"
    )
    return [bots, seats]


CSV_COLUMNS = (
    "kind",
    "name",
    "games",
    "wins",
    "win_rate",
    "ci_low",
    "ci_high",
    "rating",
    "rating_mu",
    "rating_sigma",
    "avg_score",
    "avg_rank",
    "longest_decision_s",
    "capped_decisions",
)


def write_summary(folder: Path, summary: dict[str, Any]) -> None:
    (folder / SUMMARY_JSON).write_text(json.dumps(summary, indent=1) + "\n", encoding="utf-8")
    with (folder / SUMMARY_CSV).open("w", newline="", encoding="utf-8") as handle:
        writer = csv.writer(handle)
        writer.writerow(CSV_COLUMNS)

        def write(*cells: object) -> None:
            # Seat and length rows have fewer figures: pad them to the header's width.
            writer.writerow([*cells, *[""] * (len(CSV_COLUMNS) - len(cells))])

        for row in summary["bots"]:
            write(
                "bot",
                row["bot"],
                row["games"],
                row["wins"],
                *_rate_cells(row),
                *(
                    f"{row[key]:.3f}"
                    for key in ("rating", "rating_mu", "rating_sigma", "avg_score", "avg_rank")
                ),
                f"{row['longest_decision_s']:.3f}",
                row["capped_decisions"],
            )
        for row in summary["seats"]:
            write("seat", row["seat"], row["games"], row["wins"], *_rate_cells(row))
        length = summary["length"]
        write(
            "length", "actions", summary["games"], "", f"{length['mean']:.2f}", length["min"], length["max"]
        )


def _rate_cells(row: dict[str, Any]) -> list[str]:
    return [f"{row['win_rate']:.4f}", f"{row['ci95'][0]:.4f}", f"{row['ci95'][1]:.4f}"]


def write_plots(folder: Path, title: str, summary: dict[str, Any], lengths: list[int]) -> list[Path]:
    """Win rates with their 95% intervals (per bot and per seat) and a game-length histogram."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    folder.mkdir(parents=True, exist_ok=True)
    figure, (by_bot, by_seat) = plt.subplots(1, 2, figsize=(11, 4.5), gridspec_kw={"width_ratios": [2, 1]})
    _bars(by_bot, [r["bot"] for r in summary["bots"]], summary["bots"], "win rate by bot")
    _bars(by_seat, [f"seat {r['seat']}" for r in summary["seats"]], summary["seats"], "win rate by seat")
    figure.suptitle(f"{title} — {summary['games']} games (bars: 95% Wilson intervals)")
    figure.tight_layout()
    winrates = folder / WINRATE_PNG
    figure.savefig(winrates, dpi=110)
    plt.close(figure)

    figure, axis = plt.subplots(figsize=(7, 4.5))
    axis.hist(lengths, bins=min(40, max(5, len(set(lengths)))), color="#4c72b0")
    axis.set_xlabel("actions per game")
    axis.set_ylabel("games")
    axis.set_title(f"{title} — game length")
    figure.tight_layout()
    histogram = folder / LENGTH_PNG
    figure.savefig(histogram, dpi=110)
    plt.close(figure)
    return [winrates, histogram]


def _bars(axis: Any, names: list[str], rows: list[dict[str, Any]], title: str) -> None:
    rates = [r["win_rate"] for r in rows]
    low = [r["win_rate"] - r["ci95"][0] for r in rows]
    high = [r["ci95"][1] - r["win_rate"] for r in rows]
    axis.bar(names, rates, yerr=[low, high], capsize=6, color="#55a868")
    axis.set_ylim(0, 1)
    axis.axhline(1 / max(1, len(rows)), color="grey", linestyle="--", linewidth=1)
    axis.set_ylabel("win rate")
    axis.set_title(title)
    axis.tick_params(axis="x", rotation=20)
