"""bot:expert: legal in every set-up, blind to hidden information, and clearly stronger than greedy."""

from __future__ import annotations

import random

import pytest

from tabletown.bots import make_bot
from tabletown.core.record import state_digest
from tabletown.games.newlasvegas.bots import GreedyBot
from tabletown.games.newlasvegas.expert import ExpertBot
from tabletown.testing import paired_share

from .helpers import GAME

SETUPS = [
    (1, {}),
    (1, {"architect": 13, "first_game": True}),
    (2, {"first_game": True}),
    (3, {}),
]


@pytest.mark.parametrize(("players", "options"), SETUPS)
def test_expert_only_chooses_legal_actions_and_leaves_the_state_alone(players, options):
    state = GAME.new_game(players, options, seed=players * 11)
    # Expert seats mixed with greedy and random ones, so it meets varied positions.
    names = ["expert", "random", "greedy"][:players]
    bots = [make_bot(GAME, name, 7 + s) for s, name in enumerate(names)]
    while not state.is_over:
        for seat in state.to_act:
            if seat not in state.to_act:
                continue
            before = state_digest(state)
            action = bots[seat].choose(state, seat)
            assert state_digest(state) == before, "choosing must not change the game"
            assert action in state.legal_actions(seat)
            state.apply(seat, action)
    assert state.result() is not None


def _sampled_states(games: int) -> list:
    """Positions (state, seat to act) from seeded expert-vs-greedy games, at every kind of step."""
    rng = random.Random(5)
    states = []
    for seed in range(games):
        players = 2 + seed % 2
        state = GAME.new_game(players, {}, seed=seed)
        bots = [ExpertBot(seed) if s == 0 else GreedyBot(seed + s) for s in range(players)]
        while not state.is_over:
            # The expert acts last in a round, so the others' hidden steps of the round exist.
            for seat in sorted(state.to_act, reverse=True):
                if seat not in state.to_act:
                    continue
                if seat == 0 and rng.random() < 0.12:
                    states.append((state.clone(), seat))
                state.apply(seat, bots[seat].choose(state, seat))
    return states


# Alike to the other games' expert tests on purpose: each game's tests stand alone.
def test_expert_does_not_peek_at_hidden_information():
    """Same view, other piles and other seats' hidden steps: a fresh expert chooses the same."""
    differs = 0
    for index, (state, seat) in enumerate(_sampled_states(3)):
        twin = state.determinize(seat, 1000 + index)
        assert twin.view(seat) == state.view(seat)
        differs += twin.piles != state.piles or any(
            twin.sheets[q] is not state.sheets[q] and twin.turns[q].steps != state.turns[q].steps
            for q in range(state.num_players)
            if q != seat
        )
        assert ExpertBot(index).choose(state, seat) == ExpertBot(index).choose(twin, seat)
    assert differs > 20


def test_expert_beats_greedy():
    # 40 seeded games (the game is slow); a bot only as good as greedy would score about 50%.
    assert paired_share(GAME, "expert", "greedy", 20, 4000) >= 0.65


def test_expert_crushes_random():
    assert paired_share(GAME, "expert", "random", 5, 5000) == 1.0
