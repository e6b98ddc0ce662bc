"""Property tests over many seeded random games (2, 3 and 4 players)."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tabletown.bots import make_bot
from tabletown.core.errors import ActionError
from tabletown.core.record import Record, state_digest, verify
from tabletown.core.session import play_out
from tabletown.games.lordsofvegas import GAME
from tabletown.games.lordsofvegas.data import GAME_END

from .helpers import check_invariants, random_game

PLAYERS = [2, 3, 4]


@pytest.mark.parametrize("players", PLAYERS)
def test_games_end_with_invariants_after_every_action(players: int) -> None:
    for seed in range(250):
        state = random_game(players, seed, check=check_invariants)
        assert state.is_over and state.result() is not None


@pytest.mark.parametrize("players", PLAYERS)
def test_many_more_games_end(players: int) -> None:
    reasons = set()
    for seed in range(1000, 1350):
        state = random_game(players, seed)
        check_invariants(state)
        assert state.is_over
        assert GAME_END in state.discard or max(state.score) >= 90
        reasons.add(state._over_reason)
    assert "game_end" in reasons


@pytest.mark.parametrize("players", PLAYERS)
def test_notation_round_trip_for_every_legal_action(players: int) -> None:
    seen = set()

    def check(state) -> None:
        for seat in state.to_act:
            for action in state.legal_actions(seat):
                text = state.format_action(action)
                assert text == text.lower() and text.strip() == text
                assert state.parse_action(text, seat) == action, text
                seen.add(action.kind)

    for seed in range(25):
        random_game(players, 500 + seed, check=check)
    assert {
        "end",
        "build",
        "sprawl",
        "remodel",
        "reorg",
        "gamble",
        "offer",
        "accept",
        "refuse",
        "layoff",
    } <= seen


@pytest.mark.parametrize("players", PLAYERS)
def test_every_listed_action_is_accepted(players: int) -> None:
    """Everything legal_actions lists applies without error (on a copy)."""
    rng = random.Random(players)
    for seed in range(15):
        state = GAME.new_game(players, {}, seed=seed)
        while state.to_act:
            seat = state.to_act[0]
            legal = state.legal_actions(seat)
            for action in rng.sample(legal, min(6, len(legal))):
                twin = state.clone()
                twin.apply(seat, action)
            state.apply(seat, rng.choice(legal))


JUNK = [
    ("end",),
    ("accept",),
    ("refuse",),
    ("layoff", True),
    ("build", 0, 0),
    ("build", 47, 4),
    ("sprawl", 10, 2),
    ("remodel", 13, 1),
    ("reorg", 20),
    ("gamble", 14, 3),
    ("gamble", 14, 400),
    ("take", 5),
    ("free", 5),
    ("put", 3),
    ("offer", ((0, 1, "$", 999),)),
    ("offer", ((1, 0, "lot", 7),)),
    ("offer", ((0, 1, "points", 2),)),
    ("build", 99, 0),
    ("build", 0, 9),
    ("nonsense",),
    "end",
    ("offer",),
    ("gamble", 1, True),
]


@settings(max_examples=60, deadline=None)
@given(
    seed=st.integers(0, 10**6), steps=st.integers(0, 300), players=st.sampled_from(PLAYERS), data=st.data()
)
def test_refused_actions_leave_the_state_unchanged(seed: int, steps: int, players: int, data) -> None:
    state = random_game(players, seed, stop=steps)
    seat = data.draw(st.integers(0, players - 1))
    action = data.draw(st.sampled_from(JUNK))
    before = state_digest(state)
    rng_before = state.rng.getstate()
    legal = state.legal_actions(seat)
    if action in legal:
        return
    try:
        state.apply(seat, action)
    except ActionError as exc:
        assert exc.rule and "." in exc.rule
        assert state_digest(state) == before
        assert state.rng.getstate() == rng_before
    # Some junk is legal although not listed (any bet or offer may be typed); that is fine.


@pytest.mark.parametrize("players", PLAYERS)
def test_records_replay_identically(players: int) -> None:
    for seed in range(4):
        state = GAME.new_game(players, {}, seed=seed)
        seats = ["bot:greedy"] + ["bot:random"] * (players - 1)
        agents = [make_bot(GAME, s, seed * 10 + i).choose for i, s in enumerate(seats)]
        record = Record.start(state, seats)
        play_out(state, agents, record)
        assert verify(record) == []
        loaded = Record.from_json(record.to_json())
        assert state_digest(loaded.replay()) == state_digest(state)


@pytest.mark.parametrize("players", PLAYERS)
def test_views_never_show_the_deck_order(players: int) -> None:
    rng = random.Random(players)
    for seed in range(10):
        state = GAME.new_game(players, {}, seed=seed)
        for _ in range(rng.randrange(0, 120)):
            if not state.to_act:
                break
            seat = state.to_act[0]
            state.apply(seat, rng.choice(state.legal_actions(seat)))
        twin = state.clone()
        ge = twin.deck.index(GAME_END) if GAME_END in twin.deck else None
        others = [c for c in twin.deck if c != GAME_END]
        rng.shuffle(others)
        if ge is not None:
            others.insert(ge, GAME_END)
        twin.deck = others
        for seat in [None, *range(players)]:
            assert twin.view(seat) == state.view(seat)
        for seat in range(players):
            det = state.determinize(seat, seed=seed + 99)
            assert det.view(seat) == state.view(seat)
            assert sorted(det.deck) == sorted(state.deck)
            if ge is not None:
                assert det.deck.index(GAME_END) == ge


def test_determinize_changes_the_deck_but_not_the_original() -> None:
    state = GAME.new_game(4, {}, seed=5)
    before = list(state.deck)
    orders = {tuple(state.determinize(0, seed=s).deck) for s in range(5)}
    assert len(orders) > 1
    assert state.deck == before


@pytest.mark.soak
@pytest.mark.parametrize("players", PLAYERS)
def test_soak_many_games(players: int, request) -> None:
    expr = request.config.getoption("markexpr", "") or ""
    if "soak" not in expr or "not soak" in expr:
        pytest.skip("long run: select it with -m soak")
    for seed in range(100_000, 103_000):
        state = random_game(players, seed, check=check_invariants)
        assert state.is_over
