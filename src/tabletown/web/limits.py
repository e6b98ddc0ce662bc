"""Limits on what one client may ask of the server, so nobody can flood it or starve other tables.

Every limit is configurable (``create_app(limits=Limits(...))`` or the environment variables named in
``Limits.from_env``; 0 switches one off). Past a limit the server answers 429 with ``Retry-After`` and
changes nothing. Counters live in the process's memory, except that with Redis between several
server processes every per-client limit is counted in Redis (``SharedStore``), once for every
process together: the allowances a client spends by the request (tables, seats taken, chat,
analyses, uploads, replay steps, socket handshakes, a seat's moves) as token buckets, and what it
holds open (sockets, long polls, running bot tables) as counts each process keeps its share of,
refreshed while it lives (security audits 23 and 25). Only the process-wide total of bot-only
tables stays a process's own.
"""

from __future__ import annotations

import hashlib
import logging
import math
import os
import threading
import time
import uuid
import weakref
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, fields
from datetime import UTC, datetime
from typing import Any

ENV_PREFIX = "TABLETOWN_LIMIT_"
log = logging.getLogger("tabletown.web")


@dataclass(frozen=True)
class Limits:
    tables_per_minute: int = 30  # tables one client address may create per minute
    moves_per_second: float = 10.0  # sustained moves per seat token (bursts up to moves_burst)
    moves_burst: int = 30
    # ... and from one client address, all its seats together: seats cost nothing to make (30 tables
    # a minute, up to 5 seats each), and every move is a database write, so a per-seat allowance alone
    # let one address write 235 moves a second and slow every table's moves twentyfold (security
    # audit 29). Far above what people playing from one address (a hot-seat, a household) can do.
    moves_per_address_per_second: float = 40.0
    moves_address_burst: int = 120
    sockets_per_table: int = 400  # open WebSockets on one table, seats and spectators together
    sockets_per_address: int = 60  # open WebSockets from one client address, all tables together
    spectators_per_table: int = 300  # WebSockets without a seat on one table
    # Long polls (GET a table with seq and wait) held open from one client address, all tables
    # together: a table answers at most drivers.MAX_WAITERS of them at its change, the rest at once,
    # so one address holding that many would turn every other client's long poll into a busy loop.
    polls_per_address: int = 60
    # WebSocket handshakes (seat and spectator sockets) one client address may open per minute,
    # bursts of handshakes_burst: a seat's handshake writes to the database (the seat is back) and
    # is announced to every process, and within the cap on open sockets a client could open and
    # close them without end (security audit 25). A page reconnects after 0.5 s, then 1, 2, 4, 8 s.
    handshakes_per_minute: int = 60
    handshakes_burst: int = 20
    chat_per_minute: int = 20  # chat messages per seat (spectators: per client address), bursts of chat_burst
    chat_burst: int = 5
    # ... and from one client address, all its seats together: seats cost nothing to make, so a
    # per-seat allowance alone grew with the tables an address created (security audit 9).
    chat_per_address_per_minute: int = 60
    chat_address_burst: int = 20
    # Tables with no human seat cost bot thinking and nothing else stops them: how many may be running
    # at once, made by one client address, and in this process altogether.
    bot_tables_per_address: int = 4
    bot_tables: int = 32
    # Tables with bots and human seats cost the same bot thinking when a script plays the human
    # seats: how many such tables one client address may keep moving at once (a table counts while
    # it is unfinished and saw a move in the last ``BUSY_WINDOW`` seconds; one left alone does not).
    bot_games_per_address: int = 8
    # Seats taken from the lobby (POST .../sit: a database write each) per client address a
    # minute, bursts of sits_burst: one client must not take every open seat there is.
    sits_per_minute: int = 10
    sits_burst: int = 5
    # A post-game analysis costs up to minutes of a core (web/analyses.py) and anyone may ask for any
    # finished table's: new analyses one client address may ask for per hour (bursts of
    # analyses_burst), and how many may wait or run at once in the database altogether and of one
    # address's asking (a few addresses filled the whole queue: security audit 33).
    analyses_per_hour: int = 30
    analyses_burst: int = 10
    analyses_queued: int = 50
    analyses_queued_per_address: int = 4
    # A record file uploaded for the replay page is replayed from its seed: up to the body limit of
    # moves for one request. New records (not one already replayed here) one client address may
    # upload per minute, bursts of uploads_burst; stepping through one record is free.
    uploads_per_minute: int = 30
    uploads_burst: int = 10
    # A replay step replays up to a checkpoint's spacing of moves (about a thousand on the longest
    # tables) and words the position's events: each request from one client address is charged the
    # moves it replays plus ``REPLAY_REQUEST_COST`` (web/replaying.py), against this many a second
    # and this burst (security audit 15: anyone could keep a core busy stepping a long table).
    replay_moves_per_second: float = 2000.0
    replay_moves_burst: int = 20000
    # Events a client address may have had worded afresh a second, counting only views that word
    # more than ``FREE_VIEW_EVENTS`` (a view from far back: a page opening, a reconnect). Wording a
    # long table's events costs tens of milliseconds on the event loop when the cache of worded
    # events misses, and asking for more readers than it keeps, round robin, made every view such
    # a miss and slowed every table of the process (security audit 29). Table views, a socket's
    # first view, a move's answer with its view, and replay steps all count (security audit 30).
    view_events_per_second: float = 5000.0
    view_events_burst: int = 20000
    # Lobby lists (GET /api/tables) one client address may ask for a second: each reads the newest
    # tables and their seats from the database (about 10 ms with a few hundred tables), and a lobby
    # page asks every 5 s (security audit 29: nothing bounded a client asking without pause).
    lobby_lists_per_second: float = 2.0
    lobby_lists_burst: int = 10
    # Messages one WebSocket may send a second, bursts of socket_messages_burst; past them the socket
    # is closed (1008). Each is parsed and answered on the event loop, and nothing else bounded a
    # client sending without pause on a socket it had opened (security audit 29).
    socket_messages_per_second: float = 10.0
    socket_messages_burst: int = 30
    # Tables one client address may have loaded from the database a second (any request for a
    # table this process does not hold: a view, a page, a socket, a replay, chat). A load reads
    # every move of the table and replays the position from its last saved one, 10 to 100 ms of a
    # core on long tables, and the lobby lists finished tables for anyone to ask for in turn, each
    # pushing older ones out of memory to be loaded again (security audit 30).
    table_loads_per_second: float = 5.0
    table_loads_burst: int = 50

    @classmethod
    def from_env(cls, environ: dict[str, str] | None = None) -> Limits:
        """Defaults overridden by ``TABLETOWN_LIMIT_<NAME>`` (e.g. TABLETOWN_LIMIT_TABLES_PER_MINUTE=10)."""
        env = os.environ if environ is None else environ
        values: dict[str, int | float] = {}
        for item in fields(cls):
            raw = env.get(ENV_PREFIX + item.name.upper())
            if raw is None:
                continue
            kind = float if item.type in (float, "float") else int
            try:
                value = kind(raw)
            except ValueError:
                raise ValueError(f"{ENV_PREFIX}{item.name.upper()} must be a number, not {raw!r}") from None
            if not math.isfinite(value) or value < 0:
                raise ValueError(f"{ENV_PREFIX}{item.name.upper()} must be 0 or more, not {raw!r}")
            values[item.name] = value
        return cls(**values)  # type: ignore[arg-type]  # each value has its field's own type (kind)

    @classmethod
    def off(cls) -> Limits:
        """No limits at all (benchmarks, trusted research clients)."""
        return cls(**{item.name: 0 for item in fields(cls)})


class TokenBuckets:
    """A token bucket per key: ``rate`` tokens a second up to ``burst``. ``take(key)`` returns 0.0
    when the request may go ahead, else the seconds until it may. Thread-safe; old keys are dropped
    once more than ``max_keys`` are held (a full bucket carries no information)."""

    def __init__(self, rate: float, burst: float, max_keys: int = 100_000) -> None:
        self.rate = rate
        self.burst = max(burst, 1.0)
        self.max_keys = max_keys
        self.buckets: OrderedDict[str, tuple[float, float]] = OrderedDict()
        self.lock = threading.Lock()

    def take(self, key: str, now: float | None = None, cost: float = 1.0) -> float:
        """Take ``cost`` tokens (at most a burst's worth) for ``key``: 0.0, or the seconds to wait."""
        if self.rate <= 0:
            return 0.0
        now = time.monotonic() if now is None else now
        cost = min(max(cost, 0.0), self.burst)
        with self.lock:
            level, then = self.buckets.pop(key, (self.burst, now))
            level = min(self.burst, level + (now - then) * self.rate)
            if level >= cost:
                self.buckets[key] = (level - cost, now)
                wait = 0.0
            else:
                self.buckets[key] = (level, now)
                wait = (cost - level) / self.rate
            while len(self.buckets) > self.max_keys:
                self.buckets.popitem(last=False)
        return wait


# One token bucket in Redis, taken atomically: (level, time) in a hash that expires once it would be
# full again. Redis's own clock, so processes on machines whose clocks differ count alike.
TAKE_SCRIPT = """
local rate, burst, cost = tonumber(ARGV[1]), tonumber(ARGV[2]), tonumber(ARGV[3])
local clock = redis.call('TIME')
local now = tonumber(clock[1]) + tonumber(clock[2]) / 1000000
local kept = redis.call('HMGET', KEYS[1], 'level', 'at')
local level = burst
if kept[1] then level = math.min(burst, tonumber(kept[1]) + math.max(0, now - tonumber(kept[2])) * rate) end
local wait = 0
if level >= cost then level = level - cost else wait = (cost - level) / rate end
redis.call('HSET', KEYS[1], 'level', tostring(level), 'at', tostring(now))
redis.call('PEXPIRE', KEYS[1], math.ceil((burst - level) / rate * 1000) + 1000)
return tostring(wait)
"""


# What a client holds open (sockets, long polls, running bot tables), counted in Redis for every
# process together: a hash per count, a field per process holding "count:expiry" (milliseconds on
# Redis's clock). A field past its expiry is a process that died (or lost Redis) and counts nothing;
# a living process writes its own field again every ``SharedStore.REFRESH`` seconds. ARGV: the
# process, the time to live (ms), the mode, then a value and a limit for each key.
#   enter: let in (each count one more for this process) only if every key is under its limit,
#          else return the position (from 1) of the first that is full and change nothing; a value
#          of 0 or more is this process's own count, as it knows it now (else the one kept).
#   add:   add the value to this process's count (a connection closed: -1).
#   set:   this process's count is the value (the periodic refresh, from its memory).
COUNT_SCRIPT = """
local clock = redis.call('TIME')
local now = tonumber(clock[1]) * 1000 + math.floor(tonumber(clock[2]) / 1000)
local me, ttl, mode = ARGV[1], tonumber(ARGV[2]), ARGV[3]
local mine, others, new = {}, {}, {}
for i, key in ipairs(KEYS) do
  mine[i], others[i] = 0, 0
  local kept = redis.call('HGETALL', key)
  for j = 1, #kept, 2 do
    local count, expiry = string.match(kept[j + 1], '^(%d+):(%d+)$')
    if count == nil or tonumber(expiry) <= now then
      redis.call('HDEL', key, kept[j])
    elseif kept[j] == me then
      mine[i] = tonumber(count)
    else
      others[i] = others[i] + tonumber(count)
    end
  end
end
for i = 1, #KEYS do
  local value, limit = tonumber(ARGV[2 + 2 * i]), tonumber(ARGV[3 + 2 * i])
  if mode == 'enter' then
    local own = mine[i]
    if value >= 0 then own = value end
    if limit > 0 and others[i] + own >= limit then return i end
    new[i] = own + 1
  elseif mode == 'add' then
    new[i] = math.max(0, mine[i] + value)
  else
    new[i] = math.max(0, value)
  end
end
for i, key in ipairs(KEYS) do
  if new[i] > 0 then
    redis.call('HSET', key, me, string.format('%d:%d', new[i], now + ttl))
    redis.call('PEXPIRE', key, ttl + 1000)
  else
    redis.call('HDEL', key, me)
  end
end
return 0
"""


class SharedStore:
    """Limits kept in Redis for every server process of one database together. A client behind a
    load balancer reaches N processes: counted by each, it got N times every allowance (security
    audits 23 and 25). Token buckets (``take``) and counts of what is held open (``counts``), whose
    entries a process that stops refreshing them (``REFRESH``) loses after ``COUNT_TTL`` seconds.
    When Redis does not answer (within ``TIMEOUT``), both return None and the process counts
    alone, asking Redis again ``PAUSE`` seconds later. Keys hold a digest of what they count (a
    seat's token, an address), never the thing itself."""

    TIMEOUT = 0.25
    PAUSE = 5.0
    COUNT_TTL = 30.0  # seconds: a dead process's connections and bot tables stop counting after this
    REFRESH = 10.0  # seconds between a living process's refreshes of its counts

    def __init__(self, url: str, namespace: str) -> None:
        import redis

        self.client = redis.Redis.from_url(
            url, socket_timeout=self.TIMEOUT, socket_connect_timeout=self.TIMEOUT
        )
        self.script = self.client.register_script(TAKE_SCRIPT)
        self.count_script = self.client.register_script(COUNT_SCRIPT)
        # keys of one database's deployment only: tests and load runs share a Redis server
        self.prefix = "tt:limit:" + hashlib.sha256(namespace.encode()).hexdigest()[:16] + ":"
        self.me = uuid.uuid4().hex  # this process's field in every count
        self.paused_until = 0.0
        self.lock = threading.Lock()

    def key(self, bucket: str, key: str) -> str:
        digest = hashlib.sha256(key.encode("utf-8", "surrogatepass")).hexdigest()[:32]
        return f"{self.prefix}{bucket}:{digest}"

    def ask(self, call: Callable[[], Any]) -> Any:
        """``call()``'s answer, or None when Redis does not answer (and then for ``PAUSE`` seconds)."""
        if time.monotonic() < self.paused_until:
            return None
        try:
            return call()
        except Exception as exc:  # noqa: BLE001 - Redis away: the process's own count stands in
            with self.lock:
                if time.monotonic() >= self.paused_until:
                    log.warning("limits: Redis did not answer (%s); this process counts alone for now", exc)
                self.paused_until = time.monotonic() + self.PAUSE
            return None

    def take(self, bucket: str, key: str, rate: float, burst: float, cost: float) -> float | None:
        """Seconds to wait (0.0: go ahead) for ``cost`` tokens of ``key`` in ``bucket``; None when
        Redis cannot say now."""
        answer = self.ask(lambda: self.script(keys=[self.key(bucket, key)], args=[rate, burst, cost]))
        return None if answer is None else float(answer)

    def counts(self, mode: str, entries: list[tuple[str, str, int, int]]) -> int | None:
        """Run COUNT_SCRIPT (``mode``: enter, add, set) on ``entries``, each (count, key, value,
        limit): 0 done (let in), i the first full entry (from 1), None when Redis cannot say now."""
        if not entries:
            return 0
        keys = [self.key("n:" + name, key) for name, key, _, _ in entries]
        args: list[Any] = [self.me, int(self.COUNT_TTL * 1000), mode]
        for _, _, value, limit in entries:
            args += [int(value), int(limit)]
        answer = self.ask(lambda: self.count_script(keys=keys, args=args))
        return None if answer is None else int(answer)

    def close(self) -> None:
        self.client.close()


class SharedBuckets(TokenBuckets):
    """``TokenBuckets`` counted in a ``SharedStore`` (every process together); this process's own
    buckets stand in while Redis does not answer, and for a ``take`` given its own ``now`` (tests)."""

    def __init__(self, rate: float, burst: float, store: SharedStore, name: str) -> None:
        super().__init__(rate, burst)
        self.store = store
        self.name = name

    def take(self, key: str, now: float | None = None, cost: float = 1.0) -> float:
        if self.rate <= 0:
            return 0.0
        if now is None:
            wait = self.store.take(self.name, key, self.rate, self.burst, min(max(cost, 0.0), self.burst))
            if wait is not None:
                return wait
        return super().take(key, now, cost)


async def take_off_loop(buckets: TokenBuckets, key: str, cost: float = 1.0) -> float:
    """``buckets.take(key, cost=cost)`` from the event loop: a shared bucket's Redis call in a worker
    thread."""
    if isinstance(buckets, SharedBuckets) and buckets.rate > 0:
        import anyio

        return await anyio.to_thread.run_sync(lambda: buckets.take(key, cost=cost))
    return buckets.take(key, cost=cost)


class Counter:
    """Open connections per key (a table, an address): ``enter`` refuses past ``limit``. With several
    processes, ``Guard.enter`` asks Redis first; the keys that changed since the last refresh are
    kept in ``touched`` for it."""

    def __init__(self, limit: int, name: str = "") -> None:
        self.limit = limit
        self.name = name
        self.counts: dict[str, int] = {}
        self.shared = False  # counted in Redis too (``Guard.share``): keep ``touched``
        self.touched: set[str] = set()
        self.lock = threading.Lock()

    def enter(self, key: str, check: bool = True) -> bool:
        """One more for ``key``, unless ``check`` and it is at its limit."""
        with self.lock:
            count = self.counts.get(key, 0)
            if check and self.limit and count >= self.limit:
                return False
            self.counts[key] = count + 1
            if self.shared:
                self.touched.add(key)
            return True

    def leave(self, key: str) -> None:
        with self.lock:
            count = self.counts.get(key, 0) - 1
            if count > 0:
                self.counts[key] = count
            else:
                self.counts.pop(key, None)
            if self.shared:
                self.touched.add(key)

    def shares(self) -> list[tuple[str, str, int, int]]:
        """This process's counts to write to Redis: every key held or changed since the last call."""
        with self.lock:
            keys, self.touched = self.touched | self.counts.keys(), set()
            return [(self.name, key, self.counts.get(key, 0), 0) for key in keys]


class Running:
    """Objects still running (anything with ``over``) per key: ``room(key)`` is 0.0 while ``key`` and
    everybody together are under their limits, else a wait in seconds to try again after. With
    ``busy``, an object counts only while ``busy(object)`` is true as well."""

    RETRY = 30.0  # a bot game lasts minutes: try again in half a minute

    def __init__(
        self, per_key: int, total: int, busy: Callable[[Any], bool] | None = None, name: str = ""
    ) -> None:
        self.per_key = per_key
        self.total = total
        self.busy = busy
        self.name = name
        # Weak: a table the server forgot (it waited for its people) is not kept alive here.
        self.items: dict[str, weakref.WeakSet[Any]] = {}
        self.shared = False  # its per-key count kept in Redis too (``Guard.share``)
        self.touched: set[str] = set()  # keys counted in Redis since the last refresh
        self.lock = threading.Lock()

    def _counts(self, item: Any) -> bool:
        return not item.over and (self.busy is None or self.busy(item))

    def _prune(self) -> None:
        for key in list(self.items):
            alive = weakref.WeakSet(item for item in list(self.items[key]) if not item.over)
            if alive:
                self.items[key] = alive
            else:
                del self.items[key]

    def _count(self, key: str) -> int:
        """How many of ``key``'s objects count now (the caller holds the lock)."""
        return sum(map(self._counts, list(self.items.get(key, ()))))

    def mine(self, key: str) -> int:
        """How many of ``key``'s objects count now (in this process)."""
        with self.lock:
            return self._count(key)

    def room(self, key: str, per_key: bool = True) -> float:
        with self.lock:
            self._prune()
            mine = self._count(key)
            everyone = sum(map(self._count, list(self.items))) if self.total else 0
        full = (per_key and self.per_key and mine >= self.per_key) or (self.total and everyone >= self.total)
        return self.RETRY if full else 0.0

    def add(self, key: str, item: Any) -> None:
        with self.lock:
            self.items.setdefault(key, weakref.WeakSet()).add(item)

    def shares(self) -> list[tuple[str, str, int, int]]:
        """This process's counts to write to Redis (``Counter.shares``)."""
        with self.lock:
            self._prune()
            keys, self.touched = self.touched | self.items.keys(), set()
            return [(self.name, key, self._count(key), 0) for key in keys]


BUSY_WINDOW = 300.0  # seconds: a table with bots that saw no move for this long is left alone


def moved_lately(table: Any) -> bool:
    """Whether the table saw a change in the last ``BUSY_WINDOW`` seconds (or never was left)."""
    changed = getattr(table, "updated_at", None)
    if not isinstance(changed, datetime):
        return True
    if changed.tzinfo is None:  # SQLite gives back naive UTC times
        changed = changed.replace(tzinfo=UTC)
    return (datetime.now(UTC) - changed).total_seconds() < BUSY_WINDOW


Entry = tuple[Counter, str]


class Guard:
    """The limits of one server process."""

    def __init__(self, limits: Limits) -> None:
        self.limits = limits
        per_minute = limits.tables_per_minute
        # A minute's allowance may be spent at once, then it refills evenly.
        self.tables = TokenBuckets(per_minute / 60.0, per_minute)
        self.moves = TokenBuckets(limits.moves_per_second, limits.moves_burst)
        self.address_moves = TokenBuckets(limits.moves_per_address_per_second, limits.moves_address_burst)
        self.handshakes = TokenBuckets(limits.handshakes_per_minute / 60.0, limits.handshakes_burst)
        self.table_sockets = Counter(limits.sockets_per_table, "table_sockets")
        self.address_sockets = Counter(limits.sockets_per_address, "address_sockets")
        self.spectators = Counter(limits.spectators_per_table, "spectators")
        self.address_polls = Counter(limits.polls_per_address, "polls")
        self.chat = TokenBuckets(limits.chat_per_minute / 60.0, limits.chat_burst)
        self.address_chat = TokenBuckets(limits.chat_per_address_per_minute / 60.0, limits.chat_address_burst)
        self.bot_tables = Running(limits.bot_tables_per_address, limits.bot_tables, name="bot_tables")
        self.bot_games = Running(limits.bot_games_per_address, 0, busy=moved_lately, name="bot_games")
        self.sits = TokenBuckets(limits.sits_per_minute / 60.0, limits.sits_burst)
        self.analyses = TokenBuckets(limits.analyses_per_hour / 3600.0, limits.analyses_burst)
        self.uploads = TokenBuckets(limits.uploads_per_minute / 60.0, limits.uploads_burst)
        self.replays = TokenBuckets(limits.replay_moves_per_second, limits.replay_moves_burst)
        self.view_events = TokenBuckets(limits.view_events_per_second, limits.view_events_burst)
        self.lobby_lists = TokenBuckets(limits.lobby_lists_per_second, limits.lobby_lists_burst)
        self.table_loads = TokenBuckets(limits.table_loads_per_second, limits.table_loads_burst)
        self.store: SharedStore | None = None

    # The allowances spent by the request, counted for every process together when shared.
    SHARED = (
        "tables",
        "moves",
        "address_moves",
        "handshakes",
        "chat",
        "address_chat",
        "sits",
        "analyses",
        "uploads",
        "replays",
        "view_events",
        "lobby_lists",
        "table_loads",
    )

    def share(self, store: SharedStore) -> None:
        """Count every per-client limit in ``store`` (Redis) from now on: the allowances as shared
        token buckets, open connections and running bot tables as shared counts (``enter``,
        ``room``, kept alive by ``refresh``)."""
        self.store = store
        for name in self.SHARED:
            mine: TokenBuckets = getattr(self, name)
            setattr(self, name, SharedBuckets(mine.rate, mine.burst, store, name))
        for counter in self.counters():
            counter.shared = counter.limit > 0  # an unlimited count is nobody's business but ours
        for running in (self.bot_tables, self.bot_games):
            running.shared = running.per_key > 0

    def enter(self, *entries: Entry) -> int | None:
        """One more connection for each (counter, key), or none: None when let in, else the index
        of the first entry whose counter is full. With Redis, every process's connections count
        (one atomic script); without an answer from it, this process's own."""
        store = self.store
        shared = [i for i, (counter, _) in enumerate(entries) if counter.shared]
        if store is not None and shared:
            # Counted here first, so that a refresh meanwhile never writes less than Redis holds.
            for counter, key in entries:
                counter.enter(key, check=False)
            answer = store.counts(
                "enter", [(entries[i][0].name, entries[i][1], -1, entries[i][0].limit) for i in shared]
            )
            if answer == 0:
                return None
            for counter, key in entries:
                counter.leave(key)
            if answer is not None:
                return shared[answer - 1]
        for i, (counter, key) in enumerate(entries):
            if not counter.enter(key):
                for done, done_key in entries[:i]:
                    done.leave(done_key)
                return i
        return None

    def leave_here(self, *entries: Entry) -> None:
        """The connections closed, in this process's counts (at once, from any thread)."""
        for counter, key in entries:
            counter.leave(key)

    def leave_shared(self, *entries: Entry) -> None:
        """... and in Redis (blocking: from a worker thread). Lost, it is put right by ``refresh``."""
        if self.store is not None and (shared := [(c.name, key, -1, 0) for c, key in entries if c.shared]):
            self.store.counts("add", shared)

    def leave(self, *entries: Entry) -> None:
        self.leave_here(*entries)
        self.leave_shared(*entries)

    def room(self, running: Running, key: str) -> float:
        """``running.room(key)``, with the per-key count of every process when shared. The process's
        total stays its own. A table let in is counted in Redis at once (the refresh then writes
        what this process really runs)."""
        if self.store is not None and running.shared:
            if wait := running.room(key, per_key=False):
                return wait
            mine = running.mine(key)
            with running.lock:
                running.touched.add(key)
            answer = self.store.counts("enter", [(running.name, key, mine, running.per_key)])
            if answer is not None:
                return running.RETRY if answer else 0.0
        return running.room(key)

    def refresh(self) -> None:
        """Write this process's counts to Redis again (every ``SharedStore.REFRESH`` seconds): they
        live ``SharedStore.COUNT_TTL`` seconds, so a process that died stops counting, and what was
        counted while Redis did not answer reaches it."""
        store = self.store
        if store is None or time.monotonic() < store.paused_until:
            return
        shares: list[tuple[str, str, int, int]] = []
        for count in self.counts():
            if count.shared:
                shares += count.shares()
        for start in range(0, len(shares), 500):
            if store.counts("set", shares[start : start + 500]) is None:
                # not written: try these keys again at the next refresh
                for name, key, _, _ in shares[start:]:
                    owner = self.count_named(name)
                    with owner.lock:
                        owner.touched.add(key)
                return

    def counters(self) -> tuple[Counter, ...]:
        return (self.table_sockets, self.address_sockets, self.spectators, self.address_polls)

    def counts(self) -> list[Counter | Running]:
        """Every count of what clients hold: connections, and tables with bots running."""
        return [*self.counters(), self.bot_tables, self.bot_games]

    def count_named(self, name: str) -> Counter | Running:
        return next(count for count in self.counts() if count.name == name)


async def enter_off_loop(guard: Guard, *entries: Entry) -> int | None:
    """``guard.enter`` from the event loop: with Redis, in a worker thread."""
    if guard.store is None or not any(counter.shared for counter, _ in entries):
        return guard.enter(*entries)
    import anyio

    return await anyio.to_thread.run_sync(lambda: guard.enter(*entries))


def leave_from_loop(guard: Guard, *entries: Entry) -> None:
    """``guard.leave`` from the event loop: this process's counts at once, Redis's in a worker
    thread (never awaited: it may be called while the task is being cancelled)."""
    guard.leave_here(*entries)
    if guard.store is not None and any(counter.shared for counter, _ in entries):
        import asyncio

        asyncio.get_running_loop().run_in_executor(None, lambda: guard.leave_shared(*entries))


async def keep_counts(guard: Guard) -> None:
    """The task that refreshes this process's shared counts while it runs (``Guard.refresh``)."""
    import asyncio

    import anyio

    store = guard.store
    if store is None:
        return
    while True:
        await asyncio.sleep(store.REFRESH)
        try:
            await anyio.to_thread.run_sync(guard.refresh)
        except Exception:  # noqa: BLE001 - a failed refresh is tried again; the task must live on
            log.exception("limits: refreshing the shared counts failed")


def retry_after(seconds: float) -> str:
    """The Retry-After header: whole seconds, at least 1."""
    return str(max(1, math.ceil(seconds)))


def seconds_from_env(name: str, default: float, allow_zero: bool = False) -> float:
    """A time setting from the environment: a finite number of seconds (above zero unless
    ``allow_zero``), else a ValueError at start. ``float()`` alone took "nan", "inf" and negative
    values without a word, and with them every bot played at random or stopped (security audit 11)."""
    raw = os.environ.get(name)
    if raw is None:
        return default
    try:
        value = float(raw)
    except ValueError:
        raise ValueError(f"{name} must be a number of seconds, not {raw!r}") from None
    if not math.isfinite(value) or value < 0 or (value == 0 and not allow_zero):
        least = "at least 0" if allow_zero else "above 0"
        raise ValueError(f"{name} must be a finite number of seconds, {least}, not {raw!r}")
    return value
