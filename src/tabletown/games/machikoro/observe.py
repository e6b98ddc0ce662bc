"""Machi Koro as numbers for learning agents (tabletown.rl): ``state.observation(seat)``.

Everything in Machi Koro is public except the order of the market decks, so a seat sees: per seat
(its own first, then the others in turn order) coins, establishments per card kind and landmarks
built; the market's open piles per kind and the size of each market deck; whose turn it is
(relative to the seat), the phase, the dice and their total, and the turn's flags. Counts are
scaled to roughly 0..1. The length is fixed per set-up (``game.observation_size``).

Layout, for ``n`` seats and the ``K`` card kinds in play (79 numbers for two players without the
Harbor):

* per seat, own first: coins / 10, establishments per kind / 4 (``K``), landmark bits (7);
* open market piles per kind / 6 (``K``), market deck sizes / 20 (one per deck);
* whose turn (one-hot of ``n``, relative), phase (one-hot of 7), die 1 / 6, die 2 / 6, total / 14;
* rerolled, built, purple stage, park at start of turn; turn / 100 (at most 2); won (the seat).

Speed: the engine plays a move in a few microseconds, so the observation must not cost many times
that. Every number but the coins is a function of one small whole number of the state (a count, a
landmark bitmask, the phase...), so the state's numbers are gathered into bytes, one per output
(``[phase] * 7`` for the phase's one-hot), and one table look-up in NumPy turns them all into floats
at once. The engine contract finds ``observation`` here on the first ``state.observation()`` call (core.game); ``Game.observation_size`` measures its length.
"""

from __future__ import annotations

from collections.abc import Callable
from operator import itemgetter
from typing import Any

import numpy as np

from ...core.observation import byte_tables
from .phases import OVER, PHASE_NAMES
from .state import MachiKoroState

LANDMARK_BITS = 7
PHASES = len(PHASE_NAMES)
TURN_CAP = 200


class _Plan:
    """How one set-up (seats, card kinds in play, market decks) turns bytes into the observation:
    ``table[256 * j + v]`` is output ``j``'s number for the byte ``v``."""

    __slots__ = ("tables", "pick", "table", "base", "coins_at")

    def __init__(self, tables: Any, n: int, decks: int) -> None:
        self.tables = tables
        kinds = [i for i, live in enumerate(tables.in_play) if live]
        getter = itemgetter(*kinds)
        self.pick: Callable[[Any], Any] = getter if len(kinds) > 1 else (lambda row: (getter(row),))
        scaled: list[Callable[[int], float]] = []
        self.coins_at: list[int] = []
        for _ in range(n):
            self.coins_at.append(len(scaled))
            scaled.append(lambda v: 0.0)  # coins: written apart (they may pass 255)
            scaled += [lambda v: v * 0.25] * len(kinds)
            scaled += [lambda v, j=j: float(v >> j & 1) for j in range(LANDMARK_BITS)]  # type: ignore[misc]  # mypy cannot type a lambda's bound default
        scaled += [lambda v: v / 6.0] * len(kinds)
        scaled += [lambda v: v * 0.05] * decks
        scaled += [lambda v, k=k: 1.0 if v == k else 0.0 for k in range(n)]  # type: ignore[misc]  # mypy cannot type a lambda's bound default
        scaled += [lambda v, k=k: 1.0 if v == k else 0.0 for k in range(PHASES)]  # type: ignore[misc]  # mypy cannot type a lambda's bound default
        scaled += [lambda v: v / 6.0, lambda v: v / 6.0, lambda v: v / 14.0]
        scaled += [float] * 4  # rerolled, built, purple stage, park at start
        scaled += [lambda v: v * 0.01, float]  # turn, won
        self.table, self.base = byte_tables(scaled)


# Plans by the identity of the game's shared tables (kept alive by the plan), seats and decks.
_PLANS: dict[tuple[int, int, int], _Plan] = {}
_LANDMARKS = tuple((lm,) * LANDMARK_BITS for lm in range(1 << LANDMARK_BITS))
_ONE_HOT_BYTES = {size: tuple((k,) * size for k in range(size)) for size in (1, 2, 3, 4, 5, 6, 7, 8, PHASES)}


def _plan(tables: Any, n: int, decks: int) -> _Plan:
    plan = _PLANS.get((id(tables), n, decks))
    if plan is None or plan.tables is not tables:
        plan = _PLANS[(id(tables), n, decks)] = _Plan(tables, n, decks)
    return plan


def observation(self: MachiKoroState, player: int) -> np.ndarray:
    """A float32 array (see the module for the layout)."""
    n = self.num_players
    decks = self.decks
    plan = _plan(self.t, n, len(decks))
    pick = plan.pick
    cards, lms = self.cards, self.lm
    raw: list[int] = []
    for k in range(n):
        p = (player + k) % n
        raw += (0, *pick(cards[p]), *_LANDMARKS[lms[p]])  # 0: the coins' place (written below)
    phase, turn = self.phase, self.turn
    raw += (
        *pick(self.supply),
        *map(len, decks),
        *_ONE_HOT_BYTES[n][(self.current - player) % n],
        *_ONE_HOT_BYTES[PHASES][phase],
        *self.dice,
        self.total,
        self.rerolled,
        self.built,
        self.purple_stage,
        self.park_at_start,
        turn if turn < TURN_CAP else TURN_CAP,
        phase == OVER and self.winner == player,
    )
    obs = plan.table.take(np.frombuffer(bytes(raw), dtype=np.uint8) + plan.base)
    coins = self.coins
    for k, at in enumerate(plan.coins_at):
        obs[at] = coins[(player + k) % n] * 0.1
    return obs
