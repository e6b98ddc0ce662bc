"""Lords of Vegas actions and the checks of their arguments."""

from __future__ import annotations

from typing import Any

from ...core.errors import MalformedAction
from .data import NUM_COLORS, NUM_LOTS

END = ("end",)
PASS = ("pass",)
ACCEPT = ("accept",)
REFUSE = ("refuse",)
LAYOFF_YES = ("layoff", True)
LAYOFF_NO = ("layoff", False)

# Kinds of actions the active player may promise not to take (traded "actions this turn").
BAN_KINDS = ("build", "sprawl", "remodel", "reorg", "gamble")
ITEM_KINDS = ("$", "lot", "die") + tuple("no-" + k for k in BAN_KINDS)

ALL_DIE_VALUES = (1, 2, 3, 4, 5, 6)


def check_lot(lot: Any) -> None:
    if not isinstance(lot, int) or isinstance(lot, bool) or not 0 <= lot < NUM_LOTS:
        raise MalformedAction("notation.lot", f"no such lot: {lot!r}")


def lot_only(action: tuple) -> int:
    if len(action) != 2:
        raise MalformedAction("notation.arity", f"'{action[0]}' takes one lot")
    check_lot(action[1])
    return action[1]


def lot_colour(action: tuple) -> tuple[int, int]:
    if len(action) != 3:
        raise MalformedAction("notation.arity", f"'{action[0]}' takes a lot and a colour")
    check_lot(action[1])
    colour = action[2]
    if not isinstance(colour, int) or isinstance(colour, bool) or not 0 <= colour < NUM_COLORS:
        raise MalformedAction("notation.color", f"no such casino colour: {colour!r}")
    return action[1], colour


def arity(action: tuple, n: int) -> None:
    if len(action) != n:
        raise MalformedAction("notation.arity", f"'{action[0]}' takes no arguments")
