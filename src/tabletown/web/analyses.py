"""Post-game analyses on the server: asked for from the replay page, made by whichever process
runs the bots (a bot worker, or ``tabletown serve`` itself), kept with the table.

* ``POST /api/tables/{id}/analysis`` asks for one (only for a finished table: before the end an
  analysis would rate moves from hidden information); ``GET`` answers ``{"status", "progress",
  "analysis"}`` with status ``none``, ``pending``, ``running``, ``done`` or ``failed``.
* An :class:`Analyst` (an asyncio task beside the bot drivers) claims the oldest pending analysis in
  the database — an update that only one process can win — and runs ``tabletown.analysis`` on the
  table's record in a child process at lower priority, so neither the event loop nor the bots at
  people's tables wait for it. The child writes its progress to the row (which renews the claim);
  a claim not renewed for ``LEASE`` seconds (its process died) is taken over by another process.
* Nothing is analysed unless someone asks, so a server full of bot games does no analysis work.
  Anyone may ask for any finished table's analysis, so the route limits how many new ones one
  address asks for and how many wait at once (``Limits.analyses_*``), and a game longer than
  ``MAX_ACTIONS`` is not analysed (its length is the players' to choose: Machi Koro never ends
  while everyone passes).
* While its child works, the claiming process renews the claim every ``LEASE / 4`` (the child is
  niced and may write no progress for a long time on a busy machine): a claim lapses only when its
  process is gone, never while it still works, so no two processes run the same analysis.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import json
import logging
import os
import socket
import threading
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from datetime import UTC, datetime, timedelta
from typing import Any

from sqlalchemy import DateTime, Float, ForeignKey, String, Text, func, select, text, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Mapped, mapped_column

from ..core.i18n import N_
from .db import Base, utcnow
from .tables import LiveTable, TableError, TableService

log = logging.getLogger("tabletown.web.analyses")

# A running analysis whose claim has not been renewed for this long is taken over.
LEASE = timedelta(seconds=60)
# The longest game analysed: two-player games take 100-200 actions, and the analysis's time and size
# grow with the length, which the players choose (a Machi Koro game lasts as long as they pass).
MAX_ACTIONS = 2_000
# Counting the queue and adding to it happen under one lock, so that simultaneous requests cannot all
# pass the count: a lock in this process, and in PostgreSQL an advisory lock shared by every process
# (held until the transaction ends). SQLite serves one process only.
_QUEUE_LOCK = threading.Lock()
QUEUE_LOCK_KEY = 0x7474_0030  # "tt", issue 30: any fixed number no other code uses
POLL_SECONDS = 1.0
# What the server's analyses look at: the command's defaults with each game's own tuning (under a
# minute of one core for a two-player game).
WEB_SETTINGS: dict[str, Any] = {}


class AnalysisRow(Base):
    __tablename__ = "tt_analyses"

    table_id: Mapped[str] = mapped_column(
        String(32), ForeignKey("tt_tables.id", ondelete="CASCADE"), primary_key=True
    )
    status: Mapped[str] = mapped_column(String(16))
    progress: Mapped[float] = mapped_column(Float, default=0.0)
    worker: Mapped[str | None] = mapped_column(String(64), nullable=True)
    claimed_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    result: Mapped[str | None] = mapped_column(Text, nullable=True)
    error: Mapped[str | None] = mapped_column(Text, nullable=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    # The client address that asked (migration 0006): its waiting analyses are bounded and taken
    # in turn with other addresses' (``claim``); None for rows older than that, or asked in-process.
    requester: Mapped[str | None] = mapped_column(String(64), nullable=True)


def answer(row: AnalysisRow | None) -> dict[str, Any]:
    if row is None:
        return {"status": "none", "progress": 0.0, "analysis": None}
    return {
        "status": row.status,
        "progress": round(row.progress, 3),
        "analysis": json.loads(row.result) if row.status == "done" and row.result else None,
        "error": row.error if row.status == "failed" else None,
    }


def get(service: TableService, table: LiveTable) -> dict[str, Any]:
    """Where the table's analysis stands; ``unavailable`` (with the ``rule`` asking would break)
    for a finished game that is not analysed at all, so a page need not ask only to be refused."""
    with service.sessions() as session:
        row = session.get(AnalysisRow, table.id)
    return standing(table, row)


def standing(table: LiveTable, row: AnalysisRow | None) -> dict[str, Any]:
    """``get``'s answer for the table's stored ``row``."""
    if row is None and table.status == "finished" and (refused := refusal(table)) is not None:
        return {"status": "unavailable", "progress": 0.0, "analysis": None, "rule": refused.rule}
    return answer(row)


def get_json(service: TableService, table: LiveTable, charge: Callable[[int], None]) -> str:
    """``get``'s answer as JSON text. A finished analysis is sent as stored, never parsed and encoded
    again: for a 2,000-move game that took 11 ms of a core a request (security audit 32).
    ``charge(points)`` is told the size of a finished analysis (its win-chance curve has a point a
    move) before it is sent, and raises to refuse."""
    with service.sessions() as session:
        row = session.get(AnalysisRow, table.id)
    if row is None or row.status != "done" or not row.result:
        return json.dumps(standing(table, row))
    charge(table.seq)
    return f'{{"status": "done", "progress": {round(row.progress, 3)!r}, "analysis": {row.result}, "error": null}}'


def refusal(table: LiveTable) -> TableError | None:
    """Why a finished table is not analysed, or None: no model for its set-up, or too long a game."""
    if not analysable(table):
        return TableError(
            409,
            "analysis.no_model",
            N_("games of this set-up ({players} players, these options) are not analysed yet"),
            players=table.num_players,
        )
    if table.seq > MAX_ACTIONS:
        return TableError(
            409,
            "analysis.too_long",
            N_("a game of more than {limit} moves is not analysed"),
            limit=MAX_ACTIONS,
        )
    return None


def ask(
    service: TableService,
    table: LiveTable,
    admit: Callable[[int, int], None] | None = None,
    requester: str | None = None,
) -> dict[str, Any]:
    """Queue an analysis of a finished table for ``requester`` (a client address; nothing happens
    if one is queued or made already). ``admit(queued, mine)`` is called before a new one is
    queued, with the number waiting or running in all and of them the requester's, and refuses it
    by raising (the route's limits)."""
    if table.status != "finished":
        raise TableError(409, "analysis.unfinished", N_("a game is analysed once it is over"))
    with _QUEUE_LOCK, service.sessions() as session:
        if session.get_bind().dialect.name == "postgresql":
            session.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": QUEUE_LOCK_KEY})
        row = session.get(AnalysisRow, table.id)
        if row is not None:
            return answer(row)
        if (refused := refusal(table)) is not None:
            raise refused
        if admit is not None:
            admit(queued(session), queued(session, requester) if requester is not None else 0)
        session.add(
            AnalysisRow(
                table_id=table.id, status="pending", progress=0.0, created_at=utcnow(), requester=requester
            )
        )
        try:
            session.commit()
        except IntegrityError:  # another request queued it first
            session.rollback()
        return answer(session.get(AnalysisRow, table.id))


def analysable(table: LiveTable) -> bool:
    """Whether a win-chance model ships for the table's game, player count and options (without one
    the analysis would play every candidate out to the end: far too slow for a server)."""
    from ..analysis.model import shipped_model

    return shipped_model(table.game, table.num_players, dict(table.options)) is not None


def queued(session: Any, requester: str | None = None) -> int:
    """How many analyses wait or run, in every process (``requester``: of those, that address's)."""
    waiting = select(func.count()).where(AnalysisRow.status.in_(("pending", "running")))
    if requester is not None:
        waiting = waiting.where(AnalysisRow.requester == requester)
    return int(session.execute(waiting).scalar_one())


CLAIM_WINDOW = 200  # the oldest waiting analyses a claim chooses among


def in_turn(rows: list[Any], claimable: Callable[[Any], bool]) -> list[Any]:
    """The ``claimable`` analyses in the order a worker takes them: each address's first before
    anybody's second, and so on, oldest first within a round; an analysis running already counts as
    its address's turn (rows: ``(table_id, status, claimed_at, requester)``, waiting or running,
    oldest first). Served oldest first, a few addresses that asked for many kept everybody else's
    waiting behind theirs (security audit 33)."""
    seen: dict[Any, int] = {}
    ranked = []
    for age, row in enumerate(rows):
        key = row[3] if row[3] is not None else ("row", age)  # an unknown requester is its own
        seen[key] = seen.get(key, 0) + 1
        if claimable(row):
            ranked.append((seen[key], age, row))
    return [row for _, _, row in sorted(ranked, key=lambda item: item[:2])]


def claim(service: TableService, worker: str) -> str | None:
    """The id of an analysis this worker now owns (the oldest pending one, or one whose owner went
    quiet), or None. Only one process's update can match the row as it was read."""
    stale = utcnow() - LEASE
    with service.sessions() as session:
        rows = session.execute(
            select(AnalysisRow.table_id, AnalysisRow.status, AnalysisRow.claimed_at, AnalysisRow.requester)
            .where(AnalysisRow.status.in_(("pending", "running")))
            .order_by(AnalysisRow.created_at)
            .limit(CLAIM_WINDOW)
        ).all()

        def claimable(row: Any) -> bool:  # waiting, or running for an owner that went quiet
            claimed = row[2]
            if claimed is not None and claimed.tzinfo is None:  # SQLite gives back naive UTC times
                claimed = claimed.replace(tzinfo=UTC)
            return row[1] == "pending" or (claimed is not None and claimed < stale)

        for table_id, status, claimed_at, _ in in_turn(list(rows), claimable)[:5]:
            condition = AnalysisRow.status == status
            if claimed_at is not None:
                condition = condition & (AnalysisRow.claimed_at == claimed_at)
            won = session.execute(
                update(AnalysisRow)
                .where(AnalysisRow.table_id == table_id, condition)
                .values(status="running", worker=worker, claimed_at=utcnow(), progress=0.0)
            ).rowcount  # type: ignore[attr-defined]  # an UPDATE's CursorResult
            session.commit()
            if won:
                return str(table_id)
    return None


@functools.lru_cache(maxsize=4)
def _sessions(db_url: str) -> Any:
    """One engine per database and process for the analysis rows (the child writes its progress every
    second: an engine per write would open and close a connection pool each time)."""
    from .db import make_engine, session_factory

    return session_factory(make_engine(db_url))


def _store(db_url: str, table_id: str, worker: str, **values: Any) -> bool:
    """Write to the analysis row while this worker still owns it; whether it did."""
    with _sessions(db_url)() as session:
        done = session.execute(
            update(AnalysisRow)
            .where(AnalysisRow.table_id == table_id, AnalysisRow.worker == worker)
            .values(claimed_at=utcnow(), **values)
        ).rowcount
        session.commit()
        return bool(done)


def run_analysis(
    db_url: str, table_id: str, worker: str, record: dict[str, Any], settings: dict[str, Any]
) -> str:
    """In the child process: analyse the record, writing progress to the row now and then; returns
    the analysis as JSON text. Runs at lower priority than the server and its bots."""
    import time

    from ..analysis.analyze import analyze
    from ..analysis.evaluate import Settings
    from ..analysis.model import shipped_model
    from ..core.record import Record

    with_lower_priority()
    rec = Record.from_json(record)
    state = rec.initial_state()
    if shipped_model(state.game, state.num_players, dict(state.options)) is None:
        raise RuntimeError("no win-chance model for this game and player count yet")
    last = [time.monotonic()]

    def progress(done: int, total: int) -> None:
        now = time.monotonic()
        if now - last[0] >= 1.0 and total:
            last[0] = now
            if not _store(db_url, table_id, worker, progress=done / total):
                # another process owns it now (this one was thought gone): stop, not work twice
                raise RuntimeError("the analysis was taken over by another process")

    return json.dumps(analyze(rec, Settings(**settings), progress=progress).to_json())


def follow_parent(parent: int) -> None:
    """In the child: exit as soon as the server that started it is gone (a ``kill -9`` included),
    rather than wait for work that will never come."""
    import threading
    import time

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(1.0)
        os._exit(0)

    threading.Thread(target=watch, name="follow-parent", daemon=True).start()


def with_lower_priority() -> None:
    with contextlib.suppress(OSError):  # not allowed here: run at the same priority
        os.nice(10)


class Analyst:
    """Claims queued analyses and runs them, one at a time, in a child process."""

    def __init__(self, service: TableService, db_url: str) -> None:
        self.service = service
        self.db_url = db_url
        self.worker = f"{socket.gethostname()}:{os.getpid()}"
        self.task: asyncio.Task[None] | None = None
        self._pool: ProcessPoolExecutor | None = None

    def start(self) -> None:
        self.task = asyncio.get_running_loop().create_task(self._run())

    async def stop(self) -> None:
        if self.task is not None:
            self.task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self.task
        if self._pool is not None:
            # An analysis under way is abandoned (its claim lapses and another process redoes it):
            # the child must not outlive the server.
            children = list(getattr(self._pool, "_processes", {}).values())
            self._pool.shutdown(wait=False, cancel_futures=True)
            for child in children:
                child.terminate()

    def _executor(self) -> ProcessPoolExecutor:
        if self._pool is None:
            import multiprocessing

            # spawn: a fresh interpreter, not a fork of a process with an event loop and threads
            self._pool = ProcessPoolExecutor(
                max_workers=1,
                mp_context=multiprocessing.get_context("spawn"),
                initializer=follow_parent,
                initargs=(os.getpid(),),
            )
        return self._pool

    async def _run(self) -> None:
        loop = asyncio.get_running_loop()
        while True:
            try:
                table_id = await loop.run_in_executor(None, claim, self.service, self.worker)
                if table_id is None:
                    await asyncio.sleep(POLL_SECONDS)
                    continue
                await self._analyse(table_id)
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("analysis loop")
                await asyncio.sleep(POLL_SECONDS)

    async def _keep_claim(self, table_id: str) -> None:
        """Renew the claim while the child works: it lapses only if this process goes away."""
        loop = asyncio.get_running_loop()
        while True:
            await asyncio.sleep(LEASE.total_seconds() / 4)
            with contextlib.suppress(Exception):  # a missed renewal: the next one may succeed
                await loop.run_in_executor(None, _store, self.db_url, table_id, self.worker)

    async def _analyse(self, table_id: str) -> None:
        loop = asyncio.get_running_loop()
        keeping = loop.create_task(self._keep_claim(table_id))
        try:
            table = await loop.run_in_executor(None, self.service.get, table_id)
            with table.lock:
                record = table.record().to_json()
            result = await loop.run_in_executor(
                self._executor(), run_analysis, self.db_url, table_id, self.worker, record, WEB_SETTINGS
            )
        except Exception as exc:  # the child failed (or died): the row says so, the loop goes on
            log.warning("analysis of table %s failed: %s", table_id, str(exc)[:500])
            # the row is public: our own reasons are shown, anything else (a database error may name
            # hosts or workers) only in the log
            problem = (
                str(exc)[:500] if type(exc) is RuntimeError else "the analysis failed; see the server log"
            )
            if isinstance(exc, BrokenProcessPool):
                self._pool = None  # a broken pool is not reused (a failed analysis leaves it sound)
            await loop.run_in_executor(
                None,
                lambda: _store(self.db_url, table_id, self.worker, status="failed", error=problem),
            )
            return
        finally:
            keeping.cancel()
        await loop.run_in_executor(
            None,
            lambda: _store(self.db_url, table_id, self.worker, status="done", progress=1.0, result=result),
        )
