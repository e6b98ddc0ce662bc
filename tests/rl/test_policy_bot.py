"""A policy file as a bot: saved and loaded without PyTorch, plays legal moves through the seat-safe
driver loop, refuses files for another game or set-up."""

from __future__ import annotations

import numpy as np
import pytest

from tabletown.bots import make_bot
from tabletown.core.errors import OptionError
from tabletown.core.registry import get_game
from tabletown.core.session import play_bots
from tabletown.rl.policy_bot import Policy, PolicyBot, policy_bot, random_policy, register_policy


def test_make_bot_knows_the_policy_prefix(tmp_path):
    """``make_bot(game, "policy:FILE")`` reaches rl.policy_bot through the bots' prefix table (the
    bots import nothing of rl)."""
    path = tmp_path / "prefix.npz"
    game = get_game("machikoro")
    random_policy(game, 2).save(path)
    bot = make_bot(game, f"bot:policy:{path}@sample", 4)
    assert isinstance(bot, PolicyBot) and bot.sample and bot.name == f"policy:{path}@sample"


@pytest.mark.parametrize("name", ["machikoro", "multicity"])
def test_policy_file_plays_a_game(tmp_path, name):
    game = get_game(name)
    path = tmp_path / f"{name}.npz"
    random_policy(game, 2, seed=1).save(path)
    loaded = Policy.load(path)
    assert loaded.fits(game, 2, {})
    bots = [policy_bot(game, str(path), 1), make_bot(game, "random", 2)]
    state = play_bots(game.new_game(2, {}, 5), bots, seed=5)
    assert state.is_over
    sampled = play_bots(game.new_game(2, {}, 6), [policy_bot(game, f"{path}@sample", 3), bots[1]], seed=6)
    assert sampled.is_over


def test_policy_is_deterministic_and_masked(tmp_path):
    game = get_game("machikoro")
    policy = random_policy(game, 2, seed=2)
    bot = PolicyBot(policy)
    state = game.new_game(2, {}, 3)
    seat = state.to_act[0]
    assert bot.choose(state, seat) == bot.choose(state.clone(), seat)
    assert bot.choose(state, seat) in state.legal_actions(seat)
    legal = np.flatnonzero(np.frombuffer(bytes(state.legal_mask(seat)), dtype=np.bool_))
    assert policy.probabilities(
        np.asarray(state.observation(seat), np.float32), legal
    ).sum() == pytest.approx(1.0)


def test_policy_refuses_other_games_and_junk(tmp_path):
    path = tmp_path / "mk.npz"
    random_policy(get_game("machikoro"), 2).save(path)
    with pytest.raises(OptionError, match="policy for machikoro"):
        policy_bot(get_game("multicity"), str(path), 0)
    with pytest.raises(OptionError, match="cannot load"):
        policy_bot(get_game("machikoro"), str(tmp_path / "missing.npz"), 0)
    with pytest.raises(OptionError, match="best' or 'sample"):
        policy_bot(get_game("machikoro"), f"{path}@fast", 0)
    three = policy_bot(get_game("machikoro"), str(path), 0)
    state = get_game("machikoro").new_game(3, {}, 1)
    with pytest.raises(OptionError, match="another set-up"):
        three.choose(state, state.to_act[0])


def test_register_policy_makes_a_bot_name(tmp_path):
    path = tmp_path / "mk.npz"
    random_policy(get_game("machikoro"), 2).save(path)
    from tabletown.bots import GENERIC_BOTS

    name = register_policy(str(path))
    try:
        assert name == f"policy:{path}"
        assert isinstance(make_bot(get_game("machikoro"), f"bot:{name}", 4), PolicyBot)
    finally:
        GENERIC_BOTS.pop(name, None)


@pytest.mark.parametrize("name", ["machikoro", "multicity"])
def test_afterstate_file_plays_a_game(tmp_path, name):
    from tabletown.rl.policy_bot import ValuePolicy, random_value_policy

    game = get_game(name)
    path = tmp_path / f"{name}-values.npz"
    random_value_policy(game, 2, seed=1).save(path)
    assert isinstance(Policy.load(path), ValuePolicy)
    bots = [policy_bot(game, str(path), 1), make_bot(game, "random", 2)]
    state = play_bots(game.new_game(2, {}, 7), bots, seed=7, max_actions=60, stop_after=60)
    assert state.is_over or len(state.log) > 0


@pytest.mark.parametrize("name", ["machikoro", "multicity"])
def test_shipped_policies_fit_the_games(name):
    """examples/policies/*.npz were trained on today's observations: a change of an encoder's
    layout must come with retrained files (examples/train_policy.py)."""
    from pathlib import Path

    path = Path(__file__).parents[2] / "examples" / "policies" / f"{name}.npz"
    game = get_game(name)
    assert Policy.load(path).fits(game, 2, {})
    state = play_bots(
        game.new_game(2, {}, 11),
        [policy_bot(game, str(path), 1), make_bot(game, "random", 2)],
        seed=11,
        max_actions=40,
        stop_after=40,
    )
    assert state.log
