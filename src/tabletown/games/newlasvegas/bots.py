"""Game-specific bots for New Las Vegas."""

from __future__ import annotations

from typing import Any

from ...core.game import Bot, State


class GreedyBot(Bot):
    name = "greedy"

    def choose(self, state: State, player: int) -> Any:
        return self.rng.choice(state.legal_actions(player))
