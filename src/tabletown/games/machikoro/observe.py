"""Machi Koro as numbers for learning agents (tabletown.rl): ``state.observation(seat)``.

Everything in Machi Koro is public except the order of the market decks, so a seat sees: per seat
(its own first, then the others in turn order) coins, establishments per card kind and landmarks
built; the market's open piles per kind and the size of each market deck; whose turn it is
(relative to the seat), the phase, the dice and their total, and the turn's flags. Counts are
scaled to roughly 0..1. The length is fixed per set-up (``game.observation_size``).

``install()`` (run on import) puts ``observation`` on the game's State and ``observation_size`` on
its Game unless the game already defines them; ``tabletown.rl`` imports this module.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .game import MachiKoro
from .rules import OVER, PHASE_NAMES, MachiKoroState

LANDMARK_BITS = 7
PHASES = len(PHASE_NAMES)


def observation(self: MachiKoroState, player: int) -> list[float]:
    n = self.num_players
    t = self.t
    in_play = [i for i, live in enumerate(t.in_play) if live]
    obs: list[float] = []
    for k in range(n):
        p = (player + k) % n
        city = self.cards[p]
        lm = self.lm[p]
        obs.append(self.coins[p] / 10.0)
        obs.extend(city[i] / 4.0 for i in in_play)
        obs.extend(float(lm >> j & 1) for j in range(LANDMARK_BITS))
    supply = self.supply
    obs.extend(supply[i] / 6.0 for i in in_play)
    obs.extend(len(deck) / 20.0 for deck in self.decks)
    current = (self.current - player) % n
    obs.extend(1.0 if k == current else 0.0 for k in range(n))
    phase = self.phase
    obs.extend(1.0 if k == phase else 0.0 for k in range(PHASES))
    d1, d2 = self.dice
    obs += [d1 / 6.0, d2 / 6.0, self.total / 14.0]
    obs += [float(self.rerolled), float(self.built), float(self.purple_stage), float(self.park_at_start)]
    obs.append(min(self.turn, 200) / 100.0)
    obs.append(1.0 if phase == OVER and self.winner == player else 0.0)
    return obs


def observation_size(self: MachiKoro, num_players: int, options: Mapping[str, Any] | None = None) -> int:
    resolved = self.resolve_options(num_players, options)
    key = (num_players, tuple(sorted(resolved.items())))
    cache = self.__dict__.setdefault("_cache_observation_sizes", {})
    if key not in cache:
        cache[key] = len(self.new_game(num_players, resolved, 0).observation(0))
    return cache[key]


def install() -> None:
    if "observation" not in MachiKoroState.__dict__:
        MachiKoroState.observation = observation
    if "observation_size" not in MachiKoro.__dict__:
        MachiKoro.observation_size = observation_size


install()
