"""A bot worker's start claims the lease of every unfinished table it finds. It did so all at once,
one Redis call each, and a restart with a hundred tables ran its Redis client out of connections
(`make load`: MaxConnectionsError in tasks nobody awaited). Claims now go a few at a time
(botworker.CLAIMS_AT_ONCE), and a claim that fails is left to the upkeep, not lost in a task."""

from __future__ import annotations

import asyncio

from tabletown.web import botworker, db
from tabletown.web.tables import TableService

TABLES = 40


def test_a_start_claims_its_tables_a_few_at_a_time_and_survives_a_failed_claim(
    tmp_path, redis_url, monkeypatch
):
    db_url = f"sqlite:///{tmp_path / 'claims.db'}"
    engine = db.make_engine(db_url)
    db.migrate(engine)
    service = TableService(db.session_factory(engine))
    ids = [
        service.create("machikoro", None, ["bot:random", "bot:random"], None, None, None).id
        for _ in range(TABLES)
    ]
    engine.dispose()
    seen = {"now": 0, "most": 0, "taken": set(), "failed": 0}

    class CountingLeases(botworker.Leases):
        async def take(self, table_id: str) -> bool:
            seen["now"] += 1
            seen["most"] = max(seen["most"], seen["now"])
            try:
                await asyncio.sleep(0.02)  # a Redis round trip, long enough for claims to overlap
                if table_id == ids[0] and not seen["failed"]:
                    seen["failed"] += 1
                    raise ConnectionError("too many connections")  # the first try of one table fails
                seen["taken"].add(table_id)
                return True
            finally:
                seen["now"] -= 1

        async def renew(self, table_id: str) -> bool:
            return table_id in seen["taken"]

        async def release(self, table_id: str) -> None:
            pass

    monkeypatch.setattr(botworker, "Leases", CountingLeases)
    monkeypatch.setattr(botworker, "RENEW_SECONDS", 0.3)

    async def scenario() -> None:
        stop = asyncio.Event()
        worker = asyncio.create_task(
            botworker.run_worker(db_url, redis_url, bot_delay=5.0, bot_seconds=1.0, stop=stop)
        )
        loop = asyncio.get_running_loop()
        deadline = loop.time() + 60
        while len(seen["taken"]) < TABLES and loop.time() < deadline and not worker.done():
            await asyncio.sleep(0.05)
        stop.set()
        await worker

    asyncio.run(scenario())
    assert seen["failed"] == 1
    assert seen["taken"] == set(ids)  # the failed claim was taken at a later upkeep round
    assert 1 < seen["most"] <= botworker.CLAIMS_AT_ONCE < TABLES
