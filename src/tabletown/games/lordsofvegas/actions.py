"""Lords of Vegas actions: small named tuples, each printed as what it means.

Every action's first field, ``kind``, names it, so ``Build(lot, color) == ("build", lot, color)``: the
tag keeps kinds with the same arguments apart (``Build(3, 1)`` is not ``Sprawl(3, 1)``), the rules
dispatch on it, and hashing and comparing stay in C. Construct them by their fields only. Lots are
numbers 0..47 (``data.LOT_INDEX["a2"]``), colours 0..4 (``data.COLORS``).

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
from typing import Any, NamedTuple

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


class _EndFields(NamedTuple):
    kind: str


class End(_EndFields):
    """End the main phase of the turn (``end``)."""

    __slots__ = ()

    def __new__(cls) -> End:
        return tuple.__new__(cls, ("end",))

    def __getnewargs__(self) -> tuple[Any, ...]:
        return ()

    def __repr__(self) -> str:
        return "End()"


class _PassFields(NamedTuple):
    kind: str


class Pass(_PassFields):
    """Make no offer in the market round after another player's turn (``pass``)."""

    __slots__ = ()

    def __new__(cls) -> Pass:
        return tuple.__new__(cls, ("pass",))

    def __getnewargs__(self) -> tuple[Any, ...]:
        return ()

    def __repr__(self) -> str:
        return "Pass()"


class _AcceptFields(NamedTuple):
    kind: str


class Accept(_AcceptFields):
    """Accept the offer waiting for you (``accept``)."""

    __slots__ = ()

    def __new__(cls) -> Accept:
        return tuple.__new__(cls, ("accept",))

    def __getnewargs__(self) -> tuple[Any, ...]:
        return ()

    def __repr__(self) -> str:
        return "Accept()"


class _RefuseFields(NamedTuple):
    kind: str


class Refuse(_RefuseFields):
    """Refuse the offer waiting for you (``refuse``); a counter-offer is an ``Offer``."""

    __slots__ = ()

    def __new__(cls) -> Refuse:
        return tuple.__new__(cls, ("refuse",))

    def __getnewargs__(self) -> tuple[Any, ...]:
        return ()

    def __repr__(self) -> str:
        return "Refuse()"


class _LayoffFields(NamedTuple):
    kind: str
    half: bool


class Layoff(_LayoffFields):
    """The boss's answer to a bet: lay off half of it to the bank (``layoff``) or not (``nolayoff``)."""

    __slots__ = ()

    def __new__(cls, half: bool) -> Layoff:
        return tuple.__new__(cls, ("layoff", half))

    def __getnewargs__(self) -> tuple[Any, ...]:
        return (self.half,)

    def __repr__(self) -> str:
        return f"Layoff(half={self.half})"


class _BuildFields(NamedTuple):
    kind: str
    lot: int
    color: int


class Build(_BuildFields):
    """Build a casino of colour ``color`` on your lot ``lot`` (``build a2 gold``)."""

    __slots__ = ()

    def __new__(cls, lot: int, color: int) -> Build:
        return tuple.__new__(cls, ("build", lot, color))

    def __getnewargs__(self) -> tuple[Any, ...]:
        return (self.lot, self.color)

    def __repr__(self) -> str:
        return f"Build({LOT_NAMES[self.lot]}, {COLORS[self.color]})"


class _SprawlFields(NamedTuple):
    kind: str
    lot: int
    color: int


class Sprawl(_SprawlFields):
    """Sprawl a ``color`` casino you boss onto the empty unowned lot ``lot`` (``sprawl a5 gold``)."""

    __slots__ = ()

    def __new__(cls, lot: int, color: int) -> Sprawl:
        return tuple.__new__(cls, ("sprawl", lot, color))

    def __getnewargs__(self) -> tuple[Any, ...]:
        return (self.lot, self.color)

    def __repr__(self) -> str:
        return f"Sprawl({LOT_NAMES[self.lot]}, {COLORS[self.color]})"


class _RemodelFields(NamedTuple):
    kind: str
    lot: int
    color: int


class Remodel(_RemodelFields):
    """Remodel the casino holding ``lot`` to ``color`` (``remodel a2 brown``)."""

    __slots__ = ()

    def __new__(cls, lot: int, color: int) -> Remodel:
        return tuple.__new__(cls, ("remodel", lot, color))

    def __getnewargs__(self) -> tuple[Any, ...]:
        return (self.lot, self.color)

    def __repr__(self) -> str:
        return f"Remodel({LOT_NAMES[self.lot]}, {COLORS[self.color]})"


class _ReorgFields(NamedTuple):
    kind: str
    lot: int


class Reorg(_ReorgFields):
    """Reorganize the casino holding ``lot``: every die in it is re-rolled (``reorg a2``)."""

    __slots__ = ()

    def __new__(cls, lot: int) -> Reorg:
        return tuple.__new__(cls, ("reorg", lot))

    def __getnewargs__(self) -> tuple[Any, ...]:
        return (self.lot,)

    def __repr__(self) -> str:
        return f"Reorg({LOT_NAMES[self.lot]})"


class _GambleFields(NamedTuple):
    kind: str
    lot: int
    bet: int


class Gamble(_GambleFields):
    """Bet ``bet`` dollars at another player's casino holding ``lot`` (``gamble a3 4``)."""

    __slots__ = ()

    def __new__(cls, lot: int, bet: int) -> Gamble:
        return tuple.__new__(cls, ("gamble", lot, bet))

    def __getnewargs__(self) -> tuple[Any, ...]:
        return (self.lot, self.bet)

    def __repr__(self) -> str:
        return f"Gamble({LOT_NAMES[self.lot]}, bet={self.bet})"


class _TakeFields(NamedTuple):
    kind: str
    lot: int


class Take(_TakeFields):
    """All your dice are out: move your die from ``lot`` to the tile you gain (``take c5``)."""

    __slots__ = ()

    def __new__(cls, lot: int) -> Take:
        return tuple.__new__(cls, ("take", lot))

    def __getnewargs__(self) -> tuple[Any, ...]:
        return (self.lot,)

    def __repr__(self) -> str:
        return f"Take({LOT_NAMES[self.lot]})"


class _FreeFields(NamedTuple):
    kind: str
    lot: int


class Free(_FreeFields):
    """All your markers are out: free your lot ``lot`` to take the drawn one (``free c4``)."""

    __slots__ = ()

    def __new__(cls, lot: int) -> Free:
        return tuple.__new__(cls, ("free", lot))

    def __getnewargs__(self) -> tuple[Any, ...]:
        return (self.lot,)

    def __repr__(self) -> str:
        return f"Free({LOT_NAMES[self.lot]})"


class _PutFields(NamedTuple):
    kind: str
    lot: int


class Put(_PutFields):
    """After a reorganization: put your highest unplaced value on ``lot`` (``put c5``)."""

    __slots__ = ()

    def __new__(cls, lot: int) -> Put:
        return tuple.__new__(cls, ("put", lot))

    def __getnewargs__(self) -> tuple[Any, ...]:
        return (self.lot,)

    def __repr__(self) -> str:
        return f"Put({LOT_NAMES[self.lot]})"


class _OfferFields(NamedTuple):
    kind: str
    items: tuple[Item, ...]


class Offer(_OfferFields):
    """A trade offer (or counter-offer): a sorted tuple of :class:`Item` (``offer 0>1:$5 1>0:a3``)."""

    __slots__ = ()

    def __new__(cls, items: tuple[Item, ...]) -> Offer:
        return tuple.__new__(cls, ("offer", items))

    def __getnewargs__(self) -> tuple[Any, ...]:
        return (self.items,)

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
        raise MalformedAction("notation.lot", f"no such lot: {lot!r}")


def lot_only(action: tuple) -> int:
    if len(action) == 2:
        lot = action[1]
        if type(lot) is int and 0 <= lot < NUM_LOTS:  # the usual case, checked in one go
            return lot
    if len(action) != 2:
        raise MalformedAction("notation.arity", f"'{action[0]}' takes one lot")
    check_lot(action[1])
    return action[1]


def lot_colour(action: tuple) -> tuple[int, int]:
    if len(action) == 3:
        lot = action[1]
        colour = action[2]
        if type(lot) is int and type(colour) is int and 0 <= lot < NUM_LOTS and 0 <= colour < NUM_COLORS:
            return lot, colour  # the usual case, checked in one go
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
