"""Security audit 23 (2026-12-06): the multi-process deployment (several web processes and bot
workers on one PostgreSQL database, Redis pub/sub between them, a Redis lease per driven table).

Found and closed (``test_hole_*``, each failing on the code as audited):

* *The standby bot moved for a player who was back.* Who is away lived only in each process's
  memory. "I'm back" (``POST .../join``, or the seat's WebSocket opening) reached one web process,
  which answered at once and told the others through Redis; the bot worker, which had already
  decided the standby's move, checked its own memory (the news not yet there) and stored it. A
  "back" the worker never heard (its subscription lost for a moment, a Redis restart: pub/sub keeps
  nothing) left the seat away there for good: the standby bot played every one of the player's
  turns, first, while the player's page said they were present. The flag is now stored
  (``tt_seats.away``, migration 0005): the turn timer writes it before the seat is marked away,
  "back" clears it before it is answered, and a standby move is stored only while the database
  still has the seat away (in the move's transaction, after the table's row: 409 ``seat.back``),
  the refusing process then learning that the seat is back.
* *A bot worker that lost Redis kept driving.* A lease renewal that failed (Redis unreachable, a
  broken connection) was logged and the table's driver went on: after ``LEASE_MS`` another worker
  took the lease over and two workers drove the table (two standby bots and two turn timers for one
  seat). A worker that cannot renew a lease now stops driving that table until it holds it again.
* *Every "I'm back" made every bot worker rebuild the table.* A seat's every WebSocket handshake
  (no limit) and every "back" announce it on the hub, and a bot worker that did not hold the table
  (a table of people only, no timer: it never keeps those) loaded it from the database each time,
  every stored move of it, on its hub loop, which hands out every table's news: one client with a
  seat at a long table kept every bot worker busy and their own tables' bots late. A worker now
  remembers the tables it found it has nothing to drive (no bot, no timer; that never changes).

Checked and sound (no test of their own here; see the report in docs/server.md):

* Hub messages carry only fixed keys built by the server (orjson, values only: a chat line, a name,
  a move's text never become a key or another message); a receiver checks every field's type and
  range and applies a move only as the table's next one, through the engine, else reads the
  database. Only a process with Redis access can forge one.
* A dropped or lost hub message (the outbox's bound, an outage) leaves a copy behind, never ahead:
  every move is stored with ``UPDATE ... WHERE seq = old`` and checked by the engine on the
  storing process's copy, so a stale copy answers 409 (and catches up), never takes a move at a
  wrong seq; the sweep reads ``tt_tables.seq`` every 5 s.
* Leases: set NX with an owner id, renewed and released by compare-and-set scripts (nobody deletes
  another's lease); a killed worker's tables are taken over within ``LEASE_MS`` and their clocks
  run on in the worker that follows them; a worker restarted forgets who was away (the stored flag
  only fences standby moves) and gives every present player a whole timer.
* Per-address limits are per process: with N web processes one address gets N times each allowance
  (tables a minute, bot-only tables, bot games, sits, chat, sockets, polls, analyses asked);
  the analysis queue (50) is counted in the database and stays exact. None is multiplied further
  by anything a client does: a table counted under ``limit.bot_tables`` / ``limit.bot_games`` stays
  in its creating process's memory while it runs (it is driven and never idle); a restart of a web
  process forgets its counts (documented, not something a client can cause).
"""

from __future__ import annotations

import asyncio
import threading

import pytest
import sqlalchemy as sa
from web_helpers import create, wait_for

from tabletown.web import botworker, db
from tabletown.web.tables import TableError, TableService

TIMER = 30  # seconds; clocks are moved by hand, never waited out


def _service(url: str) -> TableService:
    """One server process's table service on the shared database, as a process with a Redis hub
    sees it (``shared``), but with no hub: its news reaches nobody, as if still on its way."""
    engine = db.make_engine(url)
    db.migrate(engine)
    service = TableService(db.session_factory(engine))
    service.shared = True
    return service


def _moves(url: str, table_id: str) -> list[tuple[int, str]]:
    engine = sa.create_engine(url)
    try:
        with engine.connect() as conn:
            rows = conn.execute(
                sa.text('SELECT seat, "by" FROM tt_moves WHERE table_id = :t ORDER BY seq'), {"t": table_id}
            )
            return [(row[0], row[1]) for row in rows]
    finally:
        engine.dispose()


def test_hole_the_standby_bot_never_moves_for_a_player_back_through_another_process(pg_url):
    """The player says "I'm back" to web process P while the bot worker W, which marked the seat
    away, has its standby move ready and has not heard the news (in flight on Redis, or lost):
    W's move must be refused, and W must learn that the seat is back (else, with the news lost, the
    standby bot played all the player's turns from then on)."""
    web, worker = _service(pg_url), _service(pg_url)
    table = web.create("toyrace", None, ["human", "human"], 5, TIMER, None)
    tokens = [web.touch(table, seat.token)[1] for seat in table.seats]  # both players arrive
    mine = worker.get(table.id)  # the worker drives it (its own copy, from the database)
    seat = mine.state.to_act[0]
    assert seat == 0
    mine.turn_since[seat] -= TIMER + 1
    worker.expire_timers(mine)  # the timer runs out in the worker: the seat is away there
    assert mine.seats[seat].away and worker.auto_seat(mine) == (seat, worker.standby_name(mine.game))
    move = mine.state.legal_actions(seat)[0]  # the standby bot's choice, made now

    web.touch(web.get(table.id), tokens[seat], back=True)  # "I'm back", answered by P

    with pytest.raises(TableError) as refused:
        worker.commit(mine, seat, move, "standby", mine.seq)
    assert (refused.value.status, refused.value.rule) == (409, "seat.back")
    assert _moves(pg_url, table.id) == []
    assert not mine.seats[seat].away  # the worker knows now: no standby bot at the next turns
    assert worker.auto_seat(mine) is None
    # The player, not a bot, makes the move.
    assert web.act(web.get(table.id), tokens[seat], 0, "b") == 1
    assert _moves(pg_url, table.id) == [(seat, "human")]


def test_a_standby_move_while_the_player_is_still_away_is_stored(pg_url):
    """The fence lets the standby bot play for a player who is away (and somebody else is present)."""
    web, worker = _service(pg_url), _service(pg_url)
    table = web.create("toyrace", None, ["human", "human"], 5, TIMER, None)
    for seat in table.seats:
        web.touch(table, seat.token)
    mine = worker.get(table.id)
    seat = mine.state.to_act[0]
    mine.turn_since[seat] -= TIMER + 1
    worker.expire_timers(mine)
    assert worker.commit(mine, seat, mine.state.legal_actions(seat)[0], "standby", mine.seq) == 1
    assert _moves(pg_url, table.id) == [(seat, "standby")]


class _Worker:
    """``botworker.run_worker`` on a thread of its own (its own event loop), stopped at the end."""

    def __init__(self, db_url: str, redis_url: str) -> None:
        self.loop = asyncio.new_event_loop()
        self.stop: asyncio.Event | None = None
        self.error: BaseException | None = None
        self.thread = threading.Thread(target=self._run, args=(db_url, redis_url), daemon=True)
        self.thread.start()

    def _run(self, db_url: str, redis_url: str) -> None:
        async def main() -> None:
            self.stop = asyncio.Event()
            await botworker.run_worker(db_url, redis_url, bot_delay=0.0, bot_seconds=2.0, stop=self.stop)

        try:
            self.loop.run_until_complete(main())
        except BaseException as exc:  # shown by close()
            self.error = exc

    def close(self) -> None:
        if self.stop is not None:
            self.loop.call_soon_threadsafe(self.stop.set)
        self.thread.join(30)
        assert self.error is None, self.error


def test_hole_a_worker_that_cannot_renew_its_lease_stops_driving(pg_url, redis_url, monkeypatch):
    """Redis answers the worker's claim, then stops answering (the connection broke): the renewals
    fail. The worker used to log it and drive on, while the lease lapsed and another worker took it."""
    renewals = {"failed": 0}
    drivers_seen: list[object] = []

    class Unreachable(botworker.Leases):
        taken = False

        async def take(self, table_id: str) -> bool:
            if Unreachable.taken:
                raise ConnectionError("Redis is unreachable")
            Unreachable.taken = True
            return True

        async def renew(self, table_id: str) -> bool:
            renewals["failed"] += 1
            raise ConnectionError("Redis is unreachable")

        async def release(self, table_id: str) -> None:
            pass

    class SeenDrivers(botworker.Drivers):
        def __init__(self, *args, **kwargs) -> None:
            super().__init__(*args, **kwargs)
            drivers_seen.append(self)

    monkeypatch.setattr(botworker, "Leases", Unreachable)
    monkeypatch.setattr(botworker, "Drivers", SeenDrivers)
    monkeypatch.setattr(botworker, "RENEW_SECONDS", 0.1)
    web = _service(pg_url)
    # A human seat to act and a bot seat: the driver waits for the human, it does not end.
    table = web.create("toyrace", None, ["human", "bot:random"], 5, None, None)
    web.touch(table, table.seats[0].token)
    worker = _Worker(pg_url, redis_url)
    try:
        wait_for(lambda: drivers_seen and table.id in drivers_seen[0].tasks, 30)  # claimed and driven
        wait_for(lambda: renewals["failed"] >= 1, 10)
        # No lease, no driver: another worker may hold the table by now.
        wait_for(lambda: table.id not in drivers_seen[0].tasks, 10)
    finally:
        worker.close()


def test_hole_every_back_does_not_make_a_bot_worker_reload_a_table_of_people(
    pg_url, redis_url, make_client, monkeypatch
):
    """A seat's WebSocket handshake (and "I'm back") is announced on the hub each time; a bot worker
    that does not hold the table (people only: it never keeps those) loaded it from the database at
    every announcement, every move of it, on the loop that hands out every table's news."""
    loads: dict[str, int] = {}

    class Counting(TableService):
        def _load(self, table_id: str):
            loads[table_id] = loads.get(table_id, 0) + 1
            return super()._load(table_id)

    monkeypatch.setattr(botworker, "TableService", Counting)
    worker = _Worker(pg_url, redis_url)
    try:
        client = make_client(pg_url, redis_url=redis_url, run_bots=False)
        # Wait for the worker to listen: a table with a bot is announced and loaded there.
        first = create(client, seats=["human", "bot:random"])["id"]
        wait_for(lambda: loads.get(first), 30)
        people = create(client, seats=["human", "human"])  # no bot, no timer: nothing to drive
        table_id, token = people["id"], people["seats"][0]["token"]
        for _ in range(12):
            answer = client.post(f"/api/tables/{table_id}/join", json={"token": token, "back": True})
            assert answer.status_code == 200
        # Every message so far has been handled once the next driven table is loaded (one
        # subscription, handled in order).
        last = create(client, seats=["human", "bot:random"])["id"]
        wait_for(lambda: loads.get(last), 30)
        assert loads.get(table_id, 0) <= 2, loads
    finally:
        worker.close()


def test_a_killed_worker_s_table_is_driven_by_another(pg_url, redis_url, monkeypatch):
    """The worker holding a table's lease dies (no release, as with kill -9): another worker takes
    the table over once the lease lapses, and its bot moves on."""
    monkeypatch.setattr(botworker, "LEASE_MS", 1500)
    monkeypatch.setattr(botworker, "RENEW_SECONDS", 0.2)
    web = _service(pg_url)
    table = web.create("toyrace", None, ["human", "bot:random"], 5, None, None)
    web.touch(table, table.seats[0].token)
    import redis

    lease = botworker.Leases.key(table.id)
    dead = redis.Redis.from_url(redis_url)
    dead.set(lease, "a-worker-killed-with-9", px=1500)  # held by a worker that is gone
    worker = _Worker(pg_url, redis_url)
    try:
        wait_for(lambda: dead.get(lease) not in (None, b"a-worker-killed-with-9"), 30)
        token = table.seats[0].token
        mover = web.get(table.id)
        assert web.act(mover, token, mover.seq, "b") == 1
        wait_for(lambda: len(_moves(pg_url, table.id)) >= 2, 30)  # the new holder's bot answered
        assert _moves(pg_url, table.id)[1][1] == "bot"
    finally:
        worker.close()
        dead.close()
