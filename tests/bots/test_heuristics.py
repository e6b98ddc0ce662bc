"""Rollout values come from the optional ``State.heuristic()``; Machi Koro's is sane."""

from __future__ import annotations

import random

import pytest
from toygame import TOY

from tabletown.bots.mcts import PRESETS, config_for
from tabletown.core.registry import all_games


def test_the_states_own_heuristic_is_used() -> None:
    state = TOY.new_game(2, {}, seed=0)
    state.scores[:] = [10, 5]
    assert state.heuristic() == [0.5, 0.25]


def test_games_without_an_estimate_say_so() -> None:
    for name, game in all_games().items():
        values = game.new_game(game.min_players, None, seed=1).heuristic()
        assert values is None or len(values) == game.min_players, name


def test_machikoro_heuristic_values_progress() -> None:
    game = all_games()["machikoro"]
    rng = random.Random(0)
    state = game.new_game(2, None, seed=1)
    start = state.heuristic()
    assert start[0] == pytest.approx(start[1]) and 0 < start[0] < 1
    while state.to_act:
        values = state.heuristic()
        assert len(values) == 2 and all(0.0 < v <= 1.0 for v in values)
        seat = state.to_act[0]
        state.apply(seat, rng.choice(state.legal_actions(seat)))
    winner = state.result().winners[0]
    assert state.heuristic()[winner] == 1.0, "a seat with every landmark needs zero more rounds"


def test_every_games_search_tuning_is_well_formed() -> None:
    for name, game in all_games().items():
        assert set(game.search_tuning) <= set(PRESETS), name
        for strength in PRESETS:
            config = config_for(game, strength)
            assert config.root in ("tree", "halving") and config.rollout in ("random", "policy")
            assert config.iterations > 0 and 0 < config.max_seconds < 2.0
            if config.anchor or config.rollout == "policy":
                assert config.policy in game.bots(), (name, strength, config.policy)
            if config.anchor_policy is not None:
                assert config.anchor_policy in game.bots(), (name, strength, config.anchor_policy)
            for key, value in game.search_tuning.get(strength, {}).items():
                assert getattr(config, key) == value
