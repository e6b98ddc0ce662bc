"""A move on its way to the database, and PostgreSQL's asynchronous move store.

``TableService.commit`` checks a move and applies it to a copy of the position (a ``PreparedMove``),
stores it, then installs the copy. With PostgreSQL the usual move (no saved position, nobody joining)
is one statement (``ADVANCE_AND_INSERT_PG``); ``AsyncMoveStore`` runs that statement from the event
loop on a few connections of its own, so a move made over a WebSocket or the REST API needs no
worker thread at all (see ``TableService.commit_on_loop``).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
from dataclasses import dataclass
from typing import Any

log = logging.getLogger("tabletown.web")

# The table's seq moves forward only from the old value, and the move is inserted only if it did:
# two writers racing for one seq cannot both win, and one statement needs no transaction around it.
ADVANCE_AND_INSERT_PG = """
WITH advanced AS (
    UPDATE tt_tables SET seq = %(new)s, status = %(status)s, updated_at = %(now)s, result = %(result)s
    WHERE id = %(tid)s AND seq = %(old)s
    RETURNING id
)
INSERT INTO tt_moves (table_id, seq, seat, action, "by", secret, created_at)
SELECT id, %(new)s, %(seat)s, %(action)s, %(by)s, %(secret)s, %(now)s FROM advanced
"""


@dataclass(slots=True)
class PreparedMove:
    """A checked move, applied to ``after`` (a copy of the position), not yet stored."""

    seat: int
    text: str  # in the game's notation, as stored
    by: str  # "human", "bot" or "standby"
    secret: bool
    seq: int  # the table's move count once it is stored
    status: str  # the table's status after it
    result_text: str | None  # the result (JSON) when it ends the game
    snapshot: str | None  # a saved position to store with it (every SNAPSHOT_EVERY moves)
    joins: bool  # the seat's player arrives with this move
    now: Any  # datetime of the move
    after: Any  # the position after the move
    one_trip: bool  # PostgreSQL, no snapshot, nobody joining: ADVANCE_AND_INSERT_PG alone stores it

    def params(self, table_id: str) -> dict[str, Any]:
        return {
            "tid": table_id,
            "old": self.seq - 1,
            "new": self.seq,
            "status": self.status,
            "now": self.now,
            "result": self.result_text,
            "seat": self.seat,
            "action": self.text,
            "by": self.by,
            "secret": self.secret,
        }


class MoveNotStored(Exception):
    """``status`` 409: another writer stored this seq first; 503: the database could not take it."""

    def __init__(self, status: int) -> None:
        super().__init__(status)
        self.status = status


class AsyncMoveStore:
    """A few autocommit psycopg connections used from the event loop (opened when first needed,
    at most ``size``, default $TABLETOWN_DB_ASYNC_POOL or 4); a connection that fails is dropped and
    the next move opens a new one."""

    def __init__(self, conninfo: str, size: int | None = None) -> None:
        self.conninfo = conninfo
        self.size = size or max(1, int(os.environ.get("TABLETOWN_DB_ASYNC_POOL", "4")))
        self.idle: list[Any] = []
        self.opened = 0
        self.freed: asyncio.Condition | None = None

    @classmethod
    def for_engine(cls, engine: Any) -> AsyncMoveStore | None:
        """The store for a SQLAlchemy engine on PostgreSQL with psycopg; None for anything else."""
        if engine.dialect.name != "postgresql" or engine.dialect.driver != "psycopg":
            return None
        if os.environ.get("TABLETOWN_DB_ASYNC_POOL", "").strip() == "0":  # switched off (comparisons)
            return None
        url = engine.url.set(drivername="postgresql")
        return cls(url.render_as_string(hide_password=False))

    async def store(self, params: dict[str, Any]) -> None:
        """Run ADVANCE_AND_INSERT_PG; MoveNotStored(409) when the seq was taken, (503) on failure."""
        import psycopg

        conn = await self._take()
        healthy = False
        try:
            cursor = await conn.execute(ADVANCE_AND_INSERT_PG, params)
            healthy = True
        except psycopg.errors.UniqueViolation:
            healthy = True
            raise MoveNotStored(409) from None
        except Exception:
            log.exception("the move could not be stored")
            raise MoveNotStored(503) from None
        finally:
            await self._give_back(conn, healthy)
        if cursor.rowcount != 1:
            raise MoveNotStored(409)

    async def _take(self) -> Any:
        import psycopg

        if self.freed is None:
            self.freed = asyncio.Condition()
        async with self.freed:
            while not self.idle and self.opened >= self.size:
                await self.freed.wait()
            if self.idle:
                return self.idle.pop()
            self.opened += 1
        try:
            return await psycopg.AsyncConnection.connect(self.conninfo, autocommit=True, prepare_threshold=0)
        except Exception:
            log.exception("could not connect to the database")
            await self._give_back(None, False)
            raise MoveNotStored(503) from None

    async def _give_back(self, conn: Any, healthy: bool) -> None:
        assert self.freed is not None
        if healthy and not conn.closed:
            self.idle.append(conn)
        else:
            self.opened -= 1
            if conn is not None:
                with contextlib.suppress(Exception):
                    await conn.close()
        async with self.freed:
            self.freed.notify()

    async def close(self) -> None:
        while self.idle:
            conn = self.idle.pop()
            self.opened -= 1
            with contextlib.suppress(Exception):
                await conn.close()
