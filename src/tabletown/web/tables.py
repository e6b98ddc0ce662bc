"""The table service: tables created, loaded and kept in memory (web/live.py), every move checked
by the engine and stored before it is acknowledged, other processes' changes followed, listeners told.

Thread-safe (one lock per table); moves come from the event loop (``commit_on_loop``, PostgreSQL) or
from worker threads (``commit``), and changes reach the event loop through callbacks.
"""

from __future__ import annotations

import asyncio
import builtins
import contextlib
import functools
import json
import logging
import secrets
import threading
import time
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from datetime import UTC, datetime, timedelta
from typing import Any

import anyio
from sqlalchemy import select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session, sessionmaker

from ..core.errors import ActionError, MalformedAction, OptionError, RecordError
from ..core.fairness import commitment, new_salt
from ..core.game import Game, State
from ..core.i18n import N_
from ..core.rng import derive_seed
from ..core.session import Agent
from .catalog import find_game
from .db import SeatRow, TableRow, utcnow
from .following import Following, restarted
from .live import (  # (re-exported: the table service's callers know them from here)
    ENDED_AT_MOVE_LIMIT,
    LiveTable,
    MissingGame,
    Seat,
    TableError,
    build_payload,
    json_bytes,
    json_text,
    new_token,
    not_found,
    unique_name,
    valid_name,
)
from .movestore import ADVANCE_AND_INSERT_PG, AsyncMoveStore, MoveNotStored, PreparedMove
from .new_table import check_turn_timer, seat_kinds, seat_names_asked, table_seed
from .replaying import Uploads
from .seating import Seating, playing_seat, standby_may_play
from .statements import (
    ADVANCE,
    INSERT_MOVE,
    LOAD_MOVES,
    LOAD_SEATS,
    LOAD_SNAPSHOT,
    LOAD_TABLE,
    SEATS,
    SNAPSHOTS,
    STILL_AWAY,
    TABLES,
)

__all__ = [
    "LiveTable",
    "Seat",
    "TableError",
    "TableService",
    "build_payload",
    "json_bytes",
    "json_text",
    "new_token",
    "playing_seat",
    "valid_name",
]

log = logging.getLogger("tabletown.web")


SNAPSHOT_EVERY = 64  # moves between saved positions
# No game of ours comes near this many moves (the longest arena games: about 400): a table that
# does is two players passing for ever, or someone growing it on purpose (security audit F2). Its
# moves are refused from here on; its record and replay stay. The move that reaches it ends the
# table (status "error", ``ENDED_AT_MOVE_LIMIT``): left "running", it stayed in the lobby, in the
# bot limits and drivers and in every start-up for ever (security audit 17).
MAX_LIVE_MOVES = 5000
MAX_IN_MEMORY = 2000  # tables kept in memory before finished (then idle) ones are forgotten
IDLE_EVICTION = timedelta(minutes=10)  # an unfinished table this quiet may be forgotten (see _evict)


def _mover(table: LiveTable, token: Any, seq: Any) -> int:
    """The seat a move's token holds, once the move's seq is known to be a number."""
    seat = playing_seat(table, token)
    if isinstance(seq, bool) or not isinstance(seq, int):
        raise TableError(422, "request.seq", N_("seq must be the number of moves you have seen"))
    return seat.seat


def _first_writer_won() -> TableError:
    return TableError(409, "seq.stale", N_("another writer stored this move first"))


def _stale(table: LiveTable, expected_seq: int) -> TableError:
    return TableError(
        409,
        "seq.stale",
        N_("the table is at move {seq}, not {expected}"),
        seq=table.seq,
        expected=expected_seq,
    )


def _only_hidden_choices_since(table: LiveTable, seat: int, expected_seq: int) -> bool:
    """Whether every move stored after ``expected_seq`` is another seat's secret choice (a
    simultaneous round): those told ``seat`` nothing it could have chosen differently on, so a move
    sent at the older ``seq`` still stands, as long as the rules still take it. Its own moves since,
    or any move made in the open, make it stale."""
    if not 0 <= expected_seq < table.seq:
        return False
    return all(table.secret[n] and table.actions[n][0] != seat for n in range(expected_seq, table.seq))


@contextlib.contextmanager
def _storing_move(table_id: str) -> Iterator[None]:
    """How a failed move write reaches the client: 409 when another writer stored that ``seq``
    first (the unique key), 503 when the database could not take it."""
    try:
        yield
    except TableError:
        raise
    except IntegrityError:
        raise _first_writer_won() from None
    except Exception:
        log.exception("table %s: the move could not be stored", table_id)
        raise _store_failed() from None


def _player_back() -> TableError:
    return TableError(409, "seat.back", N_("the seat's player is back: the standby bot does not move"))


def _store_failed() -> TableError:
    return TableError(503, "store.failed", N_("the move could not be stored; try again"))


def _last_change(table: LiveTable) -> datetime:
    """When the table last changed, as an aware time (SQLite gives back naive UTC times)."""
    stamp = table.updated_at
    if not isinstance(stamp, datetime):
        return utcnow()
    return stamp if stamp.tzinfo is not None else stamp.replace(tzinfo=UTC)


class TableService(Following, Seating):
    """All tables of one server: creation, moves, loading from and writing to the database."""

    def __init__(self, sessions: sessionmaker[Session], *, standby_bot: str | None = None) -> None:
        self.sessions = sessions
        self.engine = sessions.kw["bind"]
        # PostgreSQL with psycopg takes a move in one round trip (``_store_move_at_once``).
        self._one_trip = self.engine.dialect.name == "postgresql" and self.engine.dialect.driver == "psycopg"
        self._autocommit = self.engine.execution_options(isolation_level="AUTOCOMMIT")
        # Set by the process that owns the event loop (PostgreSQL): moves stored from the loop.
        self.async_store: AsyncMoveStore | None = None
        self.loop: asyncio.AbstractEventLoop | None = None  # the process's event loop, once it runs
        self.tables: dict[str, LiveTable] = {}
        self.lock = threading.RLock()
        self.standby_bot = standby_bot
        self.uploads = Uploads()  # record files people upload to watch (web/replaying.py)
        self.on_new_table: list[Callable[[LiveTable], None]] = []
        # A table loaded again after it was forgotten, and one forgotten that had a driver: the
        # process that drives bots starts and stops the table's driver (web/drivers.py).
        self.on_loaded: list[Callable[[LiveTable], None]] = []
        self.on_evicted: list[Callable[[LiveTable], None]] = []
        # Whether an idle table with bots or a timer that waits for its people may be forgotten
        # (a bot worker, which finds such tables again in the database, keeps them).
        self.evict_waiting = True
        # Told after every change the database took: (table id, "move" | "seat" | "created", seq).
        # The hub (web/hub.py) passes it on to the other server processes.
        # Called after every stored change with (table id, kind, seq, detail): the hub tells the
        # other processes. ``detail`` carries what they need to follow without reading the database
        # (a move itself; whether a new table has bots or a timer).
        self.on_stored: list[Callable[[str, str, int | None, dict[str, Any] | None], None]] = []
        # Other processes store moves too (a Redis hub): tables in memory may be behind the database.
        self.shared = False
        # One thread builds and pushes every table's payloads in order, off the movers' path.
        self.fanout = ThreadPoolExecutor(max_workers=1, thread_name_prefix="tabletown-fanout")
        # The database work of a move whose writer holds the write lock on the event loop
        # (``_store_on_loop``). Not anyio's shared threads: requests blocked on that same write
        # lock in them (WebSocket handshakes, catch-ups) could take every one, and the holder then
        # never got a thread to finish and release it, which hung the table and, with it, every
        # request that needs a thread (security audit 19). These threads never wait for a write lock.
        self.holders = ThreadPoolExecutor(max_workers=4, thread_name_prefix="tabletown-store")

    # -- creation ----------------------------------------------------------------------------------
    def create(
        self,
        game_name: Any,
        options: Any,
        seats: Any,
        seed: Any = None,
        turn_timer: Any = None,
        names: Any = None,
    ) -> LiveTable:
        game = find_game(game_name)
        if game is None:
            raise TableError(422, "table.unknown_game", N_("unknown game {game!r}"), game=game_name)
        if options is None:
            options = {}
        if not isinstance(options, dict):
            raise TableError(422, "table.options", N_("options must be an object"))
        kinds, open_seats = seat_kinds(game, seats)
        seed, seed_chosen = table_seed(seed)
        check_turn_timer(turn_timer)
        clean_names = seat_names_asked(names, len(kinds))
        named = list(zip(kinds, clean_names, strict=True))
        for seat_no, given in enumerate(clean_names):
            if given is not None:
                unique_name(named, seat_no, given)
        try:
            state = game.new_game(len(kinds), options, seed)
        except OptionError as exc:
            raise TableError.refused(game, exc, "table.options") from None
        except Exception as exc:  # a game that cannot start with these options must not crash us
            log.exception("new_game failed")
            raise TableError(
                422,
                "table.options",
                N_("{game} cannot start this set-up: {problem}"),
                game=game.title,
                problem=exc,
            ) from None
        table_id = secrets.token_urlsafe(9).replace("-", "x").replace("_", "y")
        seat_list = [
            Seat(seat=i, kind=k, token=new_token(), name=clean_names[i], open=i in open_seats)
            for i, k in enumerate(kinds)
        ]
        status = "open" if open_seats else "running"
        now = utcnow()
        table = LiveTable(
            id=table_id,
            game=game,
            options=dict(state.options),
            num_players=len(kinds),
            seed=state.seed,
            seats=seat_list,
            state=state,
            status=status,
            turn_timer=turn_timer,
            created_at=now,
            updated_at=now,
            salt=new_salt(),
            seed_chosen=seed_chosen,
        )
        if state.is_over:
            table.status = "finished"
        with self.sessions.begin() as session:
            session.add(
                TableRow(
                    id=table.id,
                    game=game.name,
                    options=json.dumps(table.options, sort_keys=True),
                    num_players=table.num_players,
                    seed=table.seed,
                    status=table.status,
                    seq=0,
                    turn_timer=turn_timer,
                    created_at=now,
                    updated_at=now,
                    salt=table.salt,
                    seed_chosen=seed_chosen,
                )
            )
            session.flush()
            for s in seat_list:
                session.add(
                    SeatRow(
                        table_id=table.id,
                        seat=s.seat,
                        kind=s.kind,
                        token=s.token,
                        name=s.name,
                        joined=False,
                        open=s.open,
                    )
                )
        self._mark_turns(table)
        with self.lock:
            self.tables[table.id] = table
            crowded = len(self.tables) > MAX_IN_MEMORY
        if crowded:
            self._evict()
        self._stored(table.id, "created", 0, {"driven": table.driven})
        for callback in self.on_new_table:
            callback(table)
        return table

    def _stored(
        self, table_id: str, kind: str, seq: int | None = None, detail: dict[str, Any] | None = None
    ) -> None:
        for callback in self.on_stored:
            callback(table_id, kind, seq, detail)

    # -- lookup --------------------------------------------------------------------------------------
    def held(self, table_id: Any) -> LiveTable | None:
        """The table if this process holds it in memory (no database, no waiting: callers on the
        event loop use it before falling back to ``get`` in a thread)."""
        if not isinstance(table_id, str):
            return None
        with self.lock:
            return self.tables.get(table_id)

    def get(self, table_id: Any) -> LiveTable:
        if not isinstance(table_id, str) or not 1 <= len(table_id) <= 32:
            raise not_found()
        with self.lock:
            table = self.tables.get(table_id)
        if table is not None:
            return table
        table = self._load(table_id)
        if table is None:
            raise not_found()
        with self.lock:
            crowded = len(self.tables) >= MAX_IN_MEMORY
        if crowded:
            # Before the table joins: the table just asked for, quiet as it may have been, is
            # never the one forgotten (it used to be, and was then driven and loaded again
            # outside the service's tables at every request).
            self._evict()
        with self.lock:
            known = self.tables.get(table_id)
            if known is None:
                self.tables[table_id] = table
        if known is not None:
            return known
        for callback in self.on_loaded:
            callback(table)
        if self.shared and not table.over:
            # A move or a redemption stored by another process while this one was loading was
            # announced before the table was in memory here: look once more, seats too, now that
            # later news will find the table.
            self.catch_up(table, seats=True)
        return table

    def _evict(self) -> None:
        """Forget tables nobody follows once too many are in memory (the database keeps them; they
        are loaded again on demand): finished ones first, then unfinished ones that saw nothing for
        ``IDLE_EVICTION`` and either need no driver (no bot, no timer) or wait for their people
        (``waits_for_people``: their driver is stopped, and started again when a player's visit
        loads the table). Without the second kind, tables people create and abandon would pile up
        in memory for ever (security audit 9: with a timer or a bot, they did)."""
        with self.lock:
            tables = list(self.tables.values())
        finished = [t for t in tables if t.over and not t.subscribers]
        finished.sort(key=_last_change)
        forget = finished[: len(finished) // 2 + 1]
        if len(tables) - len(forget) > MAX_IN_MEMORY:
            quiet_since = utcnow() - IDLE_EVICTION
            idle = [
                t
                for t in tables
                if not t.over
                and not t.subscribers
                and _last_change(t) < quiet_since
                and (not t.driven or (self.evict_waiting and self.waits_for_people(t)))
            ]
            idle.sort(key=_last_change)
            forget += idle[: len(tables) - len(forget) - MAX_IN_MEMORY // 2]
        gone = []
        with self.lock:
            for table in forget:
                if not table.subscribers and self.tables.pop(table.id, None) is not None:
                    gone.append(table)
        for table in gone:
            if table.driven:
                for callback in self.on_evicted:
                    callback(table)

    def waits_for_people(self, table: LiveTable) -> bool:
        """Whether nothing but a person can move the table on: no bot (or standby bot) is to move,
        and no present player's turn clock is running. Such a table's driver has nothing to do."""
        if self.auto_seat(table) is not None:
            return False
        with table.lock:
            if table.state is None or table.over:
                return True
            return not any(
                table.turn_timer and info.joined and not info.away and not info.is_bot
                for info in (table.seats[seat] for seat in table.state.to_act)
            )

    def list(self, status: str | None = None, limit: int = 100) -> list[dict[str, Any]]:
        """Summaries of the newest tables, from memory when live, else from their rows (a finished
        table is not replayed just to be listed)."""
        with self.sessions() as session:
            query = select(TableRow).order_by(TableRow.updated_at.desc()).limit(limit)
            if status:
                query = query.where(TableRow.status == status)
            rows = list(session.scalars(query))
            seats: dict[str, list[SeatRow]] = {}
            if rows:
                found = session.scalars(
                    select(SeatRow).where(SeatRow.table_id.in_([r.id for r in rows])).order_by(SeatRow.seat)
                )
                for seat in found:
                    seats.setdefault(seat.table_id, []).append(seat)
        out = []
        for row in rows:
            with self.lock:
                table = self.tables.get(row.id)
            if table is not None:
                with table.lock:
                    out.append(table.summary())
                continue
            game = find_game(row.game)
            out.append(
                {
                    "id": row.id,
                    "game": row.game,
                    "title": game.title if game is not None else row.game,
                    "options": json.loads(row.options),
                    "status": row.status,
                    "seq": row.seq,
                    "to_act": [],
                    "seats": [
                        Seat(s.seat, s.kind, "", s.name, s.joined, open=s.open).public()
                        for s in seats.get(row.id, [])
                    ],
                    "result": json.loads(row.result) if row.result else None,
                    "turn_timer": row.turn_timer,
                    "seed_chosen": row.seed_chosen,
                    "commitment": commitment(row.seed, row.salt) if row.salt else None,
                    "created_at": row.created_at.isoformat() if row.created_at else None,
                    "updated_at": row.updated_at.isoformat() if row.updated_at else None,
                }
            )
        return out

    # -- start-up --------------------------------------------------------------------------------------
    def load_unfinished(self) -> builtins.list[LiveTable]:  # (list: also a method's name here)
        """Rebuild every table that is not finished and needs a driver (a bot seat or a turn timer;
        saved position + later moves, or seed + moves). The others wait in the database until
        someone opens them: a start must not cost one rebuild per table ever abandoned. Past
        ``MAX_IN_MEMORY`` the tables that wait for their people are forgotten again as they come
        (``_evict``), so memory holds no more of them than it does while the server runs. A table
        with a person's seat that has been quiet for ``IDLE_EVICTION`` is not even read: nothing
        happens there until a person comes back, and that visit loads it with its driver (a bot
        worker hears of it on the hub), so a start no longer reads every table ever abandoned.
        Tables of bots alone are always resumed."""
        tables = []
        for table_id in self.driven_unfinished_ids(people_quiet_before=utcnow() - IDLE_EVICTION):
            table = self._load(table_id)
            if table is not None:
                with self.lock:
                    self.tables[table_id] = table
                    crowded = len(self.tables) > MAX_IN_MEMORY
                tables.append(table)
                if crowded:
                    self._evict()
        with self.lock:
            return [table for table in tables if self.tables.get(table.id) is table]

    def driven_unfinished_ids(
        self, changed_since: datetime | None = None, people_quiet_before: datetime | None = None
    ) -> builtins.list[str]:
        """The ids of the unfinished tables that need a driver (a bot seat or a turn timer); with
        ``changed_since``, only those that changed since then; with ``people_quiet_before``,
        without the tables that have a person's seat and have not changed since then."""
        bot_tables = select(SeatRow.table_id).where(SeatRow.kind.like("bot:%"))
        query = select(TableRow.id).where(
            TableRow.status.in_(("open", "running")),
            (TableRow.turn_timer > 0) | TableRow.id.in_(bot_tables),
        )
        if changed_since is not None:
            query = query.where(TableRow.updated_at >= changed_since)
        if people_quiet_before is not None:
            people_tables = select(SeatRow.table_id).where(SeatRow.kind.not_like("bot:%"))
            query = query.where(
                (TableRow.updated_at >= people_quiet_before) | TableRow.id.not_in(people_tables)
            )
        with self.sessions() as session:
            return list(session.scalars(query))

    def _load(self, table_id: str) -> LiveTable | None:
        # Core statements built once, on one connection: loading is what every process does the
        # first time it hears of a table, so it skips the ORM's per-row bookkeeping.
        with self.engine.connect() as conn:
            row = conn.execute(LOAD_TABLE, {"tid": table_id}).first()
            if row is None:
                return None
            seats = list(conn.execute(LOAD_SEATS, {"tid": table_id}))
            moves = list(conn.execute(LOAD_MOVES, {"tid": table_id, "after": 0}))
            snap = conn.execute(LOAD_SNAPSHOT, {"tid": table_id}).first()
        game = find_game(row.game)
        table = LiveTable(
            id=row.id,
            game=game,  # type: ignore[arg-type]
            options=json.loads(row.options),
            num_players=row.num_players,
            seed=row.seed,
            seats=[Seat(s.seat, s.kind, s.token, s.name, s.joined, open=s.open) for s in seats],
            state=None,
            status=row.status,
            turn_timer=row.turn_timer,
            error=row.error,
            created_at=row.created_at,
            updated_at=row.updated_at,
            actions=[(m.seat, m.action) for m in moves],
            secret=[bool(m.secret) for m in moves],
            salt=row.salt,
            seed_chosen=bool(row.seed_chosen),
        )
        if game is None:
            table.status, table.error = "error", f"the game {row.game!r} is not available"
            table.game = MissingGame(row.game)  # type: ignore[assignment]
            return table
        if [m.seq for m in moves] != list(range(1, len(moves) + 1)):
            table.status, table.error = "error", "the stored moves have gaps"
            return table
        try:
            table.state = self._rebuild(table, snap)
        except Exception as exc:
            log.exception("table %s cannot be rebuilt", table_id)
            shown = str(exc) if isinstance(exc, RecordError) else type(exc).__name__
            table.status, table.error = "error", f"cannot rebuild the position: {shown}"
            return table
        if table.state.is_over and table.status != "finished":
            table.status = "finished"
        elif table.seq >= MAX_LIVE_MOVES and not table.over:
            self._end_at_move_limit(table)
        self._mark_turns(table)
        return table

    def _end_at_move_limit(self, table: LiveTable) -> None:
        """A table stored at ``MAX_LIVE_MOVES`` but still open or running (one from before such a
        table ended, or whose last move's process stopped in between) ends now, as its last move
        would have ended it."""
        table.status, table.error = "error", ENDED_AT_MOVE_LIMIT
        try:
            with self.engine.begin() as conn:
                conn.execute(
                    TABLES.update()
                    .where(TABLES.c.id == table.id, TABLES.c.status.in_(("open", "running")))
                    .values(status="error", error=ENDED_AT_MOVE_LIMIT)
                )
        except Exception:  # ended in memory all the same; the next load tries again
            log.exception("table %s: its end at the move limit could not be stored", table.id)

    def _rebuild(self, table: LiveTable, snap: Any) -> State:
        game = table.game
        if snap is not None and snap.seq <= table.seq:
            try:
                state = game.state_from_json(json.loads(snap.doc))
                for index in range(snap.seq, table.seq):
                    seat, text = table.actions[index]
                    state.apply_text(seat, text)
                return state
            except Exception as exc:  # fall back to the seed and every move
                log.warning("table %s: saved position refused (%s); replaying its moves", table.id, exc)
        state = game.new_game(table.num_players, table.options, table.seed)
        for index, (seat, text) in enumerate(table.actions):
            try:
                state.apply_text(seat, text)
            except ActionError as exc:
                # The message reaches every viewer (the table's error): no move text, which may be a
                # secret choice, and no engine message, which may quote it (the log has both).
                log.warning("table %s: move %d (%d: %r) is refused: %s", table.id, index + 1, seat, text, exc)
                raise RecordError(f"move {index + 1} (seat {seat}) is refused ({exc.rule})") from None
        return state

    # -- moves ---------------------------------------------------------------------------------------------
    def act(self, table: LiveTable, token: Any, seq: Any, action: Any) -> int:
        """A human's move: checked token, sequence number and engine legality, then stored."""
        return self.commit(table, _mover(table, token, seq), action, "human", seq, notation=True)

    async def act_on_loop(self, table: LiveTable, token: Any, seq: Any, action: Any) -> int:
        """``act`` for callers on the event loop (see ``commit_on_loop``)."""
        return await self.commit_on_loop(
            table, _mover(table, token, seq), action, "human", seq, notation=True
        )

    def draft(self, table: LiveTable, token: Any, steps: builtins.list[str]) -> dict[str, Any]:
        """Where a seat's unsent steps lead (``State.draft``): read-only, the position untouched."""
        seat = playing_seat(table, token)
        with table.lock:
            state = table.state
            if state is None or table.over:
                raise TableError(409, "table.over", N_("the table is not being played"))
            try:
                found = state.draft(seat.seat, steps)
            except ActionError as exc:
                raise TableError.refused(table.game, exc) from None
            return {"seq": table.seq, **found}

    def _parse(self, table: LiveTable, seat: int, action: Any) -> Any:
        state = table.state
        assert state is not None
        if isinstance(action, str):
            if not action.strip() or len(action) > 500:
                raise TableError(
                    422, "notation.empty" if not action.strip() else "notation.too_long", N_("not a move")
                )
            try:
                return state.parse_action(action, seat)
            except ActionError as exc:
                raise TableError.refused(table.game, exc) from None
            except Exception as exc:
                raise TableError(
                    422,
                    "notation.invalid",
                    N_("cannot read the move {text!r}: {problem}"),
                    text=action[:80],
                    problem=type(exc).__name__,
                ) from None
        if isinstance(action, int) and not isinstance(action, bool):
            try:
                space = table.game.action_space(table.num_players, table.options)
                if not 0 <= action < len(space):
                    raise MalformedAction("action.not_in_space", "no action number {number}", number=action)
                return space[action]
            except ActionError as exc:
                raise TableError.refused(table.game, exc) from None
            except Exception:
                raise TableError(
                    422, "action.no_space", N_("this game takes moves as notation text")
                ) from None
        raise TableError(422, "request.action", N_("action must be notation text (or an action number)"))

    def _status(self, table: LiveTable, state: State | None = None, joining: int | None = None) -> str:
        if table.status in ("finished", "error"):
            return table.status
        state = state if state is not None else table.state
        if state is not None and state.is_over:
            return "finished"
        waiting = any(s.takeable and s.seat != joining for s in table.seats)
        return "open" if waiting else "running"

    # commit_on_loop (below) has the same parameters on purpose: the async twin callers on the
    # event loop use, which falls back to this one in a worker thread.
    def commit(
        self,
        table: LiveTable,
        seat: int,
        action: Any,
        by: str,
        expected_seq: int,
        *,
        notation: bool = False,
    ) -> int:
        """Apply ``action`` for ``seat`` and store it in one transaction; returns the new seq.

        The move is applied to a copy of the position; the copy replaces the live position only
        after the database took the move, so memory and database never disagree and readers never
        wait for the database. ``expected_seq`` must be the current move count; with ``notation``
        the action is text (or an action number) still to be read."""
        with table.write_lock:
            if expected_seq > table.seq and self.shared:
                # The client saw later moves through another process than the hub has told
                # this one of yet: read them (cheaper than a 409 and the client's retry).
                self._catch_up(table)
            move = self._prepare(table, seat, action, by, expected_seq, notation)
            try:
                self._store_move(table, move)
            except TableError as exc:
                if exc.status != 409:
                    raise
                self._catch_up(table)  # another server process stored this move: learn what it was
                if not _only_hidden_choices_since(table, seat, expected_seq):
                    raise
                # it was another seat's secret choice, which leaves this move standing: once more
                move = self._prepare(table, seat, action, by, expected_seq, notation)
                self._store_move(table, move)
            self._install(table, move)
        self._announce(table, move)
        return move.seq

    # The same parameters as commit (above) on purpose: its async twin, which falls back to it.
    async def commit_on_loop(
        self,
        table: LiveTable,
        seat: int,
        action: Any,
        by: str,
        expected_seq: int,
        *,
        notation: bool = False,
    ) -> int:
        """``commit`` for callers on the event loop: with PostgreSQL's asynchronous move store
        (``async_store``) the usual move is checked, stored and installed on the loop, with no
        worker thread and no thread hand-offs (which cost more CPU than the move itself); anything
        else (SQLite, a saved position or a player joining, the table busy in a thread, moves to
        catch up first) goes to a worker thread as before. The write, once begun, finishes even if
        the caller is cancelled (a closed socket), so memory never falls behind the database."""
        store = self.async_store
        if store is None or not table.write_lock.acquire(blocking=False):
            return await self._commit_in_thread(table, seat, action, by, expected_seq, notation)
        if expected_seq > table.seq and self.shared:
            # Released once, before the thread: a refusal there must not release the lock a second
            # time (that raised, or freed another writer's hold and let two writers in at once).
            table.write_lock.release()
            return await self._commit_in_thread(table, seat, action, by, expected_seq, notation)
        try:
            move = self._prepare(table, seat, action, by, expected_seq, notation)
        except BaseException:
            table.write_lock.release()
            raise
        # From here the write lock is released by the shielded task, whatever becomes of the caller.
        try:
            await asyncio.shield(asyncio.ensure_future(self._store_on_loop(table, move, store)))
        except TableError as exc:
            # Another process stored a move first (now caught up); another seat's secret choice
            # leaves this one standing: the thread path takes it at the new seq.
            if exc.status == 409 and _only_hidden_choices_since(table, seat, expected_seq):
                return await self._commit_in_thread(table, seat, action, by, expected_seq, notation)
            raise
        return move.seq

    async def _commit_in_thread(
        self, table: LiveTable, seat: int, action: Any, by: str, expected_seq: int, notation: bool
    ) -> int:
        return await anyio.to_thread.run_sync(
            functools.partial(self.commit, table, seat, action, by, expected_seq, notation=notation)
        )

    async def _store_on_loop(self, table: LiveTable, move: PreparedMove, store: AsyncMoveStore) -> None:
        loop = asyncio.get_running_loop()
        try:
            try:
                if move.one_trip:
                    try:
                        await store.store(move.params(table.id))
                    except MoveNotStored as exc:
                        raise _first_writer_won() if exc.status == 409 else _store_failed() from None
                else:
                    await loop.run_in_executor(self.holders, self._store_move, table, move)
            except TableError as exc:
                if exc.status == 409:
                    await loop.run_in_executor(self.holders, self._catch_up, table)
                raise
            self._install(table, move)
        finally:
            table.write_lock.release()
        self._announce(table, move)

    def _prepare(
        self, table: LiveTable, seat: int, action: Any, by: str, expected_seq: int, notation: bool
    ) -> PreparedMove:
        """Check ``action`` and apply it to a copy of the position (the caller holds the write
        lock): everything the database write and ``_install`` need, or a TableError."""
        with table.lock:
            state = table.state
            if table.seq >= MAX_LIVE_MOVES and (state is None or not state.is_over):
                # 422, not 409: a bot's driver counts it as a failure and stops, never retries
                # (before the "broken" refusal: a table ended at the limit is in "error" too)
                raise TableError(
                    422,
                    "table.too_long",
                    N_("this table has reached {limit} moves: no more are taken"),
                    limit=MAX_LIVE_MOVES,
                )
            if state is None or table.status == "error":
                raise TableError(409, "table.broken", table.error or N_("the table cannot be played"))
            behind = expected_seq != table.seq
            if behind and not _only_hidden_choices_since(table, seat, expected_seq):
                raise _stale(table, expected_seq)
            if by == "standby" and not standby_may_play(table, seat):
                # Checked again here, with the move: the player may have come back (a move, the
                # socket, "I'm back") while the standby bot was thinking.
                raise _player_back()
            if state.is_over:
                raise (
                    _stale(table, expected_seq)
                    if behind
                    else TableError(422, "game.over", N_("the game is over"))
                )
            try:
                if notation:
                    action = self._parse(table, seat, action)
                text = state.format_action(action)
                secret = bool(state.is_secret(seat, action))
                after = state.clone()
                after.apply(seat, action)
            except (ActionError, TableError) as exc:
                if behind:  # chosen on an older position: the refusal is that it is stale
                    raise _stale(table, expected_seq) from None
                if isinstance(exc, TableError):
                    raise
                raise TableError.refused(table.game, exc) from None
            except Exception as exc:
                log.exception("table %s: the engine failed on %r", table.id, action)
                raise TableError(
                    422,
                    "engine.refused",
                    N_("the move could not be applied ({problem})"),
                    problem=type(exc).__name__,
                ) from None
            joins = by == "human" and not table.seats[seat].joined
            new_seq = table.seq + 1
            status = self._status(table, after, joining=seat if joins else None)
            if new_seq >= MAX_LIVE_MOVES and not after.is_over:
                status = "error"  # the last move a table takes: it ends here (_store_move: why)
            result = after.result() if after.is_over else None
            snapshot = None
            if new_seq % SNAPSHOT_EVERY == 0 and not after.is_over:
                try:
                    snapshot = json_text(after.to_json())
                except Exception:
                    snapshot = None
        return PreparedMove(
            seat=seat,
            text=text,
            by=by,
            secret=secret,
            seq=new_seq,
            status=status,
            result_text=json.dumps(result.to_json()) if result else None,
            snapshot=snapshot,
            joins=joins,
            now=utcnow(),
            after=after,
            # a standby move checks in its transaction that its seat is still away (_store_move)
            one_trip=self._one_trip
            and snapshot is None
            and not joins
            and status != "error"
            and by != "standby",
        )

    def _install(self, table: LiveTable, move: PreparedMove) -> None:
        """The stored move becomes the live position (the caller holds the write lock)."""
        with table.lock:
            table.state = move.after
            table.actions.append((move.seat, move.text))
            table.secret.append(move.secret)
            info = table.seats[move.seat]
            if move.joins:
                info.joined = True
            returned = move.by == "human" and info.away
            if move.by == "human":
                info.away = False
            table.status = move.status
            if move.status == "error":  # (only a move that reaches MAX_LIVE_MOVES makes one)
                table.error = ENDED_AT_MOVE_LIMIT
            table.updated_at = move.now
            self._mark_turns(table, restarted(table, move.seat, move.secret, returned))
            self._notify(table)

    def _announce(self, table: LiveTable, move: PreparedMove) -> None:
        self._stored(
            table.id,
            "move",
            move.seq,
            {
                "seat": move.seat,
                "action": move.text,
                "secret": move.secret,
                "by": move.by,
                "status": move.status,
                "joins": move.joins,
                # a bot worker that forgot the table (it waited for its people) loads it again
                "driven": table.driven,
            },
        )

    def _store_move(self, table: LiveTable, move: PreparedMove) -> None:
        """One transaction: move ``tt_tables.seq`` forward only from the old value, insert the move
        (and a saved position now and then). 409 when another writer was first, 503 when the
        database is unreachable."""
        if move.one_trip:
            # PostgreSQL: the usual move as one statement in one round trip, without a transaction
            # around it (one statement is atomic).
            with _storing_move(table.id), self._autocommit.connect() as conn:
                stored = conn.exec_driver_sql(ADVANCE_AND_INSERT_PG, move.params(table.id)).rowcount
            if stored != 1:
                raise _first_writer_won()
            return
        with _storing_move(table.id), self.engine.begin() as conn:
            moved = conn.execute(
                ADVANCE,
                {
                    "tid": table.id,
                    "old": move.seq - 1,
                    "new": move.seq,
                    "status": move.status,
                    "now": move.now,
                    "result": move.result_text,
                },
            )
            if moved.rowcount != 1:
                raise _first_writer_won()
            if (
                move.by == "standby"
                and conn.execute(STILL_AWAY, {"tid": table.id, "seat_no": move.seat}).rowcount != 1
            ):
                # The player came back through another process, whose news has not reached this
                # one (or was lost): the move is not stored, and this process knows now.
                self._back_elsewhere(table, move.seat)
                raise _player_back()
            conn.execute(
                INSERT_MOVE,
                {
                    "table_id": table.id,
                    "seq": move.seq,
                    "seat": move.seat,
                    "action": move.text,
                    "by": move.by,
                    "secret": move.secret,
                    "created_at": move.now,
                },
            )
            if move.snapshot is not None:
                conn.execute(SNAPSHOTS.insert().values(table_id=table.id, seq=move.seq, doc=move.snapshot))
                # Only the newest saved position is ever read: a long table kept one for every
                # SNAPSHOT_EVERY moves, up to 78 whole positions (security audit 17).
                conn.execute(
                    SNAPSHOTS.delete().where(SNAPSHOTS.c.table_id == table.id, SNAPSHOTS.c.seq < move.seq)
                )
            if move.status == "error":  # the move that reached MAX_LIVE_MOVES: why the table ended
                conn.execute(TABLES.update().where(TABLES.c.id == table.id).values(error=ENDED_AT_MOVE_LIMIT))
            if move.joins:
                conn.execute(
                    SEATS.update()
                    .where(SEATS.c.table_id == table.id, SEATS.c.seat == move.seat)
                    .values(joined=True)
                )

    # -- bots ----------------------------------------------------------------------------------------------------
    def auto_seat(self, table: LiveTable) -> tuple[int, str] | None:
        """The first seat in ``to_act`` that a bot plays now: a bot seat, or an away human while
        somebody is still at the table. With every human seat away (or never taken) the table
        waits for a player to come back: one short turn timer and a single visit must not turn a
        table into a bot-only one that the limit on those never counted (security audit F1)."""
        with table.lock:
            if table.state is None or table.over:
                return None
            for seat in table.state.to_act:
                info = table.seats[seat]
                if info.is_bot:
                    return seat, info.kind.removeprefix("bot:")
                if standby_may_play(table, seat):
                    return seat, self.standby_name(table.game)
        return None

    def standby_name(self, game: Game) -> str:
        if self.standby_bot:
            return self.standby_bot
        return "greedy" if "greedy" in game.bots() else "random"

    def agent(self, table: LiveTable, seat: int, name: str) -> Agent:
        from ..bots import make_bot
        from ..core.session import bot_agent

        key = (seat, name)
        agent = table.agents.get(key)
        if agent is None:
            seed = derive_seed(table.seed, seat, name)
            agent = table.agents[key] = bot_agent(make_bot(table.game, name, seed), seed)
        return agent

    def expire_timers(self, table: LiveTable) -> float | None:
        """Mark humans whose turn timer ran out as away; returns seconds until the next expiry."""
        if not table.turn_timer:
            return None
        now = time.monotonic()
        soonest = None
        gone: list[int] = []
        with table.lock:
            if table.state is None or table.over:
                return None
            for seat in table.state.to_act:
                info = table.seats[seat]
                # A seat whose player never arrived waits for them: a timer there would hand a
                # human seat to a standby bot, a bot-only table the limit on those never counted.
                if info.is_bot or info.away or not info.joined or seat not in table.turn_since:
                    continue
                left = table.turn_timer - (now - table.turn_since[seat])
                if left <= 0:
                    gone.append(seat)
                else:
                    soonest = left if soonest is None else min(soonest, left)
        if not gone:
            return soonest
        # Stored first (security audit 23): a standby move is stored only while its seat is away in
        # the database, so that a "back" heard by another process stops it.
        try:
            for seat in gone:
                self._write_away(table, seat, True)
        except TableError:
            return 1.0  # the database is away: try again in a second
        marked = []
        with table.lock:
            now = time.monotonic()
            acting = table.state.to_act if table.state is not None and not table.over else ()
            for seat in gone:
                info = table.seats[seat]
                since = table.turn_since.get(seat)
                # Not if the player came back (or moved) while the flag was written: their clock
                # runs again, and the stored flag alone lets no standby bot move (memory decides first).
                if seat in acting and not info.away and since is not None and now - since >= table.turn_timer:
                    info.away = True
                    table.timed_out[seat] = table.seq
                    marked.append(seat)
            if marked:
                self._notify(table)
        for seat in marked:  # the web processes show it; the seat's return is announced the same way
            self._stored(table.id, "away", table.seq, {"seat": seat, "away": True})
        return 0.0
