"""The uniform random bot: the floor every other bot must beat."""

from __future__ import annotations

from ..core.game import Action, Bot, State


class RandomBot(Bot):
    name = "random"
    needs_state = False  # it only ever looks at its legal moves

    def choose(self, state: State, player: int) -> Action:
        return self.rng.choice(state.legal_actions(player))
