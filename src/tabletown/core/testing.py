"""Helpers for testing games and bots against the engine contract (used by every game's tests)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from .game import Action, Bot, Game, State
from .rng import SeededRNG
from .session import play_out


class ScriptedDice(SeededRNG):
    """An RNG whose ``die()`` answers come from a script; shuffles still use the seeded generator.

    Fails loudly if the rules roll more dice than the scenario scripted."""

    def __init__(self, dice: list[int]) -> None:
        super().__init__(0)
        self.script = list(dice)

    def die(self) -> int:
        assert self.script, "the scenario rolled more dice than it scripted"
        return self.script.pop(0)

    def clone(self) -> ScriptedDice:
        twin = ScriptedDice(self.script)
        twin.setstate(self.getstate())
        return twin


def legal_checked(bot: Bot) -> Callable[[State, int], Action]:
    """An agent that asks ``bot`` and asserts its answer is one of the legal actions."""

    def agent(state: State, player: int) -> Action:
        action = bot.choose(state, player)
        assert action in state.legal_actions(player), f"{bot.name} chose an illegal action {action!r}"
        return action

    return agent


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
    from ..bots import make_bot

    wins = 0
    for number in range(games):
        seed = first_seed + number
        seat = number % players
        names = [bot if p == seat else opponent for p in range(players)]
        state = game.new_game(players, options, seed=seed)
        agents = [legal_checked(make_bot(game, name, seed * 31 + p)) for p, name in enumerate(names)]
        play_out(state, agents)
        wins += state.result().ranks[seat] == 1
    return wins / games
