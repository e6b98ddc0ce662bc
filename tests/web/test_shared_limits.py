"""Per-request allowances shared by every server process of one database (Redis): a client behind a
load balancer reaches N processes, and counted by each it got N times every allowance (security
audit 23). Real PostgreSQL and Redis; skipped with a reason when they are absent."""

from __future__ import annotations

import dataclasses
import uuid

import pytest
from web_helpers import create

from tabletown.web.limits import Limits, SharedBuckets, SharedStore

# (pg_url before make_client in every test: the servers close before their schema is dropped)
# Two tables a minute, chat two at once; every other limit off.
TIGHT = dataclasses.replace(
    Limits.off(), tables_per_minute=2, chat_per_minute=2, chat_burst=2, chat_per_address_per_minute=0
)


def new_table(client) -> int:
    return client.post("/api/tables", json={"game": "toyrace", "seats": ["human", "human"]}).status_code


def test_tables_a_minute_count_once_for_every_process_of_the_database(
    make_client, pg_url, redis_url, sqlite_url
):
    first = make_client(pg_url, redis_url=redis_url, limits=TIGHT)
    second = make_client(pg_url, redis_url=redis_url, limits=TIGHT)
    assert new_table(first) == 201
    assert new_table(second) == 201
    refused = second.post("/api/tables", json={"game": "toyrace", "seats": ["human", "human"]})
    assert refused.status_code == 429 and refused.json()["rule"] == "limit.tables"
    assert new_table(first) == 429
    # another deployment on the same Redis server counts its own clients
    elsewhere = make_client(sqlite_url, redis_url=redis_url, limits=TIGHT)
    assert new_table(elsewhere) == 201


def test_a_seats_chat_allowance_is_shared_too(pg_url, redis_url, make_client):
    first = make_client(pg_url, redis_url=redis_url, limits=TIGHT)
    second = make_client(pg_url, redis_url=redis_url, limits=TIGHT)
    created = create(first)
    token = created["seats"][0]["token"]
    path = f"/api/tables/{created['id']}/chat"
    said = [
        client.post(path, json={"token": token, "text": f"hello {i}"}).status_code
        for i, client in enumerate((first, second, second))
    ]
    assert said == [200, 200, 429]


def test_a_shared_bucket_refills_at_its_rate_and_takes_costs(redis_url):
    store = SharedStore(redis_url, "test-" + uuid.uuid4().hex)
    try:
        buckets = SharedBuckets(rate=1 / 60, burst=2, store=store, name="tables")
        assert [buckets.take("1.2.3.4") for _ in range(2)] == [0.0, 0.0]
        wait = buckets.take("1.2.3.4")
        assert 55 < wait <= 60  # a whole minute for the next token, less the moment already passed
        assert buckets.take("5.6.7.8") == 0.0  # another address has its own bucket
        costly = SharedBuckets(rate=10, burst=100, store=store, name="replays")
        assert costly.take("a", cost=100) == 0.0
        assert costly.take("a", cost=50) == pytest.approx(5.0, abs=0.2)
        keys = store.client.keys(store.prefix + "*")
        assert keys and all(0 < store.client.pttl(key) <= 121_000 for key in keys)  # gone once full again
        store.client.delete(*keys)
    finally:
        store.close()


def test_without_an_answer_from_redis_each_process_counts_alone():
    store = SharedStore("redis://127.0.0.1:1/0", "nowhere")  # nothing listens on port 1
    try:
        buckets = SharedBuckets(rate=1 / 60, burst=2, store=store, name="tables")
        assert [buckets.take("1.2.3.4") for _ in range(2)] == [0.0, 0.0]
        assert buckets.take("1.2.3.4") > 0  # this process's own bucket
        assert store.paused_until > 0  # and Redis is left alone for a few seconds
    finally:
        store.close()
