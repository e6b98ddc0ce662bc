"""Issue 27: playing and serving need only the runtime dependencies (make run installs no extras). The
research packages (NumPy, Gymnasium, PettingZoo, matplotlib, Ray, torch) load only when asked for."""

from __future__ import annotations

import subprocess
import sys
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
RESEARCH = ("numpy", "gymnasium", "pettingzoo", "matplotlib", "ray", "torch", "pytest", "httpx", "playwright")

# Refuse every research and test package, then do what a player does: the CLI, every game with its
# bots, a bot game to the end, and the web app (with its pages' templates).
PLAY_WITHOUT_RESEARCH = f"""
import sys
BLOCKED = {RESEARCH!r}

class Refuse:
    def find_spec(self, name, path=None, target=None):
        if name.split(".")[0] in BLOCKED:
            raise ImportError("blocked research package: " + name)

sys.meta_path.insert(0, Refuse())
import tabletown.cli as cli
cli._register_extra_commands()
from tabletown.bots import bot_names, make_bot
from tabletown.core.registry import all_games
from tabletown.web.app import create_app
from tabletown.web.catalog import game_info
for game in all_games().values():
    game_info(game)
    state = game.new_game(2, {{}}, seed=1)
    bots = [make_bot(game, "random", seat) for seat in range(2)]
    while not state.is_over:
        for seat in state.to_act:
            state.apply(seat, bots[seat].choose(state.clone(), seat))
    state.result()
create_app("sqlite://")
print("ok", sorted(m for m in sys.modules if m.split(".")[0] in BLOCKED))
"""


def test_playing_and_serving_import_no_research_package():
    done = subprocess.run(
        [sys.executable, "-c", PLAY_WITHOUT_RESEARCH], capture_output=True, text=True, timeout=300, cwd=ROOT
    )
    assert done.returncode == 0, done.stderr[-3000:]
    assert done.stdout.strip() == "ok []"


def test_observations_still_load_on_first_use():
    import numpy as np

    from tabletown.core.registry import all_games

    for game in all_games().values():
        state = game.new_game(2, {}, seed=3)
        numbers = state.observation(0)
        assert isinstance(numbers, np.ndarray) and len(numbers) == game.observation_size(2, {})


def test_runtime_dependencies_leave_research_and_tests_to_extras():
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    runtime = {
        dep.split("[")[0].split(">")[0].split("=")[0].strip().lower() for dep in project["dependencies"]
    }
    for needed in ("fastapi", "uvicorn", "sqlalchemy", "alembic", "jinja2", "typer", "rich", "websockets"):
        assert needed in runtime
    assert not runtime & set(RESEARCH)
    dev = " ".join(project["optional-dependencies"]["dev"])
    for name in ("numpy", "gymnasium", "pettingzoo", "matplotlib", "ray", "pytest", "playwright", "httpx"):
        assert name in dev
