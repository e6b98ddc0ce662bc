"""The expert bot: plays legally everywhere, sees only its seat's information, and beats greedy."""

from __future__ import annotations

import random

import pytest

from tabletown.bots import make_bot
from tabletown.core.testing import paired_share
from tabletown.games.lordsofvegas import GAME
from tabletown.games.lordsofvegas.bots import GreedyBot
from tabletown.games.lordsofvegas.expert import ExpertBot
from tabletown.games.lordsofvegas.state import LordsOfVegasState

from .helpers import act, blank, put


def _play(players: int, options: dict, seed: int, names: list[str]) -> LordsOfVegasState:
    state = GAME.new_game(players, options, seed=seed)
    bots = [make_bot(GAME, name, seed * 10 + i) for i, name in enumerate(names)]
    for _ in range(20_000):
        if state.is_over:
            break
        seat = state.to_act[0]
        action = bots[seat].choose(state, seat)
        if names[seat] == "expert":
            assert action in state.legal_actions(seat), f"illegal expert action {action!r}"
        state.apply(seat, action)
    assert state.is_over
    return state


@pytest.mark.parametrize(
    ("players", "options", "others"),
    [
        (2, {}, "random"),
        (2, {"open_market": True, "max_offers": 5}, "greedy"),
        (3, {"markers_full": "hold"}, "random"),
        (4, {"open_market": True}, "greedy"),
    ],
)
def test_expert_plays_legally(players: int, options: dict, others: str) -> None:
    for seed in range(3):
        names = [others] * players
        names[seed % players] = "expert"
        _play(players, options, seed, names)


def test_expert_is_registered() -> None:
    assert isinstance(make_bot(GAME, "bot:expert", 3), ExpertBot)


def _sampled_states(count: int, seed: int) -> list[tuple[LordsOfVegasState, int]]:
    """Positions from expert-vs-greedy games where the acting seat has a real choice."""
    rng = random.Random(seed)
    out: list[tuple[LordsOfVegasState, int]] = []
    game_seed = seed
    while len(out) < count:
        game_seed += 1
        state = GAME.new_game(2, {}, seed=game_seed)
        bots = [ExpertBot(game_seed), GreedyBot(game_seed + 1)]
        while not state.is_over:
            seat = state.to_act[0]
            if len(state.legal_actions(seat)) > 1 and rng.random() < 0.08:
                out.append((state.clone(), seat))
            state.apply(seat, bots[seat].choose(state, seat))
    return out[:count]


def test_expert_does_not_peek() -> None:
    """The same bot seed chooses the same on the real state and on a determinized copy (other deck
    order, other dice to come): the choice depends only on what the seat can see."""
    for i, (state, seat) in enumerate(_sampled_states(60, 7)):
        copy = state.determinize(seat, 1000 + i)
        assert copy.view(seat) == state.view(seat)
        assert ExpertBot(i).choose(state, seat) == ExpertBot(i).choose(copy, seat)


def test_expert_refuses_an_offer_that_helps_the_rival_more() -> None:
    state = blank(2, money=20, deck=[f"c{i}" for i in range(1, 13)])
    put(state, "a1", "gold", 1, 6)
    put(state, "a2", "gold", 1, 2)
    put(state, "a3", "gold", 0, 1)
    act(state, 0, "offer 0>1:$3 1>0:die-a1")  # its boss die for $3: refuse
    assert ExpertBot(3).choose(state, 1) == ("refuse",)


def test_expert_beats_greedy() -> None:
    """100 seeded games (deterministic): a bot no better than greedy would score about 50%."""
    assert paired_share(GAME, "expert", "greedy", 50, 500) >= 0.58


def test_expert_beats_random() -> None:
    assert paired_share(GAME, "expert", "random", 20, 700) >= 0.95
