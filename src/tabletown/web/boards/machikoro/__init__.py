"""Words for the Machi Koro board: each card's name and effect, taken from the game's renderer, and
what a card's tooltip tells besides: its colour (and when that colour pays), printed cost and numbers.
Every word comes in the page's language (card names from the game's glossary, the rest from the
``machikoro`` catalogs)."""

from __future__ import annotations

from functools import cache
from typing import Any

from tabletown.core.i18n import N_, Speaker

# When a card of each colour works, in the words of the rules page (web/help.py, "Colours").
COLORS = {
    "blue": N_("Blue establishment: works on anyone's roll."),
    "green": N_("Green establishment: works on your own roll."),
    "red": N_("Red establishment: works on an opponent's roll, paid by the roller."),
    "purple": N_("Purple establishment: works on your own roll; at most one of each in a town."),
    "landmark": N_("Landmark: works once built."),
}


@cache
def words(lang: str = "en") -> dict[str, Any]:
    from tabletown.games.machikoro import render
    from tabletown.games.machikoro.data import all_cards

    sp = Speaker(domain=render.DOMAIN, lang=lang)
    names = {card.code: render.card_name(card.code, sp.lang) for card in all_cards()}
    effects = {code: render.effect(code, sp.lang) for code in render.EFFECTS}
    # City Hall under city_hall=every_turn (the board picks it by the view's options)
    effects["cityhall/every_turn"] = render.effect("cityhall", sp.lang, {"city_hall": "every_turn"})
    # printed facts, for a card the view does not list (the view's own cost wins: options may change it)
    # "an": the English name takes "an" ("Build an Apple Orchard"; other languages word both alike)
    printed = {
        card.code: {
            "color": card.color,
            "rolls": list(card.rolls),
            "cost": card.cost,
            "an": render.card_name(card.code).startswith(("A", "E", "I", "O", "U")),
        }
        for card in all_cards()
    }
    colors = {colour: sp.tr(text) for colour, text in COLORS.items()}
    return {"names": names, "effects": effects, "printed": printed, "colors": colors}
