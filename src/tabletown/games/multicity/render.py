"""Rich picture of a Multicity view: the city with typeable coordinates, the drawn tile, the players.

Every square is three characters wide under its column number; rows carry their number at the
left. Tiles are set apart by a blank column and a blank line so the 3x3 grid is easy to see. When
a tile has been drawn, the free slots show the X,Y to type in ``t X,Y rN``.

Every sentence speaks through core.i18n's Speaker (catalogs in ``locale/``): the English text is the
message, so English is exactly what it always was. Printed names (colours, the hole, the final round,
the kids' variant) come from ``glossary.json`` in the other languages; the notation (tile numbers,
coordinates, ``rN``, the letters g r b y) stays as it is in every language.
"""

from __future__ import annotations

import functools
import json
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from rich.console import Console, ConsoleOptions, Group, RenderableType, RenderResult
from rich.table import Table
from rich.text import Text

from ...core.i18n import DEFAULT, N_, Speaker, glossary_term
from ...core.screen import Fold, Log, fit
from ...core.words import Names
from .tiles import COLOURS

DOMAIN = "multicity"
GLOSSARY = Path(__file__).with_name("glossary.json")
STYLES = {"g": "bold green", "r": "bold red", "b": "bold bright_blue", "y": "bold yellow"}
SEAT_STYLES = ("green", "red", "bright_blue", "yellow")
HOLE_STYLE = "orange3"
LOG_LINES = 8  # the newest events a whole board shows (a replay, a redraw); a prompt shows every unseen one
PHASE_WORDS = {"play": "play", "final_round": "final round", "over": "over"}


@functools.cache
def glossary() -> dict[str, dict[str, Any]]:
    """The printed names by id (glossary.json): ``{id: {"en": ..., "pl": ..., "de": ..., "ru": ...}}``."""
    terms: dict[str, dict[str, Any]] = json.loads(GLOSSARY.read_text(encoding="utf-8"))["terms"]
    return terms


def term(key: str, lang: str = DEFAULT) -> str:
    """A printed name (a glossary id) in ``lang``; English is the game's own word."""
    return glossary_term(glossary(), key, lang)


@functools.cache
def speaker(lang: str = DEFAULT) -> Speaker:
    """The game's words in ``lang`` for no reader in particular (the terminal, the board's labels)."""
    return Speaker(domain=DOMAIN, lang=lang)


def colour_name(seat: int, lang: str = DEFAULT) -> str:
    """A seat's colour as the players call it ("green"; "zielony", "Grün", "зелёный")."""
    return COLOURS[seat] if speaker(lang).english else term(COLOURS[seat], lang)


def phase_word(phase: str, lang: str = DEFAULT) -> str:
    """The phase of a view in words ("final round")."""
    sp = speaker(lang)
    if sp.english:
        return PHASE_WORDS.get(phase, phase)
    if phase == "final_round":
        return term("final_round", sp.lang)
    if phase == "play":
        return sp.trp("phase", "play")
    if phase == "over":
        return sp.trp("phase", "over")
    return phase


def seat_name(seat: int, lang: str = DEFAULT) -> str:
    """A seat by number and colour, the terminal's name for it: "seat 1 (red)"."""
    return speaker(lang).tr("seat {seat} ({colour})", seat=seat, colour=colour_name(seat, lang))


def describe_event(event: Mapping[str, Any], names: Names | None = None, lang: str = DEFAULT) -> str:
    """One event of a view (docs/games/multicity.md, "Events") as a sentence in ``lang``: seats by
    number and colour for the terminal, or by their players' names ("You" for the reader)."""
    sp = Speaker(domain=DOMAIN, lang=lang, names=names)
    text = _describe(event, names, sp)
    return text[:1].upper() + text[1:] if names else text


def _describe(event: Mapping[str, Any], names: Names | None, sp: Speaker) -> str:
    kind = event["kind"]
    seat = event.get("seat")

    def who(q: Any) -> str:
        """A seat as an object: "you" (English, for the reader), a name, or "seat 1 (red)"."""
        return sp.who(q) if names else seat_name(q, sp.lang)

    def said(q: Any, other: str, you: str, **fields: Any) -> str:
        """The sentence whose subject is seat ``q``: ``you`` for the reader, else ``other``."""
        if names:
            return sp.said(q, other, you, **fields)
        return sp.tr(other, who=seat_name(q, sp.lang), **fields)

    # The event sentences below are alike by shape to newlasvegas/words.py's on purpose: each game
    # words its own events, every message written out for the catalogs.
    if kind == "shuffle":
        # i18n: the whole deck in play (at least 2 tiles) is shuffled at the start
        return sp.trn(
            "the {count} city tile is shuffled face down",
            "the {count} city tiles are shuffled face down",
            event["tiles"],
        )
    if kind == "start_tile":
        return sp.tr("tile {tile} is turned up as the start of the city", tile=event["tile"])
    if kind == "first_player":
        if event["drawn"]:
            return said(
                seat, N_("{who} plays first (drawn at random)"), N_("you play first (drawn at random)")
            )
        return said(
            seat, N_("{who} plays first (set by the options)"), N_("you play first (set by the options)")
        )
    if kind == "draw":
        if names:  # (people see the tile on the board; its number is the terminal's)
            return said(
                seat,
                N_("{who} draws a tile ({stack} left in the stack)"),
                N_("you draw a tile ({stack} left in the stack)"),
                stack=sp.number(event["stack"]),
            )
        return sp.tr(
            "{who} draws tile {tile} ({stack} left in the stack)",
            who=who(seat),
            tile=event["tile"],
            stack=event["stack"],
        )
    if kind == "lay":
        if names:
            return said(
                seat,
                # i18n: {where} is a phrase such as "2 tiles right and 1 up from the start tile"; {turned} a
                # phrase such as "turned half round"
                N_("{who} lays the tile {where}, {turned}"),
                N_("you lay the tile {where}, {turned}"),
                where=_from_start(event["x"], event["y"], sp.lang),
                turned=sp.tr(TURN_WORDS[event["turn"]]),
            )
        return sp.tr(
            "{who} lays tile {tile} at {x},{y} turned r{turn}",
            who=who(seat),
            tile=event["tile"],
            x=event["x"],
            y=event["y"],
            turn=event["turn"],
        )
    if kind == "place":
        length, x, y = event["length"], event["x"], event["y"]
        if names:  # where it lies is drawn on the board (the last move is marked there)
            if event["vertical"]:
                return said(
                    seat,
                    N_("{who} places their {length}-field object, standing"),
                    N_("you place your {length}-field object, standing"),
                    length=length,
                )
            return said(
                seat,
                N_("{who} places their {length}-field object, lying"),
                N_("you place your {length}-field object, lying"),
                length=length,
            )
        x2, y2 = (x, y + length - 1) if event["vertical"] else (x + length - 1, y)
        return sp.tr(
            "{who} places its {length}-object from {x},{y} to {x2},{y2}",
            who=who(seat),
            length=length,
            x=x,
            y=y,
            x2=x2,
            y2=y2,
        )
    if kind == "final_round":
        # Alike in shape to newlasvegas/render.py on purpose: each game words its own events and views;
        # only the shape is shared.
        return said(
            seat,
            # i18n: {first} is the player who places first in the final round (the game's first player)
            N_("{who} laid the last tile: everyone may place one more object, from {first}"),
            N_("you laid the last tile: everyone may place one more object, from {first}"),
            first=who(event["first_seat"]),
        )
    if kind == "pass":
        return said(
            seat, N_("{who} places nothing in the final round"), N_("you place nothing in the final round")
        )
    if kind == "turn_lost":
        return said(
            seat,
            N_("{who} cannot place any object and loses the turn"),
            N_("you cannot place any object and lose the turn"),
        )
    if kind == "game_over":
        winners = event["winners"]
        if len(winners) > 1:
            seats = [who(s) for s in winners]
            joined = ", ".join(seats) if sp.english else sp.listed(seats)
            return sp.tr("shared win: {winners}", winners=joined)
        if event["reason"] == "six_objects":
            return said(
                winners[0],
                N_("{who} has placed all six objects and wins"),
                N_("you have placed all six objects and win"),
            )
        return said(
            winners[0],
            N_("{who} wins with the fewest squares left to place"),
            N_("you win with the fewest squares left to place"),
        )
    data = ", ".join(f"{k}={v}" for k, v in event.items() if k not in ("i", "kind", "private"))
    return f"{kind}: {data}"


# Quarter turns clockwise (the notation's rN) as a person says them.
TURN_WORDS = (
    N_("not turned"),
    N_("turned a quarter clockwise"),
    N_("turned half round"),
    N_("turned a quarter anticlockwise"),
)


def _from_start(x: int, y: int, lang: str = DEFAULT) -> str:
    """Where the tile with its corner at x,y lies from the start tile, in tiles ("2 tiles right and
    1 up from the start tile"): tiles lie on a grid of 3 squares."""
    sp = speaker(lang)
    across, down = x // 3, y // 3
    steps, rows = abs(across), sp.number(abs(down))
    if across > 0 and down > 0:
        return sp.trn(
            "{count} tile right and {down} down from the start tile",
            "{count} tiles right and {down} down from the start tile",
            steps,
            down=rows,
        )
    if across > 0 and down < 0:
        return sp.trn(
            "{count} tile right and {down} up from the start tile",
            "{count} tiles right and {down} up from the start tile",
            steps,
            down=rows,
        )
    if across < 0 and down > 0:
        return sp.trn(
            "{count} tile left and {down} down from the start tile",
            "{count} tiles left and {down} down from the start tile",
            steps,
            down=rows,
        )
    if across < 0 and down < 0:
        return sp.trn(
            "{count} tile left and {down} up from the start tile",
            "{count} tiles left and {down} up from the start tile",
            steps,
            down=rows,
        )
    if across > 0:
        return sp.trn(
            "{count} tile right from the start tile", "{count} tiles right from the start tile", steps
        )
    if across < 0:
        return sp.trn(
            "{count} tile left from the start tile", "{count} tiles left from the start tile", steps
        )
    if down > 0:
        return sp.trn(
            "{count} tile down from the start tile", "{count} tiles down from the start tile", abs(down)
        )
    if down < 0:
        return sp.trn(
            "{count} tile up from the start tile", "{count} tiles up from the start tile", abs(down)
        )
    return sp.tr("on the start tile")


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
    lang: str = DEFAULT,
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
        sp = speaker(lang)
        text.append(
            sp.tr(
                "city window: x {x_lo}..{x_hi}, y {y_lo}..{y_hi} of x {x_min}..{x_max}, y {y_min}..{y_max} "
                "(around the last move, at {x},{y})",
                x_lo=x_lo,
                x_hi=x_hi + 2,
                y_lo=y_lo,
                y_hi=y_hi + 2,
                x_min=min(xs),
                x_max=max(xs) + 2,
                y_min=min(ys),
                y_max=max(ys) + 2,
                x=focus[0],
                y=focus[1],
            )
            + "\n",
            style="bold yellow",
        )
        outside = sorted((x, y) for x, y in slots if not (x_lo <= x <= x_hi and y_lo <= y <= y_hi))
        if outside:
            text.append(
                sp.tr(
                    "free slots outside the window: {slots}", slots=" ".join(f"{x},{y}" for x, y in outside)
                )
                + "\n",
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
    """The city fitted to the console: as many tile rows and columns as the terminal has room for
    (``rows``: at most that many tile rows; None: as many as its height leaves room for; 0: every
    one of them)."""

    def __init__(
        self,
        state: Mapping[str, Any],
        events: Sequence[Mapping[str, Any]] = (),
        lang: str = DEFAULT,
        rows: int | None = None,
    ) -> None:
        self.state = state
        self.lang = lang
        self.rows = rows
        # The newest tile laid or object placed among the events just shown, else the last tile.
        moves = [e for e in events if e["kind"] in ("lay", "place")]
        self.focus = (moves[-1]["x"], moves[-1]["y"]) if moves else None

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        if self.rows is None:
            height = options.height or console.height
            rows: int | None = max(3, (height - 12) // 3)
        else:
            rows = self.rows or None
        cols = max(3, (options.max_width - 5) // 10)
        yield render_city(self.state, rows, cols, self.focus, self.lang)


def city_fold(state: Mapping[str, Any], events: Sequence[Mapping[str, Any]], lang: str, rank: int) -> Fold:
    """The city for a fitted screen: every tile row, then one row fewer at a time down to one (two
    while other parts can still fold)."""
    ys = [tile["y"] for tile in state["tiles"]] + [y for _x, y in state["free_slots"]]
    count = (max(ys) - min(ys)) // 3 + 1 if ys else 1
    forms = [CityPicture(state, events, lang, rows=0)]
    forms += [CityPicture(state, events, lang, rows=r) for r in range(count, 0, -1)]
    return Fold(*forms, rank=rank, soft=max(1, count - 1))


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


def render_drawn(drawn: Mapping[str, Any], lang: str = DEFAULT) -> Text:
    text = Text(
        speaker(lang).tr("drawn tile {tile}, its four turns:", tile=drawn["tile"]) + "\n", style="bold"
    )
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


def render_players(state: Mapping[str, Any], lang: str = DEFAULT) -> Table:
    sp = speaker(lang)
    table = Table(show_edge=False, pad_edge=False)
    columns = (
        "",
        sp.trp("column", "seat"),
        sp.trp("column", "colour"),
        sp.trp("column", "objects to place"),
        sp.trp("column", "placed"),
        sp.trp("column", "squares left"),
    )
    for column in columns:
        table.add_column(column)
    for player in state["players"]:
        seat = player["seat"]
        table.add_row(
            "▶" if state["turn"] == seat else "",
            str(seat),
            Text(
                player["colour"] if sp.english else colour_name(seat, lang), style=f"bold {SEAT_STYLES[seat]}"
            ),
            " ".join(str(n) for n in player["unplaced"]) or "-",
            " ".join(str(n) for n in player["placed"]) or "-",
            str(player["remaining_squares"]),
        )
    return table


def render_view(
    view: Mapping[str, Any], lang: str = DEFAULT, all_events: bool = False, height: int | None = None
) -> RenderableType:
    """The city, the drawn tile, the players and the newest events (``all_events``: every event of
    the view, which then holds only those its seat has not been shown yet). With ``height`` it folds
    to that many rows (core.screen): the log to its newest events, the legend, the players' table
    (the status line keeps the reader's own), the city to fewer tile rows around the last move; the
    header and the drawn tile always stay."""
    sp = speaker(lang)
    state = view["state"]
    turn = state["turn"]
    extra = []
    if state["kids"]:
        extra.append("kids' variant" if sp.english else term("kids", sp.lang))
    if state["overlap"] == "loose":
        extra.append(sp.tr("loose overlap"))
    if turn is None:  # the phase is "over": said once
        heading = sp.trn(
            "Multicity — game over · stack: {count} tile · first player: seat {first}",
            "Multicity — game over · stack: {count} tiles · first player: seat {first}",
            state["stack"],
            first=state["first_player"],
        )
    else:
        heading = sp.trn(
            "Multicity — seat {seat} to play · {phase} · stack: {count} tile · first player: seat {first}",
            "Multicity — seat {seat} to play · {phase} · stack: {count} tiles · first player: seat {first}",
            state["stack"],
            seat=turn,
            phase=phase_word(state["phase"], lang),
            first=state["first_player"],
        )
    header = Text(heading + (" · " + ", ".join(extra) if extra else ""), style="bold")
    if state["final_round"]:
        seats = ", ".join(seat_name(seat, lang) for seat in state["final_round"])
        header.append(
            "\n" + sp.tr("final round: still to place: {seats}", seats=seats),
            style="bold magenta",
        )
    if height is None:
        city: RenderableType | Fold = CityPicture(state, view["events"], lang)
    else:
        city = city_fold(state, view["events"], lang, rank=3)
    parts: list[RenderableType | Fold] = [header, city]
    if state["drawn"] is not None:
        drawn = render_drawn(state["drawn"], lang)
        tight = drawn.copy()
        tight.rstrip()  # without the blank row under the four turns
        parts.append(Fold(drawn, tight, rank=1))
    parts.append(Fold(render_players(state, lang), Group(), rank=2))
    legend = sp.tr(
        "letters: symbols (g r b y) · ^: hole · G5: an end of green's 5-object, its middle drawn as a line"
    )
    parts.append(Fold(Text(legend, style="dim"), Group(), rank=1))
    events = view["events"] if all_events else view["events"][-LOG_LINES:]
    if events:
        parts.append(Log([describe_event(event, lang=lang) for event in events], lang, prefix="  "))
    # Alike in shape to machikoro/render.py on purpose: each game words its own events and views; only the
    # shape is shared.
    return fit(parts, height)


def status_line(view: Mapping[str, Any], lang: str = DEFAULT) -> str:
    """The viewer's essentials in one line for the prompt: squares and objects left, the stack."""
    sp = speaker(lang)
    state = view["state"]
    # i18n: English says "tiles" whatever the number; the translation takes the number's form
    head = sp.trn(
        "{phase}, {count} tiles in the stack",
        "{phase}, {count} tiles in the stack",
        state["stack"],
        phase=phase_word(state["phase"], lang),
    )
    seat = view.get("seat")
    if seat is None:
        return sp.tr("spectator; {head}", head=head)
    me = state["players"][seat]
    left = ", ".join(str(length) for length in me["unplaced"]) or sp.trp("objects", "none")
    # i18n: English says "squares" whatever the number; the translation takes the number's form
    return sp.trn(
        "P{seat} (you, {colour}): {count} squares left, objects {left}; {head}",
        "P{seat} (you, {colour}): {count} squares left, objects {left}; {head}",
        me["remaining_squares"],
        seat=seat,
        colour=me["colour"] if sp.english else colour_name(seat, lang),
        left=left,
        head=head,
    )
