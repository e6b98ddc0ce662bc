"""Rich picture of a Multicity view: the city with typeable coordinates, the drawn tile, the players.

Every square is three characters wide under its column number; rows carry their number at the
left. Tiles are set apart by a blank column and a blank line so the 3x3 grid is easy to see. When
a tile has been drawn, the free slots show the X,Y to type in ``t X,Y rN``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from rich.console import Console, ConsoleOptions, Group, RenderableType, RenderResult
from rich.table import Table
from rich.text import Text

from ...core.words import Names
from .tiles import COLOURS

STYLES = {"g": "bold green", "r": "bold red", "b": "bold bright_blue", "y": "bold yellow"}
SEAT_STYLES = ("green", "red", "bright_blue", "yellow")
HOLE_STYLE = "orange3"
LOG_LINES = 8
PHASE_WORDS = {"play": "play", "final_round": "final round", "over": "over"}


def seat_name(seat: int) -> str:
    return f"seat {seat} ({COLOURS[seat]})"


def describe_event(event: Mapping[str, Any], names: Names | None = None, lang: str = "en") -> str:
    """One event of a view (docs/games/multicity.md, "Events") as an English sentence: seats by
    number and colour for the terminal, or by their players' names ("You" for the reader)."""
    text = _describe(event, names)
    return text[:1].upper() + text[1:] if names else text


def _describe(event: Mapping[str, Any], names: Names | None) -> str:
    kind = event["kind"]
    seat = event.get("seat")

    def who(q: Any) -> str:
        return names.who(q) if names else seat_name(q)

    def does(verb: str, q: Any = seat) -> str:
        return names.subject(q, verb, start=False) if names else f"{seat_name(q)} {verb}"

    its = names.their(seat) if names else "its"
    if kind == "shuffle":
        return f"the {event['tiles']} city tiles are shuffled face down"
    if kind == "start_tile":
        return f"tile {event['tile']} is turned up as the start of the city"
    if kind == "first_player":
        return f"{does('plays')} first ({'drawn at random' if event['drawn'] else 'set by the options'})"
    if kind == "draw":
        if names:  # (people see the tile on the board; its number is the terminal's)
            return f"{does('draws')} a tile ({event['stack']} left in the stack)"
        return f"{does('draws')} tile {event['tile']} ({event['stack']} left in the stack)"
    if kind == "lay":
        if names:
            return (
                f"{does('lays')} the tile {_from_start(event['x'], event['y'])}, {TURN_WORDS[event['turn']]}"
            )
        return f"{does('lays')} tile {event['tile']} at {event['x']},{event['y']} turned r{event['turn']}"
    if kind == "place":
        length, x, y = event["length"], event["x"], event["y"]
        if names:  # where it lies is drawn on the board (the last move is marked there)
            return f"{does('places')} {its} {length}-field object, {'standing' if event['vertical'] else 'lying'}"
        x2, y2 = (x, y + length - 1) if event["vertical"] else (x + length - 1, y)
        return f"{does('places')} {its} {length}-object from {x},{y} to {x2},{y2}"
    if kind == "final_round":
        return (
            f"{does('laid')} the last tile: everyone may place one more object, "
            # Alike in shape to newlasvegas/render.py on purpose: each game words its own events and
            # views; only the shape is shared.
            f"from {who(event['first_seat'])}"
        )
    if kind == "pass":
        return f"{does('places')} nothing in the final round"
    if kind == "turn_lost":
        return f"{does('cannot')} place any object and {does('loses').split(' ', 1)[1]} the turn"
    if kind == "game_over":
        winners = event["winners"]
        if len(winners) > 1:
            return "shared win: " + ", ".join(who(s) for s in winners)
        if event["reason"] == "six_objects":
            return f"{does('has', winners[0])} placed all six objects and {does('wins', winners[0]).split(' ', 1)[1]}"
        return f"{does('wins', winners[0])} with the fewest squares left to place"
    data = ", ".join(f"{k}={v}" for k, v in event.items() if k not in ("i", "kind", "private"))
    return f"{kind}: {data}"


# Quarter turns clockwise (the notation's rN) as a person says them.
TURN_WORDS = (
    "not turned",
    "turned a quarter clockwise",
    "turned half round",
    "turned a quarter anticlockwise",
)


def _from_start(x: int, y: int) -> str:
    """Where the tile with its corner at x,y lies from the start tile, in tiles ("2 tiles right and
    1 up from the start tile"): tiles lie on a grid of 3 squares."""
    across, down = x // 3, y // 3
    parts = []
    if across:
        parts.append(
            f"{abs(across)} tile{'s' if abs(across) != 1 else ''} {'right' if across > 0 else 'left'}"
        )
    if down:
        tiles = "" if parts else f" tile{'s' if abs(down) != 1 else ''}"
        parts.append(f"{abs(down)}{tiles} {'down' if down > 0 else 'up'}")
    return " and ".join(parts) + " from the start tile" if parts else "on the start tile"


def _squares(state: Mapping[str, Any]) -> dict[tuple[int, int], str]:
    squares = {}
    for tile in state["tiles"]:
        for i, letter in enumerate(tile["squares"]):
            squares[(tile["x"] + i % 3, tile["y"] + i // 3)] = letter
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


def render_city(
    state: Mapping[str, Any],
    max_rows: int | None = None,
    max_cols: int | None = None,
    focus: tuple[int, int] | None = None,
) -> Text:
    """The city, cropped to at most ``max_rows`` x ``max_cols`` tiles around ``focus`` (a square; by
    default the last tile laid); a header then gives the coordinates shown and lists the free slots
    left outside the window."""
    show_slots = state["drawn"] is not None
    slots = {tuple(s) for s in state["free_slots"]} if show_slots else set()
    corners = [(t["x"], t["y"]) for t in state["tiles"]] + list(slots)
    xs = [x for x, _ in corners]
    ys = [y for _, y in corners]
    if focus is None:
        focus = (state["tiles"][-1]["x"], state["tiles"][-1]["y"]) if state["tiles"] else (min(xs), min(ys))
    x_lo, x_hi = _window(min(xs), max(xs), focus[0], max_cols)
    y_lo, y_hi = _window(min(ys), max(ys), focus[1], max_rows)
    cropped = (x_lo, x_hi, y_lo, y_hi) != (min(xs), max(xs), min(ys), max(ys))
    squares = _squares(state)
    marks = _object_marks(state)
    text = Text()
    if cropped:
        text.append(
            f"city window: x {x_lo}..{x_hi + 2}, y {y_lo}..{y_hi + 2} of x {min(xs)}..{max(xs) + 2}, "
            f"y {min(ys)}..{max(ys) + 2} (around the last move, at {focus[0]},{focus[1]})\n",
            style="bold yellow",
        )
        outside = sorted((x, y) for x, y in slots if not (x_lo <= x <= x_hi and y_lo <= y <= y_hi))
        if outside:
            text.append(
                "free slots outside the window: " + " ".join(f"{x},{y}" for x, y in outside) + "\n",
                style="dim cyan",
            )
    text.append("     ")
    for x0 in range(x_lo, x_hi + 3, 3):
        text.append("".join(f"{x0 + c:>3}" for c in range(3)) + " ", style="dim")
    text.append("\n")
    for y0 in range(y_lo, y_hi + 3, 3):
        for r in range(3):
            y = y0 + r
            text.append(f"{y:>4} ", style="dim")
            for x0 in range(x_lo, x_hi + 3, 3):
                _append_tile_row(text, squares, marks, slots, x0, y0, y)
                text.append(" ")
            text.append("\n")
        if not cropped:
            text.append("\n")
    return text


def _window(low: int, high: int, focus: int, tiles: int | None) -> tuple[int, int]:
    """The first and last tile corner (steps of 3) of a window of ``tiles`` tiles around ``focus``."""
    count = (high - low) // 3 + 1
    if tiles is None or count <= tiles:
        return low, high
    start = max(0, min(count - tiles, (focus - low) // 3 - (tiles - 1) // 2))
    return low + 3 * start, low + 3 * (start + tiles - 1)


class CityPicture:
    """The city fitted to the console: as many tile rows and columns as the terminal has room for."""

    def __init__(self, state: Mapping[str, Any], events: Sequence[Mapping[str, Any]] = ()) -> None:
        self.state = state
        # The newest tile laid or object placed among the events just shown, else the last tile.
        moves = [e for e in events if e["kind"] in ("lay", "place")]
        self.focus = (moves[-1]["x"], moves[-1]["y"]) if moves else None

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        height = options.height or console.height
        rows = max(3, (height - 12) // 3)
        cols = max(3, (options.max_width - 5) // 10)
        yield render_city(self.state, rows, cols, self.focus)


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
    turns = [["".join(t[r * 3 : r * 3 + 3]) for r in range(3)] for t in drawn["turns"]]
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
        f"Multicity — {who} · {PHASE_WORDS.get(state['phase'], state['phase'])} · stack: {state['stack']} tiles · first player: seat "
        f"{state['first_player']}" + (" · " + ", ".join(extra) if extra else ""),
        style="bold",
    )
    if state["final_round"]:
        header.append(f"\nfinal round: still to place {state['final_round']}", style="bold magenta")
    parts: list[RenderableType] = [header, CityPicture(state, view["events"])]
    if state["drawn"] is not None:
        parts.append(render_drawn(state["drawn"]))
    parts.append(render_players(state))
    parts.append(
        Text(
            "letters: symbols (g r b y) · ^: hole · G5: an end of green's 5-object, its middle drawn as a line",
            style="dim",
        )
    )
    for event in view["events"][-LOG_LINES:]:
        parts.append(Text("  " + describe_event(event), style="dim"))
    # Alike in shape to machikoro/render.py on purpose: each game words its own events and views; only the
    # shape is shared.
    return Group(*parts)


def status_line(view: Mapping[str, Any]) -> str:
    """The viewer's essentials in one line for the prompt: squares and objects left, the stack."""
    state = view["state"]
    head = f"{state['phase'].replace('_', ' ')}, {state['stack']} tiles in the stack"
    seat = view.get("seat")
    if seat is None:
        return f"spectator; {head}"
    me = state["players"][seat]
    left = ", ".join(str(length) for length in me["unplaced"]) or "none"
    return f"P{seat} (you, {me['colour']}): {me['remaining_squares']} squares left, objects {left}; {head}"
