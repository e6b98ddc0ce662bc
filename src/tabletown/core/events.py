"""Typed events: what happened in a game, as data, with who may see it.

A state's ``log`` is a list of :class:`Event`. Each event has a ``kind`` (a snake_case id such as
``roll`` or ``build``), a ``data`` mapping of JSON values (numbers, ids, booleans, lists; never a
sentence) and ``seats``: ``None`` when everyone may see it, otherwise the tuple of seats that may
(spectators see only public events). Renderers turn events into words, one renderer per surface.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, NamedTuple


class Event(NamedTuple):
    kind: str
    data: Mapping[str, Any]
    seats: tuple[int, ...] | None = None

    def visible_to(self, seat: int | None) -> bool:
        return self.seats is None or (seat is not None and seat in self.seats)

    def to_json(self, index: int) -> dict[str, Any]:
        """The event as a view carries it; ``index`` is its position in the full log, so a client
        can ask for the events after the last one it holds."""
        out: dict[str, Any] = {"i": index, "kind": self.kind, **self.data}
        if self.seats is not None:
            out["private"] = list(self.seats)
        return out


def visible_events(log: Sequence[Event], seat: int | None, since: int = 0) -> list[dict[str, Any]]:
    """The events of ``log`` from index ``since`` on that ``seat`` may see, as JSON."""
    since = max(0, since)
    return [
        event.to_json(index)
        for index, event in enumerate(log[since:], since)
        if event.seats is None or (seat is not None and seat in event.seats)
    ]
