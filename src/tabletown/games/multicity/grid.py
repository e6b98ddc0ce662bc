"""The square grid of Multicity: squares as ints, the occupancy flags of objects, the tile slots.

Squares are ``key(x, y)`` ints, so the city is a flat dict from square to code. A tile slot
``(sx, sy)`` holds the tile whose top-left square is ``(3 * sx, 3 * sy)``. The tables here are made
once and shared by every state (``_lays``, ``_slot_info``); the rules read them as module globals.
"""

from __future__ import annotations

from .actions import MAX_LENGTH, Lay, Place, lay_of

STRIDE = 1024
OFFSET = 512

# Occupancy flags of a square: end or middle of a horizontal or vertical object.
END_H, END_V, MID_H, MID_V = 1, 2, 4, 8


def key(x: int, y: int) -> int:
    return (y + OFFSET) * STRIDE + x + OFFSET


def coords(square: int) -> tuple[int, int]:
    return square % STRIDE - OFFSET, square // STRIDE - OFFSET


# The four Lay actions of each tile slot, made once and shared by every state.
_LAYS: dict[tuple[int, int], tuple[Lay, ...]] = {}


def _lays(slot: tuple[int, int]) -> tuple[Lay, ...]:
    lays = _LAYS.get(slot)
    if lays is None:
        lays = _LAYS[slot] = tuple(lay_of(slot[0] * 3, slot[1] * 3, turn) for turn in range(4))
    return lays


_NEIGHBOURS = ((1, 0), (-1, 0), (0, 1), (0, -1))
# Per tile slot, made once: its nine square keys, its edge neighbours (in _NEIGHBOURS order) and,
# per direction, the slots two before, one before, one after and two after it.
_SLOT_INFO: dict[tuple[int, int], tuple[tuple[int, ...], tuple, tuple]] = {}


def _slot_info(slot: tuple[int, int]) -> tuple[tuple[int, ...], tuple, tuple]:
    info = _SLOT_INFO.get(slot)
    if info is None:
        sx, sy = slot
        corner = key(sx * 3, sy * 3)
        squares = tuple(corner + (i // 3) * STRIDE + i % 3 for i in range(9))
        around = tuple((sx + dx, sy + dy) for dx, dy in _NEIGHBOURS)
        lines = (
            tuple((sx + k, sy) for k in (-2, -1, 1, 2)),
            tuple((sx, sy + k) for k in (-2, -1, 1, 2)),
        )
        info = _SLOT_INFO[slot] = (squares, around, lines)
    return info


def opened_slots(tiles: dict, frontier: dict, slot: tuple[int, int]) -> list[tuple[int, int]]:
    """The slots that a tile laid in ``slot`` (already in ``tiles``) makes free: its edge neighbours
    neither in the city nor free before."""
    sx, sy = slot
    found = []
    for dx, dy in _NEIGHBOURS:
        near = (sx + dx, sy + dy)
        if near not in tiles and near not in frontier:
            found.append(near)
    return found


# The occupancy flags of an object's squares, per direction (False, True) and length.
_FLAGS = tuple(
    tuple((end,) + (mid,) * (length - 2) + (end,) if length >= 2 else () for length in range(MAX_LENGTH + 1))
    for end, mid in ((END_H, MID_H), (END_V, MID_V))
)


def object_squares(action: Place) -> tuple[int, ...]:
    start = key(action.x, action.y)
    step = STRIDE if action.vertical else 1
    return tuple(start + i * step for i in range(action.length))


def span_free(occ: dict[int, int], loose: bool, squares: tuple[int, ...], vertical: bool) -> bool:
    """May an object lie on ``squares`` among the objects whose flags are in ``occ``?"""
    if not loose:
        return occ.keys().isdisjoint(squares)
    # Looser reading: a square may hold the end of one object and the middle of a crossing one.
    end_ok = MID_H if vertical else MID_V
    mid_ok = END_H if vertical else END_V
    last = len(squares) - 1
    for i, square in enumerate(squares):
        flags = occ.get(square, 0)
        if flags and flags != (end_ok if i == 0 or i == last else mid_ok):
            return False
    return True


def occupy(occ: dict[int, int], squares: tuple[int, ...], vertical: bool) -> None:
    """Mark an object's squares in ``occ``: its two ends and its middle."""
    end_flag, mid_flag = (END_V, MID_V) if vertical else (END_H, MID_H)
    last = len(squares) - 1
    for i, square in enumerate(squares):
        occ[square] = occ.get(square, 0) | (end_flag if i == 0 or i == last else mid_flag)
