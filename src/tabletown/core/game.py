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
* ``state.view(seat, since)`` is JSON data (numbers, ids, enums; never a sentence) holding only what
  ``seat`` may know (``None`` is a spectator), with the typed events that seat may see from ``since``.
* ``game.action_space(n, options)`` fixes every action's index; ``state.legal_mask(seat)`` marks the
  legal ones and ``state.is_legal(seat, action)`` asks without applying.
* ``state.to_json()`` / ``game.state_from_json(doc)`` save and restore a position exactly.
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
from typing import TYPE_CHECKING, Any, ClassVar, Self

from .errors import ActionError, IllegalAction, MalformedAction, OptionError
from .events import Event, visible_events
from .options import Option, resolve_options
from .rng import SeededRNG
from .spaces import ActionSpace, GameType

if TYPE_CHECKING:
    from rich.console import RenderableType

    from .words import Names

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


MAX_MOVE_TEXT = 200


class State(ABC):
    """One position of a game. Subclasses keep their data small and cheap to copy."""

    def __init_subclass__(cls, **kwargs: Any) -> None:
        """Every game's ``parse_action`` is guarded once, here: over-long text is refused before the
        game sees it, and a parser that trips on odd input (``int("²")``, a number of thousands of
        digits) raises MalformedAction instead of a bare ValueError."""
        super().__init_subclass__(**kwargs)
        parse = cls.__dict__.get("parse_action")
        if parse is not None and not getattr(parse, "_guarded", False):
            cls.parse_action = _guard_parser(parse)  # type: ignore[method-assign,assignment]  # wraps the class's own

    game: ClassVar[Game]
    num_players: int
    options: dict[str, Any]
    seed: int
    rng: SeededRNG
    log: list[Event]
    # Saved positions (core.snapshot): classes a position may contain besides builtins, and the
    # attributes derived from the options (shared tables) that a fresh game rebuilds instead.
    snapshot_types: ClassVar[tuple[type, ...]] = ()
    static_slots: ClassVar[tuple[str, ...]] = ()

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

    def is_secret(self, player: int, action: Action) -> bool:
        """Whether ``action``, taken now by ``player``, is hidden from the other seats and spectators
        (a secret choice of a simultaneous round, a vote). Servers withhold a secret move's text from
        everyone but its seat until the game is over; its effects show only as the views allow. The
        default (False) fits games whose every move is made in the open."""
        return False

    def is_legal(self, player: int, action: Action) -> bool:
        """Whether ``apply(player, action)`` would be accepted now; changes nothing."""
        try:
            return action in self.legal_actions(player)
        except TypeError:
            return False

    def legal_mask(self, player: int) -> bytearray:
        """One byte per action of the game's fixed action space: 1 where the action is legal now."""
        return self.game.action_space(self.num_players, self.options).mask(self.legal_actions(player))

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
    def view(self, player: int | None, since: int = 0) -> dict[str, Any]:
        """The game as ``player`` (None: a spectator) may know it, as JSON data: numbers, ids and
        enums, never sentences. ``events`` holds the events that seat may see from log index
        ``since`` on; ``event_count`` is the log's length, the ``since`` of the next call."""

    def observation(self, player: int) -> Any:
        """What ``player`` may see, as a list of floats or a 1-D float32 NumPy array of fixed length
        (``game.observation_size``), for learning agents (tabletown.rl). Built from the seat's
        information only. A game provides it as ``observation(state, player)`` in its package's
        ``observe`` module, found here on the first call (it needs NumPy, which playing and serving
        do not), or by overriding this method."""
        observe = _OBSERVERS.get(type(self))
        if observe is None:
            observe = _find_observer(type(self))
        return observe(self, player)

    def draft(self, player: int, steps: list[str]) -> dict[str, Any]:
        """Where the unsent ``steps`` (notation) of ``player``'s current decision would lead, as data.

        For games whose one decision is composed of several small steps that a person clicks
        through and may take back before sending them together (New Las Vegas' round): the answer
        holds the seat's position after the steps, the next steps on offer and whatever preview
        the game gives, and changes nothing. Only what ``player`` may see goes in. A game without
        such decisions keeps this default, which refuses."""
        raise IllegalAction("draft.unsupported", "{game} has no drafts", game=type(self).__name__)

    def combine(self, player: int, actions: Sequence[Action]) -> Action | None:
        """One action that applies ``actions``, steps ``player`` takes one after another in the
        same secret part of a round, all at once (all of them or none); None when the game has no
        such action (the default). A server stores a bot's whole secret round as one move this
        way: the move count is public, and the number of steps would tell the other seats what
        kind of round the bot chose before they choose theirs (the browser sends a person's round
        as one move for the same reason)."""
        return None

    def events(self, player: int | None, since: int = 0) -> list[dict[str, Any]]:
        """The events ``player`` may see, from log index ``since`` on, as JSON."""
        return visible_events(self.log, player, since)

    @abstractmethod
    def clone(self) -> Self: ...

    def determinize(self, player: int, seed: int) -> Self:
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

    # -- saved positions -------------------------------------------------------------------------------
    def to_json(self) -> dict[str, Any]:
        """The whole position as a JSON document (see core.snapshot); ``game.state_from_json``
        restores it exactly, hidden parts and RNG position included."""
        from .snapshot import save

        return save(self)

    def check_snapshot(self) -> None:
        """Called on a freshly loaded position: raise if it is inconsistent. The default checks that
        the position can list its moves and draw its views; games add their own invariants."""
        for seat in self.to_act:
            self.legal_actions(seat)
        for seat in (None, *range(self.num_players)):
            self.view(seat)

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
                "turn.not_your_turn",
                "seat {seat} does not act now (waiting for {waiting})",
                seat=player,
                waiting=self.to_act,
            )

    def _base_view(self, player: int | None, since: int = 0) -> dict[str, Any]:
        result = self.result()
        return {
            "game": self.game.name,
            "seat": player,
            "num_players": self.num_players,
            "options": dict(self.options),
            "to_act": list(self.to_act),
            "over": self.is_over,
            "result": result.to_json() if result else None,
            "events": visible_events(self.log, player, since),
            "event_count": len(self.log),
        }


BotFactory = Callable[[int], "Bot"]


class Bot(ABC):
    """A player that picks a legal action.

    Drivers never hand a bot the live game: ``choose`` receives a copy made for its seat by
    ``core.session.seat_state`` (hidden information resampled, the game seed withheld, private
    events of other seats removed), so a bot can neither read another seat's secrets nor change the
    real game. Bots that need only the legal moves set ``needs_state = False`` and receive a
    :class:`~tabletown.core.session.LegalMoves` instead, which costs nothing to make."""

    name: str = "bot"
    needs_state: ClassVar[bool] = True

    def __init__(self, seed: int = 0) -> None:
        self.rng = random.Random(seed)

    @abstractmethod
    def choose(self, state: State, player: int) -> Action: ...


class Game(ABC):
    """Static facts of a game: name, player counts, options, and how to start and show it."""

    name: ClassVar[str]
    title: ClassVar[str]
    # The name in CamelCase for identifiers such as the Gymnasium ids (``tabletown/<camel>-v0``);
    # empty: ``name`` capitalized.
    camel_name: ClassVar[str] = ""
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
                "{game} takes {low}-{high} players with these options, not {count}",
                game=self.title,
                low=low,
                high=high,
                count=num_players,
            )
        self.check_options(num_players, resolved)
        return resolved

    def title_for(self, num_players: int, options: Mapping[str, Any] | None = None, lang: str = "en") -> str:
        """The game's name for this set-up in ``lang``, as its players call it (the lobby and table
        pages show it): ``title`` unless an option or the player count changes the game ("Machi Koro
        with Harbor", a solo game). Games override it; ``option_value`` reads an option or its default."""
        from .i18n import gettext

        return gettext(self.name, lang, self.title)

    def option_value(self, options: Mapping[str, Any] | None, name: str) -> Any:
        """The value of option ``name`` in ``options`` (not necessarily resolved), else its default."""
        if options and name in options:
            return options[name]
        for option in self.options:
            if option.name == name:
                return option.default
        raise KeyError(name)

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
            raise OptionError("the seed must be a non-negative whole number, not {seed!r}", seed=seed)
        return self.create_state(num_players, resolved, seed)

    @abstractmethod
    def create_state(self, num_players: int, options: dict[str, Any], seed: int) -> State:
        """Build the start position (options already validated)."""

    @property
    def game_type(self) -> GameType:
        """The game's shape: turns or simultaneous rounds, chance, hidden information, scores."""
        raise NotImplementedError(f"{self.name} does not state its game_type")

    def action_space(self, num_players: int, options: Mapping[str, Any] | None = None) -> ActionSpace:
        """Every action that can ever be legal with this set-up, in a fixed order (cached; the set-up
        is validated the first time it is seen)."""
        cache: dict[Any, ActionSpace] = self.__dict__.setdefault("_cache_spaces", {})
        try:
            key = (num_players, tuple(sorted((options or {}).items())))
            space = cache.get(key)
        except TypeError:  # unhashable option values: validation below explains what is wrong
            key, space = None, None
        if space is None:
            resolved = self.resolve_options(num_players, options)
            full = (num_players, tuple(sorted(resolved.items())))
            space = cache.get(full)
            if space is None:
                space = cache[full] = self.build_action_space(num_players, resolved)
            if key is not None:
                cache[key] = space
        return space

    def build_action_space(self, num_players: int, options: dict[str, Any]) -> ActionSpace:
        """Build the fixed action space for a validated set-up (``action_space`` caches it)."""
        raise NotImplementedError(f"{self.name} has no fixed action space")

    def observation_size(self, num_players: int, options: Mapping[str, Any] | None = None) -> int:
        """Length of ``state.observation(seat)`` for this set-up (fixed for the whole game): measured
        once on a fresh game and cached. NotImplementedError if the game has no observation."""
        resolved = self.resolve_options(num_players, options)
        key = (num_players, tuple(sorted(resolved.items())))
        cache: dict[Any, int] = self.__dict__.setdefault("_cache_observation_sizes", {})
        if key not in cache:
            cache[key] = len(self.new_game(num_players, resolved, 0).observation(0))
        return cache[key]

    def state_from_json(self, data: Any) -> State:
        """Restore a position saved by ``state.to_json()``; SnapshotError if it is malformed or altered."""
        from .snapshot import load

        return load(self, data)

    def bots(self) -> Mapping[str, BotFactory]:
        """Game-specific bots by name (``greedy``, ``strategy:...``); generic ones live in tabletown.bots."""
        return {}

    def describe_event(self, event: Mapping[str, Any], names: Names | None = None, lang: str = "en") -> str:
        """One event of a view (``{"i", "kind", ...data}``) in words. Games word their events in
        their render module; the default shows the raw data. ``names`` (core.words.Names) names the
        seats by their players, "you" for the reader; without it seats are P0, P1... (the terminal).
        ``lang`` is one of core.i18n.LANGUAGES (the game's catalog; English when it has none)."""
        data = ", ".join(f"{k}={v}" for k, v in event.items() if k not in ("i", "kind", "private"))
        return f"{event.get('kind')}: {data}" if data else str(event.get("kind"))

    def describe_error(self, error: ActionError | OptionError, lang: str = "en") -> str:
        """A refused move's or set-up's message in ``lang`` (the web's error answers, the terminal's
        prompt): its template from the game's catalog, or the shared one for the engine's own."""
        if lang == "en":
            return error.message
        from .i18n import refusal  # Babel loads only when a language is asked for

        return refusal(error.template, error.fields, self.name, lang, self.printed_name)

    def printed_name(self, key: str, lang: str = "en") -> str:
        """A printed name (card, colour, effect...) in ``lang``: the entry ``key`` of the game's
        ``glossary.json`` (beside its package's modules), ``key`` itself when it has none."""
        from .i18n import glossary_of, glossary_term

        return glossary_term(glossary_of(type(self).__module__), key, lang)

    def rivals(self, view: Mapping[str, Any], lang: str = "en") -> list[tuple[str, float, int]]:
        """The opponents of a finished game that hold no seat (solo New Las Vegas' ACME), each as
        (name in ``lang``, score, rank on the seats' scale), for the result table; none by default."""
        return []

    def status_line(self, view: Mapping[str, Any], lang: str = "en") -> str:
        """One short line for the prompt (it must fit 80 columns): the viewer's own essentials. Games
        override it with their own (coins, score, phase); the default says who acts."""
        acting = ", ".join(str(seat) for seat in view.get("to_act", ()))
        return f"you are seat {view.get('seat')}; to act: {acting or 'nobody'}"

    def render(
        self, view: Mapping[str, Any], lang: str = "en", all_events: bool = False, height: int | None = None
    ) -> RenderableType:
        """A Rich renderable of a view in ``lang`` (defaults to its JSON). The board's log words the
        view's newest few events, as many as fit a screen with the board (a replay, a redraw), or
        with ``all_events`` every one of them: the terminal's prompt asks for a view holding just
        the events its seat has not been shown yet, and none of those may be left out. With
        ``height`` (the terminal's prompt) the board should fit that many rows: its parts that the
        decision does not need fold (core.screen: the log to its newest events with a count of the
        others, long tables to a summary), and what folded is there for the 'log' and 'board'
        commands."""
        from rich.pretty import Pretty

        return Pretty(view)


def _guard_parser(parse: Callable[[State, str, int], Action]) -> Callable[[State, str, int], Action]:
    def parse_action(self: State, text: str, player: int) -> Action:
        if not isinstance(text, str):
            raise MalformedAction(
                "notation.not_text", "a move is written as text, not {kind}", kind=type(text).__name__
            )
        if len(text) > MAX_MOVE_TEXT:
            raise MalformedAction(
                "notation.too_long", "a move is at most {limit} characters long", limit=MAX_MOVE_TEXT
            )
        try:
            return parse(self, text, player)
        except (ValueError, OverflowError, IndexError, KeyError, TypeError) as exc:
            if isinstance(exc, MalformedAction | IllegalAction):
                raise
            raise MalformedAction(
                "notation.malformed", "cannot read the move {text!r}", text=text[:40]
            ) from None

    parse_action._guarded = True  # type: ignore[attr-defined]
    parse_action.__doc__ = parse.__doc__
    parse_action.__name__ = parse.__name__
    return parse_action


def parse_action_or_raise(text: str, table: Mapping[str, Action], rule: str = "notation.unknown") -> Action:
    """Look notation up in a precomputed table (a helper for games with finite action sets)."""
    action = table.get(text.strip().lower())
    if action is None:
        raise MalformedAction(rule, "not a move of this game: {text!r}", text=text)
    return action


_OBSERVERS: dict[type, Callable[[Any, int], Any]] = {}


def _find_observer(cls: type) -> Callable[[Any, int], Any]:
    """``observation`` of the ``observe`` module beside ``cls``'s module (the contract's place for
    it), remembered per State class."""
    import importlib

    package = cls.__module__.rpartition(".")[0]
    try:
        module = importlib.import_module(package + ".observe")
    except ModuleNotFoundError as exc:
        if exc.name != package + ".observe":
            raise  # NumPy missing: pip install 'tabletown[research]'
        module = None
    observe = getattr(module, "observation", None)
    if observe is None:
        raise NotImplementedError(
            f"{cls.__name__} has no numeric observation (no {package}.observe.observation)"
        )
    _OBSERVERS[cls] = observe
    return observe  # type: ignore[no-any-return]
