"""Persistence: SQLAlchemy 2 models, the engine (SQLite in WAL mode or PostgreSQL) and migrations.

Tables: ``tt_tables`` (one game table), ``tt_seats`` (who plays each seat; human seats hold a secret
token), ``tt_moves`` (every acknowledged action, numbered by ``seq`` from 1; the primary key
``(table_id, seq)`` makes two writers of the same move number impossible) and ``tt_snapshots``
(saved positions, ``state.to_json()``, taken now and then so a restart need not replay everything).
The schema is created and upgraded by the Alembic migrations shipped in ``migrations/``, which
:func:`migrate` runs at start-up.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, ClassVar

from sqlalchemy import (
    BigInteger,
    Boolean,
    CheckConstraint,
    DateTime,
    Engine,
    ForeignKey,
    Integer,
    String,
    Table,
    Text,
    create_engine,
    event,
    false,
    make_url,
    text,
)
from sqlalchemy.orm import DeclarativeBase, Mapped, Session, mapped_column, sessionmaker

DEFAULT_DB_FILE = "tabletown.db"
ENV_URL = "TABLETOWN_DATABASE_URL"


def utcnow() -> datetime:
    return datetime.now(UTC)


class Base(DeclarativeBase):
    __table__: ClassVar[Table]  # (typed FromClause in DeclarativeBase; a mapped class's is a Table)


class TableRow(Base):
    __tablename__ = "tt_tables"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    game: Mapped[str] = mapped_column(String(64))
    options: Mapped[str] = mapped_column(Text)  # JSON
    num_players: Mapped[int] = mapped_column(Integer)
    seed: Mapped[int] = mapped_column(BigInteger)
    status: Mapped[str] = mapped_column(String(16), index=False)  # open, running, finished, error
    seq: Mapped[int] = mapped_column(Integer, default=0)
    turn_timer: Mapped[int | None] = mapped_column(Integer, nullable=True)
    result: Mapped[str | None] = mapped_column(Text, nullable=True)  # JSON
    error: Mapped[str | None] = mapped_column(Text, nullable=True)
    salt: Mapped[str | None] = mapped_column(String(64), nullable=True)  # hashed with the seed (fairness)
    seed_chosen: Mapped[bool] = mapped_column(Boolean, default=False)  # a person chose the seed
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class SeatRow(Base):
    __tablename__ = "tt_seats"

    # The same table_id key as SnapshotRow's (and the other child tables') on purpose: each table
    # declares its own columns, as the migrations do.

    table_id: Mapped[str] = mapped_column(
        String(32), ForeignKey("tt_tables.id", ondelete="CASCADE"), primary_key=True
    )
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    kind: Mapped[str] = mapped_column(String(64))  # "human" or "bot:NAME"
    token: Mapped[str] = mapped_column(String(64), unique=True)
    name: Mapped[str | None] = mapped_column(String(64), nullable=True)
    joined: Mapped[bool] = mapped_column(Boolean, default=False)
    open: Mapped[bool] = mapped_column(Boolean, default=False)  # anyone may take it from the lobby
    # Its turn timer ran out: a standby bot may play for it (migration 0005, security audit 23). Only
    # a fence for standby moves: a process reads who is away from its own memory and the hub.
    away: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())


class MoveRow(Base):
    __tablename__ = "tt_moves"
    __table_args__ = (CheckConstraint("seq >= 1", name="ck_tt_moves_seq_positive"),)

    table_id: Mapped[str] = mapped_column(
        String(32), ForeignKey("tt_tables.id", ondelete="CASCADE"), primary_key=True
    )
    seq: Mapped[int] = mapped_column(Integer, primary_key=True)
    seat: Mapped[int] = mapped_column(Integer)
    action: Mapped[str] = mapped_column(Text)
    by: Mapped[str] = mapped_column(String(16))  # human, bot, standby (a bot playing for an away human)
    secret: Mapped[bool] = mapped_column(Boolean, default=False)  # hidden from other seats until the end
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class SnapshotRow(Base):
    __tablename__ = "tt_snapshots"

    # The same table_id key as SeatRow's (and the other child tables') on purpose: each table
    # declares its own columns, as the migrations do.

    table_id: Mapped[str] = mapped_column(
        String(32), ForeignKey("tt_tables.id", ondelete="CASCADE"), primary_key=True
    )
    seq: Mapped[int] = mapped_column(Integer, primary_key=True)
    doc: Mapped[str] = mapped_column(Text)  # JSON of state.to_json()


def resolve_url(db_url: str | None) -> str:
    """The database to use: the argument, else $TABLETOWN_DATABASE_URL, else tabletown.db here."""
    url = db_url or os.environ.get(ENV_URL)
    if not url:
        url = "sqlite:///" + str(Path.cwd() / DEFAULT_DB_FILE)
    return url


def keep_private(url: str) -> None:
    """Make the SQLite file (and its journal files) readable by this user only: it holds every
    seat's token and the seeds kept secret until a game ends (security audit 11; with the usual
    umask other local users could read them)."""
    path = make_url(url).database
    if not path or path == ":memory:":
        return
    base = Path(path)
    if not base.exists():
        base.parent.mkdir(parents=True, exist_ok=True)
        base.touch(mode=0o600)
    for name in (base, Path(f"{base}-wal"), Path(f"{base}-shm")):
        with contextlib.suppress(OSError):
            name.chmod(0o600)


def make_engine(url: str) -> Engine:
    if url.startswith("sqlite"):
        keep_private(url)
        engine = create_engine(url, connect_args={"check_same_thread": False, "timeout": 30}, pool_size=8)

        @event.listens_for(engine, "connect")
        def _pragmas(dbapi_conn: Any, _record: Any) -> None:  # pragma: no cover - trivial
            cursor = dbapi_conn.cursor()
            # WAL: readers never block the writer. synchronous=NORMAL keeps every committed
            # transaction through a crash of the process (kill -9); only a power cut can lose the
            # last commits. Foreign keys on, and wait rather than fail when the file is busy.
            cursor.execute("PRAGMA journal_mode=WAL")
            cursor.execute("PRAGMA synchronous=NORMAL")
            cursor.execute("PRAGMA foreign_keys=ON")
            cursor.execute("PRAGMA busy_timeout=30000")
            cursor.close()

        return engine
    # Several processes share one PostgreSQL (its default max_connections is 100): each keeps at
    # most TABLETOWN_DB_POOL connections (default 10), open for good. A burst waits for one of them
    # rather than opening more: a connection opened and closed per burst costs PostgreSQL a new
    # backend process each time, which under load took more CPU than the moves themselves.
    # No ping before each use (a round trip per move): a connection the server dropped fails its
    # first statement, SQLAlchemy then empties the pool, and that one request answers 503 "try
    # again" (clients retry; a move that was not stored can be sent again).
    pool = max(1, int(os.environ.get("TABLETOWN_DB_POOL", "10")))
    return create_engine(url, pool_size=pool, max_overflow=0, pool_timeout=30)


MIGRATION_LOCK = 7_246_551_017  # PostgreSQL advisory lock key: one migrating process at a time


def newest_revision() -> str:
    """The revision a migrated database ends at (the newest migration in this package)."""
    from alembic.config import Config
    from alembic.script import ScriptDirectory

    config = Config()
    config.set_main_option("script_location", str(Path(__file__).parent / "migrations"))
    head = ScriptDirectory.from_config(config).get_current_head()
    assert head is not None
    return head


def migrate(engine: Engine) -> None:
    """Bring the schema to the newest revision with the Alembic migrations in this package.

    Several server processes may start at once (``serve --workers N``, several machines): the
    migration runs under a lock (a PostgreSQL advisory lock; on SQLite a lock file beside the
    database), so one process migrates and the others then find the schema up to date."""
    from alembic import command
    from alembic.config import Config

    config = Config()
    config.set_main_option("script_location", str(Path(__file__).parent / "migrations"))
    with _migration_lock(engine), engine.begin() as connection:
        config.attributes["connection"] = connection
        command.upgrade(config, "head")


@contextlib.contextmanager
def _migration_lock(engine: Engine) -> Iterator[None]:
    if engine.dialect.name == "postgresql":
        with engine.connect() as conn:
            conn.execute(text("SELECT pg_advisory_lock(:key)"), {"key": MIGRATION_LOCK})
            conn.commit()
            try:
                yield
            finally:
                conn.execute(text("SELECT pg_advisory_unlock(:key)"), {"key": MIGRATION_LOCK})
                conn.commit()
        return
    database = engine.url.database
    if engine.dialect.name != "sqlite" or not database or database == ":memory:":
        yield
        return
    import fcntl

    with open(database + ".migrate-lock", "a") as handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


def session_factory(engine: Engine) -> sessionmaker[Session]:
    return sessionmaker(engine, expire_on_commit=False)
