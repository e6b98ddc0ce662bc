"""Lords of Vegas (2010 base game, 2-4 players): build casinos on the Strip."""

from ...core.registry import register
from .game import LordsOfVegasGame
from .state import LordsOfVegasState

GAME = register(LordsOfVegasGame())
LordsOfVegasState.game = GAME

__all__ = ["GAME", "LordsOfVegasGame"]

from . import observe  # noqa: E402,F401  (numeric observations for tabletown.rl)
