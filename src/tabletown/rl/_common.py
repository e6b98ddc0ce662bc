"""What the environments share: seats and agent names, spaces, observations, rewards.

Nothing here knows a game: everything comes from the engine contract (``game.action_space``,
``game.observation_size``, ``state.observation``, ``state.legal_mask``, ``state.result``).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np
from gymnasium import spaces

from ..core.game import Game, Result, State
from ..core.registry import get_game

_DEFAULT_MASK = State.legal_mask
_FLOAT32 = np.dtype(np.float32)

ILLEGAL_ACTIONS = ("penalty", "raise")


def agent_name(seat: int) -> str:
    return f"player_{seat}"


def resolve_game(game: Game | str) -> Game:
    return get_game(game) if isinstance(game, str) else game


# Action numbers remembered (see Setup.legal_numbers), at most this many.
KNOWN_ACTIONS = 1_000_000


class Setup:
    """One game configuration as the environments see it: the game, the player count, its options,
    the fixed action space and the observation length (both fixed for the whole game)."""

    __slots__ = (
        "game", "num_players", "options", "actions", "num_actions", "obs_size", "max_actions", "_last_mask",
        "_numbers", "_action_list", "_shape",
    )  # fmt: skip

    def __init__(self, game: Game | str, num_players: int, options: Mapping[str, Any] | None) -> None:
        self.game = resolve_game(game)
        self.num_players = num_players
        self.options = self.game.resolve_options(num_players, options)
        self.actions = self.game.action_space(num_players, self.options)
        self.num_actions = len(self.actions)
        self.obs_size = int(self.game.observation_size(num_players, self.options))
        try:
            self.max_actions = int(self.game.game_type.max_actions)
        except NotImplementedError:
            self.max_actions = 1_000_000
        self._last_mask: tuple[Any, int, int, Any] | None = None
        self._shape = (self.obs_size,)
        self._numbers: dict[Any, int] = {}
        # Decoding an index is a tuple look-up for spaces small enough to list.
        self._action_list: tuple[Any, ...] | None = (
            tuple(self.actions) if self.num_actions <= 1 << 17 else None
        )

    def new_state(self, seed: int) -> State:
        return self.game.new_game(self.num_players, self.options, seed)

    def observation_space(self) -> spaces.Dict:
        """PettingZoo's classic layout: the seat's numbers and the legal-action mask."""
        return spaces.Dict(
            {
                "observation": spaces.Box(-np.inf, np.inf, (self.obs_size,), np.float32),
                "action_mask": spaces.Box(0, 1, (self.num_actions,), np.int8),
            }
        )

    def action_space(self) -> spaces.Discrete:
        return spaces.Discrete(self.num_actions)

    def observe(
        self, state: State, seat: int, acting: bool = True, version: int = -1
    ) -> dict[str, np.ndarray]:
        """The seat's observation and its legal-action mask (all zeros when it need not act), both
        fresh arrays that the caller may keep or change.

        With a ``version`` (the environment's count of applied actions) the legal numbers are kept
        so that ``decode`` of the seat's answer at that version need not ask the state again."""
        numbers = state.observation(seat)
        if type(numbers) is not np.ndarray or numbers.dtype is not _FLOAT32:
            numbers = np.asarray(numbers, dtype=np.float32)
        if numbers.shape != self._shape:
            raise ValueError(
                f"{self.game.name}: observation of length {numbers.shape} but observation_size is {self.obs_size}"
            )
        if acting and not state.is_over:
            if type(state).legal_mask is _DEFAULT_MASK:  # self.mask, inlined: it runs every step
                legal = self.legal_numbers(state, seat)
                flags = bytearray(self.num_actions)
                for number in legal:
                    flags[number] = 1
                mask = np.frombuffer(flags, dtype=np.int8)  # writable, over a fresh bytearray
            else:
                mask, legal = self.mask(state, seat)
            if version >= 0:
                self._last_mask = (state, seat, version, legal)
        else:
            mask = np.zeros(self.num_actions, dtype=np.int8)
        return {"observation": numbers, "action_mask": mask}

    def mask(self, state: State, seat: int) -> tuple[np.ndarray, Any]:
        """A fresh legal-action mask for the seat and what ``decode`` checks an answer against (the
        list of legal numbers, or the game's own mask bytes)."""
        if type(state).legal_mask is not _DEFAULT_MASK:
            raw = state.legal_mask(seat)
            return np.frombuffer(raw, dtype=np.int8).copy(), raw
        # The contract's default mask, from cached action numbers: the same bytes without a fresh
        # look-up of every legal action in the space.
        numbers = self.legal_numbers(state, seat)
        flags = bytearray(self.num_actions)
        for number in numbers:  # faster than NumPy's fancy indexing for a few dozen numbers
            flags[number] = 1
        return np.frombuffer(flags, dtype=np.int8), numbers

    def legal_numbers(self, state: State, seat: int) -> list[int]:
        """The action numbers of the seat's legal actions (memoized per action: actions are small
        hashable values and the same ones come back all game long)."""
        actions = state.legal_actions(seat)
        known = self._numbers
        numbers = list(map(known.get, actions))
        if None in numbers:
            index = self.actions.index
            for i, number in enumerate(numbers):
                if number is None:
                    action = actions[i]
                    numbers[i] = number = index(action)
                    if len(known) < KNOWN_ACTIONS:
                        known[action] = number
        return numbers  # type: ignore[return-value]  # every None was filled in just above

    def decode(self, state: State, seat: int, action: Any, version: int = -1) -> tuple[Any, bool]:
        """The typed action behind an index, and whether the seat may take it now (from the mask
        shown at ``version`` when there is one, else by asking the state)."""
        number = int(action)
        if not 0 <= number < self.num_actions:
            return None, False
        listed = self._action_list
        typed = listed[number] if listed is not None else self.actions[number]
        last = self._last_mask
        if last is not None and last[0] is state and last[1] == seat and last[2] == version:
            legal = last[3]
            return typed, number in legal if type(legal) is list else bool(legal[number])
        return typed, state.is_legal(seat, typed)


def rewards_from_result(result: Result | None, num_players: int) -> list[float]:
    """Each seat's reward for a finished game (see docs/rl.md).

    Seats are ordered by rank; tied seats share the average of the places they occupy. Place 1 is
    worth +1, the last place -1, linear in between: ``1 - 2 * (place - 1) / (n - 1)``. So a sole
    winner gets +1, a sole loser -1, everyone 0 when all tie, and the rewards add up to 0. Alone
    (New Las Vegas solo, against ACME) the seat gets +1 for rank 1 and -1 otherwise. No result
    (a game cut short) is worth 0 to everyone."""
    if result is None:
        return [0.0] * num_players
    ranks = result.ranks
    if num_players == 1:
        return [1.0 if ranks[0] == 1 else -1.0]
    rewards = []
    for rank in ranks:
        tied = sum(1 for other in ranks if other == rank)
        place = rank + (tied - 1) / 2
        rewards.append(1.0 - 2.0 * (place - 1) / (num_players - 1))
    return rewards


def draw_seed(rng: np.random.Generator) -> int:
    return int(rng.integers(0, 2**63 - 1))
