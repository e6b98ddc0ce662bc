"""Make the toy game importable (``import toygame``) and register it for the tests that need it."""

from __future__ import annotations

import sys
from pathlib import Path

HERE = str(Path(__file__).parents[1] / "arena")
if HERE not in sys.path:
    sys.path.insert(0, HERE)
