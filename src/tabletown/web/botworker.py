"""Bot workers: the bots and turn timers of every table, in processes of their own.

A web process then never thinks for a bot, so bots cannot slow a human's table. A worker keeps the
unfinished tables it is responsible for in memory (from the database), follows every change through
the Redis hub, lets its bots think within their time limit and stores their moves like any client
(the ``seq`` check makes a move sent twice harmless). With ``--workers N`` the tables are shared out
by a hash of their id, and a lease in Redis makes sure each table's bots and timer run in exactly
one worker at a time: a worker that dies stops renewing its leases and another takes its tables over
from the database within seconds (its parent also restarts it).

Run: ``tabletown bots --db URL --redis URL [--workers N]`` (``tabletown serve --redis URL`` starts
one worker itself unless told that others run elsewhere).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import hashlib
import logging
import os
import signal
import subprocess
import sys
import time
import uuid
from collections import OrderedDict
from typing import Any

import anyio

from . import db
from .analyses import Analyst
from .catalog import games, warm_up
from .drivers import Drivers, Follower
from .hub import ENV_REDIS, make_hub
from .limits import seconds_from_env
from .movestore import AsyncMoveStore
from .tables import IDLE_EVICTION, LiveTable, TableError, TableService

log = logging.getLogger("tabletown.web")
ELSEWHERE_KEPT = 4096  # ids of other databases' tables a worker remembers (hub messages it ignores)
# ... and of tables it loaded and found nothing to drive in (people only, no timer; finished): that
# never changes, so their news no longer loads them again (security audit 23: every seat's socket
# handshake announces "back", and each one made every worker rebuild the table from the database).
UNDRIVEN_KEPT = 16384


def owner(table_id: str, workers: int) -> int:
    """Which of ``workers`` bot workers drives ``table_id`` (the same answer in every process)."""
    return int.from_bytes(hashlib.sha256(table_id.encode()).digest()[:4], "big") % workers


LEASE_MS = 10_000  # a table's bots and timer belong to the worker holding its lease this long
RENEW_SECONDS = 3.0
# How often a worker looks in the database for driven tables it never heard of: a "created" message
# sent while its subscription was not yet live (or lost with a Redis restart) must not leave a
# table's bots silent for good.
DISCOVER_SECONDS = 12.0
CLAIMS_AT_ONCE = 16  # leases asked for at the same time (each holds a Redis connection meanwhile)
_RENEW = "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('pexpire', KEYS[1], ARGV[2]) end return 0"
_RELEASE = "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) end return 0"


class Leases:
    """Which worker runs a table's bots and turn timer: the holder of the Redis key
    ``tabletown:lease:<table>``, set with NX and renewed while the worker lives. A worker that dies
    stops renewing; within ``LEASE_MS`` another worker takes the table over."""

    def __init__(self, url: str) -> None:
        import redis.asyncio as aioredis

        self.client = aioredis.Redis.from_url(url)
        self.me = uuid.uuid4().hex

    @staticmethod
    def key(table_id: str) -> str:
        return f"tabletown:lease:{table_id}"

    async def take(self, table_id: str) -> bool:
        if await self.client.set(self.key(table_id), self.me, nx=True, px=LEASE_MS):
            return True
        return await self.renew(table_id)

    async def renew(self, table_id: str) -> bool:
        return bool(await self.client.eval(_RENEW, 1, self.key(table_id), self.me, LEASE_MS))

    async def release(self, table_id: str) -> None:
        with contextlib.suppress(Exception):
            await self.client.eval(_RELEASE, 1, self.key(table_id), self.me)

    async def close(self) -> None:
        with contextlib.suppress(Exception):
            await self.client.aclose()


async def run_worker(
    db_url: str,
    redis_url: str,
    index: int = 0,
    workers: int = 1,
    bot_delay: float = 0.5,
    bot_seconds: float = 10.0,
    stop: asyncio.Event | None = None,
) -> None:
    """One bot worker, until ``stop`` is set (or the task is cancelled). Its share of the tables
    (by ``owner``) it claims at once; any other table whose lease nobody renews it takes over."""
    engine = db.make_engine(db_url)
    await anyio.to_thread.run_sync(db.migrate, engine)
    await anyio.to_thread.run_sync(games)
    await anyio.to_thread.run_sync(warm_up)
    service = TableService(db.session_factory(engine))
    hub = await anyio.to_thread.run_sync(make_hub, redis_url)
    service.on_stored.append(hub.publish)
    service.shared = True
    # Tables that wait for their people are forgotten past MAX_IN_MEMORY, as in a web process
    # (security audit 17: a worker kept every table it ever drove that nobody finished, with a
    # driver task and a lease renewed every few seconds each). Discovery looks only at tables that
    # changed lately, and a person's return is heard on the hub (``recall``).
    service.async_store = AsyncMoveStore.for_engine(engine)
    drivers = Drivers(service, bot_delay, bot_seconds, max(2, min(4, os.cpu_count() or 2)))
    drivers.loop = service.loop = asyncio.get_running_loop()
    leases = Leases(redis_url)
    held: set[str] = set()
    loop = asyncio.get_running_loop()

    def let_go(table_id: str) -> None:
        if table_id in held:
            held.discard(table_id)
            loop.create_task(leases.release(table_id))

    def forgotten(table: LiveTable) -> None:
        """The service forgot ``table`` (any thread): its driver stops and its lease goes."""
        drivers.forget(table)
        loop.call_soon_threadsafe(let_go, table.id)

    service.on_evicted.append(forgotten)

    # A start-up or a restart claims every unfinished table at once (a hundred in `make load`): each
    # claim is a Redis call, and all of them together ran the client out of connections
    # (MaxConnectionsError in tasks nobody awaited). A few at a time, and a claim that fails is
    # only late: the upkeep below claims what is not held at its next round.
    claiming = asyncio.Semaphore(CLAIMS_AT_ONCE)

    async def claim(table: LiveTable) -> None:
        async with claiming:
            try:
                if table.driven and table.id not in held and await leases.take(table.id):
                    held.add(table.id)
                    drivers.start(table)
            except Exception as exc:
                log.warning(
                    "table %s: its lease could not be taken now (%s); the upkeep tries again", table.id, exc
                )

    undriven: OrderedDict[str, None] = OrderedDict()  # tables with nothing to drive, ever

    def mine(table: LiveTable) -> None:
        if not table.driven:
            # Nothing to do here (people only, no timer): forget it, so its moves cost this worker
            # nothing (a table in memory catches up on every move).
            with service.lock:
                service.tables.pop(table.id, None)
            undriven[table.id] = None
            undriven.move_to_end(table.id)
            if len(undriven) > UNDRIVEN_KEPT:
                undriven.popitem(last=False)
            return
        if owner(table.id, workers) == index:
            asyncio.get_running_loop().create_task(claim(table))

    async def discover() -> None:
        """Load the driven tables the database has and this worker does not (a missed message)."""
        # Only tables changed lately: one quiet for longer was forgotten on purpose (it waits for
        # its people), or is held already.
        ids = await anyio.to_thread.run_sync(service.driven_unfinished_ids, db.utcnow() - IDLE_EVICTION)
        with service.lock:
            missing = [table_id for table_id in ids if table_id not in service.tables]
        for table_id in missing:
            try:
                table = await anyio.to_thread.run_sync(service.get, table_id)
            except Exception:
                log.exception("table %s: loading a table nobody announced failed", table_id)
                continue
            log.info("table %s: found in the database without having heard of it", table_id)
            mine(table)

    async def renewed(table_id: str) -> bool:
        """Whether this worker still holds the table's lease. A renewal Redis did not answer counts
        as lost (security audit 23): it used to be logged while the driver went on, and once the
        lease lapsed another worker drove the table too. The upkeep claims it again when it can."""
        try:
            return await leases.renew(table_id)
        except Exception as exc:
            log.warning("table %s: its lease could not be renewed (%s); its driver stops", table_id, exc)
            return False

    async def keep() -> None:
        """Renew what we hold, let go of finished tables, take over tables nobody holds, and now
        and then pick up tables whose announcement never arrived."""
        looked = time.monotonic()
        while True:
            await asyncio.sleep(RENEW_SECONDS)
            if time.monotonic() - looked >= DISCOVER_SECONDS:
                looked = time.monotonic()
                try:
                    await discover()
                except Exception:
                    log.exception("looking for unannounced tables failed")
            with service.lock:
                tables = list(service.tables.values())
            for table in tables:
                try:
                    if table.id in held:
                        if table.over:
                            held.discard(table.id)
                            await leases.release(table.id)
                        elif not await renewed(table.id):
                            held.discard(table.id)  # another worker has it now: stop driving it
                            task = drivers.tasks.get(table.id)
                            if task is not None:
                                task.cancel()
                        elif table.id not in drivers.tasks:
                            drivers.start(table)
                    else:
                        await claim(table)
                except Exception:
                    log.exception("table %s: lease upkeep failed", table.id)

    follower = Follower(service, mine)
    elsewhere: OrderedDict[str, None] = OrderedDict()  # tables the database does not have

    async def recall(message: dict[str, Any]) -> None:
        """A hub message for a table this worker does not hold: a person came back to a table it
        forgot (a move there, a seat taken or redeemed, a name, "I'm back"). The table is loaded
        again, and driven if it is this worker's; then the follower takes the message as usual."""
        table_id, kind = message.get("table"), message.get("kind")
        wanted = kind in ("seat", "joined", "away") or (kind == "move" and message.get("driven"))
        if (
            wanted
            and isinstance(table_id, str)
            and table_id not in elsewhere
            and table_id not in undriven
            and service.held(table_id) is None
        ):
            try:
                mine(await anyio.to_thread.run_sync(service.get, table_id))
            except TableError as exc:
                # Not in this database (another deployment on the same Redis): nothing to drive.
                # Remembered, so its every move does not cost a query in this loop, which hands
                # out the messages of this worker's own tables too (one log line each would flood).
                log.debug("table %s: not loaded again: %s", table_id, exc.message)
                if exc.status == 404:
                    elsewhere[table_id] = None
                    if len(elsewhere) > ELSEWHERE_KEPT:
                        elsewhere.popitem(last=False)
            except Exception:
                log.exception("table %s: loading it again failed", table_id)
        await follower.handle(message)

    await hub.start(recall)
    sweeping = asyncio.get_running_loop().create_task(follower.sweep())  # (web/drivers.py)
    tables = await anyio.to_thread.run_sync(service.load_unfinished)
    for table in tables:
        mine(table)
    keeper = asyncio.get_running_loop().create_task(keep())
    analyst = Analyst(service, db_url)  # post-game analyses, claimed through the database
    analyst.start()
    log.info("bot worker %d/%d ready (%d unfinished tables)", index + 1, workers, len(tables))
    try:
        await (stop or asyncio.Event()).wait()
    finally:
        keeper.cancel()
        await analyst.stop()
        sweeping.cancel()
        await hub.stop()
        await drivers.stop()
        for table_id in list(held):
            await leases.release(table_id)
        await leases.close()
        if service.async_store is not None:
            await service.async_store.close()
        engine.dispose()


def supervise(argv_for: list[list[str]], parent: int | None = None) -> None:
    """Run one child process per command line and restart any that dies, until interrupted (or,
    with ``parent``, until that process is gone: a server's own bot worker never outlives it)."""
    children: dict[int, subprocess.Popen[bytes]] = {}
    stopping = False

    def launch(i: int) -> None:
        children[i] = subprocess.Popen(argv_for[i])

    def stop(*_args: object) -> None:
        nonlocal stopping
        stopping = True

    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGINT, stop)
    for i in range(len(argv_for)):
        launch(i)
    try:
        while not stopping:
            time.sleep(0.2)
            if parent is not None and os.getppid() != parent:
                log.warning("the server that started these bot workers is gone; stopping them")
                break
            for i, child in list(children.items()):
                if child.poll() is not None and not stopping:
                    log.warning("bot worker %d exited (%s); restarting it", i + 1, child.returncode)
                    launch(i)
    finally:
        for child in children.values():
            if child.poll() is None:
                child.terminate()
        for child in children.values():
            try:
                child.wait(10)
            except subprocess.TimeoutExpired:
                child.kill()


def worker_command(index: int, workers: int, bot_delay: float) -> list[str]:
    """A bot worker's command line. The database and Redis addresses are not on it: a URL may hold
    a password, and any local user can read a process's command line (``ps``); the child finds them
    in its environment (``worker_environment``)."""
    command = [sys.executable, "-m", "tabletown.web.botworker", "--index", str(index)]
    return command + ["--of", str(workers), "--bot-delay", str(bot_delay)]


def worker_environment(db_url: str, redis_url: str) -> None:
    """Put the addresses where the bot workers this process starts will read them."""
    os.environ[db.ENV_URL] = db_url
    os.environ[ENV_REDIS] = redis_url


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m tabletown.web.botworker", description=__doc__)
    parser.add_argument("--db", default=None)
    parser.add_argument("--redis", default=None)
    parser.add_argument("--index", type=int, default=0)
    parser.add_argument("--of", type=int, default=1)
    parser.add_argument("--bot-delay", type=float, default=0.5)
    parser.add_argument("--supervise", type=int, default=0, help="start N workers and restart any that dies")
    parser.add_argument("--parent", type=int, default=None, help="stop when this process (the server) ends")
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.INFO, format="%(levelname)s %(name)s: %(message)s")
    logging.getLogger("alembic").setLevel(logging.WARNING)
    url = db.resolve_url(args.db)
    args.redis = args.redis or os.environ.get(ENV_REDIS)
    if not args.redis:
        parser.error(
            "a bot worker hears of moves and holds its tables' leases through Redis: give --redis URL"
        )
    if args.supervise:
        worker_environment(url, args.redis)
        supervise(
            [worker_command(i, args.supervise, args.bot_delay) for i in range(args.supervise)],
            args.parent,
        )
        return
    stop = asyncio.Event()

    async def run() -> None:
        loop = asyncio.get_running_loop()
        for sig in (signal.SIGTERM, signal.SIGINT):
            loop.add_signal_handler(sig, stop.set)
        seconds = seconds_from_env("TABLETOWN_BOT_SECONDS", 10.0)
        await run_worker(
            db.resolve_url(args.db), args.redis, args.index, args.of, args.bot_delay, seconds, stop
        )

    try:  # the event loop in C, as the web processes have it (uvicorn[standard])
        import uvloop
    except ImportError:  # (not on Windows)
        asyncio.run(run())
    else:
        uvloop.run(run())


if __name__ == "__main__":
    main()
