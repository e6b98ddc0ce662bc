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


_IN_PLAY: dict[tuple[bool, ...], tuple[int, ...]] = {}


def observation(self: MachiKoroState, player: int) -> list[float]:
    n = self.num_players
    t = self.t
    in_play = _IN_PLAY.get(t.in_play)
    if in_play is None:
        in_play = _IN_PLAY[t.in_play] = tuple(i for i, live in enumerate(t.in_play) if live)
    obs: list[float] = []
    cards, coins, lms = self.cards, self.coins, self.lm
    for k in range(n):
        p = (player + k) % n
        city = cards[p]
        lm = lms[p]
        obs.append(coins[p] * 0.1)
        obs += [city[i] * 0.25 for i in in_play]
        obs += [float(lm >> j & 1) for j in range(LANDMARK_BITS)]
    supply = self.supply
    obs += [supply[i] / 6.0 for i in in_play]
    obs += [len(deck) * 0.05 for deck in self.decks]
    current = (self.current - player) % n
    obs += [1.0 if k == current else 0.0 for k in range(n)]
    phase = self.phase
    obs += [1.0 if k == phase else 0.0 for k in range(PHASES)]
    d1, d2 = self.dice
    obs += [d1 / 6.0, d2 / 6.0, self.total / 14.0]
    obs += [float(self.rerolled), float(self.built), float(self.purple_stage), float(self.park_at_start)]
    obs.append(min(self.turn, 200) * 0.01)
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
