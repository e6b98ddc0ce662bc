"""Help at hand: each game's rules summary (in our own words; the full rules with every choice we made
are in docs/games/<name>.md) and a reference of its cards, tiles and places built from the data the
engine itself plays with (so it cannot drift from the rules in code). Served as ``/games/{name}/help``;
the table page links it, and its boards take their tooltips from the same data (board words)."""

from __future__ import annotations

from functools import cache
from typing import Any

# heading -> paragraphs; short, for a newcomer at the table
RULES: dict[str, list[tuple[str, list[str]]]] = {
    "machikoro": [
        (
            "Goal",
            [
                "Each player runs a small town. The first to build all their landmarks wins at once "
                "(four landmarks in the base game, six with Harbor; the City Hall does not count).",
            ],
        ),
        (
            "Your turn",
            [
                "Roll one die (or two, once you own the Train Station). With the Radio Tower you may roll "
                "again once; with the Harbor you may add 2 to a roll of 10 or more.",
                "Every card whose number matches the roll pays: red cards of the other players take coins "
                "from the roller first, then green cards (yours) and blue cards (everyone's) pay from the "
                "bank, then your purple cards take coins from opponents.",
                "Then build one thing: a card from the market or one of your landmarks, if you have the "
                "coins. Or build nothing.",
            ],
        ),
        (
            "Colours",
            [
                "Blue: on anyone's roll. Green: on your own roll. Red: on an opponent's roll, paid by the "
                "roller. Purple: on your own roll, at most one of each in your town.",
            ],
        ),
        (
            "Special cards",
            [
                "TV Station: choose an opponent who pays you. Business Center: swap one of your cards (not "
                "purple) for an opponent's: on the board, click the opponent's card you want, then yours.",
            ],
        ),
    ],
    "lordsofvegas": [
        (
            "Goal",
            [
                "Build and run casinos on the Las Vegas Strip. Points come from the casinos you are boss of "
                "when they pay; the game ends when the Game End card is drawn (or someone reaches the last "
                "square of the score track). Most points wins.",
            ],
        ),
        (
            "Your turn",
            [
                "Draw a lot card: you mark that lot, and every casino of the card's colour pays its owners "
                "and scores points for its boss. Then take as many actions as you like and can pay for.",
                "Build a casino on a lot you own (pay its price); sprawl one onto an empty neighbouring lot; "
                "remodel a casino to another colour; reorganize a casino (its dice are rolled again: the "
                "highest die becomes boss); gamble at another player's casino; and offer trades.",
            ],
        ),
        (
            "Bosses and dice",
            [
                "Each of your tiles holds one of your dice. The highest die in a casino is its boss, who "
                "scores the casino's size in points when it pays. Ties are rolled off.",
            ],
        ),
        (
            "Gambling",
            [
                "Bet at a casino whose boss is someone else: roll two dice; 3, 4, 9, 10 or 11 win the bet, "
                "2 and 12 win twice the bet, 5 to 8 lose it. The boss may lay off half the risk to the bank.",
            ],
        ),
    ],
    "newlasvegas": [
        (
            "Goal",
            [
                "Each architect builds their own Las Vegas on a score sheet. Everyone plays each round at "
                "the same time, in secret. Most points at the end wins; solo, you play against ACME.",
            ],
        ),
        (
            "A round",
            [
                "Three combinations of a number and an effect are turned up (solo: three cards, and you "
                "take the number of one and the effect of another). Choose one.",
                "Write the number in an empty casino of your city: the numbers of a street must rise from "
                "left to right. Then use the effect: opening, construction, upgrade, show or limousine.",
                "If you cannot write your number anywhere, you mark two opening boxes instead.",
            ],
        ),
        (
            "Scoring",
            [
                "Projects, opened casinos, shows, hotels, complete streets, golf courses, the limousine "
                "loop and the vault all score; the sheet shows your total so far.",
            ],
        ),
        (
            "The bank loan",
            [
                "Before the first round everyone secretly takes or refuses the bank loan; nobody sees the "
                "answers until the end.",
            ],
        ),
    ],
    "multicity": [
        (
            "Goal",
            [
                "Together you build one city of square tiles; each player places their six objects (2 to 7 "
                "squares long) on it. The first to place all six wins; when the tiles run out, whoever has "
                "the fewest squares left to place wins.",
            ],
        ),
        (
            "Your turn",
            [
                "Draw a tile and lay it next to the city (turn it as you like: each square must match the "
                "colour of the squares it touches). Then you may place one of your objects: straight along "
                "a row or a column, both ends on squares of your colour.",
                "On the board: click a free slot to lay the tile (R or the buttons turn it), then click the "
                "two end squares of an object. The move list beside the board offers the same moves.",
            ],
        ),
    ],
}


@cache
def reference(game: str) -> dict[str, Any]:
    """The reference tables of a game from the engine's own data: ``{"title", "columns", "rows"}``
    per table."""
    if game == "machikoro":
        return {"tables": _machikoro()}
    if game == "lordsofvegas":
        return {"tables": _lordsofvegas()}
    if game == "newlasvegas":
        return {"tables": _newlasvegas()}
    if game == "multicity":
        return {"tables": _multicity()}
    return {"tables": []}


def _span(rolls: tuple[int, ...]) -> str:
    if not rolls:
        return ""
    low, high = min(rolls), max(rolls)
    return str(low) if low == high else f"{low}–{high}"


def _machikoro() -> list[dict[str, Any]]:
    from tabletown.games.machikoro.data import all_cards
    from tabletown.games.machikoro.render import EFFECTS

    cards = sorted(all_cards(), key=lambda c: (c.kind != "establishment", min(c.rolls or (99,)), c.cost))
    rows = [
        {
            "id": c.code,
            "cells": [
                c.name,
                c.color.capitalize() if c.kind == "establishment" else "Landmark",
                _span(c.rolls),
                str(c.cost),
                "Harbor" if c.expansion != "base" else "Base",
                EFFECTS.get(c.code, ""),
            ],
        }
        for c in cards
    ]
    return [
        {
            "title": "Every card",
            "columns": ["Card", "Colour", "Roll", "Cost", "Set", "What it does"],
            "rows": rows,
        }
    ]


def _lordsofvegas() -> list[dict[str, Any]]:
    from tabletown.games.lordsofvegas import data

    lots = [
        {
            "id": data.LOT_NAMES[i],
            "cells": [
                data.LOT_NAMES[i].upper(),
                data.BLOCK[i].upper() if isinstance(data.BLOCK[i], str) else str(data.BLOCK[i]),
                f"${data.COST[i]}",
                str(data.DIE[i]),
                "yes" if data.ON_STRIP[i] else "",
                data.PAY_NAMES[data.CARD_PAYS[i]],
            ],
        }
        for i in range(data.NUM_LOTS)
    ]
    colours = [
        {"id": colour, "cells": [colour.capitalize(), str(data.TILES_PER_COLOR)]} for colour in data.COLORS
    ]
    return [
        {"title": "Casino colours", "columns": ["Colour", "Tiles"], "rows": colours},
        {
            "title": "Every lot",
            "columns": ["Lot", "Block", "Price", "Die printed", "On the Strip", "Its card pays"],
            "rows": lots,
        },
    ]


EFFECT_WORDS = {
    "op": "mark the next opening box",
    "con": "cross out a crane: that casino is built",
    "up": "cross a yellow box of one upgrade column",
    "show": "if the casino has a star: cross a show box",
    "limo": "drive the limousine one segment to a neighbouring lamp",
}


def _newlasvegas() -> list[dict[str, Any]]:
    from tabletown.games.newlasvegas import data

    effects = [
        {"id": code, "cells": [name.capitalize(), EFFECT_WORDS.get(code, "")]}
        for code, name in data.EFFECT_NAMES.items()
    ]
    projects = [
        {
            "id": p["id"],
            "cells": [p["id"], p["deck"], p["condition"], str(p["points_first"]), str(p["points_later"])],
        }
        for p in data.PROJECTS
    ]
    return [
        {"title": "Effects", "columns": ["Effect", "What it does"], "rows": effects},
        {
            "title": "Projects",
            "columns": ["Project", "Deck", "Condition", "Points first", "Points later"],
            "rows": projects,
        },
    ]


def _multicity() -> list[dict[str, Any]]:
    from tabletown.games.multicity.state import LENGTHS
    from tabletown.games.multicity.tiles import COLOURS

    objects = [{"id": str(n), "cells": [f"{n} squares", "one per player"]} for n in LENGTHS]
    colours = [{"id": c, "cells": [c.capitalize(), f"player {i + 1}"]} for i, c in enumerate(COLOURS)]
    return [
        {"title": "Objects", "columns": ["Object", "How many"], "rows": objects},
        {"title": "Colours", "columns": ["Colour", "Seat"], "rows": colours},
    ]


# First-move hints for a newcomer, per game and decision (the page shows one while it is your turn,
# until the player turns hints off; remembered per browser).
HINTS: dict[str, dict[str, str]] = {
    "machikoro": {
        "roll": "Roll the dice: every card whose number comes up pays its owner.",
        "reroll": "Your Radio Tower lets you roll again once, or keep this roll.",
        "harbor": "Your Harbor can add 2 to this roll: pick the total that pays you more.",
        "tv_station": "Your TV Station takes coins from one opponent: pick who pays.",
        "business_center": "Business Center: click an opponent's card you want, then one of yours "
        "to give — or choose no swap.",
        "build": "Build one card from the market (highlighted ones you can afford) or a landmark in "
        "your town — or build nothing and keep your coins.",
    },
    "lordsofvegas": {
        "action": "Click a highlighted lot to build, sprawl, remodel, reorganize or gamble there; "
        "End turn when you are done.",
        "layoff": "A player bets at your casino: lay off half the risk to the bank, or cover it all.",
        "place": "Click the lot that gets your highest re-rolled die.",
        "offer": "A trade is offered: accept it, refuse it, or counter with your own offer.",
        "market": "You may offer a trade to another player, or pass.",
    },
    "newlasvegas": {
        "loan": "The bank loan: take it or not, in secret. Everyone sees the answers at the end.",
        "round": "Choose a combination (number and effect), write the number in a casino of your "
        "city (numbers rise left to right along a street), use the effect, then confirm.",
        "reshuffle": "You finished a project first: vote to reshuffle the piles or keep them.",
    },
    "multicity": {
        "draw": "Draw a tile for the city.",
        "lay": "Lay your tile next to the city: click a free slot; R or the buttons turn it.",
        "place": "Place one of your objects: click its two end squares (both on your colour), or pass.",
    },
}


def help_page(game: str) -> dict[str, Any]:
    return {"rules": RULES.get(game, []), "reference": reference(game)["tables"]}
