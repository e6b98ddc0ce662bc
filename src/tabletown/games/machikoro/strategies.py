"""Machi Koro's published fixed strategies (the reference's "Fixed strategies"), played as published.

Each strategy is a strict buy order. The bot walks its list and buys the first item it has not yet
bought; if that item is not affordable it buys nothing this turn and waits (it never skips ahead to
something cheaper). An item is skipped only when it can never be bought: a landmark already built or
an establishment whose pile is sold out. When the list is done it buys the missing landmarks in the
order Train Station, Shopping Mall, Amusement Park, Radio Tower (again waiting for each); and as soon
as its coins cover every missing landmark it goes straight for them, whatever is left on its list.

``× n`` in a published list is n purchases: the starting Wheat Field and Bakery are not counted, so
"Bakery ×6" means owning the starting Bakery and six more. The position in the list is read from the
city (how many copies it owns, which landmarks stand), never remembered, so the bot plays the same on a
determinized copy or a loaded position.

Dice: two dice only when the bot owns the Train Station *and* its best-paying own roll is 7 or more
(the roll total whose own-turn income from its own cards is highest; on a tie the lowest total counts,
so a city that earns nothing on any roll keeps one die). Radio Tower: re-roll when the roll paid it 2
coins or less (its own cards' income on that roll, before any red payment); the re-roll's dice follow
the same dice rule. Choices the published strategies do not cover (Harbor +2, TV Station target,
Business Center swap, only reachable with Harbor, three or more players, or the Stadium) are the
greedy bot's expected-income choices.
"""

from __future__ import annotations

from typing import Any

from .actions import (
    BUILD_ESTABLISHMENT,
    BUILD_LANDMARK,
    ESTABLISHMENT_INDEX,
    KEEP,
    LANDMARK_INDEX,
    PASS,
    REROLL1,
    REROLL2,
    ROLL1,
    ROLL2,
)
from .bots import GreedyBot
from .data import STATION
from .heuristics import TUNA_MEAN
from .income import blue_gain, green_gain, purple_due
from .state import MachiKoroState
from .tables import MAX_ROLL, SWAP, TAKE_CHOSEN

# The published buy orders (reference, "Fixed strategies"): (card id, copies). Landmarks by their ids.
PUBLISHED: dict[str, tuple[tuple[str, int], ...]] = {
    "cheese-factory": (("ranch", 6), ("station", 1), ("cheese", 2), ("radio", 1)),
    "bakery": (("bakery", 6), ("mall", 1), ("radio", 1)),
    "convenience-store": (("bakery", 3), ("mall", 1), ("store", 6)),
    "one-die-spread": (
        ("bakery", 2),
        ("ranch", 2),
        ("wheat", 2),
        ("forest", 1),
        ("store", 2),
        ("cafe", 2),
        ("restaurant", 1),
        ("stadium", 1),
    ),
    "fruit-and-vegetable": (("wheat", 6), ("station", 1), ("market", 6)),
    "furniture-factory": (("forest", 3), ("mine", 3), ("station", 1), ("furniture", 2), ("radio", 1)),
    "mine-spread": (
        ("wheat", 1),
        ("ranch", 1),
        ("forest", 1),
        ("mine", 3),
        ("station", 1),
        ("mine", 1),
        ("apple", 1),
    ),
}
# The landmarks a finished list buys, in this order (the base game's four).
LANDMARK_ORDER = ("station", "mall", "park", "radio")
# The Radio Tower rule: re-roll a roll that paid this much or less.
REROLL_AT_MOST = 2
# Establishments every city starts with (not counted as purchases).
STARTING = {"wheat": 1, "bakery": 1}


def own_roll_pay(state: MachiKoroState, player: int, roll: int) -> int:
    """What ``player``'s own cards pay them on their own roll of ``roll``: green, blue and purple income
    (a Tuna Boat counted at its mean throw), red payments to others not subtracted."""
    if roll <= 0 or roll > MAX_ROLL:
        return 0
    t = state.t
    city = state.cards[player]
    lm = state.lm[player]
    gain = 0
    for entry in t.green[roll]:
        gain += green_gain(entry, city, lm)
    for blue in t.blue[roll]:
        gain += blue_gain(blue, city, lm, TUNA_MEAN)
    others = [q for q in range(state.num_players) if q != player]
    for idx, kind, amount, min_coins, icons in t.purple_by_roll[roll]:
        if not city[idx] or not others:
            continue
        if kind == TAKE_CHOSEN:
            gain += min(amount, max(state.coins[q] for q in others))
        elif kind != SWAP:
            for q in others:
                have = state.coins[q]
                gain += min(purple_due(kind, amount, min_coins, icons, state.cards[q], have), have)
    return gain


def best_paying_roll(state: MachiKoroState, player: int) -> int:
    """The roll total (1–12) that pays ``player`` most on their own turn; the lowest such total on a tie."""
    return max(range(1, 13), key=lambda roll: (own_roll_pay(state, player, roll), -roll))


def wants_two_dice(state: MachiKoroState, player: int) -> bool:
    """The published dice rule: two dice only with the Train Station and a best-paying roll of 7+."""
    return bool(state.lm[player] & STATION) and best_paying_roll(state, player) >= 7


class PublishedStrategyBot(GreedyBot):
    """A published fixed strategy: strict buy order with waiting, the published landmark order, the
    dice rule and the Radio Tower rule (module docstring)."""

    def __init__(self, seed: int, name: str) -> None:
        super().__init__(seed)
        self.name = f"strategy:{name}"
        self.order = PUBLISHED[name]

    # ------------------------------------------------------------------ dice
    def choose_dice(self, state: MachiKoroState, player: int, legal: list[Any]) -> Any:
        return ROLL2 if ROLL2 in legal and wants_two_dice(state, player) else ROLL1

    def choose_reroll(self, state: MachiKoroState, player: int) -> Any:
        if own_roll_pay(state, player, state.total) > REROLL_AT_MOST:
            return KEEP
        options = state.legal_actions(player)
        if REROLL1 in options and REROLL2 in options:
            return REROLL2 if wants_two_dice(state, player) else REROLL1
        return next(action for action in options if action != KEEP)

    # ------------------------------------------------------------------ building
    def next_purchase(self, state: MachiKoroState, player: int) -> str | None:
        """The card id the strategy buys next (None: nothing left to buy), ignoring what it can afford."""
        t = state.t
        built = state.lm[player]
        missing = [code for code in LANDMARK_ORDER if not built >> LANDMARK_INDEX[code] & 1]
        if not missing:
            return None
        if state.coins[player] >= sum(t.landmark_cost[LANDMARK_INDEX[code]] for code in missing):
            return missing[0]
        city = state.cards[player]
        wanted: dict[str, int] = dict(STARTING)
        for code, copies in self.order:
            if code in LANDMARK_INDEX:
                if not built >> LANDMARK_INDEX[code] & 1:
                    return code
                continue
            wanted[code] = wanted.get(code, 0) + copies
            idx = ESTABLISHMENT_INDEX[code]
            if city[idx] < wanted[code] and state.supply[idx] > 0:
                return code
        return missing[0]

    def choose_build(self, state: MachiKoroState, player: int, legal: list[Any]) -> Any:
        code = self.next_purchase(state, player)
        if code is None:
            return PASS
        j = LANDMARK_INDEX.get(code)
        action = BUILD_LANDMARK[j] if j is not None else BUILD_ESTABLISHMENT[ESTABLISHMENT_INDEX[code]]
        return action if action in legal else PASS  # not affordable: wait


def published_factory(name: str):
    if name not in PUBLISHED:
        raise KeyError(name)
    return lambda seed: PublishedStrategyBot(seed, name)
