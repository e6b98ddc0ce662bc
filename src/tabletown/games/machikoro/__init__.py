"""Machi Koro with the Harbor expansion."""

from ...core.registry import register
from .game import MachiKoro
from .rules import MachiKoroState

GAME = register(MachiKoroState.game)

__all__ = ["GAME", "MachiKoro", "MachiKoroState"]

from . import observe  # noqa: E402,F401  (numeric observations for tabletown.rl)
