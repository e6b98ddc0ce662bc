"""The SQL of the table service, built once (building a statement costs more than running it)."""

from __future__ import annotations

from sqlalchemy import bindparam, select

from .db import MoveRow, SeatRow, SnapshotRow, TableRow

TABLES, SEATS, MOVES, SNAPSHOTS = (
    TableRow.__table__,
    SeatRow.__table__,
    MoveRow.__table__,
    SnapshotRow.__table__,
)
# The two statements of every move, built once (building a statement costs more than running it).
ADVANCE = (
    TABLES.update()
    .where(TABLES.c.id == bindparam("tid"), TABLES.c.seq == bindparam("old"))
    .values(
        seq=bindparam("new"),
        status=bindparam("status"),
        updated_at=bindparam("now"),
        result=bindparam("result"),
    )
)
STATUSES = ("open", "running", "finished", "error")
LOAD_TABLE = select(TABLES).where(TABLES.c.id == bindparam("tid"))
LOAD_SEATS = select(SEATS).where(SEATS.c.table_id == bindparam("tid")).order_by(SEATS.c.seat)
LOAD_MOVES = (
    select(MOVES.c.seq, MOVES.c.seat, MOVES.c.action, MOVES.c.secret, MOVES.c.by)
    .where(MOVES.c.table_id == bindparam("tid"), MOVES.c.seq > bindparam("after"))
    .order_by(MOVES.c.seq)
)
LOAD_SNAPSHOT = (
    select(SNAPSHOTS.c.seq, SNAPSHOTS.c.doc)
    .where(SNAPSHOTS.c.table_id == bindparam("tid"))
    .order_by(SNAPSHOTS.c.seq.desc())
    .limit(1)
)
INSERT_MOVE = MOVES.insert()
# Who is away, stored (security audit 23). A standby move is stored only while its seat is still
# away here: a no-op write of the flag that finds the row, in the move's transaction (after the
# table's row, the order every seat write keeps), so a "back" stored first makes it find none.
STILL_AWAY = (
    SEATS.update()
    .where(SEATS.c.table_id == bindparam("tid"), SEATS.c.seat == bindparam("seat_no"), SEATS.c.away.is_(True))
    .values(away=True)
)
# "I'm back" (and the turn timer running out) write the flag before they are answered or announced.
MARK_AWAY = (
    SEATS.update()
    .where(
        SEATS.c.table_id == bindparam("tid"),
        SEATS.c.seat == bindparam("seat_no"),
        SEATS.c.away != bindparam("flag"),
    )
    .values(away=bindparam("flag"))
)
