"""Machi Koro as numbers for learning agents (tabletown.rl): ``state.observation(seat)``.

Everything in Machi Koro is public except the order of the market decks, so a seat sees: per seat
(its own first, then the others in turn order) coins, establishments per card kind and landmarks
built; the market's open piles per kind and the size of each market deck; whose turn it is
(relative to the seat), the phase, the dice and their total, and the turn's flags. Counts are
scaled to roughly 0..1. The length is fixed per set-up (``game.observation_size``).

``install()`` (run when the game's package imports this module) puts ``observation`` on the
game's State; ``Game.observation_size`` measures its length.
"""

from __future__ import annotations

from operator import itemgetter
from typing import Any

from .rules import OVER, PHASE_NAMES, MachiKoroState

LANDMARK_BITS = 7
PHASES = len(PHASE_NAMES)


# Lookup tables, so that the hot loop runs in C (itemgetter, map) rather than in Python.
_QUARTERS = tuple(k * 0.25 for k in range(64))
_SIXTHS = tuple(k / 6.0 for k in range(64))
_LANDMARKS = tuple([float(lm >> j & 1) for j in range(LANDMARK_BITS)] for lm in range(1 << LANDMARK_BITS))
_ONE_HOT = {
    size: tuple([1.0 if k == at else 0.0 for k in range(size)] for at in range(size))
    for size in (2, 3, 4, 5, PHASES)
}
_PICK: dict[tuple[bool, ...], Any] = {}


def _picker(in_play: tuple[bool, ...]) -> Any:
    """An itemgetter of the card kinds in play (always a tuple, even for one kind)."""
    picker = _PICK.get(in_play)
    if picker is None:
        kinds = [i for i, live in enumerate(in_play) if live]
        getter = itemgetter(*kinds)
        picker = _PICK[in_play] = getter if len(kinds) > 1 else (lambda row: (getter(row),))
    return picker


def observation(self: MachiKoroState, player: int) -> list[float]:
    n = self.num_players
    pick = _picker(self.t.in_play)
    quarter = _QUARTERS.__getitem__
    obs: list[float] = []
    cards, coins, lms = self.cards, self.coins, self.lm
    for k in range(n):
        p = (player + k) % n
        obs.append(coins[p] * 0.1)
        obs += map(quarter, pick(cards[p]))
        obs += _LANDMARKS[lms[p]]
    obs += map(_SIXTHS.__getitem__, pick(self.supply))
    obs += [len(deck) * 0.05 for deck in self.decks]
    obs += _ONE_HOT[n][(self.current - player) % n]
    phase = self.phase
    obs += _ONE_HOT[PHASES][phase]
    d1, d2 = self.dice
    obs += [d1 / 6.0, d2 / 6.0, self.total / 14.0]
    obs += [float(self.rerolled), float(self.built), float(self.purple_stage), float(self.park_at_start)]
    obs.append(min(self.turn, 200) * 0.01)
    obs.append(1.0 if phase == OVER and self.winner == player else 0.0)
    return obs


def install() -> None:
    if "observation" not in MachiKoroState.__dict__:
        MachiKoroState.observation = observation


install()
