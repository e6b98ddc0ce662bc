"""What a strategy study reads from a Machi Koro game (``tabletown study machikoro``).

Openings: the first one, two and three establishments a seat buys, its first landmark and the order of
its first two landmarks. Uses: every card bought (landmarks included) and the turns played with two
dice (``dice2``). Tracks, at each turn's roll: coins, landmarks built (City Hall not counted) and
``progress`` — coins plus what the built landmarks cost, the coins a seat has put towards winning.
"""

from __future__ import annotations

from typing import Any

from ...study.features import GameWatcher
from .data import LANDMARK_CODES, landmarks
from .state import MachiKoroState

TURN = "a turn is one roll of the dice (an extra turn from doubles counts again)"

_COST = {card.code: card.cost for card in landmarks()}
_BIT_COST = [(1 << i, _COST[code]) for i, code in enumerate(LANDMARK_CODES)]

# The opening columns: the first landmarks, the first buys (one key a build, in order).
_LANDMARK_KEYS = ("first_landmark", "landmarks_1_2")
_BUY_KEYS = ("buy_1", "buys_1_2", "buys_1_3")

STRATEGIES = (
    "strategy:cheese-factory",
    "strategy:bakery",
    "strategy:convenience-store",
    "strategy:one-die-spread",
    "strategy:fruit-and-vegetable",
    "strategy:furniture-factory",
    "strategy:mine-spread",
)

# The default study: seat advantage and shape by bot and player count, then each rules option against
# the default game with the expert at every seat. Parallel to lordsofvegas/study.py's and
# multicity/study.py's PLAN on purpose: the same first rows, then each game's own options (its data).
PLAN: list[tuple[int, tuple[str, ...], dict[str, Any]]] = [
    (2, ("random",), {}),
    (2, ("greedy",), {}),
    (2, ("expert",), {}),
    (3, ("expert",), {}),
    (4, ("random",), {}),
    (4, ("expert",), {}),
    (2, ("expert",), {"harbor": True}),
    (4, ("expert",), {"harbor": True}),
    (2, ("expert",), {"harbor": True, "market": "all"}),
    (2, ("expert",), {"harbor": True, "market": "hybrid"}),
    (2, ("expert",), {"harbor": True, "city_hall": "every_turn"}),
    (2, ("expert",), {"harbor": True, "sushi_cost": 2}),
    (2, ("expert",), {"radio_tower_dice": "same"}),
    (2, ("expert",), {"park_same_turn": False}),
]


def catalogue(state: MachiKoroState) -> list[str]:
    """Every card a seat could buy in this set-up (not City Hall, which every city starts with)."""
    view = state.view(None)["state"]
    return [card["id"] for card in view["cards"]] + goal_items(state)


def goal_items(state: MachiKoroState) -> list[str]:
    """The landmarks to build: building them all is the win, so their lift is no finding."""
    landmarks = state.view(None)["state"]["players"][0]["landmarks"]
    return [code for code, built in landmarks.items() if not built]


class Watcher(GameWatcher[MachiKoroState]):
    tracks = ("progress", "coins", "landmarks")

    def __init__(self, state: MachiKoroState) -> None:
        self.mask = state.t.victory_mask
        self.buys: list[list[str]] = [[] for _ in range(state.num_players)]
        self.marks: list[list[str]] = [[] for _ in range(state.num_players)]
        super().__init__(state)

    def values(self, state: MachiKoroState) -> dict[str, list[float]]:
        mask = self.mask
        built = [sum(cost for bit, cost in _BIT_COST if lm & bit & mask) for lm in state.lm]
        coins: list[float] = list(state.coins)
        return {
            "progress": [c + b for c, b in zip(coins, built, strict=True)],
            "coins": coins,
            "landmarks": [bin(lm & mask).count("1") for lm in state.lm],
        }

    def see(self, state: MachiKoroState, seat: int, text: str, simultaneous: bool) -> None:
        if text in ("roll", "roll2"):
            self.new_turn(state)
            if text == "roll2":
                self.count(seat, "dice2")
            return
        if not text.startswith("build "):
            return
        card = text[6:]
        self.count(seat, card)
        if card in _COST:
            self.opening(seat, self.marks[seat], card, _LANDMARK_KEYS, ">")
        else:
            self.opening(seat, self.buys[seat], card, _BUY_KEYS, "+")

    def opening(self, seat: int, so_far: list[str], card: str, keys: tuple[str, ...], joiner: str) -> None:
        """Add ``card`` to ``so_far``; while the opening lasts (one key a build), note it under the key."""
        so_far.append(card)
        n = len(so_far)
        if n <= len(keys):
            self.open[seat][keys[n - 1]] = card if n == 1 else joiner.join(so_far)

    def defaults(self) -> dict[str, str]:
        return {key: "none" for key in _BUY_KEYS + _LANDMARK_KEYS}
