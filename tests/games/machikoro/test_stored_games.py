"""Seeded games recorded before the speed work of issue 21 must replay identically.

``data/stored_games.json`` holds random-play games of every bench set-up and of the rarer rule
switches, made with the code before the rules were optimised. Each is played again from its seeds:
the moves (so the order of ``legal_actions`` too), the result, every seat's view with the whole event
log, and the RNG's position must come out the same; the recorded moves must also replay as a record.
Regenerate only for an intended change of behaviour:
``.venv/bin/python tests/games/machikoro/test_stored_games.py``.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from tabletown.core.registry import get_game
from tabletown.testing import played_randomly, replay_stored

GAME = "machikoro"
DATA = Path(__file__).with_name("data") / "stored_games.json"
# (players, options, game seed, agent seed)
SETUPS = [
    (2, {"harbor": False}, 1, 11),
    (4, {"harbor": False}, 2, 12),
    (2, {"harbor": True}, 3, 13),
    (4, {"harbor": True}, 4, 14),
    (3, {"harbor": True, "market": "hybrid", "city_hall": "every_turn"}, 5, 15),
    (5, {"harbor": True, "fifth_player": True, "radio_tower_dice": "same"}, 6, 16),
    (3, {"harbor": True, "market": "all", "sushi_cost": 2, "park_same_turn": False}, 7, 17),
    (2, {"harbor": False, "market": "ten"}, 8, 18),
]


# This module is alike to multicity's and newlasvegas's test_stored_games.py on purpose:
# each game's tests stand alone (no shared module across tests/games/), each with its own data file.
def play(players: int, options: dict, seed: int, agent_seed: int) -> dict:
    return played_randomly(get_game(GAME), players, options, seed, agent_seed)


def stored() -> list[dict]:
    return json.loads(DATA.read_text())


@pytest.mark.parametrize("index", range(len(SETUPS)))
def test_stored_game_plays_again_identically(index: int) -> None:
    want = stored()[index]
    got = play(want["players"], want["options"], want["seed"], want["agent_seed"])
    assert got["actions"] == want["actions"]
    assert got == want


@pytest.mark.parametrize("index", range(len(SETUPS)))
def test_stored_moves_replay_as_a_record(index: int) -> None:
    replay_stored(get_game(GAME), stored()[index])


if __name__ == "__main__":
    games = [play(*setup) for setup in SETUPS]
    DATA.write_text(json.dumps(games, separators=(",", ":")) + "\n")
    print(f"wrote {len(games)} games, {DATA.stat().st_size} bytes", file=sys.stderr)
