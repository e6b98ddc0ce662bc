"""Corners of the rulebook that the other rule tests reach only through random games (found by a
sentence-by-sentence audit against the Russian text, 2026-12-07): each builds its position with the
tests' helpers and checks one rule by its numbers."""

from __future__ import annotations

from tabletown.games.lordsofvegas.state import OVER, PICK_DIE

from .helpers import ScriptedDice, act, blank, check_invariants, lot, mark, put

ONE_TILE_LOTS = ("c1", "c2", "c3", "c4", "c5", "c6", "c7", "c8", "c9", "c10", "c11", "c12")


def test_a_sprawl_with_all_twelve_dice_out_moves_one_to_the_printed_value() -> None:
    state = blank(2, money=100)
    for i, name in enumerate(ONE_TILE_LOTS[:11]):
        put(state, name, ("purple", "silver")[i % 2], 0, 1)
    put(state, "a2", "gold", 0, 2)  # the twelfth die
    act(state, 0, "sprawl a5 gold")
    assert state.phase == PICK_DIE
    act(state, 0, "take c1")
    assert (state.dieo[lot("a5")], state.diev[lot("a5")]) == (0, 3) and state.dieo[lot("c1")] == -1
    assert state.money[0] == 100 - 18
    check_invariants(state)


def test_a_win_against_a_penniless_boss_pays_only_the_bank_s_half_if_laid_off() -> None:
    for lay_off, gain in ((False, 0), (True, 3)):
        state = blank(3, money=30)
        put(state, "c1", "silver", 1, 5)
        state.money[1] = 0
        state.rng = ScriptedDice([4, 5])  # 9: a win
        act(state, 0, "gamble c1 5")
        act(state, 1, "layoff" if lay_off else "nolayoff")
        assert state.money[:2] == [30 + gain, 0]


def test_a_double_win_laid_off_splits_the_payment_between_boss_and_bank() -> None:
    state = blank(3, money=30)
    put(state, "c1", "silver", 1, 5)
    put(state, "c2", "silver", 1, 4)
    state.rng = ScriptedDice([6, 6])  # 12: twice the stake
    act(state, 0, "gamble c1 7")
    act(state, 1, "layoff")
    assert state.money[:2] == [44, 23]  # 14 won: 7 from the boss, 7 from the bank


def test_after_the_top_tie_is_re_rolled_a_tie_below_is_re_rolled_too() -> None:
    # Seat 1 builds C12 (printed 5) beside seat 0's 5 on C9; both sides also have a 4 there.
    state = blank(2, money=50)
    put(state, "c9", "silver", 0, 5)
    put(state, "c8", "silver", 0, 4)
    put(state, "c11", "silver", 1, 4)
    mark(state, 1, "c12")
    state.active = 1
    state.rng = ScriptedDice([1, 1, 3, 2])  # the 5s tie again low; then the 4s, now on top, re-roll
    act(state, 1, "build c12 silver")
    assert [state.diev[lot(n)] for n in ("c8", "c9", "c11", "c12")] == [3, 1, 2, 1]
    assert state.boss(state.casino_of(lot("c8"))) == 0
    assert not state.rng.script


def test_a_take_over_of_a_bare_tile_with_all_dice_out_moves_a_die_there() -> None:
    state = blank(2, money=0, deck=["a5"])
    for i, name in enumerate(ONE_TILE_LOTS):
        put(state, name, ("purple", "silver")[i % 2], 1, 1)
    put(state, "a5", "gold", None)
    act(state, 0, "end")
    assert state.phase == PICK_DIE and state.to_act == (1,)
    act(state, 1, "take c2")
    assert (state.dieo[lot("a5")], state.diev[lot("a5")]) == (1, 3)
    check_invariants(state)


def test_two_casinos_may_be_reorganized_in_one_turn() -> None:
    state = blank(2, money=50)
    put(state, "c1", "silver", 0, 2)
    put(state, "e1", "gold", 0, 3)
    state.rng = ScriptedDice([4, 6])
    act(state, 0, "reorg c1")
    act(state, 0, "reorg e1")
    assert state.diev[lot("c1")] == 4 and state.diev[lot("e1")] == 6 and state.money[0] == 45


def test_a_reorganization_pays_for_dice_only_and_leaves_a_bare_tile_bare() -> None:
    state = blank(2, money=50)
    put(state, "c1", "silver", 0, 2)
    put(state, "c2", "silver", None)
    put(state, "c3", "silver", 1, 1)
    state.rng = ScriptedDice([5, 6])
    act(state, 0, "reorg c2")
    assert state.money[0] == 47 and state.dieo[lot("c2")] == -1 and state.diev[lot("c2")] == 0


def test_a_lot_freed_for_an_eleventh_marker_may_be_sprawled_onto() -> None:
    state = blank(2, money=100, deck=["e1"])
    mark(state, 1, "a1", "a2", "a3", "a4", "a6", "b1", "b2", "b3", "b4", "b5")
    put(state, "a5", "gold", 1, 6)
    act(state, 0, "end")
    act(state, 1, "free a4")
    act(state, 1, "sprawl a4 gold")
    assert state.tile[lot("a4")] == 2


def test_game_end_pays_the_strip_and_the_lots_before_the_game_stops() -> None:
    state = blank(2, money=0, deck=["end"])
    put(state, "c3", "brown", 0, 6)
    for name in ("c6", "c9", "c2", "c5", "c8", "c1", "c4", "c7"):
        put(state, name, "brown", None)
    mark(state, 1, "a1")
    state.score = [81, 0]
    state.active = 1
    act(state, 1, "end")
    assert state.phase == OVER and state.score[0] == 90 and state.money == [6, 1]


def test_two_players_lots_pay_on_every_f_card_drawn_again() -> None:
    state = blank(2, money=0, deck=["f5", "f6", "a1"])
    mark(state, 0, "b1")
    state.active = 1
    act(state, 1, "end")
    assert state.money[0] == 3 + 1  # B1's marker paid at each of three draws, and A1's new marker once


def test_two_players_reaching_90_during_f_draws_ends_the_game_at_once() -> None:
    state = blank(2, money=0, deck=["f5", "a1"])  # F5 pays brown
    put(state, "c1", "brown", 0, 6)
    for name in ("c2", "c3", "c4", "c5", "c6", "c7", "c8", "c9"):
        put(state, name, "brown", None)
    state.score = [81, 0]
    state.active = 1
    act(state, 1, "end")
    assert state.phase == OVER and state.score[0] == 90 and state.marker[lot("a1")] == -1
