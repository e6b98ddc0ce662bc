"""Static tile data: the reconstructed deck from tiles.json and its precomputed rotations.

A tile is 9 square codes in reading order (row by row, top row first): 0-3 are the colours
green, red, blue, yellow and 4 is the hole. ``ROTATIONS[tile][turn]`` is the tile turned ``turn``
quarter turns clockwise, computed once here so play never rotates anything.
"""

from __future__ import annotations

import json
from pathlib import Path

COLOURS = ("green", "red", "blue", "yellow")
LETTERS = "grby"
HOLE = 4
CODE_OF = {letter: code for code, letter in enumerate(LETTERS)} | {"o": HOLE}
LETTER_OF = LETTERS + "o"

Layout = tuple[int, ...]


def parse_tile(text: str) -> Layout:
    """'grb/yog/yrb' -> codes; refuses anything but one hole-or-symbol letter per square."""
    squares = text.replace("/", "")
    if len(squares) != 9 or any(ch not in CODE_OF for ch in squares):
        raise ValueError(f"a tile is 9 letters of {LETTERS}o in 3 rows, not {text!r}")
    return tuple(CODE_OF[ch] for ch in squares)


def tile_text(layout: Layout) -> str:
    letters = "".join(LETTER_OF[c] for c in layout)
    return "/".join(letters[i : i + 3] for i in (0, 3, 6))


def rotate(layout: Layout) -> Layout:
    """One quarter turn clockwise: the new row r, column c is the old row 2-c, column r."""
    return tuple(layout[(2 - c) * 3 + r] for r in range(3) for c in range(3))


def rotations(layout: Layout) -> tuple[Layout, Layout, Layout, Layout]:
    turned = [layout]
    for _ in range(3):
        turned.append(rotate(turned[-1]))
    return tuple(turned)  # type: ignore[return-value]


def load_deck(path: Path | None = None) -> tuple[Layout, ...]:
    data = json.loads((path or Path(__file__).with_name("tiles.json")).read_text(encoding="utf-8"))
    return tuple(parse_tile(t) for t in data["tiles"])


DECK: tuple[Layout, ...] = load_deck()
DECK_ROTATIONS: tuple[tuple[Layout, ...], ...] = tuple(rotations(t) for t in DECK)
