"""Helpers for testing games and bots against the engine contract (used by every game's tests).

Only what needs the engine alone lives here (core imports nothing above it); the helpers that
make bots by name (``win_rate``, ``paired_share``, ``mcts_or_own_bots``) are in
:mod:`tabletown.testing`, which also re-exports everything below."""

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


# -- stored games: seeded games recorded once, replayed by the tests after every change -----------


def played_randomly(
    game: Game, players: int, options: dict[str, Any], seed: int, agent_seed: int
) -> dict[str, Any]:
    """A seeded random game as the stored-game tests keep it: its seeds, the moves in notation
    (``"seat:text"``), result, final digest, the generator's position and the length of the log."""
    import hashlib

    from .record import Record
    from .session import random_agent

    state = game.new_game(players, options, seed=seed)
    record = Record.start(state, ["random"] * players)
    play_out(state, [random_agent(random.Random(agent_seed))] * players, record=record)
    return {
        "players": players,
        "options": options,
        "seed": seed,
        "agent_seed": agent_seed,
        "actions": [f"{p}:{t}" for p, t in record.actions],
        "result": record.result,
        "digest": record.final_digest,
        "rng": hashlib.sha256(repr(state.rng.getstate()).encode()).hexdigest(),
        "events": len(state.log),
    }


def replay_stored(game: Game, stored: Mapping[str, Any]) -> State:
    """The final position of a stored game, rebuilt from its seed and its moves in notation; checks
    the stored result and final digest on the way."""
    from .record import state_digest

    state = game.new_game(stored["players"], stored["options"], seed=stored["seed"])
    for entry in stored["actions"]:
        seat, text = entry.split(":", 1)
        state.apply_text(int(seat), text)
    result = state.result()
    assert result is not None and result.to_json() == stored["result"]
    assert state_digest(state) == stored["digest"]
    return state
