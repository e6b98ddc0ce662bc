"""Make the toy game importable (``import toygame``) and register it for the tests that need it."""

from __future__ import annotations

import sys
from pathlib import Path

HERE = str(Path(__file__).parent)
if HERE not in sys.path:
    sys.path.insert(0, HERE)


import pytest  # noqa: E402


@pytest.fixture
def toy():
    """The toy game, registered for the duration of one test (worker processes fork with it)."""
    import toygame

    from tabletown.core import registry

    registry.register(toygame.TOY)
    yield toygame.TOY
    registry._GAMES.pop(toygame.TOY.name, None)
