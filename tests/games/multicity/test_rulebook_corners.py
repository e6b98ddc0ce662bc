"""Corners of the rulebook that the other rule tests reach only through random games (found by a
sentence-by-sentence audit against the Polish text, 2026-12-07): objects across three tiles and over
gaps, holes on a tile passed through, own colour between the ends, a tile in the crook of an L,
optional placing, the six objects, and the final round after the last tile."""

from __future__ import annotations

import pytest

from tabletown.core.errors import IllegalAction
from tabletown.games.multicity import DRAW, Lay, Place

from .helpers import check_invariants, custom, play

Y = "yyy/yyy/yyy"  # nobody in a 2-player game can use yellow


def test_object_may_not_bridge_an_empty_tile_slot():
    """Rule: an object lies on the city's tiles (ruling: entirely on tiles) - a U-shaped city leaves a
    gap at slot 3,0; greens at 2,0 and 6,0 are 5 apart but the object would pass over no tile."""
    s = custom(2, ["yyg/yyy/yyy", Y, Y, Y, "gyy/yyy/yyy", Y, Y])
    play(s, "draw", "t 0,3 r0", "draw", "t 3,3 r0", "draw", "t 6,3 r0", "draw", "t 6,0 r0")
    assert (1, 0) not in s.tiles
    assert Place(5, 2, 0, False) not in s.legal_actions(0)
    assert s.placement_problem(0, Place(5, 2, 0, False))[0] == "multicity.off_city"
    with pytest.raises(IllegalAction):
        s.apply_text(0, "5h 2,0")
    play(s, "draw", "t 3,0 r0")  # seat 0 fills the gap
    play(s, "draw", "t 9,0 r0")  # seat 1
    assert Place(5, 2, 0, False) in s.legal_actions(0)


def test_longest_object_runs_across_three_tiles():
    """An object of length 7 from the start tile's last column through a whole tile to the next."""
    s = custom(2, ["yyg/yyy/yyy", Y, "yyg/yyy/yyy", Y])
    play(s, "draw", "t 3,0 r0", "draw", "t 6,0 r0")
    assert Place(7, 2, 0, False) in s.legal_actions(0)
    play(s, "7h 2,0")
    check_invariants(s)


@pytest.mark.parametrize("kids", [False, True])
def test_hole_in_the_middle_tile_of_a_three_tile_span(kids):
    """No object over a hole (Uwaga a), except in the kids' variant - also when the hole is on a
    tile the object only passes through."""
    s = custom(2, ["yyg/yyy/yyy", "yoy/yyy/yyy", "yyg/yyy/yyy", Y], kids=kids)
    play(s, "draw", "t 3,0 r0", "draw", "t 6,0 r0")
    assert (Place(7, 2, 0, False) in s.legal_actions(0)) is kids


def test_middle_squares_may_show_the_players_own_colour():
    """Only the ends must be own colour; an own-colour square between them does not stop the object."""
    s = custom(2, ["ggg/yyy/yyy", Y, Y])
    assert {Place(3, 0, 0, False), Place(2, 0, 0, False), Place(2, 1, 0, False)} <= set(s.legal_actions(0))
    play(s, "3h 0,0")
    check_invariants(s)


def test_tile_may_touch_the_city_on_two_edges():
    """A slot in the crook of an L touches two tiles edge to edge: legal, and objects run through it
    in both directions."""
    s = custom(2, ["yyy/yyy/yyg", "yyy/yyy/yyy", "yyy/yyy/yyy", "yyy/yyy/gyg", Y])
    play(s, "draw", "t 3,0 r0", "draw", "t 0,3 r0", "draw")
    assert {Lay(3, 3, t) for t in range(4)} <= set(s.legal_actions(0))
    play(s, "t 3,3 r0")  # green at 3,5 and 5,5 on the new tile; 2,2 on the start tile
    # 2,2 -> 5,5 is diagonal (not allowed); 3h 3,5 lies inside the new tile
    assert s.placement_problem(0, Place(3, 3, 5, False)) is None  # (seat 1 is to move now)
    assert s.placement_problem(0, Place(4, 2, 2, False))[0] == "multicity.end_colour"


def test_drawing_is_allowed_while_a_placement_fits_and_the_placement_survives():
    """Placing is optional (ruling); a placement skipped stays available."""
    s = custom(2, ["gbg/yyy/yyy", Y, Y, Y])
    assert Place(3, 0, 0, False) in s.legal_actions(0)
    play(s, "draw", "t 0,3 r0", "draw", "t 0,-3 r0")
    assert Place(3, 0, 0, False) in s.legal_actions(0)


def test_every_seat_has_one_object_of_each_length_two_to_seven():
    s = custom(4, [Y, Y])
    assert all(s.unplaced[i] == (2, 3, 4, 5, 6, 7) for i in range(4))
    assert sum(s.unplaced[0]) == 27
    v = s.view(None)["state"]["players"]
    assert [p["colour"] for p in v] == ["green", "red", "blue", "yellow"]


def test_game_ends_on_last_tile_even_if_a_sixth_object_could_follow_later():
    """End rule 2 with deck=2: one tile is laid, the final round is one placement each, then the
    fewest squares left wins - nobody gets a second placement."""
    s = custom(2, ["ggy/rry/yyy", "ggy/rry/yyy"])
    play(s, "draw", "t 3,0 r0")
    assert s.phase == 1
    play(s, "2h 0,0")  # seat 0 (first player)
    play(s, "2h 0,1")  # seat 1
    assert s.is_over
    assert s.result().ranks == (1, 1)
    assert DRAW not in s.legal_actions(0)
