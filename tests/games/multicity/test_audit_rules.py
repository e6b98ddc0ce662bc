"""Rules audit: the rulebook sentences the first test set did not pin down (seat 0 green, 1 red, 2 blue).

Each test names the sentence it checks; see docs/games/multicity.md for the rulings."""

from __future__ import annotations

import pytest

from tabletown.core.errors import IllegalAction, MalformedAction
from tabletown.core.events import Event
from tabletown.games.multicity import DRAW, GAME, PASS, Lay, Place

from .helpers import check_invariants, custom, digest, play, squares

# Only yellow: nobody in a 2- or 3-player game can use a single square of it.
FILLER = "yyy/yyy/yyy"
# Green, red and blue each have exactly one placement of length 2 on the start tile.
PAIRS = "ggy/rry/bby"


def refused(state, seat, action, rule, error=IllegalAction):
    before = digest(state)
    with pytest.raises(error) as caught:
        if isinstance(action, str):
            state.apply_text(seat, action)
        else:
            state.apply(seat, action)
    assert caught.value.rule == rule, caught.value
    assert digest(state) == before


@pytest.mark.parametrize(
    ("first", "layer", "order"),
    [
        ("0", 1, [0, 1, 2]),  # after the layer would be 2,0,1; from the layer 1,2,0
        ("1", 2, [1, 2, 0]),  # after the layer would be 0,1,2; from the layer 2,0,1
        ("2", 0, [2, 0, 1]),  # after the layer would be 1,2,0; from the layer 0,1,2
    ],
)
def test_final_round_runs_once_round_from_the_first_player_and_includes_the_layer(first, layer, order):
    """'wszyscy (łącznie z nim) począwszy od pierwszego gracza': everyone, the one who laid the last
    tile included, starting with the first player, may place one more object."""
    state = custom(3, [PAIRS, FILLER, FILLER], first=first)
    play(state, "draw", "t 3,0 r0")
    assert state.to_act == (layer,)
    play(state, "draw", "t -3,0 r0")  # the last tile
    assert state.phase == 1 and not state.stack
    seen = []
    while not state.is_over:
        (seat,) = state.to_act
        seen.append(seat)
        assert DRAW not in state.legal_actions(seat)
        assert PASS in state.legal_actions(seat)
        play(state, f"2h 0,{seat}")  # each colour's own pair (rows 0, 1, 2)
        check_invariants(state)
    assert seen == order, "one placement each, from the first player round the table"
    assert state.result().ranks == (1, 1, 1), "2 squares placed each: a shared win"


def test_a_sixth_object_placed_in_the_final_round_wins_at_once():
    """Ruling: reaching six objects in the final round ends the game there; the rest do not play."""
    state = custom(3, [PAIRS, FILLER], first="0")
    state.unplaced[1] = (2,)
    state.cands[1] = {a: s for a, s in state.cands[1].items() if a.length == 2}
    play(state, "draw", "t 3,0 r0")  # seat 0 lays the last tile
    assert state.to_act == (0,)
    play(state, "pass")
    assert state.to_act == (1,)
    play(state, "2h 0,1")
    assert state.is_over and state.to_act == ()
    assert state.result().winners == (1,)
    assert state.objects == [(1, Place(2, 0, 1, False))], "seat 2 never got its final placement"
    assert state.log[-1] == Event("game_over", {"winners": [1], "reason": "six_objects"})
    assert "all six objects" in GAME.describe_event(state.events(None)[-1])


def test_a_lost_turn_in_the_final_round_logs_and_moves_on():
    """'Jeżeli w stosie nie ma już płytek do dobrania, to traci turę': nothing fits and no tile left."""
    state = custom(3, ["ggy/yyy/bby", FILLER], first="0")
    play(state, "draw", "t 3,0 r0")
    assert state.to_act == (0,)
    play(state, "2h 0,0")
    assert state.to_act == (2,), "red has no placement and loses its turn"
    assert Event("turn_lost", {"seat": 1}) in state.log
    lost = [e for e in state.events(None) if e["kind"] == "turn_lost"]
    assert "seat 1 (red) cannot place" in GAME.describe_event(lost[0])
    play(state, "pass")
    assert state.is_over
    assert state.result().ranks == (1, 2, 2)


def test_objects_may_touch_side_by_side_and_end_to_end():
    """Ruling: only sharing a square is forbidden; neighbouring objects are fine."""
    state = custom(2, ["ggg/ggy/yyy", "ygy/ygy/yyy", FILLER, FILLER, FILLER])
    play(state, "2h 0,0", "draw", "t 3,0 r0")
    play(state, "3h 2,0")  # starts on the square right after the 2-object ends
    play(state, "draw", "t 0,3 r0")
    assert Place(4, 1, 1, False) in state.legal_actions(0)
    play(state, "4h 1,1")  # the row below, alongside both
    assert [a for _, a in state.objects] == [
        Place(2, 0, 0, False),
        Place(3, 2, 0, False),
        Place(4, 1, 1, False),
    ]
    check_invariants(state)


def test_strict_reading_refuses_two_middles_crossing():
    """'umieszczać obiektów tak, by się przecinały': a red column through a green row's middle."""
    state = custom(2, ["yry/gbg/yry", FILLER, FILLER])
    play(state, "3h 0,1")
    refused(state, 1, "3v 1,0", "multicity.square_taken")
    assert state.legal_actions(1) == [DRAW]


@pytest.mark.parametrize(
    ("overlap", "rule"), [("strict", "multicity.square_taken"), ("loose", "multicity.objects_cross")]
)
def test_kids_variant_objects_still_never_share_the_hole_they_span(overlap, rule):
    """Kids' variant: objects may pass over a hole, but two may not cross there."""
    state = custom(2, ["yrb/gog/bry", FILLER, FILLER], kids=True, overlap=overlap)
    assert Place(3, 0, 1, False) in state.legal_actions(0)
    play(state, "3h 0,1")
    refused(state, 1, "3v 1,0", rule)
    plain = custom(2, ["yrb/gog/bry", FILLER, FILLER], overlap=overlap)
    refused(plain, 0, "3h 0,1", "multicity.hole")


def test_a_tile_may_be_laid_in_any_of_its_four_turns():
    """'Przed położeniem płytki gracz może w dowolny sposób nią obracać': each turn lands as drawn."""
    for turn, rows in enumerate(["grb/yog/bry", "byg/ror/ygb", "yrb/goy/brg", "bgy/ror/gyb"]):
        state = custom(2, [FILLER, "grb/yog/bry", FILLER])
        play(state, "draw", f"t 0,-3 r{turn}")
        laid = [t for t in state.view(None)["state"]["tiles"] if t["y"] == -3]
        assert laid[0]["squares"] == squares(rows)


def test_look_alike_values_are_malformed_not_played():
    """Contract: 3.0, 0 or True equal a legal action's numbers but are not actions of ours."""
    state = custom(2, ["gbg/gog/yby", FILLER, FILLER])
    assert Place(3, 0, 0, False) in state.legal_actions(0)
    refused(state, 0, Place(3.0, 0, 0, False), "multicity.length", MalformedAction)
    refused(state, 0, Place(3, 0, 0, 0), "multicity.coordinates", MalformedAction)
    refused(state, 0, Place(3, False, 0, False), "multicity.coordinates", MalformedAction)
    play(state, "draw")
    refused(state, 0, Lay(3, 0, True), "multicity.tile_turn", MalformedAction)
    play(state, "t 3,0 r1")


def test_deck_option_counts_the_start_tile_and_hides_the_rest():
    """Reference: deck size is a setting, default 32 (the Polish edition), start tile included."""
    from tabletown.core.errors import OptionError
    from tabletown.games.multicity import GAME

    defaults = GAME.resolve_options(2, {})
    assert defaults == {"deck": 32, "first": "random", "kids": False, "overlap": "strict"}
    state = GAME.new_game(2, {}, seed=4)
    assert len(state.stack) == 31 and state.unused == ()
    small = GAME.new_game(3, {"deck": 10}, seed=4)
    assert len(small.stack) == 9 and len(small.unused) == 22
    assert sorted([*small.stack, *small.unused, small.tiles[(0, 0)][0]]) == list(range(32))
    assert small.view(0)["state"]["stack"] == 9
    for bad in (1, 33):
        with pytest.raises(OptionError):
            GAME.new_game(2, {"deck": bad}, seed=0)
