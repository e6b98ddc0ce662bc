"""Games recorded before the speed work of issue 21 replay identically: random play (every legal
list in the same order, the same dice), bot games (greedy and expert) and search decisions (the
generic MCTS bot in its tree and halving forms). The records were made by ``_make_records`` with
the code before the change; run this module as a script to write them again (only on purpose)."""

from __future__ import annotations

import hashlib
import json
import random
import sys
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from tabletown.bots.mcts import MCTSBot, config_for
from tabletown.core.record import state_digest
from tabletown.core.session import play_bots, play_out
from tabletown.games.lordsofvegas import GAME

DATA = Path(__file__).parent / "data" / "speed_records.json"

RANDOM_SETUPS: list[tuple[int, dict[str, Any], int]] = [
    (2, {}, 3),
    (3, {}, 4),
    (4, {}, 5),
    (2, {"open_market": True}, 6),
    (3, {"open_market": True, "max_offers": 5}, 7),
    (4, {"markers_full": "hold"}, 8),
    (4, {"open_market": True, "markers_full": "hold", "max_offers": 1}, 9),
]


def _rng_digest(state: Any) -> str:
    return hashlib.sha256(repr(state.rng.getstate()).encode()).hexdigest()[:16]


def _random_game(players: int, options: dict[str, Any], seed: int) -> dict[str, Any]:
    state = GAME.new_game(players, options, seed=seed)
    rng = random.Random(seed * 7919)
    legal_hash = hashlib.sha256()
    moves: list[list[Any]] = []

    def agent(st: Any, seat: int) -> Any:
        legal = st.legal_actions(seat)
        legal_hash.update(repr(legal).encode())
        action = rng.choice(legal)
        moves.append([seat, st.format_action(action)])
        return action

    play_out(state, [agent] * players)
    return {
        "players": players,
        "options": options,
        "seed": seed,
        "moves": moves,
        "legal": legal_hash.hexdigest()[:16],
        "score": state.score,
        "money": state.money,
        "turn": state.turn,
        "events": len(state.log),
        "rng": _rng_digest(state),
        "digest": state_digest(state),
    }


def _bot_game(players: int, bots: list[str], seed: int) -> dict[str, Any]:
    state = GAME.new_game(players, {}, seed=seed)
    factories = GAME.bots()
    moves: list[list[Any]] = []

    def heard(st: Any, seat: int, text: str, simultaneous: bool) -> None:
        moves.append([seat, text])

    play_bots(state, [factories[name](seed + i) for i, name in enumerate(bots)], seed=seed, on_action=heard)
    return {
        "players": players,
        "bots": bots,
        "seed": seed,
        "moves": moves,
        "score": state.score,
        "money": state.money,
        "digest": state_digest(state),
    }


def _positions(count: int, seed: int) -> list[tuple[Any, int]]:
    """Decision points of seeded random 2-player games (as benchmarks/bench_mcts.py picks them)."""
    # A copy of bench_mcts.positions on purpose: benchmarks/ is no package, and that file must run
    # against older trees of src (ab.py), so neither can borrow from the other.
    rng = random.Random(seed)
    found = []
    number = 0
    while len(found) < count:
        state = GAME.new_game(2, None, seed=seed + number)
        number += 1
        while state.to_act and len(found) < count:
            seat = state.to_act[0]
            legal = state.legal_actions(seat)
            if len(legal) > 1 and rng.random() < 0.05:
                found.append((state.clone(), seat))
            state.apply(seat, rng.choice(legal))
    return found


def _searches() -> list[dict[str, Any]]:
    out = []
    configs = {
        "hard": replace(config_for(GAME, "hard"), iterations=60, max_seconds=1e9),
        "tree": replace(config_for(GAME, "medium"), iterations=60, max_seconds=1e9),
        "policy": replace(
            config_for(GAME, "medium"), iterations=30, max_seconds=1e9, rollout="policy", policy="greedy"
        ),
    }
    for index, (state, seat) in enumerate(_positions(4, 11)):
        for name, config in configs.items():
            bot = MCTSBot(GAME, index, config)
            action = bot.choose(state.clone(), seat)
            row: dict[str, Any] = {"position": index, "config": name, "action": state.format_action(action)}
            if config.root == "tree":
                root = bot.search(state.clone(), seat)
                row["visits"] = sorted(
                    [state.format_action(a), child.visits, round(child.total, 6)]
                    for a, child in root.children.items()
                )
            out.append(row)
    return out


def _make_records() -> dict[str, Any]:
    return {
        "random": [_random_game(p, o, s) for p, o, s in RANDOM_SETUPS],
        "bots": [_bot_game(2, ["expert", "greedy"], 21), _bot_game(3, ["greedy", "expert", "expert"], 22)],
        "search": _searches(),
    }


@pytest.fixture(scope="module")
def records() -> dict[str, Any]:
    return json.loads(DATA.read_text())


def test_random_games_replay(records: dict[str, Any]) -> None:
    for old in records["random"]:
        new = _random_game(old["players"], old["options"], old["seed"])
        assert new["moves"] == old["moves"]
        assert new == old


def test_bot_games_replay(records: dict[str, Any]) -> None:
    for old in records["bots"]:
        assert _bot_game(old["players"], old["bots"], old["seed"]) == old


def test_search_decisions_replay(records: dict[str, Any]) -> None:
    assert _searches() == records["search"]


if __name__ == "__main__":
    if "--write" not in sys.argv:
        raise SystemExit("pass --write to overwrite the stored records")
    DATA.write_text(json.dumps(_make_records(), separators=(",", ":")) + "\n")
