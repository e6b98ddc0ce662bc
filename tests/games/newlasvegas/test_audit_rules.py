"""Audit: rules found missing or untested when checking the code against both rulebooks."""

from __future__ import annotations

import pytest

from tabletown.core.errors import IllegalAction
from tabletown.core.record import state_digest
from tabletown.games.newlasvegas.actions import Effect, Refuse
from tabletown.games.newlasvegas.data import GOLF_RANGE, PROJECT_BY_ID, SLOT_HOLES, UPGRADE_INDEX
from tabletown.games.newlasvegas.scoring import score_multiplayer
from tabletown.games.newlasvegas.sheet import GRAND, SMALL, Sheet

from .helpers import do, ended, fill, fill_built, fresh, new, set_offers, skip_loans, slot


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
    fill_built(sh, 1)
    sh.nums[slot("4.11")] = -1
    do(state, 0, "b", "2.2", "skip")
    do(state, 1, "a", "4.11", "con 1.1")  # every built casino opened, then a new empty one
    assert not state.sheets[1].all_opened()
    assert ended(state, "all_casinos_opened")


def test_a_project_not_met_before_construction_is_not_scored():
    state = fresh(2, ((12, "con"), (3, "op"), (14, "op")))
    state.projects = ("H1", "S1", "C5")
    fill(state.sheets[0], **{"3.3": 2, "3.4": 4, "3.5": 6, "3.7": 8})
    do(state, 0, "a", "3.9", "con 3.6")  # only five even casinos before the crane was built
    do(state, 1, "b", "2.2", "skip")
    assert state.sheets[0].proj[1] == 0 and not state.approved[1]


# --- rules that were right but had no test ----------------------------------------------------------


# Set-up alike to newlasvegas/test_effects.py on purpose: each test stands alone.
def refused(state, player, text, rule):
    before = state_digest(state)
    with pytest.raises(IllegalAction) as err:
        state.apply_text(player, text)
    assert err.value.rule == rule
    assert state_digest(state) == before


def _finish(sheets):
    state = new(len(sheets), 3)
    state.sheets = sheets
    state.public = list(sheets)
    state.loans = [False] * len(sheets)
    state._finish("test")
    return state


def test_ties_go_to_most_hotels_then_most_grand_hotels():
    one_grand, three_small = Sheet(1), Sheet(1)
    one_grand.hotels = [GRAND] + [0] * 10
    three_small.hotels = [SMALL] * 3 + [0] * 8
    state = _finish([one_grand, three_small])
    totals = [p["total"] for p in state.final["players"]]
    assert totals[0] == totals[1] and state.result().ranks == (2, 1)
    two_grand, mixed = Sheet(1), Sheet(1)
    two_grand.hotels = [GRAND, GRAND] + [0] * 9
    mixed.hotels = [GRAND, SMALL] + [0] * 9
    mixed.proj = [2, 0, 0]
    state = _finish([two_grand, mixed])
    totals = [p["total"] for p in state.final["players"]]
    assert totals[0] == totals[1] and state.result().ranks == (1, 2)
    state = _finish([Sheet(1), Sheet(1)])
    assert state.result().ranks == (1, 1)  # still tied: both win


def test_street_bonus_is_shared_on_equal_longest_chains():
    a, b, c = Sheet(1), Sheet(1), Sheet(1)
    fill(a, **{"2.1": 1, "2.2": 3})
    fill(b, **{"2.5": 5, "2.6": 7})
    fill(c, **{"2.1": 2})
    scores = score_multiplayer([a, b, c], [False] * 3, True, False)
    assert [s["detail"]["street_bonus"][1] for s in scores] == [True, True, False]
    assert [s["columns"]["streets"] for s in scores] == [2 + 6, 2 + 6, 1]


def test_first_game_offers_no_golf_upgrades_and_draws_no_golf_project():
    for seed in range(25):
        assert not {"C6", "C7"} & set(new(2, seed, first_game=True).projects)
    state = fresh(2, ((5, "up"), (8, "up"), (11, "up")), first_game=True)
    do(state, 0, "a", "2.2")
    targets = {a.target for a in state.legal_actions(0) if isinstance(a, Effect)}
    assert not {UPGRADE_INDEX[f"par{p}"] for p in (3, 4, 5)} & targets
    assert UPGRADE_INDEX["grand"] in targets
    refused(state, 0, "up par4", "nlv.upgrade")


def test_an_expansion_copy_into_a_star_crosses_it_and_earns_no_show():
    state = fresh(2, ((5, "show"), (8, "op"), (11, "op")))
    state.sheets[0].marks = 6
    do(state, 0, "a+x", "2.2", "x2.3l")  # 2.3 has a star; 2.2 has none
    assert all(a.effect != "show" for a in state.legal_actions(0) if isinstance(a, Effect))
    refused(state, 0, "show1", "nlv.show_star")
    do(state, 0, "skip")
    sh = state.sheets[0]
    assert sh.nums[slot("2.3")] == 5 and sh.star_x >> slot("2.3") & 1 and sh.shows == [0, 0]


def test_limousine_refusals_name_the_rule():
    state = fresh(2, ((5, "limo"), (8, "limo"), (11, "limo")))
    sh = state.sheets[0]
    for d in ("e", "n", "w", "s"):  # a square back to the start: the route is complete
        sh.drive(*next(m for m in sh.limo_moves() if m[0] == d)[1:])
    assert sh.route_done
    do(state, 0, "a", "2.2")
    refused(state, 0, "limo e", "nlv.limo_done")
    do(state, 0, "skip")
    sh = state.sheets[1]
    sh.drive(*next(m for m in sh.limo_moves() if m[0] == "e")[1:])
    do(state, 1, "a", "2.2")
    refused(state, 1, "limo w", "nlv.limo_segment")  # that segment is already drawn
    refused(state, 1, "limo s", "nlv.limo_segment")  # no street below street 4


def test_mafia_bundle_needs_the_casino_opened():
    sh = Sheet(1)
    for d in ("e", "e", "n", "w"):  # 3:6 -> 3:3 passes the Mafia casino 3.5
        sh.drive(*next(m for m in sh.limo_moves() if m[0] == d)[1:])
    assert sh.carpets >> slot("3.5") & 1 and sh.opened_carpets("mafia") == 0
    fill(sh, **{"3.5": 7})
    assert sh.opened_carpets("mafia") == 1
    other = Sheet(1)
    bundles = [s["detail"]["bundles"] for s in score_multiplayer([sh, other], [False, False], True, True)]
    assert bundles == [2, 1]


def test_a_built_but_unopened_crane_blocks_the_avenues_hotel():
    state = fresh(2, ((3, "op"), (8, "op"), (11, "op")))
    sh = state.sheets[0]
    sh.built |= 1 << slot("1.1")
    fill(sh, **{"2.1": 1})
    do(state, 0, "a", "3.1", "skip")  # avenue 1: 1.1 built but empty
    do(state, 1, "a", "3.1", "skip")
    assert state.sheets[0].hotels[0] == 0
    set_offers(state, ((2, "op"), (8, "op"), (11, "op")))
    do(state, 0, "a", "1.1", "skip")
    do(state, 1, "b", "2.2", "skip")
    assert state.sheets[0].hotels[0] == GRAND


def test_golf_course_closed_on_the_left_loses_every_hole_to_the_street_start():
    sh = Sheet(1)
    a, b = GOLF_RANGE
    sh.open_slot(a + 5, 9)  # 1.6
    sh.open_slot(a + 3, 5)  # 1.4 is not next to the course: its side is closed
    assert sh.golf_lb and not sh.golf_rb
    assert sh.holes_crossed() == [p for s in range(a, a + 5) for p in SLOT_HOLES[s]]
    sh.open_slot(a + 4, 7)  # 1.5 touches the course, but on the closed side
    assert sh.holes() == list(SLOT_HOLES[a + 5])
    sh.built |= 1 << (a + 6)  # 1.7 is a crane casino
    sh.open_slot(a + 6, 11)  # the right side is still open: the course grows
    assert sh.holes() == list(SLOT_HOLES[a + 5]) + list(SLOT_HOLES[a + 6])


def test_a_refusal_that_marks_the_last_box_ends_the_game():
    from tabletown.games.newlasvegas.data import TRACK_LENGTH

    state = fresh(2, ((5, "op"), (8, "op"), (11, "op")))
    sh = state.sheets[1]
    fill_built(sh, 16)
    sh.marks = TRACK_LENGTH - 1
    do(state, 0, "a", "2.2", "skip")
    do(state, 1, "refuse")
    assert state.sheets[1].marks == TRACK_LENGTH and state.is_over
    assert ended(state, "opening_track_full")


def test_solo_refusal_still_feeds_acme_the_chosen_card():
    state = new(1, 8)
    skip_loans(state)
    sh = state.sheets[0]
    fill_built(sh, 16)
    state._cache = None
    hand = state.hand[:]
    assert {type(a) for a in state.legal_actions(0)} == {Refuse}
    do(state, 0, "refuse2")
    assert state.acme_pile == [hand[1]] and state.discard == [hand[0], hand[2]]
    assert state.sheets[0].marks == 5
