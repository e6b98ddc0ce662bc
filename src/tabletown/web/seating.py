"""Seats and their players: the table service's half that seats people (an invitation redeemed, an
open seat taken from the lobby, a name given), brings an away player back, and stores each change
before memory shows it. The rules of who may move for a seat (its player, or its standby bot while
the player is away) live here too, as functions every route shares.

``Seating`` is a mixin of ``TableService`` (web/tables.py), which holds the state it names below.
"""

from __future__ import annotations

import logging
import threading
import time
from typing import TYPE_CHECKING, Any

from sqlalchemy import select, update
from sqlalchemy.orm import Session, sessionmaker

from ..core.i18n import N_
from .db import SeatRow, TableRow, utcnow
from .live import LiveTable, Seat, TableError, new_token, note_return, unique_name, valid_name
from .statements import MARK_AWAY

if TYPE_CHECKING:
    from ..core.game import State

log = logging.getLogger("tabletown.web")

SEAT_RECHECK = 0.2  # seconds between two reads of a table's seats for a refused token


def playing_seat(table: LiveTable, token: Any) -> Seat:
    """The seat whose player holds ``token``. A reserved seat's first token is only an invitation
    (its creator saw it): it opens nothing until its player redeems it (``TableService.touch``, by
    POST .../join or the page its join link leads to) for a token nobody else has seen."""
    seat = table.seat_for(token)
    if seat is None:
        raise TableError(403, "seat.bad_token", N_("this token holds no seat at this table"))
    if not seat.joined:
        raise TableError(
            403,
            "seat.invitation",
            N_("this token is an invitation: redeem it first (open its join link, or POST .../join)"),
        )
    return seat


def standby_may_play(table: LiveTable, seat: int) -> bool:
    """Whether a standby bot may move for the human ``seat``: its player is away and somebody else
    is still at the table (a human seat taken and not away; see ``TableService.auto_seat``)."""
    info = table.seats[seat]
    return not info.is_bot and info.away and any(s.joined and not s.away for s in table.seats if not s.is_bot)


def timed_out_now(table: LiveTable, seat: int) -> bool:
    """Whether ``seat``'s player may not come back before its standby bot plays the decision at hand:
    its turn timer ran out at this very position a second time (it came back once already, and got a
    whole timer), and the standby may play (somebody else is at the table)."""
    seq = table.seq
    return (
        table.seats[seat].away
        and table.timed_out.get(seat) == seq
        and table.came_back.get(seat) == seq
        and standby_may_play(table, seat)
    )


class Seating:
    if TYPE_CHECKING:  # the table service's, used here
        engine: Any  # the sessions' SQLAlchemy engine
        sessions: sessionmaker[Session]
        shared: bool
        lock: threading.RLock

        _autocommit: Any  # the engine with autocommit (one statement, one round trip)

        def _status(
            self, table: LiveTable, state: State | None = None, joining: int | None = None
        ) -> str: ...
        def _stored(
            self, table_id: str, kind: str, seq: int | None = None, detail: dict[str, Any] | None = None
        ) -> None: ...
        def _notify(self, table: LiveTable) -> None: ...
        def catch_up(self, table: LiveTable, seats: bool = False) -> bool: ...

    def touch(
        self,
        table: LiveTable,
        token: Any,
        name: Any = None,
        back: bool = False,
        redeem_as: str | None = None,
        refuse_late_back: bool = False,
    ) -> tuple[Seat, str | None]:
        """A seat's player shows up (opens the page, connects, names themselves). A name that breaks
        the rules is refused (422) before anything changes. The first time, ``token`` is the seat's
        invitation and is redeemed: the seat gets a new token (``redeem_as``, else a random one)
        and the invitation, which the table's creator saw, is worth nothing. Returns the seat and
        the token this call's redemption gave it (None when this call redeemed nothing: only the
        redeeming caller may be told the new token).

        ``back`` brings an away seat back with a whole turn timer, once a decision: when its timer
        runs out a second time at the same position (``timed_out_now``), the standby bot plays that
        decision, else a seat could say "back" each time its timer ran out and stall the table for
        ever without moving (security audit 29). Such a "back" is refused (409 ``seat.timed_out``)
        with ``refuse_late_back`` (the "I'm back" button), else ignored (a socket opening). A move
        of the seat's own is taken all the same: it moves the game on."""
        asked = table.seat_for(token)
        if asked is None:
            raise TableError(403, "seat.bad_token", N_("this token holds no seat at this table"))
        new_name = valid_name(name) if name is not None else None
        if back and timed_out_now(table, asked.seat):
            if refuse_late_back:
                raise TableError(
                    409,
                    "seat.timed_out",
                    N_("your time ran out twice on this move: the bot plays it, and then you can come back"),
                )
            back = False  # a socket opens all the same; the seat stays away for this decision
        if back and asked.joined and (asked.away or self.shared):
            # Stored before it is answered (security audit 23): a bot worker that has not heard it
            # yet (or never will: a lost hub message) finds it with its standby move
            # (``_store_move``). Not under the write lock: a socket's handshake is no reason for
            # the table's movers to wait for a database round trip. Only for a seat joined here: one
            # that is not is never away, and its token here may be an invitation another process
            # redeemed already, whose holder stopped the redeemed seat's standby bot (security audit 24).
            self._write_away(table, asked.seat, False)
        with table.write_lock:
            # Looked up again under the lock: a catch-up (which takes it too) may have just learnt
            # that another process redeemed this invitation, and then it holds no seat any more.
            seat = table.seat_for(token)
            if seat is None:
                raise TableError(403, "seat.bad_token", N_("this token holds no seat at this table"))
            new_name = new_name if new_name is not None else seat.name
            if name is not None and new_name is not None:
                unique_name([(s.kind, s.name) for s in table.seats], seat.seat, new_name)
            away = False if back else seat.away
            redeemed = None
            stored = returned = False
            if not (seat.joined and new_name == seat.name and away == seat.away):
                redeemed = None if seat.joined else (redeem_as or new_token())
                stored = redeemed is not None or new_name != seat.name
                returned = seat.away and not away
                if stored:
                    status = self._status(table, joining=seat.seat)
                    self._write_seat(
                        table,
                        seat.seat,
                        name=new_name,
                        status=status,
                        token=redeemed,
                        new_name=name is not None and new_name != seat.name,
                    )
                else:
                    status = table.status
                with table.lock:
                    seat.joined, seat.name, seat.away = True, new_name, away
                    seat.token = redeemed or seat.token
                    table.status = status
                    if returned:
                        note_return(table, seat.seat)
                    if returned or redeemed:  # back, or just arrived: a whole turn timer
                        self._restart_timer(table, seat.seat)
                    self._notify(table)
        if redeemed:  # the other processes read the seat's new token from the database
            self._stored(table.id, "seat")
        elif stored:
            self._stored(table.id, "joined", table.seq, {"seat": seat.seat, "name": new_name})
        if returned or (back and self.shared):
            # The process running the standby bot (a bot worker) stops it. With several processes
            # this one may not know that the seat was marked away elsewhere: "back" always goes out.
            self._stored(table.id, "away", table.seq, {"seat": seat.seat, "away": False})
        return seat, redeemed

    def recheck_seats(self, table: LiveTable) -> bool:
        """Read the table's seats from the database once more, when a token was refused here: with
        several processes another one may have just redeemed the seat's invitation, its news not
        yet heard. At most every ``SEAT_RECHECK`` seconds a table, so refused tokens cannot make
        a database read each. True when the seats were read."""
        if not self.shared:
            return False
        now = time.monotonic()
        with table.lock:
            if now - table.seats_checked_at < SEAT_RECHECK:
                return False
            table.seats_checked_at = now
        self.catch_up(table, seats=True)
        return True

    def _restart_timer(self, table: LiveTable, seat: int) -> None:
        """A player back from being away, or just arrived, gets a whole turn timer if it is their
        turn now (else the clock that ran while nobody held the seat would mark them away at once)."""
        if seat in table.turn_since:
            table.turn_since[seat] = time.monotonic()

    def _write_away(self, table: LiveTable, seat: int, away: bool) -> None:
        """Store whether ``seat``'s player is away (a no-op when it says so already); 503 when the
        database could not take it, and then nothing changes."""
        params = {"tid": table.id, "seat_no": seat, "flag": away}
        try:
            if self.engine.dialect.name == "postgresql":  # one statement, one round trip
                with self._autocommit.connect() as conn:
                    conn.execute(MARK_AWAY, params)
            else:
                with self.engine.begin() as conn:
                    conn.execute(MARK_AWAY, params)
        except Exception:
            log.exception("table %s: seat %d's presence could not be stored", table.id, seat)
            raise TableError(503, "store.failed", N_("the seat could not be stored; try again")) from None

    def _back_elsewhere(self, table: LiveTable, seat: int) -> None:
        """The database says ``seat``'s player is back (another process stored it): so it is here."""
        with table.lock:
            info = table.seats[seat]
            if info.away:
                info.away = False
                self._restart_timer(table, seat)
                self._notify(table)

    def sit(self, table: LiveTable, seat_no: Any, name: Any = None) -> Seat:
        """Take an open seat (one the creator let anyone take) from the lobby; the seat gets a new
        token, so a token handed out before (to the creator) is worth nothing."""
        if isinstance(seat_no, bool) or not isinstance(seat_no, int) or not 0 <= seat_no < len(table.seats):
            raise TableError(422, "seat.number", N_("no such seat"))
        new_name = valid_name(name) if name is not None else None
        with table.write_lock:
            seat = table.seats[seat_no]
            if seat.is_bot or seat.joined:
                raise TableError(409, "seat.taken", N_("this seat is taken"))
            if not seat.open:
                raise TableError(
                    409, "seat.reserved", N_("this seat is kept for the player invited by its join link")
                )
            if table.over:
                raise TableError(409, "table.over", N_("this table is over"))
            if new_name is not None:
                unique_name([(s.kind, s.name) for s in table.seats], seat_no, new_name)
            token = new_token()
            status = self._status(table, joining=seat_no)
            self._write_seat(
                table,
                seat_no,
                name=new_name or seat.name,
                status=status,
                token=token,
                new_name=new_name is not None and new_name != seat.name,
            )
            with table.lock:
                seat.token, seat.joined, seat.name = token, True, new_name or seat.name
                table.status = status
                self._restart_timer(table, seat_no)  # sat down in the seat's turn: a whole timer
                self._notify(table)
        self._stored(table.id, "seat")
        return seat

    def _write_seat(
        self,
        table: LiveTable,
        seat_no: int,
        *,
        name: str | None,
        status: str,
        token: str | None = None,
        new_name: bool = False,
    ) -> None:
        """Store a seat's arrival (and its new name or token) before memory changes; a refused write
        (the database down, another server faster) leaves both as they were. ``new_name``: the
        name was asked for now, and is checked against the other seats' names as stored."""
        values: dict[str, Any] = {"joined": True, "name": name}
        if token is not None:
            values["token"] = token
        where = [SeatRow.table_id == table.id, SeatRow.seat == seat_no]
        if token is not None:
            where.append(SeatRow.joined.is_(False))  # two servers seating two people: one wins
        try:
            with self.sessions.begin() as session:
                if new_name and name is not None:
                    self._name_still_free(session, table, seat_no, name)
                done = session.execute(update(SeatRow).where(*where).values(**values))
                if done.rowcount != 1:  # type: ignore[attr-defined]  # an UPDATE's CursorResult
                    raise TableError(409, "seat.taken", N_("this seat is taken"))
                if status != table.status or token is not None:
                    # A player taking a seat is a change: ``tabletown prune`` deletes tables without a
                    # move by when they last changed, and took one sat at a moment ago (security audit 24).
                    session.execute(
                        update(TableRow)
                        .where(TableRow.id == table.id)
                        .values(status=status, updated_at=utcnow())
                    )
        except TableError:
            raise
        except Exception:
            log.exception("table %s: seat %d could not be stored", table.id, seat_no)
            raise TableError(503, "store.failed", N_("the seat could not be stored; try again")) from None

    def _name_still_free(self, session: Session, table: LiveTable, seat_no: int, name: str) -> None:
        """409 unless ``name`` is still free among the seats as the database has them. Memory is
        not enough with several processes: two seats renamed at once through two of them (or one
        renamed after the other before the news arrived) both passed ``unique_name`` there and
        went by one name, so a move or chat line of one read as the other's (security audit 19).
        The table's row is written first (to itself): PostgreSQL then holds its row lock and SQLite
        its write lock until the commit, so the name changes of one table are checked one at a time."""
        session.execute(update(TableRow).where(TableRow.id == table.id).values(seq=TableRow.seq))
        stored = {
            row.seat: (row.kind, row.name)
            for row in session.execute(
                select(SeatRow.seat, SeatRow.kind, SeatRow.name).where(SeatRow.table_id == table.id)
            )
        }
        unique_name([stored.get(s.seat, (s.kind, s.name)) for s in table.seats], seat_no, name)
