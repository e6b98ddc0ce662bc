"""A game's learned win-chance model: P(seat wins | what the seat may see now).

The input is ``state.observation(seat)``, which the engine contract builds from the seat's own
information, so the model can be asked about any seat at any time without leaking anything. The
model is a one-hidden-layer network (standardised inputs, ReLU, a sigmoid output) small enough to
evaluate a few thousand positions in a millisecond with NumPy and to ship as a data file beside the
game's rules (``win_model_<N>p.npz`` in the game's package), fitted by :mod:`.training` on positions of
expert play, so a chance reads "how often the seat wins from here when everyone plays like the
expert".
"""

from __future__ import annotations

import importlib
import json
from collections.abc import Mapping
from functools import lru_cache
from pathlib import Path
from typing import Any

import numpy as np

from .game import Game, Result

FILE_PATTERN = "win_model_{players}p.npz"


def win_credit(result: Result, seat: int) -> float:
    """A seat's share of the win: 1 alone, 1/k shared by k winners, 0 otherwise. Alone at the table
    (New Las Vegas solo) rank 1 means the seat beat the game itself."""
    winners = result.winners
    return 1.0 / len(winners) if seat in winners else 0.0


class WinModel:
    """Standardise, one hidden ReLU layer, sigmoid: the arrays of a fitted model and its metadata."""

    __slots__ = ("mean", "scale", "w1", "b1", "w2", "b2", "meta")

    def __init__(self, arrays: Mapping[str, np.ndarray], meta: Mapping[str, Any]) -> None:
        self.mean = np.asarray(arrays["mean"], dtype=np.float32)
        self.scale = np.asarray(arrays["scale"], dtype=np.float32)
        self.w1 = np.asarray(arrays["w1"], dtype=np.float32)
        self.b1 = np.asarray(arrays["b1"], dtype=np.float32)
        self.w2 = np.asarray(arrays["w2"], dtype=np.float32)
        self.b2 = np.asarray(arrays["b2"], dtype=np.float32)
        self.meta = dict(meta)

    @property
    def inputs(self) -> int:
        return int(self.mean.shape[0])

    def logits(self, observations: np.ndarray) -> np.ndarray:
        """Raw scores of a batch (rows are observations)."""
        x = (np.asarray(observations, dtype=np.float32) - self.mean) * self.scale
        hidden = np.maximum(x @ self.w1 + self.b1, 0.0)
        return (hidden @ self.w2 + self.b2).reshape(-1)

    @property
    def temperature(self) -> float:
        """The divisor of the logits fitted on expert-against-expert positions after training
        (:func:`.training.calibrate`; 1.0 before): above 1 the network was overconfident."""
        return float(self.meta.get("temperature", 1.0))

    def chances(self, observations: np.ndarray) -> np.ndarray:
        """Win chances in (0, 1), one per row (calibrated by the temperature)."""
        z = self.logits(observations) / self.temperature
        return 1.0 / (1.0 + np.exp(-np.clip(z, -40.0, 40.0)))

    def save(self, path: str | Path) -> None:
        arrays = {name: getattr(self, name).astype(np.float16 if name == "w1" else np.float32) for name in
                  ("mean", "scale", "w1", "b1", "w2", "b2")}  # fmt: skip
        # w1 is nearly all of the file; half precision changes a chance by well under 0.1 point.
        np.savez_compressed(path, meta=np.array(json.dumps(self.meta, sort_keys=True)), **arrays)

    @classmethod
    def load(cls, path: str | Path) -> WinModel:
        with np.load(path, allow_pickle=False) as data:
            meta = json.loads(str(data["meta"]))
            arrays = {name: data[name] for name in ("mean", "scale", "w1", "b1", "w2", "b2")}
        return cls(arrays, meta)

    def fits(self, game: Game, num_players: int, options: Mapping[str, Any]) -> bool:
        """Whether the model was fitted for this game, player count and observation length."""
        return (
            self.meta.get("game") == game.name
            and self.meta.get("players") == num_players
            and self.inputs == game.observation_size(num_players, options)
            and self.meta.get("options") == json.loads(json.dumps(dict(options), sort_keys=True))
        )


def model_path(game: Game, num_players: int) -> Path:
    """Where a game's model for a player count lives: beside the game's rules, in its package."""
    # the folder of the module that defines the game (its package's, for games/<name>/game.py)
    module = importlib.import_module(type(game).__module__)
    folder = Path(module.__file__ or ".").parent
    return folder / FILE_PATTERN.format(players=num_players)


@lru_cache(maxsize=32)
def _load_cached(path: str, stamp: float) -> WinModel:
    return WinModel.load(path)


def shipped_model(game: Game, num_players: int, options: Mapping[str, Any]) -> WinModel | None:
    """The game's fitted model for this table, or None when none ships (or it no longer fits the
    observation, after a change to the game's observation)."""
    path = model_path(game, num_players)
    if not path.exists():
        return None
    model = _load_cached(str(path), path.stat().st_mtime)
    return model if model.fits(game, num_players, options) else None
