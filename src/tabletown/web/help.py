"""Help at hand: each game's rules summary (in our own words; the full rules with every choice we made
are in docs/games/<name>.md) and a reference of its cards, tiles and places built from the data the
engine itself plays with (so it cannot drift from the rules in code). Served as ``/games/{name}/help``;
the table page links it, and its boards take their tooltips from the same data (board words)."""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import Any

from ..core.i18n import N_, glossary_term
from .languages import ui_text

WHAT_IT_DOES = N_("What it does")

# heading -> paragraphs; short, for a newcomer at the table
RULES: dict[str, list[tuple[str, list[str]]]] = {
    "machikoro": [
        (
            N_("Goal"),
            [
                N_(
                    "Each player runs a small town. The first to build all their landmarks wins at once "
                    "(four landmarks in the base game, six with Harbor; the City Hall does not count)."
                ),
            ],
        ),
        (
            N_("Your turn"),
            [
                N_(
                    "Roll one die (or two, once you own the Train Station). With the Radio Tower you may roll "
                    "again once; with the Harbor you may add 2 to a roll of 10 or more."
                ),
                N_(
                    "Every card whose number matches the roll pays: red cards of the other players take coins "
                    "from the roller first, then green cards (yours) and blue cards (everyone's) pay from the "
                    "bank, then your purple cards take coins from opponents."
                ),
                N_(
                    "Then build one thing: a card from the market or one of your landmarks, if you have the "
                    "coins. Or build nothing."
                ),
            ],
        ),
        (
            N_("Colours"),
            [
                N_(
                    "Blue: on anyone's roll. Green: on your own roll. Red: on an opponent's roll, paid by the "
                    "roller. Purple: on your own roll, at most one of each in your town."
                ),
            ],
        ),
        (
            N_("Special cards"),
            [
                N_(
                    "TV Station: choose an opponent who pays you. Business Center: swap one of your cards (not "
                    "purple) for an opponent's: on the board, click the opponent's card you want, then yours."
                ),
            ],
        ),
    ],
    "lordsofvegas": [
        (
            N_("Goal"),
            [
                N_(
                    "Build and run casinos on the Las Vegas Strip. Points come from the casinos you are boss of "
                    "when they pay; the game ends when the Game End card is drawn (or someone reaches the last "
                    "square of the score track). Most points wins."
                ),
            ],
        ),
        (
            N_("Your turn"),
            [
                N_(
                    "Draw a lot card: you mark that lot, and every casino of the card's colour pays its owners "
                    "and scores points for its boss. Then take as many actions as you like and can pay for."
                ),
                N_(
                    "Build a casino on a lot you own (pay its price); sprawl one onto an empty neighbouring lot; "
                    "remodel a casino to another colour; reorganize a casino (its dice are rolled again: the "
                    "highest die becomes boss); gamble at another player's casino; and offer trades."
                ),
            ],
        ),
        (
            N_("Bosses and dice"),
            [
                N_(
                    "Each of your tiles holds one of your dice. The highest die in a casino is its boss, who "
                    "scores the casino's size in points when it pays. Ties are rolled off."
                ),
            ],
        ),
        (
            N_("Gambling"),
            [
                N_(
                    "Bet at a casino whose boss is someone else: roll two dice; 3, 4, 9, 10 or 11 win the bet, "
                    "2 and 12 win twice the bet, 5 to 8 lose it. The boss may lay off half the risk to the bank."
                ),
            ],
        ),
    ],
    "newlasvegas": [
        (
            N_("Goal"),
            [
                N_(
                    "Each architect builds their own Las Vegas on a score sheet. Everyone plays each round at "
                    "the same time, in secret. Most points at the end wins; solo, you play against ACME."
                ),
            ],
        ),
        (
            N_("A round"),
            [
                N_(
                    "Three combinations of a number and an effect are turned up (solo: three cards, and you "
                    "take the number of one and the effect of another). Choose one."
                ),
                N_(
                    "Write the number in an empty casino of your city: the numbers of a street must rise from "
                    "left to right. Then use the effect: opening, construction, upgrade, show or limousine."
                ),
                N_("If you cannot write your number anywhere, you mark two opening boxes instead."),
            ],
        ),
        (
            N_("Scoring"),
            [
                N_(
                    "Projects, opened casinos, shows, hotels, complete streets, golf courses, the limousine "
                    "loop and the vault all score; the sheet shows your total so far."
                ),
            ],
        ),
        (
            N_("The bank loan"),
            [
                N_(
                    "Before the first round everyone secretly takes or refuses the bank loan; nobody sees the "
                    "answers until the end."
                ),
            ],
        ),
    ],
    "multicity": [
        (
            N_("Goal"),
            [
                N_(
                    "Together you build one city of square tiles; each player places their six objects (2 to 7 "
                    "squares long) on it. The first to place all six wins; when the tiles run out, whoever has "
                    "the fewest squares left to place wins."
                ),
            ],
        ),
        (
            N_("Your turn"),
            [
                N_(
                    "Draw a tile and lay it next to the city (turn it as you like: each square must match the "
                    "colour of the squares it touches). Then you may place one of your objects: straight along "
                    "a row or a column, both ends on squares of your colour."
                ),
                N_(
                    "On the board: click a free slot to lay the tile (R or the buttons turn it), then click the "
                    "two end squares of an object. The move list beside the board offers the same moves."
                ),
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
                c.color.capitalize() if c.kind == "establishment" else N_("Landmark"),
                _span(c.rolls),
                str(c.cost),
                N_("Harbor") if c.expansion != "base" else N_("Base"),
                EFFECTS.get(c.code, ""),
            ],
        }
        for c in cards
    ]
    return [
        {
            "title": N_("Every card"),
            "columns": [N_("Card"), N_("Colour"), N_("Roll"), N_("Cost"), N_("Set"), WHAT_IT_DOES],
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
                N_("yes") if data.ON_STRIP[i] else "",
                data.PAY_NAMES[data.CARD_PAYS[i]],
            ],
        }
        for i in range(data.NUM_LOTS)
    ]
    colours = [
        {"id": colour, "cells": [colour.capitalize(), str(data.TILES_PER_COLOR)]} for colour in data.COLORS
    ]
    return [
        {"title": N_("Casino colours"), "columns": [N_("Colour"), N_("Tiles")], "rows": colours},
        {
            "title": N_("Every lot"),
            "columns": [
                N_("Lot"),
                N_("Block"),
                N_("Price"),
                N_("Die printed"),
                N_("On the Strip"),
                N_("Its card pays"),
            ],
            "rows": lots,
        },
    ]


EFFECT_WORDS = {
    "op": N_("mark the next opening box"),
    "con": N_("cross out a crane: that casino is built"),
    "up": N_("cross a yellow box of one upgrade column"),
    "show": N_("if the casino has a star: cross a show box"),
    "limo": N_("drive the limousine one segment to a neighbouring lamp"),
}


def _newlasvegas() -> list[dict[str, Any]]:
    from tabletown.games.newlasvegas import data
    from tabletown.games.newlasvegas.words import project_condition

    effects = [
        {"id": code, "cells": [name.capitalize(), EFFECT_WORDS.get(code, "")]}
        for code, name in data.EFFECT_NAMES.items()
    ]
    projects = [
        {
            "id": p["id"],
            "cells": [
                p["id"],
                p["deck"],
                project_condition(p["id"]),
                str(p["points_first"]),
                str(p["points_later"]),
            ],
        }
        for p in data.PROJECTS
    ]
    return [
        {"title": N_("Effects"), "columns": [N_("Effect"), WHAT_IT_DOES], "rows": effects},
        {
            "title": N_("Projects"),
            "columns": [N_("Project"), N_("Deck"), N_("Condition"), N_("Points first"), N_("Points later")],
            "rows": projects,
        },
    ]


def _multicity() -> list[dict[str, Any]]:
    from tabletown.games.multicity.state import LENGTHS
    from tabletown.games.multicity.tiles import COLOURS

    objects = [
        {"id": str(n), "cells": [N_("{n} squares"), N_("one per player")], "fields": {"n": n}}
        for n in LENGTHS
    ]
    colours = [
        {"id": c, "cells": [c.capitalize(), N_("player {n}")], "fields": {"n": i + 1}}
        for i, c in enumerate(COLOURS)
    ]
    return [
        {"title": N_("Objects"), "columns": [N_("Object"), N_("How many")], "rows": objects},
        {"title": N_("Colours"), "columns": [N_("Colour"), N_("Seat")], "rows": colours},
    ]


# First-move hints for a newcomer, per game and decision (the page shows one while it is your turn,
# until the player turns hints off; remembered per browser).
HINTS: dict[str, dict[str, str]] = {
    "machikoro": {
        "roll": N_("Roll the dice: every card whose number comes up pays its owner."),
        "reroll": N_("Your Radio Tower lets you roll again once, or keep this roll."),
        "harbor": N_("Your Harbor can add 2 to this roll: pick the total that pays you more."),
        "tv_station": N_("Your TV Station takes coins from one opponent: pick who pays."),
        "business_center": N_(
            "Business Center: click an opponent's card you want, then one of yours "
            "to give — or choose no swap."
        ),
        "build": N_(
            "Build one card from the market (highlighted ones you can afford) or a landmark in "
            "your town — or build nothing and keep your coins."
        ),
    },
    "lordsofvegas": {
        # no "action" hint: the board's own turn box says the same thing at every main-phase turn
        "layoff": N_("A player bets at your casino: lay off half the risk to the bank, or cover it all."),
        "place": N_("Click the lot that gets your highest re-rolled die."),
        "offer": N_("A trade is offered: accept it, refuse it, or counter with your own offer."),
        "market": N_("You may offer a trade to another player, or pass."),
    },
    "newlasvegas": {
        "loan": N_("The bank loan: take it or not, in secret. Everyone sees the answers at the end."),
        "round": N_(
            "Choose a combination (number and effect), write the number in a casino of your "
            "city (numbers rise left to right along a street), use the effect, then confirm."
        ),
        "reshuffle": N_("You finished a project first: vote to reshuffle the piles or keep them."),
    },
    "multicity": {
        "draw": N_("Draw a tile for the city."),
        "lay": N_("Lay your tile next to the city: click a free slot; R or the buttons turn it."),
        "place": N_("Place one of your objects: click its two end squares (both on your colour), or pass."),
    },
}


def help_page(game: str, lang: str = "en") -> dict[str, Any]:
    """The page's rules and reference tables in ``lang``: our words from the shared catalog, the
    game's printed names from its glossary (cards, colours, effects; English names otherwise)."""
    rules = [
        (ui_text(lang, heading), [ui_text(lang, text) for text in texts])
        for heading, texts in RULES.get(game, [])
    ]
    tables = [_in_language(table, game, lang) for table in reference(game)["tables"]]
    return {"rules": rules, "reference": tables}


def hints(game: str, lang: str = "en") -> dict[str, str]:
    """The first-move hints of ``game`` in ``lang``."""
    return {decision: ui_text(lang, text) for decision, text in HINTS.get(game, {}).items()}


def board_words(game: str, lang: str) -> dict[str, Any]:
    from .boards import board_words as words

    return words(game, lang)


def _in_language(table: dict[str, Any], game: str, lang: str) -> dict[str, Any]:
    if lang == "en":
        return {
            **table,
            "rows": [
                {**row, "cells": [c.format(**row.get("fields", {})) for c in row["cells"]]}
                for row in table["rows"]
            ],
        }
    terms = _glossary(game)
    effects = board_words(game, lang).get("effects", {})
    does = table["columns"].index(WHAT_IT_DOES) if WHAT_IT_DOES in table["columns"] else None
    rows = []
    for row in table["rows"]:
        cells = [ui_text(lang, cell, **row.get("fields", {})) for cell in row["cells"]]
        if row["id"] in terms:  # the printed name of this card, colour, effect...
            cells[0] = glossary_term(terms, row["id"], lang)
        if does is not None and isinstance(effects.get(row["id"]), str):  # the board's own words for it
            cells[does] = effects[row["id"]]
        rows.append({**row, "cells": cells})
    return {
        "title": ui_text(lang, table["title"]),
        "columns": [ui_text(lang, column) for column in table["columns"]],
        "rows": rows,
    }


@cache
def _glossary(game: str) -> dict[str, Any]:
    path = Path(__file__).resolve().parents[1] / "games" / game / "glossary.json"
    try:
        terms: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))["terms"]
    except (OSError, ValueError, KeyError):
        return {}
    return terms
