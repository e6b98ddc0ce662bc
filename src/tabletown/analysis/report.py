"""An analysis as a self-contained HTML page, and the win-chance graph as SVG.

The graph is plain SVG markup built here (no script, no external file), so the same function
draws it in ``tabletown analyze --html`` and on the web replay page. Colours are fixed per seat
and every point carries a ``<title>`` so the page reads without colour too.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from html import escape
from typing import Any

SEAT_COLOURS = ("#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b", "#e377c2", "#17becf")
CLASS_MARKS = {"blunder": "??", "mistake": "?", "inaccuracy": "?!"}


def chance_graph_svg(
    analysis: Mapping[str, Any], width: int = 720, height: int = 220, link: str | None = None
) -> str:
    """One line per seat: its win chance after every action (0 at the bottom, 1 at the top), with
    each rated mistake and blunder marked on its seat's line. ``link`` (e.g. ``"#move-{index}"``)
    makes each mark a link to that action."""
    curve: Sequence[Sequence[float]] = analysis.get("curve") or []
    if len(curve) < 2:
        return ""
    seats = len(curve[0])
    left, right, top, bottom = 34, 8, 8, 22
    plot_w, plot_h = width - left - right, height - top - bottom
    steps = len(curve) - 1

    def x(step: int) -> float:
        return left + plot_w * step / max(1, steps)

    def y(chance: float) -> float:
        return top + plot_h * (1.0 - max(0.0, min(1.0, chance)))

    parts = [
        f'<svg class="chance-graph" xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {height}" '
        f'width="{width}" height="{height}" role="img" aria-label="win chance of each seat after every move">'
    ]
    for level in (0.0, 0.25, 0.5, 0.75, 1.0):
        parts.append(
            f'<line x1="{left}" x2="{width - right}" y1="{y(level):.1f}" y2="{y(level):.1f}" '
            f'stroke="#ccc" stroke-width="{1.2 if level == 0.5 else 0.6}"/>'
            f'<text x="{left - 4}" y="{y(level) + 4:.1f}" font-size="10" text-anchor="end" fill="#555">'
            f"{int(level * 100)}%</text>"
        )
    parts.append(
        f'<text x="{left + plot_w / 2:.0f}" y="{height - 4}" font-size="10" text-anchor="middle" fill="#555">'
        f"move</text>"
    )
    for seat in range(seats):
        colour = SEAT_COLOURS[seat % len(SEAT_COLOURS)]
        points = " ".join(f"{x(step):.1f},{y(row[seat]):.1f}" for step, row in enumerate(curve))
        parts.append(
            f'<polyline class="seat-line seat-{seat}" fill="none" stroke="{colour}" stroke-width="1.6" '
            f'points="{points}"/>'
        )
    for decision in analysis.get("decisions", []):
        cls = decision.get("class")
        if cls not in ("mistake", "blunder"):
            continue
        step = int(decision["index"])
        if step >= len(curve):
            continue
        seat = int(decision["seat"])
        colour = SEAT_COLOURS[seat % len(SEAT_COLOURS)]
        label = escape(f"move {step}: {cls}, {decision['loss'] * 100:.0f} points of win chance lost")
        mark = (
            f'<circle class="mark {cls}" data-index="{step}" cx="{x(step):.1f}" cy="{y(curve[step][seat]):.1f}" '
            f'r="{5 if cls == "blunder" else 3.5}" fill="{"#000" if cls == "blunder" else "#fff"}" '
            f'stroke="{colour}" stroke-width="2"><title>{label}</title></circle>'
        )
        if link:
            mark = f'<a href="{escape(link.format(index=step))}">{mark}</a>'
        parts.append(mark)
    parts.append("</svg>")
    return "".join(parts)


def _percent(value: float) -> str:
    return f"{value * 100:.0f}%"


def html_page(analysis: Mapping[str, Any], title: str) -> str:
    """A whole page: summary per seat, the graph, every rated decision and the luck events."""
    seats = analysis["seats"]
    rows = []
    for seat in seats:
        colour = SEAT_COLOURS[seat["seat"] % len(SEAT_COLOURS)]
        rows.append(
            f'<tr><td><span class="dot" style="background:{colour}"></span>{escape(seat["name"])}</td>'
            f"<td>{seat['decisions']}</td><td>{seat['average_loss'] * 100:.1f}</td>"
            f"<td>{seat['inaccuracies']}</td><td>{seat['mistakes']}</td><td>{seat['blunders']}</td>"
            f"<td>{seat['luck'] * 100:+.0f}</td></tr>"
        )
    decisions = []
    names = [seat["name"] for seat in seats]
    for d in analysis["decisions"]:
        mark = CLASS_MARKS.get(d["class"], "")
        better = (
            f'<div class="better">better: {escape(d["best_words"] or d["best"])} '
            f"({_percent(d['chance_best'])})</div>"
            if d["best"] != d["played"]
            else ""
        )
        decisions.append(
            f'<tr id="move-{d["index"]}" class="{d["class"]}"><td>{d["index"]}</td>'
            f"<td>{escape(names[d['seat']])}</td><td>{escape(d['played_words'] or d['played'])} "
            f"<b>{mark}</b>{better}</td><td>{_percent(d['chance_before'])}</td>"
            f"<td>{_percent(d['chance_after'])}</td><td>{d['loss'] * 100:.1f}</td></tr>"
        )
    luck = []
    for event in analysis["chance_events"]:
        swings = ", ".join(f"{escape(names[s])} {v * 100:+.0f}" for s, v in enumerate(event["luck"]))
        luck.append(
            f"<tr><td>{event['index']}</td><td>{escape(names[event['seat']])}</td>"
            f"<td>{escape(event['action'])}</td><td>{swings}</td></tr>"
        )
    settings = analysis.get("settings", {})
    return f"""<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>{escape(title)}</title>
<style>
body {{ font: 14px/1.4 system-ui, sans-serif; margin: 1.5rem auto; max-width: 60rem; color: #222; }}
table {{ border-collapse: collapse; margin: .5rem 0 1.5rem; }}
td, th {{ padding: .2rem .6rem; border-bottom: 1px solid #eee; text-align: left; vertical-align: top; }}
tr.blunder td {{ background: #fde2e2; }} tr.mistake td {{ background: #fff1d6; }}
tr.inaccuracy td {{ background: #f6f6dc; }} .better {{ color: #555; font-size: 90%; }}
.dot {{ display: inline-block; width: .8em; height: .8em; border-radius: 50%; margin-right: .4em; }}
</style></head><body>
<h1>{escape(title)}</h1>
<p>Win chances are estimated from each seat's own information at the time ({escape(str(analysis.get("judge")))},
{settings.get("samples")} samples a move). Loss is the win chance given up against the best move found, in points.</p>
<h2>Seats</h2>
<table><tr><th>seat</th><th>decisions</th><th>average loss</th><th>inaccuracies</th><th>mistakes</th>
<th>blunders</th><th>luck (points)</th></tr>{"".join(rows)}</table>
{chance_graph_svg(analysis, link="#move-{index}")}
<h2>Decisions</h2>
<table><tr><th>#</th><th>seat</th><th>move</th><th>chance before</th><th>after</th><th>loss</th></tr>
{"".join(decisions)}</table>
<h2>Luck</h2>
<table><tr><th>#</th><th>seat</th><th>action</th><th>change against expectation (points)</th></tr>{"".join(luck)}</table>
</body></html>
"""
