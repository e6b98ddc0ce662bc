"""All Lords of Vegas wording for the terminal: the board (west blocks | the Strip | east blocks),
the players, the cards left per colour, whatever decision is pending, and the events.

Views and events are data (lot ids such as ``c5``, colour ids, seats, numbers); this module turns them
into names and sentences, in English or through the game's catalogs (core.i18n: a ``Speaker`` per
call, the printed names from ``glossary.json``). Nothing here reads the rules' state.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from functools import cache
from importlib import resources
from typing import Any

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from ...core.i18n import N_, Speaker, glossary_term
from ...core.screen import Fold, Log, fit
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

DOMAIN = "lordsofvegas"
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
STREET_IDS = {"Flamingo": "flamingo", "Harmon": "harmon", "Monte Carlo": "monte_carlo"}
LOG_LINES = 8  # the newest events a whole board shows (a replay, a redraw); a prompt shows every unseen one


@cache
def glossary() -> dict[str, dict[str, Any]]:
    """The printed names (``glossary.json``): term id -> {"en", "pl", "de", "ru", "source"}."""
    text = resources.files(__package__).joinpath("glossary.json").read_text(encoding="utf-8")
    terms: dict[str, dict[str, Any]] = json.loads(text)["terms"]
    return terms


def term(sp: Speaker, key: str, english: str | None = None) -> str:
    """A named thing (colour, the Strip, Game End, an action, a street) in the reader's language;
    English keeps the game's own word (``english``, else the id)."""
    if sp.english:
        return key if english is None else english
    return glossary_term(glossary(), key, sp.lang)


def _p(seat: object) -> str:
    """A seat as the terminal writes it: P0, P1..."""
    return f"P{seat}"


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


def render_board(
    state: Mapping[str, Any], num_players: int, lang: str = "en", headings: bool = True
) -> Table:
    """The lots as they lie, west | Strip | east, under a row that names the sides (``headings``)."""
    sp = Speaker(DOMAIN, lang)
    table = Table.grid(padding=(0, 1))
    for col in range(7):
        table.add_column(justify="center" if col == 3 else "left", no_wrap=True)
    by_grid = {GRID[lot]: lot for lot in range(NUM_LOTS)}
    board = state["board"]
    bosses = {casino["lots"][0]: casino["boss"] for casino in state["casinos"]}
    sides = ("", sp.tr("west"), "", term(sp, "strip", "Strip"), "", sp.tr("east"), "")
    if headings:
        table.add_row(*(Text(h, style="bold dim") for h in sides))
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
                shown = term(sp, STREET_IDS[name], name) if name and col in (1, 5) else ""
                cells.append(Text(shown, style="dim italic"))
            else:
                excluded = num_players == 2 and LOT_NAMES[lot].startswith("f")
                cells.append(_cell(board[lot], lot, excluded, bosses))
        table.add_row(*cells)
    return table


def render_casinos(state: Mapping[str, Any], lang: str = "en") -> Text | None:
    """Each casino as a group: colour, its lots, size, the Strip, and its boss."""
    if not state["casinos"]:
        return None
    sp = Speaker(DOMAIN, lang)
    text = Text(sp.tr("casinos: "))
    for i, casino in enumerate(state["casinos"]):
        if i:
            text.append("; ")
        text.append(term(sp, casino["color"]), style=TILE_STYLE[casino["color"]])
        lots = "+".join(_lot(lot) for lot in casino["lots"])
        if casino["strip"]:
            size = sp.tr("{size}, Strip", size=casino["size"])
        else:
            size = str(casino["size"])
        text.append(sp.tr(" {lots} ({size}) boss ", lots=lots, size=size))
        text.append_text(seat_text(casino["boss"]))
    return text


def _track_text(lang: str = "en") -> str:
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
    sp = Speaker(DOMAIN, lang)
    return sp.tr(
        "score track (+gap between squares): {first}, {runs}", first=SCORE_TRACK[0], runs=", ".join(parts)
    )


def next_square(score: int) -> str:
    step = NEXT_STEP.get(score)
    return "-" if step is None else f"{step[0]} (+{step[1]})"


def render_players(view: Mapping[str, Any], lang: str = "en") -> Table:
    sp = Speaker(DOMAIN, lang)
    state = view["state"]
    table = Table(box=None, padding=(0, 1), show_edge=False)
    headings = (
        "",
        sp.tr("seat"),
        sp.tr("money"),
        sp.tr("points"),
        sp.tr("next"),
        sp.tr("dice"),
        sp.tr("markers"),
        sp.tr("bosses"),
    )
    for heading in headings:
        table.add_column(heading, style="" if heading else "bold")
    bosses = [0] * view["num_players"]
    for casino in state["casinos"]:
        if casino["boss"] is not None:
            bosses[casino["boss"]] += 1
    for p in state["players"]:
        mark = "▶" if p["seat"] == state["active"] else ""
        you = sp.tr(" (you)") if view.get("seat") == p["seat"] else ""
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


def render_players_short(view: Mapping[str, Any], lang: str = "en") -> Text:
    """The players in one line, seat, money and points each (the table's other columns are left
    to 'board'; the reader's own dice and markers are on the status line)."""
    sp = Speaker(DOMAIN, lang)
    state = view["state"]
    text = Text(f"{sp.tr('seat')}/{sp.tr('money')}/{sp.tr('points')}:", style="dim")
    for p in state["players"]:
        text.append("  ▶" if p["seat"] == state["active"] else "  ")
        text.append_text(seat_text(p["seat"]))
        text.append(sp.tr(" (you)") if view.get("seat") == p["seat"] else "")
        text.append(f" ${p['money']} {p['score']}")
    return text


def render_cards(state: Mapping[str, Any], lang: str = "en", tiles: bool = True) -> Text:
    """The lot cards left per colour and the deck, then (``tiles``) the casino tiles left."""
    sp = Speaker(DOMAIN, lang)
    text = Text(sp.tr("cards left: "))
    for name, count in state["cards_left"].items():
        style = TILE_STYLE.get(name, "bold yellow")
        text.append(f"{term(sp, name)} {count}", style=style)
        text.append(" ")
    text.append(sp.tr("| deck {deck}", deck=state["deck_size"]))
    if state["cards_before_game_end"] is not None:
        text.append(
            sp.tr(
                ", {game_end} after {cards} more",
                game_end=term(sp, "game_end", "Game End"),
                cards=state["cards_before_game_end"],
            )
        )
    if tiles:
        left = ", ".join(f"{term(sp, k)} {v}" for k, v in state["tiles_left"].items())
        text.append("\n" + sp.tr("tiles left: {tiles}", tiles=left))
    return text


def render_pending(state: Mapping[str, Any], lang: str = "en") -> Text | None:
    sp = Speaker(DOMAIN, lang)
    if "offer" in state:
        offer = state["offer"]
        text = sp.tr(
            "offer by {who}: {items} — waiting for {waiting} (accept / refuse / counter with an offer)",
            who=_p(offer["by"]),
            items=describe_items(offer["items"], lang=lang),
            waiting=", ".join(f"P{s}" for s in offer["waiting_for"]),
        )
        return Text(text, style="bold magenta")
    if "gamble" in state:
        g = state["gamble"]
        text = sp.tr(
            "{gambler} bets ${bet} at {boss}'s casino: {boss} chooses layoff "
            "(the bank pays or takes half of the win or loss) or nolayoff",
            gambler=_p(g["gambler"]),
            bet=g["bet"],
            boss=_p(g["boss"]),
        )
        return Text(text, style="bold magenta")
    if "placing" in state:
        first = state["placing"][0]
        text = sp.tr(
            "{who} places re-rolled values {values} on {lots} (put LOT takes the highest value)",
            who=_p(first["seat"]),
            values=", ".join(map(str, first["values"])),
            lots=", ".join(first["lots"]),
        )
        return Text(text, style="bold magenta")
    if "market" in state:
        text = sp.tr(
            "market after {active}'s turn: {who} may offer a trade or pass",
            active=_p(state["active"]),
            who=_p(state["market"][0]),
        )
        return Text(text, style="bold magenta")
    if "decision" in state:
        d = state["decision"]
        who, lot = f"P{d['seat']}", d["lot"].upper()
        if state["phase"] == "pick_die":
            text = sp.tr("{who} must pick a die to move onto {lot}", who=who, lot=lot)
        else:
            text = sp.tr("{who} must free a lot to take {lot}", who=who, lot=lot)
        return Text(text, style="bold magenta")
    return None


def render_view(
    view: Mapping[str, Any], lang: str = "en", all_events: bool = False, height: int | None = None
) -> RenderableType:
    """The board in about 24 lines: lots one per cell, casinos as groups, players with the score
    track's next square, cards left, what is pending and the newest events (``all_events``: every
    event of the view, which then holds only those its seat has not been shown yet). With ``height``
    it folds to that many rows (core.screen): the log to its newest events, the legend and the score
    track, the casinos' list (the board marks each boss's die), the tiles left, the players' table
    to one line, the sides' names; the lots, the cards left and what is pending always stay."""
    sp = Speaker(DOMAIN, lang)
    state = view["state"]
    legend = Text(
        sp.tr("lot $cost dN=printed die | P0=marker | gr5P1=green tile, die 5 of P1 (*=boss's die)"),
        style="dim",
    )
    board = render_board(state, view["num_players"], lang)
    parts: list[RenderableType | Fold] = [
        Fold(legend, Group(), rank=1),
        Fold(board, render_board(state, view["num_players"], lang, headings=False), rank=4),
    ]
    casinos = render_casinos(state, lang)
    if casinos is not None:
        parts.append(Fold(casinos, Group(), rank=2))
    parts += [
        Fold(render_players(view, lang), render_players_short(view, lang), rank=3),
        Fold(Text(_track_text(lang), style="dim"), Group(), rank=1),
        Fold(render_cards(state, lang), render_cards(state, lang, tiles=False), rank=3),
    ]
    if state["promised"]:
        promised = ", ".join(describe_promise(p, lang) for p in state["promised"])
        parts.append(Text(sp.tr("promised this turn: {promises}", promises=promised)))
    pending = render_pending(state, lang)
    if pending is not None:
        parts.append(pending)
    if view["result"]:
        winners = [_p(seat) for seat in view["result"]["winners"]]
        if len(winners) == 1:
            over = sp.tr("game over: {winner} wins", winner=winners[0])
        else:
            over = sp.tr("game over: a shared win for {winners}", winners=", ".join(winners))
        parts.append(Text(over, style="bold green"))
    events = view["events"] if all_events else view["events"][-LOG_LINES:]
    log = [line for event in events for line in log_lines(event, lang)]
    if log:
        parts.append(Log(log, lang))
    return fit(parts, height)


def log_lines(event: Mapping[str, Any], lang: str = "en") -> list[str]:
    """The log's lines for one event: a bet rolled after a lay-off shows the lay-off on its own line.
    A marker that stays where it was keeps its line: the payout above it said the boss scores, and
    only this line says the points were lost in the gap before the next square."""
    if event.get("kind") == "gamble_roll" and event.get("layoff"):
        sp = Speaker(DOMAIN, lang)
        layoff = sp.tr("{boss} (boss) lays off half the bet to the bank", boss=_p(event["boss"]))
        return [layoff, describe_event(event, lang=lang)]
    return [describe_event(event, lang=lang)]


def status_line(view: Mapping[str, Any], lang: str = "en") -> str:
    """The viewer's essentials in one short line: money, points, dice and markers left, the phase."""
    sp = Speaker(DOMAIN, lang)
    state = view["state"]
    seat = view.get("seat")
    phase = sp.tr(state["phase"].replace("_", " "))
    head = sp.tr(
        "turn {turn}, {active} active, {phase}", turn=state["turn"], active=_p(state["active"]), phase=phase
    )
    # alike by shape to multicity/render.py's status line on purpose: each game words its own
    if seat is None:
        return sp.tr("spectator; {head}; deck {deck}", head=head, deck=state["deck_size"])
    me = state["players"][seat]
    return sp.tr(
        "{seat}: ${money}, {points} points, {dice} dice, {markers} markers; {head}",
        seat=_p(seat),
        money=me["money"],
        points=me["score"],
        dice=me["dice_left"],
        markers=me["markers_left"],
        head=head,
    )


# Marked for the catalogs: the phase names status_line shows.
_PHASES = (
    N_("action"),
    N_("offer"),
    N_("layoff"),
    N_("pick die"),
    N_("free lot"),
    N_("place"),
    N_("over"),
    N_("market"),
)


# --- events ------------------------------------------------------------------------------------------
# Every event sentence below is its own message, written out where it is used: alike by shape to one
# another and to the other games' event words on purpose (the catalogs need literal messages).
def _lot(lot_id: str | None) -> str:
    return lot_id.upper() if lot_id else "?"


def _seat_amounts(amounts: list[int], sp: Speaker) -> str:
    return ", ".join(f"{sp.who(seat)} ${amount}" for seat, amount in enumerate(amounts) if amount)


def describe_promise(promise: Mapping[str, Any], lang: str = "en") -> str:
    sp = Speaker(DOMAIN, lang)
    action = term(sp, promise["action"])
    if promise.get("lot"):
        return sp.tr("no {action} at {lot}", action=action, lot=_lot(promise["lot"]))
    return sp.tr("no {action}", action=action)


def describe_items(items: list[Mapping[str, Any]], names: Names | None = None, lang: str = "en") -> str:
    """Trade items (as views and events hold them) in plain words."""
    return _items(items, Speaker(DOMAIN, lang, names))


def _items(items: list[Mapping[str, Any]], sp: Speaker) -> str:
    parts = []
    for item in items:
        giver, receiver, kind, value = item["giver"], item["receiver"], item["kind"], item["value"]
        to = sp.who(receiver)
        if kind == "$":
            text = sp.said(
                giver,
                N_("{who} gives ${amount} to {to}"),
                N_("you give ${amount} to {to}"),
                amount=value,
                to=to,
            )
        elif kind == "lot":
            text = sp.said(
                giver,
                N_("{who} gives lot {lot} to {to}"),
                N_("you give lot {lot} to {to}"),
                lot=_lot(value),
                to=to,
            )
        elif kind == "die":
            text = sp.said(
                giver,
                N_("{who} gives the die on {lot} to {to}"),
                N_("you give the die on {lot} to {to}"),
                lot=_lot(value),
                to=to,
            )
        elif value:
            text = sp.said(
                giver,
                N_("{who} will not {action} at {lot} this turn (for {to})"),
                N_("you will not {action} at {lot} this turn (for {to})"),
                action=term(sp, kind[3:]),
                lot=_lot(value),
                to=to,
            )
        else:
            text = sp.said(
                giver,
                N_("{who} will not {action} this turn (for {to})"),
                N_("you will not {action} this turn (for {to})"),
                action=term(sp, kind[3:]),
                to=to,
            )
        parts.append(text)
    return "; ".join(parts)


def describe_event(event: Mapping[str, Any], names: Names | None = None, lang: str = "en") -> str:
    """One event of a view (``{"i", "kind", ...}``) as a sentence: seats as ``P0``... for the terminal,
    or by their players' names ("you" for the reader) with ``names``; in ``lang`` (core.i18n)."""
    kind = event.get("kind")
    words = _WORDS.get(kind)  # type: ignore[arg-type]
    if words is not None:
        sp = Speaker(DOMAIN, lang, names or PLAIN)
        text = words(event, sp, event.get("seat"))
        return text[:1].upper() + text[1:] if names else text
    data = ", ".join(f"{k}={v}" for k, v in event.items() if k not in ("i", "kind", "private"))
    return f"{kind}: {data}" if data else str(kind)


Words = Callable[[Mapping[str, Any], Speaker, Any], str]


def _colour(sp: Speaker, colour: str) -> str:
    return term(sp, colour)


def _deck_shuffled(e: Mapping[str, Any], sp: Speaker, seat: Any) -> str:
    return sp.trn(
        "the {count} lot cards are shuffled; {game_end} is set aside",
        "the {count} lot cards are shuffled; {game_end} is set aside",
        e["cards"],
        game_end=term(sp, "game_end", "Game End"),
    )


def _dealt(e: Mapping[str, Any], sp: Speaker, seat: Any) -> str:
    lots = [_lot(x) for x in e["lots"]]
    listed = " and ".join(lots) if sp.english else sp.listed(lots)
    return sp.said(
        seat,
        N_("{who} is dealt {lots}: markers placed, starts with ${money}"),
        N_("you are dealt {lots}: markers placed, start with ${money}"),
        lots=listed,
        money=e["money"],
    )


def _game_end_placed(e: Mapping[str, Any], sp: Speaker, seat: Any) -> str:
    return sp.trn(
        "{game_end} is placed under the top {above} of {count} cards",
        "{game_end} is placed under the top {above} of {count} cards",
        e["cards"],
        game_end=term(sp, "game_end", "Game End"),
        above=e["above"],
    )


def _roll_off(e: Mapping[str, Any], sp: Speaker, seat: Any) -> str:
    rolls = ", ".join(
        sp.said(q, N_("{who} rolls {total}"), N_("you roll {total}"), total=t)
        for q, t in zip(e["seats"], e["totals"], strict=True)
    )
    return sp.tr("roll-off: {rolls}", rolls=rolls)


# The draw and take-over sentences below are alike by shape on purpose: each event kind its own pair of
# sentences, every one written out whole so that the catalogs extract it (see the note on events above).
def _draw(e: Mapping[str, Any], sp: Speaker, seat: Any) -> str:
    return sp.said(
        seat,
        N_("{who} draws {lot} ({pays})"),
        N_("you draw {lot} ({pays})"),
        lot=_lot(e["lot"]),
        pays=_colour(sp, e["pays"]),
    )


def _draw_unused(e: Mapping[str, Any], sp: Speaker, seat: Any) -> str:
    return sp.said(
        seat,
        N_("{who} draws {lot} ({pays}): nothing is placed on F; draws again"),
        N_("you draw {lot} ({pays}): nothing is placed on F; draw again"),
        lot=_lot(e["lot"]),
        pays=_colour(sp, e["pays"]),
    )


def _draw_game_end(e: Mapping[str, Any], sp: Speaker, seat: Any) -> str:
    return sp.said(
        seat,
        N_("{who} draws {game_end}: the Strip and the lots pay one last time"),
        N_("you draw {game_end}: the Strip and the lots pay one last time"),
        game_end=term(sp, "game_end", "Game End"),
    )


def _take_over(e: Mapping[str, Any], sp: Speaker, seat: Any) -> str:
    lot, value, before = _lot(e["lot"]), e["value"], e["from_seat"]
    if before is None:
        return sp.said(
            seat,
            N_("{who} takes over {lot}: a die showing {value} on the empty tile"),
            N_("you take over {lot}: a die showing {value} on the empty tile"),
            lot=lot,
            value=value,
        )
    if sp.names.you(before):
        return sp.said(
            seat,
            N_("{who} takes over {lot}: your die is replaced, still showing {value}"),
            N_("you take over {lot}: your die is replaced, still showing {value}"),
            lot=lot,
            value=value,
        )
    return sp.said(
        seat,
        N_("{who} takes over {lot}: {owner}'s die is replaced, still showing {value}"),
        N_("you take over {lot}: {owner}'s die is replaced, still showing {value}"),
        lot=lot,
        value=value,
        owner=sp.name(before),
    )


def _move_die(e: Mapping[str, Any], sp: Speaker, seat: Any) -> str:
    return sp.said(
        seat,
        N_(
            "{who} moves their die from {source} to {target} (showing {value}); {source} is left without a die"
        ),
        N_("you move your die from {source} to {target} (showing {value}); {source} is left without a die"),
        source=_lot(e["from_lot"]),
        target=_lot(e["to_lot"]),
        value=e["value"],
    )


def _casino_pays(e: Mapping[str, Any], sp: Speaker, seat: Any) -> str:
    boss, size = e["boss"], e["size"]
    fields = {
        "color": _colour(sp, e["color"]),
        "lot": _lot(e["casino"]),
        "amounts": _seat_amounts(e["amounts"], sp),
    }
    if sp.names.you(boss):
        return sp.trn(
            "the {color} casino at {lot} ({count} tile) pays {amounts}; you, its boss, score {count} point",
            "the {color} casino at {lot} ({count} tiles) pays {amounts}; you, its boss, score {count} points",
            size,
            **fields,
        )
    return sp.trn(
        "the {color} casino at {lot} ({count} tile) pays {amounts}; its boss, {boss}, scores {count} point",
        "the {color} casino at {lot} ({count} tiles) pays {amounts}; its boss, {boss}, scores {count} points",
        size,
        boss=sp.name(boss),
        **fields,
    )


def _tie(e: Mapping[str, Any], sp: Speaker, seat: Any) -> str:
    dice = ", ".join(f"{d['value']} ({sp.who(d['seat'])})" for d in e["dice"])
    return sp.tr(
        "tie for boss at {lot}: dice showing {value} re-rolled to {dice}",
        lot=_lot(e["casino"]),
        value=e["value"],
        dice=dice,
    )


def _remodel(e: Mapping[str, Any], sp: Speaker, seat: Any) -> str:
    fields = {
        "source": _colour(sp, e["from_color"]),
        "target": _colour(sp, e["to_color"]),
        "lot": _lot(e["casino"]),
        "cost": e["cost"],
    }
    if sp.names.you(seat):
        return sp.trn(
            "you remodel the {source} casino at {lot} ({count} tiles) to {target} for ${cost}",
            "you remodel the {source} casino at {lot} ({count} tiles) to {target} for ${cost}",
            e["size"],
            **fields,
        )
    return sp.trn(
        "{who} remodels the {source} casino at {lot} ({count} tiles) to {target} for ${cost}",
        "{who} remodels the {source} casino at {lot} ({count} tiles) to {target} for ${cost}",
        e["size"],
        who=sp.name(seat),
        **fields,
    )


def _reorg(e: Mapping[str, Any], sp: Speaker, seat: Any) -> str:
    rolls = "; ".join(
        sp.said(
            r["seat"],
            N_("{who} rolls {values}"),
            N_("you roll {values}"),
            values=", ".join(map(str, r["values"])),
        )
        for r in e["rolls"]
    )
    return sp.said(
        seat,
        N_("{who} reorganizes the {color} casino at {lot} for ${cost}: {rolls}"),
        N_("you reorganize the {color} casino at {lot} for ${cost}: {rolls}"),
        color=_colour(sp, e["color"]),
        lot=_lot(e["casino"]),
        cost=e["cost"],
        rolls=rolls,
    )


def _gamble(e: Mapping[str, Any], sp: Speaker, seat: Any) -> str:
    fields = {"bet": e["bet"], "color": _colour(sp, e["color"]), "lot": _lot(e["casino"])}
    if sp.names.you(e["boss"]):
        return sp.said(
            seat,
            N_("{who} bets ${bet} at your {color} casino at {lot}"),
            N_("you bet ${bet} at your {color} casino at {lot}"),
            **fields,
        )
    return sp.said(
        seat,
        N_("{who} bets ${bet} at {boss}'s {color} casino at {lot}"),
        N_("you bet ${bet} at {boss}'s {color} casino at {lot}"),
        boss=sp.name(e["boss"]),
        **fields,
    )


def _gamble_roll(e: Mapping[str, Any], sp: Speaker, seat: Any) -> str:
    a, b = e["dice"]
    roll = {"a": a, "b": b, "total": e["total"]}
    boss = e["boss"]
    if e["won"]:
        if e["layoff"]:
            first = sp.said(
                seat,
                N_("{who} rolls {a}+{b}={total} and wins ${stake} (half laid off to the bank)"),
                N_("you roll {a}+{b}={total} and win ${stake} (half laid off to the bank)"),
                stake=e["stake"],
                **roll,
            )
        else:
            first = sp.said(
                seat,
                N_("{who} rolls {a}+{b}={total} and wins ${stake}"),
                N_("you roll {a}+{b}={total} and win ${stake}"),
                stake=e["stake"],
                **roll,
            )
        if e["bank_pays"]:
            second = sp.said(
                boss,
                N_("{who} pays ${amount}, the bank ${bank}"),
                N_("you pay ${amount}, the bank ${bank}"),
                amount=e["boss_pays"],
                bank=e["bank_pays"],
            )
        else:
            second = sp.said(boss, N_("{who} pays ${amount}"), N_("you pay ${amount}"), amount=e["boss_pays"])
        return f"{first}: {second}"
    if e["layoff"]:
        first = sp.said(
            seat,
            N_("{who} rolls {a}+{b}={total} and loses ${bet} (half laid off to the bank)"),
            N_("you roll {a}+{b}={total} and lose ${bet} (half laid off to the bank)"),
            bet=e["bet"],
            **roll,
        )
    else:
        first = sp.said(
            seat,
            N_("{who} rolls {a}+{b}={total} and loses ${bet}"),
            N_("you roll {a}+{b}={total} and lose ${bet}"),
            bet=e["bet"],
            **roll,
        )
    second = sp.said(boss, N_("{who} gets ${amount}"), N_("you get ${amount}"), amount=e["boss_gets"])
    return f"{first}: {second}"


def _game_over(e: Mapping[str, Any], sp: Speaker, seat: Any) -> str:
    if e["reason"] == "instant_win":
        return sp.said(
            seat,
            N_("the game ends: {who} reaches {points} points"),
            N_("the game ends: you reach {points} points"),
            points=INSTANT_WIN,
        )
    return sp.tr("the game ends ({game_end} was drawn)", game_end=term(sp, "game_end", "Game End"))


def _score(e: Mapping[str, Any], sp: Speaker, seat: Any) -> str:
    if e["from"] == e["to"]:
        return sp.said(
            seat,
            N_("{who} stays at {points} points: no casino paid enough to cross the gap to the next square"),
            N_("you stay at {points} points: no casino paid enough to cross the gap to the next square"),
            points=e["from"],
        )
    return sp.said(
        seat,
        N_("{who} moves from {start} to {end} points"),
        N_("you move from {start} to {end} points"),
        start=e["from"],
        end=e["to"],
    )


def _simple(other: str, you: str) -> Words:
    """An event whose sentence names only its seat."""
    return lambda e, sp, seat: sp.said(seat, other, you)


def _at(other: str, you: str, **keys: str) -> Words:
    """An event whose sentence names its seat and some lots (``keys``: field -> the event's key)."""
    return lambda e, sp, seat: sp.said(seat, other, you, **{f: _lot(e[k]) for f, k in keys.items()})


_WORDS: dict[str, Words] = {
    "deck_shuffled": _deck_shuffled,
    "dealt_again": _at(
        N_("{who} is dealt {lot}: F is not used with 2 players, dealt again"),
        N_("you are dealt {lot}: F is not used with 2 players, dealt again"),
        lot="lot",
    ),
    "dealt": _dealt,
    "game_end_placed": _game_end_placed,
    "roll_off": _roll_off,
    "first_player": _simple(N_("{who} goes first"), N_("you go first")),
    "draw": _draw,
    "draw_unused": _draw_unused,
    "draw_game_end": _draw_game_end,
    "marker": _at(N_("{who} puts a marker on {lot}"), N_("you put a marker on {lot}"), lot="lot"),
    "must_free_lot": lambda e, sp, seat: sp.said(
        seat,
        N_("{who} has all {markers} markers out and must free a lot to take {lot}"),
        N_("you have all {markers} markers out and must free a lot to take {lot}"),
        markers=MARKERS_PER_PLAYER,
        lot=_lot(e["lot"]),
    ),
    "free_lot": _at(
        N_("{who} frees {lot} to put a marker on {target}"),
        N_("you free {lot} to put a marker on {target}"),
        lot="lot",
        target="target",
    ),
    "take_over": _take_over,
    "must_move_die": lambda e, sp, seat: sp.said(
        seat,
        N_("{who} has all {dice} dice out and must move one to {lot}"),
        N_("you have all {dice} dice out and must move one to {lot}"),
        dice=DICE_PER_PLAYER,
        lot=_lot(e["lot"]),
    ),
    "move_die": _move_die,
    "lots_pay": lambda e, sp, seat: sp.tr(
        "lots pay $1 per marker: {amounts}", amounts=_seat_amounts(e["amounts"], sp)
    ),
    "casino_pays": _casino_pays,
    "score": _score,
    "tie_reroll": _tie,
    "build": lambda e, sp, seat: sp.said(
        seat,
        N_("{who} builds a {color} casino on {lot} for ${cost}"),
        N_("you build a {color} casino on {lot} for ${cost}"),
        color=_colour(sp, e["color"]),
        lot=_lot(e["lot"]),
        cost=e["cost"],
    ),
    "sprawl": lambda e, sp, seat: sp.said(
        seat,
        N_("{who} sprawls a {color} casino onto {lot} for ${cost}"),
        N_("you sprawl a {color} casino onto {lot} for ${cost}"),
        color=_colour(sp, e["color"]),
        lot=_lot(e["lot"]),
        cost=e["cost"],
    ),
    "remodel": _remodel,
    "reorg": _reorg,
    "put": lambda e, sp, seat: sp.said(
        seat,
        N_("{who} puts a {value} on {lot}"),
        N_("you put a {value} on {lot}"),
        value=e["value"],
        lot=_lot(e["lot"]),
    ),
    "gamble": _gamble,
    "gamble_roll": _gamble_roll,
    "offer": lambda e, sp, seat: sp.said(
        seat, N_("{who} offers: {items}"), N_("you offer: {items}"), items=_items(e["items"], sp)
    ),
    "counter": _simple(N_("{who} refuses the offer and counters"), N_("you refuse the offer and counter")),
    "accept": _simple(N_("{who} accepts"), N_("you accept")),
    "refuse": _simple(N_("{who} refuses the offer"), N_("you refuse the offer")),
    "trade_done": lambda e, sp, seat: sp.tr("the trade is done"),
    "end_turn": _simple(N_("{who} ends the turn"), N_("you end the turn")),
    "market_open": lambda e, sp, seat: sp.tr("the market is open: the other players may offer trades"),
    "pass": _simple(N_("{who} makes no offer"), N_("you make no offer")),
    "game_over": _game_over,
}
