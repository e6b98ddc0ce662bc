"""Rules a later audit found implemented but untested, each pinned against the rulebook
(lords-of-vegas.ru.txt), the reference (lords-of-vegas.md) and our rulings (docs/games/lordsofvegas.md).

Seats are numbered from 0. Scripted dice (ScriptedDice) fail loudly if the engine rolls more dice
than a scenario expects.
"""

from __future__ import annotations

import pytest

import tabletown.games.lordsofvegas.state as lv_state
from tabletown.games.lordsofvegas import GAME
from tabletown.games.lordsofvegas.state import ACTION, FREE_LOT, OVER, PICK_DIE

from .helpers import ScriptedDice, act, blank, check_invariants, lot, mark, put, refused

TEN_LOTS = ("a1", "a2", "a3", "a4", "a5", "a6", "b1", "b2", "b3", "b4")


# ---------------------------------------------------------------- 1. two players reach 90 at once
# Rulebook («Победа»): you also win as soon as you reach 90; a tie on points goes to the player with
# more money. Reference: "Reaching 90 wins at once"; "ties go to more money". Our ruling (docs, Rulings):
# the game ends after the payout in progress, and if two players got there in it, money decides.
@pytest.mark.parametrize(
    ("money", "after", "ranks"),
    [
        ([10, 13], [16, 15], (1, 2)),  # seat 1 was richer before the payout, seat 0 is after it
        ([10, 20], [16, 22], (2, 1)),  # not "the first seat scored wins"
        ([11, 15], [17, 17], (1, 1)),  # equal on points and money: both share the win
    ],
)
def test_two_players_reaching_90_in_one_payout_are_split_by_money(money, after, ranks) -> None:
    state = blank(2, money=0, deck=["a6"])  # A6 pays the Strip
    # Two 9-tile casinos on the Strip (C3, C6, C9 and D1, D4, D7 face it); tiles score without dice.
    put(state, "c1", "brown", 0, 6)
    for name in ("c2", "c3", "c4", "c5", "c6", "c7", "c8", "c9"):
        put(state, name, "brown", None)
    put(state, "d1", "gold", 1, 1)
    for name in ("d2", "d3", "d4", "d5", "d6", "d7", "d8", "d9"):
        put(state, name, "gold", None)
    state.score = [81, 81]  # 9 points from one casino pay the last step, 81 -> 90
    state.money = money[:]
    act(state, 0, "end")  # seat 1 draws A6: its marker pays $1, seat 0's die $6, seat 1's die $1
    assert state.phase == OVER and state.to_act == ()
    assert state.score == [90, 90]  # the whole payout is scored, not only the first seat to 90
    assert state.money == after
    assert state.result().ranks == ranks
    assert [e.data["reason"] for e in state.log if e.kind == "game_over"] == ["instant_win"]


# ---------------------------------------------------------------- 2. the memory of a reorganized die
# Rulebook («Действие - реорганизация»): each die may be re-rolled only once per turn, even if its tile
# has since become part of a larger casino; to keep track, put a marker on each tile involved. The code
# remembers the tiles (``reorged``, a bitmask of lots) for the rest of the turn. Reference ruling: tie
# re-rolls are not reorganizations. Our ruling (docs): a die moved to a new tile counts as fresh there,
# a traded die keeps its tile's memory.
def test_the_reorganize_memory_lasts_only_until_the_turn_ends() -> None:
    state = blank(2, money=50, deck=["b5", "b6"])  # green and brown: the silver C1 is not paid
    put(state, "c1", "silver", 0, 2)
    state.rng = ScriptedDice([4])
    act(state, 0, "reorg c1")
    refused(state, 0, "reorg c1", "reorganize.once")
    act(state, 0, "end")  # seat 1 draws B5
    act(state, 1, "end")  # seat 0 draws B6: a new turn forgets the re-rolls
    state.rng = ScriptedDice([6])
    act(state, 0, "reorg c1")
    assert state.diev[lot("c1")] == 6 and state.money[0] == 50 - 2 + 1 - 4  # $1 per pip each time; B6 pays $1


def test_tie_rerolls_are_not_reorganizations() -> None:
    state = blank(2, money=50)
    put(state, "c2", "silver", 1, 4)
    put(state, "c5", "silver", None)  # links C2 and C6
    mark(state, 0, "c6")  # printed 4: ties seat 1 for the top
    state.rng = ScriptedDice([1, 5])  # the free tie re-roll
    act(state, 0, "build c6 silver")
    assert state.diev[lot("c2")] == 1 and state.diev[lot("c6")] == 5
    state.rng = ScriptedDice([3, 2])  # the reorganizer (seat 0) rolls first, then seat 1
    act(state, 0, "reorg c6")
    assert state.money[0] == 50 - 12 - (1 + 5)
    assert (state.diev[lot("c6")], state.diev[lot("c2")]) == (3, 2)


def test_a_die_moved_off_a_reorganized_tile_keeps_its_re_roll_on_its_new_tile() -> None:
    # The rulebook: each die is re-rolled at most once a turn, even when its tile joins a bigger
    # casino; so a re-rolled die moved to a new tile (all 12 dice out) cannot be re-rolled again.
    state = blank(2, money=100)
    for i, name in enumerate(("c1", "c2", "c3", "c4", "c5", "c6", "c7", "c8", "c9", "c10", "c11")):
        put(state, name, ("purple", "silver")[i % 2], 0, 1)  # one-tile casinos that never touch
    put(state, "e1", "gold", 0, 3)  # seat 0's 12th die
    mark(state, 0, "a1")
    mark(state, 0, "a2")
    state.rng = ScriptedDice([5])
    act(state, 0, "reorg e1")
    refused(state, 0, "reorg e1", "reorganize.once")
    act(state, 0, "build a1 brown")  # all 12 dice out: one is moved
    assert state.phase == PICK_DIE
    act(state, 0, "take e1")  # the re-rolled die leaves E1 for A1, showing A1's printed 3
    assert state.dieo[lot("e1")] == -1 and (state.dieo[lot("a1")], state.diev[lot("a1")]) == (0, 3)
    assert state.parse_action("reorg a1", 0) not in state.legal_actions(0)
    refused(state, 0, "reorg a1", "reorganize.once")
    # A die that was not re-rolled this turn is fresh wherever it goes.
    act(state, 0, "build a2 green")  # another colour: its own casino beside A1
    act(state, 0, "take c1")
    state.rng = ScriptedDice([6])
    act(state, 0, "reorg a2")
    assert state.diev[lot("a2")] == 6
    check_invariants(state)


def test_a_traded_die_keeps_its_tiles_reorganize_memory() -> None:
    state = blank(2, money=50)
    put(state, "c1", "silver", 0, 3)
    put(state, "c2", "gold", 0, 2)
    state.rng = ScriptedDice([5])
    act(state, 0, "reorg c1")
    act(state, 0, "offer 0>1:die-c1 1>0:$3")
    act(state, 1, "accept")
    assert (state.dieo[lot("c1")], state.diev[lot("c1")]) == (1, 5)
    act(state, 0, "remodel c2 silver")  # C2 joins C1: seat 1's 5 (re-rolled) over seat 0's fresh 2
    assert state.casino_of(lot("c2")) == (lot("c1"), lot("c2"))
    refused(state, 0, "reorg c2", "reorganize.once")


# ---------------------------------------------------------------- 3. markers_full=hold and the payout
# Rulebook («Лоты приносят деньги»): every lot with a player's marker, i.e. every lot the player owns,
# pays that player $1. Reference ruling: a player with all 10 markers out who gains a lot frees one first
# (option: hold it without a marker). Docs (Options, Rulings): with `hold` a player can own more than 10
# lots, and the view shows a negative number of markers left; with `free` the freed lot does not pay.
def test_markers_full_hold_owns_an_eleventh_lot_and_it_pays_like_the_others() -> None:
    state = blank(2, money=0, deck=["e1"], markers_full="hold")
    mark(state, 1, *TEN_LOTS)
    act(state, 0, "end")  # seat 1 draws E1 (it pays green: no casinos)
    assert state.phase == ACTION and state.to_act == (1,)  # no lot to free first
    assert state.marker[lot("e1")] == 1 and state.markers_out[1] == 11
    assert [e.data["amounts"] for e in state.log if e.kind == "lots_pay"] == [[0, 11]]
    assert state.money == [0, 11]
    assert state.view(1)["state"]["players"][1]["markers_left"] == -1
    act(state, 1, "build e1 gold")  # the held lot is a lot like the others: it can be built on
    assert state.markers_out[1] == 10 and state.money[1] == 11 - 9
    check_invariants(state)


def test_markers_full_free_pays_ten_lots_after_freeing_one() -> None:
    # The default, for contrast with the test above: same draw, the freed lot does not pay.
    state = blank(2, money=0, deck=["e1"])
    mark(state, 1, *TEN_LOTS)
    act(state, 0, "end")
    assert state.phase == FREE_LOT
    act(state, 1, "free b4")
    assert state.markers_out[1] == 10 and state.money == [0, 10]


# ---------------------------------------------------------------- 4. the first-player roll-off
# Rulebook («Очередность хода»): every player rolls 2 dice; the highest total starts; play passes to the
# left. Reference: "First player: highest 2d6, play passes left". Docs (Set-up 3): players tied for
# highest roll again; play goes round the seats in increasing order.
def test_roll_off_rerolls_only_the_tied_leaders_and_play_passes_left(monkeypatch) -> None:
    dice = ScriptedDice([2, 3, 6, 5, 1, 1, 5, 6, 3, 1, 4, 4])
    monkeypatch.setattr(lv_state, "SeededRNG", lambda seed: dice)  # the set-up's random source
    state = GAME.new_game(4, {}, seed=5)
    rolls = [e.data for e in state.log if e.kind == "roll_off"]
    assert rolls == [
        {"seats": [0, 1, 2, 3], "totals": [5, 11, 2, 11]},
        {"seats": [1, 3], "totals": [4, 8]},  # only the two 11s roll again
    ]
    assert dice.script == []  # nobody else rolled
    assert [e.data["seat"] for e in state.log if e.kind == "first_player"] == [3]
    assert state.active == 3 and state.to_act == (3,)
    act(state, 3, "end")
    assert state.active == 0  # the next seat, round the table
