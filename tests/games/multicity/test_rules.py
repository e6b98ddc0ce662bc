"""Each rule and each refusal of Multicity, in small hand-made cities (seat 0 green, seat 1 red)."""

from __future__ import annotations

import pytest

from tabletown.core.errors import IllegalAction, MalformedAction
from tabletown.core.events import Event
from tabletown.games.multicity import DRAW, GAME, PASS, Lay, Place

from .helpers import brute_force_placements, check_invariants, custom, digest, play, squares

# Plain filler tiles with no green or red anywhere, so only the squares a test names matter.
BLANK = "bby/yby/byb"
# Green: 3h 0,0 (g b g), 2v 0,0 and 2v 2,0; row 1 has a hole between two greens.
GREENS = "gbg/gog/yby"


def refused(state, seat, move, rule):
    """The move is refused with ``rule`` and the state is exactly as before."""
    before = digest(state)
    with pytest.raises((IllegalAction, MalformedAction)) as caught:
        state.apply_text(seat, move)
    assert caught.value.rule == rule, caught.value
    assert rule in str(caught.value)
    assert digest(state) == before
    return caught.value


# --- setup ------------------------------------------------------------------------------------------
def test_setup_reveals_start_tile_and_gives_six_objects_each():
    state = custom(3, [GREENS, BLANK, BLANK])
    assert list(state.tiles) == [(0, 0)]
    assert len(state.stack) == 2
    assert all(state.unplaced[s] == (2, 3, 4, 5, 6, 7) for s in range(3))
    assert state.to_act == (0,)
    assert state.view(None)["state"]["tiles"][0]["squares"] == squares(GREENS)


def test_first_player_option_and_refusal():
    state = custom(3, [BLANK, BLANK], first="2")
    assert state.to_act == (2,)
    from tabletown.core.errors import OptionError

    with pytest.raises(OptionError):
        GAME.new_game(2, {"first": "3"}, seed=1)
    seats = {GAME.new_game(4, {}, seed=s).to_act[0] for s in range(40)}
    assert seats == {0, 1, 2, 3}, "random first player reaches every seat"


# --- expanding --------------------------------------------------------------------------------------
def test_draw_then_lay_on_edge_slots_only():
    """Rulebook example (Ala): the tile goes edge to edge; corner-only contact is refused."""
    state = custom(2, [BLANK, GREENS, BLANK, BLANK])
    play(state, "draw")
    assert state.drawn == 1
    lays = state.legal_actions(0)
    assert {(a.x, a.y) for a in lays} == {(3, 0), (-3, 0), (0, 3), (0, -3)}
    assert {a.turn for a in lays} == {0, 1, 2, 3}
    refused(state, 0, "t 0,0 r0", "multicity.tile_overlap")
    refused(state, 0, "t 3,3 r0", "multicity.tile_corner_only")
    refused(state, 0, "t 6,0 r0", "multicity.tile_detached")
    refused(state, 0, "t 1,0 r0", "multicity.tile_grid")
    refused(state, 0, "t 3,0 r4", "multicity.tile_turn")
    refused(state, 0, "draw", "multicity.lay_drawn_tile")
    refused(state, 0, "2h 0,0", "multicity.lay_drawn_tile")
    play(state, "t 3,0 r1")
    # Turned one quarter clockwise: the left column read bottom-up becomes the top row.
    assert state.view(None)["state"]["tiles"][1]["squares"] == squares("ygg/bob/ygg")
    assert state.to_act == (1,)
    play(state, "draw")
    slots = {(a.x, a.y) for a in state.legal_actions(1)}
    assert slots == {(-3, 0), (0, 3), (0, -3), (6, 0), (3, 3), (3, -3)}


def test_lay_without_drawing_and_pass_outside_final_round_are_refused():
    state = custom(2, [BLANK, BLANK, BLANK])
    refused(state, 0, "t 3,0 r0", "multicity.no_tile_drawn")
    refused(state, 0, "pass", "multicity.no_pass")
    refused(state, 1, "draw", "turn.not_your_turn")


def test_forced_expand_when_nothing_fits():
    state = custom(2, [BLANK, GREENS, BLANK])
    assert state.legal_actions(0) == [DRAW], "no green pair yet: the only move is to expand"
    refused(state, 0, "3h 0,0", "multicity.end_colour")


# --- placing ----------------------------------------------------------------------------------------
def test_placements_follow_every_rule():
    state = custom(2, [GREENS, BLANK, BLANK])
    legal = set(state.legal_actions(0))
    assert legal == {Place(3, 0, 0, False), Place(2, 0, 0, True), Place(2, 2, 0, True), DRAW}
    assert state.legal_actions(1) == [], "not seat 1's turn"
    refused(state, 0, "3h 0,1", "multicity.hole")
    refused(state, 0, "4h 0,0", "multicity.off_city")
    refused(state, 0, "2h 0,0", "multicity.end_colour")
    refused(state, 0, "3v 1,0", "multicity.end_colour")
    refused(state, 0, "9h 0,0", "multicity.length")
    refused(state, 0, "5d 0,0", "notation.unknown")  # no diagonal objects: only h or v exist
    play(state, "3h 0,0")
    assert state.objects == [(0, Place(3, 0, 0, False))]
    assert state.unplaced[0] == (2, 4, 5, 6, 7)
    assert state.to_act == (1,)
    check_invariants(state)


def test_objects_never_share_a_square():
    state = custom(2, [GREENS, BLANK, BLANK])
    play(state, "3h 0,0", "draw", "t 3,0 r0")
    refused(state, 0, "2v 0,0", "multicity.square_taken")
    refused(state, 0, "3h 0,0", "multicity.object_used")
    assert set(state.legal_actions(0)) == {DRAW}


def test_kids_variant_spans_holes_but_ends_stay_on_colour():
    state = custom(2, [GREENS, BLANK, BLANK], kids=True)
    assert Place(3, 0, 1, False) in state.legal_actions(0)
    play(state, "3h 0,1")
    assert state.objects == [(0, Place(3, 0, 1, False))]
    state = custom(2, ["gog/byb/byb", BLANK], kids=True)
    refused(state, 0, "2h 0,0", "multicity.end_colour")


def test_placement_spanning_tiles_appears_when_the_gap_is_filled():
    """Rulebook example (Grzesiek): red may place its 4 at a or its 3 at b."""
    state = custom(2, ["rby/gyb/rgo", "rgb/ybg/gyb", BLANK, BLANK], first="1")
    assert set(state.legal_actions(1)) == {Place(3, 0, 0, True), DRAW}
    play(state, "draw", "t 3,0 r0")
    play(state, "draw", "t 0,3 r0")  # seat 0 expands; now red has a or b
    assert set(state.legal_actions(1)) - {DRAW} == {Place(4, 0, 0, False), Place(3, 0, 0, True)}
    assert brute_force_placements(state, 1) == {Place(4, 0, 0, False), Place(3, 0, 0, True)}


CROSS = "rgr/gbg/rgr"


def test_loose_reading_allows_an_end_beside_a_crossing_middle():
    strict = custom(2, [CROSS, BLANK, BLANK], first="1")
    play(strict, "3h 0,0")  # red along the top row; its middle is (1,0)
    refused(strict, 0, "3v 1,0", "multicity.square_taken")
    loose = custom(2, [CROSS, BLANK, BLANK], first="1", overlap="loose")
    play(loose, "3h 0,0")
    assert Place(3, 1, 0, True) in loose.legal_actions(0)
    play(loose, "3v 1,0")
    check_invariants(loose)


def test_loose_reading_still_forbids_crossings_shared_ends_and_running_along():
    state = custom(2, ["yry/gbg/yry", BLANK, BLANK], overlap="loose")
    play(state, "3h 0,1")  # green across the middle row
    refused(state, 1, "3v 1,0", "multicity.objects_cross")  # red down the middle column
    state = custom(2, ["ggy/bby/gby", BLANK, BLANK], overlap="loose")
    play(state, "2h 0,0", "draw", "t 3,0 r0")
    refused(state, 0, "3v 0,0", "multicity.square_taken")  # an end on an end
    state = custom(2, ["ggg/byb/byb", "ggb/byb/byb", BLANK, BLANK], overlap="loose")
    play(state, "3h 0,0", "draw", "t 3,0 r0")
    assert state.placement_problem(0, Place(4, 1, 0, False)) is not None
    refused(state, 0, "4h 1,0", "multicity.square_taken")  # running along the same row


# --- the end ----------------------------------------------------------------------------------------
def test_placing_the_sixth_object_wins_at_once():
    state = custom(2, [GREENS, BLANK, BLANK])
    state.unplaced[0] = (3,)
    state.cands[0] = {a: s for a, s in state.cands[0].items() if a.length == 3}
    play(state, "3h 0,0")
    assert state.is_over and state.to_act == ()
    assert state.result().winners == (0,)
    assert state.log[-1] == Event("game_over", {"winners": [0], "reason": "six_objects"})
    assert "wins" in GAME.describe_event(state.events(0)[-1])
    refused(state, 1, "draw", "game.over")


def test_last_tile_gives_everyone_one_more_placement_from_the_first_player():
    # 3 players, seat 1 starts and also lays the last tile (test_audit_rules checks a layer who is not first).
    tiles = [GREENS, "ryr/yyy/yyy", "yyy/yyy/yyy", "yyy/yyg/yyy"]
    state = custom(3, tiles, first="1")
    play(state, "draw", "t 0,-3 r0")  # seat 1 lays the red tile above
    play(state, "draw", "t 3,0 r0")  # seat 2
    play(state, "3h 0,0")  # seat 0 places green
    play(state, "draw")  # seat 1 draws the last tile
    assert state.phase == 0
    play(state, "t -3,0 r0")
    assert state.phase == 1
    assert state.to_act == (1,), "the final round starts with the first player"
    assert set(state.legal_actions(1)) == {Place(3, 0, -3, False), PASS}
    refused(state, 1, "draw", "multicity.stack_empty")
    play(state, "3h 0,-3")
    # Seat 2 (blue) has nothing and is skipped; seat 0 may still place.
    assert state.to_act == (0,)
    assert Event("turn_lost", {"seat": 2}) in state.log
    assert any("seat 2 (blue) cannot place" in GAME.describe_event(e) for e in state.events(None))
    assert set(state.legal_actions(0)) == {Place(2, -1, 1, False), PASS}, "the last tile opened a green pair"
    twin = state.clone()
    play(state, "pass")
    assert state.is_over
    result = state.result()
    assert result.ranks == (1, 1, 3), "green and red both placed 3 squares and 1 object: a shared win"
    assert result.scores == (3.0, 3.0, 0.0)
    play(twin, "2h -1,1")
    assert twin.is_over and twin.result().ranks == (1, 2, 3)


def test_final_round_skipped_entirely_when_nobody_can_place():
    state = custom(2, [BLANK, BLANK])
    play(state, "draw", "t 3,0 r0")
    assert state.is_over
    assert state.result().ranks == (1, 1)


@pytest.mark.parametrize(
    ("unplaced", "ranks"),
    [
        ([(2, 7), (4, 5)], (1, 1)),  # 9 squares each, 4 objects each: shared
        ([(2, 3, 4), (2, 7)], (2, 1)),  # 9 squares each: more objects placed wins
        ([(2,), (7,)], (1, 2)),  # fewest squares wins
        ([(2, 3), (5,), (2, 3)], (2, 1, 2)),  # 5 squares each; seat 1 placed the most objects
        ([(5, 6), (4, 7), (2, 3, 6), (7,)], (2, 2, 4, 1)),
    ],
)
def test_ranking_by_squares_then_objects_then_shared(unplaced, ranks):
    state = custom(len(unplaced), [BLANK, BLANK])
    state.unplaced = [tuple(u) for u in unplaced]
    state.phase = 2
    assert state.result().ranks == ranks


def test_malformed_action_objects_are_refused_without_change():
    state = custom(2, [GREENS, BLANK, BLANK])
    for bad in [Place(3, "0", 0, False), Place(3, 0, 0, "h"), Place(1, 0, 0, False), ("3h", 0), 42]:
        before = digest(state)
        with pytest.raises(MalformedAction):
            state.apply(0, bad)
        assert digest(state) == before
    play(state, "draw")
    for bad in [Lay("3", 0, 0), Lay(3, 0, 7), Lay(3, 0, -1)]:
        before = digest(state)
        with pytest.raises(MalformedAction):
            state.apply(0, bad)
        assert digest(state) == before
