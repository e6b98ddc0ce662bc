"""Driving a game to its end with a set of agents (bots or humans)."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from .game import Action, State
from .record import Record

Agent = Callable[[State, int], Action]


def play_out(
    state: State,
    agents: Sequence[Agent],
    record: Record | None = None,
    on_action: Callable[[State, int, str, bool], None] | None = None,
    max_actions: int = 1_000_000,
) -> State:
    """Ask the agents for actions until the game ends. In a simultaneous round every seat in
    ``to_act`` is asked in seat order; each answer is applied at once (the state keeps it secret).

    ``on_action(state, seat, text, simultaneous)`` is told of every applied action; ``simultaneous`` is
    true when other seats were choosing in the same round, so a display must not reveal it yet."""
    for _ in range(max_actions):
        acting = state.to_act
        if not acting:
            break
        simultaneous = len(acting) > 1
        for player in acting:
            if player not in state.to_act:
                continue
            action = agents[player](state, player)
            text = state.format_action(action)
            state.apply(player, action)
            if record is not None:
                record.add(player, text)
            if on_action is not None:
                on_action(state, player, text, simultaneous)
    else:
        raise RuntimeError(f"game did not end within {max_actions} actions")
    if record is not None:
        record.finish(state)
    return state
