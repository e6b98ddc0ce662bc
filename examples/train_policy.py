"""Train a small policy for a Tabletown game on the CPU with PyTorch, save it, use it as a bot.

    pip install -e '.[train]'          # torch (the CPU build on this machine)
    python examples/train_policy.py multicity --minutes 5 --out policies/multicity.npz
    python examples/train_policy.py machikoro --minutes 5 --out policies/machikoro.npz

The learner plays one seat (a random seat each game) of ``tabletown.rl.gym.TabletownEnv`` against
Tabletown bots (``--opponent random`` by default; give several to mix them). The reward is +1 for a
win and -1 for a loss (docs/rl.md). Two methods, both saved as a NumPy ``.npz`` that the bot
``policy:FILE`` (``tabletown.rl.policy_bot``) plays without PyTorch:

* ``--method ppo`` (default): a policy network over the fixed action space (two tanh layers, legal
  actions scored against action embeddings), PPO (clipped policy gradient over the legal actions
  only, a value baseline, an entropy bonus). Uses only the environment's observation and mask.
* ``--method afterstate``: a value network over observations; the learner tries every legal move on
  a seat-safe copy of the game (``core.session.seat_state``, as bots get), values the position after
  each and plays the best (epsilon-greedy while training); the values are fitted to the final
  reward (Monte Carlo). Slower per move, but it learns placement games (Multicity) in minutes.
"""

from __future__ import annotations

import os

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")  # small matrices: BLAS threads only contend
os.environ.setdefault("OMP_NUM_THREADS", "1")

import argparse  # noqa: E402
import json  # noqa: E402
import time  # noqa: E402
from pathlib import Path  # noqa: E402

import numpy as np  # noqa: E402
import torch
from torch import nn

from tabletown.core.options import parse_option_pairs
from tabletown.core.session import seat_state
from tabletown.rl.gym import TabletownEnv
from tabletown.rl.policy_bot import (
    LAYERS,
    VALUE_LAYERS,
    Policy,
    PolicyBot,
    ValuePolicy,
    random_policy,
    random_value_policy,
)


class Net(nn.Module):
    """The policy of tabletown.rl.policy_bot in PyTorch, plus a value head for training."""

    def __init__(self, start: Policy) -> None:
        super().__init__()
        for name in LAYERS:
            setattr(self, name, nn.Parameter(torch.tensor(getattr(start, name))))
        hidden = start.W1.shape[0]
        self.value = nn.Linear(hidden, 1)
        self.meta = dict(start.meta)
        self.rows = torch.tensor(start.rows)

    def hidden(self, obs: torch.Tensor) -> torch.Tensor:
        h = torch.tanh(obs @ self.W1.T + self.b1)
        return torch.tanh(h @ self.W2.T + self.b2)

    def forward(self, obs, legal, segment, chosen):
        """Log-probabilities of the chosen actions, entropies and values for a batch of steps.

        ``legal`` holds every step's legal action numbers one after the other, ``segment`` the step
        each belongs to, ``chosen`` the place of the chosen action in ``legal``."""
        h = self.hidden(obs)
        q = h @ self.Wq.T + self.bq
        logits = (self.E[self.rows[legal]].sum(1) * q[segment]).sum(-1) + self.bias[legal]
        steps = obs.shape[0]
        top = torch.full((steps,), -1e30).scatter_reduce(0, segment, logits, "amax", include_self=True)
        shifted = logits - top[segment].detach()
        total = torch.zeros(steps).index_add(0, segment, shifted.exp())
        lse = total.log()
        logp_all = shifted - lse[segment]
        entropy = -torch.zeros(steps).index_add(0, segment, logp_all.exp() * logp_all)
        return logp_all[chosen], entropy, self.value(h).squeeze(-1)

    def export(self) -> Policy:
        arrays = {name: getattr(self, name).detach().numpy().copy() for name in LAYERS}
        return Policy(arrays, self.meta)


class ValueNet(nn.Module):
    """The afterstate value network of tabletown.rl.policy_bot in PyTorch."""

    def __init__(self, start: ValuePolicy) -> None:
        super().__init__()
        for name in VALUE_LAYERS:
            setattr(self, name, nn.Parameter(torch.tensor(getattr(start, name))))
        self.meta = dict(start.meta)

    def forward(self, obs: torch.Tensor) -> torch.Tensor:
        h = torch.tanh(obs @ self.W1.T + self.b1)
        h = torch.tanh(h @ self.W2.T + self.b2)
        return h @ self.w3 + self.b3

    def export(self) -> ValuePolicy:
        return ValuePolicy(
            {name: getattr(self, name).detach().numpy().copy() for name in VALUE_LAYERS}, self.meta
        )


def collect_afterstates(env: TabletownEnv, values: ValuePolicy, episodes: int, rng, epsilon: float):
    """Play ``episodes`` games choosing by afterstate value; returns (chosen afterstates, their
    final rewards) and the rewards."""
    rows, targets, rewards = [], [], []
    space = env.setup.actions
    for _ in range(episodes):
        env.reset(seed=int(rng.integers(2**62)))
        chosen, done, reward = [], False, 0.0
        while not done:
            seat = env.seat
            safe = seat_state(env.state, seat, int(rng.integers(2**62)))
            actions = safe.legal_actions(seat)
            after = values.afterstates(safe, seat, actions)
            if rng.random() < epsilon:
                pick = int(rng.integers(len(actions)))
            else:
                pick = int(np.argmax(values.values(after)))
            chosen.append(after[pick])
            _, reward, term, trunc, _ = env.step(space.index(actions[pick]))
            done = term or trunc
        rows += chosen
        targets += [reward] * len(chosen)
        rewards.append(reward)
    return rows, targets, rewards


def train_afterstate(args, envs, game, options, rng) -> ValuePolicy:
    net = ValueNet(random_value_policy(game, args.players, options, args.hidden, seed=args.seed))
    optimiser = torch.optim.Adam(net.parameters(), lr=args.lr)
    values = net.export()
    start, update, history = time.time(), 0, []
    while time.time() - start < args.minutes * 60:
        rows, targets, rewards = [], [], []
        epsilon = max(0.02, 0.2 * (1 - (time.time() - start) / (args.minutes * 60)))
        for env in envs:
            more, got, played = collect_afterstates(
                env, values, max(1, args.episodes // len(envs)), rng, epsilon
            )
            rows += more
            targets += got
            rewards += played
        obs = torch.tensor(np.stack(rows))
        target = torch.tensor(targets, dtype=torch.float32)
        for _ in range(args.epochs):
            for part in torch.randperm(len(obs)).split(256):
                loss = ((net(obs[part]) - target[part]) ** 2).mean()
                optimiser.zero_grad()
                loss.backward()
                optimiser.step()
        values = net.export()
        update += 1
        history.append(float(np.mean(rewards)))
        if update % 5 == 0:
            print(
                f"{time.time() - start:6.0f}s update {update:4d}  games {update * len(rewards):6d}  "
                f"mean reward (last 5) {np.mean(history[-5:]):+.3f}  epsilon {epsilon:.2f}",
                flush=True,
            )
    values.meta["trained"] = {
        "method": "afterstate",
        "updates": update,
        "seconds": round(time.time() - start),
    }
    return values


def sample_action(policy: Policy, obs, mask, rng):
    legal = np.flatnonzero(np.asarray(mask).view(np.bool_))
    p = policy.probabilities(obs, legal)
    pick = int(rng.choice(len(legal), p=p))
    return legal, pick, float(np.log(p[pick] + 1e-12))


def collect(env: TabletownEnv, policy: Policy, episodes: int, rng: np.random.Generator):
    """Play ``episodes`` games; returns the steps (obs, legal numbers, chosen place, log p, return)
    and the rewards."""
    steps, rewards = [], []
    for _ in range(episodes):
        obs, _ = env.reset(seed=int(rng.integers(2**62)))
        episode, done, reward = [], False, 0.0
        while not done:
            legal, pick, logp = sample_action(policy, obs["observation"], obs["action_mask"], rng)
            episode.append((obs["observation"], legal, pick, logp))
            obs, reward, term, trunc, _ = env.step(int(legal[pick]))
            done = term or trunc
        steps += [(*step, reward) for step in episode]
        rewards.append(reward)
    return steps, rewards


def batch_tensors(steps):
    obs = torch.tensor(np.stack([s[0] for s in steps]))
    sizes = [len(s[1]) for s in steps]
    legal = torch.tensor(np.concatenate([s[1] for s in steps]))
    segment = torch.repeat_interleave(torch.arange(len(steps)), torch.tensor(sizes))
    starts = np.concatenate([[0], np.cumsum(sizes)[:-1]])
    chosen = torch.tensor(starts + np.array([s[2] for s in steps]))
    old_logp = torch.tensor([s[3] for s in steps], dtype=torch.float32)
    returns = torch.tensor([s[4] for s in steps], dtype=torch.float32)
    return obs, legal, segment, chosen, old_logp, returns


def evaluate(game, players, options, policy, opponent: str, games: int, seed: int) -> float:
    """Share of games the bot ``policy:FILE`` (best move, seat-safe copies) wins (a shared first
    place counts its share)."""
    env = TabletownEnv(game, players, options, opponents=opponent, seat=None, seed=seed)
    bot = PolicyBot(policy, seed)
    space = env.setup.actions
    rng = np.random.default_rng(seed)
    wins = 0.0
    for _ in range(games):
        obs, info = env.reset()
        done = False
        while not done:
            move = bot.choose(seat_state(env.state, env.seat, int(rng.integers(2**62))), env.seat)
            obs, reward, term, trunc, info = env.step(space.index(move))
            done = term or trunc
        ranks = info.get("ranks")
        if ranks and ranks[info["seat"]] == 1:
            wins += 1.0 / ranks.count(1)
    return wins / games


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("game")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--option", action="append", default=[], help="KEY=VALUE")
    parser.add_argument("--opponent", action="append", help="bot name(s) to train against (default random)")
    parser.add_argument("--method", choices=("ppo", "afterstate"), default="ppo")
    parser.add_argument("--minutes", type=float, default=5.0)
    parser.add_argument("--episodes", type=int, default=32, help="games per update")
    parser.add_argument("--epochs", type=int, default=4, help="PPO passes over each batch")
    parser.add_argument("--lr", type=float, default=2e-3)
    parser.add_argument("--entropy", type=float, default=0.01)
    parser.add_argument("--hidden", type=int, default=64)
    parser.add_argument("--dim", type=int, default=32)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--eval-games", type=int, default=100)
    parser.add_argument("--out", type=Path, required=True)
    args = parser.parse_args()
    torch.manual_seed(args.seed)
    torch.set_num_threads(1)
    rng = np.random.default_rng(args.seed)
    options = parse_option_pairs(args.option) if args.option else {}
    opponents = args.opponent or ["random"]
    envs = [
        TabletownEnv(args.game, args.players, options, opponents=name, seat=None, seed=args.seed + i)
        for i, name in enumerate(opponents)
    ]
    game = envs[0].setup.game
    if args.method == "afterstate":
        finish(args, options, opponents, train_afterstate(args, envs, game, options, rng))
        return
    net = Net(random_policy(game, args.players, options, args.hidden, args.dim, seed=args.seed))
    optimiser = torch.optim.Adam(net.parameters(), lr=args.lr)
    policy = net.export()
    start, update, history = time.time(), 0, []
    while time.time() - start < args.minutes * 60:
        steps, rewards = [], []
        for env in envs:
            more, got = collect(env, policy, max(1, args.episodes // len(envs)), rng)
            steps += more
            rewards += got
        obs, legal, segment, chosen, old_logp, returns = batch_tensors(steps)
        for _ in range(args.epochs):
            logp, entropy, value = net(obs, legal, segment, chosen)
            advantage = (returns - value).detach()
            advantage = (advantage - advantage.mean()) / (advantage.std() + 1e-6)
            ratio = (logp - old_logp).exp()
            clipped = torch.clamp(ratio, 0.8, 1.2)
            loss = (
                -torch.min(ratio * advantage, clipped * advantage).mean()
                + 0.5 * ((value - returns) ** 2).mean()
                - args.entropy * entropy.mean()
            )
            optimiser.zero_grad()
            loss.backward()
            nn.utils.clip_grad_norm_(net.parameters(), 1.0)
            optimiser.step()
        policy = net.export()
        update += 1
        mean = float(np.mean(rewards))
        history.append(mean)
        if update % 5 == 0:
            print(
                f"{time.time() - start:6.0f}s update {update:4d}  games {update * len(rewards):6d}  "
                f"mean reward (last 5) {np.mean(history[-5:]):+.3f}",
                flush=True,
            )
    policy.meta["trained"] = {"method": "ppo", "updates": update, "seconds": round(time.time() - start)}
    finish(args, options, opponents, policy)


def finish(args, options, opponents, policy) -> None:
    """Save the policy file and measure it against its opponents and random."""
    args.out.parent.mkdir(parents=True, exist_ok=True)
    policy.meta["trained"].update({"opponents": opponents, "seed": args.seed})
    policy.save(args.out)
    print(f"saved {args.out}")
    for name in dict.fromkeys([*opponents, "random"]):
        share = evaluate(args.game, args.players, options, policy, name, args.eval_games, args.seed + 999)
        print(f"win share against bot:{name} over {args.eval_games} games: {share:.2f}")
    print(json.dumps(policy.meta["trained"]))


if __name__ == "__main__":
    main()
