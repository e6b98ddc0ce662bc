"""Seeded games recorded before the speed work of issue 21 must replay identically.

``data/stored_games.json`` holds random-play games of every bench set-up and of the rule switches,
and a few games of the package's bots and of a small search, made with the code before the rules
were optimised. Each is played again from its seeds: the moves (so the order of ``legal_actions`` too), the result, every seat's view with the whole event
log, and the RNG's position must come out the same; the recorded moves must also replay as a record.
Regenerate only for an intended change of behaviour:
``.venv/bin/python tests/games/multicity/test_stored_games.py``.

Alike to the other games' test_stored_games.py on purpose: each game's tests stand alone.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from tabletown.core.record import Record
from tabletown.core.registry import get_game
from tabletown.core.session import play_out
from tabletown.testing import mcts_or_own_bots, played_randomly, replay_stored

GAME = "multicity"
DATA = Path(__file__).with_name("data") / "stored_games.json"
# (players, options, game seed, agent seed)
SETUPS = [
    (2, {}, 1, 11),
    (3, {}, 2, 12),
    (4, {}, 3, 13),
    (2, {}, 4, 14),
    (3, {"kids": True}, 5, 15),
    (4, {"overlap": "loose"}, 6, 16),
    (2, {"kids": True, "overlap": "loose", "first": "1"}, 7, 17),
    (3, {"deck": 12}, 8, 18),
]
# Bot games (the package's own bots and a small search): (players, options, seed, bots, MCTS settings)
BOT_SETUPS = [
    (2, {}, 21, ["greedy", "expert"], None),
    (3, {"overlap": "loose"}, 22, ["expert", "greedy", "expert"], None),
    (
        2,
        {"kids": True},
        23,
        ["mcts", "expert"],
        {"root": "halving", "anchor": True, "policy": "expert", "iterations": 24},
    ),
    (2, {}, 24, ["mcts", "greedy"], {"iterations": 40}),
]


def play(players: int, options: dict, seed: int, agent_seed: int) -> dict:
    return played_randomly(get_game(GAME), players, options, seed, agent_seed)


def play_bots(players: int, options: dict, seed: int, names: list[str], search: dict | None) -> dict:
    from tabletown.core.session import bot_agents

    game = get_game(GAME)
    bots = mcts_or_own_bots(game, names, search)
    state = game.new_game(players, options, seed=seed)
    record = Record.start(state, names)
    play_out(state, bot_agents(bots, seed), record=record)
    return {
        "players": players,
        "options": options,
        "seed": seed,
        "bots": names,
        "search": search,
        "actions": [f"{p}:{t}" for p, t in record.actions],
        "result": record.result,
        "digest": record.final_digest,
    }


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
    want = stored()[index]
    check_replay(want)


@pytest.mark.parametrize("index", range(len(BOT_SETUPS)))
def test_stored_bot_game_plays_again_identically(index: int) -> None:
    want = stored()[len(SETUPS) + index]
    got = play_bots(want["players"], want["options"], want["seed"], want["bots"], want["search"])
    assert got["actions"] == want["actions"]
    assert got == want
    check_replay(want)


def check_replay(want: dict) -> None:
    replay_stored(get_game(GAME), want)


if __name__ == "__main__":
    games = [play(*setup) for setup in SETUPS] + [play_bots(*setup) for setup in BOT_SETUPS]
    DATA.write_text(json.dumps(games, separators=(",", ":")) + "\n")
    print(f"wrote {len(games)} games, {DATA.stat().st_size} bytes", file=sys.stderr)
