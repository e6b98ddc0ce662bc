"""Multicity rules: the city of 3x3 tiles, object placement, the final round and the ranking.

Speed notes (random games must run at hundreds per second):
* Squares are ints (``key(x, y)``), so the city is a flat dict from square to code.
* Tiles and objects only ever get added, so a legal object placement can only become illegal by
  being blocked. Each seat keeps its candidate placements (``cands``): new ones are found around a
  newly laid tile only, and blocked ones are dropped when an object lands on their squares.
  ``legal_actions`` then just lists the dict.
* The placements through a new tile are read from per-strip pair tables (pairs.py), in the order
  a square-by-square scan finds them.
* The free tile slots (``frontier``) are kept up to date as tiles are laid, never searched for.
* Events are small dicts of ids and numbers (``Event(kind, data)``); the wording is in render.py.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from itertools import chain
from typing import Any

from ...core.errors import IllegalAction, MalformedAction
from ...core.events import Event
from ...core.game import Action, Result, State
from ...core.rng import SeededRNG, shuffle
from .actions import DRAW, LENGTHS, MAX_LENGTH, MIN_LENGTH, PASS, Lay, Place
from .notation import format_action as _format_action
from .notation import parse_action as _parse_action
from .pairs import ACROSS, FAR_LEFT, FAR_RIGHT, LEFT, LEFT_SAME, SAME_RIGHT, Entry, PairTables, pair_tables
from .tiles import COLOURS, DECK, HOLE, LETTER_OF, Layout, rotations

STRIDE = 1024
OFFSET = 512
PLAY, FINAL, OVER = 0, 1, 2
PHASE_IDS = ("play", "final_round", "over")

# Occupancy flags of a square: end or middle of a horizontal or vertical object.
END_H, END_V, MID_H, MID_V = 1, 2, 4, 8


def key(x: int, y: int) -> int:
    return (y + OFFSET) * STRIDE + x + OFFSET


def coords(square: int) -> tuple[int, int]:
    return square % STRIDE - OFFSET, square // STRIDE - OFFSET


_chain = chain.from_iterable
_SEATS = ((0,), (1,), (2,), (3,))  # to_act, made once
_OBJECTS, _SQUARES = len(LENGTHS), sum(LENGTHS)  # a seat's objects and their squares
_new_tuple = tuple.__new__  # builds a named tuple without its Python-level __new__
# The four Lay actions of each tile slot, made once and shared by every state.
_LAYS: dict[tuple[int, int], tuple[Lay, ...]] = {}


def _lays(slot: tuple[int, int]) -> tuple[Lay, ...]:
    lays = _LAYS.get(slot)
    if lays is None:
        lays = _LAYS[slot] = tuple(Lay(slot[0] * 3, slot[1] * 3, turn) for turn in range(4))
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


_DIAGONALS = ((1, 1), (1, -1), (-1, 1), (-1, -1))


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


class MulticityState(State):
    __slots__ = (
        "num_players", "options", "seed", "rng", "log", "kids", "loose", "rotations", "letters", "cells", "occ",
        "tiles", "frontier", "stack", "unused", "drawn", "cands", "unplaced", "objects", "current",
        "first", "phase", "final_index", "_cache_pairs",
    )  # fmt: skip
    # The slots the type checker cannot infer from __init__ (squares are ``key(x, y)`` ints).
    cells: dict[int, int]  # square -> terrain code of the laid tiles
    occ: dict[int, int]  # square -> END/MID flags of the objects on it
    tiles: dict[tuple[int, int], tuple[int, int]]  # tile slot -> (tile, turn)
    frontier: dict[tuple[int, int], None]  # the empty slots next to laid tiles
    drawn: int | None  # the tile drawn and not yet laid
    cands: list[dict[Place, tuple[int, ...]]]  # seat -> its legal placements and their squares
    objects: list[tuple[int, Place]]  # (seat, placement) in the order placed
    # Saved positions: placements are the only classes in a position (cands' keys, objects); the
    # turned tiles and their letters and the two rule switches follow from the options.
    snapshot_types = (Place, Lay)
    static_slots = ("rotations", "letters", "kids", "loose")

    def __init__(
        self,
        num_players: int,
        options: dict[str, Any],
        seed: int,
        tiles: Sequence[Layout] | None = None,
        order: Sequence[int] | None = None,
    ) -> None:
        """Shuffle, reveal the start tile and pick the first player.

        ``tiles`` and ``order`` (draw order, start tile first) let tests build exact positions."""
        self.num_players = num_players
        self.options = options
        self.seed = seed
        self.rng = SeededRNG(seed)
        self.log = []
        self.kids = bool(options.get("kids", False))
        self.loose = options.get("overlap", "strict") == "loose"
        self.rotations = tuple(rotations(t) for t in tiles) if tiles is not None else _DECK_ROTATIONS
        self.letters = _letters(self.rotations) if tiles is not None else _DECK_LETTERS
        # Derived from the tiles and the hole rule like ``rotations`` (a _cache slot: never saved).
        self._cache_pairs = pair_tables(self.rotations, not self.kids)
        if order is None:
            ids = list(range(len(self.rotations)))
            shuffle(self.rng, ids)
            deck_size = options.get("deck", len(ids))
            order, self.unused = ids[:deck_size], tuple(ids[deck_size:])
            self.log.append(Event("shuffle", {"tiles": deck_size}))
        else:
            self.unused = tuple(i for i in range(len(self.rotations)) if i not in set(order))
        self.stack = list(reversed(order))  # the top of the stack is the end of the list
        self.cells = {}
        self.occ = {}
        self.tiles = {}
        self.frontier = {}
        self.drawn = None
        self.cands = [{} for _ in range(num_players)]
        # One tuple per seat, not LENGTHS shared: a saved position restores them as separate tuples,
        # and the fingerprint (a pickle) tells shared objects from equal ones.
        self.unplaced = [tuple(range(MIN_LENGTH, MAX_LENGTH + 1)) for _ in range(num_players)]
        self.objects = []
        first = options.get("first", "random")
        if first == "random":
            self.first = self.rng.randrange(num_players)
        else:
            self.first = int(first)
        self.current = self.first
        self.phase = PLAY
        self.final_index = 0
        start = self.stack.pop()
        self.log.append(Event("start_tile", {"tile": start}))
        self._put_tile(start, (0, 0), 0)
        self.log.append(Event("first_player", {"seat": self.first, "drawn": first == "random"}))

    # -- who acts, what they may do ----------------------------------------------------------------
    @property
    def to_act(self) -> tuple[int, ...]:
        return () if self.phase == OVER else _SEATS[self.current]

    def legal_actions(self, player: int) -> list[Action]:
        if self.phase == OVER or player != self.current:
            return []
        if self.drawn is not None:
            actions: list[Action] = []
            lays = _LAYS
            for slot in self.frontier:  # a plain loop of += beats chain(): the list grows in steps of 4
                actions += lays[slot]
            return actions
        return [*self.cands[player], DRAW if self.phase == PLAY else PASS]

    def is_legal(self, player: int, action: Action) -> bool:
        """Exactly what ``apply`` would accept, without listing every move; never raises."""
        if self.phase == OVER or player != self.current:
            return False
        kind = type(action)
        if kind is Place:
            place: Place = action  # type: ignore[assignment]  # type(action) is Place
            length, x, y, vertical = place
            if not (type(length) is int and type(x) is int and type(y) is int and type(vertical) is bool):
                return False
            return self.drawn is None and action in self.cands[player]
        if kind is Lay:
            lay: Lay = action  # type: ignore[assignment]  # type(action) is Lay
            x, y, turn = lay
            if not (type(x) is int and type(y) is int and type(turn) is int and 0 <= turn <= 3):
                return False
            return self.drawn is not None and not (x % 3 or y % 3) and (x // 3, y // 3) in self.frontier
        if kind is str:
            if action == DRAW:
                return self.drawn is None and self.phase == PLAY and bool(self.stack)
            if action == PASS:
                return self.drawn is None and self.phase == FINAL
        return False

    def apply(self, player: int, action: Action) -> None:
        if player != self.current or self.phase == OVER:
            self._require_turn(player)  # raises: the game is over, or not this seat's turn
        kind = type(action)
        if kind is Place:
            self._place(player, action)  # type: ignore[arg-type]
        elif kind is Lay:
            self._lay(player, action)  # type: ignore[arg-type]
        elif action == DRAW:
            self._draw(player)
        elif action == PASS:
            self._pass(player)
        else:
            raise MalformedAction("multicity.action", f"not a Multicity action: {action!r}")

    # -- expanding the city ------------------------------------------------------------------------
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
        x, y, turn = action
        if not (type(x) is int and type(y) is int):
            raise MalformedAction("multicity.coordinates", f"coordinates are whole numbers, not {x!r},{y!r}")
        if not (type(turn) is int and 0 <= turn <= 3):  # not True: it would stand for r1
            raise MalformedAction("multicity.tile_turn", f"a tile turns 0-3 quarter turns, not {turn!r}")
        if x % 3 or y % 3:
            raise MalformedAction(
                "multicity.tile_grid",
                f"tiles lie on the 3x3 grid: the top-left square is a multiple of 3, not {x},{y}",
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
        where = f"{sx * 3},{sy * 3}"
        if slot in self.tiles:
            return IllegalAction("multicity.tile_overlap", f"a tile already lies at {where}")
        if any((sx + dx, sy + dy) in self.tiles for dx, dy in _DIAGONALS):
            return IllegalAction(
                "multicity.tile_corner_only",
                f"a tile at {where} would touch the city by a corner only: it needs an edge",
            )
        return IllegalAction(
            "multicity.tile_detached", f"a tile at {where} would not touch the city edge to edge"
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
                            place = _new_tuple(Place, (length, x0 + i, y0 + a - 6, True))
                        else:
                            place = _new_tuple(Place, (length, x0 + a - 6, y0 + i, False))
                        if found is None:
                            cands[colour][place] = squares  # type: ignore[index]
                        else:
                            found.append((colour, place, squares))

    def _free(self, squares: tuple[int, ...], vertical: bool) -> bool:
        """May an object lie on these squares, given the objects already placed?"""
        return span_free(self.occ, self.loose, squares, vertical)

    # -- placing objects ---------------------------------------------------------------------------
    def _place(self, player: int, action: Place) -> None:
        if self.drawn is not None:
            raise IllegalAction(
                "multicity.lay_drawn_tile", "you have drawn a tile: lay it before anything else"
            )
        try:
            squares = self.cands[player].get(action)
        except TypeError:  # a list or dict inside: not a placement at all
            raise MalformedAction("multicity.coordinates", f"not a placement: {action!r}") from None
        if squares is None:
            raise self._place_refusal(player, action)
        # 3.0, True or 0 compare equal to a legal action's 3, 1 or False: refuse such look-alikes
        # so records, logs and notation only ever hold the canonical action.
        length, x, y, vertical = action
        if type(length) is not int:
            raise MalformedAction("multicity.length", f"an object's length is a whole number, not {length!r}")
        if not (type(x) is int and type(y) is int and type(vertical) is bool):
            raise MalformedAction("multicity.coordinates", f"not a placement: {action!r}")
        if self.loose:
            occupy(self.occ, squares, vertical)
        else:  # strict: the squares were free, so their flags are just this object's
            self.occ.update(zip(squares, _FLAGS[vertical][length], strict=True))
        unplaced = self.unplaced[player] = tuple(filter(length.__ne__, self.unplaced[player]))
        self.objects.append((player, action))
        self._prune(player, length, squares)
        self.log.append(
            _new_tuple(
                Event,
                ("place", {"seat": player, "length": length, "x": x, "y": y, "vertical": vertical}, None),
            )
        )
        if not unplaced:
            self._end()
        elif self.phase == FINAL:
            self.final_index += 1
            self._next_in_final_round()
        else:
            self.current = (player + 1) % self.num_players

    def _prune(self, player: int, length: int, squares: tuple[int, ...]) -> None:
        """Drop the placements that the new object blocks, and the placed length's others."""
        apart = set(squares).isdisjoint
        loose = self.loose
        all_cands = self.cands
        for seat, old in enumerate(all_cands):
            if seat != player:
                for span in old.values():
                    if not apart(span):
                        break
                else:
                    continue  # nothing of this seat's touches the new object
            keep = {}
            for action, span in old.items():
                if seat == player and action[0] == length:
                    continue
                # Strict reading: a span that touches the new object is blocked.
                if apart(span) or (loose and self._free(span, action.vertical)):
                    keep[action] = span
            if len(keep) != len(old):
                all_cands[seat] = keep

    def _place_refusal(self, player: int, action: Place) -> IllegalAction | MalformedAction:
        length, x, y, vertical = action
        if not (isinstance(length, int) and MIN_LENGTH <= length <= MAX_LENGTH):
            return MalformedAction(
                "multicity.length", f"objects are {MIN_LENGTH}-{MAX_LENGTH} squares long, not {length!r}"
            )
        if not (type(x) is int and type(y) is int and isinstance(vertical, bool)):
            return MalformedAction("multicity.coordinates", f"not a placement: {action!r}")
        rule, message = self.placement_problem(player, action) or ("multicity.internal", "placement refused")
        return IllegalAction(rule, message)

    def placement_problem(self, player: int, action: Place) -> tuple[str, str] | None:
        """Why ``player`` may not place ``action`` now, from first principles (None: it is allowed).

        The fast path uses ``cands``; this slow check explains refusals and lets tests cross-check."""
        length, x, y, vertical = action
        if length not in self.unplaced[player]:
            return "multicity.object_used", f"your {length}-object is already in the city"
        squares = object_squares(action)
        cells = self.cells
        if any(s not in cells for s in squares):
            return "multicity.off_city", "an object must lie entirely on tiles"
        if cells[squares[0]] != player or cells[squares[-1]] != player:
            colour = COLOURS[player]
            return "multicity.end_colour", f"both ends of an object must be on {colour} symbols (your colour)"
        if not self.kids and any(cells[s] == HOLE for s in squares):
            return "multicity.hole", "an object may not lie over a hole (only in the kids' variant)"
        occ = self.occ
        if not self.loose:
            if any(s in occ for s in squares):
                return "multicity.square_taken", "another object already lies on one of these squares"
            return None
        if not self._free(squares, vertical):
            same = (END_V | MID_V) if vertical else (END_H | MID_H)
            if any(occ.get(s, 0) & (END_H | END_V) for s in (squares[0], squares[-1])):
                return "multicity.square_taken", "another object already stands on one of these end squares"
            if any(occ.get(s, 0) & same for s in squares):
                return "multicity.square_taken", "another object already runs along this row or column here"
            return (
                "multicity.objects_cross",
                "objects may not cross: this one would cut through another's middle",
            )
        return None

    def _pass(self, player: int) -> None:
        if self.phase != FINAL:
            raise IllegalAction("multicity.no_pass", "you may only pass in the final round: expand or place")
        self.log.append(Event("pass", {"seat": player}))
        self.final_index += 1
        self._next_in_final_round()

    # -- the end -------------------------------------------------------------------------------------
    def _start_final_round(self, player: int) -> None:
        self.phase = FINAL
        self.final_index = 0
        self.log.append(Event("final_round", {"seat": player, "first_seat": self.first}))
        self._next_in_final_round()

    def _next_in_final_round(self) -> None:
        while self.final_index < self.num_players:
            seat = (self.first + self.final_index) % self.num_players
            if self.cands[seat]:
                self.current = seat
                return
            self.log.append(Event("turn_lost", {"seat": seat}))
            self.final_index += 1
        self._end()

    def _end(self) -> None:
        self.phase = OVER
        result = self.result()
        assert result is not None
        six = not all(self.unplaced)
        self.log.append(
            _new_tuple(
                Event,
                (
                    "game_over",
                    {"winners": list(result.winners), "reason": "six_objects" if six else "fewest_squares"},
                    None,
                ),
            )
        )

    @property
    def is_over(self) -> bool:
        return self.phase == OVER

    def remaining_squares(self, player: int) -> int:
        return sum(self.unplaced[player])

    def result(self) -> Result | None:
        if self.phase != OVER:
            return None
        # Fewest squares left wins, then most objects placed; whoever placed all six has 0 left.
        unplaced = self.unplaced
        keys = [(-sum(left), _OBJECTS - len(left)) for left in unplaced]
        scores = [float(_SQUARES - sum(left)) for left in unplaced]
        return Result.from_keys(scores, keys)

    # -- information ---------------------------------------------------------------------------------
    def view(self, player: int | None, since: int = 0) -> dict[str, Any]:
        """Everything here is public (docs/games/multicity.md, "View"): only the stack order is hidden."""
        data = self._base_view(player, since)
        letters = self.letters
        drawn = None
        if self.drawn is not None:
            drawn = {"tile": self.drawn, "turns": [list(t) for t in letters[self.drawn]]}
        data["state"] = {
            "phase": PHASE_IDS[self.phase],
            "turn": None if self.phase == OVER else self.current,
            "first_player": self.first,
            "stack": len(self.stack),
            "drawn": drawn,
            "tiles": [
                {"tile": t, "x": sx * 3, "y": sy * 3, "turn": turn, "squares": list(letters[t][turn])}
                for (sx, sy), (t, turn) in self.tiles.items()
            ],
            "free_slots": [[sx * 3, sy * 3] for sx, sy in self.frontier],
            "objects": [
                {"seat": s, "length": a.length, "x": a.x, "y": a.y, "dir": "v" if a.vertical else "h"}
                for s, a in self.objects
            ],
            "players": [
                {
                    "seat": s,
                    "colour": COLOURS[s],
                    "unplaced": list(self.unplaced[s]),
                    "placed": [a.length for seat, a in self.objects if seat == s],
                    "remaining_squares": self.remaining_squares(s),
                }
                for s in range(self.num_players)
            ],
            "final_round": (
                [(self.first + i) % self.num_players for i in range(self.final_index, self.num_players)]
                if self.phase == FINAL
                else None
            ),
            "kids": self.kids,
            "overlap": "loose" if self.loose else "strict",
        }
        return data

    def clone(self) -> MulticityState:
        return self._copy(self.rng.clone(), list(self.stack))

    def _copy(self, rng: SeededRNG, stack: list[int]) -> MulticityState:
        twin = MulticityState.__new__(MulticityState)
        twin.num_players = self.num_players
        twin.options = self.options
        twin.seed = self.seed
        twin.rng = rng
        twin.log = list(self.log)
        twin.kids = self.kids
        twin.loose = self.loose
        twin.rotations = self.rotations
        twin.letters = self.letters
        twin._cache_pairs = self._cache_pairs
        twin.cells = self.cells.copy()
        twin.occ = self.occ.copy()
        twin.tiles = self.tiles.copy()
        twin.frontier = self.frontier.copy()
        twin.stack = stack
        twin.unused = self.unused
        twin.drawn = self.drawn
        twin.cands = [c.copy() for c in self.cands]
        twin.unplaced = list(self.unplaced)
        twin.objects = list(self.objects)
        twin.current = self.current
        twin.first = self.first
        twin.phase = self.phase
        twin.final_index = self.final_index
        return twin

    def determinize(self, player: int, seed: int) -> MulticityState:
        """Reshuffle what nobody has seen: the stack together with the tiles left out of the game.

        The unseen tiles are sorted first, so the copy depends only on which tiles are unseen (what
        every seat can work out from the public tiles), never on their real order."""
        rng = SeededRNG(seed)  # as State.determinize: a clone with a fresh RNG (not a copy of ours)
        unseen = sorted(self.stack + list(self.unused))
        shuffle(rng, unseen)
        twin = self._copy(rng, unseen[: len(self.stack)])
        twin.unused = tuple(unseen[len(self.stack) :])
        return twin

    def check_snapshot(self) -> None:
        """A loaded position must hold each tile once, a city on the grid that matches its tiles,
        objects that match the occupancy and the candidate lists, and a sane turn."""
        n, count = self.num_players, len(self.rotations)
        ids = [t for t, _ in self.tiles.values()] + list(self.stack) + list(self.unused)
        if self.drawn is not None:
            ids.append(self.drawn)
        if sorted(ids) != list(range(count)):
            raise ValueError("the tiles in the city, the stack and the box are not the deck once each")
        if len(self.tiles) + len(self.stack) + (self.drawn is not None) != self.options["deck"]:
            raise ValueError("the tiles in play do not add up to the deck option")
        if (0, 0) not in self.tiles or len(self.cells) != 9 * len(self.tiles):
            raise ValueError("the city's squares do not match its tiles")
        for (sx, sy), (tile, turn) in self.tiles.items():
            layout = self.rotations[tile][turn]
            for i, code in enumerate(layout):
                if self.cells.get(key(sx * 3 + i % 3, sy * 3 + i // 3)) != code:
                    raise ValueError(f"the squares of tile {tile} do not match it")
        near = {(sx + dx, sy + dy) for sx, sy in self.tiles for dx, dy in _NEIGHBOURS}
        if set(self.frontier) != near - set(self.tiles):
            raise ValueError("the free tile slots do not surround the city")
        for slot in self.frontier:  # a fresh process has not made these slots' Lay actions yet
            _lays(slot)
        if not (0 <= self.current < n and 0 <= self.first < n and self.phase in (PLAY, FINAL, OVER)):
            raise ValueError("the turn, the first player or the phase is out of range")
        if not 0 <= self.final_index <= n or len(self.cands) != n or len(self.unplaced) != n:
            raise ValueError("the final round or the players' lists are out of range")
        occ: dict[int, int] = {}
        for seat, action in self.objects:
            if not (0 <= seat < n and type(action) is Place):
                raise ValueError("an object belongs to no seat")
            occupy(occ, object_squares(action), action.vertical)
        if occ != self.occ:
            raise ValueError("the occupied squares do not match the objects")
        for seat in range(n):
            placed = sorted(a.length for s, a in self.objects if s == seat)
            if sorted(placed + list(self.unplaced[seat])) != list(LENGTHS):
                raise ValueError(f"seat {seat}'s objects are not the six lengths once each")
            for action, squares in self.cands[seat].items():
                if squares != object_squares(action) or self.placement_problem(seat, action) is not None:
                    raise ValueError(f"seat {seat} lists a placement it may not make")
        super().check_snapshot()

    # -- notation ------------------------------------------------------------------------------------
    def format_action(self, action: Action) -> str:
        return _format_action(action)

    def parse_action(self, text: str, player: int) -> Action:
        return _parse_action(text)


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
        if far is not None:
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
    if far is not None:
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


def _letters(turned: tuple[tuple[Layout, ...], ...]) -> tuple[tuple[tuple[str, ...], ...], ...]:
    """Each tile's four turns as nine square letters in reading order, made once for the views."""
    return tuple(tuple(tuple(LETTER_OF[c] for c in t) for t in turns) for turns in turned)


_DECK_ROTATIONS = tuple(rotations(t) for t in DECK)
_DECK_LETTERS = _letters(_DECK_ROTATIONS)
