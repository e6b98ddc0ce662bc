"""Property tests over many seeded random games: they end, invariants hold, refusals change nothing."""

from __future__ import annotations

import random

import pytest

from tabletown.bots import make_bot
from tabletown.core.errors import ActionError
from tabletown.core.record import Record, state_digest, verify
from tabletown.core.session import play_out

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
    bogus = [("open", 0, 5), ("eff", "con", 0), ("pick", 2, 2, "x"), ("refuse", -1), ("skip",), ("loan", 1),
             ("copy", 3, "l"), ("eff", "show", 1), ("pick", 0, 1, "")]
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
