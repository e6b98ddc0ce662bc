"""How server processes tell each other that a table changed.

The database is the truth; a hub says "table T is now at move N" with the move itself (or "a seat
changed", "a table was created"), published after the change was stored, so that every other process
that holds the table applies the move to its copy (or, when it missed one, catches up from the
database) and pushes the news to its own WebSocket clients. ``LocalHub`` is the embedded default (one process: nothing to tell);
``RedisHub`` uses Redis pub/sub (``--redis URL`` / ``TABLETOWN_REDIS_URL``).
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import logging
import os
import uuid
from collections.abc import Awaitable, Callable
from typing import Any

import orjson

log = logging.getLogger("tabletown.web")
ENV_REDIS = "TABLETOWN_REDIS_URL"
CHANNEL = "tabletown:tables"
# What a process keeps for Redis while Redis does not answer. Past it the oldest news goes: every
# message is also a stored change, and another process that missed one catches up from the
# database (and every process resyncs when its own subscription comes back), so nothing is lost
# but a little promptness, where an unbounded queue grew with every move for as long as the
# outage lasted.
MAX_OUTBOX = 20_000
RETRY_FIRST, RETRY_MOST = 0.5, 10.0

Handler = Callable[[dict[str, Any]], Awaitable[None]]


class LocalHub:
    """One process: every change is already known here."""

    origin = "local"
    shared = False

    def publish(
        self, table_id: str, kind: str, seq: int | None = None, detail: dict[str, Any] | None = None
    ) -> None:
        pass

    async def start(self, handler: Handler) -> None:
        pass

    async def stop(self) -> None:
        pass


class RedisHub:
    """Redis pub/sub between processes. ``publish`` never waits for Redis once ``start`` ran: the
    message joins an outbox that a task on the event loop sends, everything waiting at once in one
    pipeline (under load, one round trip for many moves; before, every move waited for its own, on
    the loop or in a worker thread). Messages leave in the order they were published. ``start``
    also listens on the event loop and hands every other process's message to ``handler``."""

    shared = True

    def __init__(self, url: str) -> None:
        import redis

        self.url = url
        self.origin = uuid.uuid4().hex
        self.client = redis.Redis.from_url(url, socket_timeout=5, socket_connect_timeout=5)
        self.client.ping()  # fail at start-up, not at the first move
        self.task: asyncio.Task[None] | None = None
        self.loop: asyncio.AbstractEventLoop | None = None
        self.outbox: collections.deque[bytes] = collections.deque(maxlen=MAX_OUTBOX)
        self.failing = False  # Redis refused the last batch: back off, and say so once
        self.dropped = 0  # messages given up during the present outage
        self.sender: asyncio.Task[None] | None = None
        self.async_client: Any = None

    def publish(
        self, table_id: str, kind: str, seq: int | None = None, detail: dict[str, Any] | None = None
    ) -> None:
        message = orjson.dumps(
            {"origin": self.origin, "table": table_id, "kind": kind, "seq": seq, **(detail or {})}
        )
        loop = self.loop
        if loop is None:  # not started (or stopped): at once, as before
            self._publish_now(message)
            return
        if len(self.outbox) == MAX_OUTBOX:
            self.dropped += 1  # the deque's bound drops the oldest message as this one joins
        self.outbox.append(message)  # (a deque: appends from threads keep their order)
        if asyncio._get_running_loop() is loop:
            self._send_soon()
        else:
            loop.call_soon_threadsafe(self._send_soon)

    def _publish_now(self, message: bytes) -> None:
        try:
            self.client.publish(CHANNEL, message)
        except Exception:  # the move is stored; other processes catch up at their next read or move
            log.exception("could not publish a message to Redis")

    def _send_soon(self) -> None:
        if self.outbox and (self.sender is None or self.sender.done()):
            self.sender = asyncio.get_running_loop().create_task(self._send())

    async def _send(self) -> None:
        delay = RETRY_FIRST
        held: list[bytes] = []  # a batch Redis refused: it goes first when Redis answers again
        while held or self.outbox:
            room = max(0, MAX_OUTBOX - len(self.outbox))  # the bound covers the held batch too
            if len(held) > room:
                self.dropped += len(held) - room
                held = held[len(held) - room :]
            batch = held or [self.outbox.popleft() for _ in range(min(len(self.outbox), 500))]
            try:
                await self._publish_batch(batch)
            except asyncio.CancelledError:
                raise
            except Exception as exc:  # as above: whoever missed a stored move reads it from the database
                held = batch
                if not self.failing:  # one line an outage, not one a batch
                    log.warning("could not publish to Redis (%s); retrying with back-off", exc)
                self.failing = True
                await asyncio.sleep(delay)  # meanwhile the outbox keeps at most MAX_OUTBOX messages
                delay = min(delay * 2, RETRY_MOST)
                continue
            held = []
            if self.failing:
                log.warning("publishing to Redis again; %d message(s) were dropped meanwhile", self.dropped)
                self.failing, self.dropped, delay = False, 0, RETRY_FIRST

    async def _publish_batch(self, batch: list[bytes]) -> None:
        if len(batch) == 1:
            await self.async_client.publish(CHANNEL, batch[0])
            return
        pipe = self.async_client.pipeline(transaction=False)
        for message in batch:
            pipe.publish(CHANNEL, message)
        await pipe.execute()

    async def start(self, handler: Handler) -> None:
        import redis.asyncio as aioredis

        self.async_client = aioredis.Redis.from_url(self.url, socket_timeout=5, socket_connect_timeout=5)
        self.loop = asyncio.get_running_loop()
        ready = asyncio.Event()
        self.task = asyncio.create_task(self._listen(handler, ready))
        await asyncio.wait_for(ready.wait(), 10)

    async def _listen(self, handler: Handler, ready: asyncio.Event) -> None:
        import redis.asyncio as aioredis

        delay = 0.5
        lost = False
        while True:
            client = aioredis.Redis.from_url(self.url)
            try:
                async with client.pubsub() as pubsub:
                    await pubsub.subscribe(CHANNEL)
                    ready.set()
                    delay = 0.5
                    if lost:  # messages may have been missed: every table in memory catches up
                        lost = False
                        await handler({"kind": "resync"})
                    async for raw in pubsub.listen():
                        if raw.get("type") != "message":
                            continue
                        try:
                            message = orjson.loads(raw["data"])
                        except (ValueError, TypeError):
                            continue
                        if not isinstance(message, dict) or message.get("origin") == self.origin:
                            continue
                        try:
                            await handler(message)
                        except Exception:
                            log.exception("a hub message could not be handled: %r", message)
            except asyncio.CancelledError:
                raise
            except Exception as exc:
                log.warning("Redis subscription lost (%s); reconnecting in %.1fs", exc, delay)
                lost = True
                ready.set()
                await asyncio.sleep(delay)
                delay = min(delay * 2, 10)
            finally:
                with contextlib.suppress(Exception):
                    await client.aclose()

    async def stop(self) -> None:
        if self.sender is not None:  # what is in the outbox still goes out
            with contextlib.suppress(BaseException):
                await asyncio.wait_for(asyncio.shield(self.sender), 5)
            self.sender.cancel()  # Redis still away: what is left is dropped, as during the outage
        self.loop = None
        with contextlib.suppress(Exception):
            if self.async_client is not None:
                await self.async_client.aclose()
        if self.task is not None:
            self.task.cancel()
            with contextlib.suppress(BaseException):
                await self.task
        with contextlib.suppress(Exception):
            self.client.close()


def make_hub(url: str | None = None) -> LocalHub | RedisHub:
    """The hub for ``url`` (else $TABLETOWN_REDIS_URL): Redis when given, else the local one."""
    url = url or os.environ.get(ENV_REDIS)
    return RedisHub(url) if url else LocalHub()
