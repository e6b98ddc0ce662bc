"""A PettingZoo AEC environment for any Tabletown game (engine contract 2 only).

Agents are ``player_0`` .. ``player_{n-1}``. The agent to act is the lowest seat in
``state.to_act``, so a simultaneous round is played seat after seat; each seat's observation comes
from ``state.observation(seat)``, which holds only what that seat may see (the others' secret
choices in the round stay hidden). Actions are indices into ``game.action_space(n, options)``.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

import numpy as np
from gymnasium import spaces
from gymnasium.utils import seeding
from pettingzoo import AECEnv

from ..core.game import Game, State
from ._common import ILLEGAL_ACTIONS, Setup, agent_name, draw_seed, rewards_from_result


class TabletownAECEnv(AECEnv):  # type: ignore[misc]  # pettingzoo has no type information
    """``env(game, num_players, options, seed)``: one seat per agent, one action per step.

    ``illegal_action`` says what an action outside the mask does: ``"penalty"`` (the default, as
    PettingZoo's TerminateIllegalWrapper) ends the episode with -1 for the offending seat and 0 for
    the others; ``"raise"`` raises ValueError and leaves the game as it was."""

    metadata = {"name": "tabletown_v0", "render_modes": ["ansi"], "is_parallelizable": False}

    # The same parameters as TabletownParallelEnv.__init__ (rl/parallel.py) on purpose: each
    # PettingZoo class states its public signature (this one adds render_mode).
    def __init__(
        self,
        game: Game | str,
        num_players: int = 2,
        options: Mapping[str, Any] | None = None,
        seed: int | None = None,
        illegal_action: str = "penalty",
        render_mode: str | None = None,
    ) -> None:
        super().__init__()
        if illegal_action not in ILLEGAL_ACTIONS:
            raise ValueError(f"illegal_action must be one of {ILLEGAL_ACTIONS}")
        self.setup = Setup(game, num_players, options)
        self.illegal_action = illegal_action
        self.render_mode = render_mode
        self.metadata = {**self.metadata, "name": f"tabletown_{self.setup.game.name}_v0"}
        self.possible_agents = [agent_name(seat) for seat in range(num_players)]
        self._seats = {agent: seat for seat, agent in enumerate(self.possible_agents)}
        obs_space = self.setup.observation_space()
        act_space = self.setup.action_space()
        self.observation_spaces = {agent: obs_space for agent in self.possible_agents}
        self.action_spaces = {agent: act_space for agent in self.possible_agents}
        self._seed_rng, _ = seeding.np_random(seed)
        self.state: State = None  # type: ignore[assignment]  # None until reset(), which all else needs
        self.steps = 0

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    # -- episode ----------------------------------------------------------------------------------
    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Start a new game. ``seed`` reseeds the environment; the game's own seed is drawn from it."""
        if seed is not None:
            self._seed_rng, _ = seeding.np_random(seed)
        self.state = self.setup.new_state(draw_seed(self._seed_rng))
        self.steps = 0
        self.agents = list(self.possible_agents)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {agent: {} for agent in self.agents}
        self._select()

    def _select(self) -> None:
        acting = self.state.to_act
        seat = acting[0] if acting else 0
        self.agent_selection = self.possible_agents[seat]

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        seat = self._seats[agent]
        state = self.state
        return self.setup.observe(state, seat, seat in state.to_act, self.steps)

    def last(self, observe: bool = True) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        """PettingZoo's ``last``, without its generic checks (it runs once per step)."""
        agent = self.agent_selection
        observation = None
        if observe:  # self.observe(agent), inlined
            seat = self._seats[agent]
            state = self.state
            observation = self.setup.observe(state, seat, seat in state.to_act, self.steps)
        return (
            observation,
            self._cumulative_rewards[agent],
            self.terminations[agent],
            self.truncations[agent],
            self.infos[agent],
        )

    def agent_iter(self, max_iter: int = 2**63) -> Iterator[str]:
        """The agent to act, until every agent is done or ``max_iter`` steps (as PettingZoo's)."""
        while self.agents and max_iter > 0:
            max_iter -= 1
            yield self.agent_selection

    def step(self, action: Any) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        # While the game goes on every reward is 0 (rewards come only at the end, and an episode
        # ends on the first non-zero one), so PettingZoo's per-step clearing of ``rewards`` and of
        # the acting agent's cumulative reward changes nothing and is left out here.
        seat = self._seats[agent]
        state = self.state
        typed, legal = (None, False) if action is None else self.setup.decode(state, seat, action, self.steps)
        if not legal:
            if self.illegal_action == "raise":
                raise ValueError(f"{agent} may not take action {action!r} ({typed!r}) now")
            self._cumulative_rewards[agent] = 0.0
            self.rewards = dict.fromkeys(self.agents, 0.0)
            self.rewards[agent] = -1.0
            self.terminations = dict.fromkeys(self.agents, True)
            self.infos[agent] = {"illegal_action": True}
            self._accumulate_rewards()
            return
        state.apply(seat, typed)
        self.steps += 1
        acting = state.to_act
        if acting:
            self.agent_selection = self.possible_agents[acting[0]]
            if self.steps < self.setup.max_actions:
                return
        if state.is_over:
            self._cumulative_rewards[agent] = 0.0
            rewards = rewards_from_result(state.result(), self.setup.num_players)
            self.rewards = dict(zip(self.possible_agents, rewards, strict=True))
            self.terminations = dict.fromkeys(self.agents, True)
            self._accumulate_rewards()
        elif self.steps >= self.setup.max_actions:
            self.truncations = dict.fromkeys(self.agents, True)
        self._select()

    def render(self) -> str | None:
        if self.render_mode != "ansi" or self.state is None:
            return None
        import json

        return json.dumps(self.state.view(None, since=len(self.state.log))["state"], default=str)

    def close(self) -> None:
        self.state = None  # type: ignore[assignment]  # closed: None as before reset()
