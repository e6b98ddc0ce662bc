"""The Redis hub (web/hub.py): what one process publishes reaches the others, in order, without
the publisher waiting for Redis (real Redis at $TABLETOWN_TEST_REDIS_URL; skipped when unset)."""

from __future__ import annotations

import asyncio
import os
import threading

import orjson

from tabletown.web.hub import CHANNEL, RedisHub

REDIS_ENV = "TABLETOWN_TEST_REDIS_URL"


def test_messages_from_the_loop_and_from_threads_arrive_once_in_order(redis_url):
    heard: list[dict] = []

    async def scenario():
        import redis.asyncio as aioredis

        listener = aioredis.Redis.from_url(redis_url)
        pubsub = listener.pubsub()
        await pubsub.subscribe(CHANNEL)
        hub = RedisHub(redis_url)
        other = RedisHub(redis_url)  # a second process's hub: it hears the first one's messages
        got_by_other: list[dict] = []

        async def handler(message):
            got_by_other.append(message)

        await hub.start(lambda message: asyncio.sleep(0))
        await other.start(handler)
        table = f"t{os.getpid()}"
        for n in range(100):  # from the loop: queued, sent in batches
            hub.publish(table, "move", n, {"n": n})
        # from a worker thread (a move stored in a thread) while the loop is sending
        thread = threading.Thread(target=lambda: [hub.publish(table, "move", n, {}) for n in range(100, 200)])
        thread.start()
        await asyncio.to_thread(thread.join)
        hub.publish(table, "move", 200, {})
        deadline = asyncio.get_running_loop().time() + 10
        while len(heard) < 201 and asyncio.get_running_loop().time() < deadline:
            raw = await pubsub.get_message(ignore_subscribe_messages=True, timeout=0.5)
            if raw is not None:
                message = orjson.loads(raw["data"])
                if message.get("table") == table:
                    heard.append(message)
        while len(got_by_other) < 201 and asyncio.get_running_loop().time() < deadline:
            await asyncio.sleep(0.02)
        await hub.stop()
        await other.stop()
        await pubsub.aclose()
        await listener.aclose()
        return [m["seq"] for m in got_by_other if m.get("table") == table]

    other_heard = asyncio.run(scenario())
    assert [m["seq"] for m in heard] == list(range(201))
    assert heard[5]["n"] == 5 and heard[5]["kind"] == "move"
    assert other_heard == list(range(201))


def test_publish_before_start_and_after_stop_goes_at_once(redis_url):
    async def scenario():
        import redis.asyncio as aioredis

        listener = aioredis.Redis.from_url(redis_url)
        pubsub = listener.pubsub()
        await pubsub.subscribe(CHANNEL)
        hub = RedisHub(redis_url)
        hub.publish("early", "created", 0, {})  # not started: a plain synchronous publish
        raw = None
        for _ in range(20):
            raw = await pubsub.get_message(ignore_subscribe_messages=True, timeout=0.5)
            if raw is not None:
                break
        await pubsub.aclose()
        await listener.aclose()
        hub.client.close()
        return raw

    raw = asyncio.run(scenario())
    assert raw is not None and orjson.loads(raw["data"])["table"] == "early"
