"""Security audit 17 (2026-12-06): what grows without bound over the life of a long-running server.

Audited: the web process's and the bot worker's memory (tables kept after they end or are
abandoned, per-table caches, replay checkpoints and the replay cursor, token buckets and counters,
WebSocket and long-poll bookkeeping, bot agents, worded-event and upload caches, Redis keys) and
the database (chat, tables that never end, saved positions, analyses, uploads).

Found, each test failing before its fix (objects or rows counted, never a time):

* a table that reached the 5,000-move limit unfinished stayed "running" for ever: listed in the
  lobby, counted by ``limit.bot_tables`` (four such bot tables locked their address out, 32 the
  whole process, until a restart), and rebuilt and driven at every start. It now ends at its last
  move (status "error", the reason worded in the reader's language), and one stored so earlier
  ends when it is loaded;
* a table's chat was never trimmed (60 messages a minute per address, on any table, kept for ever):
  a table keeps its last 100, the ones a page shows;
* a bot worker kept every table it ever drove that nobody finished (with a driver task and a Redis
  lease renewed every 3 s each), and any start rebuilt and kept every abandoned table with a bot or
  a timer: both now forget tables that wait for their people past ``MAX_IN_MEMORY``, and a worker
  loads such a table again when the hub says a person came back to it.

Checked and bounded: replay checkpoints (at most 8 and the start) and the replay cursor (one
position per table in memory, gone with the table), uploads (16), worded events (bounded since audit 30 by the events held),
token buckets (100,000 keys each), socket and poll counters (dropped at zero), running-table sets
(weak), long-poll waiters (256 a table, weak), outgoing pushes (64 a socket), leases (expire).
"""

from __future__ import annotations

import asyncio
import contextlib
import shutil
import socket
import subprocess
import threading
import time
from datetime import timedelta

import pytest
import sqlalchemy as sa
from fastapi.testclient import TestClient
from web_helpers import redeem_invitation, wait_for

from tabletown.web import botworker, chat, db, tables
from tabletown.web.app import create_app
from tabletown.web.limits import Limits
from tabletown.web.live import ENDED_AT_MOVE_LIMIT

BOTS_ONLY = {"game": "toyrace", "seats": ["bot:random", "bot:random"], "options": {"target": 100}}
# A human seat to move first and a bot: nobody comes, so the table waits for its people for ever.
ABANDONED = {"game": "toyrace", "seats": ["human", "bot:random"], "options": {"target": 100}}


def rows(url: str, sql: str) -> list[tuple]:
    engine = sa.create_engine(url)
    try:
        with engine.begin() as conn:
            result = conn.execute(sa.text(sql))
            return [tuple(r) for r in result] if result.returns_rows else []
    finally:
        engine.dispose()


@pytest.fixture
def small_cap(monkeypatch):
    monkeypatch.setattr(tables, "MAX_LIVE_MOVES", 12)


def test_hole_a_table_at_the_move_limit_ends_and_frees_its_place(sqlite_url, small_cap):
    with TestClient(create_app(sqlite_url, limits=Limits())) as client:  # the default limits
        ids = [client.post("/api/tables", json=BOTS_ONLY).json()["id"] for _ in range(4)]
        wait_for(lambda: all(client.get(f"/api/tables/{t}").json()["seq"] == 12 for t in ids))
        wait_for(lambda: all(client.get(f"/api/tables/{t}").json()["status"] != "running" for t in ids))
        view = client.get(f"/api/tables/{ids[0]}", params={"lang": "pl"}).json()
        assert view["status"] == "error" and "skończyła się bez wyniku" in view["error"]
        assert view["to_act"] == [] and view["legal"] == []  # nobody's turn any more
        assert client.get("/api/tables", params={"status": "running"}).json()["tables"] == []
        # the address's four bot tables are over: a fifth is welcome (was 429 limit.bot_tables)
        assert client.post("/api/tables", json=BOTS_ONLY).status_code == 201
        refused = client.post(f"/api/tables/{ids[0]}/actions", json={"seq": 12, "action": "r"})
        assert refused.status_code in (403, 422)
    stored = rows(sqlite_url, f"SELECT status, error FROM tt_tables WHERE id IN {tuple(ids)!r}")
    assert stored == [("error", ENDED_AT_MOVE_LIMIT)] * 4


def test_hole_a_table_stored_at_the_move_limit_ends_when_loaded(sqlite_url, small_cap):
    with TestClient(create_app(sqlite_url, limits=Limits.off())) as client:
        table_id = client.post("/api/tables", json=BOTS_ONLY).json()["id"]
        wait_for(lambda: client.get(f"/api/tables/{table_id}").json()["seq"] == 12)
    # as a table that reached the limit before this audit was stored: still running
    rows(sqlite_url, f"UPDATE tt_tables SET status = 'running', error = NULL WHERE id = '{table_id}'")
    with TestClient(create_app(sqlite_url, limits=Limits.off())) as client:
        assert len(client.app.state.service.driven_unfinished_ids()) == 0
        assert client.get(f"/api/tables/{table_id}").json()["status"] == "error"
    assert rows(sqlite_url, "SELECT status FROM tt_tables") == [("error",)]


def test_hole_a_tables_chat_keeps_its_last_messages(client):
    first = client.post("/api/tables", json={"game": "toyrace", "seats": ["human", "human"]}).json()["id"]
    other = client.post("/api/tables", json={"game": "toyrace", "seats": ["human", "human"]}).json()["id"]
    svc = client.app.state.service
    for n in range(chat.HISTORY + 30):
        chat.post(svc, svc.get(first), None, f"line {n}")
    chat.post(svc, svc.get(other), None, "elsewhere")
    url = str(svc.engine.url)
    assert rows(url, f"SELECT COUNT(*) FROM tt_chat WHERE table_id = '{first}'") == [(chat.HISTORY,)]
    assert rows(url, f"SELECT COUNT(*) FROM tt_chat WHERE table_id = '{other}'") == [(1,)]
    shown = client.get(f"/api/tables/{first}/chat").json()["messages"]
    assert [m["text"] for m in shown] == [f"line {n}" for n in range(30, chat.HISTORY + 30)]


@pytest.fixture
def few_in_memory(monkeypatch):
    """Tables forgotten past 4 in memory, and quiet at once (no ten minutes to wait)."""
    monkeypatch.setattr(tables, "MAX_IN_MEMORY", 4)
    monkeypatch.setattr(tables, "IDLE_EVICTION", timedelta(0))
    monkeypatch.setattr(botworker, "IDLE_EVICTION", timedelta(0), raising=False)


def test_hole_a_start_keeps_no_more_abandoned_tables_than_memory_holds(sqlite_url, few_in_memory):
    with TestClient(create_app(sqlite_url, limits=Limits.off(), run_bots=False)) as client:
        for _ in range(10):
            assert client.post("/api/tables", json=ABANDONED).status_code == 201
    service = tables.TableService(db.session_factory(db.make_engine(sqlite_url)))
    loaded = service.load_unfinished()
    assert len(service.driven_unfinished_ids()) == 10
    assert len(service.tables) <= tables.MAX_IN_MEMORY  # was all 10
    assert all(service.held(t.id) is t for t in loaded)  # only the held ones get a driver
    service.engine.dispose()


def test_a_start_reads_no_table_people_left_long_ago_and_a_visit_brings_one_back(sqlite_url):
    """Tables with a person's seat, quiet for longer than IDLE_EVICTION, are not read at a start
    (nothing happens there until a person comes back); bots alone are resumed; a visit loads a
    left table with its driver, and its bot plays."""
    waiting_bot = {"game": "toyrace", "seats": ["bot:random", "human"], "options": {"target": 100}}
    with TestClient(create_app(sqlite_url, limits=Limits.off(), run_bots=False)) as client:
        left = [client.post("/api/tables", json=spec).json()["id"] for spec in (ABANDONED, waiting_bot)]
        bots_alone = client.post("/api/tables", json=BOTS_ONLY).json()["id"]
    rows(sqlite_url, "UPDATE tt_tables SET updated_at = '2026-01-01 00:00:00.000000'")
    with TestClient(create_app(sqlite_url, limits=Limits.off())) as client:
        service = client.app.state.service
        assert service.held(bots_alone) is not None  # resumed, however old
        assert all(service.held(table_id) is None for table_id in left)  # not even read
        wait_for(lambda: client.get(f"/api/tables/{left[1]}").json()["seq"] >= 1)  # its bot moved


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@pytest.fixture
def redis_server():
    """A Redis of this test's own (redis-server on a free port), without any saving to disk."""
    binary = shutil.which("redis-server")
    if binary is None:
        pytest.skip("redis-server is not installed")
    port = _free_port()
    process = subprocess.Popen(
        [binary, "--port", str(port), "--save", "", "--appendonly", "no"], stdout=subprocess.DEVNULL
    )
    import redis

    url = f"redis://127.0.0.1:{port}/0"
    try:
        wait_for(lambda: _pings(redis, url))
        yield url
    finally:
        process.terminate()
        process.wait(10)


def _pings(redis, url: str) -> bool:
    try:
        return bool(redis.Redis.from_url(url).ping())
    except Exception:
        return False


@pytest.fixture
def worker(sqlite_url, redis_server, few_in_memory, monkeypatch):
    """A bot worker in a thread of this process; yields its table service."""
    services: list[tables.TableService] = []

    class Seen(tables.TableService):
        def __init__(self, *args, **kwargs) -> None:
            super().__init__(*args, **kwargs)
            services.append(self)

    monkeypatch.setattr(botworker, "TableService", Seen)
    monkeypatch.setattr(botworker, "DISCOVER_SECONDS", 0.5)  # discovery must not bring them back
    monkeypatch.setattr(botworker, "RENEW_SECONDS", 0.2)
    loop = asyncio.new_event_loop()
    stop = asyncio.Event()
    run = threading.Thread(
        target=loop.run_until_complete,
        args=(botworker.run_worker(sqlite_url, redis_server, bot_delay=0, stop=stop),),
        daemon=True,
    )
    run.start()
    wait_for(lambda: bool(services))
    time.sleep(0.5)  # subscribed before the tables are made
    yield services[0]
    loop.call_soon_threadsafe(stop.set)
    run.join(15)
    with contextlib.suppress(Exception):
        loop.close()


def counted_loads(service: tables.TableService) -> list[str]:
    """The ids of the tables ``service`` reads from the database from now on, in order."""
    loads: list[str] = []
    load = service._load

    def counted(table_id: str):
        loads.append(table_id)
        return load(table_id)

    service._load = counted  # type: ignore[method-assign]
    return loads


def test_hole_a_bot_worker_forgets_tables_that_wait_for_their_people(sqlite_url, redis_server, worker):
    import redis

    loads = counted_loads(worker)
    with TestClient(
        create_app(sqlite_url, limits=Limits.off(), redis_url=redis_server, run_bots=False)
    ) as client:
        made = [client.post("/api/tables", json=ABANDONED).json() for _ in range(10)]
        wait_for(lambda: len(set(loads)) >= 10)
        time.sleep(1.5)  # three discoveries and several lease renewals
        leases = redis.Redis.from_url(redis_server).keys("tabletown:lease:*")
        assert len(worker.tables) <= tables.MAX_IN_MEMORY + 1  # was all 10
        assert len(leases) <= tables.MAX_IN_MEMORY + 1  # was 10, renewed every 3 s for ever
        # a person comes back to a table the worker forgot: it is loaded again and its bot plays
        gone = next(t for t in made if worker.held(t["id"]) is None)
        token = redeem_invitation(client, gone["id"], gone["seats"][0]["token"])
        moved = client.post(
            f"/api/tables/{gone['id']}/actions", json={"token": token, "seq": 0, "action": "b"}
        )
        assert moved.status_code == 200, moved.text
        wait_for(lambda: client.get(f"/api/tables/{gone['id']}").json()["seq"] >= 2)


def test_a_bot_worker_hears_of_tables_it_does_not_have_without_a_word(redis_server, worker, caplog):
    """Hub messages about tables of another database on the same Redis (or gone ones): the worker
    looks once and lets them be. It logged a traceback for each (a chatty worker whose log is a pipe
    nobody reads then blocks at its next line: found by tests/web/test_scale.py under load)."""
    import logging

    import orjson
    import redis

    caplog.set_level(logging.INFO, logger="tabletown.web")
    loads = counted_loads(worker)
    hub = redis.Redis.from_url(redis_server)
    for kind, extra in (("move", {"driven": True, "seq": 1}), ("joined", {"seat": 0}), ("away", {"seat": 0})):
        hub.publish("tabletown:tables", orjson.dumps({"table": "elsewhere0001", "kind": kind, **extra}))
    hub.publish("tabletown:tables", orjson.dumps({"table": "elsewhere0002", "kind": "joined", "seat": 0}))
    wait_for(lambda: "elsewhere0002" in loads)  # (messages are handled in order: the first three are done)
    # one look for each table it does not have, not one per message (its every move cost a query in
    # the loop that hands out the worker's own tables' messages too, and slowed them under load)
    assert loads == ["elsewhere0001", "elsewhere0002"]
    assert not [r for r in caplog.records if r.levelno >= logging.WARNING], caplog.text
