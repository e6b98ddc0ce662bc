"""Typed actions of Welcome To New Las Vegas.

Every action is a small named tuple whose first field, ``kind``, names it (``"pick"``, ``"open"``...):
``Open(slot=12, change=0) == ("open", 12, 0)``. The tag keeps actions of different kinds apart (a bare
``Loan(True)`` would otherwise equal ``Shuffle(True)``), lets the rules dispatch on ``action[0]``, and
keeps hashing and comparing in C. Construct them by their fields only: ``Pick(0, 0, "e")``,
``Open(SLOT_BY_NAME["2.5"], 1)``, ``Effect("con", s)``, ``SKIP``.

Every action that can ever be legal is built once, here, and the rules hand out those very objects
(``OPENS[s][d + 2]``...), so listing the legal moves allocates nothing but the list.
"""

from __future__ import annotations

from typing import Any, NamedTuple

from .data import CRANE_SLOTS, GOLF_UPGRADES, NUM_SLOTS, STREET_RANGE, UPGRADE_IDS

BONUSES = ("", "e", "f", "x")  # none, easy opening, free action, expansion
LIMO_DIRECTIONS = ("n", "s", "e", "w")
CHANGES = (-2, -1, 0, 1, 2)  # easy opening changes the number by 1 or 2


class _LoanFields(NamedTuple):
    kind: str
    take: bool


class Loan(_LoanFields):
    """The secret bank-loan choice at the start (``loan`` / ``noloan``)."""

    __slots__ = ()

    def __new__(cls, take: bool) -> Loan:
        return tuple.__new__(cls, ("loan", take))

    def __getnewargs__(self) -> tuple[Any, ...]:
        return (self.take,)

    def __repr__(self) -> str:
        return f"Loan(take={self.take!r})"


class _ShuffleFields(NamedTuple):
    kind: str
    shuffle: bool


class Shuffle(_ShuffleFields):
    """A first project completer's vote: reshuffle all 81 cards (``shuffle``) or not (``keep``)."""

    __slots__ = ()

    def __new__(cls, shuffle: bool) -> Shuffle:
        return tuple.__new__(cls, ("shuffle", shuffle))

    def __getnewargs__(self) -> tuple[Any, ...]:
        return (self.shuffle,)

    def __repr__(self) -> str:
        return f"Shuffle(shuffle={self.shuffle!r})"


class _PickFields(NamedTuple):
    kind: str
    number_card: int
    effect_card: int
    bonus: str


class Pick(_PickFields):
    """Play a combination: the number of card ``number_card`` with the effect of ``effect_card``
    (multiplayer: combination a/b/c is ``Pick(k, k)``), optionally spending an opening group on a
    bonus: ``e`` easy opening, ``f`` free action, ``x`` expansion."""

    __slots__ = ()

    def __new__(cls, number_card: int, effect_card: int, bonus: str = "") -> Pick:
        return tuple.__new__(cls, ("pick", number_card, effect_card, bonus))

    def __getnewargs__(self) -> tuple[Any, ...]:
        return (self.number_card, self.effect_card, self.bonus)

    def __repr__(self) -> str:
        return f"Pick(number_card={self.number_card}, effect_card={self.effect_card}, bonus={self.bonus!r})"


class _RefuseFields(NamedTuple):
    kind: str
    card: int


class Refuse(_RefuseFields):
    """No number fits: mark 2 opening boxes. Solo: ``card`` (0-2) goes to ACME; multiplayer: -1."""

    __slots__ = ()

    def __new__(cls, card: int = -1) -> Refuse:
        return tuple.__new__(cls, ("refuse", card))

    def __getnewargs__(self) -> tuple[Any, ...]:
        return (self.card,)

    def __repr__(self) -> str:
        return f"Refuse(card={self.card})"


class _OpenFields(NamedTuple):
    kind: str
    slot: int
    change: int


class Open(_OpenFields):
    """Write the round's number (plus ``change``, easy opening only) in casino ``slot``."""

    __slots__ = ()

    def __new__(cls, slot: int, change: int = 0) -> Open:
        return tuple.__new__(cls, ("open", slot, change))

    def __getnewargs__(self) -> tuple[Any, ...]:
        return (self.slot, self.change)

    def __repr__(self) -> str:
        return f"Open(slot={self.slot}, change={self.change})"


class _ExpandFields(NamedTuple):
    kind: str
    slot: int
    side: str


class Expand(_ExpandFields):
    """Expansion bonus: open ``slot`` copying its left (``l``) or right (``r``) neighbour."""

    __slots__ = ()

    def __new__(cls, slot: int, side: str) -> Expand:
        return tuple.__new__(cls, ("copy", slot, side))

    def __getnewargs__(self) -> tuple[Any, ...]:
        return (self.slot, self.side)

    def __repr__(self) -> str:
        return f"Expand(slot={self.slot}, side={self.side!r})"


class _EffectFields(NamedTuple):
    kind: str
    effect: str
    target: Any


class Effect(_EffectFields):
    """Use an effect: ``op`` (target 0), ``con`` (a crane slot), ``up`` (an upgrade column index),
    ``show`` (show column 0 or 1) or ``limo`` (a direction n/s/e/w)."""

    __slots__ = ()

    def __new__(cls, effect: str, target: Any = 0) -> Effect:
        return tuple.__new__(cls, ("eff", effect, target))

    def __getnewargs__(self) -> tuple[Any, ...]:
        return (self.effect, self.target)

    def __repr__(self) -> str:
        return f"Effect(effect={self.effect!r}, target={self.target!r})"


class _SkipFields(NamedTuple):
    kind: str


class Skip(_SkipFields):
    """Use no effect this round."""

    __slots__ = ()

    def __new__(cls) -> Skip:
        return tuple.__new__(cls, ("skip",))

    def __getnewargs__(self) -> tuple[Any, ...]:
        return ()

    def __repr__(self) -> str:
        return "Skip()"


class _PlanFields(NamedTuple):
    kind: str
    steps: tuple[Any, ...]


class Plan(_PlanFields):
    """Several steps of one round typed at once (``a, 2.5, con 3.6``): all of them or none.
    Accepted from text; never listed among the legal actions (its steps are)."""

    __slots__ = ()

    def __new__(cls, steps: tuple[Any, ...]) -> Plan:
        return tuple.__new__(cls, ("plan", tuple(steps)))

    def __getnewargs__(self) -> tuple[Any, ...]:
        return (self.steps,)

    def __repr__(self) -> str:
        return f"Plan(steps={self.steps!r})"


NewLasVegasAction = Loan | Shuffle | Pick | Refuse | Open | Expand | Effect | Skip | Plan

# -- every action, built once ------------------------------------------------------------------------
LOAN_YES, LOAN_NO = Loan(True), Loan(False)
SHUFFLE_YES, SHUFFLE_NO = Shuffle(True), Shuffle(False)
SKIP = Skip()
EFFECT_OP = Effect("op", 0)
# PICK_ROW[i][j] = the four picks of (i, j), by bonus in BONUSES order.
PICK_ROW = tuple(tuple(tuple(Pick(i, j, b) for b in BONUSES) for j in range(3)) for i in range(3))
REFUSE = {k: Refuse(k) for k in (-1, 0, 1, 2)}
# OPENS[s][d + 2]: open slot s with the number changed by d (-2..2).
OPENS = tuple(tuple(Open(s, d) for d in CHANGES) for s in range(NUM_SLOTS))
EXPAND = {(s, side): Expand(s, side) for s in range(NUM_SLOTS) for side in ("l", "r")}
# EFFECT_CON[s]: cross out the crane of slot s (None where the slot has no crane).
EFFECT_CON = tuple(Effect("con", s) if s in CRANE_SLOTS else None for s in range(NUM_SLOTS))
EFFECT_UP = tuple(Effect("up", c) for c in range(len(UPGRADE_IDS)))
EFFECT_SHOW = (Effect("show", 0), Effect("show", 1))
EFFECT_LIMO = {d: Effect("limo", d) for d in LIMO_DIRECTIONS}


def _expansion_targets() -> list[Expand]:
    """Every (slot, side) an expansion copy can ever take: a neighbour in the same street."""
    out = []
    for a, b in STREET_RANGE:
        for s in range(a, b):
            if s > a:
                out.append(EXPAND[s, "l"])
            if s + 1 < b:
                out.append(EXPAND[s, "r"])
    return out


def all_actions(solo: bool, bank_rule: bool, golf: bool) -> list[Any]:
    """Every action that can ever be legal in a set-up, in a fixed order (the action space)."""
    out: list[Any] = []
    if bank_rule:
        out += [LOAN_YES, LOAN_NO]
    if not solo:
        out += [SHUFFLE_YES, SHUFFLE_NO]
    combos = [(i, j) for i in range(3) for j in range(3) if i != j] if solo else [(k, k) for k in range(3)]
    out += [action for i, j in combos for action in PICK_ROW[i][j]]
    out += [REFUSE[k] for k in ((0, 1, 2) if solo else (-1,))]
    out += [action for row in OPENS for action in row]
    out += _expansion_targets()
    out.append(EFFECT_OP)
    out += [EFFECT_CON[s] for s in CRANE_SLOTS]
    out += [EFFECT_UP[c] for c in range(len(UPGRADE_IDS)) if golf or c not in GOLF_UPGRADES]
    out += list(EFFECT_SHOW)
    out += [EFFECT_LIMO[d] for d in LIMO_DIRECTIONS]
    out.append(SKIP)
    return out
