"""A PettingZoo Parallel environment: every seat in ``state.to_act`` acts in one step.

Meant for games with simultaneous rounds (New Las Vegas), but it works for any game: in a
sequential part only the acting seat's action is used and the others' are ignored (their masks
are all zeros). Within one step the actions are applied in seat order; the game keeps each choice
hidden from the other seats until the round resolves, and every seat's observation is built from
what that seat may see.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np
from gymnasium import spaces
from gymnasium.utils import seeding
from pettingzoo import ParallelEnv

from ..core.game import Game, State
from ._common import ILLEGAL_ACTIONS, Setup, agent_name, draw_seed, rewards_from_result


class TabletownParallelEnv(ParallelEnv):  # type: ignore[misc]  # pettingzoo has no type information
    """``parallel_env(game, num_players, options, seed)``; ``step`` takes ``{agent: index}``.

    An action outside a seat's mask does what ``illegal_action`` says (see the AEC environment):
    ``"penalty"`` ends the episode with -1 for that seat and 0 for the others."""

    metadata = {"name": "tabletown_parallel_v0", "render_modes": []}

    # The same parameters as TabletownAECEnv.__init__ (rl/aec.py) on purpose: see there.
    def __init__(
        self,
        game: Game | str,
        num_players: int = 2,
        options: Mapping[str, Any] | None = None,
        seed: int | None = None,
        illegal_action: str = "penalty",
    ) -> None:
        if illegal_action not in ILLEGAL_ACTIONS:
            raise ValueError(f"illegal_action must be one of {ILLEGAL_ACTIONS}")
        self.setup = Setup(game, num_players, options)
        self.illegal_action = illegal_action
        self.possible_agents = [agent_name(seat) for seat in range(num_players)]
        self.agents: list[str] = []
        self._obs_space = self.setup.observation_space()
        self._act_space = self.setup.action_space()
        self.observation_spaces = dict.fromkeys(self.possible_agents, self._obs_space)
        self.action_spaces = dict.fromkeys(self.possible_agents, self._act_space)
        self._seed_rng, _ = seeding.np_random(seed)
        self.state: State = None  # type: ignore[assignment]  # None until reset(), which all else needs
        self.steps = 0

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self._obs_space

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self._act_space

    def _observations(self) -> dict[str, dict[str, np.ndarray]]:
        acting = self.state.to_act
        return {
            agent: self.setup.observe(self.state, seat, acting=seat in acting)
            for seat, agent in enumerate(self.possible_agents)
        }

    def reset(
        self, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[str, dict[str, np.ndarray]], dict[str, dict[str, Any]]]:
        if seed is not None:
            self._seed_rng, _ = seeding.np_random(seed)
        self.state = self.setup.new_state(draw_seed(self._seed_rng))
        self.steps = 0
        self.agents = list(self.possible_agents)
        return self._observations(), {agent: {} for agent in self.agents}

    def step(
        self, actions: Mapping[str, Any]
    ) -> tuple[
        dict[str, dict[str, np.ndarray]],
        dict[str, float],
        dict[str, bool],
        dict[str, bool],
        dict[str, dict[str, Any]],
    ]:
        state = self.state
        rewards = dict.fromkeys(self.agents, 0.0)
        infos: dict[str, dict[str, Any]] = {agent: {} for agent in self.agents}
        done = truncated = False
        for seat in state.to_act:
            if seat not in state.to_act:  # the round resolved under an earlier seat's action
                continue
            agent = self.possible_agents[seat]
            action = actions.get(agent)
            typed, legal = (None, False) if action is None else self.setup.decode(state, seat, action)
            if not legal:
                if self.illegal_action == "raise":
                    raise ValueError(f"{agent} may not take action {action!r} ({typed!r}) now")
                rewards[agent] = -1.0
                infos[agent] = {"illegal_action": True}
                done = True
                break
            state.apply(seat, typed)
            self.steps += 1
        if not done and state.is_over:
            rewards = dict(
                zip(
                    self.possible_agents,
                    rewards_from_result(state.result(), self.setup.num_players),
                    strict=True,
                )
            )
            done = True
        elif not done and self.steps >= self.setup.max_actions:
            truncated = True
        observations = self._observations()
        terminations = dict.fromkeys(self.agents, done)
        truncations = dict.fromkeys(self.agents, truncated)
        if done or truncated:
            self.agents = []
        return observations, rewards, terminations, truncations, infos

    def render(self) -> None:
        return None

    def close(self) -> None:
        self.state = None  # type: ignore[assignment]  # closed: None as before reset()
