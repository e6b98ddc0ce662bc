"""Welcome To New Las Vegas: simultaneous multiplayer, solo against ACME, first-game variant."""

from ...core.registry import register
from .game import NewLasVegas
from .state import NewLasVegasState

GAME = register(NewLasVegasState.game)

__all__ = ["GAME", "NewLasVegas", "NewLasVegasState"]

# Numeric observations for tabletown.rl (observe.py, NumPy) load on the first state.observation().
