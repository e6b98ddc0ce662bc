"""Limits on what one client may ask of the server, so nobody can flood it or starve other tables.

Every limit is configurable (``create_app(limits=Limits(...))`` or the environment variables named in
``Limits.from_env``; 0 switches one off). Past a limit the server answers 429 with ``Retry-After`` and
changes nothing. Counters live in the process's memory, except that with Redis between several
server processes the allowances a client spends by the request (tables, seats taken, chat, analyses,
uploads, replay steps) are counted in Redis (``SharedStore``), once for every process together;
open connections, running bot tables and a seat's moves stay counted by each process.
"""

from __future__ import annotations

import hashlib
import logging
import math
import os
import threading
import time
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
    sockets_per_table: int = 400  # open WebSockets on one table, seats and spectators together
    sockets_per_address: int = 60  # open WebSockets from one client address, all tables together
    spectators_per_table: int = 300  # WebSockets without a seat on one table
    # Long polls (GET a table with seq and wait) held open from one client address, all tables
    # together: a table answers at most drivers.MAX_WAITERS of them at its change, the rest at once,
    # so one address holding that many would turn every other client's long poll into a busy loop.
    polls_per_address: int = 60
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
    # analyses_burst), and how many may wait or run at once in the database altogether.
    analyses_per_hour: int = 30
    analyses_burst: int = 10
    analyses_queued: int = 50
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


class SharedStore:
    """Token buckets kept in Redis for every server process of one database together. A client
    behind a load balancer reaches N processes: counted by each, it got N times every allowance
    (security audit 23). When Redis does not answer (within ``TIMEOUT``), ``take`` returns None
    and the process counts alone, asking Redis again ``PAUSE`` seconds later."""

    TIMEOUT = 0.25
    PAUSE = 5.0

    def __init__(self, url: str, namespace: str) -> None:
        import redis

        self.client = redis.Redis.from_url(
            url, socket_timeout=self.TIMEOUT, socket_connect_timeout=self.TIMEOUT
        )
        self.script = self.client.register_script(TAKE_SCRIPT)
        # keys of one database's deployment only: tests and load runs share a Redis server
        self.prefix = "tt:limit:" + hashlib.sha256(namespace.encode()).hexdigest()[:16] + ":"
        self.paused_until = 0.0
        self.lock = threading.Lock()

    def take(self, bucket: str, key: str, rate: float, burst: float, cost: float) -> float | None:
        """Seconds to wait (0.0: go ahead) for ``cost`` tokens of ``key`` in ``bucket``; None when
        Redis cannot say now."""
        if time.monotonic() < self.paused_until:
            return None
        try:
            answer = self.script(keys=[f"{self.prefix}{bucket}:{key}"], args=[rate, burst, cost])
            return float(answer)
        except Exception as exc:  # noqa: BLE001 - Redis away: the process's own count stands in
            with self.lock:
                if time.monotonic() >= self.paused_until:
                    log.warning("limits: Redis did not answer (%s); this process counts alone for now", exc)
                self.paused_until = time.monotonic() + self.PAUSE
            return None

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


async def take_off_loop(buckets: TokenBuckets, key: str) -> float:
    """``buckets.take(key)`` from the event loop: a shared bucket's Redis call in a worker thread."""
    if isinstance(buckets, SharedBuckets):
        import anyio

        return await anyio.to_thread.run_sync(buckets.take, key)
    return buckets.take(key)


class Counter:
    """Open connections per key (a table, an address): ``enter`` refuses past ``limit``."""

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self.counts: dict[str, int] = {}
        self.lock = threading.Lock()

    def enter(self, key: str) -> bool:
        with self.lock:
            count = self.counts.get(key, 0)
            if self.limit and count >= self.limit:
                return False
            self.counts[key] = count + 1
            return True

    def leave(self, key: str) -> None:
        with self.lock:
            count = self.counts.get(key, 0) - 1
            if count > 0:
                self.counts[key] = count
            else:
                self.counts.pop(key, None)


class Running:
    """Objects still running (anything with ``over``) per key: ``room(key)`` is 0.0 while ``key`` and
    everybody together are under their limits, else a wait in seconds to try again after. With
    ``busy``, an object counts only while ``busy(object)`` is true as well."""

    RETRY = 30.0  # a bot game lasts minutes: try again in half a minute

    def __init__(self, per_key: int, total: int, busy: Callable[[Any], bool] | None = None) -> None:
        self.per_key = per_key
        self.total = total
        self.busy = busy
        # Weak: a table the server forgot (it waited for its people) is not kept alive here.
        self.items: dict[str, weakref.WeakSet[Any]] = {}
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

    def room(self, key: str) -> float:
        with self.lock:
            self._prune()
            mine = sum(map(self._counts, list(self.items.get(key, ()))))
            everyone = (
                sum(sum(map(self._counts, list(items))) for items in self.items.values()) if self.total else 0
            )
        full = (self.per_key and mine >= self.per_key) or (self.total and everyone >= self.total)
        return self.RETRY if full else 0.0

    def add(self, key: str, item: Any) -> None:
        with self.lock:
            self.items.setdefault(key, weakref.WeakSet()).add(item)


BUSY_WINDOW = 300.0  # seconds: a table with bots that saw no move for this long is left alone


def moved_lately(table: Any) -> bool:
    """Whether the table saw a change in the last ``BUSY_WINDOW`` seconds (or never was left)."""
    changed = getattr(table, "updated_at", None)
    if not isinstance(changed, datetime):
        return True
    if changed.tzinfo is None:  # SQLite gives back naive UTC times
        changed = changed.replace(tzinfo=UTC)
    return (datetime.now(UTC) - changed).total_seconds() < BUSY_WINDOW


class Guard:
    """The limits of one server process."""

    def __init__(self, limits: Limits) -> None:
        self.limits = limits
        per_minute = limits.tables_per_minute
        # A minute's allowance may be spent at once, then it refills evenly.
        self.tables = TokenBuckets(per_minute / 60.0, per_minute)
        self.moves = TokenBuckets(limits.moves_per_second, limits.moves_burst)
        self.table_sockets = Counter(limits.sockets_per_table)
        self.address_sockets = Counter(limits.sockets_per_address)
        self.spectators = Counter(limits.spectators_per_table)
        self.address_polls = Counter(limits.polls_per_address)
        self.chat = TokenBuckets(limits.chat_per_minute / 60.0, limits.chat_burst)
        self.address_chat = TokenBuckets(limits.chat_per_address_per_minute / 60.0, limits.chat_address_burst)
        self.bot_tables = Running(limits.bot_tables_per_address, limits.bot_tables)
        self.bot_games = Running(limits.bot_games_per_address, 0, busy=moved_lately)
        self.sits = TokenBuckets(limits.sits_per_minute / 60.0, limits.sits_burst)
        self.analyses = TokenBuckets(limits.analyses_per_hour / 3600.0, limits.analyses_burst)
        self.uploads = TokenBuckets(limits.uploads_per_minute / 60.0, limits.uploads_burst)
        self.replays = TokenBuckets(limits.replay_moves_per_second, limits.replay_moves_burst)
        self.store: SharedStore | None = None

    # The allowances spent by the request, counted for every process together when shared.
    SHARED = ("tables", "chat", "address_chat", "sits", "analyses", "uploads", "replays")

    def share(self, store: SharedStore) -> None:
        """Count the per-request allowances in ``store`` (Redis) from now on."""
        self.store = store
        for name in self.SHARED:
            mine: TokenBuckets = getattr(self, name)
            setattr(self, name, SharedBuckets(mine.rate, mine.burst, store, name))


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
