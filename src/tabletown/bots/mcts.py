"""A search bot for every game: information-set Monte Carlo tree search with determinization.

The bot sees only what its seat may know. Each iteration it asks the state for a *determinization*
(``state.determinize(me, seed)``: deck orders, other seats' hidden choices and future dice resampled
consistently with ``view(me)``), then walks one shared tree (SO-ISMCTS, Cowling, Powley & Whitehouse
2012) keyed by the actions of whoever acts:

* selection uses UCB1 with *availability* counts instead of parent visits, because an action may be
  legal in one determinization and not in another;
* every seat maximises its own reward (max^n), so opponents in the tree play for themselves;
* a simultaneous round is searched as if its seats chose one after another, the bot first: its own
  nodes never depend on choices it cannot see (the determinization has already resampled the choices
  made before the search started);
* chance is resampled with the RNG every iteration, so the tree is open-loop over dice and shuffles;
* rollouts play random (or the game's greedy or expert bot's) actions up to a cap; a finished game scores each
  seat by its rank, an unfinished one by ``state.heuristic()`` when the state offers it (a list of
  per-seat values in [0, 1]), otherwise as a draw.

Strengths are iteration budgets so that a seeded game replays identically on any machine; each also has
a time cap as a safety valve (a decision that hits it is counted in ``bot.capped``, and is the only
way a seeded game can come out differently).
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, replace

from ..core.game import Action, Bot, Game, Result, State
from ..core.session import play_out, random_agent
from . import GENERIC_BOTS


@dataclass(frozen=True, slots=True)
class SearchConfig:
    """How hard the bot thinks. ``rollout`` is ``random`` or ``policy``: with ``policy`` the game's bot
    named ``policy`` (from ``Game.bots()``, e.g. ``greedy`` or ``expert``), when the game has it, plays
    ``policy_share`` of rollout moves and random moves fill the rest. ``anchor`` uses the bot named
    ``anchor_policy`` (by default the same one), so a slow but strong bot can anchor while a fast one
    plays the rollouts."""

    iterations: int
    max_seconds: float
    exploration: float = 0.7
    rollout: str = "random"
    policy: str = "greedy"
    policy_share: float = 0.5
    rollout_cap: int = 400
    # "tree": ISMCTS as described above. "halving": a flat search at the root by sequential halving,
    # where every candidate is played out from the same determinizations (common random numbers:
    # same hidden cards, same future dice), which cancels most of the luck that swamps small
    # differences between moves in long dice games.
    root: str = "tree"
    anchor: bool = False
    anchor_policy: str | None = None


PRESETS: dict[str, SearchConfig] = {
    "easy": SearchConfig(iterations=60, max_seconds=0.5),
    "medium": SearchConfig(iterations=300, max_seconds=1.0),
    "hard": SearchConfig(iterations=1200, max_seconds=1.8),
}


class Node:
    """A tree node: the position after ``seat`` played the edge into it. ``total`` sums ``seat``'s rewards."""

    __slots__ = ("children", "visits", "total", "avail", "seat")

    def __init__(self, seat: int) -> None:
        self.children: dict[Action, Node] = {}
        self.visits = 0
        self.total = 0.0
        self.avail = 1
        self.seat = seat


def rank_rewards(result: Result) -> list[float]:
    """1 for beating everyone, 0 for losing to everyone; a tie counts half a win against each tied seat."""
    ranks = result.ranks
    n = len(ranks)
    if n < 2:
        return [1.0] * n
    out = []
    for mine in ranks:
        beaten = sum(1 for other in ranks if other > mine)
        tied = sum(1 for other in ranks if other == mine) - 1
        out.append((beaten + 0.5 * tied) / (n - 1))
    return out


def heuristic_rewards(values: Sequence[float]) -> list[float]:
    """Map per-seat progress values in [0, 1] to rewards: half plus half the lead over the best rival."""
    out = []
    for seat, mine in enumerate(values):
        best_other = max((v for s, v in enumerate(values) if s != seat), default=0.0)
        out.append(min(1.0, max(0.0, 0.5 + 0.5 * (mine - best_other))))
    return out


class MCTSBot(Bot):
    """ISMCTS over the engine contract; see the module docstring."""

    # Alike by shape to SearchBot.__init__ (bots/search.py) on purpose: each bot keeps its own
    # settings type and its own policy cache; no shared base would say more than these lines do.
    def __init__(
        self, game: Game, seed: int = 0, config: SearchConfig | None = None, name: str = "mcts"
    ) -> None:
        super().__init__(seed)
        self.game = game
        self.config = config or PRESETS["medium"]
        self.name = name
        self.capped = 0
        self.last_iterations = 0
        if self.config.rollout not in ("random", "policy"):
            raise ValueError(f"rollout must be 'random' or 'policy', not {self.config.rollout!r}")
        self._policy: dict[int, Bot] = {}
        self._policy_factory: Callable[[int], Bot] | None = None
        if self.config.rollout == "policy" or self.config.anchor:
            self._policy_factory = game.bots().get(self.config.policy)
        self._anchor_bot: Bot | None = None
        if self.config.anchor:
            factory = game.bots().get(self.config.anchor_policy or self.config.policy)
            self._anchor_bot = factory(self.rng.getrandbits(63)) if factory else None

    def settings(self) -> dict[str, object]:
        """The search settings, recorded by the arena so a resumed job keeps the same bot."""
        return asdict(self.config)

    # -- the decision ---------------------------------------------------------------------------------
    def choose(self, state: State, player: int) -> Action:
        legal = state.legal_actions(player)
        if len(legal) == 1:
            return legal[0]
        if self.config.root == "halving":
            return self.halving(state, player, legal)
        root = self.search(state, player)
        allowed = set(legal)
        best = max(
            (item for item in root.children.items() if item[0] in allowed),
            key=lambda item: (item[1].visits, item[1].total),
            default=None,
        )
        return best[0] if best is not None else self.rng.choice(legal)

    def search(self, state: State, player: int) -> Node:
        """Run the iterations from ``state`` as ``player`` sees it; returns the root of the tree."""
        config = self.config
        root = Node(player)
        deadline = time.perf_counter() + config.max_seconds
        rng = self.rng
        done = 0
        for done in range(1, config.iterations + 1):
            sample = state.determinize(player, rng.getrandbits(63))
            self._iterate(root, sample, player)
            if done % 8 == 0 and time.perf_counter() > deadline:
                if done < config.iterations:
                    self.capped += 1
                break
        self.last_iterations = done
        return root

    def halving(self, state: State, player: int, legal: list[Action]) -> Action:
        """Sequential halving over ``legal`` with paired samples; ``iterations`` counts rollouts.

        With ``anchor`` the policy bot's choice (the game's greedy or expert bot) is never dropped, and
        the bot leaves it only for a move that beats it by two standard errors of the paired
        differences: search then refines that player instead of replacing it with noise.
        """
        config = self.config
        deadline = time.perf_counter() + config.max_seconds
        candidates = list(legal)
        rewards: dict[Action, list[float]] = {action: [] for action in candidates}
        anchor = None
        if self._anchor_bot is not None:
            anchor = self._anchor_bot.choose(state, player)
        rounds = max(1, math.ceil(math.log2(len(candidates))))
        spent = 0
        for _ in range(rounds):
            per_candidate = max(1, config.iterations // (rounds * len(candidates)))
            for _ in range(per_candidate):
                seed = self.rng.getrandbits(63)
                base = state.determinize(player, seed)
                for action in candidates:
                    sample = base.clone()
                    sample.apply(player, action)
                    rewards[action].append(self._rollout(sample, random.Random(seed))[player])
                    spent += 1
                    if time.perf_counter() > deadline:
                        break
                if time.perf_counter() > deadline:
                    break
            if time.perf_counter() > deadline:
                self.capped += 1
                break
            if len(candidates) > 1:
                # Survivors share their samples (paired), so means compare like with like.
                candidates.sort(key=lambda a: sample_mean(rewards[a]), reverse=True)
                keep = candidates[: max(1, (len(candidates) + 1) // 2)]
                if anchor is not None and anchor not in keep:
                    keep.append(anchor)
                candidates = keep
        self.last_iterations = spent
        best = max(candidates, key=lambda a: sample_mean(rewards[a]))
        if anchor is None or best == anchor or not clearly_better(rewards[best], rewards[anchor]):
            return anchor if anchor is not None else best
        return best

    # -- one iteration --------------------------------------------------------------------------------
    def _iterate(self, root: Node, state: State, me: int) -> None:
        path = [root]
        node = root
        c = self.config.exploration
        rng = self.rng
        while True:
            acting = state.to_act
            if not acting:
                break
            # In a simultaneous round the bot always decides first, so its own nodes never depend on
            # choices it could not see; the other waiting seats follow, lowest first.
            seat = me if me in acting else acting[0]
            legal = state.legal_actions(seat)
            children = node.children
            untried = []
            for action in legal:
                child = children.get(action)
                if child is None:
                    untried.append(action)
                else:
                    child.avail += 1
            if untried:
                action = untried[0] if len(untried) == 1 else rng.choice(untried)
                child = Node(seat)
                children[action] = child
                state.apply(seat, action)
                path.append(child)
                break
            action, child = self._select(children, legal, c)
            state.apply(seat, action)
            path.append(child)
            node = child
        rewards = self._rollout(state)
        for visited in path[1:]:
            visited.visits += 1
            visited.total += rewards[visited.seat]

    @staticmethod
    def _select(children: dict[Action, Node], legal: list[Action], c: float) -> tuple[Action, Node]:
        best_score = -1.0
        best: tuple[Action, Node] | None = None
        for action in legal:
            child = children[action]
            visits = child.visits or 1
            score = child.total / visits + c * math.sqrt(math.log(child.avail) / visits)
            if score > best_score:
                best_score = score
                best = (action, child)
        assert best is not None
        return best

    def _rollout(self, state: State, rng: random.Random | None = None) -> list[float]:
        rng = rng or self.rng
        choice = rng.choice
        random_draw = rng.random
        share = self.config.policy_share if self.config.rollout == "policy" and self._policy_factory else 0.0

        # Playout policies act on this search's own determinized sample, which holds only what the
        # searching seat may know (docs/engine.md, "Bots see only their seat").
        def playout_agent(sample: State, seat: int) -> Action:
            if share and random_draw() < share:
                return self._policy_bot(seat).choose(sample, seat)
            return choice(sample.legal_actions(seat))

        # Pure random rollouts use the driver's random agent, whose draws it writes out (the same draws).
        agent = playout_agent if share else random_agent(rng)
        play_out(state, [agent] * state.num_players, stop_after=self.config.rollout_cap)
        result = state.result()
        if result is not None:
            return rank_rewards(result)
        values = state.heuristic()
        if values is not None:
            return heuristic_rewards(values)
        return [0.5] * state.num_players

    def _policy_bot(self, seat: int) -> Bot:
        bot = self._policy.get(seat)
        if bot is None:
            assert self._policy_factory is not None
            bot = self._policy[seat] = self._policy_factory(self.rng.getrandbits(63))
        return bot


def sample_mean(values: list[float]) -> float:
    """The mean of a candidate's samples, -1 before it has any (SearchBot ranks with it too)."""
    return sum(values) / len(values) if values else -1.0


def clearly_better(challenger: list[float], incumbent: list[float], margin: float = 2.0) -> bool:
    """Paired samples: is the mean difference more than ``margin`` standard errors above zero?
    (SearchBot's final test too, with its own margin.)"""
    n = min(len(challenger), len(incumbent))
    if n < 4:
        return False
    diffs = [a - b for a, b in zip(challenger[:n], incumbent[:n], strict=True)]
    mean = sum(diffs) / n
    if mean <= 0:
        return False
    variance = sum((d - mean) ** 2 for d in diffs) / (n - 1)
    return mean > margin * math.sqrt(variance / n)


def config_for(game: Game, strength: str) -> SearchConfig:
    """The preset ``strength`` with this game's tuning (``Game.search_tuning``) applied."""
    config = PRESETS[strength]
    tuning = game.search_tuning.get(strength)
    return replace(config, **tuning) if tuning else config


def make_mcts(strength: str) -> Callable[[Game, int], Bot]:
    def factory(game: Game, seed: int) -> Bot:
        return MCTSBot(game, seed, config_for(game, strength), name=f"mcts:{strength}")

    return factory


for _strength in PRESETS:
    GENERIC_BOTS[f"mcts:{_strength}"] = make_mcts(_strength)
