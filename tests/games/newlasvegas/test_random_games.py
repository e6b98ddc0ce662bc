"""Property tests over many seeded random games: they end, invariants hold, refusals change nothing."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tabletown.bots import make_bot
from tabletown.core.errors import ActionError
from tabletown.core.record import Record, state_digest, verify
from tabletown.core.session import play_out
from tabletown.games.newlasvegas.actions import SKIP, Effect, Expand, Loan, Open, Pick, Refuse

from .helpers import GAME, new, numbers_rise, play_random


def _check(state, p, action):
    for sh in state.sheets:
        assert numbers_rise(sh)
        assert 0 <= sh.marks <= 19


@pytest.mark.parametrize(("players", "games"), [(1, 250), (2, 250), (4, 200), (8, 60)])
def test_random_games_end_with_invariants(players, games):
    rounds = []
    for seed in range(games):
        rng = random.Random(seed)
        state = play_random(new(players, seed), rng, _check)
        assert state.is_over and state.result() is not None
        res = state.result()
        assert len(res.scores) == players
        rounds.append(state.round_no)
    assert min(rounds) >= 5


@pytest.mark.parametrize("players", [1, 3])
def test_first_game_variant_random_games(players):
    for seed in range(80):
        state = play_random(new(players, seed, first_game=True), random.Random(seed), _check)
        assert state.is_over
        for sh in state.sheets:
            assert sh.vault == 3
        assert not any(pid in {"C6", "C7"} for pid in state.projects)


def test_illegal_actions_leave_state_unchanged_and_notation_round_trips():
    rng = random.Random(5)
    bogus = [
        Open(0, 5),
        Effect("con", 0),
        Pick(2, 2, "x"),
        Refuse(-1),
        SKIP,
        Loan(True),
        Expand(3, "l"),
        Effect("show", 1),
        Pick(0, 1, ""),
    ]
    steps = 0
    for seed in range(16):
        state = new(3 if seed % 2 else 1, seed)
        while state.to_act:
            for p in state.to_act:
                if p not in state.to_act:
                    continue
                legal = state.legal_actions(p)
                for a in legal:
                    assert state.parse_action(state.format_action(a), p) == a
                steps += 1
                if steps % 4 == 0:
                    before = state_digest(state)
                    for a in bogus:
                        if a in legal:
                            continue
                        with pytest.raises(ActionError) as err:
                            state.apply(p, a)
                        assert err.value.rule.startswith(("nlv.", "turn."))
                    assert state_digest(state) == before
                state.apply(p, rng.choice(legal))


@pytest.mark.parametrize("players", [1, 2, 4])
def test_records_replay(players):
    for seed in range(3):
        state = new(players, seed)
        rec = Record.start(state, ["bot:random"] * players)
        agents = [make_bot(GAME, "random", seed * 10 + p).choose for p in range(players)]
        play_out(state, agents, rec)
        assert verify(rec) == []


def _loans_from_view(sheet, last: bool) -> int:
    """Open loans recomputed from a sheet's view (independently of Sheet.open_loans)."""
    from tabletown.games.newlasvegas.data import SHOW_LOANS, SLOT_BY_NAME

    loans = sum(1 for name in sheet["cranes_built"] if sheet["numbers"][SLOT_BY_NAME[name]] is None)
    for col, crossed in enumerate(sheet["shows"]):
        if crossed:
            loans += sum(1 for box in SHOW_LOANS[col] if box > crossed)
    return loans + len(sheet["groups_expansion"]) + (1 if last else 0)


@pytest.mark.parametrize("players", [2, 4])
def test_loans_are_charged_exactly_once_at_the_end(players):
    for seed in range(60):
        state = play_random(new(players, seed), random.Random(seed))
        view = state.view(None)["state"]
        for p, entry in enumerate(view["players"]):
            final = view["final"]["players"][p]
            d = final["detail"]
            assert d["loans"] == _loans_from_view(entry["sheet"], d["opening_last"])
            bundles = min(10, entry["sheet"]["vault"] + d["mafia_bundles"] + d["bank_bundles"])
            assert d["bundles"] == bundles
            assert final["columns"]["vault"] == (0 if bundles >= d["loans"] else -20)
            takers = sum(1 for e in view["players"] if e["loan"])
            assert d["bank_bundles"] == (4 if 2 * takers > players else 2 if takers else 0)


def test_malformed_actions_are_refused_cleanly():
    state = new(2, 1)
    for bad in [("pick",), ("open", [1], 0), "a", (), ("eff", "fly", 0), ("loan", 1, 2, 3)]:
        with pytest.raises(ActionError):
            state.apply(0, bad)
    for text in ["", "z", "9.9", "2.5+7", "up nothing", "limo q", "refuse2", "x9.9l"]:
        with pytest.raises(ActionError):
            state.parse_action(text, 0)


@pytest.mark.soak
@pytest.mark.parametrize("players", [1, 2, 4, 8])
def test_soak_many_random_games(players):
    for seed in range(1000, 1600):
        state = play_random(new(players, seed, first_game=bool(seed % 3 == 0)), random.Random(seed), _check)
        assert state.is_over


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 10**6), players=st.sampled_from([1, 2, 3, 5]), steps=st.integers(0, 150))
def test_hypothesis_positions_round_trip_and_clone_independently(seed, players, steps):
    rng = random.Random(seed)
    state = new(players, seed)
    while state.to_act and steps:
        p = rng.choice(state.to_act)
        state.apply(p, rng.choice(state.legal_actions(p)))
        steps -= 1
    twin = state.clone()
    before = state_digest(state)
    for p in state.to_act:
        for a in state.legal_actions(p):
            assert state.parse_action(state.format_action(a), p) == a
    play_random(twin, rng)  # playing the clone out never touches the original
    assert state_digest(state) == before
