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
tile in each direction). ``install()`` (run on import) puts ``observation`` on the game's State and
``observation_size`` on its Game unless the game already defines them; ``tabletown.rl`` imports it.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .game import MulticityGame
from .state import FINAL, HOLE, LENGTHS, OFFSET, OVER, PHASE_IDS, STRIDE, MulticityState, object_squares

RADIUS = 3  # tile slots each way from the start tile
SIDE = 3 * (2 * RADIUS + 1)  # squares across the window
LOW = -3 * RADIUS  # the window's first square coordinate


_CHANNELS: dict[tuple[int, int], tuple[int, ...]] = {}


def _channels(player: int, n: int) -> tuple[int, ...]:
    """The grid plane of each square code (colours 0-3, the hole) for ``player``: 1 + its channel."""
    planes = _CHANNELS.get((player, n))
    if planes is None:
        planes = _CHANNELS[(player, n)] = tuple(
            1 + _colour_channel(code, player, n) for code in range(HOLE + 1)
        )
    return planes


def _colour_channel(code: int, player: int, n: int) -> int:
    """0 own colour, 1..n-1 the other seats' in turn order, n an unused colour, n+1 a hole."""
    if code == HOLE:
        return n + 1
    if code >= n:
        return n
    return (code - player) % n


def observation(self: MulticityState, player: int) -> list[float]:
    n = self.num_players
    colours = n + 2  # own, others, unused, hole
    planes = 1 + colours + 2  # tile, colours, covered by own / by another
    area = SIDE * SIDE
    grid = [0.0] * (planes * area)
    # Square keys are (y + OFFSET) * STRIDE + x + OFFSET (state.key): the window's square (gx, gy)
    # is key - BASE = gy * STRIDE + gx.
    base = (LOW + OFFSET) * STRIDE + LOW + OFFSET
    channel = _channels(player, n)
    for square, code in self.cells.items():
        gy, gx = divmod(square - base, STRIDE)
        if 0 <= gx < SIDE and 0 <= gy < SIDE:
            at = gy * SIDE + gx
            grid[at] = 1.0
            grid[channel[code] * area + at] = 1.0
    own_plane, other_plane = (1 + colours) * area, (2 + colours) * area
    for seat, place in self.objects:
        plane = own_plane if seat == player else other_plane
        for square in object_squares(place):
            gy, gx = divmod(square - base, STRIDE)
            if 0 <= gx < SIDE and 0 <= gy < SIDE:
                grid[plane + gy * SIDE + gx] = 1.0
    obs = grid
    slots = 2 * RADIUS + 1
    free = [0.0] * (slots * slots)
    for sx, sy in self.frontier:
        if -RADIUS <= sx <= RADIUS and -RADIUS <= sy <= RADIUS:
            free[(sy + RADIUS) * slots + sx + RADIUS] = 1.0
    obs += free
    drawn = [0.0] * (9 * colours + 1)
    if self.drawn is not None:
        drawn[-1] = 1.0
        for i, code in enumerate(self.rotations[self.drawn][0]):
            drawn[i * colours + _colour_channel(code, player, n)] = 1.0
    obs += drawn
    for k in range(n):
        p = (player + k) % n
        left = self.unplaced[p]
        obs.extend(1.0 if length in left else 0.0 for length in LENGTHS)
        obs.append(sum(left) / 27.0)
        cands = self.cands[p]
        obs.append(min(len(cands), 100) / 100.0)
        open_lengths = [0] * (LENGTHS[-1] + 1)
        for place in cands:
            open_lengths[place.length] += 1
        obs.extend(min(open_lengths[length], 5) / 5.0 for length in LENGTHS)
    phase = self.phase
    obs.extend(1.0 if phase == k else 0.0 for k in range(len(PHASE_IDS)))
    current = (self.current - player) % n
    first = (self.first - player) % n
    obs.extend(1.0 if k == current and phase != OVER else 0.0 for k in range(n))
    obs.extend(1.0 if k == first else 0.0 for k in range(n))
    obs.append(len(self.stack) / 32.0)
    obs.append(len(self.tiles) / 32.0)
    obs.append(self.final_index / n if phase == FINAL else 0.0)
    return obs


def observation_size(self: MulticityGame, num_players: int, options: Mapping[str, Any] | None = None) -> int:
    resolved = self.resolve_options(num_players, options)
    key = (num_players, tuple(sorted(resolved.items())))
    cache = self.__dict__.setdefault("_cache_observation_sizes", {})
    if key not in cache:
        cache[key] = len(self.new_game(num_players, resolved, 0).observation(0))
    return cache[key]


def install() -> None:
    if "observation" not in MulticityState.__dict__:
        MulticityState.observation = observation
    if "observation_size" not in MulticityGame.__dict__:
        MulticityGame.observation_size = observation_size


install()
