"""Welcome To New Las Vegas: simultaneous multiplayer, solo against ACME, first-game variant."""

from ...core.registry import register
from .game import NewLasVegas
from .rules import NewLasVegasState

GAME = register(NewLasVegasState.game)

__all__ = ["GAME", "NewLasVegas", "NewLasVegasState"]

from . import observe  # noqa: E402,F401  (numeric observations for tabletown.rl)
