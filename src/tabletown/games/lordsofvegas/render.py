"""All Lords of Vegas wording for the terminal: the board (west blocks | the Strip | east blocks),
the players, the cards left per colour, whatever decision is pending, and the events.

Views and events are data (lot ids such as ``c5``, colour ids, seats, numbers); this module turns them
into names and sentences. Nothing here reads the rules' state.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rich.console import Group
from rich.table import Table
from rich.text import Text

from ...core.words import PLAIN, Names
from .data import (
    COST,
    DICE_PER_PLAYER,
    DIE,
    GRID,
    INSTANT_WIN,
    LOT_NAMES,
    MARKERS_PER_PLAYER,
    NEXT_STEP,
    NUM_LOTS,
    SCORE_TRACK,
)

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
LOG_LINES = 8


def seat_text(seat: int | None) -> Text:
    if seat is None:
        return Text("-")
    return Text(f"P{seat}", style=SEAT_STYLE[seat % 4])


def _cell(entry: Mapping[str, Any], lot: int, excluded: bool, bosses: Mapping[str, int | None]) -> Text:
    """One short cell: 'C10 $9 d3' (empty: cost, printed die), 'C4 $6 P0' (marker), 'C12 gr5P1*' (tile:
    colour, die, owner; * marks a die of the casino's boss)."""
    name = f"{LOT_NAMES[lot].upper():<3} "
    colour = entry.get("tile")
    if colour:
        text = Text(name)
        style = TILE_STYLE[colour]
        if "die" in entry:
            shown = entry["die"] or "?"  # 0: a re-rolled die waiting to be placed
            text.append(f"{colour[:2]}{shown}", style=style)
            text.append_text(seat_text(entry["owner"]))
            if bosses.get(entry.get("casino", "")) == entry["owner"]:
                text.append("*", style="bold")
        else:
            text.append(f"{colour[:2]}-", style=style)
        return text
    if excluded:
        return Text(f"{name}--", style="dim")
    text = Text(f"{name}${COST[lot]:<2} ", style="dim")
    if "marker" in entry:
        text.append_text(seat_text(entry["marker"]))
    else:
        text.append(f"d{DIE[lot]}", style="dim")
    return text


def render_board(state: Mapping[str, Any], num_players: int) -> Table:
    table = Table.grid(padding=(0, 1))
    for col in range(7):
        table.add_column(justify="center" if col == 3 else "left", no_wrap=True)
    by_grid = {GRID[lot]: lot for lot in range(NUM_LOTS)}
    board = state["board"]
    bosses = {casino["lots"][0]: casino["boss"] for casino in state["casinos"]}
    table.add_row(*(Text(h, style="bold dim") for h in ("", "west", "", "Strip", "", "east", "")))
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
                cells.append(_cell(board[lot], lot, excluded, bosses))
        table.add_row(*cells)
    return table


def render_casinos(state: Mapping[str, Any]) -> Text | None:
    """Each casino as a group: colour, its lots, size, the Strip, and its boss."""
    if not state["casinos"]:
        return None
    text = Text("casinos: ")
    for i, casino in enumerate(state["casinos"]):
        if i:
            text.append("; ")
        text.append(casino["color"], style=TILE_STYLE[casino["color"]])
        lots = "+".join(_lot(lot) for lot in casino["lots"])
        strip = ", Strip" if casino["strip"] else ""
        text.append(f" {lots} ({casino['size']}{strip}) boss ")
        text.append_text(seat_text(casino["boss"]))
    return text


def _track_text() -> str:
    """The score track with its gaps: runs of squares with the same step between them."""
    runs: list[tuple[int, list[int]]] = []
    for before, square in zip(SCORE_TRACK, SCORE_TRACK[1:], strict=False):
        step = square - before
        if runs and runs[-1][0] == step:
            runs[-1][1].append(square)
        else:
            runs.append((step, [square]))
    parts = []
    for step, squares in runs:
        shown = str(squares[0]) if len(squares) == 1 else f"{squares[0]}..{squares[-1]}"
        parts.append(f"{shown} (+{step})")
    return f"score track (+gap between squares): {SCORE_TRACK[0]}, " + ", ".join(parts)


def next_square(score: int) -> str:
    step = NEXT_STEP.get(score)
    return "-" if step is None else f"{step[0]} (+{step[1]})"


def render_players(view: Mapping[str, Any]) -> Table:
    state = view["state"]
    table = Table(box=None, padding=(0, 1), show_edge=False)
    for heading in ("", "seat", "money", "points", "next", "dice", "markers", "bosses"):
        table.add_column(heading, style="" if heading else "bold")
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
            next_square(p["score"]),
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
            f"offer by P{offer['by']}: {describe_items(offer['items'])} — waiting for "
            + ", ".join(f"P{s}" for s in offer["waiting_for"])
            + " (accept / refuse / counter with an offer)",
            style="bold magenta",
        )
    if "gamble" in state:
        g = state["gamble"]
        return Text(
            f"P{g['gambler']} bets ${g['bet']} at P{g['boss']}'s casino: P{g['boss']} chooses layoff "
            "(the bank pays or takes half of the win or loss) or nolayoff",
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
    """The board in about 24 lines: lots one per cell, casinos as groups, players with the score
    track's next square, cards left, what is pending and the newest events."""
    state = view["state"]
    legend = Text(
        "lot $cost dN=printed die | P0=marker | gr5P1=green tile, die 5 of P1 (*=boss's die)",
        style="dim",
    )
    parts: list[Any] = [legend, render_board(state, view["num_players"])]
    casinos = render_casinos(state)
    if casinos is not None:
        parts.append(casinos)
    parts += [render_players(view), Text(_track_text(), style="dim"), render_cards(state)]
    if state["promised"]:
        parts.append(Text("promised this turn: " + ", ".join(describe_promise(p) for p in state["promised"])))
    pending = render_pending(state)
    if pending is not None:
        parts.append(pending)
    if view["result"]:
        parts.append(Text(f"game over: winners {view['result']['winners']}", style="bold green"))
    log = [line for event in view["events"][-LOG_LINES:] for line in log_lines(event)]
    if log:
        parts.append(Text("\n".join(f"· {line}" for line in log), style="dim"))
    return Group(*parts)


def log_lines(event: Mapping[str, Any]) -> list[str]:
    """The log's lines for one event: a bet rolled after a lay-off shows the lay-off on its own line."""
    if event.get("kind") == "gamble_roll" and event.get("layoff"):
        return [f"P{event['boss']} (boss) lays off half the bet to the bank", describe_event(event)]
    return [describe_event(event)]


def status_line(view: Mapping[str, Any]) -> str:
    """The viewer's essentials in one short line: money, points, dice and markers left, the phase."""
    state = view["state"]
    seat = view.get("seat")
    phase = state["phase"].replace("_", " ")
    head = f"turn {state['turn']}, P{state['active']} active, {phase}"
    if seat is None:
        return f"spectator; {head}; deck {state['deck_size']}"
    me = state["players"][seat]
    return (
        f"P{seat}: ${me['money']}, {me['score']} points, {me['dice_left']} dice, "
        f"{me['markers_left']} markers; {head}"
    )


# --- events ------------------------------------------------------------------------------------------
def _lot(lot_id: str | None) -> str:
    return lot_id.upper() if lot_id else "?"


def _seat_amounts(amounts: list[int], n: Names = PLAIN) -> str:
    return ", ".join(f"{n.who(seat)} ${amount}" for seat, amount in enumerate(amounts) if amount)


def describe_promise(promise: Mapping[str, Any]) -> str:
    where = f" at {_lot(promise['lot'])}" if promise.get("lot") else ""
    return f"no {promise['action']}{where}"


def describe_items(items: list[Mapping[str, Any]], names: Names | None = None) -> str:
    """Trade items (as views and events hold them) in plain words."""
    n = names or PLAIN
    parts = []
    for item in items:
        giver, receiver, kind, value = item["giver"], item["receiver"], item["kind"], item["value"]
        if kind == "$":
            what = f"${value}"
        elif kind == "lot":
            what = f"lot {_lot(value)}"
        elif kind == "die":
            what = f"the die on {_lot(value)}"
        else:
            where = f" at {_lot(value)}" if value else ""
            parts.append(
                f"{n.subject(giver, 'will not', start=False)} "
                f"{kind[3:]}{where} this turn (for {n.who(receiver)})"
            )
            continue
        parts.append(f"{n.subject(giver, 'gives', start=False)} {what} to {n.who(receiver)}")
    return "; ".join(parts)


def describe_event(event: Mapping[str, Any], names: Names | None = None, lang: str = "en") -> str:
    """One event of a view (``{"i", "kind", ...}``) as a sentence: seats as ``P0``... for the terminal,
    or by their players' names ("you" for the reader) with ``names``."""
    kind = event.get("kind")
    words = _WORDS.get(kind)  # type: ignore[arg-type]
    if words is not None:
        text = words(event, _Says(names or PLAIN, event.get("seat")))
        return text[:1].upper() + text[1:] if names else text
    data = ", ".join(f"{k}={v}" for k, v in event.items() if k not in ("i", "kind", "private"))
    return f"{kind}: {data}" if data else str(kind)


class _Says:
    """The event's seat as a subject (``s("rolls")`` -> "Alice rolls" / "you roll") and the names."""

    def __init__(self, names: Names, seat: object) -> None:
        self.n, self.seat = names, seat

    def __call__(self, verb: str) -> str:
        return self.n.subject(self.seat, verb, start=False)

    @property
    def their(self) -> str:
        return self.n.their(self.seat)


def _gamble_roll(e: Mapping[str, Any], s: _Says) -> str:
    n = s.n
    a, b = e["dice"]
    note = " (half laid off to the bank)" if e["layoff"] else ""
    if e["won"]:
        bank = f", the bank ${e['bank_pays']}" if e["bank_pays"] else ""
        return (
            f"{s('rolls')} {a}+{b}={e['total']} and {s('wins').split(' ', 1)[1]} ${e['stake']}{note}: "
            f"{n.subject(e['boss'], 'pays', start=False)} ${e['boss_pays']}{bank}"
        )
    return (
        f"{s('rolls')} {a}+{b}={e['total']} and {s('loses').split(' ', 1)[1]} ${e['bet']}{note}: "
        f"{n.subject(e['boss'], 'gets', start=False)} ${e['boss_gets']}"
    )


def _take_over(e: Mapping[str, Any], s: _Says) -> str:
    if e["from_seat"] is None:
        return f"{s('takes over')} {_lot(e['lot'])}: a die showing {e['value']} on the empty tile"
    return (
        f"{s('takes over')} {_lot(e['lot'])}: {s.n.whose(e['from_seat'])} die is replaced, "
        f"still showing {e['value']}"
    )


def _game_over(e: Mapping[str, Any], s: _Says) -> str:
    if e["reason"] == "instant_win":
        return f"the game ends: {s('reaches')} {INSTANT_WIN} points"
    return "the game ends (Game End was drawn)"


def _tie(e: Mapping[str, Any], s: _Says) -> str:
    dice = ", ".join(f"{d['value']} ({s.n.who(d['seat'])})" for d in e["dice"])
    return f"tie for boss at {_lot(e['casino'])}: dice showing {e['value']} re-rolled to {dice}"


def _reorg(e: Mapping[str, Any], s: _Says) -> str:
    rolls = "; ".join(
        f"{s.n.subject(r['seat'], 'rolls', start=False)} {', '.join(map(str, r['values']))}"
        for r in e["rolls"]
    )
    return f"{s('reorganizes')} the {e['color']} casino at {_lot(e['casino'])} for ${e['cost']}: {rolls}"


_WORDS: dict[str, Any] = {
    "deck_shuffled": lambda e, s: f"the {e['cards']} lot cards are shuffled; Game End is set aside",
    "dealt_again": lambda e, s: (
        f"{s('is dealt')} {_lot(e['lot'])}: F is not used with 2 players, dealt again"
    ),
    "dealt": lambda e, s: (
        f"{s('is dealt')} {' and '.join(_lot(x) for x in e['lots'])}: markers placed, "
        f"{s('starts').split(' ', 1)[1]} with ${e['money']}"
    ),
    "game_end_placed": lambda e, s: f"Game End is placed under the top {e['above']} of {e['cards']} cards",
    "roll_off": lambda e, s: (
        "roll-off: "
        + ", ".join(
            f"{s.n.subject(q, 'rolls', start=False)} {t}"
            for q, t in zip(e["seats"], e["totals"], strict=True)
        )
    ),
    "first_player": lambda e, s: f"{s('goes')} first",
    "draw": lambda e, s: f"{s('draws')} {_lot(e['lot'])} ({e['pays']})",
    "draw_unused": lambda e, s: (
        f"{s('draws')} {_lot(e['lot'])} ({e['pays']}): nothing is placed on F; {s('draws').split(' ', 1)[1]} again"
    ),
    "draw_game_end": lambda e, s: f"{s('draws')} Game End: the Strip and the lots pay one last time",
    "marker": lambda e, s: f"{s('puts')} a marker on {_lot(e['lot'])}",
    "must_free_lot": lambda e, s: (
        f"{s('has')} all {MARKERS_PER_PLAYER} markers out and must free a lot to take {_lot(e['lot'])}"
    ),
    "free_lot": lambda e, s: f"{s('frees')} {_lot(e['lot'])} to put a marker on {_lot(e['target'])}",
    "take_over": _take_over,
    "must_move_die": lambda e, s: (
        f"{s('has')} all {DICE_PER_PLAYER} dice out and must move one to {_lot(e['lot'])}"
    ),
    "move_die": lambda e, s: (
        f"{s('moves')} {s.their} die from {_lot(e['from_lot'])} to {_lot(e['to_lot'])} "
        f"(showing {e['value']}); {_lot(e['from_lot'])} is left without a die"
    ),
    "lots_pay": lambda e, s: "lots pay $1 per marker: " + _seat_amounts(e["amounts"], s.n),
    "casino_pays": lambda e, s: (
        f"the {e['color']} casino at {_lot(e['casino'])} ({e['size']} tiles) pays "
        f"{_seat_amounts(e['amounts'], s.n)}; boss {s.n.subject(e['boss'], 'scores', start=False)} {e['size']}"
    ),
    "score": lambda e, s: f"{s('moves')} from {e['from']} to {e['to']} points",
    "tie_reroll": _tie,
    "build": lambda e, s: f"{s('builds')} a {e['color']} casino on {_lot(e['lot'])} for ${e['cost']}",
    "sprawl": lambda e, s: f"{s('sprawls')} a {e['color']} casino onto {_lot(e['lot'])} for ${e['cost']}",
    "remodel": lambda e, s: (
        f"{s('remodels')} the {e['from_color']} casino at {_lot(e['casino'])} ({e['size']} tiles) "
        f"to {e['to_color']} for ${e['cost']}"
    ),
    "reorg": _reorg,
    "put": lambda e, s: f"{s('puts')} a {e['value']} on {_lot(e['lot'])}",
    "gamble": lambda e, s: (
        f"{s('bets')} ${e['bet']} at {s.n.whose(e['boss'])} {e['color']} casino at {_lot(e['casino'])}"
    ),
    "gamble_roll": _gamble_roll,
    "offer": lambda e, s: f"{s('offers')}: {describe_items(e['items'], s.n)}",
    "counter": lambda e, s: f"{s('refuses')} the offer and {s('counters').split(' ', 1)[1]}",
    "accept": lambda e, s: f"{s('accepts')}",
    "refuse": lambda e, s: f"{s('refuses')} the offer",
    "trade_done": lambda e, s: "the trade is done",
    "end_turn": lambda e, s: f"{s('ends')} the turn",
    "market_open": lambda e, s: "the market is open: the other players may offer trades",
    "pass": lambda e, s: f"{s('makes')} no offer",
    "game_over": _game_over,
}
