"""Words for the Machi Koro board: each card's name and effect, taken from the game's renderer."""

from __future__ import annotations

from functools import cache
from typing import Any


@cache
def words() -> dict[str, Any]:
    from tabletown.games.machikoro import render
    from tabletown.games.machikoro.data import all_cards

    names = {card.code: card.name for card in all_cards()}
    effects = dict(getattr(render, "EFFECTS", {}))
    return {"names": names, "effects": effects}
