"""Words for the Multicity board: colours, phases, seat names and the legend, from the game's own
renderer (render.py) and tile data, so the browser and the terminal say the same things."""

from __future__ import annotations

from functools import cache
from typing import Any


@cache
def words() -> dict[str, Any]:
    from tabletown.games.multicity import render
    from tabletown.games.multicity.tiles import COLOURS, LETTERS

    return {
        "colours": list(COLOURS),
        "letters": {letter: COLOURS[i] for i, letter in enumerate(LETTERS)} | {"o": "hole"},
        "phases": dict(render.PHASE_WORDS),
        "seat_names": [render.seat_name(seat) for seat in range(len(COLOURS))],
    }
