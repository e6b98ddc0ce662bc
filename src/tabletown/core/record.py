"""Game records: options, seats, seed and the actions in text notation. The move log is the game."""

from __future__ import annotations

import hashlib
import json
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from .. import __version__
from .errors import ActionError, OptionError, RecordError
from .game import State
from .registry import get_game


@dataclass
class Record:
    game: str
    options: dict[str, Any]
    seats: list[str]
    seed: int
    actions: list[tuple[int, str]] = field(default_factory=list)
    engine_version: str = __version__
    result: dict[str, Any] | None = None
    final_digest: str | None = None

    @classmethod
    def start(cls, state: State, seats: list[str]) -> Record:
        return cls(game=state.game.name, options=dict(state.options), seats=list(seats), seed=state.seed)

    def add(self, player: int, text: str) -> None:
        self.actions.append((player, text))

    def finish(self, state: State) -> None:
        result = state.result()
        self.result = result.to_json() if result else None
        self.final_digest = state_digest(state)

    def to_json(self) -> dict[str, Any]:
        data = asdict(self)
        data["actions"] = [[p, t] for p, t in self.actions]
        return data

    def save(self, path: str | Path) -> None:
        Path(path).write_text(
            json.dumps(self.to_json(), indent=1, ensure_ascii=False) + "\n", encoding="utf-8"
        )

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Record:
        try:
            actions = [(int(p), str(t)) for p, t in data["actions"]]
            return cls(
                game=str(data["game"]),
                options=dict(data.get("options") or {}),
                seats=[str(s) for s in data["seats"]],
                seed=int(data["seed"]),
                actions=actions,
                engine_version=str(data.get("engine_version", "?")),
                result=data.get("result"),
                final_digest=data.get("final_digest"),
            )
        except (KeyError, TypeError, ValueError) as exc:
            raise RecordError(f"not a Tabletown record: {exc}") from None

    @classmethod
    def load(cls, path: str | Path) -> Record:
        try:
            data = json.loads(Path(path).read_text(encoding="utf-8"))
        except (OSError, json.JSONDecodeError) as exc:
            raise RecordError(f"cannot read record {path}: {exc}") from None
        return cls.from_json(data)

    def initial_state(self) -> State:
        try:
            return get_game(self.game).new_game(len(self.seats), self.options, self.seed)
        except OptionError as exc:
            raise RecordError(f"record's set-up is refused: {exc}") from None

    def replay(self, upto: int | None = None) -> State:
        """Re-apply the first ``upto`` actions (all by default) to the initial state."""
        state = self.initial_state()
        for index, (player, text) in enumerate(self.actions[:upto]):
            apply_recorded(state, index, player, text)
        return state


def apply_recorded(state: State, index: int, player: int, text: str) -> None:
    try:
        state.apply_text(player, text)
    except ActionError as exc:
        raise RecordError(f"action {index + 1} ({player}: {text!r}) is refused: {exc}") from None


def state_digest(state: State) -> str:
    """A hash of every seat's view plus the spectator's: equal digests mean identical views."""
    views = [state.view(None)] + [state.view(p) for p in range(state.num_players)]
    blob = json.dumps(views, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    return hashlib.sha256(blob.encode()).hexdigest()


def state_fingerprint(state: State) -> bytes:
    """Every bit of a state, hidden parts included (deck order, RNG position, pending choices).

    ``state_digest`` compares only what the views show; this is the stronger check that a refused
    action changed nothing at all. Attributes whose names start with ``_cache`` are memoization, not
    game state, and are left out. It pickles, so it is for tests and debugging, not hot paths.
    """
    import pickle

    fields: dict[str, object] = {}
    for cls in type(state).__mro__:
        for name in getattr(cls, "__slots__", ()):
            if not name.startswith("_cache") and hasattr(state, name):
                fields[name] = getattr(state, name)
    for name, value in getattr(state, "__dict__", {}).items():
        if not name.startswith("_cache"):
            fields[name] = value
    return pickle.dumps(sorted(fields.items()), protocol=pickle.HIGHEST_PROTOCOL)


def verify(record: Record) -> list[str]:
    """Replay ``record``; return a list of differences (empty when it replays exactly)."""
    problems: list[str] = []
    try:
        state = record.replay()
    except RecordError as exc:
        return [str(exc)]
    result = state.result()
    got = result.to_json() if result else None
    if record.result is not None and got != record.result:
        problems.append(f"result differs: recorded {record.result}, replayed {got}")
    if record.final_digest is not None and state_digest(state) != record.final_digest:
        problems.append("final views differ from the recorded digest")
    # A second, independent replay must agree with the first (no hidden non-determinism).
    if state_digest(record.replay()) != state_digest(state):
        problems.append("two replays of the same record differ")
    return problems
