"""Engine contract 2 for New Las Vegas: typed actions, events as data with the right audience, the
fixed action space, saved positions mid-round and seat-safe copies of a simultaneous round."""

from __future__ import annotations

import copy
import dataclasses
import json
import pickle
import random

import pytest

from tabletown.core.errors import MalformedAction
from tabletown.core.game import Game
from tabletown.core.record import state_fingerprint
from tabletown.core.session import seat_state
from tabletown.games.newlasvegas.actions import (  # names as in notation.py, on purpose
    OPENS,
    SKIP,
    Effect,
    Expand,
    Loan,
    Open,
    Pick,
    Plan,
    Refuse,
    Shuffle,
    Skip,
    from_tuple,
)

from .helpers import GAME, do, fresh, new, play_random, skip_loans

TYPES = (Loan, Shuffle, Pick, Refuse, Open, Expand, Effect, Skip)


def test_actions_are_typed_and_kinds_never_collide():
    assert Loan(True) != Shuffle(True) and Refuse(1) != Loan(True)
    assert Open(5) == Open(slot=5, change=0) == OPENS[5][2] != ("open", 5, 0)
    assert Pick(0, 0, "e").bonus == "e" and Pick(1, 2).effect_card == 2
    assert repr(SKIP) == "Skip()" and Skip() == SKIP
    # Interned: an equal value is the very object (so identity compares by value), tuple form kept.
    assert Open(5) is OPENS[5][2] and Loan(1) is Loan(True) and Plan([SKIP]) is Plan((SKIP,))
    assert Effect("limo", "n").key == ("eff", "limo", "n") and Effect.kind == "eff"
    with pytest.raises(dataclasses.FrozenInstanceError):
        OPENS[5][2].slot = 6  # type: ignore[misc]
    for action in (OPENS[5][2], SKIP, Plan((SKIP, Open(3)))):
        assert dataclasses.is_dataclass(action) and not hasattr(action, "__dict__")
        for twin in (copy.deepcopy(action), pickle.loads(pickle.dumps(action))):
            assert twin is action
    rng = random.Random(3)
    for players in (1, 3):
        state = new(players, 4)
        while state.to_act:
            for p in state.to_act:
                if p in state.to_act:
                    legal = state.legal_actions(p)
                    assert all(type(a) in TYPES for a in legal)
                    for a in legal:
                        assert state.parse_action(state.format_action(a), p) == a
                    state.apply(p, rng.choice(legal))


def test_apply_also_takes_the_tuple_form():
    state = new(2, 4)
    assert state.is_legal(0, ("loan", True)) and not state.is_legal(0, ("shuffle", True))
    state.apply(0, ("loan", True))
    state.apply(1, ("loan", 0))
    assert state.loans == [True, False]
    for _ in range(2):
        action = state.legal_actions(0)[-1]
        assert from_tuple(action.key) is action  # the shared object, not a copy
        state.apply(0, action.key)
    with pytest.raises(MalformedAction):
        state.apply(0, ("open", [1], 0))


def test_the_action_space_holds_every_legal_action_once():
    for players, options in ((1, {}), (2, {}), (5, {"first_game": True}), (1, {"first_game": True})):
        space = GAME.action_space(players, options)
        assert len(set(space)) == len(space)
        state = GAME.new_game(players, options, seed=players)
        rng = random.Random(players)
        while state.to_act:
            for p in state.to_act:
                if p in state.to_act:
                    legal = state.legal_actions(p)
                    assert all(a in space for a in legal)
                    state.apply(p, rng.choice(legal))
    assert GAME.game_type.max_actions == 12 * (4 * 48 + 2)


def test_a_rounds_steps_stay_private_until_it_resolves():
    state = fresh(3)
    count = len(state.log)
    do(state, 0, "a", "2.5", "skip")
    # Seat 0 has finished: one private event, the same count of events for everybody.
    assert state.log[-1].kind == "turn_done" and state.log[-1].seats == (0,)
    assert len(state.log) == count + 1
    assert [e["kind"] for e in state.view(0, since=count)["events"]] == ["turn_done"]
    assert state.view(1, since=count)["events"] == [] and state.view(None, since=count)["events"] == []
    steps = state.view(0)["state"]["players"][0]["turn"]["steps"]
    assert [s["step"] for s in steps] == ["pick", "open", "skip"] and steps[1]["slot"] == "2.5"
    do(state, 1, "b", "2.5", "skip")
    do(state, 2, "c", "2.5", "skip")
    played = [e for e in state.view(1)["events"] if e["kind"] == "round_played"]
    assert [e["seat"] for e in played] == [0, 1, 2] and "private" not in played[0]
    assert played[0]["steps"] == steps


def test_loan_choices_are_private_events_and_revealed_at_the_end():
    state = new(3, 5)
    do(state, 0, "loan")
    event = state.log[-1]
    assert event.kind == "loan_chosen" and event.seats == (0,) and event.data == {"seat": 0, "loan": True}
    assert all(e["kind"] != "loan_chosen" for e in state.view(1)["events"])
    play_random(state, random.Random(1))
    scores = [e for e in state.log if e.kind == "scores"][-1]
    assert scores.seats is None and scores.data["loans"][0] is True


def test_every_event_is_worded_by_the_renderer():
    kinds = set()
    for players, seed in ((1, 1), (1, 2), (3, 3), (4, 4), (2, 5)):
        state = play_random(new(players, seed), random.Random(seed))
        for seat in (None, *range(players)):
            for event in state.view(seat)["events"]:
                text = GAME.describe_event(event)
                assert text and text != Game.describe_event(GAME, event), event  # not the raw fallback
                kinds.add(event["kind"])
    assert {"projects", "round", "round_solo", "round_played", "turn_done", "game_over", "scores"} <= kinds


def test_a_saved_position_mid_round_keeps_the_public_sheets_shared():
    state = fresh(3)
    do(state, 0, "a", "2.5")
    restored = GAME.state_from_json(json.loads(json.dumps(state.to_json())))
    assert state_fingerprint(restored) == state_fingerprint(state)
    assert restored.sheets[0] is not restored.public[0]  # seat 0 works on its private copy
    assert restored.sheets[1] is restored.public[1] and restored.sheets[2] is restored.public[2]
    do(restored, 0, "skip")
    do(state, 0, "skip")
    assert state_fingerprint(restored) == state_fingerprint(state)


def test_a_bots_copy_does_not_depend_on_the_others_hidden_steps():
    base = fresh(3)
    one, two = base.clone(), base.clone()
    # Seat 1 finishes its round differently in the two games; seat 2 is still choosing.
    for state, pick in ((one, 0), (two, -1)):
        while 1 in state.to_act:
            legal = state.legal_actions(1)
            state.apply(1, legal[pick])
    assert one.turns[1].steps != two.turns[1].steps
    assert one.view(0) == two.view(0)
    assert state_fingerprint(seat_state(one, 0, 11)) == state_fingerprint(seat_state(two, 0, 11))


def test_reshuffle_votes_stay_secret_and_are_cleared():
    rng = random.Random(0)
    for seed in range(40):
        state = new(4, seed)
        skip_loans(state)
        while state.to_act and state.phase != "reshuffle":
            for p in state.to_act:
                if p in state.to_act:
                    state.apply(p, rng.choice(state.legal_actions(p)))
        if state.phase != "reshuffle":
            continue
        voter = state.to_act[0]
        state.apply(voter, Shuffle(True))
        others = [q for q in range(4) if q != voter]
        assert all(e["kind"] != "vote_cast" for q in others for e in state.view(q)["events"])
        while state.phase == "reshuffle":
            state.apply(state.to_act[0], Shuffle(False))
        decided = [e for e in state.log if e.kind == "reshuffle_decided"][-1]
        assert decided.data == {"shuffled": True} and state.votes == [None] * 4
        return
    raise AssertionError("no seeded game reached the reshuffle vote")


def test_plans_are_typed_and_not_in_the_action_space():
    state = fresh(2)
    plan = state.parse_action("a, 2.5, skip", 0)
    assert isinstance(plan, Plan) and plan not in GAME.action_space(2, {})
    assert not state.is_legal(0, plan)
    state.apply(0, plan)
    assert 0 not in state.to_act


def test_a_rounds_steps_combine_into_the_plan_that_plays_them():
    state, steps = fresh(2), []
    twin = state.clone()
    while 0 in twin.to_act and len(twin.to_act) == 2:  # seat 0's round, step by step
        steps.append(twin.legal_actions(0)[0])
        twin.apply(0, steps[-1])
    plan = state.combine(0, steps)
    assert isinstance(plan, Plan) and plan.steps == tuple(steps) and len(steps) >= 3
    state.apply(0, plan)
    assert state_fingerprint(state) == state_fingerprint(twin)
    # a loan or a vote is a whole decision already: nothing to combine
    assert state.combine(0, [Loan(True)]) is None and state.combine(0, [Shuffle(False)]) is None
    assert state.combine(0, []) is None
