"""The fourth security audit (the scale-out code: the quick path, payloads built once per kind of
listener, the hub, bot workers and standby bots, long polls, drafts), each hole checked from the
outside: HTTP and WebSocket requests of a client that tries to cheat or to break the server."""

from __future__ import annotations

import dataclasses
import threading
import time

import pytest
from web_helpers import create

from tabletown.web.limits import Limits


# -- a server process as one of several -----------------------------------------------------------------------------
class LoopStoreStandIn:
    """Stands in for PostgreSQL's asynchronous move store on SQLite: the service then takes moves
    on the event loop (``commit_on_loop``) as a PostgreSQL process does; SQLite moves are stored in
    a worker thread all the same (never through ``store``)."""

    async def store(self, params):  # pragma: no cover - SQLite never stores in one trip
        raise AssertionError("not on SQLite")

    async def close(self) -> None:
        pass


@pytest.fixture(params=["sqlite", "postgresql+redis"])
def scaled(request, make_client, sqlite_url):
    """A server process as one of several: other processes store moves too (``shared``) and moves
    are taken on the event loop. On PostgreSQL with Redis it is the real thing."""
    if request.param == "sqlite":
        client = make_client(sqlite_url)
        service = client.app.state.service
        service.shared = True  # what a Redis hub sets
        service.async_store = LoopStoreStandIn()
        return client
    pg_url, redis_url = request.getfixturevalue("pg_url"), request.getfixturevalue("redis_url")
    client = make_client(pg_url, redis_url=redis_url)
    assert client.app.state.service.shared and client.app.state.service.async_store is not None
    return client


def until(ws, kind: str) -> dict:
    """The socket's next message of ``kind`` (pushed views may come first)."""
    while True:
        message = ws.receive_json()
        if message["type"] == kind:
            return message


def bearer(token: str) -> dict[str, str]:
    return {"authorization": f"Bearer {token}"}


# -- a move ahead of this process: the table's write lock released once, never another writer's -----------------------
def test_a_move_ahead_of_the_process_never_frees_another_writers_lock(scaled):
    """A seat sends moves with a seq the process has not reached (what a client that saw a move
    through another process does): refused, the move went to a worker thread, and its refusal
    released the table's write lock a second time. With nobody holding it that raised (a 500, a
    WebSocket dropped); with another writer holding it (a follower taking another process's move,
    the other seat's move being stored) it freed theirs, and two writers changed the table at once."""
    client = scaled
    created = create(client, seed=3)
    table_id, token = created["id"], created["seats"][0]["token"]
    path = f"/api/tables/{table_id}/actions"

    answer = client.post(path, headers=bearer(token), json={"seq": 5, "action": "b"})
    assert answer.status_code == 409 and answer.json()["rule"] == "seq.stale", answer.text
    with client.websocket_connect(f"/ws/tables/{table_id}", headers=bearer(token)) as ws:
        assert ws.receive_json()["type"] == "view"
        ws.send_json({"type": "action", "seq": 5, "action": "b"})
        assert ws.receive_json()["rule"] == "seq.stale"
        ws.send_json({"type": "action", "seq": 0, "action": "b"})  # the socket still works
        assert until(ws, "ack") == {"type": "ack", "seq": 1}

    # Another writer takes the table the moment the refused move's thread lets go of it.
    service = client.app.state.service
    table = service.held(table_id)
    commit = service.commit

    def commit_then_another_writer(*args, **kwargs):
        try:
            return commit(*args, **kwargs)
        finally:
            table.write_lock.acquire()

    service.commit = commit_then_another_writer
    try:
        answer = client.post(path, headers=bearer(token), json={"seq": 9, "action": "b"})
        assert answer.status_code == 409, answer.text
        assert table.write_lock.locked(), "the refused move released the other writer's lock"
    finally:
        service.commit = commit
        if table.write_lock.locked():
            table.write_lock.release()
    assert client.get(f"/api/tables/{table_id}").json()["seq"] == 1


# -- long polls: one address cannot fill a table's waiting list --------------------------------------------------------
def test_one_address_cannot_hold_long_polls_without_end(make_client, sqlite_url):
    """A table answers at most MAX_WAITERS long polls at its change and every later one at once: a
    stranger holding that many on a table (or on every table) set all its players' long polls
    spinning, request after request. Held long polls are counted per address like sockets."""
    client = make_client(sqlite_url, limits=dataclasses.replace(Limits.off(), polls_per_address=2))
    created = create(client, seed=3)
    table_id = created["id"]
    path = f"/api/tables/{table_id}"
    held: list = []
    threads = [
        threading.Thread(target=lambda: held.append(client.get(path, params={"seq": 0, "wait": 3})))
        for _ in range(2)
    ]
    for thread in threads:
        thread.start()
    time.sleep(0.5)  # both are waiting
    began = time.monotonic()
    third = client.get(path, params={"seq": 0, "wait": 3})
    assert third.status_code == 429 and third.json()["rule"] == "limit.polls", third.text
    assert int(third.headers["retry-after"]) >= 1 and time.monotonic() - began < 2
    assert client.get(path).status_code == 200  # a plain view is no long poll
    assert client.get(path, params={"seq": 7, "wait": 3}).status_code == 200  # behind: answered at once
    for thread in threads:
        thread.join()
    assert [answer.status_code for answer in held] == [200, 200]
    assert client.get(path, params={"seq": 0, "wait": 0.1}).status_code == 200  # the places are free again


# -- the socket's seat parameter: digits Python reads as digits but int() does not -----------------------------------
@pytest.mark.parametrize("seat", ["\u00b2", "\u00b9\u00b2"])
def test_a_superscript_seat_number_is_no_seat_not_a_crash(client, seat):
    """``?seat=²`` passed str.isdigit() and crashed int() in the socket handler (an unhandled error
    for every such handshake); it is no seat number, like ``?seat=abc``: a spectator's socket."""
    table_id = create(client, seed=3)["id"]
    with client.websocket_connect(f"/ws/tables/{table_id}?seat={seat}") as ws:
        first = ws.receive_json()
    assert first["type"] == "view" and first["seat"] is None and first["legal"] == []


# -- uploaded records: each new one is replayed from its seed, so new ones are counted ---------------------------------
def test_one_address_cannot_make_the_server_replay_new_records_without_end(make_client, sqlite_url):
    """``POST /api/replay`` replays an uploaded record from its seed (up to the body limit of moves)
    and had no limit: a stranger sending record after record (each a little different, so none is
    kept) kept a core replaying. New records are counted per address; stepping through one record
    already replayed here is free, as the replay page does it move by move."""
    client = make_client(
        sqlite_url, limits=dataclasses.replace(Limits.off(), uploads_per_minute=1, uploads_burst=2)
    )
    done = create(client, seats=["bot:greedy", "bot:greedy"], seed=41)
    deadline = time.monotonic() + 10
    while not client.get(f"/api/tables/{done['id']}").json()["over"] and time.monotonic() < deadline:
        time.sleep(0.05)
    record = client.get(f"/api/tables/{done['id']}/record").json()
    steps = len(record["actions"])
    for step in range(steps + 1):  # one record, every position: one upload
        assert client.post("/api/replay", json={"record": record, "step": step}).status_code == 200
    other = dict(record, actions=record["actions"][:-1])  # a second new record: the burst's last
    assert client.post("/api/replay", json={"record": other, "step": 1}).status_code == 200
    third = client.post("/api/replay", json={"record": dict(record, actions=record["actions"][:-2])})
    assert third.status_code == 429 and third.json()["rule"] == "limit.uploads", third.text
    assert int(third.headers["retry-after"]) >= 1
    # the records already replayed here still step freely
    assert client.post("/api/replay", json={"record": record, "step": 2}).status_code == 200
    assert client.post("/api/replay", json={"record": other, "step": 2}).status_code == 200
