"""Lords of Vegas bots."""

from __future__ import annotations

from ...core.game import Action, Bot, State


class GreedyBot(Bot):
    name = "greedy"

    def choose(self, state: State, player: int) -> Action:
        return self.rng.choice(state.legal_actions(player))
