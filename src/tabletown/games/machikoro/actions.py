"""Machi Koro actions: small frozen dataclasses and string constants, each printed as what it means.

Cards are named by their short ids (``wheat``, ``cafe``, ``station``), the ids the notation, the
views and the events use. Every action object the rules hand out is made once and shared (the tables
below), so listing moves costs no allocation; ``apply`` also accepts equal values built by hand.

=====================================  ==================================================
``Roll(dice=1)`` / ``Roll(dice=2)``    roll one die / two dice (two needs the Train Station)
``KEEP`` / ``Reroll(dice=1|2)``        Radio Tower: keep the roll or roll again
``ADD2`` / ``NOADD``                   Harbor: add 2 to a roll of 10 or more, or not
``TV(target=seat)``                    TV Station: take 5 coins from that seat
``Swap(mine, seat, theirs)``           Business Center: give your ``mine`` for ``seat``'s ``theirs``
``NOSWAP``                             Business Center: no swap
``Build(card)`` / ``PASS``             build an establishment or landmark, or nothing
=====================================  ==================================================
"""

from __future__ import annotations

from dataclasses import dataclass

from .data import LANDMARK_CODES, establishments

KEEP = "keep"
ADD2 = "add2"
NOADD = "noadd"
NOSWAP = "noswap"
PASS = "pass"
CONSTANTS = frozenset((KEEP, ADD2, NOADD, NOSWAP, PASS))


# Roll, Reroll, TV and Swap are alike on purpose (a field or a few each): each kind its own frozen,
# slotted class, matched by type in the hot paths.
@dataclass(frozen=True, slots=True)
class Roll:
    """Roll ``dice`` dice (1, or 2 with the Train Station)."""

    dice: int


@dataclass(frozen=True, slots=True)
class Reroll:
    """Radio Tower: roll again with ``dice`` dice."""

    dice: int


@dataclass(frozen=True, slots=True)
class TV:
    """TV Station: take 5 coins from seat ``target``."""

    target: int


@dataclass(frozen=True, slots=True)
class Swap:
    """Business Center: give my ``mine`` establishment for seat ``seat``'s ``theirs``."""

    mine: str
    seat: int
    theirs: str


@dataclass(frozen=True, slots=True)
class Build:
    """Build one establishment or landmark, named by its short id."""

    card: str


ACTION_TYPES = (str, Roll, Reroll, TV, Swap, Build)

# --- shared action objects ---------------------------------------------------------------------------
MAX_SEATS = 8  # the notation's seat numbers; games have at most 5 seats
ROLL1, ROLL2 = Roll(1), Roll(2)
REROLL1, REROLL2 = Reroll(1), Reroll(2)
TVS = tuple(TV(seat) for seat in range(MAX_SEATS))
ESTABLISHMENT_CODES = tuple(card.code for card in establishments())
BUILD_ESTABLISHMENT = tuple(Build(code) for code in ESTABLISHMENT_CODES)  # by establishment index
BUILD_LANDMARK = tuple(Build(code) for code in LANDMARK_CODES)  # by landmark bit
ESTABLISHMENT_INDEX = {code: i for i, code in enumerate(ESTABLISHMENT_CODES)}
LANDMARK_INDEX = {code: j for j, code in enumerate(LANDMARK_CODES)}
# SWAPS[mine][seat][theirs]: the Swap of establishment indices (None where mine == theirs).
SWAPS = tuple(
    tuple(
        tuple(
            None if mine == theirs else Swap(mine_code, seat, theirs_code)
            for theirs, theirs_code in enumerate(ESTABLISHMENT_CODES)
        )
        for seat in range(MAX_SEATS)
    )
    for mine, mine_code in enumerate(ESTABLISHMENT_CODES)
)


def swap_action(mine: int, seat: int, theirs: int) -> Swap:
    """The shared Swap for establishment indices ``mine`` and ``theirs`` with ``seat`` (a swap of a
    card for the same kind, never legal, is made afresh)."""
    action = SWAPS[mine][seat][theirs]
    return Swap(ESTABLISHMENT_CODES[mine], seat, ESTABLISHMENT_CODES[theirs]) if action is None else action


_BY_VALUE: dict[object, object] = {}


def shared_action(action: object) -> object | None:
    """The shared action object equal to ``action`` (``Roll(dice=True) == Roll(1)``), or None if
    no Machi Koro action equals it. Never raises."""
    if not _BY_VALUE:
        every = (ROLL1, ROLL2, REROLL1, REROLL2, *TVS, *BUILD_ESTABLISHMENT, *BUILD_LANDMARK, *CONSTANTS)
        _BY_VALUE.update((a, a) for a in every)
        _BY_VALUE.update((a, a) for by_seat in SWAPS for row in by_seat for a in row if a is not None)
    try:
        return _BY_VALUE.get(action)
    except TypeError:  # unhashable junk
        return None
