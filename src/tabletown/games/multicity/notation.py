"""Text notation for Multicity actions (round-trips through the typed actions of :mod:`.actions`).

draw | d            draw the top tile
t X,Y rT            lay the drawn tile with its top-left square at X,Y (multiples of 3), T quarter turns
LENh X,Y | LENv X,Y put the object of LEN squares from X,Y rightwards (h) or downwards (v)
pass | p            final round: place nothing
"""

from __future__ import annotations

import re

from ...core.errors import MalformedAction
from ...core.game import Action
from .actions import DRAW, MAX_LENGTH, MIN_LENGTH, PASS, Lay, Place

_LAY_RE = re.compile(r"^t\s*(-?\d+)\s*,\s*(-?\d+)\s*r\s*(\d+)$")
_PLACE_RE = re.compile(r"^(\d+)\s*([hv])\s*(-?\d+)\s*,\s*(-?\d+)$")


def format_action(action: Action) -> str:
    kind = type(action)
    if kind is Place:
        return f"{action.length}{'v' if action.vertical else 'h'} {action.x},{action.y}"  # type: ignore[attr-defined]  # a Place
    if kind is Lay:
        return f"t {action.x},{action.y} r{action.turn}"  # type: ignore[attr-defined]  # a Lay
    if action in (DRAW, PASS):
        return str(action)
    raise MalformedAction("multicity.action", "not a Multicity action: {action!r}", action=action)


def parse_action(text: str) -> Action:
    text = text.strip().lower()
    if text in ("draw", "d"):
        return DRAW
    if text in ("pass", "p"):
        return PASS
    match = _PLACE_RE.match(text)
    if match:
        length = int(match[1])
        if not MIN_LENGTH <= length <= MAX_LENGTH:
            raise MalformedAction(
                "multicity.length",
                "objects are {shortest}-{longest} squares long, not {length!r}",
                shortest=MIN_LENGTH,
                longest=MAX_LENGTH,
                length=length,
            )
        return Place(length, int(match[3]), int(match[4]), match[2] == "v")
    match = _LAY_RE.match(text)
    if match:
        x, y, turn = int(match[1]), int(match[2]), int(match[3])
        # Alike by shape to city.py's checks of a Lay on purpose: these word the typed form (r0-r3),
        # those an action object handed over directly; the rule itself is checked there.
        if turn > 3:
            raise MalformedAction(
                "multicity.tile_turn", "a tile turns r0-r3 (quarter turns clockwise), not r{turn}", turn=turn
            )
        if x % 3 or y % 3:
            raise MalformedAction(
                "multicity.tile_grid",
                "a tile's top-left square has coordinates that are multiples of 3, not {x},{y}",
                x=x,
                y=y,
            )
        return Lay(x, y, turn)
    raise MalformedAction(
        "notation.unknown",
        "not a Multicity move: {text!r} (try 'draw', 't 3,0 r1', '5h 2,-1', 'pass')",
        text=text,
    )
