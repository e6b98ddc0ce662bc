"""Machi Koro with the Harbor expansion."""

from ...core.registry import register
from .game import MachiKoro
from .state import MachiKoroState

GAME = register(MachiKoroState.game)

__all__ = ["GAME", "MachiKoro", "MachiKoroState"]

# Numeric observations for tabletown.rl (observe.py, NumPy) load on the first state.observation().
