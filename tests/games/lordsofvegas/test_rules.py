"""Each rule and each refusal (with its rule id); refusals leave the state exactly as it was."""

from __future__ import annotations

import pytest

from tabletown.games.lordsofvegas import GAME
from tabletown.games.lordsofvegas.actions import Build, Take
from tabletown.games.lordsofvegas.data import GAME_END, IN_EXCLUDED_BLOCK, NUM_CARDS, START_MONEY
from tabletown.games.lordsofvegas.state import FREE_LOT, LAYOFF, OVER, PICK_DIE

from .helpers import ScriptedDice, act, blank, check_invariants, lot, mark, put, refused


# ---------------------------------------------------------------- set-up
@pytest.mark.parametrize("players", [2, 3, 4])
def test_setup(players: int) -> None:
    for seed in range(30):
        state = GAME.new_game(players, {}, seed=seed)
        check_invariants(state)
        # Two dealt lots each; the first player has also taken over the (empty) lot of the first draw.
        assert state.turn == 1
        assert [m - (s == state.active) for s, m in enumerate(state.markers_out)] == [2] * players
        # The cards dealt are face up in the discard; start money is the sum of the two start values.
        dealt = [c for c in state.discard if c != GAME_END]
        for seat in range(players):
            mine = [c for c in dealt if state.marker[c] == seat]
            if players == 2:
                assert not any(IN_EXCLUDED_BLOCK[c] for c in mine)
            assert len(mine) >= 2
        # Game End sits under the top three of four near-equal stacks.
        assert state.deck.count(GAME_END) == 1 or GAME_END in state.discard
        assert len(state.deck) + len(state.discard) == NUM_CARDS


def test_start_money_and_game_end_depth() -> None:
    state = GAME.new_game(4, {}, seed=11)
    placed = next(e for e in state.log if e.kind == "game_end_placed")
    assert placed.data == {"above": 30, "cards": 40}
    words = [GAME.describe_event(e) for e in state.view(None)["events"]]
    assert "Game End is placed under the top 30 of 40 cards" in words
    for seat in range(4):
        dealt = next(e for e in state.log if e.kind == "dealt" and e.data["seat"] == seat)
        money = sum(START_MONEY[lot(n)] for n in dealt.data["lots"])
        assert dealt.data["money"] == money
        assert any(w.startswith(f"P{seat} is dealt ") and w.endswith(f"starts with ${money}") for w in words)
    assert any(e.kind == "roll_off" for e in state.log)


def test_two_player_setup_replaces_f_cards() -> None:
    seen_f = False
    for seed in range(60):
        state = GAME.new_game(2, {}, seed=seed)
        if any(e.kind == "dealt_again" for e in state.log):
            seen_f = True
        assert not any(state.marker[i] >= 0 for i in range(48) if IN_EXCLUDED_BLOCK[i])
    assert seen_f


# ---------------------------------------------------------------- draw phase / take-over
def test_takeover_empty_lot_and_lot_income() -> None:
    state = blank(3, money=0, deck=["b2"])
    mark(state, 0, "a1", "a2")
    mark(state, 2, "c1")
    state.active = 0
    act(state, 0, "end")
    assert state.marker[lot("b2")] == 1
    assert state.money == [2, 1, 1]


def test_takeover_tile_with_die_keeps_value() -> None:
    state = blank(3, money=0, deck=["a5"])
    put(state, "a5", "gold", 0, 6)
    state.active = 0
    act(state, 0, "end")
    assert (state.dieo[lot("a5")], state.diev[lot("a5")]) == (1, 6)
    assert state.dice_out == [0, 1, 0]


def test_takeover_tile_without_die_gets_printed_value() -> None:
    state = blank(3, money=0, deck=["a6"])
    put(state, "a6", "gold", None)
    state.active = 0
    act(state, 0, "end")
    assert (state.dieo[lot("a6")], state.diev[lot("a6")]) == (1, 6)


def test_takeover_own_die_changes_nothing() -> None:
    state = blank(3, money=0, deck=["a5"])
    put(state, "a5", "gold", 1, 2)
    state.active = 0
    act(state, 0, "end")
    assert (state.dieo[lot("a5")], state.diev[lot("a5")]) == (1, 2)


def test_takeover_with_all_dice_out_picks_a_die() -> None:
    names = ["c1", "c2", "c3", "c4", "c5", "c6", "c7", "c8", "c9", "c10", "c11", "c12"]
    state = blank(2, money=0, deck=["a5"])
    for name in names:
        put(state, name, "purple" if names.index(name) % 2 else "silver", 1, 1)
    put(state, "a5", "gold", 0, 5)
    state.active = 0
    act(state, 0, "end")
    assert state.phase == PICK_DIE and state.to_act == (1,)
    refused(state, 1, "take a5", "pick_die.not_yours")
    refused(state, 1, "end", "phase.pick_die")
    act(state, 1, "take c3")
    assert state.dieo[lot("c3")] == -1 and state.tile[lot("c3")] >= 0
    assert (state.dieo[lot("a5")], state.diev[lot("a5")]) == (1, 5)
    assert state.dice_out == [0, 12]
    check_invariants(state)


def test_all_markers_out_frees_a_lot() -> None:
    state = blank(2, money=0, deck=["e1"])
    mine = ["a1", "a2", "a3", "a4", "a5", "a6", "b1", "b2", "b3", "b4"]
    mark(state, 1, *mine)
    state.active = 0
    act(state, 0, "end")
    assert state.phase == FREE_LOT and state.to_act == (1,)
    refused(state, 1, "free c1", "free_lot.not_yours")
    act(state, 1, "free a2")
    assert state.marker[lot("a2")] == -1 and state.marker[lot("e1")] == 1
    assert state.markers_out[1] == 10
    assert state.money[1] == 10  # then the lots pay
    check_invariants(state)


def test_markers_full_hold_option() -> None:
    state = blank(2, money=0, deck=["e1"], markers_full="hold")
    mark(state, 1, "a1", "a2", "a3", "a4", "a5", "a6", "b1", "b2", "b3", "b4")
    state.active = 0
    act(state, 0, "end")
    assert state.marker[lot("e1")] == 1 and state.markers_out[1] == 11


def test_strip_card_pays_casinos_touching_the_strip() -> None:
    state = blank(3, money=0, deck=["d5"])
    put(state, "a3", "brown", 0, 5)  # on the Strip
    put(state, "a1", "gold", 2, 4)  # not on the Strip
    state.active = 0
    act(state, 0, "end")
    assert state.money == [5, 1, 0]
    assert state.score == [1, 0, 0]


def test_casino_without_dice_pays_nobody() -> None:
    state = blank(2, money=0, deck=["a1"])  # brown card
    put(state, "c1", "brown", None)
    state.active = 1
    act(state, 1, "end")
    assert state.score == [0, 0] and state.money == [1, 0]


def test_two_player_f_card_pays_and_draws_again() -> None:
    state = blank(2, money=0, deck=["f5", "a1"])  # F5 pays brown, then A1 (brown) is drawn
    put(state, "c1", "brown", 0, 3)
    state.active = 1
    act(state, 1, "end")
    assert state.marker[lot("f5")] == -1 and state.marker[lot("a1")] == 0
    assert state.money[0] == 3 + 3 + 1  # two brown payouts, then one lot
    assert state.score[0] == 2


def test_two_player_game_end_during_f_redraw_ends() -> None:
    state = blank(2, money=0, deck=["f5", "end", "a1"])
    state.active = 1
    act(state, 1, "end")
    assert state.phase == OVER


def test_game_end_final_payout_and_money_tie_break() -> None:
    state = blank(3, money=10, deck=["end"])
    put(state, "a3", "green", 1, 4)
    mark(state, 2, "c1")
    state.score = [3, 2, 3]
    state.money = [10, 10, 12]
    state.active = 2
    act(state, 2, "end")
    assert state.phase == OVER and state.to_act == ()
    assert state.score == [3, 3, 3]
    assert state.money == [10, 14, 13]
    result = state.result()
    assert result.ranks == (3, 1, 2)
    refused(state, 0, "end", "game.over")
    assert state.legal_actions(0) == []


def test_instant_win_at_90() -> None:
    state = blank(2, money=0, deck=["a1", "a4"])
    for name in ("c1", "c2", "c3", "c4", "c5", "c6", "c7", "c8", "c9"):
        put(state, name, "brown", 0, 6 if name == "c1" else 1)
    state.score = [81, 85]
    state.active = 1
    act(state, 1, "end")
    assert state.phase == OVER and state.score[0] == 90
    assert state.result().winners == (0,)


# ---------------------------------------------------------------- actions
def test_build_refusals() -> None:
    state = blank(3, money=7)
    mark(state, 0, "a1", "a2")
    mark(state, 1, "b1")
    refused(state, 0, "build b1 gold", "build.not_your_lot")
    refused(state, 0, "build a1 gold", "build.money")  # $9
    state.tiles_left[2] = 0
    refused(state, 0, "build a2 gold", "build.sold_out")
    act(state, 0, "build a2 brown")
    assert state.markers_out[0] == 1


def test_building_on_f_with_two_players() -> None:
    state = blank(2, money=50)
    refused(state, 0, "build f1 gold", "build.block_f")
    put(state, "f2", "gold", 0, 6)  # impossible in play, but the sprawl rule must still refuse F
    put(state, "f2", "gold", None)
    put(state, "d8", "gold", 0, 6)
    refused(state, 0, "sprawl f1 gold", "sprawl.block_f")


def test_sprawl_refusals() -> None:
    state = blank(3, money=100)
    put(state, "c5", "gold", 0, 3)
    put(state, "c1", "silver", 1, 6)
    put(state, "c2", "silver", 0, 2)
    mark(state, 2, "c8")
    refused(state, 0, "sprawl c8 gold", "sprawl.owned_lot")
    refused(state, 0, "sprawl c2 gold", "sprawl.occupied")
    refused(state, 0, "sprawl c9 gold", "sprawl.not_adjacent")
    refused(state, 0, "sprawl c3 silver", "sprawl.not_boss")
    state.money[0] = 15
    refused(state, 0, "sprawl c6 gold", "sprawl.money")  # 2 x $12; C4 (2 x $6) would be affordable
    state.money[0] = 100
    state.tiles_left[2] = 0
    refused(state, 0, "sprawl c4 gold", "sprawl.sold_out")
    state.tiles_left[2] = 8
    act(state, 0, "sprawl c4 gold")
    assert state.money[0] == 88 and state.diev[lot("c4")] == 2


# Alike by shape to test_reorganize_refusals_and_single_die (below): the same set-up on purpose, each test checks its own rule.
def test_remodel_refusals() -> None:
    state = blank(3, money=100)
    put(state, "c5", "gold", 0, 3)
    put(state, "c4", "gold", 0, 2)
    put(state, "c1", "silver", 1, 6)
    refused(state, 0, "remodel a1 brown", "remodel.no_casino")
    refused(state, 0, "remodel c1 brown", "remodel.not_boss")
    refused(state, 0, "remodel c5 gold", "remodel.same_color")
    state.tiles_left[1] = 1
    refused(state, 0, "remodel c5 brown", "remodel.sold_out")
    state.tiles_left[1] = 9
    state.money[0] = 9
    refused(state, 0, "remodel c5 brown", "remodel.money")
    state.money[0] = 10
    act(state, 0, "remodel c4 brown")
    assert state.money[0] == 0 and state.tiles_left[1] == 7 and state.tiles_left[2] == 9


def test_remodel_into_silver_merges() -> None:
    state = blank(3, money=100)
    put(state, "c5", "gold", 0, 3)
    put(state, "c4", "gold", 0, 2)
    put(state, "c1", "silver", 1, 6)
    act(state, 0, "remodel c5 silver")
    assert len(state.casino_of(lot("c1"))) == 3
    assert state.boss(state.casino_of(lot("c1"))) == 1


# Alike by shape to test_remodel_refusals (above): the same set-up on purpose, each test checks its own rule.
def test_reorganize_refusals_and_single_die() -> None:
    state = blank(3, money=100)
    put(state, "c5", "gold", 1, 3)
    put(state, "c4", "gold", 0, 2)
    put(state, "a1", "silver", 1, 6)
    refused(state, 0, "reorg b1", "reorganize.no_casino")
    refused(state, 0, "reorg a1", "reorganize.no_die")
    state.money[0] = 4
    refused(state, 0, "reorg c4", "reorganize.money")
    state.money[0] = 5
    state.rng = ScriptedDice([6, 1])  # seat 0 (the reorganizer) rolls first
    act(state, 0, "reorg c5")
    assert state.diev[lot("c4")] == 6 and state.diev[lot("c5")] == 1
    assert state.money[0] == 0
    state.money[0] = 50
    refused(state, 0, "reorg c4", "reorganize.once")


def test_reorganized_die_stays_once_after_merge() -> None:
    state = blank(3, money=100)
    put(state, "c2", "gold", 0, 3)
    put(state, "c1", "silver", 0, 2)
    state.rng = ScriptedDice([4])
    act(state, 0, "reorg c1")
    act(state, 0, "remodel c2 silver")  # merges with the reorganized C1
    assert state.casino_of(lot("c2")) == (lot("c1"), lot("c2"))
    refused(state, 0, "reorg c2", "reorganize.once")


def test_gamble_refusals() -> None:
    state = blank(3, money=30)
    put(state, "c1", "silver", 1, 5)
    put(state, "c2", "gold", 0, 5)
    put(state, "a1", "gold", None)
    refused(state, 0, "gamble a2 5", "gamble.no_casino")
    refused(state, 0, "gamble a1 5", "gamble.no_boss")
    refused(state, 0, "gamble c2 5", "gamble.own_casino")
    refused(state, 0, "gamble c1 6", "gamble.limit")
    refused(state, 0, "gamble c1 0", "gamble.limit")
    state.money[0] = 3
    refused(state, 0, "gamble c1 4", "gamble.money")
    state.rng = ScriptedDice([3, 4])  # 7 loses
    act(state, 0, "gamble c1 3")
    assert state.phase == LAYOFF and state.to_act == (1,)
    refused(state, 0, "end", "turn.not_your_turn")
    act(state, 1, "nolayoff")
    assert state.money[0] == 0 and state.money[1] == 33
    state.money[0] = 5
    refused(state, 0, "gamble c1 1", "gamble.once")


@pytest.mark.parametrize(
    ("dice", "layoff", "gambler", "boss"),
    [
        ((1, 1), False, 30 + 20, 30 - 20),  # 2: double
        ((6, 6), True, 30 + 20, 30 - 10),  # 12 laid off: the boss pays half, the bank the rest
        ((4, 5), True, 30 + 10, 30 - 5),  # 9: even money, half laid off
        ((2, 3), True, 30 - 10, 30 + 5),  # 5 loses: the boss gets half, the bank the rest
        ((5, 5), False, 30 + 10, 30 - 10),
    ],
)
def test_gamble_results(dice, layoff, gambler, boss) -> None:
    state = blank(3, money=30)
    put(state, "c1", "silver", 1, 5)
    put(state, "c2", "silver", 1, 4)
    state.rng = ScriptedDice(list(dice))
    act(state, 0, "gamble c1 10")
    act(state, 1, "layoff" if layoff else "nolayoff")
    assert (state.money[0], state.money[1]) == (gambler, boss)


# The casino of test_audit_rules.py's test_lay_off_bank_share_is_paid_even_when_the_boss_is_short
# on purpose: no lay-off here, a lay-off there.
def test_gamble_boss_pays_only_what_they_have() -> None:
    state = blank(3, money=30)
    put(state, "c1", "silver", 1, 5)
    put(state, "c2", "silver", 1, 4)
    state.money[1] = 3
    state.rng = ScriptedDice([1, 1])
    act(state, 0, "gamble c1 10")
    act(state, 1, "nolayoff")
    assert state.money[1] == 0 and state.money[0] == 33


def test_all_dice_out_build_moves_a_die() -> None:
    state = blank(2, money=100)
    names = ["c1", "c2", "c3", "c4", "c5", "c6", "c7", "c8", "c9", "c10", "c11", "c12"]
    for i, name in enumerate(names):
        put(state, name, ("purple", "silver")[i % 2], 0, 1)
    mark(state, 0, "a1")
    act(state, 0, "build a1 gold")
    assert state.phase == PICK_DIE and state.to_act == (0,)
    assert Take(lot("a1")) not in state.legal_actions(0)
    act(state, 0, "take c12")
    assert state.dieo[lot("c12")] == -1 and (state.dieo[lot("a1")], state.diev[lot("a1")]) == (0, 3)
    assert state.dice_out[0] == 12
    check_invariants(state)


def test_no_tiles_left_blocks_the_colour_in_legal_actions() -> None:
    state = blank(2, money=100)
    mark(state, 0, "a1")
    state.tiles_left = [0, 0, 0, 0, 1]
    builds = [a for a in state.legal_actions(0) if a.kind == "build"]
    assert builds == [Build(lot("a1"), 4)]


def test_wrong_phase_and_seat() -> None:
    state = blank(2, money=10)
    refused(state, 1, "end", "turn.not_your_turn")
    refused(state, 0, "accept", "phase.action")
    refused(state, 0, "put a1", "phase.action")
