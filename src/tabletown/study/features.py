"""The contract between the generic study and a game's ``study.py``, and the replay path.

A game's ``study.py`` (next to its ``game.py``) defines:

* ``Watcher``: a subclass of :class:`GameWatcher` that follows one game action by action;
* ``PLAN``: the default study, a list of ``(players, lineup, options)`` set-ups (lineup: bot names,
  one per seat, or a single name for every seat);
* ``TURN``: what one "turn" of its game lengths is, in a few words (shown in the report).

The watcher records per seat ``open`` (opening features: name -> short text), ``use`` (item -> how
many times the seat used it: cards bought, kinds of move) and, at the start of every turn, the values
of its ``tracks`` (per seat; the first track is the one that decides who leads). ``finish`` returns
``{"study": {...}}``, the part the arena's runner merges into the game's line.
"""

from __future__ import annotations

import importlib
from collections.abc import Sequence
from types import ModuleType
from typing import Any, Generic, TypeVar

from ..core.game import Game, State
from ..core.record import apply_recorded

FORMAT = 1  # bump when what watchers record changes, so old folders are re-derived
POINTS = 11  # tracks are kept at 0%, 10%, ..., 100% of the game's turns


S = TypeVar("S", bound=State)  # the game's own State class: a watcher reads its fields


class GameWatcher(Generic[S]):
    """Follows one game; subclasses fill ``open``, ``use`` and call :meth:`new_turn` / :meth:`sample`."""

    tracks: tuple[str, ...] = ()
    version = 1  # bump in a game's watcher when what it records changes: its old lines are re-derived

    def __init__(self, state: S) -> None:
        self.players = state.num_players
        self.turns = 0
        self.open: list[dict[str, str]] = [{} for _ in range(self.players)]
        self.use: list[dict[str, int]] = [{} for _ in range(self.players)]
        self.samples: list[dict[str, list[float]]] = []
        self.sample(state)

    # -- for subclasses ---------------------------------------------------------------------------------
    def see(self, state: S, seat: int, text: str, simultaneous: bool) -> None:  # pragma: no cover
        raise NotImplementedError

    def values(self, state: S) -> dict[str, list[float]]:
        """Each track's value per seat, now."""
        return {}

    def count(self, seat: int, item: str, times: int = 1) -> None:
        uses = self.use[seat]
        uses[item] = uses.get(item, 0) + times

    def first(self, seat: int, name: str, value: str) -> None:
        """Set an opening feature unless the seat already has it."""
        self.open[seat].setdefault(name, value)

    def new_turn(self, state: S) -> None:
        """A turn starts: called on the turn's first action. Watchers hear an action once it has been
        applied, so the tracks are sampled just after it (in Machi Koro, after the roll paid out)."""
        self.turns += 1
        self.sample(state)

    def sample(self, state: S) -> None:
        if self.tracks:
            self.samples.append(self.values(state))

    def defaults(self) -> dict[str, str]:
        """Opening features a seat that never reached them gets (e.g. ``{"first_buy": "none"}``)."""
        return {}

    # -- the record ---------------------------------------------------------------------------------------
    def finish(self, state: S) -> dict[str, Any]:
        self.sample(state)
        fallback = self.defaults()
        opens = [{**fallback, **seat} for seat in self.open]
        track: dict[str, list[list[float]]] = {}
        if self.samples:
            last = len(self.samples) - 1
            picks = [round(k * last / (POINTS - 1)) for k in range(POINTS)]
            for name in self.tracks:
                track[name] = [[_num(v) for v in self.samples[i][name]] for i in picks]
        return {
            "study": {
                "format": FORMAT,
                "version": self.version,
                "turns": self.turns,
                "open": [dict(sorted(o.items())) for o in opens],
                "use": [dict(sorted(u.items())) for u in self.use],
                "track": track,
            }
        }


def _num(value: float) -> float:
    value = round(float(value), 4)
    return int(value) if value == int(value) else value


def study_module(game: Game) -> ModuleType:
    """The game's ``study.py``: the module beside the one that defines the game's class."""
    package = type(game).__module__.rpartition(".")[0]
    try:
        return importlib.import_module(package + ".study")
    except ModuleNotFoundError as exc:
        if exc.name != package + ".study":
            raise
        raise LookupError(f"{game.name} has no study module ({package}.study)") from None


def watcher_factory(game: Game) -> type[GameWatcher[Any]]:
    return study_module(game).Watcher


def watch(state: State) -> GameWatcher[Any]:
    """A watcher for ``state``'s game (the arena runner's ``watch`` hook; picklable, module-level)."""
    return watcher_factory(state.game)(state)


def extract(
    game: Game, players: int, options: dict[str, Any], seed: int, actions: Sequence[tuple[int, str]]
) -> dict[str, Any]:
    """Replay a record's actions and return what the watcher saw (the same as during play)."""
    state = game.new_game(players, options, seed)
    watcher = watcher_factory(game)(state)
    for index, (seat, text) in enumerate(actions):
        simultaneous = len(state.to_act) > 1
        apply_recorded(state, index, seat, text)
        watcher.see(state, seat, text, simultaneous)
    return watcher.finish(state)["study"]
