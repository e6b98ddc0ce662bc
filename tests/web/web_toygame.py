"""The web tests' handle on the test-only toy game: the same module as the arena tests'
(tests/arena/toygame.py), imported by its own name so both test folders share one file."""

from __future__ import annotations

import sys
from pathlib import Path

_ARENA = str(Path(__file__).parents[1] / "arena")
if _ARENA not in sys.path:
    sys.path.insert(0, _ARENA)

from toygame import TOY, ToyGame, ToyGreedy, ToyState  # noqa: E402

__all__ = ["TOY", "ToyGame", "ToyGreedy", "ToyState"]
