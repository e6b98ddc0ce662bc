"""For every registered game (and the test-only toy game): resampling hidden information never changes
what a seat can see, leaves the original alone, and every bot only ever picks legal actions.

Random seeded games are played; at sampled states, for each seat ``p``:
``state.determinize(p, seed).view(p) == state.view(p)``, and the determinized copy can be played to
its end without touching the original. Bots (random, the game's own, and a small search) are asked for
a move at sampled states and must answer with one of ``legal_actions``.
"""

from __future__ import annotations

import random
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parents[1] / "arena"))
import toygame  # noqa: E402

from tabletown.bots import make_bot  # noqa: E402
from tabletown.bots.mcts import MCTSBot, SearchConfig  # noqa: E402
from tabletown.core.bench import random_playout  # noqa: E402
from tabletown.core.game import Game, State  # noqa: E402
from tabletown.core.record import state_digest  # noqa: E402
from tabletown.core.registry import all_games  # noqa: E402

GAMES: dict[str, Game] = {**all_games(), toygame.TOY.name: toygame.TOY}
TINY_SEARCH = SearchConfig(iterations=6, max_seconds=5.0, rollout_cap=30)
TINY_HALVING = SearchConfig(iterations=6, max_seconds=5.0, rollout_cap=30, root="halving", anchor=True)
GAMES_PER_COUNT = 4
MAX_SAMPLES_PER_GAME = 12


def player_counts(game: Game) -> list[int]:
    return sorted({game.min_players, game.max_players})


def sampled_states(game: Game, players: int, seed: int) -> list[State]:
    """States met along random games, sampled roughly every few actions (decision points only)."""
    rng = random.Random(seed)
    found: list[State] = []
    for number in range(GAMES_PER_COUNT):
        state = game.new_game(players, None, seed=seed * 1000 + number)
        steps = 0
        while state.to_act and steps < 5000:
            if rng.random() < 0.08 and len(found) < MAX_SAMPLES_PER_GAME * (number + 1):
                found.append(state.clone())
            for seat in state.to_act:
                if seat in state.to_act:
                    state.apply(seat, rng.choice(state.legal_actions(seat)))
                    steps += 1
    return found


CASES = [(name, players) for name, game in GAMES.items() for players in player_counts(game)]


@pytest.mark.parametrize(("name", "players"), CASES)
def test_determinize_keeps_every_seats_view(name: str, players: int) -> None:
    game = GAMES[name]
    states = sampled_states(game, players, seed=players)
    assert states, "random games should pass through decision points"
    rng = random.Random(1)
    for state in states:
        before = state_digest(state)
        for seat in range(players):
            sample = state.determinize(seat, rng.getrandbits(63))
            assert sample is not state
            assert sample.view(seat) == state.view(seat), f"{name}: determinize changed seat {seat}'s view"
            assert sample.to_act == state.to_act
            if seat in state.to_act:
                # What a seat may do depends only on what it knows.
                assert set(sample.legal_actions(seat)) == set(state.legal_actions(seat)), (
                    f"{name}: determinize changed seat {seat}'s own options"
                )
            random_playout(sample, rng)
            assert sample.is_over
        assert state_digest(state) == before, f"{name}: determinize or playing the copy touched the original"


@pytest.mark.parametrize(("name", "players"), CASES)
def test_bots_choose_legal_actions(name: str, players: int) -> None:
    game = GAMES[name]
    bots = {bot_name: make_bot(game, bot_name, 3) for bot_name in ["random", *game.bots()]}
    bots["mcts"] = MCTSBot(game, 3, TINY_SEARCH)
    bots["mcts-halving"] = MCTSBot(game, 3, TINY_HALVING)
    states = sampled_states(game, players, seed=10 + players)[:MAX_SAMPLES_PER_GAME]
    for state in states:
        for seat in state.to_act:
            legal = state.legal_actions(seat)
            before = state_digest(state)
            for bot_name, bot in bots.items():
                action = bot.choose(state, seat)
                assert action in legal, f"{name}: {bot_name} chose an illegal {action!r}"
            assert state_digest(state) == before, f"{name}: a bot changed the state it was shown"
