"""Live tables: the positions in memory, every move checked by the engine and stored before it is
acknowledged, and the payloads each seat (or a spectator) is allowed to see.

Everything here is synchronous and thread-safe (one lock per table); the FastAPI layer calls it from
worker threads and hands changes to the event loop through ``Hub`` callbacks.
"""

from __future__ import annotations

import json
import logging
import secrets
import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import bindparam, select, update
from sqlalchemy.exc import IntegrityError

from ..core.errors import ActionError, MalformedAction, OptionError, RecordError
from ..core.game import Game, State
from ..core.record import Record, state_digest
from ..core.rng import derive_seed
from .catalog import find_game
from .db import MoveRow, SeatRow, SnapshotRow, TableRow, utcnow

log = logging.getLogger("tabletown.web")
_TABLES, _SEATS, _MOVES, _SNAPSHOTS = (
    TableRow.__table__,
    SeatRow.__table__,
    MoveRow.__table__,
    SnapshotRow.__table__,
)
# The two statements of every move, built once (building a statement costs more than running it).
_ADVANCE = (
    _TABLES.update()
    .where(_TABLES.c.id == bindparam("tid"), _TABLES.c.seq == bindparam("old"))
    .values(
        seq=bindparam("new"),
        status=bindparam("status"),
        updated_at=bindparam("now"),
        result=bindparam("result"),
    )
)
_INSERT_MOVE = _MOVES.insert()

SNAPSHOT_EVERY = 64  # moves between saved positions
MAX_SEED = 2**63 - 1
REPLAY_CHECKPOINT = 32
MAX_IN_MEMORY = 2000  # tables kept in memory before finished ones are forgotten


class TableError(Exception):
    """A request refused by the table service; ``status`` is the HTTP status to answer with."""

    def __init__(self, status: int, rule: str, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.rule = rule
        self.message = message

    def to_json(self) -> dict[str, Any]:
        return {"rule": self.rule, "message": self.message}


def not_found() -> TableError:
    return TableError(404, "table.not_found", "no such table")


@dataclass
class Seat:
    seat: int
    kind: str  # "human" or "bot:NAME"
    token: str
    name: str | None = None
    joined: bool = False
    away: bool = False  # a human whose turn timer ran out: a standby bot plays for them

    @property
    def is_bot(self) -> bool:
        return self.kind.startswith("bot:")

    def public(self) -> dict[str, Any]:
        return {
            "seat": self.seat,
            "kind": self.kind,
            "name": self.name,
            "joined": self.joined,
            "away": self.away,
        }


@dataclass(eq=False)
class Subscriber:
    """A WebSocket (or any listener) following one table as one seat."""

    seat: int | None
    since: int
    push: Callable[[dict[str, Any]], None]


@dataclass(eq=False)
class LiveTable:
    id: str
    game: Game
    options: dict[str, Any]
    num_players: int
    seed: int
    seats: list[Seat]
    state: State | None
    status: str
    turn_timer: int | None = None
    error: str | None = None
    created_at: Any = None
    updated_at: Any = None
    actions: list[tuple[int, str]] = field(default_factory=list)
    lock: threading.RLock = field(default_factory=threading.RLock)
    subscribers: list[Subscriber] = field(default_factory=list)
    turn_since: dict[int, float] = field(default_factory=dict)  # seat -> monotonic time its turn began
    replay_points: dict[int, State] = field(default_factory=dict)
    agents: dict[tuple[int, str], Callable] = field(default_factory=dict)
    on_change: list[Callable[[LiveTable], None]] = field(default_factory=list)

    @property
    def seq(self) -> int:
        return len(self.actions)

    @property
    def over(self) -> bool:
        return self.status in ("finished", "error")

    def seat_for(self, token: Any) -> Seat | None:
        if not isinstance(token, str) or not token:
            return None
        for seat in self.seats:
            if secrets.compare_digest(seat.token, token):
                return seat
        return None

    def summary(self) -> dict[str, Any]:
        result = None
        if self.state is not None and self.status == "finished":
            res = self.state.result()
            result = res.to_json() if res else None
        return {
            "id": self.id,
            "game": self.game.name,
            "title": self.game.title,
            "options": self.options,
            "status": self.status,
            "seq": self.seq,
            "to_act": list(self.state.to_act) if self.state is not None and not self.over else [],
            "seats": [s.public() for s in self.seats],
            "result": result,
            "turn_timer": self.turn_timer,
            "created_at": self.created_at.isoformat() if self.created_at else None,
            "updated_at": self.updated_at.isoformat() if self.updated_at else None,
        }

    def record(self) -> Record:
        record = Record(
            game=self.game.name,
            options=dict(self.options),
            seats=[s.kind for s in self.seats],
            seed=self.seed,
            actions=list(self.actions),
        )
        if self.state is not None and self.state.is_over:
            record.finish(self.state)
        return record


def describe(game: Game, event: dict[str, Any]) -> str:
    try:
        return str(game.describe_event(event))
    except Exception:
        return str(event.get("kind", "event"))


def seat_view(state: State, seat: int | None, since: int) -> dict[str, Any]:
    try:
        return state.view(seat, since)
    except TypeError:  # a game not yet on contract 2 (view without ``since``)
        if since:
            raise
        return state.view(seat)


def build_payload(table: LiveTable, seat: int | None, since: int = 0) -> dict[str, Any]:
    """The seat's view (``state.view(seat, since)``) plus what a client needs around it.

    Call with ``table.lock`` held. Only contract data is used: the view, ``to_act``, the seat's legal
    moves as notation, and the game's own wording of the events it shows."""
    state = table.state
    if state is None:
        return {
            "table": table.id,
            "game": table.game.name,
            "seq": table.seq,
            "status": table.status,
            "error": table.error,
            "to_act": [],
            "legal": [],
            "seats": [s.public() for s in table.seats],
        }
    payload = dict(seat_view(state, seat, since))
    to_act = list(state.to_act)
    payload.setdefault("to_act", to_act)
    legal: list[str] = []
    if seat is not None and seat in to_act:
        legal = [state.format_action(a) for a in state.legal_actions(seat)]
    events = payload.get("events")
    texts = []
    if isinstance(events, list):
        for event in events:
            if isinstance(event, dict):
                texts.append([event.get("i"), describe(table.game, event)])
    now = time.monotonic()
    deadlines = {}
    if table.turn_timer:
        for s in to_act:
            if not table.seats[s].is_bot and s in table.turn_since:
                deadlines[str(s)] = max(0.0, round(table.turn_timer - (now - table.turn_since[s]), 1))
    payload.update(
        {
            "table": table.id,
            "seq": table.seq,
            "legal": legal,
            "status": table.status,
            "seats": [s.public() for s in table.seats],
            "event_text": texts,
            "since": since,
            "turn_timer": table.turn_timer,
            "turn_deadline": deadlines,
        }
    )
    return payload


class TableService:
    """All tables of one server: creation, moves, loading from and writing to the database."""

    def __init__(self, sessions, *, standby_bot: str | None = None) -> None:
        self.sessions = sessions
        self.engine = sessions.kw["bind"]
        self.tables: dict[str, LiveTable] = {}
        self.lock = threading.RLock()
        self.standby_bot = standby_bot
        self.uploaded: OrderedDict[str, LiveTable] = OrderedDict()
        self.on_new_table: list[Callable[[LiveTable], None]] = []

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
            raise TableError(422, "table.unknown_game", f"unknown game {game_name!r}")
        if options is None:
            options = {}
        if not isinstance(options, dict):
            raise TableError(422, "table.options", "options must be an object")
        if not isinstance(seats, list) or not seats:
            raise TableError(422, "table.seats", "seats must be a non-empty list")
        kinds: list[str] = []
        for spec in seats:
            if not isinstance(spec, str) or len(spec) > 64:
                raise TableError(422, "table.seats", 'each seat is "human" or "bot:NAME"')
            spec = spec.strip().lower()
            if spec == "human":
                kinds.append("human")
            elif spec.startswith("bot:") or spec == "bot":
                name = spec.removeprefix("bot").removeprefix(":") or "random"
                try:
                    from ..bots import make_bot

                    make_bot(game, name, 0)
                except OptionError as exc:
                    raise TableError(422, "table.bot", str(exc)) from None
                kinds.append(f"bot:{name}")
            else:
                raise TableError(422, "table.seats", f'a seat is "human" or "bot:NAME", not {spec!r}')
        if seed is not None and (
            isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed <= MAX_SEED
        ):
            raise TableError(422, "table.seed", f"the seed is a whole number from 0 to {MAX_SEED}")
        if turn_timer is not None and (
            isinstance(turn_timer, bool) or not isinstance(turn_timer, int) or not 1 <= turn_timer <= 86400
        ):
            raise TableError(422, "table.turn_timer", "the turn timer is a number of seconds from 1 to 86400")
        if names is not None and not (
            isinstance(names, list) and all(n is None or isinstance(n, str) for n in names)
        ):
            raise TableError(422, "table.names", "names must be a list of strings")
        try:
            state = game.new_game(len(kinds), options, seed)
        except OptionError as exc:
            raise TableError(422, "table.options", str(exc)) from None
        except Exception as exc:  # a game that cannot start with these options must not crash us
            log.exception("new_game failed")
            raise TableError(422, "table.options", f"{game.title} cannot start this set-up: {exc}") from None
        table_id = secrets.token_urlsafe(9).replace("-", "x").replace("_", "y")
        seat_list = [
            Seat(
                seat=i,
                kind=k,
                token=secrets.token_urlsafe(24),
                name=clean_name((names or [None] * 99)[i] if names and i < len(names) else None),
            )
            for i, k in enumerate(kinds)
        ]
        status = "open" if any(not s.is_bot for s in seat_list) else "running"
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
                )
            )
            session.flush()
            for s in seat_list:
                session.add(
                    SeatRow(
                        table_id=table.id, seat=s.seat, kind=s.kind, token=s.token, name=s.name, joined=False
                    )
                )
        self._mark_turns(table)
        with self.lock:
            self.tables[table.id] = table
        for callback in self.on_new_table:
            callback(table)
        return table

    # -- lookup --------------------------------------------------------------------------------------
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
            table = self.tables.setdefault(table_id, table)
            if len(self.tables) > MAX_IN_MEMORY:
                self._evict()
            return table

    def _evict(self) -> None:
        """Forget finished tables nobody follows (they are loaded again from the database on demand)."""
        idle = [t for t in self.tables.values() if t.over and not t.subscribers]
        idle.sort(key=lambda t: t.updated_at or utcnow())
        for table in idle[: len(idle) // 2 + 1]:
            self.tables.pop(table.id, None)

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
                        Seat(s.seat, s.kind, "", s.name, s.joined).public() for s in seats.get(row.id, [])
                    ],
                    "result": json.loads(row.result) if row.result else None,
                    "turn_timer": row.turn_timer,
                    "created_at": row.created_at.isoformat() if row.created_at else None,
                    "updated_at": row.updated_at.isoformat() if row.updated_at else None,
                }
            )
        return out

    # -- start-up --------------------------------------------------------------------------------------
    def load_unfinished(self) -> list[LiveTable]:
        """Rebuild every table that is not finished (saved position + later moves, or seed + moves)."""
        with self.sessions() as session:
            ids = list(session.scalars(select(TableRow.id).where(TableRow.status.in_(("open", "running")))))
        tables = []
        for table_id in ids:
            table = self._load(table_id)
            if table is not None:
                with self.lock:
                    self.tables[table_id] = table
                tables.append(table)
        return tables

    def _load(self, table_id: str) -> LiveTable | None:
        with self.sessions() as session:
            row = session.get(TableRow, table_id)
            if row is None:
                return None
            seats = list(
                session.scalars(select(SeatRow).where(SeatRow.table_id == table_id).order_by(SeatRow.seat))
            )
            moves = list(
                session.execute(
                    select(MoveRow.seq, MoveRow.seat, MoveRow.action)
                    .where(MoveRow.table_id == table_id)
                    .order_by(MoveRow.seq)
                )
            )
            snap = session.execute(
                select(SnapshotRow.seq, SnapshotRow.doc)
                .where(SnapshotRow.table_id == table_id)
                .order_by(SnapshotRow.seq.desc())
                .limit(1)
            ).first()
        game = find_game(row.game)
        table = LiveTable(
            id=row.id,
            game=game,  # type: ignore[arg-type]
            options=json.loads(row.options),
            num_players=row.num_players,
            seed=row.seed,
            seats=[Seat(s.seat, s.kind, s.token, s.name, s.joined) for s in seats],
            state=None,
            status=row.status,
            turn_timer=row.turn_timer,
            error=row.error,
            created_at=row.created_at,
            updated_at=row.updated_at,
            actions=[(m.seat, m.action) for m in moves],
        )
        if game is None:
            table.status, table.error = "error", f"the game {row.game!r} is not available"
            table.game = _missing_game(row.game)
            return table
        if [m.seq for m in moves] != list(range(1, len(moves) + 1)):
            table.status, table.error = "error", "the stored moves have gaps"
            return table
        try:
            table.state = self._rebuild(table, snap)
        except Exception as exc:
            log.exception("table %s cannot be rebuilt", table_id)
            table.status, table.error = "error", f"cannot rebuild the position: {exc}"
            return table
        if table.state.is_over and table.status != "finished":
            table.status = "finished"
        self._mark_turns(table)
        return table

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
                raise RecordError(f"move {index + 1} ({seat}: {text!r}) is refused: {exc}") from None
        return state

    # -- moves ---------------------------------------------------------------------------------------------
    def act(self, table: LiveTable, token: Any, seq: Any, action: Any) -> int:
        """A human's move: checked token, sequence number and engine legality, then stored."""
        seat = table.seat_for(token)
        if seat is None:
            raise TableError(403, "seat.bad_token", "this token holds no seat at this table")
        if isinstance(seq, bool) or not isinstance(seq, int):
            raise TableError(422, "request.seq", "seq must be the number of moves you have seen")
        with table.lock:
            if table.state is None or table.status == "error":
                raise TableError(409, "table.broken", table.error or "the table cannot be played")
            if seq != table.seq:
                raise TableError(409, "seq.stale", f"the table is at move {table.seq}, not {seq}")
            parsed = self._parse(table, seat.seat, action)
            changed = self._join(table, seat)
            seat.away = False
            return self.commit(table, seat.seat, parsed, "human", seq, joined=changed)

    def _parse(self, table: LiveTable, seat: int, action: Any) -> Any:
        state = table.state
        assert state is not None
        if isinstance(action, str):
            if not action.strip() or len(action) > 500:
                raise TableError(
                    422, "notation.empty" if not action.strip() else "notation.too_long", "not a move"
                )
            try:
                return state.parse_action(action, seat)
            except ActionError as exc:
                raise TableError(422, exc.rule, exc.message) from None
            except Exception as exc:
                raise TableError(
                    422, "notation.invalid", f"cannot read the move {action[:80]!r}: {type(exc).__name__}"
                ) from None
        if isinstance(action, int) and not isinstance(action, bool):
            try:
                space = table.game.action_space(table.num_players, table.options)
                if not 0 <= action < len(space):
                    raise MalformedAction("action.not_in_space", f"no action number {action}")
                return space[action]
            except ActionError as exc:
                raise TableError(422, exc.rule, exc.message) from None
            except Exception:
                raise TableError(422, "action.no_space", "this game takes moves as notation text") from None
        raise TableError(422, "request.action", "action must be notation text (or an action number)")

    def _join(self, table: LiveTable, seat: Seat) -> bool:
        if seat.joined:
            return False
        seat.joined = True
        return True

    def touch(self, table: LiveTable, token: Any, name: Any = None, back: bool = False) -> Seat:
        """A seat's player shows up (opens the page, connects, names themselves)."""
        seat = table.seat_for(token)
        if seat is None:
            raise TableError(403, "seat.bad_token", "this token holds no seat at this table")
        with table.lock:
            changed = self._join(table, seat)
            name = clean_name(name)
            if name is not None and name != seat.name:
                seat.name = name
                changed = True
            if back and seat.away:
                seat.away = False
                changed = True
            if changed:
                self._store_seat(table, seat)
                self._notify(table)
        return seat

    def sit(self, table: LiveTable, seat_no: Any, name: Any = None) -> Seat:
        """Take a human seat nobody has joined yet (from the lobby's list of open tables)."""
        if isinstance(seat_no, bool) or not isinstance(seat_no, int) or not 0 <= seat_no < len(table.seats):
            raise TableError(422, "seat.number", "no such seat")
        with table.lock:
            seat = table.seats[seat_no]
            if seat.is_bot or seat.joined:
                raise TableError(409, "seat.taken", "this seat is taken")
            seat.joined = True
            seat.name = clean_name(name) or seat.name
            self._store_seat(table, seat)
            self._notify(table)
        return seat

    def _store_seat(self, table: LiveTable, seat: Seat) -> None:
        status = self._status(table)
        with self.sessions.begin() as session:
            session.execute(
                update(SeatRow)
                .where(SeatRow.table_id == table.id, SeatRow.seat == seat.seat)
                .values(joined=seat.joined, name=seat.name)
            )
            if status != table.status:
                session.execute(update(TableRow).where(TableRow.id == table.id).values(status=status))
        table.status = status

    def _status(self, table: LiveTable) -> str:
        if table.status in ("finished", "error"):
            return table.status
        if table.state is not None and table.state.is_over:
            return "finished"
        return "open" if any(not s.is_bot and not s.joined for s in table.seats) else "running"

    def commit(
        self, table: LiveTable, seat: int, action: Any, by: str, expected_seq: int, joined: bool = False
    ) -> int:
        """Apply ``action`` for ``seat`` and store it in one transaction; returns the new seq.

        The position is restored if the engine refuses the move or the database does not take it, so
        memory and database never disagree. ``expected_seq`` must be the current move count."""
        with table.lock:
            state = table.state
            if state is None or table.status == "error":
                raise TableError(409, "table.broken", table.error or "the table cannot be played")
            if expected_seq != table.seq:
                raise TableError(409, "seq.stale", f"the table is at move {table.seq}, not {expected_seq}")
            if state.is_over:
                raise TableError(422, "game.over", "the game is over")
            # No copy is taken: the contract guarantees a refused move (ActionError) changes nothing,
            # and on any other failure the position is rebuilt from the stored moves (_restore).
            try:
                text = state.format_action(action)
                state.apply(seat, action)
            except ActionError as exc:
                raise TableError(422, exc.rule, exc.message) from None
            except Exception as exc:
                log.exception("table %s: the engine failed on %r", table.id, action)
                self._restore(table)
                raise TableError(
                    422, "engine.refused", f"the move could not be applied ({type(exc).__name__})"
                ) from None
            new_seq = table.seq + 1
            status = "finished" if state.is_over else self._status(table)
            result = state.result() if state.is_over else None
            snapshot = None
            if new_seq % SNAPSHOT_EVERY == 0 and not state.is_over:
                try:
                    snapshot = json.dumps(state.to_json(), separators=(",", ":"))
                except Exception:
                    snapshot = None
            now = utcnow()
            try:
                with self.engine.begin() as conn:
                    moved = conn.execute(
                        _ADVANCE,
                        {
                            "tid": table.id,
                            "old": table.seq,
                            "new": new_seq,
                            "status": status,
                            "now": now,
                            "result": json.dumps(result.to_json()) if result else None,
                        },
                    )
                    if moved.rowcount != 1:
                        raise TableError(409, "seq.stale", "another writer stored this move first")
                    conn.execute(
                        _INSERT_MOVE,
                        {
                            "table_id": table.id,
                            "seq": new_seq,
                            "seat": seat,
                            "action": text,
                            "by": by,
                            "created_at": now,
                        },
                    )
                    if snapshot is not None:
                        conn.execute(_SNAPSHOTS.insert().values(table_id=table.id, seq=new_seq, doc=snapshot))
                    if joined:
                        conn.execute(
                            _SEATS.update()
                            .where(_SEATS.c.table_id == table.id, _SEATS.c.seat == seat)
                            .values(joined=True)
                        )
            except TableError:
                self._restore(table)
                raise
            except IntegrityError:
                self._restore(table)
                raise TableError(409, "seq.stale", "another writer stored this move first") from None
            except Exception:
                log.exception("table %s: the move could not be stored", table.id)
                self._restore(table)
                raise TableError(503, "store.failed", "the move could not be stored; try again") from None
            table.actions.append((seat, text))
            table.status = status
            table.updated_at = now
            self._mark_turns(table)
            self._notify(table)
            return new_seq

    def _restore(self, table: LiveTable) -> None:
        """Rebuild the position from the stored moves after a move failed half-way (rare)."""
        try:
            table.state = self._rebuild(table, None)
        except Exception as exc:
            log.exception("table %s cannot be restored", table.id)
            table.status, table.error = "error", f"cannot rebuild the position: {exc}"

    def _mark_turns(self, table: LiveTable) -> None:
        now = time.monotonic()
        acting = set(table.state.to_act) if table.state is not None and not table.over else set()
        for seat in list(table.turn_since):
            if seat not in acting:
                del table.turn_since[seat]
        for seat in acting:
            table.turn_since.setdefault(seat, now)

    # -- listeners -------------------------------------------------------------------------------------------
    def subscribe(
        self, table: LiveTable, seat: int | None, since: int, push: Callable[[dict[str, Any]], None]
    ) -> tuple[Subscriber, dict[str, Any]]:
        """Follow a table; returns the subscriber and the first payload (events from ``since``)."""
        with table.lock:
            payload = build_payload(table, seat, since)
            sub = Subscriber(seat, payload.get("event_count", 0) or 0, push)
            table.subscribers.append(sub)
        return sub, payload

    def unsubscribe(self, table: LiveTable, sub: Subscriber) -> None:
        with table.lock:
            if sub in table.subscribers:
                table.subscribers.remove(sub)

    def payload(self, table: LiveTable, seat: int | None, since: int = 0) -> dict[str, Any]:
        with table.lock:
            return build_payload(table, seat, since)

    def _notify(self, table: LiveTable) -> None:
        for sub in list(table.subscribers):
            try:
                payload = build_payload(table, sub.seat, sub.since)
                sub.since = payload.get("event_count", sub.since) or sub.since
                sub.push(payload)
            except Exception:
                log.exception("table %s: a listener failed", table.id)
        for callback in table.on_change:
            callback(table)

    # -- bots ----------------------------------------------------------------------------------------------------
    def auto_seat(self, table: LiveTable) -> tuple[int, str] | None:
        """The first seat in ``to_act`` that a bot plays now (a bot seat, or an away human)."""
        with table.lock:
            if table.state is None or table.over:
                return None
            for seat in table.state.to_act:
                info = table.seats[seat]
                if info.is_bot:
                    return seat, info.kind.removeprefix("bot:")
                if info.away:
                    return seat, self.standby_name(table.game)
        return None

    def standby_name(self, game: Game) -> str:
        if self.standby_bot:
            return self.standby_bot
        return "greedy" if "greedy" in game.bots() else "random"

    def agent(self, table: LiveTable, seat: int, name: str) -> Callable:
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
        changed = False
        with table.lock:
            if table.state is None or table.over:
                return None
            for seat in table.state.to_act:
                info = table.seats[seat]
                if info.is_bot or info.away or seat not in table.turn_since:
                    continue
                left = table.turn_timer - (now - table.turn_since[seat])
                if left <= 0:
                    info.away = True
                    changed = True
                else:
                    soonest = left if soonest is None else min(soonest, left)
            if changed:
                self._notify(table)
        return 0.0 if changed else soonest

    # -- replays ------------------------------------------------------------------------------------------------------
    def replay_view(self, table: LiveTable, step: int, seat: int | None) -> dict[str, Any]:
        """The position after ``step`` moves as ``seat`` sees it (a new state; the live one untouched)."""
        with table.lock:
            actions = list(table.actions)
        if isinstance(step, bool) or not isinstance(step, int):
            raise TableError(422, "replay.step", "step is a move number")
        step = max(0, min(step, len(actions)))
        points = table.replay_points
        start = max((k for k in points if k <= step), default=None)
        if start is None:
            try:
                state = table.game.new_game(table.num_players, table.options, table.seed)
            except Exception as exc:
                raise TableError(422, "replay.setup", f"the record's set-up is refused: {exc}") from None
            start = 0
            points[0] = state.clone()
        else:
            state = points[start].clone()
        for index in range(start, step):
            player, text = actions[index]
            try:
                state.apply_text(player, text)
            except Exception as exc:
                raise TableError(
                    422, "replay.refused", f"move {index + 1} ({player}: {text!r}) is refused: {exc}"
                ) from None
            if (index + 1) % REPLAY_CHECKPOINT == 0 and index + 1 not in points:
                points[index + 1] = state.clone()
        view = dict(seat_view(state, seat, 0))
        view.setdefault("to_act", list(state.to_act))
        view.update(
            {
                "table": table.id,
                "step": step,
                "steps": len(actions),
                "seq": step,
                "moves": [[p, t] for p, t in actions],
                "event_text": [
                    [e.get("i"), describe(table.game, e)]
                    for e in view.get("events", [])
                    if isinstance(e, dict)
                ],
                "seats": [s.public() for s in table.seats],
                "legal": [],
            }
        )
        return view

    def uploaded_table(self, data: Any) -> LiveTable:
        """A record file someone uploaded, as a read-only table for the replay page (kept briefly)."""
        try:
            record = Record.from_json(data) if isinstance(data, dict) else None
        except RecordError as exc:
            raise TableError(422, "record.invalid", str(exc)) from None
        if record is None:
            raise TableError(422, "record.invalid", "a record is a JSON object")
        game = find_game(record.game)
        if game is None:
            raise TableError(422, "record.game", f"unknown game {record.game!r}")
        if not 1 <= len(record.seats) <= 16 or len(record.actions) > 200_000:
            raise TableError(422, "record.invalid", "the record's seats or moves are out of range")
        if not 0 <= record.seed <= MAX_SEED:
            raise TableError(422, "record.seed", "the record's seed is out of range")
        key = json.dumps(record.to_json(), sort_keys=True)
        with self.lock:
            table = self.uploaded.get(key)
            if table is not None:
                self.uploaded.move_to_end(key)
                return table
        table = LiveTable(
            id="upload",
            game=game,
            options=dict(record.options),
            num_players=len(record.seats),
            seed=record.seed,
            seats=[Seat(i, kind, "", None, True) for i, kind in enumerate(record.seats)],
            state=None,
            status="replay",
            actions=list(record.actions),
        )
        with self.lock:
            self.uploaded[key] = table
            while len(self.uploaded) > 16:
                self.uploaded.popitem(last=False)
        return table


def clean_name(name: Any) -> str | None:
    if not isinstance(name, str):
        return None
    name = " ".join(name.split())[:40]
    return name or None


class _MissingGame:
    def __init__(self, name: str) -> None:
        self.name = name
        self.title = name

    def describe_event(self, event: Any) -> str:
        return str(event.get("kind"))


def _missing_game(name: str) -> Any:
    return _MissingGame(name)


__all__ = ["LiveTable", "Seat", "TableError", "TableService", "build_payload", "state_digest"]
