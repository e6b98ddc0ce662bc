"""What a strategy study reads from a Lords of Vegas game (``tabletown study lordsofvegas``).

Openings: the seat's place in the turn order (``play_order``: 1 = first, by the roll-off), the
blocks of the lots a seat holds when play starts (the two dealt, plus the first player's first draw), the colour and block of its first casino, its
first two colours, and whether it gambled in its first five turns. Uses: every kind of action
(``build``, ``sprawl``, ``remodel``, ``reorg``, ``gamble``, ``layoff``, ``offer``, ``accept``) and every
colour built or sprawled (``colour:gold``). Tracks, at the end of each turn: points and money.
"""

from __future__ import annotations

from typing import Any

from ...study.features import GameWatcher
from .data import LOT_NAMES
from .state import LordsOfVegasState

TURN = "a turn is one player's draw and actions, up to its `end`"

COLOURS = ("green", "brown", "gold", "purple", "silver")
KINDS = ("build", "sprawl", "remodel", "reorg", "gamble", "layoff", "nolayoff", "offer", "accept", "refuse")
EARLY = 5  # turns of a seat that count as its opening

# A table parallel to multicity/study.py's and machikoro/study.py's PLAN on purpose: the same first
# rows (the generic bots at 2, 3 and 4 seats), then this game's own options; each game's plan is its data.
PLAN: list[tuple[int, tuple[str, ...], dict[str, Any]]] = [
    (2, ("random",), {}),
    (2, ("greedy",), {}),
    (2, ("expert",), {}),
    (3, ("expert",), {}),
    (4, ("random",), {}),
    (4, ("expert",), {}),
    (2, ("expert",), {"open_market": True}),
    (2, ("expert",), {"markers_full": "hold"}),
    (4, ("expert",), {"markers_full": "hold"}),
]


def catalogue(state: LordsOfVegasState) -> list[str]:
    return [*KINDS, *(f"colour:{c}" for c in COLOURS)]


class Watcher(GameWatcher[LordsOfVegasState]):
    tracks = ("points", "money")
    version = 2  # 2: play_order

    def __init__(self, state: LordsOfVegasState) -> None:
        super().__init__(state)
        first = next(event.data["seat"] for event in state.log if event.kind == "first_player")
        for seat in range(state.num_players):
            self.open[seat]["play_order"] = str((seat - first) % state.num_players + 1)
        self.own_turns = [0] * state.num_players
        self.colours: list[list[str]] = [[] for _ in range(state.num_players)]
        for seat in range(state.num_players):
            blocks = sorted(LOT_NAMES[lot][0] for lot, owner in enumerate(state.marker) if owner == seat)
            self.open[seat]["start_blocks"] = "+".join(blocks) or "none"

    def values(self, state: LordsOfVegasState) -> dict[str, list[float]]:
        return {"points": list(state.score), "money": list(state.money)}

    def see(self, state: LordsOfVegasState, seat: int, text: str, simultaneous: bool) -> None:
        words = text.split()
        kind = words[0]
        if kind == "end":
            self.own_turns[seat] += 1
            if self.own_turns[seat] == EARLY:
                self.first(seat, "gambled_early", "no")
            self.new_turn(state)
            return
        if kind not in KINDS:
            return
        self.count(seat, kind)
        if kind == "gamble" and self.own_turns[seat] < EARLY:
            self.first(seat, "gambled_early", "yes")
        if kind in ("build", "sprawl") and len(words) == 3:
            lot, colour = words[1], _colour(words[2])
            self.count(seat, f"colour:{colour}")
            if kind == "build":
                self.first(seat, "first_colour", colour)
                self.first(seat, "first_block", lot[0])
            colours = self.colours[seat]
            if colour not in colours:
                colours.append(colour)
                if len(colours) == 2:
                    self.open[seat]["colours_1_2"] = ">".join(colours)

    def defaults(self) -> dict[str, str]:
        return {
            "first_colour": "none",
            "first_block": "none",
            "colours_1_2": "none",
            "gambled_early": "no",
        }


def _colour(word: str) -> str:
    for colour in COLOURS:
        if colour.startswith(word) or (word == "aqua" and colour == "green"):
            return colour
    return word
