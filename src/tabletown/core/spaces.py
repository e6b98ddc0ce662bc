"""Fixed action spaces and game metadata: what RL adapters and clients need to know up front.

``game.action_space(num_players, options)`` lists every action that can ever be legal in that
configuration, in a fixed order, so an action has a stable index and a legal-move mask has a fixed
length. ``game.game_type`` states the game's shape (turns or simultaneous rounds, chance, hidden
information, what the scores mean, how long a game can last).
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any, overload

from .errors import MalformedAction


class ActionSpace(Sequence[Hashable]):
    """An ordered, indexable set of actions. The default keeps a tuple and a dict from action to
    index; games whose spaces are too large to hold can subclass it and compute both ways."""

    __slots__ = ("_actions", "_index")

    def __init__(self, actions: Iterable[Hashable]) -> None:
        self._actions = tuple(actions)
        self._index = {action: number for number, action in enumerate(self._actions)}
        if len(self._index) != len(self._actions):
            raise ValueError("an action space lists every action once")

    def __len__(self) -> int:
        return len(self._actions)

    @overload
    def __getitem__(self, number: int) -> Hashable: ...
    @overload
    def __getitem__(self, number: slice) -> Sequence[Hashable]: ...
    def __getitem__(self, number: Any) -> Any:
        return self._actions[number]

    def __iter__(self) -> Iterator[Hashable]:
        return iter(self._actions)

    def __contains__(self, action: object) -> bool:
        try:
            return action in self._index
        except TypeError:  # unhashable junk is simply not an action
            return False

    def index(self, action: Any, start: int = 0, stop: int | None = None) -> int:
        """The action's fixed number; MalformedAction if it is not in the space."""
        try:
            return self._index[action]
        except (KeyError, TypeError):
            raise MalformedAction(
                "action.not_in_space", "not an action of this game: {action!r}", action=action
            ) from None

    def mask(self, actions: Iterable[Hashable]) -> bytearray:
        """A 0/1 byte per action of the space, 1 for each of ``actions``."""
        flags = bytearray(len(self))
        index = self._index
        for action in actions:
            flags[index[action]] = 1
        return flags


SEQUENTIAL = "sequential"
SIMULTANEOUS = "simultaneous"


@dataclass(frozen=True, slots=True)
class GameType:
    """Static facts about a game's shape, for clients, bots and RL adapters.

    ``dynamics`` is ``sequential`` (one seat acts at a time) or ``simultaneous`` (some rounds ask
    several seats at once, each unaware of the others' choices until the round resolves).
    ``scores`` says in words what ``Result.scores`` hold (documentation, not a view). ``max_actions``
    bounds the number of actions in one game for any allowed configuration: drivers use it to stop a
    runaway game and RL adapters to size episodes."""

    dynamics: str
    chance: bool
    hidden_information: bool
    min_players: int
    max_players: int
    scores: str
    max_actions: int

    def to_json(self) -> dict[str, Any]:
        # A dict of fields like web/live.py's Seat.public on purpose: each names its own fields.
        return {
            "dynamics": self.dynamics,
            "chance": self.chance,
            "hidden_information": self.hidden_information,
            "min_players": self.min_players,
            "max_players": self.max_players,
            "scores": self.scores,
            "max_actions": self.max_actions,
        }
