"""A Gymnasium single-agent environment: one learning seat, Tabletown bots in the other seats.

``TabletownEnv(game, num_players=2, opponents="random", seat=0)``: the learner plays ``seat``
(``None``: a random seat each episode); every other seat is a bot made by
``tabletown.bots.make_bot`` (``random``, ``greedy``, ``expert``, ``mcts:...``, any name the game
knows), asked through ``core.session.bot_agent`` so it only ever receives a copy of the game made
for its own seat. Observations are ``{"observation", "action_mask"}`` as in the PettingZoo
environments; the reward is the learner's share of the final result (docs/rl.md), given on the
last step. Registered as ``tabletown/<Game>-v0`` for ``gymnasium.make``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import gymnasium
import numpy as np
from gymnasium.utils import seeding

from ..bots import make_bot
from ..core.game import Game, State
from ..core.rng import derive_seed
from ..core.session import Agent, bot_agent
from ._common import ILLEGAL_ACTIONS, Setup, draw_seed, rewards_from_result


class TabletownEnv(gymnasium.Env):
    """One learner against bots. ``opponents`` is one bot name for every other seat or a list with
    one name per other seat (in seat order). An illegal action ends the episode with reward -1
    (``illegal_action="penalty"``) or raises ValueError (``"raise"``)."""

    metadata = {"render_modes": ["ansi"]}

    def __init__(
        self,
        game: Game | str,
        num_players: int = 2,
        options: Mapping[str, Any] | None = None,
        opponents: str | Sequence[str] = "random",
        seat: int | None = 0,
        seed: int | None = None,
        illegal_action: str = "penalty",
        render_mode: str | None = None,
    ) -> None:
        if illegal_action not in ILLEGAL_ACTIONS:
            raise ValueError(f"illegal_action must be one of {ILLEGAL_ACTIONS}")
        self.setup = Setup(game, num_players, options)
        if seat is not None and not 0 <= seat < num_players:
            raise ValueError(f"seat must be in 0..{num_players - 1}")
        names = [opponents] * (num_players - 1) if isinstance(opponents, str) else list(opponents)
        if len(names) != num_players - 1:
            raise ValueError(f"give {num_players - 1} opponents (one per other seat), not {len(names)}")
        for name in names:  # fail now on an unknown bot, not at the first reset
            make_bot(self.setup.game, name, 0)
        self.opponent_names = names
        self.fixed_seat = seat
        self.illegal_action = illegal_action
        self.render_mode = render_mode
        self.observation_space = self.setup.observation_space()
        self.action_space = self.setup.action_space()
        self._seed_rng, _ = seeding.np_random(seed)
        self.state: State = None  # type: ignore[assignment]  # None until reset(), which all else needs
        self.seat = seat if seat is not None else 0
        self.agents: dict[int, Agent] = {}
        self.steps = 0

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[str, np.ndarray], dict[str, Any]]:
        super().reset(seed=seed)
        if seed is not None:
            self._seed_rng, _ = seeding.np_random(seed)
        game_seed = draw_seed(self._seed_rng)
        self.seat = (
            self.fixed_seat
            if self.fixed_seat is not None
            else int(self._seed_rng.integers(self.setup.num_players))
        )
        others = [s for s in range(self.setup.num_players) if s != self.seat]
        self.agents = {}
        for other, name in zip(others, self.opponent_names, strict=True):
            # One-way, as the arena's: a bot that knew the game's seed would know every hidden
            # card and future die (security audit 12: game_seed + 7919 gave it away).
            bot_seed = derive_seed(game_seed, other, f"bot:{name}")
            self.agents[other] = bot_agent(make_bot(self.setup.game, name, bot_seed), bot_seed)
        self.state = self.setup.new_state(game_seed)
        self.steps = 0
        self._play_others()
        return self._observe(), self._info()

    def _play_others(self) -> None:
        """Let the bots act until the learner must act or the game ends (or is cut short)."""
        state = self.state
        while not state.is_over and self.steps < self.setup.max_actions:
            acting = state.to_act
            if self.seat in acting:
                return
            seat = acting[0]
            state.apply(seat, self.agents[seat](state, seat))
            self.steps += 1

    def _observe(self) -> dict[str, np.ndarray]:
        return self.setup.observe(self.state, self.seat, self.seat in self.state.to_act, self.steps)

    def _info(self) -> dict[str, Any]:
        return {"seat": self.seat}

    def step(self, action: Any) -> tuple[dict[str, np.ndarray], float, bool, bool, dict[str, Any]]:
        if self.state is None:
            raise RuntimeError("call reset() before step()")
        state = self.state
        typed, legal = self.setup.decode(state, self.seat, action, self.steps)
        if not legal:
            if self.illegal_action == "raise":
                raise ValueError(f"action {action!r} ({typed!r}) is not legal now")
            return self._observe(), -1.0, True, False, {**self._info(), "illegal_action": True}
        state.apply(self.seat, typed)
        self.steps += 1
        self._play_others()
        if state.is_over:
            reward = rewards_from_result(state.result(), self.setup.num_players)[self.seat]
            result = state.result()
            assert result is not None  # the game is over
            info = {**self._info(), "ranks": list(result.ranks)}
            return self._observe(), reward, True, False, info
        truncated = self.steps >= self.setup.max_actions
        return self._observe(), 0.0, False, truncated, self._info()

    def render(self) -> str | None:
        if self.render_mode != "ansi" or self.state is None:
            return None
        import json

        return json.dumps(self.state.view(self.seat, since=len(self.state.log))["state"], default=str)
