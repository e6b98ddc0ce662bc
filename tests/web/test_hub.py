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


def test_an_outage_keeps_the_newest_news_bounded_and_says_so_once(redis_url, monkeypatch, caplog):
    """While Redis refuses, the outbox keeps at most MAX_OUTBOX messages (the newest), the sender
    backs off instead of dropping every batch at once, one warning tells of the outage, and the
    kept news goes out in order when Redis answers again."""
    from tabletown.web import hub as hub_module

    monkeypatch.setattr(hub_module, "MAX_OUTBOX", 50, raising=False)
    monkeypatch.setattr(hub_module, "RETRY_FIRST", 0.2, raising=False)
    table = f"outage{os.getpid()}"

    async def scenario():
        import redis.asyncio as aioredis

        listener = aioredis.Redis.from_url(redis_url)
        pubsub = listener.pubsub()
        await pubsub.subscribe(CHANNEL)
        hub = RedisHub(redis_url)
        await hub.start(lambda message: asyncio.sleep(0))
        working = hub.async_client
        hub.async_client = aioredis.Redis.from_url("redis://127.0.0.1:1/0")  # nobody listens there
        for round_ in range(4):  # moves keep coming during the outage
            for n in range(50):
                hub.publish(table, "move", round_ * 50 + n, {})
            await asyncio.sleep(0.05)
        kept = len(hub.outbox)
        await hub.async_client.aclose()
        hub.async_client = working  # Redis is back
        heard: list[int] = []
        deadline = asyncio.get_running_loop().time() + 10
        while asyncio.get_running_loop().time() < deadline and (not heard or heard[-1] != 199):
            raw = await pubsub.get_message(ignore_subscribe_messages=True, timeout=0.5)
            if raw is not None and orjson.loads(raw["data"]).get("table") == table:
                heard.append(orjson.loads(raw["data"])["seq"])
        failing_after = getattr(hub, "failing", None)
        await hub.stop()
        await pubsub.aclose()
        await listener.aclose()
        return kept, heard, failing_after

    with caplog.at_level("WARNING", logger="tabletown.web"):
        kept, heard, failing_after = asyncio.run(scenario())
    assert kept <= 50
    assert heard == list(range(200 - len(heard), 200)) and len(heard) >= 40  # the newest, in order
    assert failing_after is False
    outage_lines = [r for r in caplog.records if "could not publish" in r.getMessage()]
    assert len(outage_lines) == 1
    back = [r.getMessage() for r in caplog.records if "publishing to Redis again" in r.getMessage()]
    # every message either went out after the outage or is counted as dropped
    assert len(back) == 1 and f"; {200 - len(heard)} message(s) were dropped" in back[0]
