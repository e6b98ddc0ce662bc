"""Game records: options, seats, seed and the actions in text notation. The move log is the game."""

from __future__ import annotations

import hashlib
import json
import os
import re
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from .. import __version__
from .errors import ActionError, OptionError, RecordError
from .fairness import check_commitment
from .game import State
from .registry import get_game

MAX_FILE_BYTES = 64_000_000
MAX_SEATS = 12
MAX_ACTIONS = 2_000_000
MAX_ACTION_TEXT = 200


def _field(data: dict[str, Any], name: str, kind: type) -> Any:
    if name not in data:
        raise RecordError(f"not a Tabletown record: it has no {name!r}")
    value = data[name]
    if type(value) is not kind:
        article = "an" if kind.__name__[0] in "aeiou" else "a"
        raise RecordError(f"the record's {name!r} must be {article} {kind.__name__}, not {_short(value)}")
    return value


# C0 and C1 control characters (ESC among them), which no record of ours holds: printed by
# `tabletown replay` they would be the terminal's commands, not text (found after security audit 13: a shared
# record's seat could clear the screen, retitle the window or write the clipboard).
_CONTROL = re.compile("[\x00-\x1f\x7f-\x9f]")


def _control_text(value: Any, depth: int = 0) -> str | None:
    """The first text (key or value) anywhere in ``value`` that holds a control character."""
    if isinstance(value, str):
        return value if _CONTROL.search(value) else None
    if depth > 32:
        return None  # json.loads has its own nesting limit; nothing of ours nests this deep
    if isinstance(value, dict):
        for key, item in value.items():
            found = _control_text(key, depth + 1) or _control_text(item, depth + 1)
            if found is not None:
                return found
    elif isinstance(value, list):
        for item in value:
            found = _control_text(item, depth + 1)
            if found is not None:
                return found
    return None


def _short(value: Any, limit: int = 40) -> str:
    if isinstance(value, int) and not isinstance(value, bool) and value.bit_length() > 200:
        return "a number too long to show"
    if isinstance(value, str):
        # An unpaired surrogate cannot be encoded in a JSON answer or a terminal: shown escaped.
        text = value.encode("utf-8", "backslashreplace").decode("utf-8")
    else:
        text = repr(value[:limit] if isinstance(value, list) else value)
    return text if len(text) <= limit else text[: limit - 3] + "..."


def _refuse_constant(name: str) -> Any:
    raise RecordError(f"{name} is not a number a record may hold")


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
    # Provable fairness (online tables): the SHA-256 commitment published before the first move and
    # the salt revealed with the seed at the end (core.fairness); None in local records.
    commitment: str | None = None
    salt: str | None = None
    seed_chosen: bool | None = None

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
        for name in ("commitment", "salt", "seed_chosen"):  # only online records carry them
            if data[name] is None:
                del data[name]
        return data

    def save(self, path: str | Path, private: bool = False) -> None:
        """Write the record as JSON; ``private``: readable by its owner only (an unfinished game's
        record holds its seed and every seat's hidden choices)."""
        text = json.dumps(self.to_json(), indent=1, ensure_ascii=False) + "\n"
        if not private:
            Path(path).write_text(text, encoding="utf-8")
            return
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        os.fchmod(fd, 0o600)  # a file that already existed keeps its mode through O_CREAT
        with os.fdopen(fd, "w", encoding="utf-8") as file:
            file.write(text)

    @classmethod
    def from_json(cls, data: Any) -> Record:
        """Build a record from a parsed document, checking its whole shape first (RecordError)."""
        if not isinstance(data, dict):
            raise RecordError("not a Tabletown record: the document is not a JSON object")
        bad = _control_text(data)
        if bad is not None:
            raise RecordError(f"the record holds a control character, in {ascii(bad[:40])}")
        game = _field(data, "game", str)
        seed = _field(data, "seed", int)
        if not 0 <= seed < 2**63:
            raise RecordError(
                f"the record's seed must be a whole number from 0 to 2**63-1, not {_short(seed)}"
            )
        seats = _field(data, "seats", list)
        if not 1 <= len(seats) <= MAX_SEATS or not all(isinstance(s, str) and len(s) <= 100 for s in seats):
            raise RecordError(f"the record's seats must be 1-{MAX_SEATS} short texts")
        options = data.get("options", {})
        if options is None:
            options = {}
        if not isinstance(options, dict):
            raise RecordError("the record's options must be a JSON object")
        actions = _field(data, "actions", list)
        if len(actions) > MAX_ACTIONS:
            raise RecordError(f"the record has {len(actions)} actions; at most {MAX_ACTIONS} are read")
        pairs: list[tuple[int, str]] = []
        for number, pair in enumerate(actions, 1):
            if not (isinstance(pair, list) and len(pair) == 2):
                raise RecordError(f"action {number} is not a [seat, text] pair")
            seat, text = pair
            if type(seat) is not int or not 0 <= seat < len(seats):
                raise RecordError(f"action {number}: seat {_short(seat)} is not a seat of this game")
            if not isinstance(text, str) or len(text) > MAX_ACTION_TEXT:
                raise RecordError(
                    f"action {number}: the move must be a text of at most {MAX_ACTION_TEXT} characters"
                )
            pairs.append((seat, text))
        result = data.get("result")
        digest = data.get("final_digest")
        if result is not None and not isinstance(result, dict):
            raise RecordError("the record's result must be a JSON object")
        if digest is not None and not isinstance(digest, str):
            raise RecordError("the record's final digest must be a text")
        version = data.get("engine_version", "?")
        commitment, salt = data.get("commitment"), data.get("salt")
        for name, value in (("commitment", commitment), ("salt", salt)):
            if value is not None and not (isinstance(value, str) and 0 < len(value) <= 128):
                raise RecordError(f"the record's {name} must be a short text")
        seed_chosen = data.get("seed_chosen")
        if seed_chosen is not None and not isinstance(seed_chosen, bool):
            raise RecordError("the record's seed_chosen must be true or false")
        return cls(
            game=game,
            options=options,
            seats=list(seats),
            seed=seed,
            actions=pairs,
            engine_version=version if isinstance(version, str) else "?",
            result=result,
            final_digest=digest,
            commitment=commitment,
            salt=salt,
            seed_chosen=seed_chosen,
        )

    @classmethod
    def load(cls, path: str | Path) -> Record:
        """Read a record file: at most MAX_FILE_BYTES of UTF-8 JSON (absurd nesting is refused by the
        JSON parser's own recursion limit)."""
        try:
            with open(path, "rb") as handle:
                raw = handle.read(MAX_FILE_BYTES + 1)
        except OSError as exc:
            raise RecordError(f"cannot read record {path}: {exc.strerror or exc}") from None
        if len(raw) > MAX_FILE_BYTES:
            raise RecordError(f"{path} is larger than {MAX_FILE_BYTES // 1_000_000} MB: not a record")
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError:
            raise RecordError(f"{path} is not UTF-8 text: not a record") from None
        try:
            data = json.loads(text, parse_constant=_refuse_constant)
        except (json.JSONDecodeError, RecordError, RecursionError, ValueError) as exc:
            raise RecordError(f"{path} is not a JSON record: {_short(str(exc), 120)}") from None
        return cls.from_json(data)

    @property
    def version_matches(self) -> bool:
        """Whether the record was written by this engine version (older ones may replay differently)."""
        return self.engine_version == __version__

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
    action changed nothing at all, and that a saved position comes back exactly. Values are written
    with the saved-position encoding (core.snapshot), which keeps every type (a tuple stays a tuple)
    but not object identity, so two states that hold equal values in different objects agree.
    Attributes whose names start with ``_cache`` are memoization, not game state, and are left out.
    It is for tests and debugging, not hot paths.
    """
    import pickle

    from .snapshot import encode

    fields: dict[str, object] = {}
    for cls in type(state).__mro__:
        for name in getattr(cls, "__slots__", ()):
            if not name.startswith("_cache") and hasattr(state, name):
                fields[name] = getattr(state, name)
    for name, value in getattr(state, "__dict__", {}).items():
        if not name.startswith("_cache"):
            fields[name] = value
    parts: list[tuple[str, str | bytes]] = []
    for name, value in sorted(fields.items()):
        try:
            parts.append((name, json.dumps(encode(value), sort_keys=True)))
        except (TypeError, ValueError):  # a value the position encoding does not know: compare by pickle
            parts.append((name, pickle.dumps(value, protocol=pickle.HIGHEST_PROTOCOL)))
    return pickle.dumps(parts, protocol=pickle.HIGHEST_PROTOCOL)


def verify(record: Record) -> list[str]:
    """Replay ``record``; return a list of differences (empty when it replays exactly). A record whose
    set-up cannot even start raises RecordError: that is an unusable file, not a difference."""
    record.initial_state()
    problems: list[str] = []
    if record.commitment is not None:
        if record.salt is None:
            problems.append("the record has a fairness commitment but no salt to check it with")
        elif not check_commitment(record.seed, record.salt, record.commitment):
            problems.append(
                "the seed and salt do not match the commitment published before the first move:"
                " the dice and draws are not the ones promised"
            )
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
