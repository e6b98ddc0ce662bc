"""Generate the reconstructed Multicity tile deck (run once; the result is committed as tiles.json).

The printed tiles are not documented anywhere we can use, so we rebuild a deck under the rules in
shared/reference/multicity.md: 32 tiles of 3x3, each with one hole and two symbols of each colour;
holes on 4 centres, 14 edge-middles and 14 corners; and for every colour alike the same-colour pairs
split 8 orthogonally adjacent / 11 in line at distance 2 / 13 not in line (25% / 34% / 41%).

The search is a seeded hill climb, so running ``python -m tabletown.games.multicity.generate_tiles``
always writes the same file (a test checks that it still does).
"""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path

SEED = 2022
NUM_TILES = 32
LETTERS = "grby"  # green, red, blue, yellow
HOLE = "o"
CENTRE, EDGES, CORNERS = (4,), (1, 3, 5, 7), (0, 2, 6, 8)
HOLE_COUNTS = {"centre": 4, "edge": 14, "corner": 14}
# Per colour over the deck: (adjacent, in line at distance 2, not in line).
PAIR_TARGET = (8, 11, 13)
DATA_PATH = Path(__file__).with_name("tiles.json")


def pair_kind(a: int, b: int) -> int:
    """0: orthogonally adjacent, 1: same row/column two apart, 2: not in one line."""
    ra, ca, rb, cb = a // 3, a % 3, b // 3, b % 3
    if ra != rb and ca != cb:
        return 2
    return 0 if abs(ra - rb) + abs(ca - cb) == 1 else 1


def pair_counts(tiles: list[str]) -> list[list[int]]:
    """counts[colour][kind] over the whole deck (tiles as 9-letter strings)."""
    counts = [[0, 0, 0] for _ in LETTERS]
    for tile in tiles:
        for colour, letter in enumerate(LETTERS):
            a, b = (i for i, ch in enumerate(tile) if ch == letter)
            counts[colour][pair_kind(a, b)] += 1
    return counts


def hole_kind(position: int) -> str:
    return "centre" if position in CENTRE else "edge" if position in EDGES else "corner"


def _cost(tiles: list[list[str]]) -> int:
    counts = pair_counts(["".join(t) for t in tiles])
    return sum(abs(c[k] - PAIR_TARGET[k]) for c in counts for k in range(3))


def generate(seed: int = SEED) -> list[str]:
    rng = random.Random(seed)
    holes = [4] * HOLE_COUNTS["centre"]
    holes += [EDGES[i % 4] for i in range(HOLE_COUNTS["edge"])]
    holes += [CORNERS[i % 4] for i in range(HOLE_COUNTS["corner"])]
    rng.shuffle(holes)
    tiles = []
    for hole in holes:
        symbols = list(LETTERS * 2)
        rng.shuffle(symbols)
        symbols.insert(hole, HOLE)
        tiles.append(symbols)
    cost = _cost(tiles)
    while cost:
        tile = rng.choice(tiles)
        a, b = rng.sample([i for i, ch in enumerate(tile) if ch != HOLE], 2)
        if tile[a] == tile[b]:
            continue
        tile[a], tile[b] = tile[b], tile[a]
        new_cost = _cost(tiles)
        # Accept sideways moves too so the climb does not stall on a plateau.
        if new_cost <= cost:
            cost = new_cost
        else:
            tile[a], tile[b] = tile[b], tile[a]
    return ["".join(t) for t in tiles]


def to_json(tiles: list[str], seed: int = SEED) -> str:
    data = {
        "reconstruction": True,
        "about": "Reconstructed Multicity deck (not the printed tiles); see docs/games/multicity.md.",
        "generator": "tabletown.games.multicity.generate_tiles",
        "seed": seed,
        "legend": {"g": "green", "r": "red", "b": "blue", "y": "yellow", "o": "hole"},
        "tiles": ["/".join(t[i : i + 3] for i in (0, 3, 6)) for t in tiles],
    }
    return json.dumps(data, indent=1) + "\n"


def main() -> None:
    DATA_PATH.write_text(to_json(generate()), encoding="utf-8")
    sys.stdout.write(f"wrote {DATA_PATH}\n")


if __name__ == "__main__":
    main()
