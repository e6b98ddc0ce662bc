"""The toy game (tests/arena/toygame.py) with a numeric observation, registered for RL tests."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

ARENA = str(Path(__file__).parent.parent / "arena")
RL = str(Path(__file__).parent)  # observe_reference.py
for _path in (ARENA, RL):
    if _path not in sys.path:
        sys.path.insert(0, _path)


def toy_observation(self, player: int) -> list[float]:
    """Scores (own first), turn total, whose turn (relative), phase, own card, deck size, whether
    a card was played, who has bet (relative) and the seat's own bet: what ``player`` may see."""
    n = self.num_players
    order = [(player + k) % n for k in range(n)]
    target = self.options["target"]
    obs = [self.scores[p] / target for p in order]
    obs.append(self.turn_total / target)
    obs += [1.0 if self.current == p else 0.0 for p in order]
    obs += [1.0 if self.phase == "turn" else 0.0, 1.0 if self.phase == "bet" else 0.0]
    obs.append(self.hands[player] / 5)
    obs.append(len(self.deck) / 9)
    obs.append(1.0 if self.played else 0.0)
    obs += [0.0 if self.bets[p] is None else 1.0 for p in order]
    own = self.bets[player]
    obs += [1.0 if own == b else 0.0 for b in (0, 1, 2)]
    return obs


def toy_observation_size(self, num_players: int, options=None) -> int:
    return 3 * num_players + 9


@pytest.fixture
def toy():
    import toygame

    from tabletown.core import registry

    registry.register(toygame.TOY)
    toygame.ToyState.observation = toy_observation
    toygame.ToyGame.observation_size = toy_observation_size
    yield toygame.TOY
    registry._GAMES.pop(toygame.TOY.name, None)
    del toygame.ToyState.observation
    del toygame.ToyGame.observation_size
