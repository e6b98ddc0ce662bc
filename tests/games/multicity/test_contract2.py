"""Engine contract 2 for Multicity: the computed action space (exact, by brute force over every city
that small decks can build), game length, typed events and their wording, saved positions and a
determinize that depends only on what a seat can see."""

from __future__ import annotations

import copy
import json
import random
import re

import pytest

from tabletown.core.errors import MalformedAction, SnapshotError
from tabletown.core.events import Event
from tabletown.core.record import state_fingerprint
from tabletown.core.session import play_out, random_agent
from tabletown.core.snapshot import checksum
from tabletown.games.multicity import DRAW, GAME, PASS, Lay, Place, grid
from tabletown.games.multicity.actions import LENGTHS

from .helpers import check_invariants, custom, play

NEIGHBOURS = ((1, 0), (-1, 0), (0, 1), (0, -1))


def cities(deck: int) -> set[frozenset[tuple[int, int]]]:
    """Every set of tile slots a city can cover with at most ``deck`` tiles (start slot 0,0)."""
    found = {frozenset({(0, 0)})}
    layer = set(found)
    for _ in range(deck - 1):
        grown = set()
        for city in layer:
            for sx, sy in city:
                for dx, dy in NEIGHBOURS:
                    near = (sx + dx, sy + dy)
                    if near not in city:
                        grown.add(city | {near})
        found |= grown
        layer = grown
    return found


def reachable_actions(deck: int) -> set:
    """Lays on a free slot of a city one tile short of the deck or smaller; placements lying wholly on
    a city of the deck's size or smaller. Colours are ignored: every tile position shows every colour."""
    actions: set = {DRAW, PASS}
    for city in cities(deck):
        if len(city) < deck:
            for sx, sy in city:
                for dx, dy in NEIGHBOURS:
                    near = (sx + dx, sy + dy)
                    if near not in city:
                        actions.update(Lay(near[0] * 3, near[1] * 3, turn) for turn in range(4))
        squares = {(sx * 3 + i, sy * 3 + j) for sx, sy in city for i in range(3) for j in range(3)}
        for x, y in squares:
            for length in LENGTHS:
                for vertical in (False, True):
                    line = [(x, y + i) if vertical else (x + i, y) for i in range(length)]
                    if all(square in squares for square in line):
                        actions.add(Place(length, x, y, vertical))
    return actions


@pytest.mark.parametrize("deck", [2, 3, 4, 5, 6])
def test_action_space_is_exactly_what_some_city_of_the_deck_allows(deck):
    space = GAME.action_space(2, {"deck": deck})
    listed = list(space)
    assert len(listed) == len(space) == len(set(listed))
    assert set(listed) == reachable_actions(deck)


@pytest.mark.parametrize("deck", [2, 7, 20, 32])
def test_index_and_getitem_are_inverse_and_follow_the_listed_order(deck):
    space = GAME.action_space(3, {"deck": deck})
    listed = list(space)
    rng = random.Random(deck)
    numbers = range(len(space)) if len(space) < 30_000 else rng.sample(range(len(space)), 30_000)
    for number in numbers:
        action = listed[number]
        assert space[number] == action and space.index(action) == number
        assert action in space
    assert space[-1] == listed[-1] and space[2:6] == listed[2:6]
    with pytest.raises(IndexError):
        space[len(space)]


def test_the_space_depends_only_on_the_deck_and_is_small_enough():
    assert len(GAME.action_space(2, {"deck": 32})) == len(GAME.action_space(4, {"deck": 32, "kids": True}))
    assert len(GAME.action_space(2, {})) < 250_000


def test_outsiders_are_not_in_the_space():
    space = GAME.action_space(2, {"deck": 4})
    radius = 3
    outsiders = [
        Lay(0, 0, 0),  # the start slot is never free
        Lay(3 * radius + 3, 0, 0),
        Lay(3 * 2, 3 * 2, 1),  # Manhattan distance 4 > 3
        Lay(1, 0, 0),
        Lay(3, 0, 4),
        Lay(3, 0, True),
        Place(3.0, 0, 0, False),
        Place(3, 0, 0, 0),
        Place(8, 0, 0, False),
        Place(7, 0, 3 * 3, False),  # a 7-object spans 3 slots: 3 + 3 rows away > 4 tiles
        Place(2, 3 * 4, 0, False),
        "draw ",
        "junk",
        None,
        (None,),
        -1,
    ]
    for action in outsiders:
        assert action not in space
        with pytest.raises(MalformedAction):
            space.index(action)
    assert Place(7, -2, 0, False) in space and Place(7, 0, 3 * 2, False) not in space
    assert Place(2, 0, 3 * 3, True) in space and Place(2, 3 * 3, 0, False) in space


def test_mask_marks_the_legal_moves_while_laying_and_placing():
    state = GAME.new_game(4, {}, seed=5)
    space = GAME.action_space(4, {})
    rng = random.Random(1)
    while not state.is_over:
        (seat,) = state.to_act
        legal = state.legal_actions(seat)
        mask = state.legal_mask(seat)
        assert [space[i] for i, bit in enumerate(mask) if bit] == sorted(legal, key=space.index)
        state.apply(seat, rng.choice(legal))


def test_is_legal_refuses_look_alikes_that_apply_refuses():
    state = custom(2, ["gbg/gog/yby", "yyy/yyy/yyy", "yyy/yyy/yyy"])
    assert state.is_legal(0, Place(3, 0, 0, False))
    for look_alike in (
        Place(3.0, 0, 0, False),
        Place(3, 0, 0, 0),
        Place(3, False, 0, False),
        Place([3], 0, 0, 0),
    ):
        assert not state.is_legal(0, look_alike)
    with pytest.raises(MalformedAction):
        state.apply(0, Place([3], 0, 0, False))
    assert state.is_legal(0, DRAW) and not state.is_legal(0, PASS) and not state.is_legal(1, DRAW)
    play(state, "draw")
    assert state.is_legal(0, Lay(3, 0, 2))
    for look_alike in (Lay(3, 0, True), Lay(3.0, 0, 2), Lay(3, 0, 4), Lay(4, 0, 0), Lay("3", 0, 0), DRAW):
        assert not state.is_legal(0, look_alike)


def test_max_actions_bounds_every_game():
    bound = GAME.game_type.max_actions
    assert bound == 2 * 31 + (6 + 5 * 3) + 4
    rng = random.Random(3)
    longest = 0
    for seed in range(150):
        players = 2 + seed % 3
        state = GAME.new_game(players, {"kids": seed % 2 == 0}, seed=seed)
        longest = max(longest, play_out(state, [random_agent(rng)] * players))
    assert longest <= bound


def _kinds_seen() -> dict[str, dict]:
    seen: dict[str, dict] = {}
    rng = random.Random(4)
    for seed in range(60):
        state = GAME.new_game(
            2 + seed % 3, {"deck": rng.choice([3, 8, 32]), "first": "0" if seed % 2 else "random"}, seed=seed
        )
        play_out(state, [random_agent(rng)] * state.num_players)
        for event in state.events(None):
            seen.setdefault(event["kind"], event)
            if event["kind"] == "game_over" and len(event["winners"]) > 1:
                seen["shared_win"] = event
            if event["kind"] == "game_over" and event["reason"] == "six_objects":
                seen["six"] = event
    return seen


def test_every_event_kind_is_data_and_has_a_sentence():
    seen = _kinds_seen()
    kinds = {"shuffle", "start_tile", "first_player", "draw", "lay", "place", "final_round", "pass",
             "turn_lost", "game_over"}  # fmt: skip
    assert kinds <= set(seen)
    assert {"shared_win", "six"} <= set(seen)
    for event in seen.values():
        assert all(not re.search(r"\s", text) for text in _strings(event)), event
        sentence = GAME.describe_event(event)
        assert sentence and not sentence.startswith(event["kind"] + ":"), sentence
    assert GAME.describe_event(seen["shared_win"]).startswith("shared win: seat")
    assert "all six objects" in GAME.describe_event(seen["six"])
    place = {"i": 0, "kind": "place", "seat": 1, "length": 4, "x": -2, "y": 5, "vertical": True}
    assert GAME.describe_event(place) == "seat 1 (red) places its 4-object from -2,5 to -2,8"


def _strings(value):
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for key, item in value.items():
            yield key
            yield from _strings(item)
    elif isinstance(value, list):
        for item in value:
            yield from _strings(item)


def test_the_log_is_typed_events_in_order():
    state = custom(3, ["gbg/gog/yby", "yyy/yyy/yyy", "yyy/yyy/yyy"])
    play(state, "3h 0,0", "draw", "t 3,0 r1")
    assert state.log == [
        Event("start_tile", {"tile": 0}),
        Event("first_player", {"seat": 0, "drawn": False}),
        Event("place", {"seat": 0, "length": 3, "x": 0, "y": 0, "vertical": False}),
        Event("draw", {"seat": 1, "tile": 1, "stack": 1}),
        Event("lay", {"seat": 1, "tile": 1, "x": 3, "y": 0, "turn": 1}),
    ]
    assert GAME.new_game(2, {"deck": 9}, seed=1).log[0] == Event("shuffle", {"tiles": 9})
    view = state.view(2, since=3)
    assert [e["kind"] for e in view["events"]] == ["draw", "lay"] and view["event_count"] == 5
    assert view["state"]["phase"] == "play"


def test_phases_are_ids():
    state = custom(2, ["gbg/gog/yby", "yyy/yyy/yyy"])
    assert state.view(None)["state"]["phase"] == "play"
    play(state, "draw", "t 3,0 r0")
    assert state.view(None)["state"]["phase"] == "final_round"
    play(state, "pass")
    assert state.view(None)["state"]["phase"] == "over"


def test_a_saved_position_plays_on_in_a_fresh_process_cache():
    """The Lay actions of free slots are memoized per process: a restored position makes its own."""
    state = GAME.new_game(3, {}, seed=8)
    rng = random.Random(2)
    for _ in range(17):
        (seat,) = state.to_act
        state.apply(seat, rng.choice(state.legal_actions(seat)))
    if state.drawn is None:
        play(state, "draw")
    document = json.loads(json.dumps(state.to_json()))
    saved = dict(grid._LAYS)
    grid._LAYS.clear()
    try:
        restored = GAME.state_from_json(document)
        (seat,) = restored.to_act
        assert restored.legal_actions(seat) == state.legal_actions(seat)
        assert state_fingerprint(restored) == state_fingerprint(state)
        check_invariants(restored)
    finally:
        grid._LAYS.update(saved)


def _forged(document: dict, field: str, value) -> dict:
    forged = copy.deepcopy(document)
    forged["fields"][field] = value
    forged["checksum"] = checksum({k: v for k, v in forged.items() if k != "checksum"})
    return forged


def test_inconsistent_positions_are_refused_even_with_a_good_checksum():
    state = GAME.new_game(2, {}, seed=6)
    play(state, "draw", "t 3,0 r0", "draw")
    document = json.loads(json.dumps(state.to_json()))
    fields = document["fields"]
    stack = fields["stack"]
    cells = fields["cells"]
    forgeries = [
        ("stack", [stack[0]] + stack[:-1]),  # a tile twice, one lost
        ("stack", stack[:-1]),  # a tile lost
        ("drawn", None),  # the drawn tile vanished
        ("current", 5),
        ("phase", 7),
        ("cells", {"d": cells["d"][:-1]}),  # a square missing
        ("cells", {"d": [[k, (v + 1) % 5] for k, v in cells["d"]]}),  # squares unlike the tiles
        ("unplaced", [{"t": [2, 3]}, {"t": [2, 3, 4, 5, 6, 7]}]),  # objects lost
        ("frontier", {"d": fields["frontier"]["d"][:-1]}),  # a free slot forgotten
        ("occ", {"d": [[0, 1]]}),  # an object that is not there
    ]
    for field, value in forgeries:
        with pytest.raises(SnapshotError):
            GAME.state_from_json(_forged(document, field, value))
    GAME.state_from_json(_forged(document, "stack", stack))  # the untouched document loads


def test_determinize_depends_only_on_what_the_seat_sees():
    """Two games with the same public history but other stack orders and other tiles left out give
    the same copy: the unseen tiles are sorted before they are shuffled."""
    for seed in range(12):
        state = GAME.new_game(2 + seed % 3, {"deck": 20 if seed % 2 else 32}, seed=seed)
        rng = random.Random(seed)
        for _ in range(rng.randint(0, 25)):
            if state.is_over:
                break
            (seat,) = state.to_act
            state.apply(seat, rng.choice(state.legal_actions(seat)))
        other = state.clone()
        unseen = other.stack + list(other.unused)
        rng.shuffle(unseen)
        other.stack, other.unused = unseen[: len(state.stack)], tuple(unseen[len(state.stack) :])
        other.rng = state.rng.clone()
        other.rng.random()
        for seat in range(state.num_players):
            assert other.view(seat) == state.view(seat)
            one, two = state.determinize(seat, 99), other.determinize(seat, 99)
            assert state_fingerprint(one) == state_fingerprint(two)
            assert sorted(one.stack + list(one.unused)) == sorted(state.stack + list(state.unused))


def test_events_in_peoples_words_hold_no_notation():
    """Issue 27: with the players' names (the web), no tile number, turn code or coordinate pair."""
    from tabletown.core.words import Names

    names = Names(["Ana", "Bo"], 0)
    lay = {"i": 0, "kind": "lay", "seat": 1, "tile": 14, "x": 3, "y": -6, "turn": 3}
    assert GAME.describe_event(lay, names) == (
        "Bo lays the tile 1 tile right and 2 up from the start tile, turned a quarter anticlockwise"
    )
    draw = {"i": 1, "kind": "draw", "seat": 0, "tile": 14, "stack": 20}
    assert GAME.describe_event(draw, names) == "You draw a tile (20 left in the stack)"
    place = {"i": 2, "kind": "place", "seat": 0, "length": 4, "x": -2, "y": 5, "vertical": True}
    assert GAME.describe_event(place, names) == "You place your 4-field object, standing"
    state = GAME.new_game(2, {}, seed=8)
    rng = random.Random(8)
    while not state.is_over:
        seat = state.to_act[0]
        state.apply(seat, rng.choice(state.legal_actions(seat)))
    for event in state.events(None):
        sentence = GAME.describe_event(event, names)
        assert not re.search(r"-?\d+,-?\d+|\br[0-3]\b|\b(lays?|draws?) tile \d+", sentence), sentence
