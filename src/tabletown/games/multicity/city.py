"""Expanding the city: drawing and laying tiles, the free slots, and the object placements that
a newly laid tile opens up (read from the pair tables of pairs.py, see :func:`_rows`)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ...core.errors import IllegalAction, MalformedAction
from ...core.events import Event
from .actions import PLACES, Lay, Place, place_of
from .fields import StateFields
from .grid import _LAYS, OFFSET, STRIDE, _lays, _slot_info, key, span_free
from .pairs import ACROSS, FAR_LEFT, FAR_RIGHT, LEFT, LEFT_SAME, SAME_RIGHT, Entry, PairTables
from .phases import PLAY

_new_tuple = tuple.__new__  # builds a named tuple without its Python-level __new__
_DIAGONALS = ((1, 1), (1, -1), (-1, 1), (-1, -1))


class CityMixin(StateFields):
    """Drawing and laying tiles, and the placements through a new tile, of
    :class:`~.state.MulticityState`."""

    __slots__ = ()

    def _draw(self, player: int) -> None:
        if self.drawn is not None:
            raise IllegalAction(
                "multicity.lay_drawn_tile", "you have drawn a tile: lay it before anything else"
            )
        if self.phase != PLAY or not self.stack:
            raise IllegalAction("multicity.stack_empty", "the stack is empty: no tile can be drawn")
        stack = self.stack
        self.drawn = tile = stack.pop()
        self.log.append(
            _new_tuple(Event, ("draw", {"seat": player, "tile": tile, "stack": len(stack)}, None))
        )

    def _lay(self, player: int, action: Lay) -> None:
        if self.drawn is None:
            raise IllegalAction("multicity.no_tile_drawn", "draw a tile before laying one")
        x, y, turn = action.x, action.y, action.turn
        if not (type(x) is int and type(y) is int):
            raise MalformedAction(
                "multicity.coordinates", "coordinates are whole numbers, not {x!r},{y!r}", x=x, y=y
            )
        if not (type(turn) is int and 0 <= turn <= 3):  # not True: it would stand for r1
            raise MalformedAction(
                "multicity.tile_turn", "a tile turns 0-3 quarter turns, not {turn!r}", turn=turn
            )
        if x % 3 or y % 3:
            raise MalformedAction(
                "multicity.tile_grid",
                "tiles lie on the 3x3 grid: the top-left square is a multiple of 3, not {x},{y}",
                x=x,
                y=y,
            )
        slot = (x // 3, y // 3)
        if slot not in self.frontier:
            raise self._lay_refusal(slot)
        tile = self.drawn
        self.drawn = None
        self._put_tile(tile, slot, turn)
        self.log.append(
            _new_tuple(Event, ("lay", {"seat": player, "tile": tile, "x": x, "y": y, "turn": turn}, None))
        )
        if not self.stack:
            self._start_final_round(player)
        else:
            self.current = (player + 1) % self.num_players

    def _lay_refusal(self, slot: tuple[int, int]) -> IllegalAction:
        sx, sy = slot
        x, y = sx * 3, sy * 3
        if slot in self.tiles:
            return IllegalAction("multicity.tile_overlap", "a tile already lies at {x},{y}", x=x, y=y)
        if any((sx + dx, sy + dy) in self.tiles for dx, dy in _DIAGONALS):
            return IllegalAction(
                "multicity.tile_corner_only",
                "a tile at {x},{y} would touch the city by a corner only: it needs an edge",
                x=x,
                y=y,
            )
        return IllegalAction(
            "multicity.tile_detached", "a tile at {x},{y} would not touch the city edge to edge", x=x, y=y
        )

    def _put_tile(self, tile: int, slot: tuple[int, int], turn: int) -> None:
        squares, around, lines = _slot_info(slot)
        self.cells.update(zip(squares, self.rotations[tile][turn], strict=True))
        tiles = self.tiles
        tiles[slot] = (tile, turn)
        frontier = self.frontier
        frontier.pop(slot, None)
        for near in around:  # the edge neighbours neither in the city nor free before
            if near not in tiles and near not in frontier:
                if near not in _LAYS:
                    _lays(near)
                frontier[near] = None
        self._through(slot, lines, tile * 4 + turn, None, self.cands)

    def preview_lay(self, lay: Lay) -> list[tuple[int, Place, tuple[int, ...]]]:
        """The placements (seat, action, squares) that laying the drawn tile as ``lay`` would open up.

        For bots: the city is left exactly as it was."""
        assert self.drawn is not None
        layout = self.rotations[self.drawn][lay.turn]
        squares = [key(lay.x + i % 3, lay.y + i // 3) for i in range(9)]
        cells = self.cells
        for square, code in zip(squares, layout, strict=True):
            cells[square] = code
        slot = (lay.x // 3, lay.y // 3)
        self.tiles[slot] = (self.drawn, lay.turn)
        try:
            return self._discover(lay.x, lay.y)
        finally:
            del self.tiles[slot]
            for square in squares:
                del cells[square]

    def _discover(self, x0: int, y0: int) -> list[tuple[int, Place, tuple[int, ...]]]:
        """Every placement (seat, action, squares) whose span includes a square of the tile just
        laid at (x0, y0); the tile must already be in ``tiles``."""
        slot = (x0 // 3, y0 // 3)
        tile, turn = self.tiles[slot]
        found: list[tuple[int, Place, tuple[int, ...]]] = []
        self._through(slot, _slot_info(slot)[2], tile * 4 + turn, found, None)
        return found

    def _through(
        self,
        slot: tuple[int, int],
        lines: tuple[tuple[tuple[int, int], ...], ...],
        me: int,
        found: list[tuple[int, Place, tuple[int, ...]]] | None,
        cands: list[dict[Place, tuple[int, ...]]] | None,
    ) -> None:
        """The placements through the turned tile ``me`` lying in ``slot`` (``lines``: its
        :func:`_slot_info` lines), appended to ``found`` as (seat, action, squares) or, without
        ``found``, stored in ``cands``.

        Its rows, then its columns: the same-colour pairs through each come from small tables
        (pairs.py) keyed by the strips of the tiles around it, in the order of a square-by-square
        scan (row, first end, far end)."""
        tables = self._cache_pairs
        tiles_get = self.tiles.get
        known_place = PLACES.get
        sx, sy = slot
        x0, y0 = sx * 3, sy * 3
        players = self.num_players
        unplaced = self.unplaced
        corner = (y0 + OFFSET) * STRIDE + x0 + OFFSET
        occ = self.occ
        # Strict reading: a span is free when no square is taken (one C-level test per span).
        strict_free = occ.keys().isdisjoint if occ and not self.loose else None
        loose = self.loose and bool(occ)
        rows: Sequence[Sequence[Entry]]
        for d in (0, 1):
            line = lines[d]
            before, after = tiles_get(line[1]), tiles_get(line[2])
            if before is None and after is None:
                rows = tables.same[d][me]
            else:
                rows = _rows(tables, d, me, before, after, tiles_get, line)
            for i, row in enumerate(rows):
                for a, _b, colour, length in row:
                    if colour < players and length in unplaced[colour]:
                        if d:
                            start = corner + i + (a - 6) * STRIDE
                            squares = tuple(range(start, start + length * STRIDE, STRIDE))
                        else:
                            start = corner + i * STRIDE + a - 6
                            squares = tuple(range(start, start + length))
                        if strict_free is not None and not strict_free(squares):
                            continue
                        if loose and not span_free(occ, True, squares, d == 1):
                            continue
                        if d:
                            spot = (length, x0 + i, y0 + a - 6, True)
                        else:
                            spot = (length, x0 + a - 6, y0 + i, False)
                        place = known_place(spot) or place_of(*spot)
                        if found is None:
                            cands[colour][place] = squares  # type: ignore[index]
                        else:
                            found.append((colour, place, squares))


def _rows(
    tables: PairTables,
    d: int,
    me: int,
    before: tuple[int, int] | None,
    after: tuple[int, int] | None,
    tiles_get: Any,
    line: tuple[tuple[int, int], ...],
) -> list[Sequence[Entry]]:
    """Per row (column) of the turned tile ``me``, the entries of every kind (pairs.py) that the
    tiles ``before`` and ``after`` it in direction ``d`` (one at least) and the tiles beyond them
    allow, in scan order: by first end (kinds ending before the tile come first), then far end.
    ``line`` holds the slots two before, one before, one after and two after the tile.

    Table indexes are ``first * count + far``; ``scaled`` holds the strip numbers times count."""
    strips = tables.strips[d]
    scaled = tables.scaled[d]
    memo = tables.memo
    m0, m1, m2 = strips[me]
    free: Mapping[int, bool] | Sequence[bool]  # by scaled strip number, or by strip number
    if after is None:  # the common case: tiles on one side only, no sorting needed on the left
        n0, n1, n2 = near = scaled[before[0] * 4 + before[1]]  # type: ignore[index]
        table = memo[LEFT_SAME]
        rows: list[Sequence[Entry]] = [table[n0 + m0], table[n1 + m1], table[n2 + m2]]
        far = tiles_get(line[0])
        if far is not None:  # kept apart from its mirror, the FAR_RIGHT block below (hot path)
            free = tables.free_scaled
            beyond = scaled[far[0] * 4 + far[1]]
            table = memo[FAR_LEFT]
            for i, m in ((0, m0), (1, m1), (2, m2)):
                if free[near[i]]:
                    found = table[beyond[i] + m]
                    if found:
                        rows[i] = found + rows[i]  # type: ignore[operator]
        return rows
    s0, s1, s2 = scaled[me]
    n0, n1, n2 = near = strips[after[0] * 4 + after[1]]
    table = memo[SAME_RIGHT]
    rows = [table[s0 + n0], table[s1 + n1], table[s2 + n2]]
    far = tiles_get(line[3])
    if far is not None:  # the mirror of the FAR_LEFT block above, kept apart (hot path): merged sorted
        free = tables.free
        beyond = strips[far[0] * 4 + far[1]]
        table = memo[FAR_RIGHT]
        for i, m in ((0, s0), (1, s1), (2, s2)):
            if free[near[i]]:
                found = table[m + beyond[i]]
                if found:
                    rows[i] = sorted(rows[i] + found)  # type: ignore[operator]
    if before is not None:
        _add_before(tables, d, me, near, scaled[before[0] * 4 + before[1]], rows, tiles_get(line[0]))
    return rows


def _add_before(
    tables: PairTables,
    d: int,
    me: int,
    after: tuple[int, ...],
    near: tuple[int, ...],
    rows: list[Sequence[Entry]],
    far: tuple[int, int] | None,
) -> None:
    """Put in front of ``rows`` the entries that start before the tile ``me`` (tiles on both
    sides): from the tile ``far`` two slots before, then from the neighbour (``near``, scaled
    strips) to the tile, or across it to ``after`` (plain strips)."""
    free = tables.free
    memo = tables.memo
    mine = tables.strips[d][me]
    beyond = tables.scaled[d][far[0] * 4 + far[1]] if far is not None else None
    for i in (0, 1, 2):
        front = memo[LEFT][near[i] + mine[i]]
        if free[mine[i]]:
            across = memo[ACROSS][near[i] + after[i]]
            if across:
                front = tuple(sorted(front + across))
        if beyond is not None and tables.free_scaled[near[i]]:
            front = memo[FAR_LEFT][beyond[i] + mine[i]] + front
        if front:
            rows[i] = front + tuple(rows[i])
