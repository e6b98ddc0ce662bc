"""A trained policy as a Tabletown bot: ``policy:FILE`` (see docs/rl.md).

A policy file is a NumPy ``.npz`` written by ``examples/train_policy.py`` (or anything that writes
the same arrays), so playing a trained policy needs neither PyTorch nor a GPU. The network reads
``state.observation(seat)`` and scores every legal action of the game's fixed action space:

    h      = tanh(W2 @ tanh(W1 @ obs + b1) + b2)          (hidden layers)
    q      = Wq @ h + bq                                  (a query of ``dim`` numbers)
    logit a = q . sum(E[rows(a)]) + bias[a]               (legal actions only)

``E[rows(a)]`` sums one embedding row per level of ``levels`` (for example 64, 512 and 4096):
at a level of ``B`` rows, action ``a`` uses row ``a * B // len(space)``, or ``a`` itself when the
space has at most ``B`` actions. The fixed order of an action space keeps neighbouring numbers
alike (the same kind of move, nearby coordinates), so the coarse levels generalise across the
hundreds of thousands of Multicity placements while the fine ones and the per-action bias tell
them apart. The bot plays the highest-scoring legal
action (``policy:FILE``), or samples from the policy's distribution with ``policy:FILE@sample``.

A second kind of file (``meta["kind"] == "afterstate"``) holds a value network instead,
``v = w3 . tanh(W2 @ tanh(W1 @ obs + b1) + b2) + b3``: the bot tries each legal move on its own
copy of the game (the seat-safe copy drivers hand it), reads ``observation(seat)`` of the position
after it and plays the move whose position it values most (TD-Gammon's afterstates). That learns
placement games such as Multicity, whose best move depends on what it opens for whom, far faster.

Arrays: ``W1 b1 W2 b2 Wq bq E bias`` (``W1 b1 W2 b2 w3 b3`` for an afterstate file) and ``meta`` (a JSON string: game, num_players, options,
obs_size, num_actions, levels).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

import numpy as np

from ..bots import GENERIC_BOTS, PREFIX_BOTS
from ..core.errors import OptionError
from ..core.game import Action, Bot, Game, State

LAYERS = ("W1", "b1", "W2", "b2", "Wq", "bq", "E", "bias")
VALUE_LAYERS = ("W1", "b1", "W2", "b2", "w3", "b3")


DEFAULT_LEVELS = (64, 512, 4096)


def embedding_rows(num_actions: int, levels: tuple[int, ...]) -> np.ndarray:
    """For every action number, its row in ``E`` at each level: an (actions, levels) array."""
    numbers = np.arange(num_actions, dtype=np.int64)
    columns, base = [], 0
    for size in levels:
        rows = min(num_actions, size)
        columns.append(base + (numbers if num_actions <= size else numbers * size // num_actions))
        base += rows
    return np.stack(columns, axis=1)


def embedding_size(num_actions: int, levels: tuple[int, ...]) -> int:
    return sum(min(num_actions, size) for size in levels)


class _FileMeta:
    """What both kinds of policy file share: their meta, their arrays (``layers``) and sizes."""

    layers: tuple[str, ...] = ()
    meta: dict[str, Any]
    num_actions: int
    obs_size: int

    def _take(self, arrays: Mapping[str, np.ndarray], meta: Mapping[str, Any]) -> None:
        self.meta = dict(meta)
        for name in self.layers:
            setattr(self, name, np.asarray(arrays[name], dtype=np.float32))
        self.num_actions = int(meta["num_actions"])
        self.obs_size = int(meta["obs_size"])

    def save(self, path: str | Path) -> None:
        np.savez_compressed(
            Path(path), meta=json.dumps(self.meta), **{name: getattr(self, name) for name in self.layers}
        )

    def fits(self, game: Game, num_players: int, options: Mapping[str, Any]) -> bool:
        """Whether this file was trained for ``game`` with this set-up's action space and
        observation (same player count, same sizes)."""
        return (
            self.meta.get("game") == game.name
            and int(self.meta.get("num_players", num_players)) == num_players
            and len(game.action_space(num_players, options)) == self.num_actions
            and game.observation_size(num_players, options) == self.obs_size
        )


class Policy(_FileMeta):
    """The network of a policy file, evaluated with NumPy."""

    layers = LAYERS

    # the arrays (LAYERS), float32
    W1: np.ndarray
    b1: np.ndarray
    W2: np.ndarray
    b2: np.ndarray
    Wq: np.ndarray
    bq: np.ndarray
    E: np.ndarray
    bias: np.ndarray

    def __init__(self, arrays: Mapping[str, np.ndarray], meta: Mapping[str, Any]) -> None:
        self._take(arrays, meta)
        self.rows = embedding_rows(self.num_actions, tuple(meta["levels"]))
        rows = embedding_size(self.num_actions, tuple(meta["levels"]))
        if self.W1.shape[1] != self.obs_size or self.bias.shape != (self.num_actions,) or len(self.E) != rows:
            raise ValueError("the policy's arrays do not fit its observation and action sizes")

    kind = "policy"

    @classmethod
    def load(cls, path: str | Path) -> Policy | ValuePolicy:
        """Either kind of policy file (``meta["kind"]``: ``policy``, the default, or ``afterstate``)."""
        with np.load(Path(path), allow_pickle=False) as data:
            meta = json.loads(str(data["meta"]))
            if meta.get("kind") == "afterstate":
                return ValuePolicy({name: data[name] for name in VALUE_LAYERS}, meta)
            return cls({name: data[name] for name in LAYERS}, meta)

    def query(self, obs: np.ndarray) -> np.ndarray:
        h = np.tanh(self.W1 @ obs + self.b1)
        h = np.tanh(self.W2 @ h + self.b2)
        q: np.ndarray = self.Wq @ h + self.bq
        return q

    def logits(self, obs: np.ndarray, legal: np.ndarray) -> np.ndarray:
        """Scores of the legal action numbers ``legal`` (in that order)."""
        q = self.query(np.asarray(obs, dtype=np.float32))
        scores: np.ndarray = self.E[self.rows[legal]].sum(axis=1) @ q + self.bias[legal]
        return scores

    def probabilities(self, obs: np.ndarray, legal: np.ndarray) -> np.ndarray:
        z = self.logits(obs, legal)
        z = np.exp(z - z.max())
        p: np.ndarray = z / z.sum()
        return p


class ValuePolicy(_FileMeta):
    """An afterstate value network: how good a position looks to the seat whose observation it is."""

    # the arrays (VALUE_LAYERS), float32
    W1: np.ndarray
    b1: np.ndarray
    W2: np.ndarray
    b2: np.ndarray
    w3: np.ndarray
    b3: np.ndarray

    kind = "afterstate"
    layers = VALUE_LAYERS

    def __init__(self, arrays: Mapping[str, np.ndarray], meta: Mapping[str, Any]) -> None:
        self._take(arrays, meta)
        if self.W1.shape[1] != self.obs_size:
            raise ValueError("the value network does not fit its observation size")

    def values(self, observations: np.ndarray) -> np.ndarray:
        """Values of a batch of observations (one per row)."""
        h = np.tanh(observations @ self.W1.T + self.b1)
        h = np.tanh(h @ self.W2.T + self.b2)
        v: np.ndarray = h @ self.w3 + self.b3
        return v

    def afterstates(self, state: State, player: int, actions: list[Action]) -> np.ndarray:
        """The seat's observation after each action, tried on clones of ``state`` (one row each)."""
        rows = []
        for action in actions:
            twin = state.clone()
            twin.apply(player, action)
            rows.append(twin.observation(player))
        return np.asarray(rows, dtype=np.float32)


class PolicyBot(Bot):
    """Plays a policy file: the best legal action, or a sample when ``sample`` is set. It reads only
    ``state.observation(seat)`` and the legal moves of the seat-safe copy it is handed."""

    def __init__(
        self, policy: Policy | ValuePolicy, seed: int = 0, sample: bool = False, name: str = "policy"
    ) -> None:
        super().__init__(seed)
        self.policy = policy
        self.sample = sample
        self.name = name
        self._draws = np.random.default_rng(seed)
        self._checked: Any = None

    def choose(self, state: State, player: int) -> Action:
        game = state.game
        space = game.action_space(state.num_players, state.options)
        if self._checked is not space:  # once per set-up (spaces are cached per set-up)
            if not self.policy.fits(game, state.num_players, state.options):
                raise OptionError(
                    "{bot} was trained for another set-up ({count} players, {actions} actions, "
                    "{numbers} observation numbers)",
                    bot=self.name,
                    count=self.policy.meta.get("num_players"),
                    actions=self.policy.num_actions,
                    numbers=self.policy.obs_size,
                )
            self._checked = space
        policy = self.policy
        if isinstance(policy, ValuePolicy):  # kind "afterstate"
            actions = state.legal_actions(player)
            values = policy.values(policy.afterstates(state, player, actions))
            if self.sample:
                z = np.exp((values - values.max()) * 10.0)
                return actions[int(self._draws.choice(len(actions), p=z / z.sum()))]
            return actions[int(np.argmax(values))]
        legal = np.flatnonzero(np.frombuffer(bytes(state.legal_mask(player)), dtype=np.bool_))
        obs = np.asarray(state.observation(player), dtype=np.float32)
        if self.sample:
            pick = self._draws.choice(len(legal), p=policy.probabilities(obs, legal))
        else:
            pick = int(np.argmax(policy.logits(obs, legal)))
        return space[int(legal[pick])]


_LOADED: dict[str, Policy | ValuePolicy] = {}


def policy_bot(game: Game, spec: str, seed: int) -> PolicyBot:
    """The bot for ``policy:FILE`` (``spec`` is ``FILE`` or ``FILE@sample``) in ``game``."""
    path, _, mode = spec.partition("@")
    if mode not in ("", "sample", "best"):
        raise OptionError("policy:{spec}: the mode after @ is 'best' or 'sample'", spec=spec)
    policy = _LOADED.get(path)
    if policy is None:
        try:
            policy = _LOADED[path] = Policy.load(path)
        except (OSError, KeyError, ValueError) as exc:
            raise OptionError(
                "cannot load the policy file {path!r}: {problem}", path=path, problem=exc
            ) from None
    if policy.meta.get("game") != game.name:
        raise OptionError(
            "{path} is a policy for {other}, not {game}",
            path=path,
            other=policy.meta.get("game"),
            game=game.name,
        )
    import tabletown.rl  # noqa: F401  (installs the games' observations)

    return PolicyBot(policy, seed, sample=mode == "sample", name=f"policy:{spec}")


def register_policy(spec: str) -> str:
    """Make ``policy:SPEC`` a generic bot name in this process (until ``make_bot`` knows the prefix
    itself); returns the name."""
    name = f"policy:{spec}"
    GENERIC_BOTS[name] = lambda game, seed: policy_bot(game, spec, seed)
    return name


def _untrained_trunk(
    obs_size: int, hidden: int, seed: int
) -> tuple[dict[str, np.ndarray], Callable[..., np.ndarray]]:
    """The two hidden layers both untrained networks start from (random_value_policy, random_policy),
    and the initializer (scaled normal, the same generator) for the heads each adds after them."""
    rng = np.random.default_rng(seed)

    def init(*shape: int) -> np.ndarray:
        a: np.ndarray = (rng.standard_normal(shape) / np.sqrt(shape[-1])).astype(np.float32)
        return a

    arrays = {
        "W1": init(hidden, obs_size),
        "b1": np.zeros(hidden, np.float32),
        "W2": init(hidden, hidden),
        "b2": np.zeros(hidden, np.float32),
    }
    return arrays, init


def random_value_policy(
    game: Game,
    num_players: int = 2,
    options: Mapping[str, Any] | None = None,
    hidden: int = 64,
    seed: int = 0,
) -> ValuePolicy:
    """An untrained afterstate value network of the right shapes."""
    # The same leading parameters and set-up as random_policy (below) on purpose: each kind of
    # network its own maker; what they share is in _untrained_trunk.
    import tabletown.rl  # noqa: F401

    resolved = game.resolve_options(num_players, options)
    obs_size = game.observation_size(num_players, resolved)
    arrays, init = _untrained_trunk(obs_size, hidden, seed)
    arrays.update({"w3": init(hidden) * 0.1, "b3": np.zeros((), np.float32)})
    meta = {
        "kind": "afterstate",
        "game": game.name,
        "num_players": num_players,
        "options": resolved,
        "obs_size": obs_size,
        "num_actions": len(game.action_space(num_players, resolved)),
        "hidden": hidden,
    }
    return ValuePolicy(arrays, meta)


def random_policy(
    game: Game,
    num_players: int = 2,
    options: Mapping[str, Any] | None = None,
    hidden: int = 64,
    dim: int = 32,
    levels: tuple[int, ...] = DEFAULT_LEVELS,
    seed: int = 0,
) -> Policy:
    """An untrained policy of the right shapes (tests; a starting point for training)."""
    # The same leading parameters and set-up as random_value_policy (above) on purpose: see there.
    import tabletown.rl  # noqa: F401

    resolved = game.resolve_options(num_players, options)
    obs_size = game.observation_size(num_players, resolved)
    num_actions = len(game.action_space(num_players, resolved))
    rows = embedding_size(num_actions, levels)
    arrays, init = _untrained_trunk(obs_size, hidden, seed)
    arrays |= {
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
        "levels": list(levels),
        "hidden": hidden,
        "dim": dim,
    }
    return Policy(arrays, meta)


# make_bot(game, "policy:FILE", seed) reaches this module through the bots' prefix table.
PREFIX_BOTS["policy:"] = policy_bot
