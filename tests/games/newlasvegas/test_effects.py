"""Each step of a round: compulsory opening, refusal, the five effects, the three bonuses."""

from __future__ import annotations

import pytest

from tabletown.core.errors import IllegalAction
from tabletown.core.record import state_digest
from tabletown.games.newlasvegas.actions import Effect, Expand, Open, Pick, Plan, Refuse
from tabletown.games.newlasvegas.data import TRACK_LENGTH, UPGRADE_INDEX

from .helpers import do, ended, fill, fill_built, fresh, set_offers, slot


# Set-up alike to newlasvegas/test_audit_rules.py on purpose: each test stands alone.
def refused(state, player, text, rule):
    before = state_digest(state)
    with pytest.raises(IllegalAction) as err:
        state.apply_text(player, text)
    assert err.value.rule == rule
    assert state_digest(state) == before


def test_numbers_rise_strictly_and_never_repeat_in_a_street():
    state = fresh(2, ((5, "op"), (8, "con"), (11, "show")))
    fill(state.sheets[0], **{"2.3": 5, "2.6": 9})
    do(state, 0, "b")  # number 8
    refused(state, 0, "2.3", "nlv.occupied")
    refused(state, 0, "2.2", "nlv.opening_order")  # left of the 5
    refused(state, 0, "2.7", "nlv.opening_order")  # right of the 9
    refused(state, 0, "2.4", "nlv.crane")  # crane not crossed out
    refused(state, 0, "2.5+1", "nlv.easy_opening")
    do(state, 0, "2.5")
    assert state.sheets[0].nums[slot("2.5")] == 8
    do(
        state,
        0,
        "con 3.2",
    )
    do(state, 1, "a", "2.3", "op")
    set_offers(state, ((5, "op"), (8, "con"), (11, "show")))
    do(state, 0, "a")
    refused(state, 0, "2.2", "nlv.opening_order")  # 5 is already in street 2


def test_refusal_only_when_no_number_fits_and_marks_two_boxes():
    state = fresh(2, ((5, "op"), (8, "con"), (11, "show")))
    refused(state, 0, "refuse", "nlv.refusal")
    sh = state.sheets[1]
    fill_built(sh, 16)
    sh.nums[slot("2.10")] = -1
    sh.nums[slot("2.8")] = 12  # 2.9 is an unbuilt crane: only 13+ fits in 2.10
    assert state.legal_actions(1) == [Refuse(-1)]
    do(state, 1, "refuse")
    assert state.sheets[1].marks == 5 and 1 not in state.to_act


def test_easy_opening_may_replace_a_refusal():
    state = fresh(2, ((12, "op"), (12, "con"), (12, "show")))
    sh = state.sheets[0]
    fill_built(sh, 16)
    sh.nums[slot("2.10")] = -1
    sh.nums[slot("2.8")] = 12  # only 13..15 fit in 2.10 now
    sh.marks = 6  # the first group (boxes 4-6) is complete
    legal = state.legal_actions(0)
    assert Refuse(-1) in legal and Pick(0, 0, "e") in legal and Pick(0, 0, "") not in legal
    do(state, 0, "a+e")
    assert state.legal_actions(0) == [Open(slot("2.10"), 1), Open(slot("2.10"), 2)]
    do(state, 0, "2.10+2", "op")
    sh = state.sheets[0]
    assert sh.nums[slot("2.10")] == 14 and sh.unused_marks() == 4  # 7 marked, 3 spent
    assert sh.exp == 0 and sh.spent == 1  # a non-expansion bonus crosses the group's loan out


def test_easy_opening_reaches_zero_and_seventeen():
    state = fresh(2, ((1, "op"), (15, "con"), (8, "show")))
    state.sheets[0].marks = 6
    do(state, 0, "a+e")
    assert Open(slot("2.1"), -1) in state.legal_actions(0)
    assert Open(slot("2.1"), -2) not in state.legal_actions(0)
    do(state, 0, "2.1-1")
    assert state.sheets[0].nums[slot("2.1")] == 0
    state.sheets[1].marks = 6
    do(state, 1, "b+e", "2.10+2", "skip")
    assert state.sheets[1].nums[slot("2.10")] == 17


def test_construction_effect_and_its_loan():
    state = fresh(1, first_game=True)
    state.hand = [0, 11, 20]  # cards: (1 show), (4 inauguration), (6 improvement)
    from tabletown.games.newlasvegas.data import CARD_EFFECT, CARD_NUMBER

    con = next(c for c in range(81) if CARD_EFFECT[c] == "con")
    state.hand = [next(c for c in range(81) if CARD_NUMBER[c] == 3), con, 0]
    state._cache = None
    do(state, 0, "12", "2.1")
    assert Effect("con", slot("2.1")) not in state.legal_actions(0)
    refused(state, 0, "op", "nlv.effect")
    do(state, 0, "con 2.4")
    sh = state.sheets[0]
    assert sh.is_built(slot("2.4")) and sh.open_loans() == 1
    state.hand = [next(c for c in range(81) if CARD_NUMBER[c] == 7), con, 0]
    state._cache = None
    refused(state, 0, "con 2.4", "nlv.step")
    do(state, 0, "12", "2.4")
    assert state.sheets[0].open_loans() == 0  # opening the built casino repays the loan
    refused(state, 0, "con 2.4", "nlv.construction")


def test_upgrade_boxes_are_crossed_in_order_until_the_column_is_full():
    state = fresh(2, ((5, "up"), (8, "up"), (11, "up")))
    state.sheets[0].ups[UPGRADE_INDEX["open"]] = 1
    do(state, 0, "a", "2.2")
    refused(state, 0, "up open", "nlv.upgrade")
    do(state, 0, "up grand")
    assert state.sheets[0].ups[UPGRADE_INDEX["grand"]] == 1


def test_show_needs_a_star_casino_opened_this_round():
    state = fresh(2, ((5, "show"), (8, "show"), (11, "show")))
    do(state, 0, "a", "2.2")  # no star
    refused(state, 0, "show1", "nlv.show_star")
    do(state, 0, "skip")
    do(state, 1, "a", "2.3")  # a star
    assert state.sheets[1].open_loans() == 0
    do(state, 1, "show2")
    sh = state.public[1]
    assert sh.shows == [0, 1] and sh.star_ok >> slot("2.3") & 1
    assert sh.open_loans() == 2  # the column's two loans are circled


def test_star_opened_without_a_show_is_crossed_out():
    state = fresh(2, ((5, "op"), (8, "show"), (11, "show")))
    do(state, 0, "a", "2.3", "op")
    assert state.sheets[0].star_x >> slot("2.3") & 1 and not state.sheets[0].star_ok


def test_opening_effect_and_the_last_box_ends_the_game():
    state = fresh(2, ((5, "op"), (8, "op"), (11, "op")))
    state.sheets[0].marks = TRACK_LENGTH - 1
    do(state, 0, "a", "2.2", "op")
    assert not state.is_over  # the round finishes first
    do(state, 1, "a", "2.2", "op")
    assert ended(state, "opening_track_full")


def test_free_action_offers_every_effect():
    state = fresh(2, ((5, "op"), (8, "op"), (11, "op")))
    state.sheets[0].marks = 6
    do(state, 0, "a+f", "2.3")
    kinds = {a.effect for a in state.legal_actions(0) if isinstance(a, Effect)}
    assert kinds == {"op", "con", "up", "show", "limo"}
    do(state, 0, "show1")
    assert state.sheets[0].shows == [1, 0]


def test_expansion_copies_a_neighbour_and_circles_the_loan():
    state = fresh(2, ((5, "op"), (8, "op"), (11, "op")))
    sh = state.sheets[0]
    sh.marks = 9
    do(state, 0, "a+x", "2.5")
    assert state.turns[0].stage == 2
    assert Expand(slot("2.6"), "l") in state.legal_actions(0)
    refused(state, 0, "x2.8l", "nlv.expansion")
    do(state, 0, "x2.6l", "skip")
    sh = state.sheets[0]
    assert sh.nums[slot("2.5")] == sh.nums[slot("2.6")] == 5
    assert sh.exp == 1 and sh.open_loans() == 1
    refused(state, 1, "a+x", "nlv.bonus_group")


def test_limousine_segments_follow_the_lamp_graph():
    state = fresh(2, ((5, "limo"), (8, "limo"), (11, "limo")))
    do(state, 0, "a", "2.2")
    assert sorted(a.target for a in state.legal_actions(0) if isinstance(a, Effect)) == ["e", "n"]
    do(state, 0, "limo e")
    sh = state.sheets[0]
    assert sh.carpets >> slot("4.3") & 1  # drove past the VIP casino of street 4
    # Drive a square back to the start: n, w, s; the old segment cannot be reused.
    sh.drive(*next(m for m in sh.limo_moves() if m[0] == "n")[1:])
    sh.drive(*next(m for m in sh.limo_moves() if m[0] == "w")[1:])
    assert sh.segments_missing() == 1
    assert {m[0] for m in sh.limo_moves()} == {"n", "s"}  # e was used already
    sh.drive(*next(m for m in sh.limo_moves() if m[0] == "s")[1:])
    assert sh.route_done and sh.limo_moves() == [] and sh.segments_missing() == 0


def test_one_step_at_a_time_and_only_for_waiting_seats():
    state = fresh(2)
    refused(state, 0, "2.2", "nlv.step")
    do(state, 0, "a", "2.2", "op")
    refused(state, 0, "a", "turn.not_your_turn")


def _go(sh, *dirs):
    for d in dirs:
        move = next((m for m in sh.limo_moves() if m[0] == d), None)
        assert move is not None, f"no unused segment {d} from the current lamp"
        sh.drive(move[1], move[2])


def test_limousine_may_cross_itself_and_completes_at_the_start():
    from tabletown.games.newlasvegas.sheet import Sheet

    sh = Sheet(1)
    _go(sh, "e", "n", "n", "e", "s", "w")  # back at lamp 3:3, crossing the first pass through it
    assert not sh.route_done and {m[0] for m in sh.limo_moves()} == {"w"}
    _go(sh, "w", "s")
    assert sh.route_done and sh.segs == 8 and sh.limo_moves() == []


def test_a_boxed_in_limousine_counts_its_distance_over_any_segment():
    from tabletown.games.newlasvegas.sheet import Sheet

    sh = Sheet(1)
    _go(sh, "e", "n", "e", "s", "w")  # at 4:3 with every segment around it used
    assert sh.limo_moves() == [] and not sh.route_done
    assert sh.segments_missing() == 1
    assert Sheet(1).segments_missing() == 4  # a route never started still needs a whole loop


def test_a_whole_round_typed_at_once_is_all_or_nothing():
    state = fresh(2, ((5, "op"), (8, "con"), (11, "show")))
    refused(state, 0, "b, 2.5, con 2.5", "nlv.construction")  # 2.5 has no crane
    plan = state.parse_action("b, 2.5, con 2.4", 0)
    assert plan == Plan((Pick(1, 1, ""), Open(slot("2.5"), 0), Effect("con", slot("2.4"))))
    assert plan.steps[0].key == ("pick", 1, 1, "")  # the tuple form: the kind, then the fields
    assert state.parse_action(state.format_action(plan), 0) == plan
    state.apply(0, plan)
    assert 0 not in state.to_act and state.sheets[0].is_built(slot("2.4"))
    refused(state, 1, "a, 2.2, op, skip", "nlv.plan_too_long")
