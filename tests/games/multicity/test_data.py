"""The reconstructed deck: counts against shared/reference/multicity.md, and it regenerates exactly."""

from __future__ import annotations

import json
from collections import Counter

from tabletown.games.multicity import generate_tiles
from tabletown.games.multicity.tiles import DECK, DECK_ROTATIONS, HOLE, parse_tile, rotate, tile_text


def test_deck_has_32_tiles_of_one_hole_and_two_symbols_per_colour():
    assert len(DECK) == 32
    for tile in DECK:
        assert len(tile) == 9
        counts = Counter(tile)
        assert counts[HOLE] == 1
        assert all(counts[colour] == 2 for colour in range(4)), tile_text(tile)


def test_holes_4_centre_14_edge_14_corner():
    kinds = Counter(generate_tiles.hole_kind(tile.index(HOLE)) for tile in DECK)
    assert kinds == {"centre": 4, "edge": 14, "corner": 14}


def test_same_colour_pairs_split_alike_for_every_colour():
    texts = ["".join("grbyo"[c] for c in tile) for tile in DECK]
    counts = generate_tiles.pair_counts(texts)
    # 8/11/13 of 32 per colour: about 25% adjacent, 35% two apart in line, 40% not in line.
    assert counts == [[8, 11, 13]] * 4


def test_data_file_is_what_the_generator_writes_from_its_seed():
    path = generate_tiles.DATA_PATH
    assert path.read_text(encoding="utf-8") == generate_tiles.to_json(generate_tiles.generate())
    data = json.loads(path.read_text(encoding="utf-8"))
    assert data["reconstruction"] is True
    assert data["seed"] == generate_tiles.SEED


def test_pair_kinds():
    assert generate_tiles.pair_kind(0, 1) == 0
    assert generate_tiles.pair_kind(0, 3) == 0
    assert generate_tiles.pair_kind(0, 2) == 1
    assert generate_tiles.pair_kind(1, 7) == 1
    assert generate_tiles.pair_kind(0, 4) == 2
    assert generate_tiles.pair_kind(0, 5) == 2


def test_rotations_turn_clockwise_and_come_back():
    tile = parse_tile("grb/yog/bry")
    assert tile_text(rotate(tile)) == "byg/ror/ygb"
    for index, tile in enumerate(DECK):
        turns = DECK_ROTATIONS[index]
        assert turns[0] == tile
        assert rotate(turns[3]) == tile
        # A turn keeps every symbol, and corner holes stay corners.
        assert all(Counter(t) == Counter(tile) for t in turns)
        assert len({generate_tiles.hole_kind(t.index(HOLE)) for t in turns}) == 1
