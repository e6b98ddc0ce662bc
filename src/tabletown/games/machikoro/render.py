"""All Machi Koro wording for the terminal: cities, market, the pending decision and the events.

Views and events are data (card ids, counts, numbers); this module turns them into names, effects
and sentences. Nothing here reads the rules' state.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import cache
from typing import Any

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from ...core.words import PLAIN, Names
from .data import COLOR_ORDER, LANDMARK_CODES, all_cards

STYLE = {
    "blue": "bold blue",
    "green": "bold green",
    "red": "bold red",
    "purple": "bold magenta",
    "landmark": "yellow",
}
LOG_LINES = 6

# What each card does, in words (all amounts per copy).
EFFECTS = {
    "wheat": "1 from the bank on anyone's roll",
    "ranch": "1 from the bank on anyone's roll",
    "bakery": "1 on your roll (+1 with Mall)",
    "cafe": "the roller pays you 1 (+1 with Mall)",
    "store": "3 on your roll (+1 with Mall)",
    "forest": "1 from the bank on anyone's roll",
    "stadium": "2 from every opponent",
    "tv": "5 from an opponent you name",
    "office": "swap one of your non-purple cards for an opponent's",
    "cheese": "3 per Ranch you own",
    "furniture": "3 per Forest and Mine you own",
    "mine": "5 from the bank on anyone's roll",
    "restaurant": "the roller pays you 2 (+1 with Mall)",
    "apple": "3 from the bank on anyone's roll",
    "market": "2 per wheat-symbol card you own",
    "sushi": "the roller pays you 3 (+1 with Mall), only with your Harbor",
    "orchard": "1 from the bank on anyone's roll",
    "florist": "1 per Flower Orchard you own (2 with Mall)",
    "pizza": "the roller pays you 1 (+1 with Mall)",
    "publisher": "each opponent pays 1 per cup and bread card",
    "burger": "the roller pays you 1 (+1 with Mall)",
    "mackerel": "3 on anyone's roll, only with your Harbor",
    "tax": "half the coins of every opponent with 10 or more",
    "warehouse": "2 per cup card you own",
    "tuna": "two dice once: that total each, only with your Harbor",
    "station": "roll one or two dice",
    "mall": "+1 on each cup and bread card",
    "park": "another turn after doubles",
    "radio": "roll again once per turn",
    "cityhall": "1 coin when you have none before building",
    "harbor": "+2 to a roll of 10 or more",
    "airport": "10 coins when you build nothing",
}
DECISIONS = {
    "roll": "rolls",
    "reroll": "may re-roll with the Radio Tower (keep / {rerolls})",
    "harbor": "may add 2 to the roll of {roll} with the Harbor (add2 / noadd)",
    "tv_station": "chooses whom the TV Station takes {amount} coins from (tv SEAT)",
    "business_center": "may swap an establishment with the Business Center (swap MINE SEAT THEIRS / noswap)",
    "build": "may build one establishment or landmark (build CARD / pass)",
}


@cache
def _names() -> dict[str, str]:
    return {c.code: c.name for c in all_cards()}


def card_name(code: str) -> str:
    return _names().get(code, code)


def _rolls(rolls: list[int]) -> str:
    if not rolls:
        return ""
    low, high = min(rolls), max(rolls)
    return str(low) if low == high else f"{low}-{high}"


# --- events -------------------------------------------------------------------------------------------
# The sentences below are alike by shape (to one another, and to newlasvegas's and multicity's)
# on purpose: each event kind its own words.
def describe_event(event: Mapping[str, Any], names: Names | None = None, lang: str = "en") -> str:
    """One event of a view (``{"i", "kind", ...}``) as a sentence: seats as ``P0``... for the terminal,
    or by their players' names ("You" for the reader) with ``names``; cards by their printed names."""
    n = names or PLAIN
    kind = event.get("kind")
    seat = event.get("seat")

    def does(verb: str) -> str:
        return n.subject(seat, verb)

    if kind == "start":
        return (
            f"Game starts: {event['players']} players, {event['coins']} coins each; "
            f"{n.subject(event['first'], 'begins', start=False)}."
        )
    if kind == "market_shuffled":
        return "The supply is shuffled into the market deck" + ("s." if event["count"] > 1 else ".")
    if kind == "market_reveal":
        return f"Market reveals: {', '.join(card_name(c) for c in event['cards'])}."
    if kind == "roll":
        dice = event["dice"]
        return (
            f"{does('rolls')} {dice[0]}."
            if len(dice) == 1
            else f"{does('rolls')} {dice[0]}+{dice[1]} = {event['total']}."
        )
    if kind == "keep":
        return f"{does('keeps')} the roll."
    if kind == "reroll":
        return f"{does('uses')} the Radio Tower to re-roll."
    if kind == "harbor_add":
        return f"{does('uses')} the Harbor: the roll counts as {event['total']}."
    if kind == "pay":
        what = _copies(event["card"], event["copies"])
        if event["amount"] == event["due"]:
            return f"{does('pays')} {n.who(event['to'])} {_coins(event['amount'])} for {what}."
        return (
            f"{does('owes')} {n.who(event['to'])} {event['due']} for {what} "
            f"but {n.subject(seat, 'pays', start=False).split(' ', 1)[1]} only {event['amount']}."
        )
    if kind == "income":
        return f"{does('takes')} {_coins(event['amount'])} from the bank for {_copies(event['card'], event['copies'])}."
    if kind == "tuna_roll":
        dice = event["dice"]
        return f"{does('rolls')} {dice[0]}+{dice[1]} = {event['total']} for the Tuna Boats."
    if kind == "take":
        short = "" if event["amount"] == event["due"] else f" (of {event['due']} due)"
        return (
            f"{n.subject(event['from'], 'pays')} {n.who(seat)} {_coins(event['amount'])}{short} "
            # Alike in shape to newlasvegas/render.py on purpose: each game words its own events and
            # views; only the shape is shared.
            f"for the {card_name(event['card'])}."
        )
    if kind == "swap_impossible":
        return f"{n.whose(seat).capitalize() if n.you(seat) else n.whose(seat)} Business Center finds nothing to swap."
    if kind == "no_swap":
        return f"{does('makes')} no Business Center swap."
    if kind == "swap":
        return (
            f"{does('swaps')} {n.their(seat)} {card_name(event['mine'])} for "
            f"{n.whose(event['target'])} {card_name(event['theirs'])}."
        )
    if kind == "city_hall":
        return f"{does('takes')} {_coins(event['amount'])} from the City Hall."
    if kind == "pass":
        return f"{does('builds')} nothing."
    if kind == "build":
        card = event["card"]
        article = "the " if card in LANDMARK_CODES else "a "
        return f"{does('builds')} {article}{card_name(card)} for {_coins(event['cost'])}."
    if kind == "win":
        return f"{does('has')} built every landmark and {n.subject(seat, 'wins', start=False).split(' ', 1)[1]} after {event['turns']} turns."
    if kind == "airport":
        return f"{does('built')} nothing: the Airport pays {_coins(event['amount'])}."
    if kind == "extra_turn":
        return f"{does('rolled')} doubles: the Amusement Park gives another turn."
    data = ", ".join(f"{k}={v}" for k, v in event.items() if k not in ("i", "kind", "private"))
    return f"{kind}: {data}"


def _coins(amount: int) -> str:
    return f"{amount} coin" if amount == 1 else f"{amount} coins"


def _copies(code: str, copies: int) -> str:
    return card_name(code) + (f" ×{copies}" if copies != 1 else "")


def describe_pending(view: Mapping[str, Any]) -> str:
    """What the seat to act is being asked, in words."""
    pending = view["state"]["pending"]
    if pending is None:
        result = view.get("result") or {}
        winners = result.get("winners") or []
        return f"P{winners[0]} has won." if winners else "The game is over."
    decision = pending["decision"]
    p = f"P{pending['seat']}"
    if decision == "roll":
        return f"{p} rolls (roll{' / roll2' if 2 in pending['dice'] else ''})."
    rerolls = " / ".join("reroll2" if d == 2 else "reroll" for d in pending.get("dice", []))
    text = DECISIONS[decision].format(rerolls=rerolls, roll=pending.get("roll"), amount=pending.get("amount"))
    return f"{p} {text}."


# --- the board ------------------------------------------------------------------------------------------
def render_city(
    seat: int,
    player: Mapping[str, Any],
    is_current: bool,
    catalogue: Mapping[str, Any],
    is_you: bool = False,
) -> Text:
    """One city in two or three lines: who, coins and landmarks, then the establishments by colour."""
    line = Text(f"P{seat}" + (" (you)" if is_you else ""), style="bold cyan" if is_current else "bold")
    if is_current:
        line.append(" ◀ to act", style="cyan")
    line.append(f"  {player['coins']} coins  ", style="bold")
    for code, built in player["landmarks"].items():
        line.append(f"{code}{'✓' if built else '·'} ", style="yellow" if built else "dim")
    owned = Text("   ")
    for colour in COLOR_ORDER:
        for code, n in player["establishments"].items():
            if catalogue[code]["color"] == colour:
                owned.append(f"{code}[{_rolls(catalogue[code]['rolls'])}]×{n} ", style=STYLE[colour])
    return Text("\n").join([line, owned])


def render_market(market: Mapping[str, int], deck_sizes: list[int], catalogue: Mapping[str, Any]) -> Group:
    """One line per market card: short name, rolls, cost, copies left, its name and what it does."""
    title = "Market: card, rolls, cost, left — name: effect" + (
        f"   (deck: {' / '.join(map(str, deck_sizes))} cards)" if deck_sizes else ""
    )
    table = Table.grid(padding=(0, 1))
    for justify in ("left", "right", "left", "left", "left"):
        table.add_column(justify=justify, no_wrap=justify != "left" or None)  # type: ignore[arg-type]  # None: Rich's default
    order = sorted(market, key=lambda code: (min(catalogue[code]["rolls"]), code))
    for code in order:
        card = catalogue[code]
        what = Text(f"{card_name(code)}: ")
        what.append(EFFECTS.get(code, ""), style="dim")
        table.add_row(
            Text(code, style=STYLE[card["color"]]),
            _rolls(card["rolls"]),
            f"${card['cost']}",
            f"×{market[code]}",
            what,
        )
    return Group(Text(title, style="bold"), table)


def render_landmarks(landmarks: list[Mapping[str, Any]]) -> Text:
    """Every landmark with its cost and effect."""
    text = Text("Landmarks: ", style="yellow")
    text.append(
        "; ".join(
            f"{lm['id']} ${lm['cost']} {EFFECTS.get(lm['id'], card_name(lm['id']))}" for lm in landmarks
        ),
        style="dim",
    )
    return text


# Alike by shape to multicity/render.py's render_view on purpose: each game renders its own view.
def render_view(view: Mapping[str, Any]) -> Group:
    """The board in few lines (so the prompt's status stays on an 80×24 screen): cities, market with
    each card's effect, landmarks with cost and effect, the newest events and the pending decision."""
    st = view["state"]
    catalogue = {card["id"]: card for card in st["cards"]}
    viewer = view.get("seat")
    dice = "+".join(map(str, st["dice"])) if st["dice"] else "-"
    header = Text(f"Machi Koro — turn {st['turn']}, last roll: {dice} (total {st['roll']})", style="bold")
    cities = [
        render_city(seat, pl, seat == st["current"] and not view["over"], catalogue, seat == viewer)
        for seat, pl in enumerate(st["players"])
    ]
    lines = [describe_event(event) for event in view["events"][-LOG_LINES:]]
    parts: list[RenderableType] = [
        header,
        *cities,
        render_market(st["market"], st["market_deck_sizes"], catalogue),
    ]
    parts.append(render_landmarks(st["landmarks"]))
    if lines:
        parts.append(Text("\n".join(f"· {line}" for line in lines), style="dim"))
    parts.append(Text(describe_pending(view), style="bold cyan"))
    # Alike in shape to multicity/render.py on purpose: each game words its own events and views; only the
    # shape is shared.
    return Group(*parts)


def status_line(view: Mapping[str, Any]) -> str:
    """The viewer's essentials in one line for the prompt: coins, landmarks, whose turn and phase."""
    state = view["state"]
    head = f"turn {state['turn']}, P{state['current']} {state['phase'].replace('_', ' ')}"
    seat = view.get("seat")
    if seat is None:
        return f"spectator; {head}"
    me = state["players"][seat]
    counting = {mark["id"] for mark in state["landmarks"] if mark["counts"]}
    built = sum(1 for code, done in me["landmarks"].items() if done and code in counting)
    return f"P{seat} (you): {me['coins']} coins, {built}/{len(counting)} landmarks; {head}"
