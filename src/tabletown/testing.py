"""Test helpers that make bots by name: above :mod:`tabletown.bots`, so the engine (core) never
imports the bots. Everything in :mod:`tabletown.core.testing` (the helpers that need the engine
alone) is re-exported here: a test imports its helpers from this one module."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from .bots import make_bot
from .bots.mcts import PRESETS, MCTSBot
from .core.game import Bot, Game
from .core.rng import derive_seed
from .core.session import bot_agent, play_out
from .core.testing import (
    ScriptedDice,
    choice_checked,
    legal_checked,
    played_randomly,
    replay_stored,
    sample_positions,
)

__all__ = [
    "ScriptedDice",
    "choice_checked",
    "legal_checked",
    "mcts_or_own_bots",
    "paired_share",
    "played_randomly",
    "replay_stored",
    "sample_positions",
    "win_rate",
]


def win_rate(
    game: Game,
    bot: str,
    opponent: str,
    games: int,
    options: Mapping[str, Any] | None = None,
    players: int = 2,
    first_seed: int = 0,
) -> float:
    """Share of games ``bot`` wins outright or shares first place against ``players - 1`` copies of
    ``opponent``; its seat rotates with the game number so no seat is favoured."""
    wins = 0
    for number in range(games):
        seed = first_seed + number
        seat = number % players
        names = [bot if p == seat else opponent for p in range(players)]
        state = game.new_game(players, options, seed=seed)
        seeds = [derive_seed(seed, p, f"bot:{name}") for p, name in enumerate(names)]
        agents = [legal_checked(make_bot(game, name, s), s) for s, name in zip(seeds, names, strict=True)]
        play_out(state, agents)
        result = state.result()
        assert result is not None  # played out
        wins += result.ranks[seat] == 1
    return wins / games


def paired_share(
    game: Game,
    bot: str,
    opponent: str,
    deals: int,
    first_seed: int = 0,
    options: Mapping[str, Any] | None = None,
) -> float:
    """Share of first places ``bot`` earns in two-player games against ``opponent``: each deal (seed
    ``first_seed + deal``) is played twice with the seats swapped, so the luck of the deal cancels, and
    a shared first place earns ``1 / winners`` of a win, as in the arena."""
    credit = 0.0
    for deal in range(deals):
        seed = first_seed + deal
        for seat in (0, 1):
            names = [bot if s == seat else opponent for s in (0, 1)]
            state = game.new_game(2, options, seed=seed)
            # Bot seeds one-way from the deal's, as the arena's (a bot told the game's seed would
            # know every hidden card: security audit 12).
            seeds = [derive_seed(seed, s, f"bot:{name}") for s, name in enumerate(names)]
            play_out(
                state, [bot_agent(make_bot(game, name, b), b) for b, name in zip(seeds, names, strict=True)]
            )
            result = state.result()
            assert result is not None  # played out
            winners = result.winners
            credit += (seat in winners) / len(winners)
    return credit / (2 * deals)


def mcts_or_own_bots(game: Game, names: list[str], search: Mapping[str, Any] | None) -> list[Bot]:
    """The stored bot games' line-ups: ``"mcts"`` is the search bot with the ``easy`` preset changed by
    ``search`` and no time limit (so it replays exactly); any other name is one of the game's bots."""
    factories = game.bots()
    return [
        MCTSBot(game, seat, replace(PRESETS["easy"], max_seconds=1e9, **(search or {})))
        if name == "mcts"
        else factories[name](seat)
        for seat, name in enumerate(names)
    ]
