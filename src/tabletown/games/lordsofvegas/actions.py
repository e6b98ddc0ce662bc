"""Lords of Vegas actions: small frozen dataclasses, each printed as what it means.

Each class names its kind in the class attribute ``kind`` (``Build.kind == "build"``, the notation's
first word); the rules dispatch on the class. Values compare and hash by class and fields, so
``Build(3, 1)`` is not ``Sprawl(3, 1)``. Lots are numbers 0..47 (``data.LOT_INDEX["a2"]``), colours
0..4 (``data.COLORS``).

=====================================  ==============================================================
``END`` / ``PASS``                     end the turn's main phase / make no offer in the market round
``ACCEPT`` / ``REFUSE``                answer an offer (a counter-offer is an ``Offer``)
``Layoff(half)``                       the boss lays off half a bet to the bank, or not
``Build(lot, color)``                  build on your lot
``Sprawl(lot, color)``                 sprawl a casino you boss onto an empty unowned lot
``Remodel(lot, color)``                change the colour of the casino holding ``lot``
``Reorg(lot)``                         re-roll every die of the casino holding ``lot``
``Gamble(lot, bet)``                   bet at another player's casino
``Take(lot)`` / ``Free(lot)``          all dice / all markers out: which die to move, which lot to free
``Put(lot)``                           place your highest re-rolled value after a reorganization
``Offer(items)``                       a trade: a sorted tuple of ``Item(giver, receiver, kind, value)``
=====================================  ==============================================================

The moves ``legal_actions`` lists are made once (the tables in ``moves.py``) and handed out again.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass
from typing import Any, ClassVar, NamedTuple, TypeAlias

from ...core.errors import MalformedAction
from .data import COLORS, LOT_NAMES, NUM_COLORS, NUM_LOTS

# Kinds of actions the active player may promise not to take (traded "actions this turn").
BAN_KINDS = ("build", "sprawl", "remodel", "reorg", "gamble")
ITEM_KINDS = ("$", "lot", "die") + tuple(sys.intern("no-" + k) for k in BAN_KINDS)


class Item(NamedTuple):
    """One part of a trade: ``giver`` hands ``receiver`` money (kind ``$``, value the amount), a lot
    (``lot``, value the lot), a die (``die``, value the lot it stands on), or promises not to take an
    action this turn (``no-build``... value a lot, or -1 for anywhere; only the active player)."""

    giver: int
    receiver: int
    kind: str
    value: int


def notation_items(items: tuple[Item, ...]) -> list[str]:
    """Items in the text notation (``0>1:$5``, ``1>0:a3``, ``1>0:die-c5``, ``0>1:no-reorg-c5``)."""
    out = []
    for giver, receiver, kind, value in items:
        if kind == "$":
            thing = f"${value}"
        elif kind == "lot":
            thing = LOT_NAMES[value]
        elif kind == "die":
            thing = f"die-{LOT_NAMES[value]}"
        else:
            thing = kind if value < 0 else f"{kind}-{LOT_NAMES[value]}"
        out.append(f"{giver}>{receiver}:{thing}")
    return out


@dataclass(frozen=True, slots=True)
class End:
    """End the main phase of the turn (``end``)."""

    kind: ClassVar[str] = "end"

    def __repr__(self) -> str:
        return "End()"


@dataclass(frozen=True, slots=True)
class Pass:
    """Make no offer in the market round after another player's turn (``pass``)."""

    kind: ClassVar[str] = "pass"

    def __repr__(self) -> str:
        return "Pass()"


@dataclass(frozen=True, slots=True)
class Accept:
    """Accept the offer waiting for you (``accept``)."""

    kind: ClassVar[str] = "accept"

    def __repr__(self) -> str:
        return "Accept()"


@dataclass(frozen=True, slots=True)
class Refuse:
    """Refuse the offer waiting for you (``refuse``); a counter-offer is an ``Offer``."""

    kind: ClassVar[str] = "refuse"

    def __repr__(self) -> str:
        return "Refuse()"


@dataclass(frozen=True, slots=True)
class Layoff:
    """The boss's answer to a bet: lay off half of it to the bank (``layoff``) or not (``nolayoff``)."""

    kind: ClassVar[str] = "layoff"
    half: bool

    def __repr__(self) -> str:
        return f"Layoff(half={self.half})"


@dataclass(frozen=True, slots=True)
class Build:
    """Build a casino of colour ``color`` on your lot ``lot`` (``build a2 gold``)."""

    kind: ClassVar[str] = "build"
    lot: int
    color: int

    def __repr__(self) -> str:
        return f"Build({LOT_NAMES[self.lot]}, {COLORS[self.color]})"


@dataclass(frozen=True, slots=True)
class Sprawl:
    """Sprawl a ``color`` casino you boss onto the empty unowned lot ``lot`` (``sprawl a5 gold``)."""

    kind: ClassVar[str] = "sprawl"
    lot: int
    color: int

    def __repr__(self) -> str:
        return f"Sprawl({LOT_NAMES[self.lot]}, {COLORS[self.color]})"


@dataclass(frozen=True, slots=True)
class Remodel:
    """Remodel the casino holding ``lot`` to ``color`` (``remodel a2 brown``)."""

    kind: ClassVar[str] = "remodel"
    lot: int
    color: int

    def __repr__(self) -> str:
        return f"Remodel({LOT_NAMES[self.lot]}, {COLORS[self.color]})"


@dataclass(frozen=True, slots=True)
class Reorg:
    """Reorganize the casino holding ``lot``: every die in it is re-rolled (``reorg a2``)."""

    kind: ClassVar[str] = "reorg"
    lot: int

    def __repr__(self) -> str:
        return f"Reorg({LOT_NAMES[self.lot]})"


@dataclass(frozen=True, slots=True)
class Gamble:
    """Bet ``bet`` dollars at another player's casino holding ``lot`` (``gamble a3 4``)."""

    kind: ClassVar[str] = "gamble"
    lot: int
    bet: int

    def __repr__(self) -> str:
        return f"Gamble({LOT_NAMES[self.lot]}, bet={self.bet})"


# Take, Free and Put are alike on purpose (one lot each): each kind its own frozen, slotted class,
# as every action here, so a move's type says its kind without a field to read.
@dataclass(frozen=True, slots=True)
class Take:
    """All your dice are out: move your die from ``lot`` to the tile you gain (``take c5``)."""

    kind: ClassVar[str] = "take"
    lot: int

    def __repr__(self) -> str:
        return f"Take({LOT_NAMES[self.lot]})"


@dataclass(frozen=True, slots=True)
class Free:
    """All your markers are out: free your lot ``lot`` to take the drawn one (``free c4``)."""

    kind: ClassVar[str] = "free"
    lot: int

    def __repr__(self) -> str:
        return f"Free({LOT_NAMES[self.lot]})"


@dataclass(frozen=True, slots=True)
class Put:
    """After a reorganization: put your highest unplaced value on ``lot`` (``put c5``)."""

    kind: ClassVar[str] = "put"
    lot: int

    def __repr__(self) -> str:
        return f"Put({LOT_NAMES[self.lot]})"


@dataclass(frozen=True, slots=True)
class Offer:
    """A trade offer (or counter-offer): a sorted tuple of :class:`Item` (``offer 0>1:$5 1>0:a3``)."""

    kind: ClassVar[str] = "offer"
    items: tuple[Item, ...]

    def __repr__(self) -> str:
        return f"Offer({' '.join(notation_items(self.items))})"


END = End()
PASS = Pass()
ACCEPT = Accept()
REFUSE = Refuse()
LAYOFF_YES = Layoff(True)
LAYOFF_NO = Layoff(False)


def check_lot(lot: Any) -> None:
    if not isinstance(lot, int) or isinstance(lot, bool) or not 0 <= lot < NUM_LOTS:
        raise MalformedAction("notation.lot", "no such lot: {lot!r}", lot=lot)


def lot_only(action: Reorg | Take | Free | Put) -> int:
    lot = action.lot
    if type(lot) is not int or not 0 <= lot < NUM_LOTS:  # the usual case checked in one go, else:
        check_lot(lot)
    return lot


def lot_colour(action: Build | Sprawl | Remodel) -> tuple[int, int]:
    lot = action.lot
    colour = action.color
    if type(lot) is int and type(colour) is int and 0 <= lot < NUM_LOTS and 0 <= colour < NUM_COLORS:
        return lot, colour  # the usual case, checked in one go
    check_lot(lot)
    if not isinstance(colour, int) or isinstance(colour, bool) or not 0 <= colour < NUM_COLORS:
        raise MalformedAction("notation.color", "no such casino colour: {colour!r}", colour=colour)
    return lot, colour


LVAction: TypeAlias = (
    End
    | Pass
    | Accept
    | Refuse
    | Layoff
    | Build
    | Sprawl
    | Remodel
    | Reorg
    | Gamble
    | Take
    | Free
    | Put
    | Offer
)
ACTION_TYPES = (
    End,
    Pass,
    Accept,
    Refuse,
    Layoff,
    Build,
    Sprawl,
    Remodel,
    Reorg,
    Gamble,
    Take,
    Free,
    Put,
    Offer,
)
BY_KIND: dict[str, type[LVAction]] = {cls.kind: cls for cls in ACTION_TYPES}

# The tuple form ``(kind, *fields)`` that ``apply`` also takes (the encoding before typed dataclasses,
# e.g. ``("build", 3, 1)``): the fields each kind needs, and the error for the wrong number.
_ARITY = {cls.kind: len(cls.__match_args__) for cls in ACTION_TYPES}


def from_tuple(move: tuple) -> LVAction:
    """The typed action of a tuple ``(kind, *fields)`` whose kind is known (``BY_KIND``)."""
    kind = move[0]
    if len(move) != _ARITY[kind] + 1:
        raise _arity_error(kind)
    return BY_KIND[kind](*move[1:])


def _arity_error(kind: str) -> MalformedAction:
    """The refusal of a tuple ``(kind, *fields)`` with the wrong number of fields (a chain of literal
    refusals, alike by shape to newlasvegas/steps.py's on purpose: the catalogs need each written out)."""
    if kind in ("end", "pass", "accept", "refuse"):
        return MalformedAction("notation.arity", "'{kind}' takes no arguments", kind=kind)
    if kind in ("build", "sprawl", "remodel"):
        return MalformedAction("notation.arity", "'{kind}' takes a lot and a colour", kind=kind)
    if kind == "gamble":
        return MalformedAction("notation.gamble", "gamble takes a lot and a bet")
    if kind == "layoff":
        return MalformedAction("notation.layoff", "layoff is yes or no")
    if kind == "offer":
        return MalformedAction("trade.empty", "an offer lists at least one item")
    return MalformedAction("notation.arity", "'{kind}' takes one lot", kind=kind)  # reorg, take, free, put
