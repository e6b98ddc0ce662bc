"""Full random games per second: the engine's headline speed figure."""

from __future__ import annotations

import random
import time
from collections.abc import Mapping
from typing import Any

from .game import Game, State
from .session import play_out, random_agent


def random_playout(state: State, rng: random.Random, max_actions: int | None = None) -> int:
    """Play uniformly random legal actions to the end; returns the number of actions applied."""
    agent = random_agent(rng)
    return play_out(state, [agent] * state.num_players, max_actions=max_actions)


def bench_config(
    game: Game,
    players: int,
    options: Mapping[str, Any],
    min_seconds: float = 2.0,
    min_games: int = 20,
    seed: int = 0,
) -> dict[str, Any]:
    rng = random.Random(seed)
    games = actions = 0
    start = time.perf_counter()
    elapsed = 0.0
    while games < min_games or elapsed < min_seconds:
        state = game.new_game(players, options, seed=seed + games)
        actions += random_playout(state, rng)
        games += 1
        elapsed = time.perf_counter() - start
    return {
        "game": game.name,
        "players": players,
        "options": dict(options),
        "games": games,
        "seconds": round(elapsed, 3),
        "games_per_second": round(games / elapsed, 1),
        "actions_per_game": round(actions / games, 1),
    }
