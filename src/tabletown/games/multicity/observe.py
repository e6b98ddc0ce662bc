"""Multicity as numbers for learning agents (tabletown.rl): ``state.observation(seat)``.

Everything in Multicity is public except the order of the stack. A seat sees:

* a window of the city of 7 x 7 tile slots (21 x 21 squares) around the start tile, one plane per
  feature: a tile is there, the square shows the seat's own colour, each other seat's colour (in
  turn order), an unused colour, a hole, covered by the seat's own object, covered by another's;
* the free slots of that window, and the drawn tile (if any) square by square in the same colours;
* per seat (own first, then the others in turn order): the objects left to place (by length), the
  squares still to cover, how many placements it has open now, in all and per length (up to 5);
* the phase, whose turn it is and who played first (relative), the stack size and the tiles laid.

Cities that grow past the window are seen only up to it (a tile at most three slots from the start
tile in each direction).

Speed: the city part is a set of ones. What a laid tile, a placed object or a free slot sets to 1
depends only on that piece (and on the seat, for the colours), so each piece's positions are
remembered as packed bytes; a call joins them and sets them all in one NumPy call. The engine contract finds ``observation`` here on the first ``state.observation()`` call (core.game);
``Game.observation_size`` measures its length.
"""

from __future__ import annotations

from struct import Struct
from typing import Any

import numpy as np

from .actions import LENGTHS
from .grid import OFFSET, STRIDE, object_squares
from .phases import FINAL, OVER, PHASE_IDS
from .state import MulticityState
from .tiles import HOLE

RADIUS = 3  # tile slots each way from the start tile
SIDE = 3 * (2 * RADIUS + 1)  # squares across the window
LOW = -3 * RADIUS  # the window's first square coordinate
AREA = SIDE * SIDE
SLOTS = 2 * RADIUS + 1
CACHE_LIMIT = 200_000  # remembered pieces per seat and tile set, before starting afresh

_TILE_OFFSETS = tuple(row * SIDE + column for row in range(3) for column in range(3))
_ONE = Struct("<i").pack


def _colour_channel(code: int, player: int, n: int) -> int:
    """0 own colour, 1..n-1 the other seats' in turn order, n an unused colour, n+1 a hole."""
    if code == HOLE:
        return n + 1
    if code >= n:
        return n
    return (code - player) % n


def _packed(positions: list[int]) -> bytes:
    return b"".join(map(_ONE, positions))


class _Pieces:
    """For one seat, seat count and tile set: each piece's positions in the observation, packed as
    little-endian int32 (empty for a piece outside the window)."""

    __slots__ = ("rotations", "player", "n", "colours", "free_at", "drawn_at", "tail_at", "tiles", "objects",
                 "free", "drawn")  # fmt: skip

    def __init__(self, rotations: Any, player: int, n: int) -> None:
        self.rotations = rotations  # kept alive: its identity keys this entry
        self.player, self.n = player, n
        colours = self.colours = n + 2  # own, others, unused, hole
        planes = 1 + colours + 2  # tile, colours, covered by own / by another
        self.free_at = planes * AREA
        self.drawn_at = self.free_at + SLOTS * SLOTS
        self.tail_at = self.drawn_at + 9 * colours + 1
        self.tiles: dict[Any, bytes] = {}
        self.objects: dict[Any, bytes] = {}
        self.free: dict[Any, bytes] = {}
        self.drawn: dict[int, bytes] = {}

    def tile(self, item: tuple[tuple[int, int], tuple[int, int]]) -> bytes:
        (sx, sy), (tile, turn) = item
        if not (-RADIUS <= sx <= RADIUS and -RADIUS <= sy <= RADIUS):
            return b""
        corner = (3 * sy - LOW) * SIDE + 3 * sx - LOW
        squares = [corner + offset for offset in _TILE_OFFSETS]
        codes = self.rotations[tile][turn]
        coloured = [(1 + _colour_channel(code, self.player, self.n)) * AREA + square
                    for code, square in zip(codes, squares, strict=True)]  # fmt: skip
        return _packed(squares + coloured)

    def object(self, item: tuple[int, Any]) -> bytes:
        seat, place = item
        plane = (1 + self.colours if seat == self.player else 2 + self.colours) * AREA
        base = (LOW + OFFSET) * STRIDE + LOW + OFFSET
        positions = []
        for square in object_squares(place):
            gy, gx = divmod(square - base, STRIDE)
            if 0 <= gx < SIDE and 0 <= gy < SIDE:
                positions.append(plane + gy * SIDE + gx)
        return _packed(positions)

    def free_slot(self, slot: tuple[int, int]) -> bytes:
        sx, sy = slot
        if not (-RADIUS <= sx <= RADIUS and -RADIUS <= sy <= RADIUS):
            return b""
        return _ONE(self.free_at + (sy + RADIUS) * SLOTS + sx + RADIUS)

    def drawn_tile(self, tile: int) -> bytes:
        positions = [self.tail_at - 1]
        for i, code in enumerate(self.rotations[tile][0]):
            positions.append(self.drawn_at + i * self.colours + _colour_channel(code, self.player, self.n))
        return _packed(positions)


_PIECES: dict[tuple[int, int, int], _Pieces] = {}


def _lookup(cache: dict[Any, bytes], keys: list[Any], make: Any) -> list[bytes]:
    """The cached bytes of every key (``make`` fills the ones not seen yet)."""
    found = list(map(cache.get, keys))
    if None in found:
        if len(cache) > CACHE_LIMIT:
            cache.clear()
        for i, key in enumerate(keys):
            if found[i] is None:
                found[i] = cache[key] = make(key)
    return found  # type: ignore[return-value]  # every None was filled in just above


def observation(self: MulticityState, player: int) -> np.ndarray:
    """A float32 NumPy array (mostly the zeros of the city window)."""
    n = self.num_players
    rotations = self.rotations
    pieces = _PIECES.get((id(rotations), player, n))
    if pieces is None or pieces.rotations is not rotations:
        if len(_PIECES) > 64:
            _PIECES.clear()
        pieces = _PIECES[(id(rotations), player, n)] = _Pieces(rotations, player, n)
    parts = _lookup(pieces.tiles, list(self.tiles.items()), pieces.tile)
    parts += _lookup(pieces.objects, self.objects, pieces.object)
    parts += _lookup(pieces.free, list(self.frontier), pieces.free_slot)
    if self.drawn is not None:
        parts += _lookup(pieces.drawn, [self.drawn], pieces.drawn_tile)
    tail = _tail(self, player, n)
    tail_at = pieces.tail_at
    obs = np.zeros(tail_at + len(tail), dtype=np.float32)
    obs[np.frombuffer(b"".join(parts), dtype="<i4")] = 1.0
    obs[tail_at:] = tail
    return obs


_LEFT: dict[tuple[int, ...], tuple[float, ...]] = {}
_NO_PLACEMENTS = (0.0,) * (1 + len(LENGTHS))
_HOT = {
    size: tuple((0.0,) * k + (1.0,) + (0.0,) * (size - k - 1) for k in range(size)) for size in range(1, 9)
}


def _left(left: tuple[int, ...]) -> tuple[float, ...]:
    """The objects a seat has left: one flag per length, then their total length / 27."""
    numbers = _LEFT.get(left)
    if numbers is None:
        numbers = _LEFT[left] = (*(1.0 if length in left else 0.0 for length in LENGTHS), sum(left) / 27.0)
    return numbers


def _tail(self: MulticityState, player: int, n: int) -> list[float]:
    """Per seat the objects left and the placements open; the phase, the turn, the stack."""
    tail: list[float] = []
    for k in range(n):
        p = (player + k) % n
        tail += _left(self.unplaced[p])
        cands = self.cands[p]
        if not cands:
            tail += _NO_PLACEMENTS
            continue
        tail.append(min(len(cands), 100) / 100.0)
        open_lengths = [0] * (LENGTHS[-1] + 1)
        for place in cands:
            open_lengths[place.length] += 1
        tail += [min(open_lengths[length], 5) / 5.0 for length in LENGTHS]
    phase = self.phase
    tail += _HOT[len(PHASE_IDS)][phase]
    if phase == OVER:
        tail += (0.0,) * n
    else:
        tail += _HOT[n][(self.current - player) % n]
    tail += _HOT[n][(self.first - player) % n]
    tail += (len(self.stack) / 32.0, len(self.tiles) / 32.0, self.final_index / n if phase == FINAL else 0.0)
    return tail
