"""``python -m tabletown`` runs the command line, as the installed ``tabletown`` script does."""

from __future__ import annotations

import subprocess
import sys


def test_python_dash_m_tabletown_lists_the_games() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "tabletown", "games"], capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr
    for game in ("machikoro", "lordsofvegas", "newlasvegas", "multicity"):
        assert game in done.stdout
