"""Machi Koro's dice as explicit chance for ``bot:search`` (``tabletown.bots.search``).

``outcomes(state, seat, action)`` lists, for a roll or a Radio Tower re-roll, every outcome the rules
can tell apart with its probability, and a ``force`` that applies the move with that outcome: one die
has 6 faces; two dice have 15 classes, the 11 sums split by doubles (the rules read only the total
and whether the dice match: the Amusement Park's extra turn). Any other move: ``None``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ...core.rng import SeededRNG
from .actions import Reroll, Roll
from .phases import REROLL, ROLL
from .state import MachiKoroState


class ForcedDice:
    """A stand-in generator: ``die()`` returns the scripted faces, then draws from ``rest``; every
    other draw (a Harbor tuna roll, say) comes from ``rest``."""

    __slots__ = ("faces", "rest")

    def __init__(self, faces: Sequence[int], rest: SeededRNG) -> None:
        self.faces = list(faces)
        self.rest = rest

    def die(self) -> int:
        if self.faces:
            return self.faces.pop(0)
        return self.rest.die()

    def clone(self) -> ForcedDice:
        return ForcedDice(self.faces, self.rest.clone())

    def __getattr__(self, name: str) -> Any:
        return getattr(self.rest, name)


def _classes(dice: int) -> list[tuple[float, tuple[int, ...]]]:
    if dice == 1:
        return [(1 / 6, (face,)) for face in range(1, 7)]
    out: list[tuple[float, tuple[int, ...]]] = []
    for total in range(2, 13):
        pairs = [(a, total - a) for a in range(1, 7) if 1 <= total - a <= 6]
        doubles = [pair for pair in pairs if pair[0] == pair[1]]
        others = [pair for pair in pairs if pair[0] != pair[1]]
        if doubles:
            out.append((1 / 36, doubles[0]))
        if others:
            out.append((len(others) / 36, others[0]))
    return out


ONE_DIE = _classes(1)
TWO_DICE = _classes(2)


def _forcer(faces: tuple[int, ...]) -> Any:
    def force(state: MachiKoroState, seat: int, action: Any, rest: SeededRNG) -> None:
        state.rng = ForcedDice(faces, rest)  # type: ignore[assignment]  # duck-typed for the roll only
        try:
            state.apply(seat, action)
        finally:
            state.rng = rest

    return force


_ONE = [(p, _forcer(faces)) for p, faces in ONE_DIE]
_TWO = [(p, _forcer(faces)) for p, faces in TWO_DICE]


def outcomes(state: MachiKoroState, seat: int, action: Any) -> list[tuple[float, Any]] | None:
    kind = type(action)
    if kind is Roll and state.phase == ROLL or kind is Reroll and state.phase == REROLL:
        if action.dice == 1:
            return _ONE
        if action.dice == 2:
            return _TWO
    return None
