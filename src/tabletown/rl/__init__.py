"""Learning environments for every Tabletown game (issue 20), built on engine contract 2 only.

* ``tabletown.rl.env(game, num_players=2, options=None, seed=None)``: a PettingZoo AEC environment;
* ``tabletown.rl.parallel_env(...)``: a PettingZoo Parallel environment (simultaneous rounds);
* ``tabletown.rl.gym.TabletownEnv``: a Gymnasium environment, one learner against Tabletown bots,
  registered for every game as ``tabletown/<Game.camel_name>-v0`` (``tabletown/MachiKoro-v0``,
  ``tabletown/LordsOfVegas-v0``, ``tabletown/NewLasVegas-v0``, ``tabletown/Multicity-v0``; ``GYM_IDS``);
* ``tabletown.rl.policy_bot``: a trained policy file as a bot (``policy:FILE``).

Observations come from each game's ``observe`` module (``state.observation(seat)``,
``game.observation_size(n, options)``); see docs/rl.md.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import gymnasium

from ..core.game import Game
from ..core.registry import all_games
from .aec import TabletownAECEnv
from .parallel import TabletownParallelEnv

# Each game's numeric observation lives in tabletown.games.<game>.observe, imported on the first
# state.observation() call (State.observation in core/game.py).

# Every registered game's Gymnasium id, from its CamelCase name (``Game.camel_name``).
GYM_IDS = {name: f"tabletown/{game.camel_name or name.capitalize()}-v0" for name, game in all_games().items()}

for _game, _id in GYM_IDS.items():
    if _id not in gymnasium.registry:
        gymnasium.register(id=_id, entry_point="tabletown.rl.gym:TabletownEnv", kwargs={"game": _game})


# env and parallel_env below are twins on purpose: PettingZoo's two entry points, each with the
# signature of the class it makes (aec.TabletownAECEnv, parallel.TabletownParallelEnv).
def env(
    game: Game | str,
    num_players: int = 2,
    options: Mapping[str, Any] | None = None,
    seed: int | None = None,
    **kwargs: Any,
) -> TabletownAECEnv:
    """A PettingZoo AEC environment for ``game`` (a name or a Game)."""
    return TabletownAECEnv(game, num_players, options, seed, **kwargs)


def parallel_env(
    game: Game | str,
    num_players: int = 2,
    options: Mapping[str, Any] | None = None,
    seed: int | None = None,
    **kwargs: Any,
) -> TabletownParallelEnv:
    """A PettingZoo Parallel environment for ``game``: one action from every seat that acts."""
    return TabletownParallelEnv(game, num_players, options, seed, **kwargs)


__all__ = ["GYM_IDS", "TabletownAECEnv", "TabletownParallelEnv", "env", "parallel_env"]
