"""Audit: rules found missing or untested when checking the code against both rulebooks."""

from __future__ import annotations

from tabletown.games.newlasvegas.data import PROJECT_BY_ID

from .helpers import do, fill, fresh, slot


def test_a_project_met_before_this_rounds_construction_is_scored():
    # Projects score as soon as their condition is met; crossing out a crane inside the chain
    # afterwards (a built, empty casino breaks chains) does not take the project away.
    state = fresh(2, ((12, "con"), (3, "op"), (14, "op")))
    state.projects = ("H1", "S1", "C5")
    fill(state.sheets[0], **{"3.3": 2, "3.4": 4, "3.5": 6, "3.7": 8, "3.8": 10})  # 3.6: unbuilt crane
    do(state, 0, "a", "3.9", "con 3.6")
    assert state.sheets[0].longest_run(2) == 3  # the chain is broken now
    do(state, 1, "b", "2.2", "skip")
    assert state.sheets[0].proj[1] == PROJECT_BY_ID["S1"]["points_first"]
    assert state.approved[1]


def test_streets_finished_before_this_rounds_construction_still_end_the_game():
    state = fresh(2, ((15, "con"), (8, "op"), (11, "op")))
    sh = state.sheets[1]
    for s in range(len(sh.nums)):
        if sh.is_built(s):
            sh.nums[s] = 1
    sh.nums[slot("4.11")] = -1
    do(state, 0, "b", "2.2", "skip")
    do(state, 1, "a", "4.11", "con 1.1")  # every built casino opened, then a new empty one
    assert not state.sheets[1].all_opened()
    assert state.is_over and any("every built casino" in line for line in state.log)


def test_a_project_not_met_before_construction_is_not_scored():
    state = fresh(2, ((12, "con"), (3, "op"), (14, "op")))
    state.projects = ("H1", "S1", "C5")
    fill(state.sheets[0], **{"3.3": 2, "3.4": 4, "3.5": 6, "3.7": 8})
    do(state, 0, "a", "3.9", "con 3.6")  # only five even casinos before the crane was built
    do(state, 1, "b", "2.2", "skip")
    assert state.sheets[0].proj[1] == 0 and not state.approved[1]
