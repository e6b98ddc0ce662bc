"""Following the other processes and telling the listeners: the table service's half that keeps a
table in memory up to date with the database (moves, seats and away flags other server processes
stored, a lost hub message caught up by ``behind``) and pushes every change to the table's WebSocket
listeners (web/routes/sockets.py), each payload built once per kind of listener.

``Following`` is a mixin of ``TableService`` (web/tables.py), which holds the state it names below.
"""

from __future__ import annotations

import asyncio
import builtins
import logging
import threading
import time
from collections.abc import Callable, Iterable
from concurrent.futures import ThreadPoolExecutor
from typing import TYPE_CHECKING, Any

from sqlalchemy import select

from .db import utcnow
from .live import ENDED_AT_MOVE_LIMIT, LiveTable, Subscriber, build_payload, json_text, note_return
from .statements import LOAD_MOVES, LOAD_SEATS, LOAD_TABLE, STATUSES, TABLES

if TYPE_CHECKING:
    from ..core.game import State

log = logging.getLogger("tabletown.web")
INLINE_FAN_OUT = 4  # listeners a move made on the event loop pushes to itself (more: the fan-out thread)


def restarted(table: LiveTable, seat: int, secret: bool, returned: bool) -> list[int]:
    """Whose turn clocks a move restarts. The timer is per decision: a move in the open changes
    what every seat still to act decides on (a counter-offer at the last second must not leave
    the answering seat a second to answer), so each of them gets a whole timer again. Another seat's
    secret choice restarts nobody's clock (when a seat steps through a secret round is not public),
    and a player back from being away restarts their own. A secret move that ends the decision
    (the last seat's round, loan or vote: a seat that was not acting acts again) starts a new one
    for every seat: the last to finish kept its clock running into the next round, so a rival who
    always finished first could run it out a little every round (security audit 34)."""
    acting = list(table.state.to_act) if table.state is not None else []
    if not secret or new_decision(table, acting):
        return acting
    return [seat] if returned and seat in acting else []


def new_decision(table: LiveTable, acting: Iterable[int]) -> bool:
    """Whether a seat acts now whose clock was not running (``turn_since`` still holds the clocks
    of the seats that acted before the move): a decision ended and another began."""
    return any(seat not in table.turn_since for seat in acting)


class Following:
    if TYPE_CHECKING:  # the table service's, used here
        engine: Any  # the sessions' SQLAlchemy engine
        tables: dict[str, LiveTable]
        lock: threading.RLock
        loop: asyncio.AbstractEventLoop | None
        shared: bool
        fanout: ThreadPoolExecutor

        def _load(self, table_id: str) -> LiveTable | None: ...
        def _status(
            self, table: LiveTable, state: State | None = None, joining: int | None = None
        ) -> str: ...
        def _restart_timer(self, table: LiveTable, seat: int) -> None: ...

    def follow(self, table: LiveTable, seq: int, move: dict[str, Any], wait: bool = True) -> bool | None:
        """Take a move that another process stored and announced through the hub (``move``: its
        seat, notation, secret flag, author and the table's status after it) without reading the
        database. True when the table here now holds that move; False when it is not the next move
        here (an announcement was missed, or the position refuses it): then only a catch-up from the
        database will do. Without ``wait`` (called on the event loop), None when a writer of this
        process holds the table: try again in a thread."""
        seat, text, status = move.get("seat"), move.get("action"), move.get("status")
        if not isinstance(seat, int) or not isinstance(text, str) or status not in STATUSES:
            return False
        if not table.write_lock.acquire(blocking=wait):
            return None
        try:
            return self._follow(table, seq, seat, text, status, move)
        finally:
            table.write_lock.release()

    def _follow(
        self, table: LiveTable, seq: int, seat: int, text: str, status: str, move: dict[str, Any]
    ) -> bool:
        if seq <= table.seq:
            return True  # already here (this process caught up, or stored it itself)
        if seq != table.seq + 1 or table.state is None or not 0 <= seat < len(table.seats):
            return False
        if move.get("joins") and not table.seats[seat].joined:
            return False  # as in follow_seat: the seat's new token is read with the catch-up
        with table.lock:
            # In place, without a copy: the move was checked and stored by the process that
            # announced it. Should it fail here all the same, the position is thrown away and the
            # catch-up that follows rebuilds the table from the database.
            try:
                table.state.apply_text(seat, text)
            except Exception:
                log.warning("table %s: announced move %d (%s) does not apply here", table.id, seq, text)
                table.state = None
                return False
            table.actions.append((seat, text))
            secret = bool(move.get("secret"))
            table.secret.append(secret)
            if move.get("joins"):
                table.seats[seat].joined = True
            returned = move.get("by") == "human" and table.seats[seat].away
            if move.get("by") == "human":  # a player who moves is back
                table.seats[seat].away = False
            table.status = status
            if status == "error":  # only a move that reaches the move limit ends a table so
                table.error = ENDED_AT_MOVE_LIMIT
            table.updated_at = utcnow()
            self._mark_turns(table, restarted(table, seat, secret, returned))
            self._notify(table)
        return True

    def follow_seat(self, table: LiveTable, joined: dict[str, Any]) -> bool:
        """Take a player's arrival (or new name) that another process stored and announced, without
        reading the database; False when the message does not fit (then catch up instead)."""
        number, name = joined.get("seat"), joined.get("name")
        if not isinstance(number, int) or not 0 <= number < len(table.seats):
            return False
        if name is not None and not isinstance(name, str):
            return False
        with table.write_lock, table.lock:
            seat = table.seats[number]
            # A seat not joined here still holds its invitation as its token: the redemption that
            # replaced it was missed, so the seats are read from the database instead (marking it
            # joined would make the invitation a working token in this process).
            if seat.is_bot or not seat.joined:
                return False
            seat.name = name if name is not None else seat.name
            table.status = self._status(table)
            self._notify(table)
        return True

    def follow_away(self, table: LiveTable, message: dict[str, Any]) -> bool:
        """Take another process's news that a seat's player is away (their turn timer ran out: a
        standby bot plays for them) or back. The process that marks a seat away or back stores it first
        (``tt_seats.away``, security audit 23), but only as a fence for standby moves: who is away is
        read from memory and from these messages, never loaded."""
        number, away = message.get("seat"), message.get("away")
        if not isinstance(number, int) or not 0 <= number < len(table.seats) or not isinstance(away, bool):
            return False
        with table.lock:
            seat = table.seats[number]
            if seat.is_bot or seat.away == away:
                return True
            seat.away = away
            if away and isinstance(message.get("seq"), int):
                table.timed_out[number] = message["seq"]  # its timer ran out there (``timed_out_now``)
            if not away:
                note_return(table, number)
                self._restart_timer(table, number)
            self._notify(table)
        return True

    def behind(self) -> builtins.list[LiveTable]:
        """The unfinished tables in memory that the database has moved past (one query for all): a
        move whose hub message never came (its process was killed between storing and announcing
        it, or Redis was away) is found here, not only at the table's next move."""
        with self.lock:
            held = {t.id: t for t in self.tables.values() if not t.over}
        if not held:
            return []
        query = select(TABLES.c.id, TABLES.c.seq).where(TABLES.c.id.in_(list(held)))
        with self.engine.connect() as conn:
            stored = conn.execute(query).all()
        return [held[row.id] for row in stored if row.seq > held[row.id].seq]

    def catch_up(self, table: LiveTable, seats: bool = False) -> bool:
        """Bring a table in memory up to the database, where another server process may have stored
        moves or seated players (``seats``: look at the seats even if no move was made); True when
        anything changed."""
        with table.write_lock:
            return self._catch_up(table, seats)

    def _catch_up(self, table: LiveTable, look_at_seats: bool = False) -> bool:
        if table.state is None and not table.over:  # an announced move failed here (``follow``)
            return self._reload(table)
        with self.engine.connect() as conn:
            row = conn.execute(LOAD_TABLE, {"tid": table.id}).first()
            if row is None:
                self.forget_deleted(table)
                return False
            if row.seq == table.seq and row.status == table.status and not look_at_seats:
                seats = None
            else:
                seats = list(conn.execute(LOAD_SEATS, {"tid": table.id}))
            moves = (
                list(conn.execute(LOAD_MOVES, {"tid": table.id, "after": table.seq}))
                if row is not None and row.seq > table.seq
                else []
            )
        if seats is None:
            return False
        state = table.state
        if moves:
            if state is None or [m.seq for m in moves] != list(
                range(table.seq + 1, table.seq + 1 + len(moves))
            ):
                return self._reload(table)
            state = state.clone()
            try:
                for move in moves:
                    state.apply_text(move.seat, move.action)
            except Exception:
                log.exception("table %s: moves stored by another process do not replay here", table.id)
                return self._reload(table)
        with table.lock:
            table.state = state
            table.actions.extend((m.seat, m.action) for m in moves)
            table.secret.extend(bool(m.secret) for m in moves)
            restart: set[int] = set()
            for stored in seats:
                if stored.seat < len(table.seats):
                    seat = table.seats[stored.seat]
                    if stored.joined and not seat.joined:
                        restart.add(stored.seat)  # a player who just arrived gets a whole timer
                    seat.token, seat.name, seat.joined = stored.token, stored.name, stored.joined
            for move in moves:
                if move.by == "human":  # a player who moves is back (another process saw them)
                    if table.seats[move.seat].away:
                        restart.add(move.seat)
                    table.seats[move.seat].away = False
            acting = state.to_act if state is not None else ()
            if any(not m.secret for m in moves) or new_decision(table, acting):
                restart.update(acting)
            table.status = row.status
            table.updated_at = row.updated_at
            self._mark_turns(table, restart)
            self._notify(table)
        return True

    def forget_deleted(self, table: LiveTable) -> None:
        """The table is gone from the database (``tabletown prune`` deleted it after weeks without
        a change): forget it here too, so that the next request for it answers 404 instead of a
        stale copy taking moves it can never store (409 for ever) or chat that breaks its key."""
        with self.lock:
            if self.tables.get(table.id) is not table:
                return
            del self.tables[table.id]
        log.info("table %s: deleted from the database; forgotten here", table.id)
        if table.driven:
            for callback in getattr(self, "on_evicted", ()):
                callback(table)

    def _reload(self, table: LiveTable) -> bool:
        """Rebuild a table from the database from scratch (its moves no longer follow from memory)."""
        fresh = self._load(table.id)
        if fresh is None:
            self.forget_deleted(table)
            return False
        with table.lock:
            for name in ("state", "status", "error", "actions", "secret", "seats", "updated_at"):
                setattr(table, name, getattr(fresh, name))
            self._mark_turns(table)
            self._notify(table)
        return True

    def _mark_turns(self, table: LiveTable, restart: Iterable[int] = ()) -> None:
        """Start the turn clock of every seat that came to act, stop the others' and restart the
        clocks of the seats in ``restart`` that still act (see ``restarted``)."""
        now = time.monotonic()
        acting = set(table.state.to_act) if table.state is not None and not table.over else set()
        for seat in list(table.turn_since):
            if seat not in acting:
                del table.turn_since[seat]
        fresh = set(restart)
        for seat in acting:
            if seat in fresh:
                table.turn_since[seat] = now
            else:
                table.turn_since.setdefault(seat, now)

    def subscribe(
        self, table: LiveTable, seat: int | None, since: int, push: Callable[[str], None], lang: str = "en"
    ) -> tuple[Subscriber, dict[str, Any]]:
        """Follow a table; returns the subscriber and the first payload (events from ``since``).

        With other processes storing moves, the table first catches up with the database, so a
        client coming back with ``since`` is not handed an older position than it had; the next push
        starts after the later of the client's ``since`` and this payload's events, never repeating one."""
        if self.shared and not table.over:
            self.catch_up(table)
        with table.lock:
            payload = build_payload(table, seat, since, lang)
            sub = Subscriber(seat, max(since, payload.get("event_count", 0) or 0), push, lang=lang)
            table.subscribers.append(sub)
        return sub, payload

    def unsubscribe(self, table: LiveTable, sub: Subscriber) -> None:
        sub.closed = True  # at once, without the lock: no more pushes to a closed socket
        with table.lock:
            if sub in table.subscribers:
                table.subscribers.remove(sub)

    def payload(self, table: LiveTable, seat: int | None, since: int = 0, lang: str = "en") -> dict[str, Any]:
        with table.lock:
            return build_payload(table, seat, since, lang)

    def _notify(self, table: LiveTable) -> None:
        """Tell the table's followers: the drivers at once, the listeners (WebSockets) from the
        fan-out thread, so the move that caused it is acknowledged without waiting for them (a
        fan-out on the event loop was tried: with 300 spectators the mover's p50 went from 8 to 40
        ms). News that arrives while a fan-out is pending joins it (a listener then gets one
        payload holding every new event)."""
        for callback in table.on_change:
            callback(table)
        if not table.subscribers or table.fanout_pending:
            return
        if (
            len(table.subscribers) <= INLINE_FAN_OUT
            and self.loop is not None
            and asyncio._get_running_loop() is self.loop
        ):
            # A move stored from the event loop, a handful of listeners: a payload or two built
            # here costs less than handing them to the fan-out thread and back to the loop.
            self._push_all(table)
            return
        table.fanout_pending = True
        self.fanout.submit(self._fan_out, table)

    def _fan_out(self, table: LiveTable) -> None:
        """Push the news to every listener. Listeners that see the table alike (the same seat, or
        spectators, from the same event) share one payload, encoded once as the WebSocket message
        text: 300 spectators cost one payload, not 300."""
        with table.lock:
            table.fanout_pending = False
            self._push_all(table)

    def _push_all(self, table: LiveTable) -> None:
        shared: dict[tuple[int | None, int, str], tuple[str, int]] = {}
        for sub in list(table.subscribers):
            if sub.closed:
                continue
            key = (sub.seat, sub.since, sub.lang)
            try:
                if key not in shared:
                    payload = build_payload(table, sub.seat, sub.since, sub.lang)
                    text = json_text({"type": "view", **payload})
                    shared[key] = (text, payload.get("event_count", sub.since) or sub.since)
                text, sub.since = shared[key]
                sub.push(text)
            except Exception:
                log.exception("table %s: a listener failed", table.id)
