"""Machi Koro bots choose legal moves, and greedy clearly beats random."""

import pytest

from tabletown.bots import make_bot
from tabletown.core.session import play_out
from tabletown.games.machikoro import GAME
from tabletown.games.machikoro.bots import STRATEGIES


def play(names, seed, options=None):
    state = GAME.new_game(len(names), options or {}, seed=seed)
    bots = [make_bot(GAME, name, seed * 31 + i) for i, name in enumerate(names)]

    def checked(bot):
        def choose(s, p):
            action = bot.choose(s, p)
            assert action in s.legal_actions(p)
            return action

        return choose

    play_out(state, [checked(b) for b in bots])
    return state.result()


def win_rate(first, second, games, options=None):
    wins = 0
    for seed in range(games):
        seats = [first, second] if seed % 2 == 0 else [second, first]
        result = play(seats, seed, options)
        wins += result.ranks[seats.index(first)] == 1
    return wins / games


def test_greedy_clearly_beats_random():
    assert win_rate("greedy", "random", 200) >= 0.8


def test_greedy_beats_random_with_harbor():
    assert win_rate("greedy", "random", 100, {"harbor": True}) >= 0.8


@pytest.mark.parametrize("strategy", sorted(STRATEGIES))
def test_strategy_bots_play_legal_games_and_beat_random(strategy):
    assert win_rate(f"strategy:{strategy}", "random", 30, {"harbor": strategy == "mine-and-blue"}) >= 0.6


def test_four_player_mixed_table_finishes():
    result = play(["greedy", "random", "strategy:cheese-factory", "strategy:bakery"], seed=3, options={"harbor": True})
    assert len(result.winners) == 1
