"""``bot:search``: a flat information-set search on top of each game's expert (issue 29).

For each candidate move the bot plays the same set of samples: a sample is a determinization of what
its seat may know (``state.determinize(me, seed)``, docs/engine.md) plus a seed for the dice and
shuffles to come. Every candidate is played out from the *same* samples (common random numbers), so the
luck that swamps small differences between moves in dice games cancels in the paired comparison.

* **Which decisions.** A game's search model may name the decisions worth searching
  (``searched(state, seat)``, with ``focus``); the others take the anchor's move at once.
* **Candidates.** Every legal move, or, when there are more than ``top_k``, the expert's and greedy's
  moves plus the best of the rest by the search model's ``rank(state, seat, legal)`` (with
  ``model_rank``), else by the one-step ``state.heuristic()`` value for the bot's seat (a cheap prior;
  a game without either keeps a seeded random subset).
* **Rollouts.** The game's bot named ``policy`` (``expert`` or ``greedy``) plays every seat for
  ``cutoff`` actions (to the end when the game has no ``heuristic()``); a finished game scores by rank,
  an unfinished one by the search model's ``value(state, seat)`` if it has one, else by the game's
  ``heuristic()`` (as in ``tabletown.bots.mcts``).
* **Explicit chance.** When a game's search model (``tabletown.games.<name>.search_model``) has
  ``outcomes(state, seat, action)``, a candidate that is itself a chance move (a roll) is not sampled:
  the evaluation branches into every outcome, each played on with the same later random stream, and
  the value is the probability-weighted mean (``chance="first"`` also branches at the first chance move
  of every rollout, at many times the cost). Machi Koro has one: 6 faces for one die, and for two dice
  the 15 classes of (sum, doubles) that its rules can tell apart. Every other random draw after the
  candidate comes from a stream seeded by the sample alone, the same for every candidate.
* **Spending.** Sequential halving over the candidates (new shared samples each round, the worse half
  dropped), with the expert's move as an *anchor*: it is never dropped, and the bot leaves it only for
  a move whose paired advantage exceeds ``margin`` standard errors. With ``verify`` that share of the
  rollouts is kept for a final test on fresh samples, halving winner against anchor, and only those
  samples decide (a decision capped before the test keeps the anchor).

Budgets are counted in samples so a seeded game replays identically; ``max_seconds`` caps a decision
(a capped decision is counted in ``bot.capped`` and is the only way a seeded game can differ).
"""

from __future__ import annotations

import importlib
import itertools
import math
import multiprocessing
import os
import pickle
import time
from collections.abc import Callable, Iterable
from concurrent.futures import ProcessPoolExecutor
from dataclasses import asdict, dataclass, replace
from typing import TYPE_CHECKING, Any

import numpy as np

from ..core.game import Action, Bot, Game, Result, State
from ..core.rng import SeededRNG, derive_seed
from ..core.session import play_out, random_agent
from . import GENERIC_BOTS
from .mcts import clearly_better, heuristic_rewards, rank_rewards, sample_mean

if TYPE_CHECKING:
    from ..core.winmodel import WinModel

# A game's chance model: (state, seat, action) -> [(probability, force)] when ``action`` draws chance
# that can be enumerated, else None; ``force(state, seat, action, rest_rng)`` applies the action with
# that outcome and leaves ``rest_rng`` as the state's generator.
ChanceModel = Callable[[State, int, Action], "list[tuple[float, Any]] | None"]


@dataclass(frozen=True, slots=True)
class SearchSettings:
    rollouts: int  # rollouts in the whole decision (a branched evaluation counts one per outcome)
    max_seconds: float
    # The game bot that plays every seat in rollouts ("random" for random play, or a play-out policy
    # named in the game's search model's ``PLAYOUTS``).
    policy: str = "greedy"
    cutoff: int = 30  # rollout actions before the game's heuristic() values the position (0: to the end)
    top_k: int = 12  # candidates kept when there are more legal moves
    margin: float = 1.0  # standard errors of the paired difference needed to leave the anchor
    # The game bot whose move is the anchor ("" for none), or a bot the search model names in ``ANCHORS``.
    anchor: str = "expert"
    # Explicit chance: "root" enumerates the outcomes of a candidate that is itself a chance move (a
    # roll); "first" also the first chance move of every rollout; "off" samples all chance.
    chance: str = "root"
    min_round: int = 2  # samples per candidate per halving round, at least
    # Share of ``rollouts`` kept for the final test: the halving's winner is compared with the anchor
    # on fresh samples only, so a move that won the halving by luck is not also judged by that luck.
    verify: float = 0.0
    # With the game model's ``searched(state, seat)``, only the decisions it names are searched; the
    # others take the anchor's move at once (Machi Koro: builds are searched, dice choices are not).
    focus: bool = True
    # Above ``top_k`` moves, rank the rest by the game model's ``rank(state, seat, legal)`` if it has
    # one (else by the one-step ``heuristic()``).
    model_rank: bool = True
    # With ``verify``: a decision capped before the final test keeps the anchor (off: the halving's
    # best may still replace it on the halving's samples, by ``margin``; on measured worse in Machi
    # Koro, docs/bots.md).
    capped_keeps_anchor: bool = False
    # How a finished play-out scores: "rank" (the share of rivals beaten, ties half) or "win" (1 for
    # the winner, shared by tied winners; 0 otherwise). The same for two players but for ties.
    reward: str = "rank"
    # With reward "margin": a finished play-out is worth sigmoid((own score - the best rival's score)
    # / reward_scale), from ``Result.scores``: above a half exactly when ahead of every rival, and
    # graded, so a sample says how far a move was from winning, not only whether it won.
    reward_scale: float = 2.0
    # What values a play-out stopped at ``cutoff``: "game" (the search model's ``value``, else the
    # game's ``heuristic()``; a game with neither plays to the end), "learned" (the game's shipped
    # win-chance model, ``tabletown.core.winmodel``, read from the seat's own observation; to the
    # end where none ships for the table), or a name in the search model's ``JUDGES`` (a function
    # ``(state, seat) -> win chance``).
    judge: str = "game"
    # How candidates are picked above ``top_k``: "game" (as described in the module docstring) or
    # "learned" (every move played on a copy and ranked by the learned win chance that follows).
    prior: str = "game"
    # Root parallelism: processes that play the samples (1: this process alone). Each plays whole
    # samples (every candidate on one determinization) with the same seeds the bot would draw alone,
    # so a decision the deadline does not cut is the same on one process or several.
    workers: int = 1
    # Tables with fewer players than this are not searched: every decision is the anchor's move
    # (Machi Koro's hard level at two-player tables, where the search measured weaker than its anchor).
    min_players: int = 2


# Settings added after result folders were begun, left out of ``settings()`` at their defaults.
_LATER_DEFAULTS = {
    "reward": "rank",
    "reward_scale": 2.0,
    "judge": "game",
    "prior": "game",
    "workers": 1,
    "min_players": 2,
}


PRESETS: dict[str, SearchSettings] = {
    "easy": SearchSettings(rollouts=40, max_seconds=0.5, cutoff=20),
    "medium": SearchSettings(rollouts=100, max_seconds=1.0, cutoff=20),
    "hard": SearchSettings(rollouts=200, max_seconds=1.8, cutoff=20),
}


def game_model(game: Game) -> Any:
    """The game's ``tabletown.games.<name>.search_model`` module, or None. It may define ``outcomes``
    (the chance model above) and ``SEARCH_TUNING`` (``{level: {setting: value}}``), so this module
    knows nothing about any game."""
    module = f"tabletown.games.{game.name}.search_model"
    try:
        return importlib.import_module(module)
    except ModuleNotFoundError as exc:
        if exc.name is None or not module.startswith(exc.name):
            raise  # a real import error inside the game's module
        return None


def chance_model(game: Game) -> ChanceModel | None:
    """The game's ``outcomes`` if its search model has one."""
    return getattr(game_model(game), "outcomes", None)


class SearchBot(Bot):
    """Paired-sample flat search anchored on the expert; see the module docstring."""

    # Alike by shape to MCTSBot.__init__ (bots/mcts.py) on purpose: see the comment there.
    def __init__(
        self, game: Game, seed: int = 0, settings: SearchSettings | None = None, name: str = "search"
    ) -> None:
        super().__init__(seed)
        self.game = game
        self.config = settings or PRESETS["medium"]
        self.name = name
        self.capped = 0
        self.last_rollouts = 0
        self.last_values: dict[Action, float] = {}  # each compared candidate's mean, for tests
        self.last_verified = 0  # samples of the last decision's final test (challenger vs anchor)
        # A game's search model may name bots of its own (``ANCHORS``: an expert with weights re-tuned
        # against the expert, say) that the search anchors on or plays out with, without offering them
        # as bots of the game.
        bots = {**game.bots(), **getattr(game_model(game), "ANCHORS", {})}
        policy = self.config.policy
        self._policy_factory = bots.get(policy) if policy != "random" else None
        self._policy: dict[int, Bot] = {}
        # A play-out policy of the game's search model (``PLAYOUTS[name](rng)``: an agent, cheaper
        # than a bot since it keeps no state between moves), for a name no bot has.
        playouts = getattr(game_model(game), "PLAYOUTS", {})
        self._playout_agent: Callable[[Any], Any] | None = (
            playouts.get(policy) if self._policy_factory is None else None
        )
        if policy != "random" and self._policy_factory is None and self._playout_agent is None:
            raise ValueError(f"policy {policy!r} is neither a bot of {game.name} nor one of its play-outs")
        # A game without an expert plays the default anchor's part unanchored; any other name must exist.
        if self.config.anchor not in ("", "expert") and self.config.anchor not in bots:
            raise ValueError(
                f"anchor {self.config.anchor!r} is neither a bot of {game.name} nor one of its anchors"
            )
        anchor_factory = bots.get(self.config.anchor) if self.config.anchor else None
        self._anchor = anchor_factory(self.rng.getrandbits(63)) if anchor_factory else None
        greedy = bots.get("greedy")
        self._greedy = greedy(self.rng.getrandbits(63)) if greedy else None
        if self.config.reward not in ("rank", "win", "margin"):
            raise ValueError(f"reward must be rank, win or margin, not {self.config.reward!r}")
        if not self.config.reward_scale > 0:
            raise ValueError(f"reward_scale must be above 0, not {self.config.reward_scale!r}")
        self._win_reward = self.config.reward == "win"
        self._margin_reward = self.config.reward == "margin"
        if self.config.prior not in ("game", "learned"):
            raise ValueError(f"prior must be game or learned, not {self.config.prior!r}")
        judges = getattr(game_model(game), "JUDGES", {})
        if self.config.judge not in ("game", "learned", *judges):
            known = ", ".join(("game", "learned", *judges))
            raise ValueError(f"judge must be one of {known}, not {self.config.judge!r}")
        if self.config.workers < 1:
            raise ValueError(f"workers must be at least 1, not {self.config.workers}")
        self._pool = _pool(game, self.config) if self.config.workers > 1 else None
        self._blob: tuple[tuple[int, int], bytes] | None = None
        # The shipped win-chance model for the table in play, found on first use: (options, model).
        self._learned_for: tuple[Any, WinModel | None] | None = None
        if self.config.chance not in ("root", "first", "off"):
            raise ValueError(f"chance must be root, first or off, not {self.config.chance!r}")
        self._chance = chance_model(game) if self.config.chance != "off" else None
        self._chance_in_rollouts = self.config.chance == "first"
        self._heuristic: bool | None = None  # whether the game's heuristic() values positions
        model = game_model(game)
        # The game's value at the cut-off (``value(state, seat)`` in [0, 1]), else heuristic_rewards.
        self._model_value: Callable[[State, int], float] | None = getattr(model, "value", None)
        if self.config.judge in judges:  # a judge the search model names (``JUDGES``) instead
            self._model_value = judges[self.config.judge]
        searched = getattr(model, "searched", None) if self.config.focus else None
        self._searched: Callable[[State, int], bool] | None = searched
        # The game's prior over moves (``rank(state, seat, legal)``: best first, or None), used to
        # pick the candidates when there are more than ``top_k``.
        self._rank: Callable[[State, int, list[Action]], list[Action] | None] | None = (
            getattr(model, "rank", None) if self.config.model_rank else None
        )
        self.searched = 0  # decisions searched (the others were answered by the anchor or alone)

    def settings(self) -> dict[str, object]:
        """Recorded by the arena so a resumed job keeps the same bot. A setting added later is left
        out at its default, so folders begun before it still resume (benchmarks/results)."""
        settings = asdict(self.config)
        for key, default in _LATER_DEFAULTS.items():
            if settings[key] == default:
                del settings[key]
        return settings

    # -- the decision ---------------------------------------------------------------------------------
    def choose(self, state: State, player: int) -> Action:
        legal = state.legal_actions(player)
        if len(legal) == 1:
            return legal[0]
        config = self.config
        deadline = time.perf_counter() + config.max_seconds
        self._blob = None
        decision_seed = self.rng.getrandbits(63)
        anchor = None
        if self._anchor is not None:
            # The anchor reads a determinization too, so it sees only what the seat may see.
            anchor = self._anchor.choose(state.determinize(player, decision_seed), player)
            if anchor not in legal:
                anchor = None
        if anchor is not None and (
            state.num_players < config.min_players
            or (self._searched is not None and not self._searched(state, player))
        ):
            return anchor
        candidates = self._candidates(state, player, legal, anchor, decision_seed)
        if len(candidates) == 1:
            return candidates[0]
        self.searched += 1
        verify = 0
        if anchor is not None and config.verify > 0:
            verify = int(config.rollouts * config.verify)
        budget = config.rollouts - verify
        values: dict[Action, list[float]] = {action: [] for action in candidates}
        rounds = max(1, math.ceil(math.log2(len(candidates))))
        spent = 0
        capped = False
        for _ in range(rounds):
            per = max(config.min_round, budget // (rounds * len(candidates)))
            # Here the deadline may stop a sample between candidates (the uneven tails are trimmed after).
            rows, capped = self._sample_rows(state, player, candidates, per, deadline)
            for row in rows:
                for action, (value, cost) in zip(candidates, row, strict=False):
                    values[action].append(value)
                    spent += cost
            if capped:
                break
            if len(candidates) > 2 or (anchor is None and len(candidates) > 1):
                candidates.sort(key=lambda a: sample_mean(values[a]), reverse=True)
                keep = candidates[: max(2, (len(candidates) + 1) // 2)]
                if anchor is not None and anchor not in keep:
                    keep.append(anchor)
                candidates = keep
        if capped:
            self.capped += 1
            # Only samples every remaining candidate has played are compared.
            n = min(len(values[a]) for a in candidates)
            candidates = [a for a in candidates if n > 0 or a == anchor] or candidates
            for a in candidates:
                del values[a][n:]
        best = max(candidates, key=lambda a: sample_mean(values[a]))
        self.last_verified = 0
        if verify and not capped and best != anchor:
            assert anchor is not None
            # The final test: challenger against anchor on samples the halving never saw.
            values = {best: [], anchor: []}
            candidates = [best, anchor]
            goal = spent + verify
            while spent < goal and not capped:
                # Every pair is finished, and pairs are begun while the goal is not reached.
                rows, capped = self._verify_rows(state, player, candidates, goal - spent, deadline)
                for row in rows:
                    for action, (value, cost) in zip(candidates, row, strict=True):
                        values[action].append(value)
                        spent += cost
                    self.last_verified += 1
                if capped:
                    self.capped += 1
        self.last_rollouts = spent
        self.last_values = {a: sample_mean(values[a]) for a in candidates}
        if anchor is None or best == anchor:
            return best
        if verify and not self.last_verified and config.capped_keeps_anchor:
            return anchor  # the time ran out before the challenger could be checked on fresh samples
        return best if clearly_better(values[best], values[anchor], config.margin) else anchor

    # -- the samples ------------------------------------------------------------------------------
    def _sample_rows(
        self, state: State, player: int, candidates: list[Action], count: int, deadline: float
    ) -> tuple[list[list[tuple[float, int]]], bool]:
        """``count`` new shared samples, each played by every candidate: one row of (value, cost) per
        sample, in sample order, and whether the deadline stopped it (alone, the last row may then be
        short; with workers only whole rows come back)."""
        # Alone, seeds are drawn one by one as samples begin, so a capped decision draws no more
        # than it plays.
        seeds = (self.rng.getrandbits(63) for _ in range(count))
        if self._pool is not None:
            return self._parallel_rows(state, player, candidates, list(seeds), deadline)
        return self._play_rows(state, player, candidates, seeds, lambda: time.perf_counter() > deadline)

    def _play_rows(
        self,
        state: State,
        player: int,
        candidates: list[Action],
        seeds: Iterable[int],
        past_deadline: Callable[[], bool],
    ) -> tuple[list[list[tuple[float, int]]], bool]:
        """Every candidate on the sample of each seed (here, or in a worker for ``_parallel_rows``);
        stops after the play-out in hand once ``past_deadline()``, leaving a short last row."""
        rows: list[list[tuple[float, int]]] = []
        for seed in seeds:
            base = state.determinize(player, seed)
            row: list[tuple[float, int]] = []
            rows.append(row)
            for action in candidates:
                row.append(self._evaluate(base.clone(), player, action, seed))
                if past_deadline():
                    return rows, True
        return rows, False

    def _verify_rows(
        self, state: State, player: int, candidates: list[Action], remaining: int, deadline: float
    ) -> tuple[list[list[tuple[float, int]]], bool]:
        """The final test's next pairs: alone one pair (the deadline is looked at once it is
        finished); with workers one pair each, of which those begun before ``remaining`` rollouts are
        spent are kept, and the generator is left as if only they had been drawn."""
        if self._pool is None:
            seed = self.rng.getrandbits(63)
            base = state.determinize(player, seed)
            row = [self._evaluate(base.clone(), player, action, seed) for action in candidates]
            return [row], time.perf_counter() > deadline
        saved = self.rng.getstate()
        seeds = [self.rng.getrandbits(63) for _ in range(self.config.workers)]
        rows, capped = self._parallel_rows(state, player, candidates, seeds, deadline)
        kept: list[list[tuple[float, int]]] = []
        spent = 0
        for row in rows:
            if spent >= remaining:
                break
            kept.append(row)
            spent += sum(cost for _, cost in row)
        self.rng.setstate(saved)
        for _ in kept:
            self.rng.getrandbits(63)
        return kept, capped

    def _parallel_rows(
        self, state: State, player: int, candidates: list[Action], seeds: list[int], deadline: float
    ) -> tuple[list[list[tuple[float, int]]], bool]:
        """The samples of ``seeds`` split in order between the workers; whole rows, in seed order."""
        assert self._pool is not None
        blob = self._decision_blob(state)
        left = deadline - time.perf_counter()
        # CLOCK_MONOTONIC is one clock for every process on the machine.
        until = time.monotonic() + left
        workers = self.config.workers
        size = -(-len(seeds) // workers)
        futures = [
            self._pool.submit(_worker_rows, blob, player, candidates, seeds[i : i + size], until)
            for i in range(0, len(seeds), size)
        ]
        rows: list[list[tuple[float, int]]] = []
        capped = False
        for future in futures:
            part, stopped = future.result()
            capped = capped or stopped
            rows.extend(row for row in part if len(row) == len(candidates))
        return rows, capped

    def _decision_blob(self, state: State) -> tuple[tuple[int, int], bytes]:
        """The state of this decision, saved once and keyed so a worker loads it once."""
        if self._blob is None:  # forgotten at the start of every decision (a state changes in place)
            key = (os.getpid(), next(_DECISIONS))
            # The engine's saved position (exact, hidden parts and generator included) and not a
            # pickle: a state may lean on tables its process fills as it goes (Multicity's moves).
            self._blob = (key, pickle.dumps(state.to_json(), protocol=pickle.HIGHEST_PROTOCOL))
        return self._blob

    def _candidates(
        self, state: State, player: int, legal: list[Action], anchor: Action | None, seed: int
    ) -> list[Action]:
        top_k = self.config.top_k
        if len(legal) <= top_k:
            return list(legal)
        picked: list[Action] = []
        if anchor is not None:
            picked.append(anchor)
        if self._greedy is not None:
            move = self._greedy.choose(state.determinize(player, seed), player)
            if move in legal and move not in picked:
                picked.append(move)
        base = state.determinize(player, seed)
        if self.config.prior == "learned":
            ranked = self._learned_rank(base, player, legal)
        else:
            ranked = self._rank(base, player, legal) if self._rank is not None else None
        if ranked is not None:
            rest = [action for action in ranked if action not in picked]
            return picked + rest[: max(0, top_k - len(picked))]
        scored: list[tuple[float, int, Action]] = []
        for index, action in enumerate(legal):
            if action in picked:
                continue
            sample = base.clone()
            sample.apply(player, action)
            values = sample.heuristic()
            if values is None:
                scored = []
                break
            scored.append((-values[player], index, action))
        if scored:
            scored.sort(key=lambda item: (item[0], item[1]))
            rest = [action for _, _, action in scored]
        else:
            rest = [action for action in legal if action not in picked]
            self.rng.shuffle(rest)
        return picked + rest[: max(0, top_k - len(picked))]

    # -- one paired evaluation ------------------------------------------------------------------------
    def _evaluate(self, sample: State, me: int, action: Action, seed: int) -> tuple[float, int]:
        """``me``'s value of ``action`` on one sample, and the rollouts it cost."""
        chance = self._chance
        if chance is not None:
            outcomes = chance(sample, me, action)
            if outcomes:
                return self._branch(sample, me, me, action, outcomes, seed, self.config.cutoff), len(outcomes)
        sample.apply(me, action)
        sample.rng = SeededRNG(derive_seed(seed, "after"))  # the same stream after every candidate
        return self._rollout(sample, me, seed, self.config.cutoff), 1

    def _branch(
        self, state: State, me: int, seat: int, move: Action, outcomes: Any, seed: int, cutoff: int
    ) -> float:
        """``me``'s expected value of ``seat`` playing ``move`` over its chance ``outcomes`` (each
        forced on a copy of ``state``, then rolled out without branching again)."""
        total = 0.0
        for probability, force in outcomes:
            copy = state.clone()
            force(copy, seat, move, SeededRNG(derive_seed(seed, "after")))
            total += probability * self._rollout(copy, me, seed, cutoff, branched=True)
        return total

    def _rollout(self, state: State, me: int, seed: int, cutoff: int, branched: bool = False) -> float:
        """Play on with the policy for every seat; at the first chance move (if not yet branched) the
        rollout branches over its outcomes. Returns ``me``'s reward."""
        chance = self._chance if self._chance_in_rollouts and not branched else None
        steps = 0
        # A cut-off needs a judge of unfinished positions; without one, play to the end.
        if cutoff <= 0 or not self._can_judge(state):
            cutoff = 10**9
        limit = cutoff
        factory = self._policy_factory
        rng = SeededRNG(derive_seed(seed, "policy"))
        if factory is None:
            agent = self._playout_agent(rng) if self._playout_agent else random_agent(rng)
            play_out(state, [agent] * state.num_players, stop_after=limit)
            return self._value(state, me)
        for seat, bot in enumerate(self._policy_bots(state.num_players)):
            bot.rng.seed(derive_seed(seed, "bot", seat))  # same policy draws for every candidate
        bots = self._policy_bots(state.num_players)
        while steps < limit:
            acting = state.to_act
            if not acting:
                break
            for seat in acting:
                if state.is_over or seat not in state.to_act:
                    continue
                move = bots[seat].choose(state, seat)
                if chance is not None:
                    outcomes = chance(state, seat, move)
                    if outcomes:
                        return self._branch(state, me, seat, move, outcomes, seed, max(1, limit - steps - 1))
                state.apply(seat, move)
                steps += 1
        return self._value(state, me)

    def _can_judge(self, state: State) -> bool:
        if self.config.judge == "learned":
            return self._learned(state) is not None
        return self._model_value is not None or self._has_heuristic(state)

    def _learned(self, state: State) -> WinModel | None:
        """The game's shipped win-chance model for this table (None where none fits it)."""
        found = self._learned_for
        if found is None or found[0] is not state.options:
            from ..core.winmodel import shipped_model

            model = shipped_model(self.game, state.num_players, dict(state.options))
            found = self._learned_for = (state.options, model)
        return found[1]

    def _learned_chances(self, states: list[State], seat: int) -> list[float]:
        model = self._learned(states[0])
        assert model is not None
        rows = np.asarray([s.observation(seat) for s in states], dtype=np.float32)
        return [float(p) for p in model.chances(rows)]

    def _learned_rank(self, base: State, player: int, legal: list[Action]) -> list[Action] | None:
        """The legal moves, best first by the learned chance right after each (None without a model)."""
        if self._learned(base) is None:
            return None
        after: list[State] = []
        for action in legal:
            sample = base.clone()
            sample.apply(player, action)
            after.append(sample)
        chances = self._learned_chances(after, player)
        order = sorted(range(len(legal)), key=lambda i: (-chances[i], i))
        return [legal[i] for i in order]

    def _has_heuristic(self, state: State) -> bool:
        if self._heuristic is None:
            self._heuristic = state.heuristic() is not None
        return self._heuristic

    def _value(self, state: State, me: int) -> float:
        result = state.result()
        if result is not None:
            if self._win_reward:
                winners = result.winners
                return 1.0 / len(winners) if me in winners else 0.0
            if self._margin_reward:
                return margin_reward(result, me, self.config.reward_scale)
            return rank_rewards(result)[me]
        if self.config.judge == "learned":
            return self._learned_chances([state], me)[0]
        if self._model_value is not None:
            return self._model_value(state, me)
        values = state.heuristic()
        if values is not None:
            return heuristic_rewards(values)[me]
        return 0.5

    def _policy_bots(self, count: int) -> list[Bot]:
        assert self._policy_factory is not None
        for seat in range(count):
            if seat not in self._policy:
                self._policy[seat] = self._policy_factory(derive_seed("search-policy", seat))
        return [self._policy[seat] for seat in range(count)]


# -- root parallelism: the worker processes ------------------------------------------------------------
_POOLS: dict[tuple[str, SearchSettings], ProcessPoolExecutor] = {}
_DECISIONS = itertools.count()
_WORKER: dict[str, Any] = {}  # in a worker: its evaluator and the last decision's state


def _pool(game: Game, settings: SearchSettings) -> ProcessPoolExecutor:
    """One pool per game and settings in a process, shared by every bot with them (a bot worker
    serving many tables starts ``workers`` processes once, not one set a table). Started at once and
    waited for, so the first decision does not pay for the processes' start."""
    key = (game.name, settings)
    pool = _POOLS.get(key)
    if pool is None:
        # spawn, not fork: the web server's threads and locks must not be copied into a child.
        context = multiprocessing.get_context("spawn")
        pool = ProcessPoolExecutor(
            settings.workers, mp_context=context, initializer=_worker_start, initargs=(game.name, settings)
        )
        for ready in [pool.submit(_worker_ready) for _ in range(settings.workers)]:
            ready.result()
        _POOLS[key] = pool
    return pool


def _worker_start(game_name: str, settings: SearchSettings) -> None:
    from ..core.registry import get_game

    _WORKER["bot"] = SearchBot(get_game(game_name), 0, replace(settings, workers=1))
    _WORKER["key"] = None


def _worker_ready() -> int:
    return os.getpid()


def _worker_rows(
    blob: tuple[tuple[int, int], bytes], player: int, candidates: list[Action], seeds: list[int], until: float
) -> tuple[list[list[tuple[float, int]]], bool]:
    """In a worker: the bot's own ``_play_rows`` on the decision's position, up to ``until``
    (``time.monotonic``), so a capped decision overruns its cap by one play-out at most."""
    key, data = blob
    bot: SearchBot = _WORKER["bot"]
    if _WORKER["key"] != key:
        _WORKER["state"], _WORKER["key"] = bot.game.state_from_json(pickle.loads(data)), key
    # A short last row (capped) is dropped by the parent.
    return bot._play_rows(_WORKER["state"], player, candidates, seeds, lambda: time.monotonic() > until)


def margin_reward(result: Result, me: int, scale: float) -> float:
    """sigmoid((``me``'s score - the best rival's) / ``scale``): 1/2 for a tie with the best rival."""
    scores = result.scores
    rivals = [score for seat, score in enumerate(scores) if seat != me]
    if not rivals:  # alone at the table (New Las Vegas solo): the win against the game itself
        return 1.0 if me in result.winners else 0.0
    lead = max(-60.0, min(60.0, (scores[me] - max(rivals)) / scale))
    return 1.0 / (1.0 + math.exp(-lead))


def settings_for(game: Game, strength: str) -> SearchSettings:
    """The preset with this game's overrides (``SEARCH_TUNING`` in its search model)."""
    settings = PRESETS[strength]
    tuning = getattr(game_model(game), "SEARCH_TUNING", {}).get(strength)
    return replace(settings, **tuning) if tuning else settings


def make_search(strength: str) -> Callable[[Game, int], Bot]:
    def factory(game: Game, seed: int) -> Bot:
        return SearchBot(game, seed, settings_for(game, strength), name=f"search:{strength}")

    return factory


for _strength in PRESETS:
    GENERIC_BOTS[f"search:{_strength}"] = make_search(_strength)


class ByPlayers(Bot):
    """Plays as ``factories[n]``'s bot at an ``n``-player table (``default``'s at any other): an anchor
    whose weights were tuned for each table size. Each inner bot is made on first use from this bot's
    own seed, so a seeded game replays."""

    def __init__(
        self, seed: int, factories: dict[int, Callable[[int], Bot]], default: Callable[[int], Bot]
    ) -> None:
        super().__init__(seed)
        self._seed = seed
        self._factories = factories
        self._default = default
        self._bots: dict[int, Bot] = {}

    def choose(self, state: State, player: int) -> Action:
        n = state.num_players
        bot = self._bots.get(n)
        if bot is None:
            bot = self._bots[n] = self._factories.get(n, self._default)(self._seed)
        return bot.choose(state, player)
