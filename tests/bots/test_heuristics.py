"""Rollout values: a state's own heuristic wins over an adapter; the Machi Koro adapter is sane."""

from __future__ import annotations

import random

import pytest
from toygame import TOY

from tabletown.bots.heuristics import heuristic_for
from tabletown.core.registry import all_games


def test_the_states_own_heuristic_is_used() -> None:
    state = TOY.new_game(2, {}, seed=0)
    state.scores[:] = [10, 5]
    heuristic = heuristic_for(state)
    assert heuristic is not None
    assert heuristic(state) == [0.5, 0.25]


def test_machikoro_adapter_values_progress() -> None:
    game = all_games().get("machikoro")
    if game is None:
        pytest.skip("Machi Koro is not installed")
    rng = random.Random(0)
    state = game.new_game(2, None, seed=1)
    heuristic = heuristic_for(state)
    assert heuristic is not None
    start = heuristic(state)
    assert start[0] == pytest.approx(start[1]) and 0 < start[0] < 1
    while state.to_act:
        values = heuristic(state)
        assert len(values) == 2 and all(0.0 < v <= 1.0 for v in values)
        seat = state.to_act[0]
        state.apply(seat, rng.choice(state.legal_actions(seat)))
    winner = state.result().winners[0]
    assert heuristic(state)[winner] == 1.0, "a seat with every landmark needs zero more rounds"
