"""Nothing blocks the event loop: while one table's database write hangs for 5 s (the database is
busy), the server goes on answering /healthz and every other table, and a WebSocket of the stuck
table can close. A real server process (uvicorn) is used, as in production."""

from __future__ import annotations

import statistics
import threading
import time

import httpx
import pytest
import sqlalchemy as sa
from web_helpers import create, free_port, start_server

HOLD = 5.0


def quick(http: httpx.Client, path: str, **kwargs) -> float:
    start = time.perf_counter()
    answer = http.get(path, **kwargs)
    assert answer.status_code == 200, answer.text
    return time.perf_counter() - start


def toy_table(http: httpx.Client) -> dict:
    return create(http, seats=["human", "human"], seed=4)


@pytest.fixture(params=["sqlite", "postgresql"])
def server_url(request, tmp_path):
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'loop.db'}"
    return request.getfixturevalue("pg_url")


def hold_write(db_url: str, table_id: str, held: threading.Event, release: threading.Event) -> None:
    """Keep the database from writing ``table_id``'s next move: SQLite's write lock (the whole file),
    PostgreSQL a row lock on the table's row."""
    engine = sa.create_engine(db_url)
    try:
        with engine.connect() as conn:
            if db_url.startswith("sqlite"):
                conn.exec_driver_sql("BEGIN IMMEDIATE")
            else:
                conn.execute(sa.text("SELECT id FROM tt_tables WHERE id = :t FOR UPDATE"), {"t": table_id})
            held.set()
            release.wait(HOLD)
            conn.rollback()
    finally:
        engine.dispose()


def test_a_stuck_write_stalls_nothing_else(server_url):
    from websockets.sync.client import connect

    port = free_port()
    server = start_server(server_url, port)
    base = f"http://127.0.0.1:{port}"
    http = httpx.Client(base_url=base, timeout=30)
    try:
        stuck, other = toy_table(http), toy_table(http)
        token = stuck["seats"][0]["token"]
        socket = connect(
            f"ws://127.0.0.1:{port}/ws/tables/{stuck['id']}",
            additional_headers={"authorization": f"Bearer {token}"},
        )
        socket.recv(timeout=10)
        held, release = threading.Event(), threading.Event()
        holder = threading.Thread(target=hold_write, args=(server_url, stuck["id"], held, release))
        holder.start()
        assert held.wait(10)
        answers: list[httpx.Response] = []
        mover = threading.Thread(
            target=lambda: answers.append(
                httpx.post(
                    f"{base}/api/tables/{stuck['id']}/actions",
                    json={"token": token, "seq": 0, "action": "p"},
                    timeout=60,
                )
            )
        )
        began = time.perf_counter()
        mover.start()
        time.sleep(0.5)  # the move is now waiting for the database
        socket.close()  # a closing WebSocket of the stuck table (it used to block the loop)
        times = {"healthz": [], "other table": [], "stuck table read": []}
        for _ in range(6):
            times["healthz"].append(quick(http, "/healthz"))
            times["other table"].append(quick(http, f"/api/tables/{other['id']}"))
            times["stuck table read"].append(quick(http, f"/api/tables/{stuck['id']}"))
            time.sleep(0.2)
        waited = time.perf_counter() - began
        assert mover.is_alive() and waited < HOLD, "the write was not held while we measured"
        for name, values in times.items():
            assert statistics.median(values) < 0.1, (name, values)
            assert max(values) < 1.0, (name, values)
        # the stuck table's readers saw the position before the pending move
        assert http.get(f"/api/tables/{stuck['id']}").json()["seq"] == 0
        release.set()
        holder.join(10)
        mover.join(40)
        assert answers and answers[0].status_code == 200, answers and answers[0].text
        assert http.get(f"/api/tables/{stuck['id']}").json()["seq"] == 1
    finally:
        http.close()
        server.terminate()
        server.wait(10)
