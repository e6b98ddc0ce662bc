"""Helpers for testing games and bots against the engine contract (used by every game's tests)."""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator, Mapping
from typing import Any

from .game import Action, Bot, Game, State
from .rng import SeededRNG
from .session import bot_agent, play_out


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


def sample_positions(game: Game, players: int, seed: int, games: int = 2, every: int = 9) -> Iterator[State]:
    """Copies of positions met along seeded random games, one every ``every`` actions (decision
    points only); the contract tests probe each of them."""
    rng = random.Random(seed)
    for number in range(games):
        state = game.new_game(players, None, seed=seed * 100 + number)
        steps = 0
        while state.to_act and steps < 4000:
            if steps % every == 0:
                yield state.clone()
            for seat in state.to_act:
                if seat in state.to_act:
                    state.apply(seat, rng.choice(state.legal_actions(seat)))
                    steps += 1


def legal_checked(bot: Bot, seed: int = 0) -> Callable[[State, int], Action]:
    """A seat-safe agent (``session.bot_agent``) that asks ``bot`` and asserts its answer is one of
    the legal actions."""
    ask = bot_agent(bot, seed)

    def agent(state: State, player: int) -> Action:
        action = ask(state, player)
        assert action in state.legal_actions(player), f"{bot.name} chose an illegal action {action!r}"
        return action

    return agent


def choice_checked(bot: Bot, seed: int = 0) -> Callable[[State, int], Action]:
    """Like ``legal_checked``, and also asserts that choosing leaves the whole state unchanged (the
    bot is handed a copy; this guards the driver)."""
    from .record import state_digest

    ask = bot_agent(bot, seed)

    def agent(state: State, player: int) -> Action:
        before = state_digest(state)
        action = ask(state, player)
        assert state_digest(state) == before, f"{bot.name} changed the game while choosing"
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
        agents = [
            legal_checked(make_bot(game, name, seed * 31 + p), seed * 31 + p) for p, name in enumerate(names)
        ]
        play_out(state, agents)
        wins += state.result().ranks[seat] == 1
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
    from ..bots import make_bot

    credit = 0.0
    for deal in range(deals):
        seed = first_seed + deal
        for seat in (0, 1):
            names = [bot if s == seat else opponent for s in (0, 1)]
            state = game.new_game(2, options, seed=seed)
            play_out(
                state,
                [
                    bot_agent(make_bot(game, name, seed * 31 + s), seed * 31 + s)
                    for s, name in enumerate(names)
                ],
            )
            winners = state.result().winners
            credit += (seat in winners) / len(winners)
    return credit / (2 * deals)
