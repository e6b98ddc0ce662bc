"""Bots pick legal actions; greedy builds, answers offers by its evaluation and clearly beats random."""

from __future__ import annotations

import pytest

from tabletown.bots import make_bot
from tabletown.core.session import play_out
from tabletown.games.lordsofvegas import GAME
from tabletown.games.lordsofvegas.actions import ACCEPT, REFUSE
from tabletown.games.lordsofvegas.bots import GreedyBot, evaluate
from tabletown.testing import legal_checked, win_rate

from .helpers import act, blank, mark, put


@pytest.mark.parametrize(("players", "options"), [(2, {}), (4, {}), (3, {"open_market": True})])
def test_greedy_only_picks_legal_actions(players: int, options: dict) -> None:
    for seed in range(6):
        state = GAME.new_game(players, options, seed=seed)
        bots = [make_bot(GAME, "greedy" if i % 2 == 0 else "random", seed + i) for i in range(players)]
        play_out(state, [legal_checked(bot) for bot in bots])
        assert state.is_over


def test_greedy_builds_when_it_can() -> None:
    deck = [f"{b}{i}" for b, n in (("b", 6), ("c", 12), ("d", 9), ("e", 6)) for i in range(1, n + 1)]
    state = blank(2, money=30, deck=deck)
    mark(state, 0, "a2")
    action = GreedyBot(1).choose(state, 0)
    assert action.kind == "build" and action.lot == 1


def test_greedy_answers_offers_by_its_evaluation() -> None:
    state = blank(2, money=20, deck=[f"c{i}" for i in range(1, 13)])
    put(state, "a1", "gold", 1, 6)
    put(state, "a2", "gold", 1, 2)
    bot = GreedyBot(3)
    act(state, 0, "offer 0>1:$1 1>0:die-a1")  # its boss die for $1: refuse
    assert bot.choose(state, 1) == REFUSE
    act(state, 1, "refuse")
    act(state, 0, "offer 0>1:$15 1>0:die-a2")  # a small die for a lot of money: accept
    assert bot.choose(state, 1) == ACCEPT


def test_evaluation_prefers_being_boss() -> None:
    state = blank(2, money=0, deck=[f"c{i}" for i in range(1, 13)])
    put(state, "a1", "gold", 0, 6)
    put(state, "a2", "gold", 1, 2)
    mine = evaluate(state, 0)
    theirs = evaluate(state, 1)
    assert mine > theirs


@pytest.mark.parametrize("first_seed", [0, 100])
def test_greedy_clearly_beats_random(first_seed: int) -> None:
    """200 two-player games in two halves (so xdist can spread them): greedy wins at least 80%."""
    assert win_rate(GAME, "greedy", "random", 100, first_seed=first_seed) >= 0.8


def test_greedy_wins_four_player_games_against_random() -> None:
    assert win_rate(GAME, "greedy", "random", 40, players=4) >= 0.6
