"""Writing a study: ``tables/<name>.csv`` for every table, ``tables.json`` with all of them, and a
self-contained ``report.html`` (charts inlined as SVG; no external files or scripts)."""

from __future__ import annotations

import csv
import html
import io
import json
from collections import defaultdict
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from ..core.game import Game
from . import plots
from .features import study_module
from .runner import Config
from .stats import all_tables

Row = dict[str, Any]


def catalogues(game: Game, configs: Sequence[Config]) -> tuple[dict[str, list[str]], dict[str, set[str]]]:
    """Per set-up: every item a seat could use, and the items that are the goal itself (if any)."""
    module = study_module(game)
    items, goals = {}, {}
    for config in configs:
        state = game.new_game(config.players, config.options, 0)
        items[config.slug] = list(module.catalogue(state))
        goal = getattr(module, "goal_items", None)
        goals[config.slug] = set(goal(state)) if goal is not None else set()
    return items, goals


def write_csv(path: Path, rows: Sequence[Row]) -> None:
    buffer = io.StringIO()
    if rows:
        writer = csv.DictWriter(buffer, fieldnames=list(rows[0]), lineterminator="\n")
        writer.writeheader()
        writer.writerows(rows)
    path.write_text(buffer.getvalue(), encoding="utf-8")


def write_study(
    out: Path,
    game: Game,
    results: Sequence[tuple[Config, list[dict[str, Any]]]],
    command: str,
    plots_on: bool = True,
) -> dict[str, list[Row]]:
    """Compute every table and write the files; returns the tables."""
    configs = [config for config, _ in results]
    rounds = bool(getattr(study_module(game), "ROUNDS", False))
    tables = all_tables(results, *catalogues(game, configs), rounds=rounds)
    folder = out / "tables"
    folder.mkdir(parents=True, exist_ok=True)
    for name, rows in tables.items():
        write_csv(folder / f"{name}.csv", rows)
    (out / "tables.json").write_text(
        json.dumps({"game": game.name, "tables": tables}, indent=1, sort_keys=False) + "\n", encoding="utf-8"
    )
    charts = _charts(tables, out / "images") if plots_on else {}
    (out / "report.html").write_text(_page(game, tables, charts, command, configs), encoding="utf-8")
    return tables


# -- charts -------------------------------------------------------------------------------------------------


def _groups(rows: Sequence[Row]) -> dict[tuple, list[Row]]:
    groups: dict[tuple, list[Row]] = defaultdict(list)
    for row in rows:
        groups[row["players"], row["options"], row["bot"]].append(row)
    return groups


CHARTED = 8  # groups (player count, rules, bot) whose openings and uses are charted


def focus_groups(tables: dict[str, list[Row]], limit: int = CHARTED) -> list[tuple]:
    """The (players, options, bot) groups charted: the first ``limit`` in the study's order of set-ups."""
    order: dict[tuple, None] = {}
    for row in tables["games"]:
        for bot in row["bots"].split("|"):
            order.setdefault((row["players"], row["options"], bot), None)
    return list(order)[:limit]


def _min_seats(total: int) -> int:
    return max(10, total // 50)


def _charts(tables: dict[str, list[Row]], folder: Path) -> dict[str, str]:
    charts = {"seat_advantage": plots.seat_plot(tables["seat_advantage"], folder)}
    charts["bots"] = plots.bot_plot(tables["bots"], folder)
    charts["lengths"] = plots.length_plot(tables["games"], folder)
    charts["trajectories"] = plots.trajectory_plot(tables["trajectories"], folder)
    openings = _groups(tables["openings"])
    items = _groups(tables["items"])
    for number, key in enumerate(focus_groups(tables)):
        players, options, bot = key
        total = items[key][0]["seats"]
        shown = [r for r in openings.get(key, []) if r["seats"] >= _min_seats(total)]
        name = f"openings_{number}"
        title = f"Openings, {players}p [{options}], {bot}"
        charts[name] = plots.lift_plot(
            [{**r, "value": f"{r['feature']}: {r['value']}"} for r in shown], "value", title, name, folder
        )
        used = [r for r in items[key] if r["users"] >= _min_seats(total) and not r["goal"]]
        name = f"items_{number}"
        charts[name] = plots.lift_plot(
            used, "item", f"Uses against winning, {players}p [{options}], {bot}", name, folder
        )
    if tables["options"]:
        charts["options"] = plots.option_plot(tables["options"], folder)
    return charts


# -- the page -----------------------------------------------------------------------------------------------

STYLE = """
body{font-family:system-ui,sans-serif;max-width:1100px;margin:1em auto;padding:0 1em;color:#222}
table{border-collapse:collapse;font-size:12px;margin:.5em 0 1.5em}
td,th{border:1px solid #ccc;padding:2px 6px;text-align:right}
td.t,th{text-align:left}
h2{border-bottom:2px solid #ddd;margin-top:2em}
figure{margin:0 0 1.5em}
svg{max-width:100%;height:auto}
.note{color:#555;font-size:13px}
"""


def _cell(value: Any) -> str:
    if isinstance(value, float):
        return f"{value:g}"
    return html.escape(str(value))


def html_table(table_id: str, rows: Sequence[Row], columns: Sequence[str] | None = None) -> str:
    if not rows:
        return f'<table id="{table_id}"><tbody></tbody></table><p class="note">(no rows)</p>'
    columns = list(columns or rows[0])
    head = "".join(f"<th>{html.escape(c)}</th>" for c in columns)
    body = []
    for row in rows:
        cells = "".join(
            f"<td{' class=t' if isinstance(row[c], str) else ''}>{_cell(row[c])}</td>" for c in columns
        )
        body.append(f"<tr>{cells}</tr>")
    return f'<table id="{table_id}"><thead><tr>{head}</tr></thead><tbody>{"".join(body)}</tbody></table>'


def _figure(charts: dict[str, str], name: str) -> str:
    return f'<figure id="chart-{name}">{charts[name]}</figure>' if name in charts else ""


def _page(
    game: Game,
    tables: dict[str, list[Row]],
    charts: dict[str, str],
    command: str,
    configs: Sequence[Config],
) -> str:
    module = study_module(game)
    games = tables["games"]
    parts = [
        "<!DOCTYPE html><html lang=en><head><meta charset=utf-8>",
        f"<title>Study: {html.escape(game.title)}</title><style>{STYLE}</style></head><body>",
        f"<h1>Strategy study: {html.escape(game.title)}</h1>",
        f'<p class="note">{len(games)} games in {len(configs)} set-ups. Reproduce with '
        f"<code>{html.escape(command)}</code>. Lengths are in turns: {html.escape(module.TURN)}. "
        "Win credit: a shared win counts 1/winners. Intervals are 95% Wilson intervals; a lift is "
        "observed over expected wins, the expectation being the bot's own win rate in that set-up "
        "(1 = no better than the field). All tables are in <code>tables/*.csv</code> and "
        "<code>tables.json</code>.</p>",
        "<h2>Seat advantage</h2>",
        html_table("seat_advantage", tables["seat_advantage"]),
        _figure(charts, "seat_advantage"),
        "<h2>Bots</h2>",
        html_table("bots", tables["bots"]),
        _figure(charts, "bots"),
        "<h2>Openings</h2>",
        '<p class="note">Each opening choice against the field, per player count, rules and bot; '
        "choices seen in fewer than max(10, 2% of the group's seats) seats are in the CSV only.</p>",
    ]
    openings = _groups(tables["openings"])
    items = _groups(tables["items"])
    shown_openings = []
    for key, rows in openings.items():
        total = items[key][0]["seats"] if key in items else 0
        shown_openings += [r for r in rows if r["seats"] >= _min_seats(total)]
    parts.append(html_table("openings", shown_openings))
    for number in range(CHARTED):
        parts.append(_figure(charts, f"openings_{number}"))
    parts += [
        "<h2>What matters: uses against winning</h2>",
        '<p class="note">users: seats that used the item at least once; lift: their wins over the wins '
        "expected in games of the same set-up, bot and length third; per10: uses per 10 turns of a "
        "seat's play, winners against the others. Items marked goal are part of winning itself (their "
        "lift only says that winners reach the goal); the charts leave them out.</p>",
        html_table("items", tables["items"]),
    ]
    for number in range(CHARTED):
        parts.append(_figure(charts, f"items_{number}"))
    parts += [
        "<h3>Never used</h3>",
        html_table("never_used", tables["never_used"]),
        "<h2>Shape of a game</h2>",
        html_table("lengths", tables["lengths"]),
        _figure(charts, "lengths"),
        _figure(charts, "trajectories"),
        "<h3>Comebacks</h3>",
        '<p class="note">How often the clear leader on the first track at 30/50/70% of the game wins.</p>',
        html_table("comeback", tables["comeback"]),
        "<h2>Rules options</h2>",
        html_table("options", tables["options"]),
        _figure(charts, "options"),
        "</body></html>\n",
    ]
    return "\n".join(part for part in parts if part)
