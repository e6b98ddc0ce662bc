"""Multicity actions: small frozen, slotted dataclasses and string constants, each printed as what
it means.

=====================================  ==================================================
``DRAW``                               draw the top tile of the stack
``Lay(x, y, turn)``                    lay the drawn tile, top-left square at (x, y), turned
``Place(length, x, y, vertical)``      put an object of ``length`` squares from (x, y)
``PASS``                               final round: place nothing
=====================================  ==================================================

Values are interned, as New Las Vegas's are: building a ``Place`` or ``Lay`` equal to one that
exists hands out that very object (copies and pickles too), so equality and hashing are the default
identity ones, done in C. That matters because each seat's candidate placements are a dict keyed
by ``Place`` that the rules update after every tile; their hot path looks placements up in
``PLACES`` and makes a missing one with :func:`place_of`. The tables keep every value for good and
stay bounded: only actions of some game are interned (at most the action space of the largest
deck). A look-alike (``Place(3.0, 0, 0, True)``, or a square no city reaches) is a fresh object
equal to no action of the game, and ``apply`` refuses it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

MIN_LENGTH, MAX_LENGTH = 2, 7
LENGTHS = tuple(range(MIN_LENGTH, MAX_LENGTH + 1))  # the six objects' lengths

DRAW = "draw"
PASS = "pass"

_set = object.__setattr__
_LARGEST: Any = None  # the action space of the largest deck (space.py, made when first needed)


def _in_largest_space(action: Any) -> bool:
    """Whether ``action`` is an action of some game: only those are interned, which bounds the tables
    (214,380 placements with the full deck)."""
    global _LARGEST
    if _LARGEST is None:
        from .space import MulticitySpace
        from .tiles import DECK

        _LARGEST = MulticitySpace(len(DECK))
    return action in _LARGEST


class _Interned:
    """Construction that interns (the dataclasses make no ``__init__``) into the class's table
    ``_made``; copies and pickles are built again by the constructor."""

    __slots__ = ()
    __match_args__: ClassVar[tuple[str, ...]]
    _types: ClassVar[tuple[type, ...]]  # each field's exact type; other values are not interned
    _made: ClassVar[dict[tuple[Any, ...], Any]]

    def __new__(cls, *values: Any, **named: Any) -> Any:
        names = cls.__match_args__
        if named:
            values = (*values, *(named.pop(name) for name in names[len(values) :] if name in named))
            if named:
                raise TypeError(f"{cls.__name__} has no field (or two values for) {', '.join(named)}")
        if len(values) != len(names):
            raise TypeError(f"{cls.__name__} takes the fields {', '.join(names)}")
        exact = all(type(v) is t for v, t in zip(values, cls._types, strict=True))
        found = cls._made.get(values) if exact else None
        if found is not None:
            return found
        made = object.__new__(cls)
        for name, value in zip(names, values, strict=True):
            _set(made, name, value)
        if exact and _in_largest_space(made):
            made = cls._made.setdefault(values, made)  # atomic: two threads get one object
        return made

    def __reduce__(self) -> tuple[Any, ...]:
        return (self.__class__, tuple(getattr(self, name) for name in self.__match_args__))


@dataclass(frozen=True, slots=True, eq=False, init=False)
class Lay(_Interned):
    """Lay the drawn tile with its top-left square at (x, y), turned ``turn`` quarter turns clockwise."""

    _types: ClassVar[tuple[type, ...]] = (int, int, int)
    _made: ClassVar[dict[tuple[Any, ...], Any]] = {}
    x: int
    y: int
    turn: int


@dataclass(frozen=True, slots=True, eq=False, init=False)
class Place(_Interned):
    """Put the object of ``length`` from square (x, y) rightwards, or downwards when ``vertical``."""

    _types: ClassVar[tuple[type, ...]] = (int, int, int, bool)
    _made: ClassVar[dict[tuple[Any, ...], Any]] = {}
    length: int
    x: int
    y: int
    vertical: bool


# Every placement made so far, by its fields: the rules' hot path looks placements up here.
PLACES: dict[tuple[int, int, int, bool], Place] = Place._made


def place_of(length: int, x: int, y: int, vertical: bool) -> Place:
    """A new ``Place(length, x, y, vertical)`` for the rules, which call it only when ``PLACES``
    lacks the value (exact ints and a bool, within reach: no checks)."""
    made = object.__new__(Place)
    _set(made, "length", length)
    _set(made, "x", x)
    _set(made, "y", y)
    _set(made, "vertical", vertical)
    return PLACES.setdefault((length, x, y, vertical), made)


def lay_of(x: int, y: int, turn: int) -> Lay:
    """``Lay(x, y, turn)`` for the rules, whose values are exact ints within the city: no checks."""
    found = Lay._made.get((x, y, turn))
    if found is None:
        made = object.__new__(Lay)
        _set(made, "x", x)
        _set(made, "y", y)
        _set(made, "turn", turn)
        found = Lay._made.setdefault((x, y, turn), made)
    return found


# Positions saved before the actions moved here from state.py name them there (core/snapshot.py).
Lay.snapshot_former_names = ("tabletown.games.multicity.state.Lay",)  # type: ignore[attr-defined]
Place.snapshot_former_names = ("tabletown.games.multicity.state.Place",)  # type: ignore[attr-defined]
