"""Corners of the rulebooks that the other rule tests reach only through random games (found by a
sentence-by-sentence audit against the German and Polish texts, 2026-12-07): ACME's chain floor and
shared street bonus, golf in the first game, easy opening, a course started without a hole, VIP and
luxury casinos, projects kept after their boxes are spent, the reshuffle vote, the solo bank."""

from __future__ import annotations

from tabletown.games.newlasvegas.data import GOLF_RANGE, SLOT_HOLES
from tabletown.games.newlasvegas.scoring import score_multiplayer, score_solo
from tabletown.games.newlasvegas.sheet import Sheet

from .helpers import do, fill, fresh, set_offers


def test_acme_chain_never_below_one():
    # DE/PL solo "Straßen": construction cards +/- crane value, result never below 1.
    _, acme = score_solo(Sheet(1), True, 1, ["op", "show"], 0, [0, 0, 0], 1, True, True)
    assert acme["run"] == 1 and acme["columns"]["streets"] >= 4


def test_solo_street_bonus_tie_both_score():
    # Ruling (doc): equal chains share the bonus in solo too.
    sh = Sheet(1)
    fill(sh, **{"3.1": 1, "3.3": 3})  # chain 2 in street 3
    me, acme = score_solo(sh, True, 1, ["con"] * 6, 0, [0, 0, 0], 1, True, True)  # ACME run 6-4 = 2
    assert acme["run"] == 2
    assert me["detail"]["street_bonus"] == [False, False, True, False]
    assert acme["columns"]["streets"] == 4 * 2 + 4 * 2  # bonus in all 4 streets incl. the tie


def test_first_game_golf_scores_nothing_for_player_and_acme():
    sh = Sheet(3)
    a, _ = GOLF_RANGE
    sh.open_slot(a + 1, 2)
    sh.open_slot(a + 2, 3)
    me, acme = score_solo(sh, False, 1, ["op", "op", "op"], 0, [0, 0, 0], 1, golf=False, bank_rule=False)
    assert me["columns"]["golf"] == 0 and acme["columns"]["golf"] == 0 and acme["columns"]["vault"] == 0
    me2 = score_multiplayer([sh, Sheet(3)], [False, False], False, False)[0]
    assert me2["columns"]["golf"] == 0


def test_easy_opening_never_keeps_the_number():
    state = fresh(2, ((5, "op"), (8, "con"), (11, "show")))
    state.sheets[0].marks = 6
    do(state, 0, "a+e")
    assert all(a.change != 0 for a in state.legal_actions(0))


def test_golf_course_started_on_a_holeless_casino_grows_from_there():
    sh = Sheet(1)
    a, b = GOLF_RANGE
    sh.open_slot(b - 1, 15)  # 1.9: no hole, starts the course
    assert sh.holes() == []
    sh.open_slot(b - 2, 14)  # 1.8 next to it: its hole joins
    assert sh.holes() == list(SLOT_HOLES[b - 2])
    sh.open_slot(a + 1, 2)  # far left: the course can no longer grow left
    sh.open_slot(b - 3, 13)
    assert sh.holes() == list(SLOT_HOLES[b - 2]) and sh.golf_lb


def test_a_vip_casino_the_limousine_passed_scores_only_once_opened():
    sh = Sheet(1)
    for d in ("e",):  # street 4, columns 0->3 passes 4.2, 4.3 (VIP)
        m = next(m for m in sh.limo_moves() if m[0] == d)
        sh.drive(m[1], m[2])
    base = score_multiplayer([sh, Sheet(1)], [False, False], True, False)[0]["columns"]["limousine"]
    fill(sh, **{"4.3": 3})
    opened = score_multiplayer([sh, Sheet(1)], [False, False], True, False)[0]["columns"]["limousine"]
    assert opened - base == 3  # VIP value 3


def test_h7_points_kept_after_spending_the_boxes():
    state = fresh(2, ((5, "op"), (8, "op"), (11, "op")))
    state.projects = ("H7", "S1", "C5")
    state.sheets[0].marks = 12  # 12 unused; after op 13
    do(state, 0, "a", "2.2", "op")
    do(state, 1, "a", "2.2", "skip")
    if state.phase == "reshuffle":
        do(state, 0, "keep")
    assert state.sheets[0].proj[0] == 8
    set_offers(state, ((5, "op"), (8, "op"), (11, "op")))
    do(state, 0, "b+f", "2.3", "skip")  # spend a group: 10 unused left... spend again next
    do(state, 1, "b", "2.3", "skip")
    set_offers(state, ((9, "op"), (10, "op"), (11, "op")))
    do(state, 0, "a+f", "2.5", "skip")
    do(state, 1, "a", "2.5", "skip")
    assert state.sheets[0].unused_marks() < 10 and state.sheets[0].proj[0] == 8


def test_no_reshuffle_vote_for_a_later_project():
    state = fresh(2, ((5, "op"), (8, "op"), (11, "op")))
    state.projects = ("H1", "S1", "C5")
    state.sheets[0].shows = [3, 3]
    do(state, 0, "a", "2.2", "skip")
    do(state, 1, "a", "2.2", "skip")
    assert state.phase == "reshuffle"
    do(state, 0, "keep")
    set_offers(state, ((5, "op"), (8, "op"), (11, "op")))
    state.sheets[1].shows = [3, 3]
    do(state, 0, "b", "2.3", "skip")
    do(state, 1, "b", "2.3", "skip")
    assert state.sheets[1].proj[2] == 6 and state.phase == "round"


def test_solo_acme_no_vault_penalty_when_only_the_player_took_the_loan():
    _, acme = score_solo(Sheet(1), True, 13, [], 0, [0, 0, 0], 5, True, True)
    assert not acme["loan"] and acme["columns"]["vault"] == 0
    me, acme = score_solo(Sheet(1), False, 13, [], 0, [0, 0, 0], 13, True, True)
    assert acme["loan"] and me["detail"]["bank_bundles"] == 2  # ACME alone: at most half -> 2
