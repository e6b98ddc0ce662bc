"""Words for the Multicity board: colours, phases, seat names and the legend, from the game's own
renderer (render.py), tile data and glossary, so the browser and the terminal say the same things."""

from __future__ import annotations

from functools import cache
from typing import Any


@cache
def words(lang: str = "en") -> dict[str, Any]:
    """The board's words in ``lang`` (colours and the hole by their printed names; English unchanged)."""
    from tabletown.games.multicity import render
    from tabletown.games.multicity.tiles import COLOURS, LETTERS

    colours = [render.colour_name(seat, lang) for seat in range(len(COLOURS))]
    hole = "hole" if render.speaker(lang).english else render.term("hole", lang)
    return {
        "colours": colours,
        "letters": {letter: colours[i] for i, letter in enumerate(LETTERS)} | {"o": hole},
        "phases": {phase: render.phase_word(phase, lang) for phase in render.PHASE_WORDS},
        "seat_names": [render.seat_name(seat, lang) for seat in range(len(COLOURS))],
    }
