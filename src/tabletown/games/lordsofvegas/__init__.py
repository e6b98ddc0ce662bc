"""Lords of Vegas (2010 base game, 2-4 players): build casinos on the Strip."""

from ...core.registry import register
from .game import LordsOfVegasGame
from .state import LordsOfVegasState

GAME = register(LordsOfVegasGame())
LordsOfVegasState.game = GAME

__all__ = ["GAME", "LordsOfVegasGame"]

# Numeric observations for tabletown.rl (observe.py, NumPy) load on the first state.observation().
