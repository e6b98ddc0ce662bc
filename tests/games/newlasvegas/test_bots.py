"""The bots choose only legal actions, and greedy clearly beats random."""

from __future__ import annotations

from tabletown.bots import make_bot
from tabletown.core.record import Record, verify
from tabletown.core.session import play_out
from tabletown.testing import legal_checked

from .helpers import GAME, new


def test_greedy_beats_random_two_players():
    games, wins = 40, 0
    for seed in range(games):
        state = new(2, seed)
        g = seed % 2
        agents = [
            legal_checked(make_bot(GAME, "greedy" if p == g else "random", seed * 7 + p)) for p in range(2)
        ]
        play_out(state, agents)
        wins += state.result().ranks[g] == 1
    assert wins >= 0.7 * games


def test_greedy_solo_and_first_game_records_replay():
    for players, options in ((1, {"architect": 7}), (3, {"first_game": True})):
        state = GAME.new_game(players, options, 5)
        rec = Record.start(state, ["bot:greedy"] * players)
        play_out(state, [legal_checked(make_bot(GAME, "greedy", p)) for p in range(players)], rec)
        assert state.is_over and verify(rec) == []
