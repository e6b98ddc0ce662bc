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
tile in each direction). ``install()``
(run when the game's package imports this module) puts ``observation`` on the game's State;
``Game.observation_size`` measures its length.
"""

from __future__ import annotations

import numpy as np

from .state import FINAL, HOLE, LENGTHS, OFFSET, OVER, PHASE_IDS, STRIDE, MulticityState, object_squares

RADIUS = 3  # tile slots each way from the start tile
SIDE = 3 * (2 * RADIUS + 1)  # squares across the window
LOW = -3 * RADIUS  # the window's first square coordinate


_CHANNELS: dict[tuple[int, int], np.ndarray] = {}
# A tile's nine squares (row by row, as in its layout) relative to its top-left square in the window.
_TILE_OFFSETS = np.array([row * SIDE + column for row in range(3) for column in range(3)])


def _channel_array(player: int, n: int) -> np.ndarray:
    """The grid plane of each square code (colours 0-3, the hole) for ``player``: 1 + its channel."""
    planes = _CHANNELS.get((player, n))
    if planes is None:
        codes = range(HOLE + 1)
        planes = _CHANNELS[(player, n)] = np.array([1 + _colour_channel(code, player, n) for code in codes])
    return planes


def _colour_channel(code: int, player: int, n: int) -> int:
    """0 own colour, 1..n-1 the other seats' in turn order, n an unused colour, n+1 a hole."""
    if code == HOLE:
        return n + 1
    if code >= n:
        return n
    return (code - player) % n


def observation(self: MulticityState, player: int) -> np.ndarray:
    """A float32 NumPy array (mostly the zeros of the city window: built by setting the ones,
    which is many times faster than a Python list of thousands of floats)."""
    n = self.num_players
    colours = n + 2  # own, others, unused, hole
    planes = 1 + colours + 2  # tile, colours, covered by own / by another
    area = SIDE * SIDE
    slots = 2 * RADIUS + 1
    free_at = planes * area
    drawn_at = free_at + slots * slots
    tail_at = drawn_at + 9 * colours + 1
    ones: list[int] = []
    mark = ones.append
    # Tiles: every tile slot in the window at once (its nine squares, their colours), in NumPy.
    corners, layouts = [], []
    rotations = self.rotations
    for (sx, sy), (tile, turn) in self.tiles.items():
        if -RADIUS <= sx <= RADIUS and -RADIUS <= sy <= RADIUS:
            corners.append((3 * sy - LOW) * SIDE + 3 * sx - LOW)
            layouts.append(rotations[tile][turn])
    base = (LOW + OFFSET) * STRIDE + LOW + OFFSET
    own_plane, other_plane = (1 + colours) * area, (2 + colours) * area
    for seat, place in self.objects:
        plane = own_plane if seat == player else other_plane
        for square in object_squares(place):
            gy, gx = divmod(square - base, STRIDE)
            if 0 <= gx < SIDE and 0 <= gy < SIDE:
                mark(plane + gy * SIDE + gx)
    for sx, sy in self.frontier:
        if -RADIUS <= sx <= RADIUS and -RADIUS <= sy <= RADIUS:
            mark(free_at + (sy + RADIUS) * slots + sx + RADIUS)
    if self.drawn is not None:
        mark(tail_at - 1)
        for i, code in enumerate(self.rotations[self.drawn][0]):
            mark(drawn_at + i * colours + _colour_channel(code, player, n))
    tail: list[float] = []
    for k in range(n):
        p = (player + k) % n
        left = self.unplaced[p]
        tail += [1.0 if length in left else 0.0 for length in LENGTHS]
        tail.append(sum(left) / 27.0)
        cands = self.cands[p]
        tail.append(min(len(cands), 100) / 100.0)
        open_lengths = [0] * (LENGTHS[-1] + 1)
        for place in cands:
            open_lengths[place.length] += 1
        tail += [min(open_lengths[length], 5) / 5.0 for length in LENGTHS]
    phase = self.phase
    tail += [1.0 if phase == k else 0.0 for k in range(len(PHASE_IDS))]
    current = (self.current - player) % n
    first = (self.first - player) % n
    tail += [1.0 if k == current and phase != OVER else 0.0 for k in range(n)]
    tail += [1.0 if k == first else 0.0 for k in range(n)]
    tail.append(len(self.stack) / 32.0)
    tail.append(len(self.tiles) / 32.0)
    tail.append(self.final_index / n if phase == FINAL else 0.0)
    obs = np.zeros(tail_at + len(tail), dtype=np.float32)
    if corners:
        at = np.add.outer(np.asarray(corners), _TILE_OFFSETS)
        obs[at] = 1.0
        obs[_channel_array(player, n)[np.asarray(layouts)] * area + at] = 1.0
    obs[ones] = 1.0
    obs[tail_at:] = tail
    return obs


def install() -> None:
    if "observation" not in MulticityState.__dict__:
        MulticityState.observation = observation


install()
