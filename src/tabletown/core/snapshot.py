"""Saved positions: any state as a JSON document and back, hidden parts and RNG position included.

The encoding is generic and exact: Python lists stay JSON arrays, and every other container carries a
one-letter tag so that a tuple comes back a tuple, a set a set, a dict with int keys a dict with int
keys, and a named tuple or slotted object its own class. Only classes a game declares in its state's
``snapshot_types`` (plus the core's own) can be rebuilt, so a document cannot make us build anything
else. Attributes a game derives from its options (shared tables) are listed in ``static_slots``;
they are not saved but rebuilt by starting a fresh game with the same set-up.

A document is refused with :class:`SnapshotError` when it is not one of ours, was edited (the
checksum no longer matches), names unknown fields or classes, gives a field a value of another type
than the game uses, or fails the game's own consistency check (``State.check_snapshot``).
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import math
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from .errors import OptionError, SnapshotError
from .events import Event
from .rng import SeededRNG

if TYPE_CHECKING:
    from .game import Game, State

FORMAT = "tabletown-position"
VERSION = 1
MAX_DEPTH = 64
CORE_TYPES: tuple[type, ...] = (Event,)


def snapshot_fields(state: State) -> list[str]:
    """Names of the attributes that make up a position (memo ``_cache...`` and static ones left out)."""
    static = set(getattr(type(state), "static_slots", ()))
    names: list[str] = []
    for cls in reversed(type(state).__mro__):
        for name in cls.__dict__.get("__slots__", ()):
            if name not in names and not name.startswith("_cache") and name not in static:
                names.append(name)
    for name in getattr(state, "__dict__", {}):
        if name not in names and not name.startswith("_cache") and name not in static:
            names.append(name)
    return [name for name in names if hasattr(state, name)]


def _class_name(cls: type) -> str:
    return f"{cls.__module__}.{cls.__qualname__}"


def encode(value: Any) -> Any:
    """A JSON value that :func:`decode` turns back into ``value`` exactly."""
    kind = type(value)
    if value is None or kind is bool or kind is int or kind is str:
        return value
    if kind is float:
        return value if math.isfinite(value) else {"x": repr(value)}
    if kind is list:
        return [encode(item) for item in value]
    if kind is tuple:
        return {"t": [encode(item) for item in value]}
    if kind is dict:
        return {"d": [[encode(k), encode(v)] for k, v in value.items()]}
    if kind is set:
        return {"s": [encode(item) for item in value]}
    if kind is frozenset:
        return {"f": [encode(item) for item in value]}
    if kind is bytearray:
        return {"ba": value.hex()}
    if kind is bytes:
        return {"by": value.hex()}
    if kind is SeededRNG:
        version, internal, gauss = value.getstate()
        return {"r": [version, list(internal), gauss]}
    if isinstance(value, tuple) and hasattr(kind, "_fields"):  # a named tuple
        return {"n": _class_name(kind), "v": [encode(item) for item in value]}
    if dataclasses.is_dataclass(value):
        fields = {f.name: encode(getattr(value, f.name)) for f in dataclasses.fields(value)}
        return {"o": _class_name(kind), "a": fields}
    slots = [name for cls in kind.__mro__ for name in cls.__dict__.get("__slots__", ())]
    if slots:
        return {
            "o": _class_name(kind),
            "a": {n: encode(getattr(value, n)) for n in slots if hasattr(value, n)},
        }
    raise TypeError(f"cannot save a value of type {kind.__name__} in a position")


class Decoder:
    """Turns :func:`encode`'s output back into values, building only the allowed classes."""

    def __init__(self, types: Iterable[type]) -> None:
        self.types = {_class_name(cls): cls for cls in (*CORE_TYPES, *types)}
        # A class that moved keeps reading positions saved under its old address.
        for cls in types:
            for old in getattr(cls, "snapshot_former_names", ()):
                self.types.setdefault(old, cls)

    def __call__(self, data: Any, depth: int = 0) -> Any:
        if depth > MAX_DEPTH:
            raise SnapshotError("the position nests too deeply")
        kind = type(data)
        if data is None or kind in (bool, int, str, float):
            return data
        if kind is list:
            return [self(item, depth + 1) for item in data]
        if kind is not dict or len(data) not in (1, 2):
            raise SnapshotError(f"unexpected value in the position: {_short(data)}")
        tag = next(iter(data))
        body = data[tag]
        if tag == "t":
            return tuple(self(item, depth + 1) for item in self._list(body))
        if tag == "d":
            return {
                self(k, depth + 1): self(v, depth + 1) for k, v in (self._pair(p) for p in self._list(body))
            }
        if tag == "s":
            return {self(item, depth + 1) for item in self._list(body)}
        if tag == "f":
            return frozenset(self(item, depth + 1) for item in self._list(body))
        if tag in ("ba", "by"):
            raw = bytes.fromhex(body) if isinstance(body, str) else None
            if raw is None:
                raise SnapshotError("bytes must be hex text")
            return bytearray(raw) if tag == "ba" else raw
        if tag == "x":
            if body not in ("inf", "-inf", "nan"):
                raise SnapshotError(f"not a float: {_short(body)}")
            return float(body)
        if tag == "r":
            return self._rng(body)
        if tag in ("n", "o"):
            return self._object(tag, data, depth)
        raise SnapshotError(f"unknown tag {tag!r} in the position")

    def _list(self, body: Any) -> list[Any]:
        if type(body) is not list:
            raise SnapshotError(f"expected a list, found {_short(body)}")
        return body

    def _pair(self, pair: Any) -> tuple[Any, Any]:
        if type(pair) is not list or len(pair) != 2:
            raise SnapshotError(f"expected a key and a value, found {_short(pair)}")
        return pair[0], pair[1]

    def _rng(self, body: Any) -> SeededRNG:
        try:
            version, internal, gauss = body
            rng = SeededRNG(0)
            rng.setstate((version, tuple(internal), gauss))
        except (TypeError, ValueError, OverflowError) as exc:
            raise SnapshotError(f"the random generator's state is damaged: {exc}") from None
        return rng

    def _object(self, tag: str, data: dict[str, Any], depth: int) -> Any:
        name = data.get(tag)
        cls = self.types.get(name) if isinstance(name, str) else None
        if cls is None:
            raise SnapshotError(f"the position names a class this game does not use: {_short(data.get(tag))}")
        if tag == "n":
            values = [self(item, depth + 1) for item in self._list(data.get("v"))]
            try:
                return cls(*values)
            except TypeError as exc:
                raise SnapshotError(f"{cls.__name__}: {exc}") from None
        fields = data.get("a")
        if type(fields) is not dict:
            raise SnapshotError(f"{cls.__name__} needs its attributes")
        if dataclasses.is_dataclass(cls):  # built by its constructor, which may check or intern
            try:
                return cls(**{str(name): self(raw, depth + 1) for name, raw in fields.items()})
            except TypeError as exc:
                raise SnapshotError(f"{cls.__name__}: {exc}") from None
        obj = cls.__new__(cls)  # type: ignore[call-overload]  # the class's own __new__, not type's
        for name, raw in fields.items():
            try:
                object.__setattr__(obj, name, self(raw, depth + 1))
            except AttributeError:
                raise SnapshotError(f"{cls.__name__} has no attribute {name!r}") from None
        return obj


def _short(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def _canonical(body: dict[str, Any]) -> bytes:
    return json.dumps(body, sort_keys=True, separators=(",", ":"), ensure_ascii=True).encode()


def checksum(body: dict[str, Any]) -> str:
    return hashlib.sha256(_canonical(body)).hexdigest()


def save(state: State) -> dict[str, Any]:
    body = {
        "format": FORMAT,
        "version": VERSION,
        "game": state.game.name,
        "num_players": state.num_players,
        "options": dict(state.options),
        "seed": state.seed,
        "fields": {name: encode(getattr(state, name)) for name in snapshot_fields(state)},
    }
    return {**body, "checksum": checksum(body)}


def load(game: Game, data: Any) -> State:
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise SnapshotError("not a Tabletown saved position")
    if data.get("version") != VERSION:
        raise SnapshotError(f"saved position format {data.get('version')!r} is not {VERSION}")
    if data.get("game") != game.name:
        raise SnapshotError(f"the position is of {data.get('game')!r}, not {game.name}")
    body = {key: value for key, value in data.items() if key != "checksum"}
    if data.get("checksum") != checksum(body):
        raise SnapshotError("the position was altered after it was saved (checksum mismatch)")
    players, options, seed = data.get("num_players"), data.get("options"), data.get("seed")
    if type(players) is not int or not isinstance(options, dict) or type(seed) is not int:
        raise SnapshotError("the position's set-up (players, options, seed) is malformed")
    try:
        state = game.new_game(players, options, seed)
    except OptionError as exc:
        raise SnapshotError(f"the position's set-up is refused: {exc}") from None
    fields = data.get("fields")
    if not isinstance(fields, dict):
        raise SnapshotError("the position has no fields")
    expected = snapshot_fields(state)
    if sorted(fields) != sorted(expected):
        missing = sorted(set(expected) - set(fields))
        extra = sorted(set(fields) - set(expected))
        raise SnapshotError(
            f"the position's fields do not fit {game.name} (missing {missing}, unknown {extra})"
        )
    decode = Decoder(getattr(type(state), "snapshot_types", ()))
    for name in expected:
        value = decode(fields[name])
        fresh = getattr(state, name)
        if fresh is not None and value is not None and type(value) is not type(fresh):
            raise SnapshotError(
                f"field {name!r} holds a {type(value).__name__}, the game uses a {type(fresh).__name__}"
            )
        setattr(state, name, value)
    try:
        state.check_snapshot()
    except SnapshotError:
        raise
    except Exception as exc:  # a consistency check that trips over damaged data is a refusal too
        raise SnapshotError(f"the position is inconsistent: {type(exc).__name__}: {exc}") from None
    return state
