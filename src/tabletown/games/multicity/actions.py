"""Multicity actions: named tuples and string constants, each printed as what it means.

=====================================  ==================================================
``DRAW``                               draw the top tile of the stack
``Lay(x, y, turn)``                    lay the drawn tile, top-left square at (x, y), turned
``Place(length, x, y, vertical)``      put an object of ``length`` squares from (x, y)
``PASS``                               final round: place nothing
=====================================  ==================================================

The rules build ``Place`` values with ``tuple.__new__`` on their hot path (city.py), so these
stay named tuples: compared, hashed and unpacked as plain tuples.
"""

from __future__ import annotations

from typing import NamedTuple

MIN_LENGTH, MAX_LENGTH = 2, 7
LENGTHS = tuple(range(MIN_LENGTH, MAX_LENGTH + 1))  # the six objects' lengths


class Lay(NamedTuple):
    """Lay the drawn tile with its top-left square at (x, y), turned ``turn`` quarter turns clockwise."""

    x: int
    y: int
    turn: int


class Place(NamedTuple):
    """Put the object of ``length`` from square (x, y) rightwards, or downwards when ``vertical``."""

    length: int
    x: int
    y: int
    vertical: bool


DRAW = "draw"
PASS = "pass"


# Positions saved before the actions moved here from state.py name them there (core/snapshot.py).
Lay.snapshot_former_names = ("tabletown.games.multicity.state.Lay",)  # type: ignore[attr-defined]
Place.snapshot_former_names = ("tabletown.games.multicity.state.Place",)  # type: ignore[attr-defined]
