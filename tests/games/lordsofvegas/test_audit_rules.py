"""Audit: rules the first test pass left untested, checked sentence by sentence against the rulebook.

Seats are numbered from 0. Scripted dice (ScriptedDice) fail loudly if the engine rolls more dice
than a scenario expects, so "no re-roll" cases are checked by scripting no dice at all.
"""

from __future__ import annotations

import pytest

from tabletown.games.lordsofvegas import GAME
from tabletown.games.lordsofvegas.actions import Gamble
from tabletown.games.lordsofvegas.data import GAME_END, IN_EXCLUDED_BLOCK, NUM_LOTS
from tabletown.games.lordsofvegas.state import ACTION, OFFER, OVER, PICK_DIE, PLACE

from .helpers import ScriptedDice, act, blank, check_invariants, lot, mark, put, refused

SINGLE_TILES = ["c1", "c2", "c3", "c4", "c5", "c6", "c7", "c8", "c9", "c10", "c11"]


def _checkerboard(state, seat: int, names=SINGLE_TILES) -> None:
    """One-tile casinos (alternating colours never touch) holding ``seat``'s dice showing 1."""
    for i, name in enumerate(names):
        put(state, name, ("purple", "silver")[i % 2], seat, 1)


# ---------------------------------------------------------------- set-up
@pytest.mark.parametrize("players", [2, 3, 4])
def test_game_end_lies_on_top_of_the_fourth_of_four_near_equal_stacks(players: int) -> None:
    for seed in range(40):
        state = GAME.new_game(players, {}, seed=seed)
        dealt = 2 * players + sum(event.kind == "dealt_again" for event in state.log)
        size = 48 - dealt  # lot cards left after the deal, before Game End goes in
        below = state.ge_index  # cards under Game End: the fourth stack
        assert below in (size // 4, -(-size // 4)), (seed, size, below)
        assert state.deck[below] == GAME_END or GAME_END in state.discard


@pytest.mark.parametrize("players", [2, 3, 4])
def test_each_player_starts_with_markers_on_exactly_their_two_dealt_lots(players: int) -> None:
    for seed in range(40):
        state = GAME.new_game(players, {}, seed=seed)
        first_draw = [c for c in state.discard[2 * players :] if c != GAME_END]
        for seat in range(players):
            event = next(e for e in state.log if e.kind == "dealt" and e.data["seat"] == seat)
            dealt = {lot(n) for n in event.data["lots"]}
            assert len(dealt) == 2
            if players == 2:
                assert not any(IN_EXCLUDED_BLOCK[c] for c in dealt)
            owned = {c for c in range(NUM_LOTS) if state.marker[c] == seat}
            # The first player has also taken over the lot of their first draw.
            extra = owned - dealt
            assert dealt <= owned
            assert extra <= set(first_draw) and (not extra or seat == state.active)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_highest_roll_off_total_goes_first(players: int) -> None:
    for seed in range(40):
        state = GAME.new_game(players, {}, seed=seed)
        rolls = [e.data for e in state.log if e.kind == "roll_off"]
        last = dict(zip(rolls[-1]["seats"], rolls[-1]["totals"], strict=True))
        best = max(last.values())
        assert [s for s, r in last.items() if r == best] == [state.active]
        for data in rolls:  # every roll is a 2d6 total
            assert all(2 <= r <= 12 for r in data["totals"])
        first = next(e for e in state.log if e.kind == "first_player")
        assert first.data["seat"] == state.active


# ---------------------------------------------------------------- payouts
def test_points_count_every_tile_even_without_a_die() -> None:
    state = blank(2, money=0, deck=["a1"])  # A1 pays brown
    put(state, "c1", "brown", 0, 6)
    put(state, "c2", "brown", None)
    put(state, "c3", "brown", 1, 2)
    state.active = 1
    act(state, 1, "end")
    assert state.score == [3, 0]
    assert state.money == [6 + 1, 2]  # pips to each die owner; seat 0's new lot A1 pays $1


def test_strip_card_pays_a_whole_casino_with_one_tile_on_the_strip() -> None:
    state = blank(2, money=0, deck=["d5"])  # D5 pays the Strip
    put(state, "c2", "gold", 0, 5)  # C2 is off the Strip, C3 is on it
    put(state, "c3", "gold", 1, 2)
    put(state, "c1", "silver", 1, 6)  # off the Strip: pays nothing
    state.active = 1
    act(state, 1, "end")
    assert state.score == [2, 0]
    assert state.money == [5 + 1, 2]


def test_instant_win_beats_a_richer_player() -> None:
    state = blank(2, money=0, deck=["a1", "a4"])
    put(state, "c1", "brown", 0, 6)
    put(state, "c2", "brown", 0, 1)
    state.score = [81, 85]
    state.money = [0, 500]
    state.active = 1
    act(state, 1, "end")
    assert state.score[0] == 81  # 2 points cannot pay the 9-point step to 90
    state = blank(2, money=0, deck=["a1", "a4"])
    for name in ("c1", "c2", "c3", "c4", "c5", "c6", "c7", "c8", "c9"):
        put(state, name, "brown", 0, 6 if name == "c1" else 1)
    state.score = [81, 85]
    state.money = [0, 500]
    state.active = 1
    act(state, 1, "end")
    assert state.phase == OVER and state.result().winners == (0,)


# ---------------------------------------------------------------- ties
def test_no_reroll_when_the_tied_top_dice_share_an_owner() -> None:
    state = blank(2, money=50)
    put(state, "c5", "silver", 0, 4)
    put(state, "c2", "silver", 1, 3)
    mark(state, 0, "c6")  # printed 4, joins C5
    state.rng = ScriptedDice([])
    act(state, 0, "build c6 silver")
    assert state.boss(state.casino_of(lot("c2"))) == 0
    check_invariants(state)


def test_no_reroll_when_the_tie_is_below_the_top() -> None:
    state = blank(2, money=50)
    put(state, "c5", "silver", 0, 6)
    put(state, "c2", "silver", 1, 4)
    mark(state, 0, "c6")  # printed 4: ties seat 1's 4, but seat 0's 6 is highest
    state.rng = ScriptedDice([])
    act(state, 0, "build c6 silver")
    assert state.diev[lot("c2")] == 4 and state.diev[lot("c6")] == 4


def test_ties_reroll_again_until_one_die_is_highest() -> None:
    state = blank(2, money=50)
    put(state, "c2", "silver", 1, 4)
    put(state, "c5", "silver", None)  # links C2 and C6
    mark(state, 0, "c6")  # printed 4: ties seat 1 for the top
    state.rng = ScriptedDice([2, 2, 1, 5])  # first re-roll ties again at 2
    act(state, 0, "build c6 silver")
    assert state.diev[lot("c2")] == 1 and state.diev[lot("c6")] == 5
    assert sum(event.kind == "tie_reroll" for event in state.log) == 2
    assert state.boss(state.casino_of(lot("c2"))) == 0


def test_take_over_at_the_same_value_can_make_a_tie_that_is_rerolled() -> None:
    state = blank(3, money=0, deck=["a5"])
    put(state, "a5", "gold", 2, 4)  # sprawled; its card is still in the deck
    put(state, "a4", "gold", 2, 4)
    state.active = 0
    state.rng = ScriptedDice([6, 1])
    act(state, 0, "end")  # seat 1 draws A5 and takes it over showing 4: seat 1 and seat 2 tie
    assert state.dieo[lot("a5")] == 1
    assert (state.diev[lot("a4")], state.diev[lot("a5")]) == (6, 1)
    assert state.boss(state.casino_of(lot("a4"))) == 2
    check_invariants(state)


# Alike by shape to test_reorganize_lets_every_player_with_several_dice_place_them (below):
# the same set-up on purpose, each test checks its own rule.
def test_moving_the_boss_die_away_rerolls_the_tie_it_leaves_behind() -> None:
    # All dice out: building moves a die. Taking seat 0's 6 out of E1-E3 leaves 5 against 5.
    state = blank(3, money=100)
    put(state, "e1", "gold", 0, 6)
    put(state, "e2", "gold", 1, 5)
    put(state, "e3", "gold", 2, 5)
    _checkerboard(state, 0)
    mark(state, 0, "a1")
    assert state.dice_out[0] == 12
    act(state, 0, "build a1 brown")
    assert state.phase == PICK_DIE
    state.rng = ScriptedDice([4, 2])
    act(state, 0, "take e1")
    assert state.dieo[lot("e1")] == -1 and state.tile[lot("e1")] >= 0
    assert (state.diev[lot("e2")], state.diev[lot("e3")]) == (4, 2)
    assert state.boss(state.casino_of(lot("e1"))) == 1
    check_invariants(state)


# ---------------------------------------------------------------- reorganize
# Alike by shape to test_moving_the_boss_die_away_rerolls_the_tie_it_leaves_behind (above):
# the same set-up on purpose, each test checks its own rule.
def test_reorganize_lets_every_player_with_several_dice_place_them() -> None:
    state = blank(2, money=50)
    put(state, "e1", "gold", 0, 2)
    put(state, "e2", "gold", 0, 3)
    put(state, "e4", "gold", 1, 1)
    put(state, "e5", "gold", 1, 4)
    state.active = 1
    state.rng = ScriptedDice([2, 6, 3, 5])  # the reorganizer (seat 1) rolls first
    act(state, 1, "reorg e1")
    assert state.money == [50, 40]  # $1 per pip of every die: 2 + 3 + 1 + 4
    assert state.phase == PLACE and state.to_act == (1,)
    refused(state, 0, "put e1", "turn.not_your_turn")
    refused(state, 1, "put e1", "place.not_waiting")
    act(state, 1, "put e4")
    assert state.to_act == (0,)
    act(state, 0, "put e2")
    assert state.phase == ACTION and state.to_act == (1,)
    assert [state.diev[lot(n)] for n in ("e1", "e2", "e4", "e5")] == [3, 5, 6, 2]
    assert state.boss(state.casino_of(lot("e1"))) == 1


def test_equal_rerolled_values_need_no_placing() -> None:
    state = blank(2, money=50)
    put(state, "e1", "gold", 0, 2)
    put(state, "e2", "gold", 0, 3)
    state.rng = ScriptedDice([4, 4])
    act(state, 0, "reorg e1")
    assert state.phase == ACTION
    assert (state.diev[lot("e1")], state.diev[lot("e2")]) == (4, 4)


def test_reorganize_needs_no_boss_and_every_die_is_rerolled() -> None:
    state = blank(3, money=50)
    put(state, "e1", "gold", 1, 6)
    put(state, "e2", "gold", 0, 1)
    put(state, "e3", "gold", 2, 2)
    state.rng = ScriptedDice([3, 5, 4])  # seat 0, then seat 1, then seat 2
    act(state, 0, "reorg e3")
    assert state.money[0] == 50 - 9
    assert [state.diev[lot(n)] for n in ("e1", "e2", "e3")] == [5, 3, 4]
    assert state.boss(state.casino_of(lot("e1"))) == 1


# ---------------------------------------------------------------- gamble
@pytest.mark.parametrize(
    ("dice", "gambler", "boss"),
    [
        ((1, 2), 30 + 5, 30 - 2),  # 3 wins $5: the boss pays floor(5/2) = 2, the bank 3
        ((3, 4), 30 - 5, 30 + 2),  # 7 loses $5: the boss gets 2, the bank 3
        ((1, 1), 30 + 10, 30 - 5),  # 2 wins $10: the boss pays 5, the bank 5
    ],
)
def test_lay_off_rounds_the_boss_half_down(dice, gambler, boss) -> None:
    state = blank(3, money=30)
    put(state, "c1", "silver", 1, 5)  # one tile: the bet limit is $5
    refused(state, 0, "gamble c1 6", "gamble.limit")
    state.rng = ScriptedDice(list(dice))
    act(state, 0, "gamble c1 5")
    act(state, 1, "layoff")
    assert (state.money[0], state.money[1]) == (gambler, boss)


# The casino of test_rules.py's test_gamble_boss_pays_only_what_they_have on purpose: a lay-off
# there, no lay-off here.
def test_lay_off_bank_share_is_paid_even_when_the_boss_is_short() -> None:
    state = blank(3, money=30)
    put(state, "c1", "silver", 1, 5)
    put(state, "c2", "silver", 1, 4)
    state.money[1] = 1
    state.rng = ScriptedDice([5, 6])  # 11 wins the $10 bet
    act(state, 0, "gamble c1 10")
    act(state, 1, "layoff")
    assert state.money[1] == 0 and state.money[0] == 30 + 1 + 5


def test_gamble_at_a_casino_where_you_hold_a_lower_die() -> None:
    state = blank(3, money=30)
    put(state, "c1", "silver", 1, 5)
    put(state, "c2", "silver", 0, 2)
    assert Gamble(lot("c1"), 10) in state.legal_actions(0)
    state.rng = ScriptedDice([2, 2])  # 4 wins
    act(state, 0, "gamble c2 10")
    act(state, 1, "nolayoff")
    assert state.money[:2] == [40, 20]


# ---------------------------------------------------------------- build, sprawl, remodel
def test_remodel_with_exactly_enough_tiles_left() -> None:
    state = blank(2, money=50)
    put(state, "c5", "gold", 0, 3)
    put(state, "c4", "gold", 0, 2)
    state.tiles_left[1] = 2
    act(state, 0, "remodel c5 brown")
    assert state.tiles_left[1] == 0 and state.tile[lot("c4")] == 1
    assert not any(a.kind in ("build", "remodel") and a.color == 1 for a in state.legal_actions(0))


def test_sprawl_joins_every_touching_casino_of_that_colour() -> None:
    state = blank(3, money=50)
    put(state, "c4", "gold", 0, 3)  # seat 0 bosses C4
    put(state, "c6", "gold", 1, 5)  # seat 1 bosses C6; C5 touches both
    act(state, 0, "sprawl c5 gold")  # C5 printed 1, costs 2 x $8
    assert state.money[0] == 50 - 16
    assert state.casino_of(lot("c4")) == (lot("c4"), lot("c5"), lot("c6"))
    assert state.boss(state.casino_of(lot("c5"))) == 1  # seat 1's 5 is highest
    check_invariants(state)


def test_sprawl_is_from_a_casino_you_boss_not_merely_hold_a_die_in() -> None:
    state = blank(3, money=50)
    put(state, "c4", "gold", 1, 5)
    put(state, "c1", "gold", 0, 3)
    assert not any(a.kind == "sprawl" for a in state.legal_actions(0))
    refused(state, 0, "sprawl c7 gold", "sprawl.not_boss")


def test_build_with_all_dice_out_takes_a_die_and_leaves_its_tile() -> None:
    state = blank(2, money=100)
    _checkerboard(state, 0, SINGLE_TILES + ["c12"])
    mark(state, 0, "e1")
    act(state, 0, "build e1 gold")
    assert state.phase == PICK_DIE
    refused(state, 0, "take e1", "pick_die.not_yours")
    refused(state, 0, "take a1", "pick_die.not_yours")
    act(state, 0, "take c12")
    assert state.tile[lot("c12")] >= 0 and state.dieo[lot("c12")] == -1
    assert (state.dieo[lot("e1")], state.diev[lot("e1")]) == (0, 3)  # E1's printed die
    # The tile without a die belongs to nobody: it pays nobody and cannot be gambled at.
    refused(state, 1, "end", "turn.not_your_turn")
    state.active = 1
    refused(state, 1, "gamble c12 1", "gamble.no_boss")


# ---------------------------------------------------------------- trading
def test_only_givers_must_accept() -> None:
    state = blank(3, money=20)
    mark(state, 1, "a3")
    act(state, 0, "offer 0>1:$5 0>2:$1 1>0:a3")  # seat 2 only receives
    assert state.phase == OFFER and state.to_act == (1,)
    act(state, 1, "accept")
    assert state.money == [14, 25, 21] and state.marker[lot("a3")] == 0


def test_a_traded_die_keeps_its_value_whatever_the_printed_die() -> None:
    state = blank(2, money=20)
    put(state, "a6", "gold", 1, 1)  # A6 is printed 6
    act(state, 0, "offer 0>1:$2 1>0:die-a6")
    act(state, 1, "accept")
    assert (state.dieo[lot("a6")], state.diev[lot("a6")]) == (0, 1)


def test_game_end_draw_leaves_no_actions_or_trades() -> None:
    state = blank(2, money=20, deck=["end"])
    mark(state, 0, "a1")
    state.active = 1
    act(state, 1, "end")
    assert state.phase == OVER and state.to_act == ()
    assert all(state.legal_actions(s) == [] for s in range(2))
    refused(state, 0, "offer 0>1:$1", "game.over")
