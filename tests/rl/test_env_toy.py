"""The generic environments on the toy game: PettingZoo's and Gymnasium's own checkers, rewards,
simultaneous rounds seat by seat, the Gymnasium wrapper against bots."""

from __future__ import annotations

import gymnasium
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env
from pettingzoo.test import api_test, parallel_api_test, parallel_seed_test, seed_test

import tabletown.rl as rl
from tabletown.core.game import Result
from tabletown.rl._common import rewards_from_result
from tabletown.rl.gym import TabletownEnv


def test_rewards_mapping():
    assert rewards_from_result(Result((3.0, 1.0), (1, 2)), 2) == [1.0, -1.0]
    assert rewards_from_result(Result((1.0, 1.0), (1, 1)), 2) == [0.0, 0.0]
    assert rewards_from_result(Result((5.0, 3.0, 1.0), (1, 2, 3)), 3) == [1.0, 0.0, -1.0]
    assert rewards_from_result(Result((5.0, 5.0, 1.0), (1, 1, 3)), 3) == [0.5, 0.5, -1.0]
    assert rewards_from_result(Result((1.0,) * 4, (1, 1, 1, 1)), 4) == [0.0] * 4
    assert rewards_from_result(Result((9.0,), (1,)), 1) == [1.0]
    assert rewards_from_result(Result((2.0,), (2,)), 1) == [-1.0]
    assert rewards_from_result(None, 3) == [0.0] * 3


@pytest.mark.parametrize("players", [2, 3])
def test_aec_api(toy, players):
    api_test(rl.env(toy, players), num_cycles=200)
    seed_test(lambda: rl.env(toy, players), num_cycles=200)


def test_parallel_api(toy):
    parallel_api_test(rl.parallel_env(toy, 3), num_cycles=300)
    parallel_seed_test(lambda: rl.parallel_env(toy, 3), num_cycles=100)


def test_gym_checker(toy):
    check_env(TabletownEnv(toy, 2, opponents="greedy"), skip_render_check=True)
    check_env(TabletownEnv(toy, 3, opponents=["random", "greedy"], seat=None), skip_render_check=True)


def play_aec(env, rng):
    env.reset(seed=int(rng.integers(1000)))
    seen = []
    for agent in env.agent_iter():
        obs, reward, term, trunc, _ = env.last()
        if term or trunc:
            env.step(None)
            continue
        legal = np.flatnonzero(obs["action_mask"])
        seen.append((agent, tuple(env.state.to_act)))
        env.step(int(rng.choice(legal)))
    return seen


def test_simultaneous_round_seat_by_seat(toy):
    env = rl.env(toy, 3)
    seen = play_aec(env, np.random.default_rng(1))
    bets = [(agent, acting) for agent, acting in seen if len(acting) > 1]
    assert bets, "the toy game has betting rounds"
    assert all(agent == f"player_{acting[0]}" for agent, acting in seen)


def test_final_rewards_match_result(toy):
    env = rl.env(toy, 3, seed=5)
    rng = np.random.default_rng(5)
    env.reset()
    totals = dict.fromkeys(env.possible_agents, 0.0)
    for agent in env.agent_iter():
        obs, reward, term, trunc, _ = env.last()
        totals[agent] += reward
        env.step(None if term or trunc else int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    expected = rewards_from_result(env.state.result(), 3) if env.state else None
    assert sum(totals.values()) == pytest.approx(0.0)
    assert max(totals.values()) == 1.0
    assert expected is None or list(totals.values()) == expected


def test_illegal_action(toy):
    env = rl.env(toy, 2, seed=1)
    env.reset()
    obs, *_ = env.last()
    illegal = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    env.step(illegal)
    assert all(env.terminations.values())
    assert env._cumulative_rewards[env.agent_selection] == -1.0
    strict = rl.env(toy, 2, seed=1, illegal_action="raise")
    strict.reset()
    with pytest.raises(ValueError):
        strict.step(illegal)


def test_truncation(toy):
    env = rl.env(toy, 2, seed=3)
    env.setup.max_actions = 4
    env.reset()
    for _ in range(4):
        obs, *_ = env.last()
        env.step(int(np.flatnonzero(obs["action_mask"])[0]))  # always roll or bet 0
    assert all(env.truncations.values()) or all(env.terminations.values())


def test_gym_wrapper_plays_to_the_end(toy):
    env = TabletownEnv(toy, 3, opponents="greedy", seat=1, seed=4)
    obs, info = env.reset()
    assert info["seat"] == 1
    rng = np.random.default_rng(0)
    done = False
    steps = 0
    while not done:
        assert obs["action_mask"].any()
        obs, reward, term, trunc, info = env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
        done = term or trunc
        steps += 1
    assert reward in (1.0, -1.0, 0.0, 0.5, -0.5) and steps > 0


def test_gym_unknown_bot(toy):
    with pytest.raises(Exception, match="unknown bot"):
        TabletownEnv(toy, 2, opponents="nobody")


def test_gym_registered():
    for game_id in rl.GYM_IDS.values():
        assert game_id in gymnasium.registry


def test_gym_ids_come_from_the_registry():
    from tabletown.core.registry import all_games

    assert set(rl.GYM_IDS) >= set(all_games()) - {"toy"}
    assert rl.GYM_IDS["machikoro"] == "tabletown/MachiKoro-v0"
    assert rl.GYM_IDS["lordsofvegas"] == "tabletown/LordsOfVegas-v0"
    assert rl.GYM_IDS["newlasvegas"] == "tabletown/NewLasVegas-v0"
    assert rl.GYM_IDS["multicity"] == "tabletown/Multicity-v0"
