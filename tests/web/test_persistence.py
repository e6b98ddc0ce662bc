"""Persistence: restarts rebuild every unfinished table exactly, kill -9 loses no acknowledged move,
migrations, and the same checks on PostgreSQL when TABLETOWN_TEST_POSTGRES_URL is set."""

from __future__ import annotations

import signal
import threading
import time
from pathlib import Path

import httpx
import pytest
import sqlalchemy as sa
from web_helpers import create, free_port, start_server, strip

HERE = Path(__file__).parent


def play_some(client, table_id, tokens, moves, prefer="r"):
    """Play ``moves`` actions through the API (first legal move, banking now and then)."""
    done = 0
    while done < moves:
        spectator = client.get(f"/api/tables/{table_id}").json()
        if spectator["over"]:
            break
        seat = spectator["to_act"][0]
        payload = client.get(f"/api/tables/{table_id}", params={"token": tokens[seat]}).json()
        legal = payload["legal"]
        choice = prefer if prefer in legal and done % 3 else legal[-1] if done % 2 else legal[0]
        response = client.post(
            f"/api/tables/{table_id}/actions",
            json={"token": tokens[seat], "seq": payload["seq"], "action": choice},
        )
        assert response.status_code == 200, response.text
        done += 1
    return done


def snapshot_of(client, table_id, tokens):
    views = [client.get(f"/api/tables/{table_id}").json()]
    views += [client.get(f"/api/tables/{table_id}", params={"token": t}).json() for t in tokens]
    return [strip(v) | {"seq": v["seq"], "legal": v["legal"]} for v in views]


def check_restart(make_client, url, monkeypatch=None):
    first = make_client(url)
    created = create(first, seats=["human", "human", "human"], seed=5, options={"target": 100})
    table_id = created["id"]
    tokens = [s["token"] for s in created["seats"]]
    play_some(first, table_id, tokens, 40)
    before = snapshot_of(first, table_id, tokens)
    live = first.app.state.service.get(table_id)
    saved = live.state.to_json()
    first.__exit__(None, None, None)

    second = make_client(url)
    rebuilt = second.app.state.service.get(table_id)
    assert rebuilt is not live
    assert snapshot_of(second, table_id, tokens) == before
    # every bit of the position, hidden parts and the RNG included (state_fingerprint pickles,
    # and pickle's memo makes it sensitive to which equal strings are one object)
    assert rebuilt.state.to_json() == saved
    # and it plays on
    assert play_some(second, table_id, tokens, 3) == 3
    return second, table_id


def test_restart_rebuilds_unfinished_tables_identically(make_client, sqlite_url):
    check_restart(make_client, sqlite_url)


def test_restart_from_saved_positions(make_client, sqlite_url, monkeypatch):
    """With a saved position every few moves, a restart loads the newest and replays the rest."""
    from tabletown.web import tables

    monkeypatch.setattr(tables, "SNAPSHOT_EVERY", 7)
    loads = []
    real = tables.TableService._rebuild

    def spy(self, table, snap):
        loads.append(snap.seq if snap is not None else None)
        return real(self, table, snap)

    monkeypatch.setattr(tables.TableService, "_rebuild", spy)
    check_restart(make_client, sqlite_url)
    assert loads and loads[-1] is not None and loads[-1] % 7 == 0
    # only the newest saved position is kept (security audit 17: every one was, up to 78 a table)
    saved = sa.create_engine(sqlite_url)
    with saved.connect() as conn:
        kept = conn.execute(
            sa.text("SELECT table_id, count(*), max(seq) FROM tt_snapshots GROUP BY table_id")
        ).all()
    saved.dispose()
    assert kept and all(count == 1 for _table, count, _seq in kept)
    assert all(seq % 7 == 0 and seq >= loads[-1] for _table, _count, seq in kept)


def test_restart_resumes_bot_tables(make_client, sqlite_url):
    first = make_client(sqlite_url, bot_delay=0.05)
    created = create(first, seats=["bot:greedy", "bot:greedy"], seed=6)
    time.sleep(0.3)
    first.__exit__(None, None, None)
    second = make_client(sqlite_url)
    end = time.monotonic() + 20
    while not second.get(f"/api/tables/{created['id']}").json()["over"]:
        assert time.monotonic() < end
        time.sleep(0.02)


def test_a_web_process_with_external_bots_loads_bot_tables_on_demand(make_client, sqlite_url):
    """Bots in bot workers: a (re)started web process rebuilds no table before serving, and loads
    a bot table, exactly, when a client asks for it. The embedded default still rebuilds them."""
    first = make_client(sqlite_url, run_bots=False)
    created = create(first, seats=["human", "bot:greedy"], seed=6)
    token = created["seats"][0]["token"]
    view = first.get(f"/api/tables/{created['id']}", params={"token": token}).json()
    first.__exit__(None, None, None)
    second = make_client(sqlite_url, run_bots=False)
    assert second.app.state.service.held(created["id"]) is None
    again = second.get(f"/api/tables/{created['id']}", params={"token": token}).json()
    assert strip(again) == strip(view) and again["legal"] == view["legal"]
    assert second.app.state.service.held(created["id"]) is not None
    second.__exit__(None, None, None)
    third = make_client(sqlite_url)  # runs the bots: the bot table is rebuilt at start
    assert third.app.state.service.held(created["id"]) is not None


def test_corrupt_moves_mark_a_table_broken_not_the_server(make_client, sqlite_url):
    import sqlalchemy as sa

    first = make_client(sqlite_url)
    created = create(first, seed=8)
    tokens = [s["token"] for s in created["seats"]]
    play_some(first, created["id"], tokens, 4)
    first.__exit__(None, None, None)
    engine = sa.create_engine(sqlite_url)
    with engine.begin() as conn:
        conn.execute(sa.text("UPDATE tt_moves SET action = 'fly' WHERE seq = 2"))
    engine.dispose()
    second = make_client(sqlite_url)
    payload = second.get(f"/api/tables/{created['id']}").json()
    assert payload["status"] == "error" and payload["error"]
    response = second.post(
        f"/api/tables/{created['id']}/actions", json={"token": tokens[0], "seq": 4, "action": "r"}
    )
    assert response.status_code == 409
    assert create(second)["id"]


def test_migrations_are_idempotent(sqlite_url):
    import sqlalchemy as sa

    from tabletown.web import db

    engine = db.make_engine(sqlite_url)
    db.migrate(engine)
    db.migrate(engine)
    with engine.connect() as conn:
        assert (
            conn.execute(sa.text("SELECT version_num FROM alembic_version")).scalar() == db.newest_revision()
        )
        assert conn.execute(sa.text("PRAGMA journal_mode")).scalar() == "wal"
    assert {"tt_tables", "tt_seats", "tt_moves", "tt_snapshots"} <= set(sa.inspect(engine).get_table_names())
    engine.dispose()


# -- kill -9 ----------------------------------------------------------------------------------------------------
def test_kill_9_loses_no_acknowledged_move(tmp_path):
    db_url = f"sqlite:///{tmp_path / 'kill.db'}"
    port = free_port()
    server = start_server(db_url, port)
    base = f"http://127.0.0.1:{port}"
    acked: dict[str, list[tuple[int, int, str]]] = {}
    stop = threading.Event()
    try:
        http = httpx.Client(base_url=base, timeout=5)
        tables = [create(http, seats=["human", "human"], seed=n, options={"target": 100}) for n in range(3)]
        # a bot table keeps the server busy writing too
        http.post(
            "/api/tables",
            json={"game": "toyrace", "seats": ["bot:random", "bot:random"], "options": {"target": 100}},
        )

        def player(table):
            tokens = [s["token"] for s in table["seats"]]
            mine = acked.setdefault(table["id"], [])
            client = httpx.Client(base_url=base, timeout=5)
            step = 0
            while not stop.is_set():
                try:
                    payload = client.get(f"/api/tables/{table['id']}").json()
                    if payload["over"]:
                        return
                    seat = payload["to_act"][0]
                    legal = client.get(f"/api/tables/{table['id']}", params={"token": tokens[seat]}).json()[
                        "legal"
                    ]
                    choice = legal[step % len(legal)]
                    step += 1
                    response = client.post(
                        f"/api/tables/{table['id']}/actions",
                        json={"token": tokens[seat], "seq": payload["seq"], "action": choice},
                    )
                    if response.status_code == 200:
                        mine.append((response.json()["seq"], seat, choice))
                except (httpx.HTTPError, ValueError, KeyError):
                    return

        threads = [threading.Thread(target=player, args=(t,)) for t in tables]
        for thread in threads:
            thread.start()
        end = time.monotonic() + 20
        while sum(len(v) for v in acked.values()) < 60 and time.monotonic() < end:
            time.sleep(0.02)
        server.send_signal(signal.SIGKILL)  # mid-game, with requests in flight
        server.wait(10)
        stop.set()
        for thread in threads:
            thread.join(10)
        assert sum(len(v) for v in acked.values()) >= 20
        server = start_server(db_url, port)
        for table in tables:
            # Each seat's record shows its own moves (the other seat's secret bets are withheld
            # until the end).
            tokens = [s["token"] for s in table["seats"]]
            records = [
                http.get(f"/api/tables/{table['id']}/record", headers={"authorization": f"Bearer {t}"}).json()
                for t in tokens
            ]
            stored = records[0]["actions"]
            for seq, seat, text in acked[table["id"]]:
                assert seq <= len(stored), f"acknowledged move {seq} lost"
                assert records[seat]["actions"][seq - 1] == [seat, text]
            payload = http.get(f"/api/tables/{table['id']}").json()
            assert payload["seq"] == len(stored)
        http.close()
    finally:
        stop.set()
        if server.poll() is None:
            server.terminate()
            server.wait(10)


# -- PostgreSQL ------------------------------------------------------------------------------------------------------
def test_postgres_restart_and_race(make_client, pg_url):
    second, table_id = check_restart(make_client, pg_url)
    payload = second.get(f"/api/tables/{table_id}").json()
    tokens = {s["seat"]: s for s in payload["seats"]}
    assert tokens
    created = create(second, seed=77)
    token = created["seats"][0]["token"]
    codes = []
    barrier = threading.Barrier(6)

    def send():
        barrier.wait()
        codes.append(
            second.post(
                f"/api/tables/{created['id']}/actions", json={"token": token, "seq": 0, "action": "r"}
            ).status_code
        )

    threads = [threading.Thread(target=send) for _ in range(6)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(codes) == [200] + [409] * 5


def test_postgres_two_services_one_move(pg_url):
    from tabletown.web import db
    from tabletown.web.tables import TableError, TableService

    engine = db.make_engine(pg_url)
    db.migrate(engine)
    first = TableService(db.session_factory(engine))
    table = first.create("toyrace", {}, ["human", "human"], 3)
    first.touch(table, table.seats[0].token)  # seat 0's player redeems the invitation
    other_engine = db.make_engine(pg_url)
    second = TableService(db.session_factory(other_engine))
    twin = second.get(table.id)
    results = []
    barrier = threading.Barrier(2)

    def go(service, tab):
        barrier.wait()
        try:
            results.append(service.act(tab, table.seats[0].token, 0, "r"))
        except TableError as exc:
            results.append(exc.status)

    threads = [
        threading.Thread(target=go, args=(first, table)),
        threading.Thread(target=go, args=(second, twin)),
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(results) == [1, 409]
    engine.dispose()
    other_engine.dispose()


@pytest.mark.soak
def test_soak_many_bot_tables(make_client, sqlite_url):
    client = make_client(sqlite_url)
    ids = [create(client, seats=["bot:random"] * 4, seed=n)["id"] for n in range(30)]
    end = time.monotonic() + 300
    for table_id in ids:
        while not client.get(f"/api/tables/{table_id}").json()["over"]:
            assert time.monotonic() < end
            time.sleep(0.05)
