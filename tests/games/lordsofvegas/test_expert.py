"""The expert bot: plays legally everywhere, sees only its seat's information, and beats greedy."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from tabletown.bots import make_bot
from tabletown.games.lordsofvegas import GAME
from tabletown.games.lordsofvegas.actions import REFUSE
from tabletown.games.lordsofvegas.bots import GreedyBot
from tabletown.games.lordsofvegas.expert import DEFAULT, ExpertBot, values
from tabletown.games.lordsofvegas.state import LordsOfVegasState
from tabletown.testing import paired_share

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
    assert ExpertBot(3).choose(state, 1) == REFUSE


def _gold_casinos(lots: list[str]) -> LordsOfVegasState:
    state = blank(2, money=20, deck=[f"c{i}" for i in range(3, 13)])
    for name in lots:
        put(state, name, "gold", 0, 4)
    return state


def test_one_big_casino_is_worth_more_than_as_many_small_ones() -> None:
    """The track's gaps waste small casinos' points, so three gold tiles in one casino are worth more
    to their boss than three one-tile gold casinos; without the size tilt they would be equal."""
    merged = _gold_casinos(["a1", "a2", "a4"])
    apart = _gold_casinos(["a1", "c1", "e1"])
    assert len(merged.casinos()[0]) == 1 and len(apart.casinos()[0]) == 3
    assert values(merged)[0] > values(apart)[0] + 1.0
    flat = replace(DEFAULT, size_w=0.0)
    assert values(merged, flat)[0] == pytest.approx(values(apart, flat)[0])


def test_expert_beats_greedy() -> None:
    """100 seeded games (deterministic): a bot no better than greedy would score about 50%."""
    assert paired_share(GAME, "expert", "greedy", 50, 500) >= 0.58


def test_expert_beats_random() -> None:
    assert paired_share(GAME, "expert", "random", 20, 700) >= 0.95
