"""The study's charts (matplotlib, Agg backend): each is written as ``images/<name>.png`` and returned
as SVG text for the self-contained report."""

from __future__ import annotations

import io
from collections import defaultdict
from collections.abc import Sequence
from pathlib import Path
from typing import Any

Row = dict[str, Any]


def _plt() -> Any:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    plt.rcParams["svg.hashsalt"] = "tabletown-study"
    plt.rcParams["font.size"] = 9
    return plt


def _save(fig: Any, folder: Path, name: str) -> str:
    folder.mkdir(parents=True, exist_ok=True)
    fig.savefig(folder / f"{name}.png", dpi=110, bbox_inches="tight", metadata={"Software": None})
    buffer = io.StringIO()
    fig.savefig(buffer, format="svg", bbox_inches="tight", metadata={"Date": None, "Creator": None})
    _plt().close(fig)
    text = buffer.getvalue()
    return text[text.index("<svg") :]


def _rows_chart(count: int) -> tuple[Any, Any, list[int]]:
    """A figure with a line for each of ``count`` rows: the figure, its axes, each row's height (top first)."""
    fig, ax = _plt().subplots(figsize=(7.5, 0.9 + 0.22 * count))
    return fig, ax, list(range(count))[::-1]


def _intervals(ax: Any, rows: Sequence[Row], ys: list[int], value: str, low: str, high: str) -> None:
    """Each row's ``value`` as a point at its ``ys`` height, with its interval from ``low`` to ``high``."""
    errors = [[r[value] - r[low] for r in rows], [r[high] - r[value] for r in rows]]
    ax.errorbar([r[value] for r in rows], ys, xerr=errors, fmt="o", ms=3, capsize=2)


def seat_plot(seats: Sequence[Row], folder: Path) -> str:
    labels = [f"{r['players']}p {r['lineup']} [{r['options']}] seat {r['seat']}" for r in seats]
    fig, ax, ys = _rows_chart(len(seats))
    _intervals(ax, seats, ys, "win_rate", "ci_low", "ci_high")
    ax.scatter([r["fair"] for r in seats], ys, marker="|", color="red", s=60, label="fair share")
    ax.set_yticks(ys, labels, fontsize=7)
    ax.set_xlabel("win rate (95% Wilson interval)")
    ax.set_title("Seat advantage")
    ax.legend(loc="lower right", fontsize=7)
    return _save(fig, folder, "seat_advantage")


def length_plot(rows: Sequence[Row], folder: Path) -> str:
    """Box plots of game length in turns, per set-up (``rows``: the games table)."""
    plt = _plt()
    groups: dict[str, list[int]] = defaultdict(list)
    for row in rows:
        groups[f"{row['players']}p {row['bots'].split('|')[0]}.. [{row['options']}]"].append(row["turns"])
    names = list(groups)
    fig, ax = plt.subplots(figsize=(7.5, 0.9 + 0.3 * len(names)))
    data = [groups[n] for n in names][::-1]
    try:
        ax.boxplot(data, orientation="horizontal", showfliers=False)
    except TypeError:  # matplotlib before 3.10
        ax.boxplot(data, vert=False, showfliers=False)
    ax.set_yticks(range(1, len(names) + 1), names[::-1], fontsize=7)
    ax.set_xlabel("turns (box: quartiles; whiskers: 1.5 IQR)")
    ax.set_title("Game length")
    return _save(fig, folder, "lengths")


def trajectory_plot(rows: Sequence[Row], folder: Path, limit: int = 6) -> str:
    plt = _plt()
    configs: dict[str, list[Row]] = defaultdict(list)
    for row in rows:
        configs[row["config"]].append(row)
    chosen = [c for c in configs if configs[c][0]["options"] == "default"][:limit] or list(configs)[:limit]
    cols = min(3, len(chosen))
    lines = (len(chosen) + cols - 1) // cols
    fig, axes = plt.subplots(lines, cols, figsize=(3.2 * cols, 2.6 * lines), squeeze=False)
    for ax in axes.flat[len(chosen) :]:
        ax.axis("off")
    for ax, config in zip(axes.flat, chosen, strict=False):
        data = configs[config]
        track = data[0]["track"]
        points = [r for r in data if r["track"] == track]
        xs = [10 * r["point"] for r in points]
        ax.plot(xs, [r["winners"] for r in points], label="winners")
        ax.plot(xs, [r["others"] for r in points], label="others", linestyle="--")
        ax.set_title(f"{data[0]['players']}p {data[0]['lineup']}", fontsize=8)
        ax.set_xlabel("% of the game")
        ax.set_ylabel(track)
        ax.legend(fontsize=6)
    fig.suptitle("Winners against the others")
    fig.tight_layout()
    return _save(fig, folder, "trajectories")


def lift_plot(rows: Sequence[Row], key: str, title: str, name: str, folder: Path, limit: int = 24) -> str:
    """Lift (observed / expected wins) with its interval for the rows given (one group)."""
    plt = _plt()
    rows = sorted(rows, key=lambda r: -r["lift"])[:limit]
    fig, ax = plt.subplots(figsize=(7, 0.9 + 0.22 * max(1, len(rows))))
    ys = list(range(len(rows)))[::-1]
    _intervals(ax, rows, ys, "lift", "lift_low", "lift_high")
    ax.axvline(1.0, color="red", linewidth=0.8)
    ax.set_yticks(ys, [f"{r[key]} (n={r.get('users', r.get('seats'))})" for r in rows], fontsize=7)
    ax.set_xlabel("wins / expected wins (1 = as the field; 95% interval)")
    ax.set_title(title, fontsize=9)
    return _save(fig, folder, name)


def option_plot(rows: Sequence[Row], folder: Path) -> str:
    plt = _plt()
    labels = [f"{r['players']}p {r['lineup']} [{r['options']}]" for r in rows]
    fig, (left, right) = plt.subplots(1, 2, figsize=(9, 0.9 + 0.25 * len(rows)), sharey=True)
    ys = list(range(len(rows)))[::-1]
    left.barh(ys, [r["mean_turns"] for r in rows])
    left.set_yticks(ys, labels, fontsize=7)
    left.set_xlabel("mean turns")
    _intervals(right, rows, ys, "seat0_win_rate", "seat0_ci_low", "seat0_ci_high")
    right.set_xlabel("first seat's win rate")
    fig.suptitle("Rules options")
    fig.tight_layout()
    return _save(fig, folder, "options")


def bot_plot(bots: Sequence[Row], folder: Path) -> str:
    """Each bot's win rate over all its tables, by player count and rules."""
    labels = [f"{r['players']}p [{r['options']}] {r['bot']}" for r in bots]
    fig, ax, ys = _rows_chart(len(bots))
    _intervals(ax, bots, ys, "win_rate", "ci_low", "ci_high")
    ax.set_yticks(ys, labels, fontsize=7)
    ax.set_xlabel("win rate over all its tables (95% Wilson interval)")
    ax.set_title("Bots")
    return _save(fig, folder, "bots")
