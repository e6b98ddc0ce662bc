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

ILLEGAL_ACTIONS = ("penalty", "raise")


def agent_name(seat: int) -> str:
    return f"player_{seat}"


def resolve_game(game: Game | str) -> Game:
    return get_game(game) if isinstance(game, str) else game


# Legal-action masks of small action spaces are kept per list of legal actions (the same lists
# come back all game long); a space this large or larger is built afresh each time.
MASK_CACHE_MAX_ACTIONS = 16_384
MASK_CACHE_BYTES = 16 << 20
# Action numbers known by object identity (see Setup.legal_numbers), at most this many at once.
ID_CACHE_SIZE = 1 << 16


class Setup:
    """One game configuration as the environments see it: the game, the player count, its options,
    the fixed action space and the observation length (both fixed for the whole game)."""

    __slots__ = (
        "game", "num_players", "options", "actions", "num_actions", "obs_size", "max_actions", "_last_mask",
        "_numbers", "_by_id", "_alive", "_masks", "_mask_limit", "_action_list",
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
        self._numbers: dict[Any, int] = {}
        self._by_id: dict[int, int] = {}
        self._alive: list[Any] = []
        self._masks: dict[tuple[int, ...], tuple[np.ndarray, frozenset[int], tuple[Any, ...]]] = {}
        small = self.num_actions <= MASK_CACHE_MAX_ACTIONS
        self._mask_limit = MASK_CACHE_BYTES // max(self.num_actions, 1) if small else 0
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
        if type(numbers) is not np.ndarray or numbers.dtype != np.float32:
            numbers = np.asarray(numbers, dtype=np.float32)
        if numbers.shape != (self.obs_size,):
            raise ValueError(
                f"{self.game.name}: observation of length {numbers.shape} but observation_size is {self.obs_size}"
            )
        if acting and not state.is_over:
            mask, legal = self.mask(state, seat)
            if version >= 0:
                self._last_mask = (state, seat, version, legal)
        else:
            mask = np.zeros(self.num_actions, dtype=np.int8)
        return {"observation": numbers, "action_mask": mask}

    def mask(self, state: State, seat: int) -> tuple[np.ndarray, Any]:
        """A fresh legal-action mask for the seat and what ``decode`` checks an answer against (a
        set of numbers, or the game's own mask bytes)."""
        if type(state).legal_mask is not _DEFAULT_MASK:
            raw = state.legal_mask(seat)
            return np.frombuffer(raw, dtype=np.int8).copy(), raw
        # The contract's default mask, built from cached action numbers: the same bytes without a
        # fresh look-up of every legal action. Games hand out shared action objects, so the list of
        # their identities names the mask; the cache entry keeps those objects alive, so an
        # identity in a key never passes to another object.
        actions = state.legal_actions(seat)
        if self._mask_limit:
            key = tuple(map(id, actions))
            entry = self._masks.get(key)
            if entry is not None:
                return entry[0].copy(), entry[1]
        numbers = self.legal_numbers(state, seat, actions)
        mask = np.zeros(self.num_actions, dtype=np.int8)
        mask[numbers] = 1
        legal = frozenset(numbers)
        if self._mask_limit:
            if len(self._masks) >= self._mask_limit:
                self._masks.clear()
            self._masks[key] = (mask, legal, tuple(actions))
            return mask.copy(), legal
        return mask, legal

    def legal_numbers(self, state: State, seat: int, actions: list[Any] | None = None) -> list[int]:
        """The action numbers of the seat's legal actions (``actions``: its ``legal_actions``).

        Memoized by object identity first (no hashing of the action: most games hand out the same
        action objects again and again; ``_alive`` keeps every object behind a remembered identity
        alive, so the identity stays its own), then by equality."""
        if actions is None:
            actions = state.legal_actions(seat)
        by_id = self._by_id
        numbers = list(map(by_id.get, map(id, actions)))
        if None not in numbers:
            return numbers
        known = self._numbers
        index = self.actions.index
        if len(by_id) >= ID_CACHE_SIZE:
            by_id.clear()
            self._alive.clear()
        for i, number in enumerate(numbers):
            if number is None:
                action = actions[i]
                number = known.get(action)
                if number is None:
                    number = index(action)
                    if len(known) < 1_000_000:
                        known[action] = number
                numbers[i] = by_id[id(action)] = number
                self._alive.append(action)
        return numbers

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
            return typed, number in legal if type(legal) is frozenset else bool(legal[number])
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
