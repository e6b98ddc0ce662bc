"""Rich picture of a Multicity view: the city with typeable coordinates, the drawn tile, the players.

Every square is three characters wide under its column number; rows carry their number at the
left. Tiles are set apart by a blank column and a blank line so the 3x3 grid is easy to see. When
a tile has been drawn, the free slots show the X,Y to type in ``t X,Y rN``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

STYLES = {"g": "bold green", "r": "bold red", "b": "bold bright_blue", "y": "bold yellow"}
SEAT_STYLES = ("green", "red", "bright_blue", "yellow")
HOLE_STYLE = "orange3"
LOG_LINES = 8


def _squares(state: Mapping[str, Any]) -> dict[tuple[int, int], str]:
    squares = {}
    for tile in state["tiles"]:
        rows = tile["squares"].split("/")
        for r, row in enumerate(rows):
            for c, letter in enumerate(row):
                squares[(tile["x"] + c, tile["y"] + r)] = letter
    return squares


def _object_marks(state: Mapping[str, Any]) -> dict[tuple[int, int], tuple[str, str]]:
    """(text, style) for each square under an object; ends win over middles (loose overlap)."""
    marks: dict[tuple[int, int], tuple[str, str]] = {}
    for obj in state["objects"]:
        length, vertical = obj["length"], obj["dir"] == "v"
        colour = SEAT_STYLES[obj["seat"]]
        for i in range(length):
            at = (obj["x"], obj["y"] + i) if vertical else (obj["x"] + i, obj["y"])
            if i in (0, length - 1):
                marks[at] = (f"{'GRBY'[obj['seat']]}{length} ", f"bold black on {colour}")
            elif at not in marks:
                marks[at] = (" │ " if vertical else "───", f"bold {colour}")
    return marks


def render_city(state: Mapping[str, Any]) -> Text:
    show_slots = state["drawn"] is not None
    slots = {tuple(s) for s in state["free_slots"]} if show_slots else set()
    corners = [(t["x"], t["y"]) for t in state["tiles"]] + list(slots)
    xs = [x for x, _ in corners]
    ys = [y for _, y in corners]
    squares = _squares(state)
    marks = _object_marks(state)
    text = Text()
    text.append("     ")
    for x0 in range(min(xs), max(xs) + 3, 3):
        text.append("".join(f"{x0 + c:>3}" for c in range(3)) + " ", style="dim")
    text.append("\n")
    for y0 in range(min(ys), max(ys) + 3, 3):
        for r in range(3):
            y = y0 + r
            text.append(f"{y:>4} ", style="dim")
            for x0 in range(min(xs), max(xs) + 3, 3):
                _append_tile_row(text, squares, marks, slots, x0, y0, y)
                text.append(" ")
            text.append("\n")
        text.append("\n")
    return text


def _append_tile_row(text: Text, squares: dict, marks: dict, slots: set, x0: int, y0: int, y: int) -> None:
    if (x0, y) not in squares:
        if (x0, y0) in slots:
            label = f"{x0},{y0}" if y == y0 + 1 else "·"
            text.append(f"{label:^9}", style="dim cyan")
        else:
            text.append(" " * 9)
        return
    for x in range(x0, x0 + 3):
        mark = marks.get((x, y))
        if mark is not None:
            text.append(mark[0], style=mark[1])
            continue
        letter = squares[(x, y)]
        if letter == "o":
            text.append(" ^ ", style=HOLE_STYLE)
        else:
            text.append(f" {letter} ", style=STYLES[letter])


def render_drawn(drawn: Mapping[str, Any]) -> Text:
    text = Text(f"drawn tile {drawn['tile']}, its four turns:\n", style="bold")
    turns = [t.split("/") for t in drawn["turns"]]
    text.append("  " + "".join(f"{'r' + str(n):<12}" for n in range(4)) + "\n", style="dim")
    for r in range(3):
        text.append("  ")
        for rows in turns:
            for letter in rows[r]:
                if letter == "o":
                    text.append(" ^ ", style=HOLE_STYLE)
                else:
                    text.append(f" {letter} ", style=STYLES[letter])
            text.append("   ")
        text.append("\n")
    return text


def render_players(state: Mapping[str, Any]) -> Table:
    table = Table(show_edge=False, pad_edge=False)
    for column in ("", "seat", "colour", "objects to place", "placed", "squares left"):
        table.add_column(column)
    for player in state["players"]:
        seat = player["seat"]
        table.add_row(
            "▶" if state["turn"] == seat else "",
            str(seat),
            Text(player["colour"], style=f"bold {SEAT_STYLES[seat]}"),
            " ".join(str(n) for n in player["unplaced"]) or "-",
            " ".join(str(n) for n in player["placed"]) or "-",
            str(player["remaining_squares"]),
        )
    return table


def render_view(view: Mapping[str, Any]) -> RenderableType:
    state = view["state"]
    turn = state["turn"]
    who = "game over" if turn is None else f"seat {turn} to play"
    extra = []
    if state["kids"]:
        extra.append("kids' variant")
    if state["overlap"] == "loose":
        extra.append("loose overlap")
    header = Text(
        f"Multicity — {who} · {state['phase']} · stack: {state['stack']} tiles · first player: seat "
        f"{state['first_player']}" + (" · " + ", ".join(extra) if extra else ""),
        style="bold",
    )
    if state["final_round"]:
        header.append(f"\nfinal round: still to place {state['final_round']}", style="bold magenta")
    parts: list[RenderableType] = [header, render_city(state)]
    if state["drawn"] is not None:
        parts.append(render_drawn(state["drawn"]))
    parts.append(render_players(state))
    parts.append(
        Text(
            "letters: symbols (g r b y) · ^: hole · G5: an end of green's 5-object, its middle drawn as a line",
            style="dim",
        )
    )
    for line in view["log"][-LOG_LINES:]:
        parts.append(Text("  " + line, style="dim"))
    return Group(*parts)
