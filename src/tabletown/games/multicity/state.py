"""Multicity rules: the game state (set-up, ``apply``'s dispatch, views, copies, hidden information,
saved positions). Its other parts are mixins by topic: ``city.py`` (drawing and laying tiles, and
the placements a new tile opens up), ``placing.py`` (placing objects and the refusals) and
``ending.py`` (the final round, the end and the ranking); ``grid.py`` holds the squares, the
occupancy flags and the tile slots, ``phases.py`` the phases, ``fields.py`` the slots' types.

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

from collections.abc import Sequence
from typing import Any

from ...core.errors import MalformedAction
from ...core.events import Event
from ...core.game import Action, State
from ...core.rng import SeededRNG, shuffle
from .actions import DRAW, LENGTHS, MAX_LENGTH, MIN_LENGTH, PASS, Lay, Place
from .city import CityMixin
from .ending import EndingMixin
from .grid import _LAYS, _NEIGHBOURS, _lays, key, object_squares, occupy
from .grid import OFFSET as OFFSET  # OFFSET, STRIDE and HOLE: code outside the package reads them here
from .grid import STRIDE as STRIDE
from .notation import format_action as _format_action
from .notation import parse_action as _parse_action
from .pairs import pair_tables
from .phases import FINAL, OVER, PHASE_IDS, PLAY
from .placing import PlacingMixin
from .tiles import COLOURS, DECK, LETTER_OF, Layout, rotations
from .tiles import HOLE as HOLE

_SEATS = ((0,), (1,), (2,), (3,))  # to_act, made once


class MulticityState(CityMixin, PlacingMixin, EndingMixin, State):
    """One position. Its parts live in mixins by topic: ``city.py`` (tiles), ``placing.py``
    (objects) and ``ending.py`` (the final round, the ranking); here are the set-up, who acts and
    what they may do, ``apply``'s dispatch, the views, copies, hidden information and saved
    positions. The slots' types are declared in ``fields.py``."""

    __slots__ = (
        "num_players", "options", "seed", "rng", "log", "kids", "loose", "rotations", "letters", "cells", "occ",
        "tiles", "frontier", "stack", "unused", "drawn", "cands", "unplaced", "objects", "current",
        "first", "phase", "final_index", "_cache_pairs",
    )  # fmt: skip
    # The slots' types are declared in fields.py (squares are ``key(x, y)`` ints, grid.py).
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
            length, x, y, vertical = place.length, place.x, place.y, place.vertical
            if not (type(length) is int and type(x) is int and type(y) is int and type(vertical) is bool):
                return False
            return self.drawn is None and action in self.cands[player]
        if kind is Lay:
            lay: Lay = action  # type: ignore[assignment]  # type(action) is Lay
            x, y, turn = lay.x, lay.y, lay.turn
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
            raise MalformedAction("multicity.action", "not a Multicity action: {action!r}", action=action)

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
        # Field by field, alike by shape to every game's copy on purpose: copying is a hot path of the
        # search bots (no loop over slots).
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
                if squares != object_squares(action) or self._placement_refusal(seat, action) is not None:
                    raise ValueError(f"seat {seat} lists a placement it may not make")
        super().check_snapshot()

    # -- notation ------------------------------------------------------------------------------------
    def format_action(self, action: Action) -> str:
        return _format_action(action)

    def parse_action(self, text: str, player: int) -> Action:
        return _parse_action(text)


def _letters(turned: tuple[tuple[Layout, ...], ...]) -> tuple[tuple[tuple[str, ...], ...], ...]:
    """Each tile's four turns as nine square letters in reading order, made once for the views."""
    return tuple(tuple(tuple(LETTER_OF[c] for c in t) for t in turns) for turns in turned)


_DECK_ROTATIONS = tuple(rotations(t) for t in DECK)
_DECK_LETTERS = _letters(_DECK_ROTATIONS)
