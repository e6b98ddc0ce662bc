"""Rich rendering of a Machi Koro view: cities, market, last roll and the event log."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rich.console import Group
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from .data import COLOR_ORDER, all_cards

STYLE = {
    "blue": "bold blue",
    "green": "bold green",
    "red": "bold red",
    "purple": "bold magenta",
    "landmark": "yellow",
}
LOG_LINES = 12


def _cards_by_code():
    return {c.code: c for c in all_cards()}


def _cost(card, options: Mapping[str, Any]) -> int:
    return options.get("sushi_cost", card.cost) if card.code == "sushi" else card.cost


def _rolls(card) -> str:
    if not card.rolls:
        return ""
    low, high = min(card.rolls), max(card.rolls)
    return str(low) if low == high else f"{low}-{high}"


def render_city(seat: int, player: Mapping[str, Any], is_current: bool, options: Mapping[str, Any]) -> Panel:
    cards = _cards_by_code()
    lines = [Text(f"coins: {player['coins']}", style="bold")]
    marks = Text("landmarks: ")
    for code, built in player["landmarks"].items():
        marks.append(f"{code}{'✓' if built else '·'} ", style="yellow" if built else "dim")
    lines.append(marks)
    for colour in COLOR_ORDER:
        owned = [(code, n) for code, n in player["establishments"].items() if cards[code].color == colour]
        if owned:
            row = Text(f"{colour:6s} ", style=STYLE[colour])
            row.append("  ".join(f"{code}[{_rolls(cards[code])}]×{n}" for code, n in owned))
            lines.append(row)
    title = f"P{seat}" + (" ◀ to act" if is_current else "")
    return Panel(Group(*lines), title=title, border_style="cyan" if is_current else "white", expand=True)


def render_market(market: Mapping[str, int], deck_sizes: list[int], options: Mapping[str, Any]) -> Table:
    cards = _cards_by_code()
    title = "Market" + (f" (deck: {' / '.join(map(str, deck_sizes))} cards)" if deck_sizes else "")
    table = Table(title=title, show_edge=False, pad_edge=False)
    for column in ("card", "rolls", "cost", "left", "effect"):
        table.add_column(column)
    order = sorted(market, key=lambda code: (min(cards[code].rolls), code))
    for code in order:
        card = cards[code]
        table.add_row(
            Text(code, style=STYLE[card.color]),
            _rolls(card),
            str(_cost(card, options)),
            str(market[code]),
            card.name,
        )
    return table


def render_view(view: Mapping[str, Any]) -> Group:
    st = view["state"]
    options = view["options"]
    cities = Table.grid(expand=True)
    for _ in st["players"]:
        cities.add_column(ratio=1)
    cities.add_row(
        *[
            render_city(seat, pl, seat == st["current"] and not view["over"], options)
            for seat, pl in enumerate(st["players"])
        ]
    )
    dice = "+".join(map(str, st["dice"])) if st["dice"] else "-"
    header = Text(f"Machi Koro — turn {st['turn']}, last roll: {dice} (total {st['roll']})", style="bold")
    log = Text("\n".join(view["log"][-LOG_LINES:]), style="dim")
    pending = Text(st["pending"], style="bold cyan")
    return Group(
        header,
        cities,
        render_market(st["market"], st["market_deck_sizes"], options),
        Panel(log, title="log"),
        pending,
    )
