"""Fitting a game's win-chance model on positions of expert play.

    python -m tabletown.analysis.training GAME --players N [--games G] [--seed S] [--out FILE]
    python -m tabletown.analysis.training GAME --players N --calibrate --games G --seed S

**Positions.** Each game starts either with the expert at every seat or (``mixed`` share) with seats
drawn from random, greedy and expert bots for a random number of opening actions, so that the
model also meets the lopsided positions weak play makes (a post-game analysis rates random and
greedy games too). From the switch on every seat is the expert, and a few positions of the rest of
the game are kept: every seat's observation there, labelled with that seat's share of the win. So
the label is "what the expert makes of this position", not what the weak bots would have. A tenth
of the expert's moves (``explore``) are random legal ones, so that the positions after moves the
expert would not make are not strangers to the model: an analysis weighs every candidate move,
and a model that never saw the result of one would value it at random.

**Fit.** Inputs standardised; one hidden ReLU layer; a sigmoid output; cross-entropy against the
win share; Adam with weight decay; a tenth of the games held out (whole games, so positions of one
game never sit on both sides), the epoch with the best held-out loss kept. The fit is seeded and
single-threaded NumPy arithmetic, so the same command gives the same file on one machine.
"""

from __future__ import annotations

import argparse
import math
import random
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from ..bots import make_bot
from ..core.game import Action, Game, State
from ..core.registry import get_game
from ..core.rng import derive_seed
from ..core.session import Agent, bot_agents, play_out
from .model import WinModel, model_path, win_credit

OPENERS = ("random", "greedy", "expert")


@dataclass
class Positions:
    observations: np.ndarray  # (rows, observation_size) float32
    targets: np.ndarray  # (rows,) win shares
    games: np.ndarray  # (rows,) the game each row comes from (for a split by game)


def _agents(game: Game, names: Sequence[str], seed: int) -> list[Agent]:
    return bot_agents(
        [make_bot(game, name, derive_seed(seed, seat)) for seat, name in enumerate(names)], seed
    )


def _exploring(agent: Agent, rng: random.Random, share: float) -> Agent:
    """``agent``, but a ``share`` of its moves are random legal ones: the positions then include the
    results of moves the expert would not make, which an analysis must value when it weighs them."""

    def explorer(state: State, seat: int) -> Action:
        if rng.random() < share:
            return rng.choice(state.legal_actions(seat))
        return agent(state, seat)

    return explorer


def play_positions(
    game: Game,
    num_players: int,
    options: Mapping[str, Any] | None,
    index: int,
    seed: int,
    policy: str = "expert",
    mixed: float = 0.5,
    per_game: int = 6,
    opening_length: int = 60,
    explore: float = 0.1,
) -> tuple[list[np.ndarray], list[float]]:
    """One game's kept positions: observations of every seat and their win shares."""
    rng = random.Random(derive_seed(seed, "positions", index))
    state = game.new_game(num_players, options, derive_seed(seed, "game", index))
    if rng.random() < mixed:
        openers = [rng.choice(OPENERS) for _ in range(num_players)]
        play_out(
            state,
            _agents(game, openers, derive_seed(seed, "openers", index)),
            stop_after=rng.randrange(opening_length),
        )
    experts = _agents(game, [policy] * num_players, derive_seed(seed, "experts", index))
    if explore > 0:
        experts = [_exploring(agent, rng, explore) for agent in experts]
    snapshots: list[list[np.ndarray]] = []
    while state.to_act:
        play_out(state, experts, stop_after=1)
        if state.to_act:
            snapshots.append(
                [np.asarray(state.observation(seat), dtype=np.float32) for seat in range(num_players)]
            )
    result = state.result()
    assert result is not None
    rows: list[np.ndarray] = []
    targets: list[float] = []
    keep = rng.sample(range(len(snapshots)), min(per_game, len(snapshots)))
    for at in sorted(keep):
        for seat in range(num_players):
            rows.append(snapshots[at][seat])
            targets.append(win_credit(result, seat))
    return rows, targets


def collect(
    game: Game, num_players: int, options: Mapping[str, Any] | None, games: int, seed: int, **kwargs: Any
) -> Positions:
    rows: list[np.ndarray] = []
    targets: list[float] = []
    owners: list[int] = []
    if "opening_length" not in kwargs:
        # Openings end anywhere in the first 80% of a typical expert game (three pilot games).
        lengths = []
        for pilot in range(3):
            state = game.new_game(num_players, options, derive_seed(seed, "pilot", pilot))
            lengths.append(play_out(state, _agents(game, ["expert"] * num_players, pilot)))
        kwargs["opening_length"] = max(2, int(0.8 * sum(lengths) / len(lengths)))
    for index in range(games):
        kept, shares = play_positions(game, num_players, options, index, seed, **kwargs)
        rows.extend(kept)
        targets.extend(shares)
        owners.extend([index] * len(kept))
    return Positions(
        np.stack(rows), np.asarray(targets, dtype=np.float32), np.asarray(owners, dtype=np.int32)
    )


def log_loss(chances: np.ndarray, targets: np.ndarray) -> float:
    p = np.clip(chances, 1e-6, 1 - 1e-6)
    return float(-np.mean(targets * np.log(p) + (1 - targets) * np.log(1 - p)))


def fit(
    positions: Positions,
    hidden: int = 16,
    epochs: int = 40,
    seed: int = 0,
    decay: float = 1e-2,
    rate: float = 5e-4,
) -> tuple[dict[str, np.ndarray], dict[str, float]]:
    """Fit the network; returns its arrays and the held-out figures. The defaults are the best of a
    small grid on Machi Koro's and Multicity's positions (docs/analysis.md): a narrow layer and a
    strong weight decay, since a wider or freer network fits the training games within a few epochs
    and gets worse on held-out ones."""
    rng = np.random.default_rng(seed)
    games = np.unique(positions.games)
    held = set(rng.choice(games, size=max(1, len(games) // 10), replace=False).tolist())
    test = np.isin(positions.games, list(held))
    x, y = positions.observations, positions.targets
    mean = x[~test].mean(axis=0)
    spread = x[~test].std(axis=0)
    scale = np.where(spread > 1e-6, 1.0 / np.maximum(spread, 1e-6), 0.0).astype(np.float32)
    xs = ((x - mean) * scale).astype(np.float32)
    train_x, train_y, test_x, test_y = xs[~test], y[~test], xs[test], y[test]
    inputs = x.shape[1]
    params = {
        "w1": (rng.standard_normal((inputs, hidden)) * np.sqrt(2.0 / max(1, inputs))).astype(np.float32),
        "b1": np.zeros(hidden, np.float32),
        "w2": (rng.standard_normal((hidden, 1)) * np.sqrt(1.0 / hidden)).astype(np.float32),
        "b2": np.zeros(1, np.float32),
    }
    moments = {name: (np.zeros_like(v), np.zeros_like(v)) for name, v in params.items()}

    def forward(batch: np.ndarray, p: dict[str, np.ndarray]) -> tuple[np.ndarray, np.ndarray]:
        hidden_out = np.maximum(batch @ p["w1"] + p["b1"], 0.0)
        return hidden_out, 1.0 / (
            1.0 + np.exp(-np.clip((hidden_out @ p["w2"] + p["b2"]).reshape(-1), -40.0, 40.0))
        )

    best = (float("inf"), {k: v.copy() for k, v in params.items()}, 0)
    step = 0
    for epoch in range(epochs):
        order = rng.permutation(len(train_x))
        for start in range(0, len(order), 256):
            pick = order[start : start + 256]
            batch, target = train_x[pick], train_y[pick]
            hidden_out, chance = forward(batch, params)
            grad_out = ((chance - target) / len(pick)).astype(np.float32)[:, None]
            grads = {
                "w2": hidden_out.T @ grad_out,
                "b2": grad_out.sum(axis=0),
            }
            grad_hidden = (grad_out @ params["w2"].T) * (hidden_out > 0)
            grads["w1"] = batch.T @ grad_hidden
            grads["b1"] = grad_hidden.sum(axis=0)
            step += 1
            for name, value in params.items():
                m, v = moments[name]
                g = grads[name] + decay * value
                m *= 0.9
                m += 0.1 * g
                v *= 0.999
                v += 0.001 * g * g
                value -= rate * (m / (1 - 0.9**step)) / (np.sqrt(v / (1 - 0.999**step)) + 1e-8)
        loss = log_loss(forward(test_x, params)[1], test_y)
        if loss < best[0]:
            best = (loss, {k: v.copy() for k, v in params.items()}, epoch + 1)
    base = float(np.clip(train_y.mean(), 1e-6, 1 - 1e-6))
    figures = {
        "held_out_log_loss": round(best[0], 4),
        "held_out_base_log_loss": round(log_loss(np.full(len(test_y), base), test_y), 4),
        "best_epoch": best[2],
        "rows": len(x),
        "held_out_rows": int(test.sum()),
    }
    arrays = {"mean": mean.astype(np.float32), "scale": scale, **best[1]}
    return arrays, figures


def train(
    game_name: str,
    num_players: int,
    games: int,
    seed: int,
    out: str | None = None,
    positions_file: str | None = None,
    **kwargs: Any,
) -> WinModel:
    game = get_game(game_name)
    options = game.resolve_options(num_players, None)
    started = time.process_time()
    cached = Path(positions_file) if positions_file else None
    if cached is not None and cached.exists():
        with np.load(cached) as data:
            positions = Positions(data["observations"], data["targets"], data["games"])
            played = float(data["cpu_seconds"]) if "cpu_seconds" in data else float("nan")
    else:
        positions = collect(game, num_players, options, games, seed, **kwargs)
        played = time.process_time() - started
        if cached is not None:
            np.savez_compressed(
                cached,
                observations=positions.observations,
                targets=positions.targets,
                games=positions.games,
                cpu_seconds=np.array(played),
            )
    fitting = time.process_time()
    arrays, figures = fit(positions, seed=seed)
    meta = {
        "game": game.name,
        "players": num_players,
        "options": options,
        "games": games,
        "seed": seed,
        "policy": kwargs.get("policy", "expert"),
        **figures,
        "cpu_seconds_playing": round(played, 1),
        "cpu_seconds_fitting": round(time.process_time() - fitting, 1),
    }
    model = WinModel(arrays, meta)
    model.save(out or model_path(game, num_players))
    return model


def fit_temperature(logits: np.ndarray, targets: np.ndarray) -> float:
    """The T in (0.25, 8) for which sigmoid(logits / T) has the least log loss against the targets
    (a golden-section search over log T: the loss is smooth and has one minimum there)."""
    lo, hi = math.log(0.25), math.log(8.0)
    ratio = (math.sqrt(5.0) - 1.0) / 2.0

    def loss(log_t: float) -> float:
        return log_loss(1.0 / (1.0 + np.exp(-np.clip(logits / math.exp(log_t), -40.0, 40.0))), targets)

    a, b = hi - ratio * (hi - lo), lo + ratio * (hi - lo)
    fa, fb = loss(a), loss(b)
    for _ in range(60):
        if fa < fb:
            hi, b, fb = b, a, fa
            a = hi - ratio * (hi - lo)
            fa = loss(a)
        else:
            lo, a, fa = a, b, fb
            b = lo + ratio * (hi - lo)
            fb = loss(b)
    return math.exp((lo + hi) / 2.0)


def calibrate(game_name: str, num_players: int, games: int, seed: int, path: str | None = None) -> WinModel:
    """Fit a shipped model's temperature on positions of plain expert-against-expert games (no weak
    openings, no exploring moves: the games a calibration table is measured on) and save it into the
    model's metadata. The seed must differ from the training seed and from the seed the calibration
    is then measured on, or the figures flatter the model."""
    game = get_game(game_name)
    options = game.resolve_options(num_players, None)
    file = Path(path) if path else model_path(game, num_players)
    model = WinModel.load(file)
    positions = collect(game, num_players, options, games, seed, mixed=0.0, explore=0.0)
    logits = model.logits(positions.observations).astype(np.float64)
    targets = positions.targets.astype(np.float64)
    temperature = fit_temperature(logits, targets)
    before = log_loss(1.0 / (1.0 + np.exp(-np.clip(logits, -40.0, 40.0))), targets)
    after = log_loss(1.0 / (1.0 + np.exp(-np.clip(logits / temperature, -40.0, 40.0))), targets)
    model.meta["temperature"] = round(temperature, 4)
    model.meta["calibration"] = {
        "games": games,
        "seed": seed,
        "rows": len(targets),
        "log_loss_before": round(before, 4),
        "log_loss_after": round(after, 4),
    }
    model.save(file)
    return model


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description="Fit a game's win-chance model on expert play.")
    parser.add_argument("game")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=30)
    parser.add_argument("--per-game", type=int, default=6)
    parser.add_argument("--out", default=None, help="file (default: the game's package, where it ships)")
    parser.add_argument("--positions", default=None, help="keep the positions in this file (and reuse it)")
    parser.add_argument(
        "--calibrate",
        action="store_true",
        help="fit the temperature of the model at --out (default: the shipped one) on --games expert games",
    )
    args = parser.parse_args(argv)
    if args.calibrate:
        model = calibrate(args.game, args.players, args.games, args.seed, args.out)
        print({"temperature": model.meta["temperature"], **model.meta["calibration"]})
        return
    model = train(
        args.game, args.players, args.games, args.seed, args.out, args.positions, per_game=args.per_game
    )
    print({k: v for k, v in model.meta.items() if k != "options"})


if __name__ == "__main__":
    main()
