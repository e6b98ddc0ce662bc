"""Static Lords of Vegas data, loaded once from board.json into flat tuples indexed by lot number.

Lots are numbered 0..47 in the order of board.json (A1..A6, B1..B6, C1..C12, D1..D9, E1..E6, F1..F9).
Card ``c`` is the card of lot ``c``; card 48 is Game End. Colour indexes follow COLORS; STRIP (5) marks
a card that pays every casino touching the Strip.
"""

from __future__ import annotations

import json
import sys
from importlib import resources

_RAW = json.loads(resources.files(__package__).joinpath("board.json").read_text(encoding="utf-8"))

# Ids are interned: a played game and a saved one read back hold the very same string objects
# (see LordsOfVegasGame.state_from_json).
COLORS: tuple[str, ...] = tuple(sys.intern(c) for c in _RAW["colors"])
NUM_COLORS = len(COLORS)
STRIP = NUM_COLORS  # card colour index meaning "pays the Strip"
PAY_NAMES: tuple[str, ...] = COLORS + ("strip",)
TILES_PER_COLOR: int = _RAW["tiles_per_color"]
DICE_PER_PLAYER: int = _RAW["dice_per_player"]
MARKERS_PER_PLAYER: int = _RAW["markers_per_player"]
SCORE_TRACK: tuple[int, ...] = tuple(_RAW["score_track"])
INSTANT_WIN: int = _RAW["instant_win"]
EXCLUDED_2P_BLOCK: str = _RAW["two_player_excluded_block"]

LOTS: tuple[dict, ...] = tuple(_RAW["lots"])
NUM_LOTS = len(LOTS)
GAME_END = NUM_LOTS  # the card id of Game End
NUM_CARDS = NUM_LOTS + 1

LOT_NAMES: tuple[str, ...] = tuple(sys.intern(lot["id"].lower()) for lot in LOTS)
LOT_INDEX: dict[str, int] = {name: i for i, name in enumerate(LOT_NAMES)}
COST: tuple[int, ...] = tuple(lot["cost"] for lot in LOTS)
DIE: tuple[int, ...] = tuple(lot["die"] for lot in LOTS)
START_MONEY: tuple[int, ...] = tuple(lot["start_money"] for lot in LOTS)
ON_STRIP: tuple[bool, ...] = tuple(lot["touches_strip"] for lot in LOTS)
BLOCK: tuple[str, ...] = tuple(lot["block"] for lot in LOTS)
NEIGHBORS: tuple[tuple[int, ...], ...] = tuple(
    tuple(LOT_INDEX[n.lower()] for n in lot["neighbors"]) for lot in LOTS
)
GRID: tuple[tuple[int, int], ...] = tuple((lot["grid_row"], lot["grid_col"]) for lot in LOTS)
# Which colour (or STRIP) each card pays; Game End pays the Strip.
CARD_PAYS: tuple[int, ...] = tuple(PAY_NAMES.index(lot["card_color"]) for lot in LOTS) + (STRIP,)
IN_EXCLUDED_BLOCK: tuple[bool, ...] = tuple(b == EXCLUDED_2P_BLOCK for b in BLOCK)

COLOR_CODES: dict[str, int] = {}
for _i, _name in enumerate(COLORS):
    COLOR_CODES[_name] = _i
    COLOR_CODES[_name[:2]] = _i  # gr, br, go, pu, si
COLOR_CODES["aqua"] = COLORS.index("green")  # the English rules' name for green

# Score track: NEXT_STEP[value] = (next square, points needed to reach it) for every square.
NEXT_STEP: dict[int, tuple[int, int]] = {
    SCORE_TRACK[i]: (SCORE_TRACK[i + 1], SCORE_TRACK[i + 1] - SCORE_TRACK[i])
    for i in range(len(SCORE_TRACK) - 1)
}


def advance_score(square: int, points: int) -> int:
    """Move a marker from ``square`` with the points of ONE casino; leftover points are lost."""
    step = NEXT_STEP.get(square)
    while step is not None and points >= step[1]:
        points -= step[1]
        square = step[0]
        step = NEXT_STEP.get(square)
    return square


def gamble_multiplier(total: int) -> int:
    """2d6 total -> +1 (even-money win), +2 (double), -1 (loss)."""
    if total in (2, 12):
        return 2
    if total in (3, 4, 9, 10, 11):
        return 1
    return -1
