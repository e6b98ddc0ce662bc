"""Multicity's fixed action space, computed rather than listed.

The city has no fixed edge, but it can only grow so far: with ``deck`` = D tiles in play (the start
tile included) the city never holds more than D tiles, all joined edge to edge to the start tile at
slot (0, 0). So

* **Lay**: a tile can only be laid on a free slot next to the city, i.e. at most D - 1 steps (edge
  to edge, Manhattan distance) from the start slot: when the last tile is drawn the other D - 1 lie
  in the city, and a straight line of them reaches distance D - 2, so a slot at distance D - 1 can be
  free and every slot up to that distance can be reached. The start slot itself is never free. That
  is the diamond |sx| + |sy| <= D - 1 without its centre, times the four turns.
* **Place**: every square an object covers lies on a tile, so the k tile slots it runs through
  (k = 1 to 3 consecutive slots of one row, or column, of slots) are all in the city, together with
  a path of tiles joining them to the start slot. The fewest tiles that do that are the k slots plus
  a shortest path to the nearest of them: k + h + d tiles, where h is the distance between the slot
  rows and d the distance along the row from the start slot's column to the segment (0 when the
  segment covers it). So a placement can ever be legal only if k + h + d <= D, and each one that
  meets it can: lay exactly those tiles. For a given length L, direction and first-square offset
  o = x mod 3 inside its tile, k is fixed, and the first slot a of the segment ranges over the
  interval 1 + h - D <= a <= D - k - h (needs h <= D - k): 2(D - h) - k values. Colours and holes
  are left out of the bound: every square position of a tile shows every colour in some tile and turn.

Order: ``draw``, ``pass``, the lays (slot rows top to bottom, slots left to right, turns 0-3), then
the placements in blocks by direction (rows first), length and offset, each block row by row (the
object's row, or column for vertical ones) and along it left to right (top to bottom). Both
directions of the mapping are computed from small per-block row tables.
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Iterator
from typing import Any

from ...core.errors import MalformedAction
from ...core.spaces import ActionSpace
from .actions import DRAW, LENGTHS, PASS, Lay, Place


class _Block:
    """The placements of one direction, length and first-square offset (mod 3)."""

    __slots__ = ("vertical", "length", "offset", "slots", "base", "first_row", "prefix", "deck")

    def __init__(self, vertical: bool, length: int, offset: int, deck: int, base: int) -> None:
        self.vertical, self.length, self.offset, self.deck, self.base = vertical, length, offset, deck, base
        self.slots = (offset + length - 1) // 3 + 1  # k: tile slots the object runs through
        furthest = deck - self.slots  # the largest slot-row distance h
        self.first_row = -3 * furthest
        prefix = [0]
        for row in range(self.first_row, 3 * furthest + 3):
            prefix.append(prefix[-1] + 2 * (deck - abs(row // 3)) - self.slots)
        self.prefix = prefix

    @property
    def size(self) -> int:
        return self.prefix[-1]

    def index(self, row: int, across: int) -> int:
        """The number of the placement whose row (column) is ``row`` and first square ``across``."""
        h = abs(row // 3)
        a = across // 3
        low = 1 + h - self.deck
        if h > self.deck - self.slots or not low <= a <= self.deck - self.slots - h:
            raise MalformedAction("action.not_in_space", "no city of this deck reaches that placement")
        return self.base + self.prefix[row - self.first_row] + a - low

    def action(self, number: int) -> Place:
        at = number - self.base
        i = bisect_right(self.prefix, at) - 1
        row = self.first_row + i
        a = at - self.prefix[i] + 1 + abs(row // 3) - self.deck
        across = 3 * a + self.offset
        if self.vertical:
            return Place(self.length, row, across, True)
        return Place(self.length, across, row, False)

    def __iter__(self) -> Iterator[Place]:
        length, vertical, deck, k, offset = self.length, self.vertical, self.deck, self.slots, self.offset
        for row in range(self.first_row, self.first_row + len(self.prefix) - 1):
            h = abs(row // 3)
            for a in range(1 + h - deck, deck - k - h + 1):
                across = 3 * a + offset
                yield Place(length, row, across, True) if vertical else Place(length, across, row, False)


class MulticitySpace(ActionSpace):
    """Every Multicity action that can ever be legal with ``deck`` tiles in play (see the module)."""

    __slots__ = (
        "deck", "radius", "lay_base", "lay_rows", "centre", "place_base", "blocks", "order", "starts", "size",
    )  # fmt: skip

    def __init__(self, deck: int) -> None:
        self.deck = deck
        radius = self.radius = deck - 1
        # lay_rows[sy + radius]: slots of the diamond in the rows above sy (the centre included).
        rows = [0]
        for sy in range(-radius, radius + 1):
            rows.append(rows[-1] + 2 * (radius - abs(sy)) + 1)
        self.lay_rows = rows
        self.centre = rows[radius] + radius  # the start slot's place in the diamond, left out
        self.lay_base = 2
        self.place_base = self.lay_base + 4 * (rows[-1] - 1)
        blocks: dict[tuple[bool, int, int], _Block] = {}
        base = self.place_base
        for vertical in (False, True):
            for length in LENGTHS:
                for offset in range(3):
                    block = blocks[(vertical, length, offset)] = _Block(vertical, length, offset, deck, base)
                    base += block.size
        self.blocks = blocks
        self.order = tuple(blocks.values())
        self.starts = [block.base for block in self.order]
        self.size = base

    def __len__(self) -> int:
        return self.size

    def __getitem__(self, number: Any) -> Any:
        if isinstance(number, slice):
            return [self[i] for i in range(*number.indices(self.size))]
        if number < 0:
            number += self.size
        if not 0 <= number < self.size:
            raise IndexError("action number out of range")
        if number < self.lay_base:
            return (DRAW, PASS)[number]
        if number < self.place_base:
            slot, turn = divmod(number - self.lay_base, 4)
            slot += slot >= self.centre
            i = bisect_right(self.lay_rows, slot) - 1
            sy = i - self.radius
            sx = slot - self.lay_rows[i] - (self.radius - abs(sy))
            return Lay(3 * sx, 3 * sy, turn)
        return self.order[bisect_right(self.starts, number) - 1].action(number)

    def __iter__(self) -> Iterator[Any]:
        yield DRAW
        yield PASS
        radius = self.radius
        for sy in range(-radius, radius + 1):
            width = radius - abs(sy)
            for sx in range(-width, width + 1):
                if sx or sy:
                    for turn in range(4):
                        yield Lay(3 * sx, 3 * sy, turn)
        for block in self.order:
            yield from block

    def __contains__(self, action: object) -> bool:
        try:
            self.index(action)
        except MalformedAction:
            return False
        return True

    def index(self, action: Any, start: int = 0, stop: int | None = None) -> int:
        """The action's fixed number, computed; MalformedAction for anything outside the space
        (look-alikes such as ``Place(3.0, ...)`` included: they are not actions of the game)."""
        kind = type(action)
        if kind is Place:
            length, x, y, vertical = action.length, action.x, action.y, action.vertical
            if type(length) is int and type(x) is int and type(y) is int and type(vertical) is bool:
                block = self.blocks.get((vertical, length, (y if vertical else x) % 3))
                if block is not None:
                    return block.index(x, y) if vertical else block.index(y, x)
        elif kind is Lay:
            x, y, turn = action.x, action.y, action.turn
            whole = type(x) is int and type(y) is int and type(turn) is int and 0 <= turn <= 3
            if whole and not (x % 3 or y % 3):
                sx, sy = x // 3, y // 3
                radius = self.radius
                if 0 < abs(sx) + abs(sy) <= radius:
                    slot = self.lay_rows[sy + radius] + sx + radius - abs(sy)
                    slot -= slot > self.centre
                    return self.lay_base + 4 * slot + turn
        elif kind is str:
            if action == DRAW:
                return 0
            if action == PASS:
                return 1
        raise MalformedAction("action.not_in_space", "not an action of this game: {action!r}", action=action)

    def mask(self, actions: Any) -> bytearray:
        flags = bytearray(self.size)
        index = self.index
        for action in actions:
            flags[index(action)] = 1
        return flags
