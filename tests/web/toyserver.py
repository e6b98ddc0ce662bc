"""Run the Tabletown server with the toy game registered (the kill -9 test's subprocess)."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

import web_toygame as toygame  # noqa: E402

from tabletown.core import registry  # noqa: E402
from tabletown.web.server import main  # noqa: E402

if __name__ == "__main__":  # a child process the server spawns (post-game analyses) imports this file too
    registry.register(toygame.TOY)
    main(sys.argv[1:])
