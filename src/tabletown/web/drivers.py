"""Bots and turn timers on the server: one asyncio task per table that needs one.

The web process runs them itself (the embedded default); a bot worker process (``tabletown bots``)
runs the same code away from the web processes.
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import logging
import random
import weakref
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any

import anyio

from ..core.errors import ActionError
from ..core.session import round_goes_on
from .chat import follow_chat
from .tables import LiveTable, TableError, TableService

log = logging.getLogger("tabletown.web")
# How long a bot's decision may wait for a worker thread, in decisions' time (bot_seconds each).
QUEUED_TURNS = 6


class Drivers:
    """One asyncio task per table with bot seats or a turn timer: it asks bots (in worker threads,
    each decision time-limited) and stands a bot in for humans whose time ran out."""

    def __init__(self, service: TableService, bot_delay: float, bot_seconds: float, workers: int) -> None:
        self.service = service
        self.bot_delay = bot_delay
        self.bot_seconds = bot_seconds
        self.pool = ThreadPoolExecutor(max_workers=workers, thread_name_prefix="tabletown-bot")
        # Who gets the next free thread (security audit 32): one address's slow bots left every
        # other table's waiting for a thread.
        self.threads = ThreadShares(workers)
        self.tasks: dict[str, asyncio.Task[None]] = {}
        self.stopping = False
        self.changed: weakref.WeakKeyDictionary[LiveTable, asyncio.Event] = weakref.WeakKeyDictionary()
        self.loop: asyncio.AbstractEventLoop | None = None

    def start(self, table: LiveTable) -> None:
        """Called from any thread: follow ``table`` if it needs a driver."""
        if not table.driven:
            return
        loop = self.loop
        if loop is None:
            return
        if threading_in_loop(loop):
            self._start(table)
        else:
            loop.call_soon_threadsafe(self._start, table)

    def forget(self, table: LiveTable) -> None:
        """Called from any thread when the table was forgotten (it waits for its people): its
        driver stops; ``start`` begins another when a visit loads the table again."""
        loop = self.loop
        if loop is None:
            return

        def cancel() -> None:
            task = self.tasks.pop(table.id, None)
            if task is not None:
                task.cancel()

        if threading_in_loop(loop):
            cancel()
        else:
            loop.call_soon_threadsafe(cancel)

    def _start(self, table: LiveTable) -> None:
        task = self.tasks.get(table.id)
        if task is not None and not task.done():
            return
        loop = asyncio.get_running_loop()
        changed = self.changed.get(table)
        if changed is None:  # one listener per table, however often its driver is started again
            changed = self.changed[table] = asyncio.Event()
            table.on_change.append(lambda _t: from_any_thread(loop, changed.set))
        self.tasks[table.id] = loop.create_task(self._drive(table, changed))

    async def _drive(self, table: LiveTable, changed: asyncio.Event) -> None:
        service = self.service
        asking = _Asking()
        try:
            # ``stopping`` too: Python 3.11's wait_for can swallow a cancellation that meets its
            # timeout, and a table waiting for its players would then never end its task.
            while not table.over and not self.stopping:
                changed.clear()
                # Reading the table in memory takes microseconds: on the loop, no thread hop.
                auto = service.auto_seat(table)
                if auto is not None:
                    seat, name = auto
                    if self.bot_delay and any(not s.is_bot for s in table.seats):
                        await asyncio.sleep(self.bot_delay)
                    seq, copy = _copy(table)
                    if copy is None:
                        return
                    asking.name = name
                    action = await self._decide(table, seat, copy, asking)
                    if action is None:  # no legal move (a broken position): never spin the loop
                        await asyncio.sleep(0.05)
                        continue
                    action = await self._whole_secret_round(table, seat, copy, action, asking)
                    by = "bot" if table.seats[seat].is_bot else "standby"
                    try:
                        async with gate(table):
                            await service.commit_on_loop(table, seat, action, by, seq)
                        asking.failures = 0
                    except TableError as exc:
                        if exc.status != 409:
                            asking.failures += 1
                            log.warning("table %s: bot move refused: %s", table.id, exc.message)
                            if asking.failures > 6:
                                return
                    continue
                # With a timer, a player marked away is announced to Redis: a network call, so
                # in a thread (without one there is nothing to do).
                wait = (
                    await anyio.to_thread.run_sync(service.expire_timers, table) if table.turn_timer else None
                )
                if wait == 0.0:
                    continue
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(changed.wait(), wait)
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("table %s: driver stopped", table.id)
        finally:
            # Only its own entry: a table forgotten and loaded again has a new driver by now.
            if self.tasks.get(table.id) is asyncio.current_task():
                del self.tasks[table.id]

    async def _decide(self, table: LiveTable, seat: int, position: Any, asking: _Asking) -> Any:
        """The bot's move for ``seat`` in ``position`` (a private copy of the table's state), or a
        random legal move when the bot fails, takes longer than ``bot_seconds`` or is still busy
        with an earlier position it overran; None when there is no legal move at all."""
        action = None
        pending = asking.pending
        if asking.failures < 3 and (pending is None or pending.done()):
            try:
                agent = self.service.agent(table, seat, asking.name)
                loop = asyncio.get_running_loop()
                started = asyncio.Event()

                def think() -> Any:
                    loop.call_soon_threadsafe(started.set)
                    return agent(position, seat)

                # The bot's time starts when a worker thread takes its decision: time queued
                # behind other tables' bots is not its own, and a random move for it punished
                # this table for another's load (security audit 32). The queue is waited for
                # too, up to QUEUED_TURNS decisions' worth.
                queued = self.bot_seconds * QUEUED_TURNS
                owner = table.owner or "table:" + table.id
                await asyncio.wait_for(self.threads.take(owner), queued)
                try:
                    pending = asking.pending = loop.run_in_executor(self.pool, think)
                except BaseException:
                    self.threads.give_back(owner)
                    raise
                # held until the thread is done, also when the table stops waiting for it
                pending.add_done_callback(lambda _pending: self.threads.give_back(owner))
                await asyncio.wait_for(started.wait(), queued)
                action = await asyncio.wait_for(asyncio.shield(pending), self.bot_seconds)
            except TimeoutError:
                log.warning(
                    "table %s: bot %s took over %.1fs; a random move instead",
                    table.id,
                    asking.name,
                    self.bot_seconds,
                )
            except Exception:
                log.exception("table %s: bot %s failed; a random move instead", table.id, asking.name)
        if action is None:
            action = _random_move(table, seat) if asking.steps == 0 else _any_move(position, seat)
        return action

    async def _whole_secret_round(
        self, table: LiveTable, seat: int, position: Any, first: Any, asking: _Asking
    ) -> Any:
        """``first`` alone, or, when it begins a secret part of a round that goes on over several
        steps, the whole part as one move (``State.combine``): the move count is public, so steps
        stored one by one would tell the other seats how the bot played before they choose."""
        if not position.is_secret(seat, first) or position.combine(seat, [first]) is None:
            return first
        # The agent may still read ``position`` (a step it overran): later steps use a copy.
        work = position.clone()
        steps = [first]
        try:
            while len(steps) < MAX_ROUND_STEPS:
                before = len(work.to_act)
                work.apply(seat, steps[-1])
                if not round_goes_on(work, seat, before):
                    break
                asking.steps = len(steps)
                step = await self._decide(table, seat, work.clone(), asking)
                if step is None or not work.is_secret(seat, step):
                    break
                steps.append(step)
        except ActionError:
            log.warning("table %s: a bot's round went wrong after %d steps", table.id, len(steps))
            return first
        finally:
            asking.steps = 0
        return position.combine(seat, steps) if len(steps) > 1 else first

    async def stop(self) -> None:
        self.stopping = True
        tasks = list(self.tasks.values())
        for task in tasks:
            task.cancel()
        if tasks:  # bounded: a shutdown never hangs on one table's task
            await asyncio.wait(tasks, timeout=5)
        self.pool.shutdown(wait=False, cancel_futures=True)


_GATES: weakref.WeakKeyDictionary[LiveTable, asyncio.Lock] = weakref.WeakKeyDictionary()


def gate(table: LiveTable) -> asyncio.Lock:
    """The table's writers (people and bots) queue here, on the event loop, so a table whose
    database write is slow holds at most one worker thread while the others wait without one."""
    lock = _GATES.get(table)
    if lock is None:
        lock = _GATES[table] = asyncio.Lock()
    return lock


MAX_WAITERS = 256  # long polls waiting on one table; more are answered at once (bounded memory)
_WAITERS: weakref.WeakKeyDictionary[LiveTable, set[asyncio.Future[None]]] = weakref.WeakKeyDictionary()


async def until_changed(table: LiveTable, seq: int, seconds: float) -> None:
    """Wait (at most ``seconds``) until ``table`` is no longer at move ``seq`` or anything else in
    it changes (a seat, the end): the long poll of ``GET /api/tables/{id}?seq=N&wait=S``."""
    loop = asyncio.get_running_loop()
    waiters = _WAITERS.get(table)
    if waiters is None:
        waiters = _WAITERS[table] = set()
        table.on_change.append(lambda _t: from_any_thread(loop, _wake, waiters))
    if len(waiters) >= MAX_WAITERS:
        return
    future = loop.create_future()
    waiters.add(future)  # before looking at seq: a change from now on wakes it
    try:
        if table.seq == seq and not table.over:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(future, seconds)
    finally:
        waiters.discard(future)


async def until_seq(table: LiveTable, seq: Any, seconds: float) -> None:
    """Wait (at most ``seconds``) until ``table`` here has reached move ``seq``: a client that
    saw a move through another process sends its next one here before the hub's news arrived."""
    if isinstance(seq, bool) or not isinstance(seq, int) or table.seq >= seq:
        return
    loop = asyncio.get_running_loop()
    deadline = loop.time() + seconds
    while table.seq < seq and not table.over and (left := deadline - loop.time()) > 0:
        await until_changed(table, table.seq, left)


def _wake(waiters: set[asyncio.Future[None]]) -> None:
    for future in list(waiters):
        if not future.done():
            future.set_result(None)


def from_any_thread(loop: asyncio.AbstractEventLoop, callback: Callable[..., object], *args: Any) -> None:
    """Run ``callback`` on ``loop``: at once when called on the loop itself (a move stored from the
    loop), else through ``call_soon_threadsafe`` (which wakes the loop: a system call)."""
    if asyncio._get_running_loop() is loop:
        callback(*args)
    else:
        loop.call_soon_threadsafe(callback, *args)


def threading_in_loop(loop: asyncio.AbstractEventLoop) -> bool:
    try:
        return asyncio.get_running_loop() is loop
    except RuntimeError:
        return False


def _copy(table: LiveTable) -> tuple[int, Any]:
    with table.lock:
        if table.state is None or table.over:
            return table.seq, None
        return table.seq, table.state.clone()


MAX_ROUND_STEPS = 16  # far above any game's steps in one round: a guard, not a rule


class ThreadShares:
    """The bots' worker threads, shared fairly between owners (the client address that made a
    table, or the table itself). A free thread goes to whoever asks; when none is free, the next one
    goes to the waiting owner holding the fewest, first come first served among equals. So one
    address's tables of slow bots use every thread while nobody else needs one, and another table's
    bot waits for at most one decision to end, not for all of that address's queued ones."""

    def __init__(self, threads: int) -> None:
        self.free = threads
        self.held: collections.Counter[str] = collections.Counter()
        self.waiting: dict[str, collections.deque[asyncio.Future[None]]] = {}

    async def take(self, owner: str) -> None:
        """Wait for a thread for ``owner`` (give it back with ``give_back``)."""
        if self.free and not self.waiting:
            self._grant(owner)
            return
        granted: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self.waiting.setdefault(owner, collections.deque()).append(granted)
        try:
            await granted
        except asyncio.CancelledError:
            if granted.done() and not granted.cancelled():
                self.give_back(owner)  # granted as the waiter gave up: pass it on
            else:
                self._forget(owner, granted)
            raise

    def give_back(self, owner: str) -> None:
        self.held[owner] -= 1
        if not self.held[owner]:
            del self.held[owner]
        self.free += 1
        self._hand_on()

    def _grant(self, owner: str) -> None:
        self.free -= 1
        self.held[owner] += 1

    def _hand_on(self) -> None:
        while self.free and self.waiting:
            # dicts keep their order: among owners holding as few, the one waiting longest
            owner = min(self.waiting, key=lambda key: self.held[key])
            queue = self.waiting[owner]
            granted = queue.popleft()
            if not queue:
                del self.waiting[owner]
            else:  # to the back, behind the owners that waited while it was served
                self.waiting[owner] = self.waiting.pop(owner)
            if not granted.cancelled():
                self._grant(owner)
                granted.set_result(None)

    def _forget(self, owner: str, granted: asyncio.Future[None]) -> None:
        queue = self.waiting.get(owner)
        if queue is not None and granted in queue:
            queue.remove(granted)
            if not queue:
                del self.waiting[owner]


@dataclass
class _Asking:
    """A table driver's dealings with the bot it is asking now: the bot, its decision still
    running (one that overran its time keeps its thread until it ends), the failures in a row and
    how many steps of a secret round are planned already."""

    name: str = ""
    pending: asyncio.Future[Any] | None = None
    failures: int = 0
    steps: int = 0


def _any_move(position: Any, seat: int) -> Any:
    moves = position.legal_actions(seat)
    return random.choice(moves) if moves else None


def _random_move(table: LiveTable, seat: int) -> Any:
    with table.lock:
        if table.state is None or table.over:
            return None
        moves = table.state.legal_actions(seat)
        return random.choice(moves) if moves else None


SWEEP_SECONDS = 5.0  # how often a process looks for tables the database has moved past (Follower.sweep)


class Follower:
    """Keeps this process's tables in step with the other processes' changes (hub messages): a
    table in memory takes an announced move as it is (``TableService.follow``), or catches up from
    the database when it missed one or a seat changed, and pushes to its WebSockets; with ``start``
    (a process that runs bots), a new table that has bots or a timer is handed to ``start``
    (``Drivers.start``, or a bot worker's own share of it). One task per table works through its
    messages in the order they came, so they never pile up as threads."""

    def __init__(self, service: TableService, start: Callable[[LiveTable], None] | None) -> None:
        self.service = service
        self.start = start
        self.pending: dict[str, list[dict[str, Any]]] = {}  # table id -> messages not yet handled

    async def handle(self, message: dict[str, Any]) -> None:
        if message.get("kind") == "resync":
            with self.service.lock:
                tables = [t for t in self.service.tables.values() if not t.over]
            for table in tables:
                await self.handle({"table": table.id, "kind": "seat"})
            return
        table_id = message.get("table")
        if not isinstance(table_id, str):
            return
        if follow_chat(self.service, message):  # a chat line for this process's sockets (web/chat.py)
            return
        with self.service.lock:
            table = self.service.tables.get(table_id)  # type: ignore[assignment]  # (the name's loop above)
        if table is None:
            if self.start is not None and message.get("kind") == "created" and message.get("driven", True):
                try:
                    table = await anyio.to_thread.run_sync(self.service.get, table_id)
                except TableError:
                    return
                self.start(table)
            return
        queue = self.pending.get(table_id)
        if queue is not None:
            queue.append(message)
            return
        seq = message.get("seq")
        # The usual case, on the loop without a thread: the next move, the table not busy here (a
        # move takes microseconds to apply; a writer of this process may be waiting for the
        # database, and then a thread waits instead).
        if (
            message.get("kind") == "move"
            and isinstance(seq, int)
            and self.service.follow(table, seq, message, wait=False)
        ):
            return
        self.pending[table_id] = [message]
        asyncio.get_running_loop().create_task(self._work(table))

    async def sweep(self, every: float = SWEEP_SECONDS) -> None:
        """Every ``every`` seconds, catch up the tables the database has moved past without a hub
        message saying so (``TableService.behind``): a lost message delays a table by seconds, not
        until its next move. Runs until cancelled."""
        while True:
            await asyncio.sleep(every)
            try:
                late = await anyio.to_thread.run_sync(self.service.behind)
            except Exception:
                log.exception("looking for tables behind the database failed")
                continue
            for table in late:
                await self.handle({"table": table.id, "kind": "seat"})  # a catch-up, in the table's turn

    async def _work(self, table: LiveTable) -> None:
        try:
            while queue := self.pending.get(table.id):
                batch = queue[:]
                queue.clear()
                await anyio.to_thread.run_sync(self._apply, table, batch)
        except Exception:
            log.exception("table %s: following another process failed", table.id)
        finally:
            self.pending.pop(table.id, None)

    def _apply(self, table: LiveTable, batch: list[dict[str, Any]]) -> None:
        """Announced moves and arrivals in order; anything else (a seat taken from the lobby, a
        missed move) means one catch-up from the database."""
        catch_up = seats = False
        for message in batch:
            if not catch_up and self._take(table, message):
                continue
            catch_up = True
            seats = seats or message.get("kind") != "move"
        if catch_up:
            self.service.catch_up(table, seats)

    def _take(self, table: LiveTable, message: dict[str, Any]) -> bool:
        kind, seq = message.get("kind"), message.get("seq")
        if kind == "move" and isinstance(seq, int):
            return bool(self.service.follow(table, seq, message))
        if kind == "away":
            return self.service.follow_away(table, message)
        return kind == "joined" and self.service.follow_seat(table, message)
