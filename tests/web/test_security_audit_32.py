"""Security audit 32 (2026-12-07; a helper session played the attacker against sockets, analyses and
bots): WebSocket pings were answered without bound (a client sending pings without reading made the
server buffer 130 MB in five seconds), and a finished analysis was parsed and encoded again at every
request, for anyone, as often as they liked (11 ms of a core for a 2,000-move game)."""

from __future__ import annotations

import base64
import contextlib
import dataclasses
import json
import os
import socket
import threading
import time

import pytest
from web_helpers import create, play_past, uvicorn_in_thread

from tabletown.web import analyses
from tabletown.web.analyses import AnalysisRow
from tabletown.web.limits import Limits
from tabletown.web.protocols import PING_BURST, BoundedHttpToolsProtocol, BoundedWebSocketProtocol


async def listening_app(scope, receive, send):
    """Accepts a socket and reads its messages until it closes (sends nothing)."""
    if scope["type"] != "websocket":
        return
    await receive()
    await send({"type": "websocket.accept"})
    while (await receive())["type"] != "websocket.disconnect":
        pass


@pytest.fixture(scope="module")
def port():
    with uvicorn_in_thread(listening_app, http=BoundedHttpToolsProtocol, ws=BoundedWebSocketProtocol) as port:
        yield port


def opened(port: int) -> socket.socket:
    sock = socket.create_connection(("127.0.0.1", port))
    key = base64.b64encode(os.urandom(16)).decode()
    sock.sendall(
        (
            f"GET / HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
            f"Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n"
        ).encode()
    )
    head = b""
    while b"\r\n\r\n" not in head:
        head += sock.recv(1)
    assert head.startswith(b"HTTP/1.1 101")
    return sock


PING = b"\x89\x80" + b"\x00\x00\x00\x00"  # a masked ping frame without payload
PONG = b"\x8a\x00"


def answers(sock: socket.socket, wait: float = 1.0) -> tuple[bytes, bool]:
    """What the server sent within ``wait`` seconds, and whether it ended the connection."""
    sock.settimeout(wait)
    data = b""
    try:
        while chunk := sock.recv(65536):
            data += chunk
    except TimeoutError:
        return data, False
    except ConnectionResetError:
        return data, True
    return data, True


def test_a_socket_pinging_past_its_budget_is_dropped(port):
    with contextlib.closing(opened(port)) as sock:
        with contextlib.suppress(OSError):  # the server may drop it while we still send
            sock.sendall(PING * (PING_BURST * 20))
        data, ended = answers(sock, 5.0)
    assert ended
    assert data.count(PONG) <= PING_BURST


def test_a_socket_pinging_now_and_then_gets_every_pong(port):
    with contextlib.closing(opened(port)) as sock:
        received = b""
        for _ in range(PING_BURST + 5):  # past the burst, but no faster than the budget refills
            sock.sendall(PING)
            data, ended = answers(sock, 0.55)
            assert not ended
            received += data
    assert received.count(PONG) == PING_BURST + 5


def test_serve_runs_uvicorn_with_the_bounded_socket_protocol(monkeypatch, tmp_path):
    import uvicorn

    from tabletown.web import server

    ran = {}
    monkeypatch.setattr(server.sys, "setswitchinterval", lambda seconds: None)  # (this process's own)
    monkeypatch.setattr(uvicorn, "run", lambda app, **options: ran.update(options))
    server.serve(db_url=f"sqlite:///{tmp_path / 't.db'}", port=8799)
    assert ran["ws"] is BoundedWebSocketProtocol


# -- a finished analysis ------------------------------------------------------------------------------------------
def test_a_finished_analysis_is_sent_as_stored_and_paid_for_by_its_length(
    make_client, sqlite_url, monkeypatch
):
    limits = dataclasses.replace(Limits.off(), view_events_per_second=0.001, view_events_burst=500)
    client = make_client(sqlite_url, limits=limits)
    svc = client.app.state.service
    table = svc.tables[create(client, seats=["human", "human"])["id"]]
    play_past(svc, table, 300)
    stored = {"curve": [0.5] * table.seq, "decisions": []}
    with svc.sessions() as session, session.begin():
        session.add(AnalysisRow(table_id=table.id, status="done", progress=1.0, result=json.dumps(stored)))

    def parsed_again(row):
        raise AssertionError("a finished analysis was parsed again")

    monkeypatch.setattr(analyses, "answer", parsed_again)
    first = client.get(f"/api/tables/{table.id}/analysis")
    assert first.status_code == 200
    assert first.json() == {"status": "done", "progress": 1.0, "analysis": stored, "error": None}
    refused = client.get(f"/api/tables/{table.id}/analysis")  # ~300 of the 500 already spent
    assert refused.status_code == 429 and refused.json()["rule"] == "limit.views"


def test_an_analysis_not_made_yet_answers_as_before(client):
    table_id = create(client)["id"]
    answer = client.get(f"/api/tables/{table_id}/analysis")
    assert answer.status_code == 200 and answer.json()["status"] in ("none", "unavailable")


# -- standby bots ---------------------------------------------------------------------------------------------------
def test_tables_with_a_turn_timer_count_as_tables_with_bots(make_client, sqlite_url):
    """A standby bot plays every seat whose player is away at a table with a turn timer: a script
    made all-human timed tables beyond the limit on tables with bots and played one seat of each."""
    limits = dataclasses.replace(Limits.off(), bot_games_per_address=2)
    client = make_client(sqlite_url, limits=limits)
    timed = {"game": "toyrace", "seats": ["human", "human"], "turn_timer": 30}
    assert [client.post("/api/tables", json=timed).status_code for _ in range(2)] == [201, 201]
    refused = client.post("/api/tables", json=timed)
    assert refused.status_code == 429 and refused.json()["rule"] == "limit.bot_games"
    untimed = client.post("/api/tables", json={"game": "toyrace", "seats": ["human", "human"]})
    assert untimed.status_code == 201


# -- the bots' worker threads -----------------------------------------------------------------------------------------
def test_a_bot_s_time_starts_when_a_worker_thread_takes_its_decision():
    """Bots of every table share a few threads: a decision queued behind another table's long one
    ran out of its time before it began, and its table got a random move."""
    import asyncio
    from types import SimpleNamespace

    from tabletown.web.drivers import Drivers, _Asking

    service = SimpleNamespace(agent=lambda table, seat, name: lambda position, seat: "the bot's move")
    drivers = Drivers(service, bot_delay=0.0, bot_seconds=0.3, workers=1)  # type: ignore[arg-type]
    release = threading.Event()
    try:
        drivers.pool.submit(release.wait, 0.6)  # another table's decision holds the only thread

        async def decide():
            asking = _Asking(name="bot")
            return await drivers._decide(SimpleNamespace(id="t", owner=None), 0, object(), asking)  # type: ignore[arg-type]

        assert asyncio.run(decide()) == "the bot's move"
    finally:
        release.set()
        drivers.pool.shutdown(wait=True)


def test_another_owner_s_bot_waits_for_one_decision_not_for_the_whole_queue():
    """Four tables of one address with slow bots, then one of another address, two threads: the
    first address's bots take both threads (nobody else needed one), and the other table's bot gets
    the first thread set free; first come, first served, it waited behind all four."""
    import asyncio
    from types import SimpleNamespace

    from tabletown.web.drivers import Drivers, _Asking

    def agent(table, seat, name):
        def think(position, seat):
            time.sleep(0.4 if table.owner == "1.2.3.4" else 0.0)
            return table.id

        return think

    drivers = Drivers(SimpleNamespace(agent=agent), bot_delay=0.0, bot_seconds=5.0, workers=2)  # type: ignore[arg-type]
    tables = [SimpleNamespace(id=f"a{i}", owner="1.2.3.4") for i in range(4)]
    tables.append(SimpleNamespace(id="b", owner="5.6.7.8"))
    finished: list[str] = []

    async def decide(table):
        move = await drivers._decide(table, 0, object(), _Asking(name="bot"))  # type: ignore[arg-type]
        finished.append(move)

    async def main():
        tasks = []
        for table in tables:
            tasks.append(asyncio.create_task(decide(table)))
            await asyncio.sleep(0.01)  # in this order
        await asyncio.gather(*tasks)

    try:
        asyncio.run(main())
    finally:
        drivers.pool.shutdown(wait=True)
    assert finished[0] == "a0" and finished.index("b") < min(finished.index("a2"), finished.index("a3"))
    assert sorted(finished) == ["a0", "a1", "a2", "a3", "b"]
    assert drivers.threads.free == 2 and not drivers.threads.held and not drivers.threads.waiting


def test_a_share_given_up_while_waiting_is_not_lost():
    import asyncio

    from tabletown.web.drivers import ThreadShares

    async def main():
        shares = ThreadShares(1)
        await shares.take("a")
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(shares.take("b"), 0.05)  # gives up waiting
        waiter = asyncio.create_task(shares.take("c"))
        await asyncio.sleep(0)
        shares.give_back("a")
        await asyncio.wait_for(waiter, 1.0)  # the thread went to c, not to b's abandoned place
        assert shares.held == {"c": 1} and shares.free == 0
        shares.give_back("c")
        assert shares.free == 1 and not shares.waiting

    asyncio.run(main())
