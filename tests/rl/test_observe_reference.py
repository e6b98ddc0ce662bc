"""The games' fast observations (bytes gathered, converted by NumPy) give exactly the numbers of the
plain reference encoders in ``observe_reference.py``, for every seat, at every position of random
games in several set-ups (New Las Vegas's reference reads the seat's JSON view, so this also holds
its fast encoder to what the seat may know). Observations are fresh arrays, never shared."""

from __future__ import annotations

import random

import numpy as np
import pytest
from observe_reference import REFERENCE

from tabletown.core.registry import get_game

SETUPS = {
    "machikoro": [(2, {}), (3, {"harbor": True}), (4, {})],
    "multicity": [(2, {}), (3, {"deck": 12}), (4, {})],
    "lordsofvegas": [(2, {}), (3, {}), (4, {})],
    "newlasvegas": [(2, {}), (1, {}), (3, {})],
}


def positions(game, players, options, seed):
    """Every position of one random game."""
    rng = random.Random(seed)
    state = game.new_game(players, options, seed)
    while state.to_act:
        yield state
        seat = state.to_act[0]
        state.apply(seat, rng.choice(state.legal_actions(seat)))
    yield state


@pytest.mark.parametrize("name", sorted(REFERENCE))
def test_observations_match_the_reference(name):
    game = get_game(name)
    reference = REFERENCE[name]
    for players, options in SETUPS[name]:
        size = game.observation_size(players, options)
        for seed in (3, 4):
            for state in positions(game, players, options, seed):
                for seat in range(players):
                    fast = state.observation(seat)
                    assert isinstance(fast, np.ndarray) and fast.dtype == np.float32
                    assert fast.shape == (size,)
                    expected = np.asarray(reference(state, seat), dtype=np.float32)
                    assert np.array_equal(fast, expected), (
                        name,
                        players,
                        seat,
                        np.flatnonzero(fast != expected),
                    )


@pytest.mark.parametrize("name", sorted(REFERENCE))
def test_observations_are_fresh_arrays(name):
    """A caller may keep or change an observation: the next one is not affected."""
    game = get_game(name)
    state = game.new_game(2, {}, 5)
    first = state.observation(0)
    kept = first.copy()
    first[:] = 7.0
    again = state.observation(0)
    assert np.array_equal(again, kept)
    assert not np.shares_memory(again, first)
