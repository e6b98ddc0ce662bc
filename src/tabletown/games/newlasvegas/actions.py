"""Typed actions of Welcome To New Las Vegas: small frozen, slotted dataclasses.

Each class names its kind in the class attribute ``kind`` (``Open.kind == "open"``); the rules
dispatch on the class and read the fields by name. Construct them by their fields: ``Pick(0, 0, "e")``,
``Open(SLOT_BY_NAME["2.5"], 1)``, ``Effect("con", s)``, ``SKIP``.

Values are interned: building an action equal to one that exists hands out that very object
(``Open(12) is OPENS[12][2]``, ``Loan(1) is LOAN_YES``; copies and pickles too), so equal values are
identical and the default identity equality and hashing (in C, faster than a tuple's) compare by
value. A ``Loan(True)`` is still not a ``Shuffle(True)``. Every action that can ever be legal is built
once, here, and the rules hand out those objects (``OPENS[s][d + 2]``...), so listing the legal moves
allocates nothing but the list. Each action keeps its tuple form ``(kind, *fields)``
(``Open(12, 0).key == ("open", 12, 0)``, the encoding before the dataclasses), which ``apply`` also
takes (:func:`from_tuple`).
"""

from __future__ import annotations

import dataclasses
import threading
from dataclasses import dataclass
from typing import Any, ClassVar, TypeAlias
from weakref import WeakValueDictionary

from ...core.errors import MalformedAction
from ...core.i18n import N_
from .data import CRANE_SLOTS, GOLF_UPGRADES, NUM_SLOTS, STREET_RANGE, UPGRADE_IDS

BONUSES = ("", "e", "f", "x")  # none, easy opening, free action, expansion
LIMO_DIRECTIONS = ("n", "s", "e", "w")
CHANGES = (-2, -1, 0, 1, 2)  # easy opening changes the number by 1 or 2

_set = object.__setattr__
_NO_DEFAULT = dataclasses.MISSING
# Every action alive, by its tuple form: the module's tables hold theirs for good.
_INTERNED: WeakValueDictionary[tuple[Any, ...], _Action] = WeakValueDictionary()
_INTERNING = threading.Lock()  # two threads making the same new value must get one object


class _Action:
    """What every action shares: construction that interns (the dataclasses make no ``__init__``),
    the tuple form ``key``, and copies and pickles built again by the constructor."""

    __slots__ = ("__weakref__",)
    kind: ClassVar[str]
    __match_args__: ClassVar[tuple[str, ...]]
    _defaults: ClassVar[tuple[Any, ...]]  # each field's default (``_NO_DEFAULT``: none), set below

    def __new__(cls, *args: Any, **kwargs: Any) -> Any:
        names = cls.__match_args__
        if len(args) > len(names):
            raise TypeError(f"{cls.__name__} takes {len(names)} fields")
        values = list(args)
        for name, default in zip(names[len(args) :], cls._defaults[len(args) :], strict=True):
            value = kwargs.pop(name, default)
            if value is _NO_DEFAULT:
                raise TypeError(f"{cls.__name__} needs its field {name!r}")
            values.append(value)
        if kwargs:
            raise TypeError(f"{cls.__name__} has no field (or two values for) {', '.join(kwargs)}")
        if cls is Plan:
            values[0] = tuple(values[0])
        key = (cls.kind, *values)
        found = _INTERNED.get(key)  # a value that cannot be hashed is refused here (TypeError)
        if found is None:
            with _INTERNING:
                found = _INTERNED.get(key)
                if found is None:
                    found = object.__new__(cls)
                    for name, value in zip(names, values, strict=True):
                        _set(found, name, value)
                    _INTERNED[key] = found
        return found

    @property
    def key(self) -> tuple[Any, ...]:
        """The tuple form ``(kind, *fields)``."""
        return (self.kind, *[getattr(self, name) for name in self.__match_args__])

    def __reduce__(self) -> tuple[Any, ...]:
        return (self.__class__, self.key[1:])


# The classes below are alike on purpose (Loan ~ Shuffle ~ ...): one frozen, slotted class per kind,
# so an action's type says its kind.
@dataclass(frozen=True, slots=True, eq=False, init=False)
class Loan(_Action):
    """The secret bank-loan choice at the start (``loan`` / ``noloan``)."""

    # i18n: the kinds of action name the step a refusal expected ("now is the pick step, not loan")
    kind: ClassVar[str] = N_("loan")
    take: bool

    def __repr__(self) -> str:
        return f"Loan(take={self.take!r})"


# Alike Loan above on purpose (a class per kind).
@dataclass(frozen=True, slots=True, eq=False, init=False)
class Shuffle(_Action):
    """A first project completer's vote: reshuffle all 81 cards (``shuffle``) or not (``keep``)."""

    kind: ClassVar[str] = N_("shuffle")
    shuffle: bool

    def __repr__(self) -> str:
        return f"Shuffle(shuffle={self.shuffle!r})"


@dataclass(frozen=True, slots=True, eq=False, init=False)
class Pick(_Action):
    """Play a combination: the number of card ``number_card`` with the effect of ``effect_card``
    (multiplayer: combination a/b/c is ``Pick(k, k)``), optionally spending an opening group on a
    bonus: ``e`` easy opening, ``f`` free action, ``x`` expansion."""

    kind: ClassVar[str] = N_("pick")
    number_card: int
    effect_card: int
    bonus: str = ""

    def __repr__(self) -> str:
        return f"Pick(number_card={self.number_card}, effect_card={self.effect_card}, bonus={self.bonus!r})"


@dataclass(frozen=True, slots=True, eq=False, init=False)
class Refuse(_Action):
    """No number fits: mark 2 opening boxes. Solo: ``card`` (0-2) goes to ACME; multiplayer: -1."""

    kind: ClassVar[str] = N_("refuse")
    card: int = -1

    def __repr__(self) -> str:
        return f"Refuse(card={self.card})"


@dataclass(frozen=True, slots=True, eq=False, init=False)
class Open(_Action):
    """Write the round's number (plus ``change``, easy opening only) in casino ``slot``."""

    kind: ClassVar[str] = N_("open")
    slot: int
    change: int = 0

    def __repr__(self) -> str:
        return f"Open(slot={self.slot}, change={self.change})"


@dataclass(frozen=True, slots=True, eq=False, init=False)
class Expand(_Action):
    """Expansion bonus: open ``slot`` copying its left (``l``) or right (``r``) neighbour."""

    kind: ClassVar[str] = N_("copy")
    slot: int
    side: str

    def __repr__(self) -> str:
        return f"Expand(slot={self.slot}, side={self.side!r})"


@dataclass(frozen=True, slots=True, eq=False, init=False)
class Effect(_Action):
    """Use an effect: ``op`` (target 0), ``con`` (a crane slot), ``up`` (an upgrade column index),
    ``show`` (show column 0 or 1) or ``limo`` (a direction n/s/e/w)."""

    # i18n: an action using a card's effect (a step named in a refusal, short for "effect")
    kind: ClassVar[str] = N_("eff")
    effect: str
    target: Any = 0

    def __repr__(self) -> str:
        return f"Effect(effect={self.effect!r}, target={self.target!r})"


@dataclass(frozen=True, slots=True, eq=False, init=False)
class Skip(_Action):
    """Use no effect this round."""

    kind: ClassVar[str] = N_("skip")

    def __repr__(self) -> str:
        return "Skip()"


@dataclass(frozen=True, slots=True, eq=False, init=False)
class Plan(_Action):
    """Several steps of one round typed at once (``a, 2.5, con 3.6``): all of them or none.
    Accepted from text; never listed among the legal actions (its steps are)."""

    kind: ClassVar[str] = N_("plan")
    steps: tuple[Any, ...]

    def __repr__(self) -> str:
        return f"Plan(steps={self.steps!r})"


NewLasVegasAction: TypeAlias = Loan | Shuffle | Pick | Refuse | Open | Expand | Effect | Skip | Plan
ACTION_TYPES = (Loan, Shuffle, Pick, Refuse, Open, Expand, Effect, Skip, Plan)
BY_KIND: dict[str, type[NewLasVegasAction]] = {cls.kind: cls for cls in ACTION_TYPES}
for _cls in ACTION_TYPES:
    _cls._defaults = tuple(field.default for field in dataclasses.fields(_cls))

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


def from_tuple(move: tuple[Any, ...]) -> NewLasVegasAction:
    """The typed action of the tuple form ``(kind, *fields)`` (``("open", 12, 0)``);
    :class:`MalformedAction` for a tuple that is no New Las Vegas action."""
    cls = BY_KIND.get(move[0]) if move and isinstance(move[0], str) else None
    if cls is None:
        raise MalformedAction("nlv.malformed", "not a New Las Vegas action: {action!r}", action=move)
    try:
        return cls(*move[1:])
    except TypeError:  # the wrong number of fields, or a field that cannot be hashed
        raise MalformedAction(
            "nlv.malformed", "not a New Las Vegas action: {action!r}", action=move
        ) from None
