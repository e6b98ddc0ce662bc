"""The fast placement search (pairs.py tables, issue 21) against the square-by-square scan it replaced.

The order of ``_discover``'s placements is the order of the legal actions (random players pick by
index), so it is compared exactly, not as a set: after every tile laid in seeded random games of
every player count and rule switch, and on a test deck of hand-made tiles."""

from __future__ import annotations

import random

import pytest

from tabletown.core.rng import SeededRNG, shuffle
from tabletown.games.multicity import GAME, Lay, MulticityState, Place
from tabletown.games.multicity.actions import MAX_LENGTH
from tabletown.games.multicity.grid import STRIDE, coords, key, span_free
from tabletown.games.multicity.tiles import HOLE

from .helpers import custom

# The scan: the 15 squares around each tile row (then column), index 6 being the tile's first square.
LINES = tuple(
    (vertical, across, tuple((j - 6) * along for j in range(15)))
    for vertical, along, across in ((False, 1, STRIDE), (True, STRIDE, 1))
)


def scan(state: MulticityState, x0: int, y0: int) -> list[tuple[int, Place, tuple[int, ...]]]:
    """Every placement through the tile at (x0, y0), found square by square (the code before
    issue 21): first end left of (or above) the far end, rows before columns."""
    found = []
    get, unplaced, players = state.cells.get, state.unplaced, state.num_players
    corner = key(x0, y0)
    for vertical, across, offsets in LINES:
        for i in range(3):
            base = corner + i * across
            line = [get(base + off, -1) for off in offsets]
            for a in range(9):
                colour = line[a]
                if colour < 0 or colour >= players or not unplaced[colour]:
                    continue
                for b in range(a + 1, min(a + MAX_LENGTH, 15)):
                    code = line[b]
                    if code == colour:
                        if b >= 6 and b - a + 1 in unplaced[colour]:
                            squares = tuple(base + off for off in offsets[a : b + 1])
                            sx, sy = coords(squares[0])
                            found.append((colour, Place(b - a + 1, sx, sy, vertical), squares))
                    elif code < 0 or (code == HOLE and not state.kids):
                        break
    return [f for f in found if span_free(state.occ, state.loose, f[2], f[1].vertical)]


OPTIONS = [{}, {"kids": True}, {"overlap": "loose"}, {"kids": True, "overlap": "loose"}]


@pytest.mark.parametrize("options", OPTIONS)
def test_the_tables_find_what_the_scan_finds_in_the_same_order(options):
    laid = 0
    for seed in range(40):
        state = GAME.new_game(2 + seed % 3, options, seed=seed)
        rng = random.Random(seed)
        while state.to_act:
            (seat,) = state.to_act
            action = rng.choice(state.legal_actions(seat))
            if type(action) is Lay:
                # What the tile would open here, then what it did open once laid.
                assert state.preview_lay(action) == _scan_after(state, action)
                state.apply(seat, action)
                assert state._discover(action.x, action.y) == scan(state, action.x, action.y)
                laid += 1
            else:
                state.apply(seat, action)
    assert laid > 500


def _scan_after(state: MulticityState, lay: Lay) -> list:
    probe = state.clone()
    probe.apply(state.to_act[0], lay)  # laying a tile changes no seat's objects
    return scan(probe, lay.x, lay.y)


def test_a_hand_made_deck_gets_its_own_tables():
    """Tiles full of one colour make long lines through up to five tiles in a row and column."""
    tiles = ["ggg/ggg/ggo", "ggg/gog/ggg", "rgr/ggg/ogg", "ggg/ggg/goo", "ogg/ggg/ggg", "ggr/ggg/ggg"]
    for kids in (False, True):
        for order in ([0, 1, 2, 3, 4, 5], [5, 3, 1, 0, 2, 4]):
            state = custom(2, tiles, order=order, kids=kids)
            rng = random.Random(len(order) + kids)
            for x, y in ((3, 0), (6, 0), (-3, 0), (-6, 0), (0, 3)):
                state.apply_text(0, "draw")
                turn = rng.randrange(4)
                state.apply(0, Lay(x, y, turn))
                assert state._discover(x, y) == scan(state, x, y)
                state.current = 0  # keep laying as seat 0: only the search is under test


def test_the_quick_shuffle_draws_exactly_what_random_shuffle_draws():
    for seed in range(300):
        ours, theirs = SeededRNG(seed), SeededRNG(seed)
        items = list(range(seed % 40))
        expected = list(items)
        theirs.shuffle(expected)
        shuffle(ours, items)
        assert items == expected
        assert ours.getstate() == theirs.getstate()
