"""Words for the Machi Koro board: each card's name and effect, taken from the game's renderer, and
what a card's tooltip tells besides: its colour (and when that colour pays), printed cost and numbers."""

from __future__ import annotations

from functools import cache
from typing import Any

# When a card of each colour works, in the words of the rules page (web/help.py, "Colours").
COLORS = {
    "blue": "Blue establishment: works on anyone's roll.",
    "green": "Green establishment: works on your own roll.",
    "red": "Red establishment: works on an opponent's roll, paid by the roller.",
    "purple": "Purple establishment: works on your own roll; at most one of each in a town.",
    "landmark": "Landmark: works once built.",
}


@cache
def words() -> dict[str, Any]:
    from tabletown.games.machikoro import render
    from tabletown.games.machikoro.data import all_cards

    names = {card.code: card.name for card in all_cards()}
    effects = dict(getattr(render, "EFFECTS", {}))
    # printed facts, for a card the view does not list (the view's own cost wins: options may change it)
    printed = {
        card.code: {"color": card.color, "rolls": list(card.rolls), "cost": card.cost} for card in all_cards()
    }
    return {"names": names, "effects": effects, "printed": printed, "colors": COLORS}
