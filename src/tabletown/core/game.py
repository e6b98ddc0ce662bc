"""The engine contract: static game facts (:class:`Game`) apart from the mutable :class:`State`.

Every game, bot, the arena, the CLI, the web server and the RL adapters speak only through these
two classes. A game plugs in by subclassing both and calling :func:`tabletown.core.registry.register`.

Contract in short (each game's tests check it):

* ``state.to_act`` is the tuple of seats that must act now (several in a simultaneous round, none
  when the game is over).
* ``state.legal_actions(seat)`` lists what that seat may do; ``state.apply(seat, action)`` does it,
  or raises :class:`~tabletown.core.errors.IllegalAction` naming the rule and leaves the state
  exactly as it was.
* Actions are small immutable hashable values; ``format_action``/``parse_action`` give a short text
  notation that round-trips.
* ``state.view(seat)`` is JSON-serialisable and holds only what ``seat`` may know (``None`` is a
  spectator). It includes the human-readable event log.
* ``state.clone()`` is cheap; all randomness comes from ``state.rng`` (a :class:`SeededRNG`), so
  options + seed + the action list replay exactly.
* ``state.determinize(seat, seed)`` returns a clone whose hidden information (deck orders, others'
  secret choices, future chance) is resampled consistently with what ``seat`` can see.
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from collections.abc import Callable, Hashable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar

from .errors import IllegalAction, MalformedAction, OptionError
from .options import Option, resolve_options
from .rng import SeededRNG

if TYPE_CHECKING:
    from rich.console import RenderableType

Action = Hashable


@dataclass(frozen=True, slots=True)
class Result:
    """Final outcome. ``ranks[seat]`` is 1 for the winner(s); tied seats share a rank."""

    scores: tuple[float, ...]
    ranks: tuple[int, ...]

    @property
    def winners(self) -> tuple[int, ...]:
        return tuple(seat for seat, rank in enumerate(self.ranks) if rank == 1)

    @classmethod
    def from_keys(cls, scores: Sequence[float], keys: Sequence[Any]) -> Result:
        """Rank seats by descending ``keys`` (tuples allowed, for tie-breaks); equal keys tie."""
        ranks = [1 + sum(1 for other in keys if other > mine) for mine in keys]
        return cls(tuple(scores), tuple(ranks))

    @classmethod
    def single_winner(cls, num_players: int, winner: int, scores: Sequence[float] | None = None) -> Result:
        ranks = tuple(1 if seat == winner else 2 for seat in range(num_players))
        if scores is None:
            scores = tuple(1.0 if seat == winner else 0.0 for seat in range(num_players))
        return cls(tuple(scores), ranks)

    def to_json(self) -> dict[str, Any]:
        return {"scores": list(self.scores), "ranks": list(self.ranks), "winners": list(self.winners)}


class State(ABC):
    """One position of a game. Subclasses keep their data small and cheap to copy."""

    game: ClassVar[Game]
    num_players: int
    options: dict[str, Any]
    seed: int
    rng: SeededRNG
    log: list[str]

    # -- who acts, what they may do ------------------------------------------------------------
    @property
    @abstractmethod
    def to_act(self) -> tuple[int, ...]:
        """Seats that must act now, ascending; empty once the game is over."""

    @abstractmethod
    def legal_actions(self, player: int) -> list[Action]:
        """Every action ``player`` may take now (empty if that seat need not act)."""

    @abstractmethod
    def apply(self, player: int, action: Action) -> None:
        """Apply ``action`` for ``player`` or raise IllegalAction without changing anything."""

    # -- outcome ---------------------------------------------------------------------------------
    @property
    @abstractmethod
    def is_over(self) -> bool: ...

    @abstractmethod
    def result(self) -> Result | None:
        """The final result, or None while the game goes on."""

    def heuristic(self) -> list[float] | None:
        """Optional: each seat's progress in [0, 1] (higher is better) from public information, for
        search bots that stop a playout early. None (the default) means the game offers no estimate."""
        return None

    # -- information -----------------------------------------------------------------------------
    @abstractmethod
    def view(self, player: int | None) -> dict[str, Any]:
        """JSON-serialisable picture of the game as ``player`` (None: a spectator) may know it."""

    @abstractmethod
    def clone(self) -> State: ...

    def determinize(self, player: int, seed: int) -> State:
        """A clone with hidden information resampled as ``player`` might believe it to be.

        The default fits games whose only hidden information is future chance: it reseeds the RNG.
        Games with hidden decks or secret choices override this.
        """
        twin = self.clone()
        twin.rng = SeededRNG(seed)
        return twin

    # -- notation ----------------------------------------------------------------------------------
    @abstractmethod
    def format_action(self, action: Action) -> str: ...

    @abstractmethod
    def parse_action(self, text: str, player: int) -> Action:
        """Parse notation into an action (raise MalformedAction); legality is checked by apply."""

    def apply_text(self, player: int, text: str) -> Action:
        action = self.parse_action(text, player)
        self.apply(player, action)
        return action

    # -- helpers for subclasses ---------------------------------------------------------------------
    def _require_turn(self, player: int) -> None:
        if player not in self.to_act:
            if self.is_over:
                raise IllegalAction("game.over", "the game is over")
            raise IllegalAction(
                "turn.not_your_turn", f"seat {player} does not act now (waiting for {self.to_act})"
            )

    def _base_view(self, player: int | None) -> dict[str, Any]:
        result = self.result()
        return {
            "game": self.game.name,
            "seat": player,
            "num_players": self.num_players,
            "options": dict(self.options),
            "to_act": list(self.to_act),
            "over": self.is_over,
            "result": result.to_json() if result else None,
            "log": list(self.log),
        }


BotFactory = Callable[[int], "Bot"]


class Bot(ABC):
    """A player that picks a legal action. Bots must use only what their seat may know:
    public state, their own hidden information, and ``state.determinize`` for the rest."""

    name: str = "bot"

    def __init__(self, seed: int = 0) -> None:
        self.rng = random.Random(seed)

    @abstractmethod
    def choose(self, state: State, player: int) -> Action: ...


class Game(ABC):
    """Static facts of a game: name, player counts, options, and how to start and show it."""

    name: ClassVar[str]
    title: ClassVar[str]
    min_players: ClassVar[int]
    max_players: ClassVar[int]
    options: ClassVar[tuple[Option, ...]] = ()
    # (player count, options) pairs that `tabletown bench` measures.
    bench_configs: ClassVar[tuple[tuple[int, Mapping[str, Any]], ...]] = ()
    # Notation help shown to humans in the terminal.
    notation_help: ClassVar[str] = ""
    # Per-strength overrides of the generic search bot's settings (see tabletown.bots.mcts.SearchConfig),
    # e.g. {"hard": {"root": "halving", "iterations": 300}}; measured per game in docs/bots.md.
    search_tuning: ClassVar[Mapping[str, Mapping[str, Any]]] = {}

    def resolve_options(self, num_players: int, options: Mapping[str, Any] | None = None) -> dict[str, Any]:
        """Validate the player count and options up front; returns options with defaults filled."""
        resolved = resolve_options(self.options, options)
        low, high = self.player_range(resolved)
        if not low <= num_players <= high:
            raise OptionError(
                f"{self.title} takes {low}-{high} players with these options, not {num_players}"
            )
        self.check_options(num_players, resolved)
        return resolved

    def player_range(self, options: Mapping[str, Any]) -> tuple[int, int]:
        """Player counts allowed under these options (games override when an option changes it)."""
        return self.min_players, self.max_players

    def check_options(self, num_players: int, options: Mapping[str, Any]) -> None:
        """Cross-option checks; raise OptionError. Default: nothing to check."""
        return None

    def new_game(
        self, num_players: int, options: Mapping[str, Any] | None = None, seed: int | None = None
    ) -> State:
        resolved = self.resolve_options(num_players, options)
        if seed is None:
            seed = random.SystemRandom().randrange(2**63)
        if isinstance(seed, bool) or not isinstance(seed, int) or seed < 0:
            raise OptionError(f"the seed must be a non-negative whole number, not {seed!r}")
        return self.create_state(num_players, resolved, seed)

    @abstractmethod
    def create_state(self, num_players: int, options: dict[str, Any], seed: int) -> State:
        """Build the start position (options already validated)."""

    def bots(self) -> Mapping[str, BotFactory]:
        """Game-specific bots by name (``greedy``, ``strategy:...``); generic ones live in tabletown.bots."""
        return {}

    def render(self, view: Mapping[str, Any]) -> RenderableType:
        """A Rich renderable of a view (defaults to its JSON)."""
        from rich.pretty import Pretty

        return Pretty(view)


def parse_action_or_raise(text: str, table: Mapping[str, Action], rule: str = "notation.unknown") -> Action:
    """Look notation up in a precomputed table (a helper for games with finite action sets)."""
    action = table.get(text.strip().lower())
    if action is None:
        raise MalformedAction(rule, f"not a move of this game: {text!r}")
    return action
