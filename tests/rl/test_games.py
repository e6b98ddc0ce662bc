"""Every registered game through the learning environments: PettingZoo's api_test and seed_test,
Gymnasium's env checker, New Las Vegas's Parallel environment, and the observations themselves
(fixed length, finite, blind to what the seat may not see). Games whose contract-2 conversion or
numeric observation is not there yet are skipped with the reason."""

from __future__ import annotations

import random

import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env
from pettingzoo.test import api_test, parallel_api_test, seed_test

import tabletown.rl as rl
from tabletown.core.registry import get_game
from tabletown.rl.gym import TabletownEnv

GAMES = ("machikoro", "multicity", "lordsofvegas", "newlasvegas")
# Set-ups to check, kept small so tests/rl stays fast.
SETUPS = {
    "machikoro": [(2, {}), (3, {"harbor": True})],
    "multicity": [(2, {}), (3, {"deck": 12})],
    "lordsofvegas": [(2, {})],
    "newlasvegas": [(2, {}), (1, {})],
}


def ready(name: str, players: int = 2, options=None):
    """The game, or a skip naming what it still lacks."""
    game = get_game(name)
    try:
        game.game_type  # noqa: B018
        game.action_space(players, options)
        game.observation_size(players, options)
    except NotImplementedError as exc:
        pytest.skip(f"{name} is not ready for tabletown.rl yet: {exc}")
    return game


@pytest.mark.parametrize("name", GAMES)
def test_pettingzoo_api(name):
    ready(name)
    api_test(rl.env(name, 2), num_cycles=30)
    seed_test(lambda: rl.env(name, 2), num_cycles=30)


@pytest.mark.parametrize("name", GAMES)
def test_gymnasium_checker(name):
    ready(name)
    check_env(TabletownEnv(name, 2, opponents="random"), skip_render_check=True)


@pytest.mark.parametrize("name", GAMES)
def test_gymnasium_make(name):
    import gymnasium

    ready(name)
    env = gymnasium.make(rl.GYM_IDS[name], opponents="greedy")
    obs, _ = env.reset(seed=3)
    rng = np.random.default_rng(3)
    for _ in range(30):
        obs, reward, term, trunc, _ = env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
        if term or trunc:
            break
    env.close()


def test_parallel_new_las_vegas():
    ready("newlasvegas")
    parallel_api_test(rl.parallel_env("newlasvegas", 3), num_cycles=60)


def play_positions(game, players, options, seed, limit=400):
    """Positions of one random game (every few actions), to look at observations."""
    rng = random.Random(seed)
    state = game.new_game(players, options, seed)
    positions = [state.clone()]
    count = 0
    while state.to_act and count < limit:
        seat = state.to_act[0]
        state.apply(seat, rng.choice(state.legal_actions(seat)))
        count += 1
        if count % 7 == 0 or len(state.to_act) > 1:
            positions.append(state.clone())
    positions.append(state)
    return positions


@pytest.mark.parametrize("name", GAMES)
def test_observations(name):
    from tabletown.rl._common import Setup

    for players, options in SETUPS[name]:
        game = ready(name, players, options)
        size = game.observation_size(players, options)
        setup = Setup(game, players, options)
        for seed in (1, 2):
            for state in play_positions(game, players, options, seed):
                for seat in state.to_act:  # the environments' mask is the state's own
                    mask = setup.observe(state, seat)["action_mask"]
                    assert mask.tobytes() == bytes(state.legal_mask(seat))
                for seat in range(players):
                    obs = state.observation(seat)
                    assert len(obs) == size
                    assert np.isfinite(np.asarray(obs, dtype=np.float64)).all()
                    # What the seat may not see is resampled; what it sees is all it is given.
                    for draw in (11, 12):
                        again = state.determinize(seat, draw).observation(seat)
                        assert np.array_equal(np.asarray(again), np.asarray(obs))


@pytest.mark.parametrize(("name", "players"), [("newlasvegas", 1), ("lordsofvegas", 4), ("multicity", 4)])
def test_other_player_counts(name, players):
    ready(name, players)
    api_test(rl.env(name, players), num_cycles=20)
    if get_game(name).game_type.dynamics == "simultaneous":
        parallel_api_test(rl.parallel_env(name, players), num_cycles=20)
