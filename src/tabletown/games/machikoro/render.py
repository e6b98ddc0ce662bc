"""All Machi Koro wording for the terminal: cities, market, the pending decision and the events.

Views and events are data (card ids, counts, numbers); this module turns them into names, effects
and sentences, in English or in a reader's language (the ``machikoro`` catalogs, ``locale/``; card
names from ``glossary.json``). Nothing here reads the rules' state.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from functools import cache
from importlib import resources
from typing import Any

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from ...core.i18n import N_, Speaker, glossary_term
from ...core.screen import Fold, Log, fit
from ...core.words import Names
from .data import COLOR_ORDER, LANDMARK_CODES, all_cards

DOMAIN = "machikoro"  # the gettext domain (core.registry registers its locale folder)

STYLE = {
    "blue": "bold blue",
    "green": "bold green",
    "red": "bold red",
    "purple": "bold magenta",
    "landmark": "yellow",
}
LOG_LINES = 6  # the newest events a whole board shows (a replay, a redraw); a prompt shows every unseen one

# What each card does, in words (all amounts per copy). English here; other languages from the catalogs.
EFFECTS = {
    "wheat": N_("1 from the bank on anyone's roll"),
    "ranch": N_("1 from the bank on anyone's roll"),
    "bakery": N_("1 on your roll (+1 with Mall)"),
    "cafe": N_("the roller pays you 1 (+1 with Mall)"),
    "store": N_("3 on your roll (+1 with Mall)"),
    "forest": N_("1 from the bank on anyone's roll"),
    "stadium": N_("2 from every opponent"),
    "tv": N_("5 from an opponent you name"),
    "office": N_("swap one of your non-purple cards for an opponent's"),
    "cheese": N_("3 per Ranch you own"),
    "furniture": N_("3 per Forest and Mine you own"),
    "mine": N_("5 from the bank on anyone's roll"),
    "restaurant": N_("the roller pays you 2 (+1 with Mall)"),
    "apple": N_("3 from the bank on anyone's roll"),
    "market": N_("2 per wheat-symbol card you own"),
    "sushi": N_("the roller pays you 3 (+1 with Mall), only with your Harbor"),
    "orchard": N_("1 from the bank on anyone's roll"),
    "florist": N_("1 per Flower Orchard you own (2 with Mall)"),
    "pizza": N_("the roller pays you 1 (+1 with Mall)"),
    "publisher": N_("each opponent pays 1 per cup and bread card"),
    "burger": N_("the roller pays you 1 (+1 with Mall)"),
    "mackerel": N_("3 on anyone's roll, only with your Harbor"),
    "tax": N_("half the coins of every opponent with 10 or more"),
    "warehouse": N_("2 per cup card you own"),
    "tuna": N_("two dice once: that total each, only with your Harbor"),
    "station": N_("roll one or two dice"),
    "mall": N_("+1 on each cup and bread card"),
    "park": N_("another turn after doubles"),
    "radio": N_("roll again once per turn"),
    "cityhall": N_("1 coin when you have none before building"),
    "harbor": N_("+2 to a roll of 10 or more"),
    "airport": N_("10 coins when you build nothing"),
}
# City Hall's effect under ``city_hall=every_turn`` (the Polish rulebook's reading of the card).
CITY_HALL_EVERY_TURN = N_("1 coin at the start of each of your turns")
# The pending decision of the seat ``{p}`` (the moves in brackets are notation: never translated).
DECISIONS = {
    "reroll": N_("{p} may re-roll with the {card} (keep / {rerolls})."),
    "harbor": N_("{p} may add 2 to the roll of {roll} with the {card} (add2 / noadd)."),
    "tv_station": N_("{p} chooses whom the {card} takes {amount} coins from (tv SEAT)."),
    "business_center": N_("{p} may swap an establishment with the {card} (swap MINE SEAT THEIRS / noswap)."),
    "build": N_("{p} may build one establishment or landmark (build CARD / pass)."),
}
_DECISION_CARDS = {"reroll": "radio", "harbor": "harbor", "tv_station": "tv", "business_center": "office"}


@cache
def _names() -> dict[str, str]:
    return {c.code: c.name for c in all_cards()}


@cache
def glossary() -> dict[str, dict[str, Any]]:
    """The printed names in every language (``glossary.json``), by the ids the game uses."""
    text = resources.files(__package__).joinpath("glossary.json").read_text(encoding="utf-8")
    terms: dict[str, dict[str, Any]] = json.loads(text)["terms"]
    return terms


def card_name(code: str, lang: str = "en") -> str:
    """A card's printed name: the game's own data in English, the glossary in other languages."""
    if lang != "en" and code in glossary():
        return glossary_term(glossary(), code, lang)
    return _names().get(code, code)


def effect(code: str, lang: str = "en", options: Mapping[str, Any] | None = None) -> str:
    """What a card does, in ``lang``, under the table's ``options`` (City Hall's depends on them)."""
    text = EFFECTS.get(code)
    if code == "cityhall" and options and options.get("city_hall") == "every_turn":
        text = CITY_HALL_EVERY_TURN
    return Speaker(domain=DOMAIN, lang=lang).tr(text) if text else ""


def _seat_label(seat: object) -> str:
    """A seat as the terminal writes it: ``P0``, ``P1``... (notation: the same in every language)."""
    return f"P{seat}"


def _rolls(rolls: list[int]) -> str:
    if not rolls:
        return ""
    low, high = min(rolls), max(rolls)
    return str(low) if low == high else f"{low}-{high}"


# --- events -------------------------------------------------------------------------------------------
# The sentences below are alike by shape (to one another, and to newlasvegas's and multicity's)
# on purpose: each event kind its own words. Every English sentence is its own message id, so the
# English output is the text the terminal always printed; other languages come from the catalogs.
# Translations never decline a card's or a player's name: they stand in the nominative, in brackets,
# after a colon or after a noun ("graczowi {to}", "карту «{mine}»").
def describe_event(event: Mapping[str, Any], names: Names | None = None, lang: str = "en") -> str:
    """One event of a view (``{"i", "kind", ...}``) as a sentence: seats as ``P0``... for the terminal,
    or by their players' names ("You" for the reader) with ``names``; cards by their printed names
    (in ``lang``)."""
    sp = Speaker(domain=DOMAIN, lang=lang, names=names)
    n = sp.names
    kind = event.get("kind")
    seat = event.get("seat")
    you = n.you(seat)

    def name(code: str) -> str:
        return card_name(code, sp.lang)

    if kind == "start":
        if n.you(event["first"]):
            return sp.trn(
                "Game starts: {players} players, {count} coin each; you begin.",
                "Game starts: {players} players, {count} coins each; you begin.",
                event["coins"],
                players=sp.number(event["players"]),
            )
        return sp.trn(
            "Game starts: {players} players, {count} coin each; {who} begins.",
            "Game starts: {players} players, {count} coins each; {who} begins.",
            event["coins"],
            players=sp.number(event["players"]),
            who=sp.name(event["first"]),
        )
    if kind == "market_shuffled":
        if event["count"] > 1:
            return sp.tr("The supply is shuffled into the market decks.")
        return sp.tr("The supply is shuffled into the market deck.")
    if kind == "market_reveal":
        shown = [name(c) for c in event["cards"]]
        return sp.tr("Market reveals: {cards}.", cards=", ".join(shown) if sp.english else sp.listed(shown))
    if kind == "roll":
        dice = event["dice"]
        if len(dice) == 1:
            return sp.said(seat, N_("{who} rolls {die}."), N_("You roll {die}."), die=dice[0])
        return sp.said(
            seat,
            N_("{who} rolls {die1}+{die2} = {total}."),
            N_("You roll {die1}+{die2} = {total}."),
            die1=dice[0],
            die2=dice[1],
            total=event["total"],
        )
    if kind == "keep":
        return sp.said(seat, N_("{who} keeps the roll."), N_("You keep the roll."))
    if kind == "reroll":
        return sp.said(
            seat,
            N_("{who} uses the {card} to re-roll."),
            N_("You use the {card} to re-roll."),
            card=name("radio"),
        )
    if kind == "harbor_add":
        return sp.said(
            seat,
            N_("{who} uses the {card}: the roll counts as {total}."),
            N_("You use the {card}: the roll counts as {total}."),
            card=name("harbor"),
            total=event["total"],
        )
    if kind == "pay":
        what = _copies(event["card"], event["copies"], sp.lang)
        to = sp.who(event["to"])
        amount = event["amount"]
        if amount == event["due"]:
            if you:
                return sp.trn(
                    "You pay {to} {count} coin for {what}.",
                    "You pay {to} {count} coins for {what}.",
                    amount,
                    to=to,
                    what=what,
                )
            return sp.trn(
                "{who} pays {to} {count} coin for {what}.",
                "{who} pays {to} {count} coins for {what}.",
                amount,
                who=sp.name(seat),
                to=to,
                what=what,
            )
        return sp.said(
            seat,
            N_("{who} owes {to} {due} for {what} but pays only {amount}."),
            N_("You owe {to} {due} for {what} but pay only {amount}."),
            to=to,
            due=event["due"],
            what=what,
            amount=amount,
        )
    if kind == "income":
        what = _copies(event["card"], event["copies"], sp.lang)
        if you:
            return sp.trn(
                "You take {count} coin from the bank for {what}.",
                "You take {count} coins from the bank for {what}.",
                event["amount"],
                what=what,
            )
        return sp.trn(
            "{who} takes {count} coin from the bank for {what}.",
            "{who} takes {count} coins from the bank for {what}.",
            event["amount"],
            who=sp.name(seat),
            what=what,
        )
    if kind == "tuna_roll":
        dice = event["dice"]
        return sp.said(
            seat,
            # i18n: {card} is the Tuna Boat's printed name (English names the boats in the plural instead).
            N_("{who} rolls {die1}+{die2} = {total} for the Tuna Boats."),
            # i18n: {card} is the Tuna Boat's printed name (English names the boats in the plural instead).
            N_("You roll {die1}+{die2} = {total} for the Tuna Boats."),
            die1=dice[0],
            die2=dice[1],
            total=event["total"],
            card=name("tuna"),
        )
    if kind == "take":
        return _take(sp, event)
    if kind == "swap_impossible":
        return sp.said(
            seat,
            N_("{who}'s {card} finds nothing to swap."),
            N_("Your {card} finds nothing to swap."),
            card=name("office"),
        )
    if kind == "no_swap":
        return sp.said(
            seat, N_("{who} makes no {card} swap."), N_("You make no {card} swap."), card=name("office")
        )
    if kind == "swap":
        return _swap(sp, event)
    # the swap, City Hall, win and airport sentences are alike by shape on purpose (see the note above)
    if kind == "city_hall":
        if you:
            return sp.trn(
                "You take {count} coin from the {card}.",
                "You take {count} coins from the {card}.",
                event["amount"],
                card=name("cityhall"),
            )
        return sp.trn(
            "{who} takes {count} coin from the {card}.",
            "{who} takes {count} coins from the {card}.",
            event["amount"],
            who=sp.name(seat),
            card=name("cityhall"),
        )
    if kind == "pass":
        return sp.said(seat, N_("{who} builds nothing."), N_("You build nothing."))
    if kind == "build":
        return _build(sp, event)
    if kind == "win":
        if you:
            return sp.trn(
                "You have built every landmark and win after {count} turn.",
                "You have built every landmark and win after {count} turns.",
                event["turns"],
            )
        return sp.trn(
            "{who} has built every landmark and wins after {count} turn.",
            "{who} has built every landmark and wins after {count} turns.",
            event["turns"],
            who=sp.name(seat),
        )
    if kind == "airport":
        if you:
            return sp.trn(
                "You built nothing: the {card} pays {count} coin.",
                "You built nothing: the {card} pays {count} coins.",
                event["amount"],
                card=name("airport"),
            )
        return sp.trn(
            "{who} built nothing: the {card} pays {count} coin.",
            "{who} built nothing: the {card} pays {count} coins.",
            event["amount"],
            who=sp.name(seat),
            card=name("airport"),
        )
    if kind == "extra_turn":
        return sp.said(
            seat,
            N_("{who} rolled doubles: the {card} gives another turn."),
            N_("You rolled doubles: the {card} gives another turn."),
            card=name("park"),
        )
    data = ", ".join(f"{k}={v}" for k, v in event.items() if k not in ("i", "kind", "private"))
    return f"{kind}: {data}"


def _take(sp: Speaker, event: Mapping[str, Any]) -> str:
    """A purple card's takings: the payer is the sentence's subject, the card's owner its object."""
    payer, owner = event["from"], event["seat"]
    amount, due = event["amount"], event["due"]
    fields = {"to": sp.who(owner), "card": card_name(event["card"], sp.lang)}
    if sp.names.you(payer):
        if amount == due:
            return sp.trn(
                "You pay {to} {count} coin for the {card}.",
                "You pay {to} {count} coins for the {card}.",
                amount,
                **fields,
            )
        return sp.trn(
            "You pay {to} {count} coin (of {due} due) for the {card}.",
            "You pay {to} {count} coins (of {due} due) for the {card}.",
            amount,
            due=sp.number(due),
            **fields,
        )
    if amount == due:
        return sp.trn(
            "{who} pays {to} {count} coin for the {card}.",
            "{who} pays {to} {count} coins for the {card}.",
            amount,
            who=sp.name(payer),
            **fields,
        )
    return sp.trn(
        "{who} pays {to} {count} coin (of {due} due) for the {card}.",
        "{who} pays {to} {count} coins (of {due} due) for the {card}.",
        amount,
        who=sp.name(payer),
        due=sp.number(due),
        **fields,
    )


def _swap(sp: Speaker, event: Mapping[str, Any]) -> str:
    """A Business Center swap, worded for whichever of the two cities is the reader's."""
    seat, target = event["seat"], event["target"]
    fields = {"mine": card_name(event["mine"], sp.lang), "theirs": card_name(event["theirs"], sp.lang)}
    if sp.names.you(seat):
        if sp.names.you(target):
            return sp.tr("You swap your {mine} for your {theirs}.", **fields)
        return sp.tr("You swap your {mine} for {target}'s {theirs}.", target=sp.name(target), **fields)
    if sp.names.you(target):
        return sp.tr("{who} swaps their {mine} for your {theirs}.", who=sp.name(seat), **fields)
    return sp.tr(
        "{who} swaps their {mine} for {target}'s {theirs}.",
        who=sp.name(seat),
        target=sp.name(target),
        **fields,
    )


def _build(sp: Speaker, event: Mapping[str, Any]) -> str:
    """A build: "the" before a landmark, "a" before an establishment (in English)."""
    seat, code, cost = event["seat"], event["card"], event["cost"]
    card = card_name(code, sp.lang)
    if code in LANDMARK_CODES:
        if sp.names.you(seat):
            return sp.trn(
                "You build the {card} for {count} coin.",
                "You build the {card} for {count} coins.",
                cost,
                card=card,
            )
        return sp.trn(
            "{who} builds the {card} for {count} coin.",
            "{who} builds the {card} for {count} coins.",
            cost,
            who=sp.name(seat),
            card=card,
        )
    # English says "an Apple Orchard": the article follows the English name, so the other
    # languages translate both messages alike
    if card_name(code).startswith(("A", "E", "I", "O", "U")):
        if sp.names.you(seat):
            return sp.trn(
                "You build an {card} for {count} coin.",
                "You build an {card} for {count} coins.",
                cost,
                card=card,
            )
        return sp.trn(
            "{who} builds an {card} for {count} coin.",
            "{who} builds an {card} for {count} coins.",
            cost,
            who=sp.name(seat),
            card=card,
        )
    if sp.names.you(seat):
        return sp.trn(
            "You build a {card} for {count} coin.", "You build a {card} for {count} coins.", cost, card=card
        )
    return sp.trn(
        "{who} builds a {card} for {count} coin.",
        "{who} builds a {card} for {count} coins.",
        cost,
        who=sp.name(seat),
        card=card,
    )


def _copies(code: str, copies: int, lang: str = "en") -> str:
    return card_name(code, lang) + (f" ×{copies}" if copies != 1 else "")


def describe_pending(view: Mapping[str, Any], lang: str = "en") -> str:
    """What the seat to act is being asked, in words (the moves in brackets stay notation)."""
    sp = Speaker(domain=DOMAIN, lang=lang)
    pending = view["state"]["pending"]
    if pending is None:
        result = view.get("result") or {}
        winners = result.get("winners") or []
        winner = _seat_label(winners[0]) if winners else ""
        return sp.tr("{p} has won.", p=winner) if winners else sp.tr("The game is over.")
    decision = pending["decision"]
    p = _seat_label(pending["seat"])
    if decision == "roll":
        return sp.tr("{p} to roll ({moves}).", p=p, moves="roll / roll2" if 2 in pending["dice"] else "roll")
    rerolls = " / ".join("reroll2" if d == 2 else "reroll" for d in pending.get("dice", []))
    card = card_name(_DECISION_CARDS.get(decision, ""), sp.lang)
    return sp.tr(
        DECISIONS[decision],
        p=p,
        rerolls=rerolls,
        roll=pending.get("roll"),
        amount=pending.get("amount"),
        card=card,
    )


# --- the board ------------------------------------------------------------------------------------------
def render_city(
    seat: int,
    player: Mapping[str, Any],
    is_current: bool,
    catalogue: Mapping[str, Any],
    is_you: bool = False,
    lang: str = "en",
) -> Text:
    """One city in two or three lines: who, coins and landmarks, then the establishments by colour
    (landmarks and establishments by their notation codes, in every language)."""
    sp = Speaker(domain=DOMAIN, lang=lang)
    label = sp.tr("{p} (you)", p=_seat_label(seat)) if is_you else _seat_label(seat)
    line = Text(label, style="bold cyan" if is_current else "bold")
    if is_current:
        line.append(" " + sp.tr("◀ to act"), style="cyan")
    coins = sp.trn("{count} coin", "{count} coins", player["coins"])
    line.append("  " + coins + "  ", style="bold")
    for code, built in player["landmarks"].items():
        line.append(f"{code}{'✓' if built else '·'} ", style="yellow" if built else "dim")
    owned = Text("   ")
    for colour in COLOR_ORDER:
        for code, n in player["establishments"].items():
            if catalogue[code]["color"] == colour:
                owned.append(f"{code}[{_rolls(catalogue[code]['rolls'])}]×{n} ", style=STYLE[colour])
    return Text("\n").join([line, owned])


def render_market(
    market: Mapping[str, int], deck_sizes: list[int], catalogue: Mapping[str, Any], lang: str = "en"
) -> Group:
    """One line per market card: short name, rolls, cost, copies left, its name and what it does."""
    sp = Speaker(domain=DOMAIN, lang=lang)
    title = sp.tr("Market: card, rolls, cost, left — name: effect")
    if deck_sizes:
        title += "   " + sp.tr("(deck: {sizes} cards)", sizes=" / ".join(map(str, deck_sizes)))
    table = Table.grid(padding=(0, 1))
    for justify in ("left", "right", "left", "left", "left"):
        table.add_column(justify=justify, no_wrap=justify != "left" or None)  # type: ignore[arg-type]  # None: Rich's default
    order = sorted(market, key=lambda code: (min(catalogue[code]["rolls"]), code))
    for code in order:
        card = catalogue[code]
        what = Text(f"{card_name(code, sp.lang)}: ")
        what.append(effect(code, sp.lang), style="dim")
        table.add_row(
            Text(code, style=STYLE[card["color"]]),
            _rolls(card["rolls"]),
            f"${card['cost']}",
            f"×{market[code]}",
            what,
        )
    return Group(Text(title, style="bold"), table)


def render_landmarks(
    landmarks: list[Mapping[str, Any]], lang: str = "en", options: Mapping[str, Any] | None = None
) -> Text:
    """Every landmark with its cost and effect (under the table's ``options``)."""
    sp = Speaker(domain=DOMAIN, lang=lang)
    text = Text(sp.tr("Landmarks:") + " ", style="yellow")
    text.append(
        "; ".join(
            f"{lm['id']} ${lm['cost']} {effect(lm['id'], sp.lang, options) or card_name(lm['id'], sp.lang)}"
            for lm in landmarks
        ),
        style="dim",
    )
    return text


def render_market_short(market: Mapping[str, int], catalogue: Mapping[str, Any], lang: str = "en") -> Text:
    """The market on a short terminal: each card's code, rolls, cost and copies left, wrapped (its
    name and effect are left to 'board')."""
    sp = Speaker(domain=DOMAIN, lang=lang)
    text = Text(sp.tr("Market (card[rolls]$cost×left; 'board' shows what each does):") + " ", style="bold")
    for code in sorted(market, key=lambda code: (min(catalogue[code]["rolls"]), code)):
        card = catalogue[code]
        # one word per card, written as the cities write theirs, so that a wrap never splits one
        text.append(code, style=STYLE[card["color"]])
        text.append(f"[{_rolls(card['rolls'])}]${card['cost']}×{market[code]} ")
    return text


def render_landmarks_short(landmarks: list[Mapping[str, Any]], lang: str = "en") -> Text:
    """The landmarks' costs alone (their effects are left to 'board')."""
    sp = Speaker(domain=DOMAIN, lang=lang)
    text = Text(sp.tr("Landmarks:") + " ", style="yellow")
    text.append(" ".join(f"{lm['id']} ${lm['cost']}" for lm in landmarks), style="dim")
    return text


# Alike by shape to multicity/render.py's render_view on purpose: each game renders its own view.
def render_view(
    view: Mapping[str, Any], lang: str = "en", all_events: bool = False, height: int | None = None
) -> RenderableType:
    """The board in few lines (so the prompt's status stays on an 80×24 screen): cities, market with
    each card's effect, landmarks with cost and effect, the newest events (``all_events``: every event
    of the view, which then holds only those its seat has not been shown yet) and the pending
    decision. With ``height`` it folds to that many rows (core.screen): the log to its newest events
    first, then the landmarks and the market to their costs, then the other cities to their coins
    and landmarks; the header, the reader's own city and the decision always stay."""
    sp = Speaker(domain=DOMAIN, lang=lang)
    st = view["state"]
    catalogue = {card["id"]: card for card in st["cards"]}
    if st["dice"]:
        heading = sp.tr(
            "Machi Koro — turn {turn}, last roll: {dice} (total {total})",
            turn=st["turn"],
            dice="+".join(map(str, st["dice"])),
            total=st["roll"],
        )
    else:  # the turn's dice are not rolled yet
        heading = sp.tr("Machi Koro — turn {turn}, not rolled yet", turn=st["turn"])
    parts: list[RenderableType | Fold] = [Text(heading, style="bold")]
    parts += [_city_part(view, seat, catalogue, sp.lang) for seat in range(len(st["players"]))]
    market = render_market(st["market"], st["market_deck_sizes"], catalogue, sp.lang)
    parts.append(Fold(market, render_market_short(st["market"], catalogue, sp.lang), rank=2))
    landmarks = render_landmarks(st["landmarks"], sp.lang, view.get("options"))
    parts.append(Fold(landmarks, render_landmarks_short(st["landmarks"], sp.lang), Group(), rank=1, soft=1))
    events = view["events"] if all_events else view["events"][-LOG_LINES:]
    if events:
        parts.append(Log([describe_event(event, lang=sp.lang) for event in events], sp.lang))
    parts.append(Text(describe_pending(view, sp.lang), style="bold cyan"))
    # Alike in shape to multicity/render.py on purpose: each game words its own events and views; only the
    # shape is shared.
    return fit(parts, height)


def _city_part(view: Mapping[str, Any], seat: int, catalogue: Mapping[str, Any], lang: str) -> Text | Fold:
    """A city: the reader's own in full always; another's folds to its coins and landmarks, except
    while the reader chooses whom the TV Station takes from or what to swap (those look at it)."""
    st = view["state"]
    city = render_city(
        seat,
        st["players"][seat],
        seat == st["current"] and not view["over"],
        catalogue,
        seat == view.get("seat"),
        lang,
    )
    pending = st["pending"] or {}
    if seat == view.get("seat") or pending.get("decision") in ("tv_station", "business_center"):
        return city
    return Fold(city, city.split("\n")[0], rank=3)


def _phase(sp: Speaker, phase: str) -> str:
    """A phase's name for the status line (English: the phase id with spaces)."""
    if sp.english:
        return phase.replace("_", " ")
    names = {
        "roll": sp.trp("phase", "roll"),
        "reroll": sp.trp("phase", "reroll"),
        "harbor": sp.trp("phase", "harbor"),
        "tv_station": sp.trp("phase", "tv station"),
        "business_center": sp.trp("phase", "business center"),
        "build": sp.trp("phase", "build"),
        "over": sp.trp("phase", "over"),
    }
    return names.get(phase, phase.replace("_", " "))


def status_line(view: Mapping[str, Any], lang: str = "en") -> str:
    """The viewer's essentials in one line for the prompt: coins, landmarks, whose turn and phase."""
    sp = Speaker(domain=DOMAIN, lang=lang)
    state = view["state"]
    head = sp.tr(
        "turn {turn}, {p} {phase}",
        turn=state["turn"],
        p=_seat_label(state["current"]),
        phase=_phase(sp, state["phase"]),
    )
    seat = view.get("seat")
    if seat is None:
        return sp.tr("spectator; {head}", head=head)
    me = state["players"][seat]
    counting = {mark["id"] for mark in state["landmarks"] if mark["counts"]}
    built = sum(1 for code, done in me["landmarks"].items() if done and code in counting)
    return sp.trn(
        "{p} (you): {count} coin, {built}/{landmarks} landmarks; {head}",
        "{p} (you): {count} coins, {built}/{landmarks} landmarks; {head}",
        me["coins"],
        p=_seat_label(seat),
        built=built,
        landmarks=len(counting),
        head=head,
    )
