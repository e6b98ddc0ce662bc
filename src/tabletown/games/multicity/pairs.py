"""Same-colour pairs for ``MulticityState._discover``, from small tables (speed, issue 21).

A placement through a newly laid tile lies in one of its rows (or columns), inside the 15-square
line formed by that row of the five tile slots along it: two slots before the tile, the tile, two
after (an object is at most 7 squares long). Line squares 6-8 are the tile's. The object's two ends
lie in one or two of those slots, which makes six kinds:

* ``SAME``: both ends in the tile;
* ``LEFT`` / ``RIGHT``: one end in the tile, the other in the slot just before / after it;
* ``FAR_LEFT`` / ``FAR_RIGHT``: one end in the tile, the other two slots before / after it, and
  ``ACROSS``: one end in each neighbour. For these three the slot in between must have no blocker
  (no hole, unless in the kids' variant) in that row; what it shows does not matter.

So the pairs of a kind depend only on the three squares ("strip") of each of its two slots in that
row. Strips are numbered by content (a deck has about a hundred different ones) and every kind's
table, for every two strips, is made once per process (colour by colour: about 30 ms), with
``SAME`` per turned tile. An entry is ``(a, b, colour, length)``: the object runs from line square
``a`` to ``b``. Sorting a row's entries gives the order of a square-by-square scan (first end,
then far end).
"""

from __future__ import annotations

from .tiles import HOLE, Layout

MAX_LENGTH = 7

Entry = tuple[int, int, int, int]
SAME, LEFT, RIGHT, FAR_LEFT, ACROSS, FAR_RIGHT = range(6)
# The slots (0-4 along the line, the tile at 2) holding the first and the far end of each kind.
_SLOTS = ((2, 2), (1, 2), (2, 3), (0, 2), (1, 3), (2, 4))
# Two more tables merge a neighbour's kind with SAME (the most common look-ups), in scan order.
LEFT_SAME, SAME_RIGHT = 6, 7


class PairTables:
    """The tables for one set of turned tiles and one hole rule.

    Turned tiles are numbered ``tile * 4 + turn``. ``strips[d][t]``: the strip numbers of turned
    tile t's three rows (d=0) or columns (d=1, read downwards), ``scaled[d][t]`` the same times
    ``count``; ``free[s]``: strip s has no blocker (``free_scaled`` by the scaled number);
    ``same[d][t]``: per row, the entries with both ends in t; ``memo[kind][first * count + far]``:
    the entries of a kind and two strips (every table is complete: made at once, colour by colour,
    in a few milliseconds)."""

    __slots__ = (
        "count", "stop_at_hole", "strips", "scaled", "free", "free_scaled", "heads", "tails", "inner", "same", "memo",
    )  # fmt: skip

    def __init__(self, turned: tuple[tuple[Layout, ...], ...], stop_at_hole: bool) -> None:
        self.stop_at_hole = stop_at_hole
        number: dict[tuple[int, ...], int] = {}
        sides = []
        for d in (0, 1):
            side = []
            for turns in turned:
                for layout in turns:
                    lines = (
                        [layout[3 * i : 3 * i + 3] for i in range(3)]
                        if d == 0
                        else [layout[i::3] for i in range(3)]
                    )
                    side.append(tuple(number.setdefault(tuple(line), len(number)) for line in lines))
            sides.append(tuple(side))
        self.strips = tuple(sides)
        contents = tuple(number)  # in number order
        self.count = len(contents)
        blocks = self._blocks
        self.free = tuple(not any(map(blocks, strip)) for strip in contents)
        # The same numbers times count, and free by such a number: a table index is then one sum.
        self.scaled = tuple(
            tuple(tuple(s * self.count for s in tile) for tile in side) for side in self.strips
        )
        self.free_scaled = {s * self.count: free for s, free in enumerate(self.free)}
        # Per strip, its colour squares (index, colour) with no blocker towards its start (heads),
        # towards its end (tails), and its own pairs (inner); the pairs of two strips join a tail
        # of the first with a head of the far one.
        self.heads = tuple(
            tuple((k, c) for k, c in enumerate(strip) if 0 <= c < HOLE and not any(map(blocks, strip[:k])))
            for strip in contents
        )
        self.tails = tuple(
            tuple(
                (k, c) for k, c in enumerate(strip) if 0 <= c < HOLE and not any(map(blocks, strip[k + 1 :]))
            )
            for strip in contents
        )
        self.inner = tuple(
            tuple(
                (6 + a, 6 + b, c, b - a + 1)
                for a, c in enumerate(strip)
                if 0 <= c < HOLE
                for b in range(a + 1, 3)
                if strip[b] == c and not any(map(blocks, strip[a + 1 : b]))
            )
            for strip in contents
        )
        # () when the tile has no pair in any row: the caller skips it at once.
        self.same = tuple(
            tuple(rows if any(rows) else () for rows in (tuple(self.inner[s] for s in tile) for tile in side))
            for side in self.strips
        )
        self.memo = self._tables()

    def _blocks(self, code: int) -> bool:
        """No object may pass this square: no tile, or a hole (unless in the kids' variant)."""
        return code < 0 or (code == HOLE and self.stop_at_hole)

    def _tables(self) -> tuple[list[tuple[Entry, ...]], ...]:
        """Every kind's table, complete: ``memo[kind][first * count + far]``."""
        count = self.count
        shared: dict[Entry, Entry] = {}  # one tuple per distinct entry: a few hundred in all
        memo = [self._pairs(kind, shared) if kind != SAME else [] for kind in range(LEFT_SAME)]
        inner = self.inner
        fars = inner * count  # inner[far] for every index first * count + far
        firsts = [found for found in inner for _ in range(count)]  # inner[first] likewise
        memo.append([left + same for left, same in zip(memo[LEFT], fars, strict=True)])
        memo.append(
            [
                tuple(sorted(same + right)) if same and right else same or right
                for same, right in zip(firsts, memo[RIGHT], strict=True)
            ]
        )
        # A few thousand different rows fill the ~50,000 places: share them (a smaller working set).
        rows: dict[tuple[Entry, ...], tuple[Entry, ...]] = {}
        return tuple([rows.setdefault(row, row) for row in table] for table in memo)

    def _pairs(self, kind: int, shared: dict[Entry, Entry]) -> list[tuple[Entry, ...]]:
        """The table of a kind with one end in each of its two slots: a tail square of the first
        strip and a head square of the far one of the same colour, at most MAX_LENGTH apart. Built
        colour by colour; each index's entries come out in scan order (first end, then far end)."""
        slot_a, slot_b = _SLOTS[kind]
        count = self.count
        heads: list[list[tuple[int, int]]] = [[] for _ in range(HOLE)]
        for far, found in enumerate(self.heads):
            for kb, colour in found:
                heads[colour].append((far, 3 * slot_b + kb))
        rows: dict[int, list[Entry]] = {}
        for first, found in enumerate(self.tails):
            for ka, colour in found:
                a = 3 * slot_a + ka
                for far, b in heads[colour]:
                    if b - a < MAX_LENGTH:
                        entry = (a, b, colour, b - a + 1)
                        rows.setdefault(first * count + far, []).append(shared.setdefault(entry, entry))
        table: list[tuple[Entry, ...]] = [()] * (count * count)
        for index, entries in rows.items():
            table[index] = tuple(entries)
        return table


_TABLES: dict[tuple[int, bool], tuple[object, PairTables]] = {}


def pair_tables(turned: tuple[tuple[Layout, ...], ...], stop_at_hole: bool) -> PairTables:
    """The tables of a set of turned tiles (the deck's, or a test's own), made once per process."""
    entry = _TABLES.get((id(turned), stop_at_hole))
    if entry is None or entry[0] is not turned:
        if len(_TABLES) > 64:  # tests build many small decks
            _TABLES.clear()
        entry = _TABLES[(id(turned), stop_at_hole)] = (turned, PairTables(turned, stop_at_hole))
    return entry[1]
