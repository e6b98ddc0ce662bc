"""The short way for GET a table and POST a move (``TabletownApp.quick``) and the moves stored from
the event loop (``TableService.commit_on_loop`` with PostgreSQL's ``AsyncMoveStore``).

The quick path must be invisible: every answer it gives is the answer FastAPI's full stack gives
(status, body, headers), and anything it does not take on reaches the full stack unchanged."""

from __future__ import annotations

import asyncio

import pytest
from web_helpers import create

from tabletown.web.limits import Limits

SECURITY = ("content-security-policy", "x-frame-options", "x-content-type-options", "referrer-policy")


@pytest.fixture(params=["sqlite", "postgresql"])
def db_url(request, sqlite_url):
    return sqlite_url if request.param == "sqlite" else request.getfixturevalue("pg_url")


def counting(app):
    """Wrap ``app.quick``; returns the list of requests it answered itself."""
    answered = []
    inner = app.quick

    async def quick(scope, receive, send, table_id, actions):
        result = await inner(scope, receive, send, table_id, actions)
        if result is None:
            answered.append((scope["method"], scope["path"]))
        return result

    app.quick = quick
    return answered, quick


def both_ways(client, quick, method, path, **kwargs):
    """The same request through the quick path and through the full stack alone."""
    answers = []
    for way in (quick, None):
        client.app.quick = way
        answers.append(client.request(method, path, **kwargs))
    client.app.quick = quick
    return answers


def same_answer(fast, full):
    assert fast.status_code == full.status_code, (fast.text, full.text)
    assert fast.json() == full.json()
    assert fast.headers["content-type"] == full.headers["content-type"] == "application/json"
    for name in (*SECURITY, "retry-after"):
        assert fast.headers.get(name) == full.headers.get(name), name


def test_views_and_refusals_are_the_full_stacks(make_client, db_url):
    client = make_client(db_url)
    answered, quick = counting(client.app)
    created = create(client, seed=3)
    table_id, token = created["id"], created["seats"][0]["token"]
    path = f"/api/tables/{table_id}"
    client.post(f"/api/tables/{table_id}/join", json={"token": token})  # seat 0 has arrived
    asks = [
        {"params": {"token": token}},
        {"headers": {"authorization": f"Bearer {token}"}, "params": {"since": 1}},
        {},  # a spectator
        {"params": {"token": "not-a-seat"}},  # 403
        {"params": {"seat": 99}},  # over the limit: FastAPI's 422
        {"params": {"since": "-1"}},
        {"params": {"wait": "31"}},
        {"params": {"seq": "x"}},
        {"params": {"seat": 0}},  # no cookie for seat 0: 403 seat.not_held
        {"params": {"token": token, "seq": 0, "wait": 0.01}},  # a long poll that times out
    ]
    for ask in asks:
        same_answer(*both_ways(client, quick, "GET", path, **ask))
    quick_gets = [a for a in answered if a[0] == "GET"]
    assert len(quick_gets) >= 5  # the plain ones were the quick path's own


# The move loop of test_postgresql_moves_are_stored_from_the_loop (below) on purpose: each test
# stands alone, this one on both paths, that one on PostgreSQL.
def test_moves_and_their_refusals_are_the_full_stacks(make_client, db_url):
    client = make_client(db_url)
    answered, quick = counting(client.app)
    created = create(client, seed=5)
    table_id, tokens = created["id"], [s["token"] for s in created["seats"]]
    path = f"/api/tables/{table_id}/actions"
    view = client.get(f"/api/tables/{table_id}", params={"token": tokens[0]}).json()
    move = view["legal"][0]
    refusals = [
        {"json": {"token": tokens[0], "seq": 7, "action": move}},  # stale: 409
        {"json": {"token": "nobody", "seq": 0, "action": move}},  # 403
        {"json": {"token": tokens[0], "seq": "0", "action": move}},  # not strict: FastAPI's 422
        {"json": {"token": tokens[0], "seq": 0}},  # no action
        {"json": {"token": tokens[0], "seq": 0, "action": "no such move"}},  # the engine's 422
        {"content": b"{not json", "headers": {"content-type": "application/json"}},
        {"content": b'{"seq": 0, "action": "r"}', "headers": {"content-type": "text/plain"}},
    ]
    for ask in refusals:
        same_answer(*both_ways(client, quick, "POST", path, **ask))
    assert client.get(f"/api/tables/{table_id}").json()["seq"] == 0  # nothing was played
    # Moves, alternately one way and the other: the same answers, one position.
    for n in range(6):
        view = client.get(f"/api/tables/{table_id}", params={"token": tokens[0]}).json()
        if view["status"] == "finished":
            break
        seat = view["to_act"][0]
        legal = client.get(f"/api/tables/{table_id}", params={"token": tokens[seat]}).json()["legal"]
        client.app.quick = quick if n % 2 == 0 else None
        answer = client.post(path, json={"token": tokens[seat], "seq": view["seq"], "action": legal[0]})
        client.app.quick = quick
        assert answer.status_code == 200 and answer.json() == {"seq": view["seq"] + 1}
        assert all(answer.headers.get(name) for name in SECURITY)
    assert ("POST", path) in answered


def test_a_rate_limited_move_says_when_to_come_back(make_client, sqlite_url):
    client = make_client(sqlite_url, limits=Limits(moves_per_second=0.01, moves_burst=1))
    answered, quick = counting(client.app)
    created = create(client, seed=9)
    table_id, token = created["id"], created["seats"][0]["token"]
    path = f"/api/tables/{table_id}/actions"
    first = client.post(path, json={"token": token, "seq": 99, "action": "r"})
    assert first.status_code == 409  # the burst of one is spent (on a stale move)
    second = client.post(path, json={"token": token, "seq": 99, "action": "r"})
    assert second.status_code == 429 and second.json()["rule"] == "limit.moves"
    assert int(second.headers["retry-after"]) >= 1
    assert ("POST", path) in answered


def test_a_table_not_in_memory_goes_the_full_way(make_client, sqlite_url):
    client = make_client(sqlite_url)
    answered, quick = counting(client.app)
    created = create(client, seed=2)
    table_id, token = created["id"], created["seats"][0]["token"]
    service = client.app.state.service
    with service.lock:
        service.tables.pop(table_id)  # as if another process had made the table
    answer = client.get(f"/api/tables/{table_id}", params={"token": token})
    assert answer.status_code == 200 and answer.json()["seat"] == 0
    assert not answered  # loading it from the database was the full stack's work
    assert client.get("/api/tables/nosuchtable").status_code == 404


# The move loop of test_moves_and_their_refusals_are_the_full_stacks (above) on purpose: each test
# stands alone.
def test_postgresql_moves_are_stored_from_the_loop(make_client, pg_url):
    import sqlalchemy as sa

    client = make_client(pg_url)
    service = client.app.state.service
    assert service.async_store is not None
    created = create(client, seed=4)
    table_id, tokens = created["id"], [s["token"] for s in created["seats"]]
    played = 0
    for _ in range(8):
        view = client.get(f"/api/tables/{table_id}", params={"token": tokens[0]}).json()
        if view["status"] == "finished":
            break
        seat = view["to_act"][0]
        legal = client.get(f"/api/tables/{table_id}", params={"token": tokens[seat]}).json()["legal"]
        answer = client.post(
            f"/api/tables/{table_id}/actions",
            json={"token": tokens[seat], "seq": view["seq"], "action": legal[0]},
        )
        assert answer.status_code == 200, answer.text
        played += 1
    assert service.async_store.opened >= 1  # the loop's own connections stored them
    engine = sa.create_engine(pg_url)
    with engine.connect() as conn:
        seq = conn.execute(sa.text("SELECT seq FROM tt_tables WHERE id = :t"), {"t": table_id}).scalar()
        moves = conn.execute(
            sa.text("SELECT seq, seat, action FROM tt_moves WHERE table_id = :t ORDER BY seq"),
            {"t": table_id},
        ).all()
    engine.dispose()
    table = service.held(table_id)
    assert seq == table.seq == played
    assert [(m.seat, m.action) for m in moves] == table.actions
    assert [m.seq for m in moves] == list(range(1, played + 1))


def test_sqlite_has_no_loop_store(make_client, sqlite_url):
    assert make_client(sqlite_url).app.state.service.async_store is None


def test_a_move_whose_caller_is_cancelled_is_stored_and_installed_all_the_same(pg_url, toy):
    """A socket that closes while its move is being written: the write and the new position
    complete (memory never falls behind the database), and the table takes the next move."""
    from tabletown.web import db
    from tabletown.web.movestore import AsyncMoveStore
    from tabletown.web.tables import TableService

    engine = db.make_engine(pg_url)
    db.migrate(engine)
    service = TableService(db.session_factory(engine))
    service.async_store = AsyncMoveStore.for_engine(engine)
    table = service.create("toyrace", {}, ["human", "human"], 6, None, None)
    token = service.touch(table, table.seats[table.state.to_act[0]].token)[0].token  # redeemed

    async def scenario():
        seat = table.state.to_act[0]
        action = table.state.legal_actions(seat)[0]
        caller = asyncio.ensure_future(
            service.act_on_loop(table, token, 0, table.state.format_action(action))
        )
        await asyncio.sleep(0)  # the move is checked and its write begun
        caller.cancel()
        with pytest.raises(asyncio.CancelledError):
            await caller
        for _ in range(200):
            if table.seq == 1 and not table.write_lock.locked():
                break
            await asyncio.sleep(0.01)
        await service.async_store.close()

    asyncio.run(scenario())
    assert table.seq == 1 and not table.write_lock.locked()
    with engine.connect() as conn:
        row = conn.execute(
            db.TableRow.__table__.select().where(db.TableRow.__table__.c.id == table.id)
        ).first()
    assert row.seq == 1
    assert service.get(table.id).seq == 1
    engine.dispose()


def test_a_body_longer_than_it_said_is_refused_with_413():
    from tabletown.web.asgi import read_body
    from tabletown.web.tables import TableError

    chunks = [{"type": "http.request", "body": b"x" * 600, "more_body": True}] * 3

    async def receive():
        return chunks.pop()

    with pytest.raises(TableError) as refused:
        asyncio.run(read_body(receive, 1000))
    assert refused.value.status == 413 and refused.value.rule == "request.too_large"

    async def leaves():
        return {"type": "http.disconnect"}

    assert asyncio.run(read_body(leaves, 1000)) is None


def test_a_move_with_since_answers_with_the_movers_view(make_client, sqlite_url):
    """``since`` in a move's body: the answer carries the mover's view, the very one a GET with the
    mover's token and that ``since`` gives next (events from that count, legal moves, its own hand
    and no other seat's), on the quick path and on the full stack alike."""
    client = make_client(sqlite_url)
    answered, quick = counting(client.app)
    created = create(client, seed=6)
    table_id, tokens = created["id"], [s["token"] for s in created["seats"]]
    for n in range(6):
        spectator = client.get(f"/api/tables/{table_id}").json()
        if spectator["status"] == "finished":
            break
        seat = spectator["to_act"][0]
        mine = client.get(f"/api/tables/{table_id}", params={"token": tokens[seat]}).json()
        client.app.quick = quick if n % 2 == 0 else None
        answer = client.post(
            f"/api/tables/{table_id}/actions",
            json={
                "token": tokens[seat],
                "seq": mine["seq"],
                "action": mine["legal"][0],
                "since": mine["event_count"],
            },
        )
        client.app.quick = quick
        assert answer.status_code == 200, answer.text
        body = answer.json()
        assert body["seq"] == mine["seq"] + 1 and body["view"]["seq"] == body["seq"]
        after = client.get(
            f"/api/tables/{table_id}", params={"token": tokens[seat], "since": mine["event_count"]}
        ).json()
        assert body["view"] == after and body["view"]["seat"] == seat
        assert body["view"]["events"]  # the move's own events, from the count the mover had
    assert ("POST", f"/api/tables/{table_id}/actions") in answered
    refused = client.post(
        f"/api/tables/{table_id}/actions", json={"token": tokens[0], "seq": 0, "action": "r", "since": -1}
    )
    assert refused.status_code == 422  # since is checked like a GET's
