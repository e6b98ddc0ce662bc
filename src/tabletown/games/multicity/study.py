"""What a strategy study reads from a Multicity game (``tabletown study multicity``).

Openings: the seat's place in the turn order (``play_order``: 1 = first; the ``first`` option picks
the first player, at random by default), and the early tile strategy: what a seat does on its first turn (``expand`` the city or ``place``
an object), how many of its first four turns it spends expanding, the length of its first object and
the order of its first three. Uses: expansions (``expand``), each object length placed (``place:5``)
and final-round passes. Tracks, at the start of each turn: fields placed (the score) and objects placed.
"""

from __future__ import annotations

from typing import Any

from ...study.features import GameWatcher
from .state import MulticityState

TURN = "a turn is one expansion (draw and lay a tile) or one object placed"

EARLY = 4  # a seat's turns that make its opening

# A table parallel to lordsofvegas/study.py's PLAN on purpose: see the comment there.
PLAN: list[tuple[int, tuple[str, ...], dict[str, Any]]] = [
    (2, ("random",), {}),
    (2, ("greedy",), {}),
    (2, ("expert",), {}),
    (3, ("expert",), {}),
    (4, ("random",), {}),
    (4, ("expert",), {}),
    (2, ("expert",), {"kids": True}),
    (2, ("expert",), {"overlap": "loose"}),
    (2, ("expert",), {"deck": 20}),
    (4, ("expert",), {"deck": 20}),
]


def catalogue(state: MulticityState) -> list[str]:
    return ["expand", *(f"place:{length}" for length in range(2, 8)), "pass"]


def goal_items(state: MulticityState) -> list[str]:
    """Placing objects is what scores (all six wins), so their lift is no finding."""
    return [f"place:{length}" for length in range(2, 8)]


class Watcher(GameWatcher[MulticityState]):
    tracks = ("fields", "objects")
    version = 2  # 2: play_order

    def __init__(self, state: MulticityState) -> None:
        super().__init__(state)
        for seat in range(state.num_players):
            self.open[seat]["play_order"] = str((seat - state.first) % state.num_players + 1)
        self.own_turns = [0] * state.num_players
        self.expansions = [0] * state.num_players
        self.placed: list[list[str]] = [[] for _ in range(state.num_players)]

    def values(self, state: MulticityState) -> dict[str, list[float]]:
        return {
            "fields": [27 - sum(left) for left in state.unplaced],
            "objects": [6 - len(left) for left in state.unplaced],
        }

    def see(self, state: MulticityState, seat: int, text: str, simultaneous: bool) -> None:
        if text.startswith("t "):
            return  # laying the tile drawn this turn
        self.new_turn(state)
        turn = self.own_turns[seat]
        self.own_turns[seat] += 1
        if text in ("draw", "d"):
            self.count(seat, "expand")
            move = "expand"
            if turn < EARLY:
                self.expansions[seat] += 1
        elif text in ("pass", "p"):
            self.count(seat, "pass")
            move = "pass"
        else:
            length = text.split()[0][:-1]
            self.count(seat, f"place:{length}")
            move = "place"
            placed = self.placed[seat]
            placed.append(length)
            if len(placed) == 1:
                self.open[seat]["first_object"] = length
            elif len(placed) == 3:
                self.open[seat]["objects_1_3"] = ">".join(placed)
        if turn == 0:
            self.open[seat]["first_turn"] = move
        if turn == EARLY - 1:
            self.open[seat]["early_expansions"] = str(self.expansions[seat])

    def defaults(self) -> dict[str, str]:
        return {
            "first_turn": "none",
            "first_object": "none",
            "objects_1_3": "none",
            "early_expansions": "none",
        }
