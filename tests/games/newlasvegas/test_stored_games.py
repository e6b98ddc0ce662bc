"""Seeded games recorded before the speed work of issue 21 must replay identically.

``data/stored_games.json`` holds random-play games of every bench set-up (solo, 2 and 4 players) and
of the options (first game, the solo architect cards, 3 players), and a few games of the package's
bots (greedy, expert) and of a small search (handed the real state), made with the code before the rules were optimised.
Each is played again from its seeds and must come out the same: the moves, a hash of every legal
action list offered on the way (so their order too, which random players pick from by index), the
result, the digest of every seat's view with the whole event log, the fingerprint of the whole state
(hidden parts included) and the RNG's position. The recorded moves must also replay as a record.
Regenerate only for an intended change of behaviour:
``.venv/bin/python tests/games/newlasvegas/test_stored_games.py``.

Alike to the other games' test_stored_games.py on purpose: each game's tests stand alone.
"""

from __future__ import annotations

import hashlib
import json
import random
import sys
from pathlib import Path
from typing import Any

import pytest

from tabletown.core.game import Action, State
from tabletown.core.record import Record, state_fingerprint
from tabletown.core.registry import get_game
from tabletown.core.session import play_out
from tabletown.testing import mcts_or_own_bots, replay_stored

GAME = "newlasvegas"
DATA = Path(__file__).with_name("data") / "stored_games.json"
# (players, options, game seed, agent seed)
SETUPS = [
    (1, {}, 1, 11),
    (2, {}, 2, 12),
    (4, {}, 3, 13),
    (1, {}, 4, 14),
    (2, {}, 5, 15),
    (4, {}, 6, 16),
    (3, {}, 7, 17),
    (2, {"first_game": True}, 8, 18),
    (1, {"architect": 7}, 9, 19),
    (1, {"architect": 13, "first_game": True}, 10, 20),
    (5, {}, 11, 21),
]
# Bot games (the package's own bots and a small search): (players, options, seed, bots, MCTS settings)
BOT_SETUPS = [
    (2, {}, 21, ["greedy", "expert"], None),
    (1, {"architect": 4}, 22, ["expert"], None),
    (3, {"first_game": True}, 23, ["expert", "greedy", "expert"], None),
    (
        2,
        {},
        24,
        ["mcts", "expert"],
        {
            "root": "halving",
            "anchor": True,
            "policy": "expert",
            "rollout": "policy",
            "policy_share": 0.1,
            "iterations": 4,
            "rollout_cap": 10,
        },
    ),
    (2, {}, 25, ["mcts", "greedy"], {"iterations": 12}),
    (1, {"architect": 10}, 26, ["mcts"], {"iterations": 10}),
]


class Hasher:
    """A running hash of every legal action list the agents were offered."""

    def __init__(self) -> None:
        self.sha = hashlib.sha256()

    def note(self, seat: int, legal: list[Action]) -> None:
        self.sha.update(f"{seat}{legal!r}".encode())


def hashing_random_agent(rng: random.Random, hasher: Hasher) -> Any:
    def agent(state: State, seat: int) -> Action:
        legal = state.legal_actions(seat)
        hasher.note(seat, legal)
        return rng.choice(legal)

    return agent


def summary(state: State, record: Record) -> dict[str, Any]:
    return {
        "actions": [f"{p}:{t}" for p, t in record.actions],
        "result": record.result,
        "digest": record.final_digest,
        "fingerprint": hashlib.sha256(state_fingerprint(state)).hexdigest(),
        "rng": hashlib.sha256(repr(state.rng.getstate()).encode()).hexdigest(),
        "events": len(state.log),
    }


def play(players: int, options: dict, seed: int, agent_seed: int) -> dict:
    state = get_game(GAME).new_game(players, options, seed=seed)
    record = Record.start(state, ["random"] * players)
    hasher = Hasher()
    play_out(state, [hashing_random_agent(random.Random(agent_seed), hasher)] * players, record=record)
    return {
        "players": players,
        "options": options,
        "seed": seed,
        "agent_seed": agent_seed,
        "legal": hasher.sha.hexdigest(),
        **summary(state, record),
    }


def play_bots(players: int, options: dict, seed: int, names: list[str], search: dict | None) -> dict:
    from tabletown.core.session import bot_agents

    game = get_game(GAME)
    bots = mcts_or_own_bots(game, names, search)
    agents = bot_agents(bots, seed)
    for seat, name in enumerate(names):
        if name == "mcts":
            # The search is handed the real state (as benchmarks/bench_mcts.py does): it
            # determinizes for itself, and this keeps its clones, determinizations and play-outs in
            # the record.
            agents[seat] = bots[seat].choose
    state = game.new_game(players, options, seed=seed)
    record = Record.start(state, names)
    play_out(state, agents, record=record)
    return {
        "players": players,
        "options": options,
        "seed": seed,
        "bots": names,
        "search": search,
        **summary(state, record),
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
    check_replay(stored()[index])


@pytest.mark.parametrize("index", range(len(BOT_SETUPS)))
def test_stored_bot_game_plays_again_identically(index: int) -> None:
    want = stored()[len(SETUPS) + index]
    got = play_bots(want["players"], want["options"], want["seed"], want["bots"], want["search"])
    assert got["actions"] == want["actions"]
    assert got == want
    check_replay(want)


def check_replay(want: dict) -> None:
    state = replay_stored(get_game(GAME), want)
    assert hashlib.sha256(state_fingerprint(state)).hexdigest() == want["fingerprint"]


if __name__ == "__main__":
    games = [play(*setup) for setup in SETUPS] + [play_bots(*setup) for setup in BOT_SETUPS]
    DATA.write_text(json.dumps(games, separators=(",", ":")) + "\n")
    print(f"wrote {len(games)} games, {DATA.stat().st_size} bytes", file=sys.stderr)
