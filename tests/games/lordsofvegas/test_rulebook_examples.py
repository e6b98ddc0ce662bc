"""The rulebook's worked examples, played as scenarios. Seats: 0 blue, 1 green, 2 red, 3 yellow."""

from __future__ import annotations

from .helpers import ScriptedDice, act, blank, check_invariants, lot, mark, put

BLUE, GREEN, RED, YELLOW = 0, 1, 2, 3


def test_gold_d8_payout() -> None:
    # Yellow draws the gold D8 card: markers on D8 (yellow) and one green lot pay $1 each; yellow's
    # 1-tile gold casino pays $6 and 1 point; green bosses a 3-tile gold casino: 3 points, $6 to green,
    # $2 to blue. Brown and purple casinos pay nothing.
    state = blank(4, money=0, deck=["d8"])
    mark(state, GREEN, "a1")
    put(state, "f9", "gold", YELLOW, 6)
    put(state, "c1", "gold", GREEN, 4)
    put(state, "c2", "gold", GREEN, 2)
    put(state, "c4", "gold", BLUE, 2)
    put(state, "e1", "brown", RED, 5)
    put(state, "b3", "purple", BLUE, 6)
    state.active = 2
    act(state, RED, "end")  # yellow's turn starts with the draw
    assert state.active == YELLOW
    assert state.marker[lot("d8")] == YELLOW
    assert state.money == [2, 1 + 6, 0, 1 + 6]
    assert state.score == [0, 3, 0, 1]
    check_invariants(state)


def test_build_on_a2() -> None:
    state = blank(4, money=20)
    mark(state, RED, "a2")
    state.active = RED
    act(state, RED, "build a2 gold")
    assert state.tile[lot("a2")] == 2  # gold
    assert (state.dieo[lot("a2")], state.diev[lot("a2")]) == (RED, 2)
    assert state.money[RED] == 14
    assert state.marker[lot("a2")] == -1


def _red_gold_a2_a5_yellow_brown_a3():
    state = blank(4, money=60)
    put(state, "a2", "gold", RED, 2)
    mark(state, YELLOW, "a3")
    state.active = RED
    return state


def test_sprawl_a2_to_a5_for_18_not_onto_a3() -> None:
    state = _red_gold_a2_a5_yellow_brown_a3()
    before = state.view(None)
    try:
        act(state, RED, "sprawl a3 gold")
    except Exception as exc:  # noqa: BLE001 - the rule id is what we check
        assert getattr(exc, "rule", None) == "sprawl.owned_lot"
    else:
        raise AssertionError("sprawling onto an owned lot must be refused")
    assert state.view(None) == before
    act(state, RED, "sprawl a5 gold")
    assert state.money[RED] == 60 - 18
    assert (state.tile[lot("a5")], state.dieo[lot("a5")], state.diev[lot("a5")]) == (2, RED, 3)


# Alike by shape to test_reorganize_three_tile_casino_for_10 (below): each the rulebook's own example.
def test_remodel_merges_with_yellows_brown_and_yellow_becomes_boss() -> None:
    state = _red_gold_a2_a5_yellow_brown_a3()
    act(state, RED, "sprawl a5 gold")
    state.active = YELLOW
    act(state, YELLOW, "build a3 brown")
    state.active = RED
    money = state.money[RED]
    act(state, RED, "remodel a2 brown")
    assert state.money[RED] == money - 10
    casino = state.casino_of(lot("a3"))
    assert casino == (lot("a2"), lot("a3"), lot("a5"))
    assert state.boss(casino) == YELLOW  # yellow's 5 beats red's 3
    check_invariants(state)


# Alike by shape to test_remodel_merges_with_yellows_brown_and_yellow_becomes_boss (above): each the
# rulebook's own example.
def test_reorganize_three_tile_casino_for_10() -> None:
    state = _red_gold_a2_a5_yellow_brown_a3()
    act(state, RED, "sprawl a5 gold")
    state.active = YELLOW
    act(state, YELLOW, "build a3 brown")
    state.active = RED
    act(state, RED, "remodel a2 brown")
    money = state.money[RED]
    # Re-rolls: red (first, the reorganizer) rolls 5 and 1, yellow rolls 2.
    state.rng = ScriptedDice([5, 1, 2])
    act(state, RED, "reorg a2")
    assert state.money[RED] == money - 10
    # Red has two dice there, so red chooses where the 5 goes.
    assert state.to_act == (RED,) and state.view(RED)["state"]["placing"][0]["values"] == [5, 1]
    act(state, RED, "put a5")
    assert state.diev[lot("a5")] == 5 and state.diev[lot("a2")] == 1 and state.diev[lot("a3")] == 2
    assert state.boss(state.casino_of(lot("a2"))) == RED
    # The same casino cannot be reorganized again this turn.
    try:
        act(state, RED, "reorg a3")
    except Exception as exc:  # noqa: BLE001
        assert exc.rule == "reorganize.once"
    else:
        raise AssertionError("a second reorganize must be refused")


def test_four_dollar_gamble() -> None:
    state = blank(4, money=30)
    put(state, "c1", "silver", RED, 5)
    put(state, "c2", "silver", RED, 3)
    put(state, "c4", "silver", RED, 2)
    state.active = YELLOW
    state.rng = ScriptedDice([1, 2])  # yellow rolls 3: an even-money win
    act(state, YELLOW, "gamble c1 4")
    assert state.to_act == (RED,)
    act(state, RED, "nolayoff")
    assert state.money[YELLOW] == 34 and state.money[RED] == 26
    assert state.to_act == (YELLOW,)


def test_tie_reroll_example() -> None:
    # Green: 2-tile gold casino (4 and 5). Red bosses a 3-tile brown casino (red 5 and 2, yellow 2).
    state = blank(4, money=30)
    put(state, "c1", "gold", GREEN, 4)
    put(state, "c4", "gold", GREEN, 5)
    put(state, "c2", "brown", RED, 5)
    put(state, "c3", "brown", RED, 2)
    put(state, "c6", "brown", YELLOW, 2)
    state.active = GREEN
    state.rng = ScriptedDice([3, 3])  # both fives re-roll to 3
    act(state, GREEN, "remodel c1 brown")
    casino = state.casino_of(lot("c1"))
    assert len(casino) == 5
    assert state.diev[lot("c4")] == 3 and state.diev[lot("c2")] == 3
    assert state.boss(casino) == GREEN  # green's 4 is now highest
    assert any(event.kind == "tie_reroll" for event in state.log)
    check_invariants(state)


def test_score_track_example_in_play() -> None:
    # From 8: a 1-tile casino adds nothing, a 3-tile casino reaches 10 and a 4-tile one 12.
    for tiles, expected in ((1, 8), (2, 10), (3, 10), (4, 12), (5, 12)):
        state = blank(2, money=0, deck=["a1"])
        names = ["c1", "c2", "c3", "c4", "c5"][:tiles]
        for name in names:
            put(state, name, "brown", 0, 6 if name == "c1" else 1)
        state.score = [8, 0]
        state.active = 1
        act(state, 1, "end")  # seat 0 draws A1, a brown card
        assert state.score[0] == expected, tiles


def test_several_casinos_score_smallest_first() -> None:
    # Two 1-tile casinos from 8 never pass the break to 10; a 1-tile then a 2-tile casino do.
    state = blank(2, money=0, deck=["a1"])
    put(state, "c1", "brown", 0, 6)
    put(state, "c3", "brown", 0, 6)
    state.score = [8, 0]
    state.active = 1
    act(state, 1, "end")
    assert state.score[0] == 8
    state = blank(2, money=0, deck=["a1"])
    put(state, "c1", "brown", 0, 6)
    put(state, "e1", "brown", 0, 6)
    put(state, "e2", "brown", 0, 1)
    state.score = [7, 0]
    state.active = 1
    act(state, 1, "end")
    # Smallest first: 7 -> 8 with the 1-tile casino, then 8 -> 10 with the 2-tile casino.
    assert state.score[0] == 10
