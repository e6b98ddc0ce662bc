"""A trained policy as a Tabletown bot: ``policy:FILE`` (see docs/rl.md).

A policy file is a NumPy ``.npz`` written by ``examples/train_policy.py`` (or anything that writes
the same arrays), so playing a trained policy needs neither PyTorch nor a GPU. The network reads
``state.observation(seat)`` and scores every legal action of the game's fixed action space:

    h      = tanh(W2 @ tanh(W1 @ obs + b1) + b2)          (hidden layers)
    q      = Wq @ h + bq                                  (a query of ``dim`` numbers)
    logit a = q . E[bucket(a)] + bias[a]                  (legal actions only)

``bucket(a)`` is ``a`` itself for spaces of at most ``buckets`` actions; a larger space (Multicity's
has hundreds of thousands) shares one embedding between neighbouring action numbers
(``a * buckets // len(space)``), which the fixed order of the space keeps alike (same kind of move,
nearby coordinates), and keeps a bias of its own per action. The bot plays the highest-scoring legal
action (``policy:FILE``), or samples from the policy's distribution with ``policy:FILE@sample``.

Arrays: ``W1 b1 W2 b2 Wq bq E bias`` and ``meta`` (a JSON string: game, num_players, options,
obs_size, num_actions, buckets).
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import numpy as np

from ..core.errors import OptionError
from ..core.game import Action, Bot, Game, State

LAYERS = ("W1", "b1", "W2", "b2", "Wq", "bq", "E", "bias")


def bucket_index(num_actions: int, buckets: int) -> np.ndarray:
    """The embedding row of every action number."""
    numbers = np.arange(num_actions, dtype=np.int64)
    if num_actions <= buckets:
        return numbers
    return numbers * buckets // num_actions


class Policy:
    """The network of a policy file, evaluated with NumPy."""

    def __init__(self, arrays: Mapping[str, np.ndarray], meta: Mapping[str, Any]) -> None:
        self.meta = dict(meta)
        for name in LAYERS:
            setattr(self, name, np.asarray(arrays[name], dtype=np.float32))
        self.num_actions = int(meta["num_actions"])
        self.obs_size = int(meta["obs_size"])
        self.buckets = bucket_index(self.num_actions, int(meta["buckets"]))
        if self.W1.shape[1] != self.obs_size or self.bias.shape != (self.num_actions,):
            raise ValueError("the policy's arrays do not fit its observation and action sizes")

    @classmethod
    def load(cls, path: str | Path) -> Policy:
        with np.load(Path(path), allow_pickle=False) as data:
            meta = json.loads(str(data["meta"]))
            return cls({name: data[name] for name in LAYERS}, meta)

    def save(self, path: str | Path) -> None:
        np.savez_compressed(
            Path(path), meta=json.dumps(self.meta), **{name: getattr(self, name) for name in LAYERS}
        )

    def query(self, obs: np.ndarray) -> np.ndarray:
        h = np.tanh(self.W1 @ obs + self.b1)
        h = np.tanh(self.W2 @ h + self.b2)
        return self.Wq @ h + self.bq

    def logits(self, obs: np.ndarray, legal: np.ndarray) -> np.ndarray:
        """Scores of the legal action numbers ``legal`` (in that order)."""
        q = self.query(np.asarray(obs, dtype=np.float32))
        return self.E[self.buckets[legal]] @ q + self.bias[legal]

    def probabilities(self, obs: np.ndarray, legal: np.ndarray) -> np.ndarray:
        z = self.logits(obs, legal)
        z = np.exp(z - z.max())
        return z / z.sum()

    def fits(self, game: Game, num_players: int, options: Mapping[str, Any]) -> bool:
        return (
            self.meta.get("game") == game.name
            and int(self.meta.get("num_players", num_players)) == num_players
            and len(game.action_space(num_players, options)) == self.num_actions
            and game.observation_size(num_players, options) == self.obs_size
        )


class PolicyBot(Bot):
    """Plays a policy file: the best legal action, or a sample when ``sample`` is set. It reads only
    ``state.observation(seat)`` and the legal moves of the seat-safe copy it is handed."""

    def __init__(self, policy: Policy, seed: int = 0, sample: bool = False, name: str = "policy") -> None:
        super().__init__(seed)
        self.policy = policy
        self.sample = sample
        self.name = name
        self._draws = np.random.default_rng(seed)

    def choose(self, state: State, player: int) -> Action:
        game = state.game
        space = game.action_space(state.num_players, state.options)
        if len(space) != self.policy.num_actions:
            raise OptionError(
                f"{self.name} was trained for another set-up ({self.policy.num_actions} actions, not {len(space)})"
            )
        legal = np.flatnonzero(np.frombuffer(bytes(state.legal_mask(player)), dtype=np.bool_))
        obs = np.asarray(state.observation(player), dtype=np.float32)
        if self.sample:
            pick = self._draws.choice(len(legal), p=self.policy.probabilities(obs, legal))
        else:
            pick = int(np.argmax(self.policy.logits(obs, legal)))
        return space[int(legal[pick])]


_LOADED: dict[str, Policy] = {}


def policy_bot(game: Game, spec: str, seed: int) -> PolicyBot:
    """The bot for ``policy:FILE`` (``spec`` is ``FILE`` or ``FILE@sample``) in ``game``."""
    path, _, mode = spec.partition("@")
    if mode not in ("", "sample", "best"):
        raise OptionError(f"policy:{spec}: the mode after @ is 'best' or 'sample'")
    policy = _LOADED.get(path)
    if policy is None:
        try:
            policy = _LOADED[path] = Policy.load(path)
        except (OSError, KeyError, ValueError) as exc:
            raise OptionError(f"cannot load the policy file {path!r}: {exc}") from None
    if policy.meta.get("game") != game.name:
        raise OptionError(f"{path} is a policy for {policy.meta.get('game')}, not {game.name}")
    import tabletown.rl  # noqa: F401  (installs the games' observations)

    return PolicyBot(policy, seed, sample=mode == "sample", name=f"policy:{spec}")


def register_policy(spec: str) -> str:
    """Make ``policy:SPEC`` a generic bot name in this process (until ``make_bot`` knows the prefix
    itself); returns the name."""
    from ..bots import GENERIC_BOTS

    name = f"policy:{spec}"
    GENERIC_BOTS[name] = lambda game, seed: policy_bot(game, spec, seed)
    return name


def random_policy(
    game: Game,
    num_players: int = 2,
    options: Mapping[str, Any] | None = None,
    hidden: int = 64,
    dim: int = 32,
    buckets: int = 4096,
    seed: int = 0,
) -> Policy:
    """An untrained policy of the right shapes (tests; a starting point for training)."""
    import tabletown.rl  # noqa: F401

    resolved = game.resolve_options(num_players, options)
    obs_size = game.observation_size(num_players, resolved)
    num_actions = len(game.action_space(num_players, resolved))
    rows = min(num_actions, buckets)
    rng = np.random.default_rng(seed)

    def init(*shape: int) -> np.ndarray:
        return (rng.standard_normal(shape) / np.sqrt(shape[-1])).astype(np.float32)

    arrays = {
        "W1": init(hidden, obs_size),
        "b1": np.zeros(hidden, np.float32),
        "W2": init(hidden, hidden),
        "b2": np.zeros(hidden, np.float32),
        "Wq": init(dim, hidden),
        "bq": np.zeros(dim, np.float32),
        "E": init(rows, dim),
        "bias": np.zeros(num_actions, np.float32),
    }
    meta = {
        "game": game.name,
        "num_players": num_players,
        "options": resolved,
        "obs_size": obs_size,
        "num_actions": num_actions,
        "buckets": buckets,
        "hidden": hidden,
        "dim": dim,
    }
    return Policy(arrays, meta)
