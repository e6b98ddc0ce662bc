"""Rich rendering of a Lords of Vegas view: the board (west blocks | the Strip | east blocks),
the players, the cards left per colour, whatever decision is pending, and the recent log."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rich import box
from rich.console import Group
from rich.table import Table
from rich.text import Text

from .data import COST, DIE, GRID, LOT_NAMES, NUM_LOTS

TILE_STYLE = {
    "green": "bold white on dark_cyan",
    "brown": "bold white on dark_red",
    "gold": "bold black on gold3",
    "purple": "bold white on purple4",
    "silver": "bold black on grey70",
}
SEAT_STYLE = ("bold blue", "bold green", "bold red", "bold yellow")
# Streets between the blocks, by schematic grid row (west side, east side).
STREETS = {2: ("Flamingo", "Flamingo"), 6: ("", "Harmon"), 7: ("Monte Carlo", "")}
LOG_LINES = 14


def seat_text(seat: int | None) -> Text:
    if seat is None:
        return Text("-")
    return Text(f"P{seat}", style=SEAT_STYLE[seat % 4])


def _cell(entry: Mapping[str, Any], lot: int, excluded: bool) -> Text:
    """Two short lines (fits 80 columns): 'C10 $9' then the printed die, a marker or a tile."""
    text = Text(f"{LOT_NAMES[lot].upper()} ${COST[lot]}\n", style="dim" if excluded else "")
    colour = entry.get("tile")
    if colour:
        style = TILE_STYLE[colour]
        if "die" in entry:
            shown = entry["die"] or "?"  # 0: a re-rolled die waiting to be placed
            text.append(f"{colour[:2].upper()} {shown} ", style=style)
            text.append_text(seat_text(entry["owner"]))
        else:
            text.append(f"{colour[:2].upper()} -    ", style=style)
    elif "marker" in entry:
        text.append_text(seat_text(entry["marker"]))
        text.append(" lot")
    elif excluded:
        text.append("unused", style="dim")
    else:
        text.append(f"die {DIE[lot]}", style="dim")
    return text


def render_board(state: Mapping[str, Any], num_players: int) -> Table:
    table = Table(
        box=box.SIMPLE_HEAD,
        show_header=True,
        padding=(0, 1),
        title="Las Vegas (tile colour, die, owner; Pn = seat n)",
    )
    for heading in ("", "west", "", "Strip", "", "east", ""):
        table.add_column(heading, justify="center" if heading == "Strip" else "left", no_wrap=True)
    by_grid = {GRID[lot]: lot for lot in range(NUM_LOTS)}
    board = state["board"]
    for row in range(10):
        cells: list[Any] = []
        for col in range(7):
            if col == 3:
                cells.append(Text("║", style="bold yellow"))
                continue
            lot = by_grid.get((row, col))
            if lot is None:
                side = 0 if col < 3 else 1
                name = STREETS.get(row, ("", ""))[side]
                cells.append(Text(name if col in (1, 5) else "", style="dim italic"))
            else:
                excluded = num_players == 2 and LOT_NAMES[lot].startswith("f")
                cells.append(_cell(board[lot], lot, excluded))
        table.add_row(*cells)
    return table


def render_players(view: Mapping[str, Any]) -> Table:
    state = view["state"]
    table = Table(box=box.SIMPLE, title="Players")
    for heading in ("", "seat", "money", "points", "dice left", "markers left", "bosses"):
        table.add_column(heading)
    bosses = [0] * view["num_players"]
    for casino in state["casinos"]:
        if casino["boss"] is not None:
            bosses[casino["boss"]] += 1
    for p in state["players"]:
        mark = "▶" if p["seat"] == state["active"] else ""
        you = " (you)" if view.get("seat") == p["seat"] else ""
        name = seat_text(p["seat"])
        name.append(you)
        table.add_row(
            mark,
            name,
            f"${p['money']}",
            str(p["score"]),
            str(p["dice_left"]),
            str(p["markers_left"]),
            str(bosses[p["seat"]]),
        )
    return table


def render_cards(state: Mapping[str, Any]) -> Text:
    text = Text("cards left: ")
    for name, count in state["cards_left"].items():
        style = TILE_STYLE.get(name, "bold yellow")
        text.append(f"{name} {count}", style=style)
        text.append(" ")
    text.append(f"| deck {state['deck_size']}")
    if state["cards_before_game_end"] is not None:
        text.append(f", Game End after {state['cards_before_game_end']} more")
    text.append("\ntiles left: " + ", ".join(f"{k} {v}" for k, v in state["tiles_left"].items()))
    return text


def render_pending(state: Mapping[str, Any]) -> Text | None:
    if "offer" in state:
        offer = state["offer"]
        return Text(
            f"offer by P{offer['by']}: {offer['text']} — waiting for "
            + ", ".join(f"P{s}" for s in offer["waiting_for"])
            + " (accept / refuse / counter with an offer)",
            style="bold magenta",
        )
    if "gamble" in state:
        g = state["gamble"]
        return Text(
            f"P{g['gambler']} bets ${g['bet']} at P{g['boss']}'s casino: P{g['boss']} chooses layoff or nolayoff",
            style="bold magenta",
        )
    if "placing" in state:
        first = state["placing"][0]
        return Text(
            f"P{first['seat']} places re-rolled values {first['values']} on {', '.join(first['lots'])} "
            "(put LOT takes the highest value)",
            style="bold magenta",
        )
    if "market" in state:
        return Text(
            f"market after P{state['active']}'s turn: P{state['market'][0]} may offer a trade or pass",
            style="bold magenta",
        )
    if "decision" in state:
        d = state["decision"]
        verb = "pick a die to move onto" if state["phase"] == "pick_die" else "free a lot to take"
        return Text(f"P{d['seat']} must {verb} {d['lot'].upper()}", style="bold magenta")
    return None


def render_view(view: Mapping[str, Any]) -> Group:
    state = view["state"]
    parts: list[Any] = [render_board(state, view["num_players"]), render_players(view), render_cards(state)]
    if state["promised"]:
        parts.append(Text("promised this turn: " + ", ".join(state["promised"])))
    pending = render_pending(state)
    if pending is not None:
        parts.append(pending)
    if view["result"]:
        parts.append(Text(f"game over: winners {view['result']['winners']}", style="bold green"))
    log = view["log"][-LOG_LINES:]
    parts.append(Text("— recent events —\n" + "\n".join(log), style="dim"))
    return Group(*parts)
