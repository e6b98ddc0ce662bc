"""How long the database keeps tables nobody will finish (``tabletown prune``).

A table costs disk until it is deleted, and anyone may create one (``limit.tables``: 30 a minute
from one address): an invitation never taken, a game left half-way, a script's tables. Finished
tables (and those ended at the move limit, status ``error``) are records people replay and share,
and are never pruned. An unfinished table is deleted, with its seats, moves, saved position, chat
and analysis (the foreign keys cascade), when

* nobody made a move and nothing changed for ``unstarted_days`` (7): an invitation a week old;
* nothing changed for ``idle_days`` (60): a game left for two months.

Meant for an operator's scheduled job (cron, a systemd timer) on the live database. A process that
still holds such a table in memory finds it gone at its next write (a stale move is refused, as
when another process stored first), and after 60 quiet days no process keeps a table unless a page
has followed it all along.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

from sqlalchemy import ColumnElement, and_, delete, func, select
from sqlalchemy.engine import Engine

from .db import TableRow

BATCH = 500  # tables deleted a transaction: a long prune never holds a big lock


@dataclass(frozen=True)
class Pruned:
    unstarted: int  # tables without a move, quiet for ``unstarted_days``
    idle: int  # tables with moves, quiet for ``idle_days``

    @property
    def total(self) -> int:
        return self.unstarted + self.idle


def prune(
    engine: Engine,
    *,
    unstarted_days: float = 7.0,
    idle_days: float = 60.0,
    dry_run: bool = False,
    now: datetime | None = None,
) -> Pruned:
    """Delete the unfinished tables quiet for longer than their limit (0 keeps that kind); with
    ``dry_run`` only count them."""
    if unstarted_days < 0 or idle_days < 0:
        raise ValueError("days are 0 (keep) or more")
    now = now or datetime.now(UTC)
    unfinished = TableRow.status.in_(("open", "running"))
    kinds = {
        "unstarted": and_(
            unfinished, TableRow.seq == 0, TableRow.updated_at < now - timedelta(days=unstarted_days)
        )
        if unstarted_days
        else None,
        "idle": and_(unfinished, TableRow.seq > 0, TableRow.updated_at < now - timedelta(days=idle_days))
        if idle_days
        else None,
    }
    counts = {
        kind: _apply(engine, where, dry_run) if where is not None else 0 for kind, where in kinds.items()
    }
    return Pruned(**counts)


def _apply(engine: Engine, where: ColumnElement[bool], dry_run: bool) -> int:
    if dry_run:
        with engine.connect() as conn:
            return int(conn.execute(select(func.count()).select_from(TableRow).where(where)).scalar_one())
    done = 0
    while True:
        with engine.begin() as conn:
            ids = conn.execute(select(TableRow.id).where(where).limit(BATCH)).scalars().all()
            if not ids:
                return done
            # checked again in the delete: a table that moved since the select is kept
            deleted = conn.execute(delete(TableRow).where(and_(TableRow.id.in_(ids), where)))
            done += deleted.rowcount
