"""Multicity (Multi City, Logis 2016; Polish edition Muduko 2022): race to place six objects in a city of tiles."""

from ...core.registry import register
from .game import MulticityGame
from .state import DRAW, PASS, Lay, MulticityState, Place

GAME = register(MulticityGame())
MulticityState.game = GAME

__all__ = ["DRAW", "GAME", "PASS", "Lay", "MulticityGame", "MulticityState", "Place"]

# Numeric observations for tabletown.rl (observe.py, NumPy) load on the first state.observation().
