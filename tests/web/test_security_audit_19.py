"""Security audit 19 (2026-12-06): can two things happening at once break a table or let a player
cheat? Requests were sent together (threads behind a barrier; during the audit also WebSockets and
REST at once against a real uvicorn server) and interleavings were forced with hooks and events.

Found and closed (``test_hole_*``):

* *A move stored on the event loop could hang the table and the server* (PostgreSQL). A move that
  needs a worker thread while its writer holds the table's write lock on the loop (every 64th move,
  which saves a position, and the catch-up after another process stored first) took its thread from
  anyio's shared pool, where requests that wait for that same lock (every WebSocket handshake of a
  seat, ``touch``; with several processes every new socket, spectators included, ``catch_up``) run
  too. Forty such sockets opened at that moment took every thread: the holder never got one, never
  released the lock, and every request that needs a thread hung for good. The holder's database
  work now runs in a small pool of its own (``TableService.holders``).
* *Replays of a growing table answered 500.* Replay checkpoints spread out as a table grows
  (``replaying.checkpoint_every``); a replay that had chosen its checkpoint could find it dropped by
  another replay's thread that saw the table one move longer, and looked it up again: a KeyError.
  The checkpoint is now picked from a copy and used from it.
* *Two seats could go by one name with several processes.* ``unique_name`` compared names in the
  process's memory only: a seat renamed through a process that had not yet heard of another seat's
  new name (or two renamed at once through two processes) took the same name, and a move or chat
  line of one then read as the other's. The name is now checked against the seats as stored, in the
  write's own transaction, after locking the table's row (PostgreSQL) or the database (SQLite).

Checked and sound (the other tests guard them): two moves of one seat at one seq, sent at once over
REST and WebSockets (one taken, the others 409); one invitation redeemed, or one open seat taken, by
many clients at once (one owner); renames of several seats to one name at once in one process; the
seats of a simultaneous round moving at the same instant (all stored, in arrival order, and the
position is the replay of the stored moves); a standby bot's whole-round plan made before its
player came back and moved (refused: the plan never lands beside or over the player's own steps);
a move racing the turn timer's expiry (the standby's move and the player's are ordered by the
write lock and the seq rule: the later one is stale).
"""

from __future__ import annotations

import asyncio
import threading
import time

import pytest
from web_helpers import create

from tabletown.web import db, drivers, replaying
from tabletown.web.tables import SNAPSHOT_EVERY, TableError, TableService

GUARD = 20.0  # seconds: only a guard against a hang, never a measure of speed


def bearer(token):
    return {"authorization": f"Bearer {token}"}


def passing(state, seat):
    """Machi Koro for ever: roll, then build nothing."""
    legal = [state.format_action(a) for a in state.legal_actions(seat)]
    return "pass" if "pass" in legal else ("roll" if "roll" in legal else legal[-1])


def play(svc, table, moves):
    for _ in range(moves):
        seat = table.state.to_act[0]
        svc.commit(table, seat, passing(table.state, seat), "human", table.seq, notation=True)


def service_on(url):
    engine = db.make_engine(url)
    db.migrate(engine)
    return engine, TableService(db.session_factory(engine))


def at_once(count, work):
    """``work(i)`` for i in 0..count-1 on threads released together; their answers in order."""
    barrier = threading.Barrier(count)
    answers = [None] * count

    def run(i):
        barrier.wait()
        answers[i] = work(i)

    threads = [threading.Thread(target=run, args=(i,)) for i in range(count)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(GUARD)
    return answers


def replays_to_memory(table):
    state = table.game.new_game(table.num_players, table.options, table.seed)
    for seat, text in table.actions:
        state.apply_text(seat, text)
    return state.to_json() == table.state.to_json()


# -- holes ----------------------------------------------------------------------------------------------------------
def test_hole_a_move_on_the_loop_never_waits_for_threads_its_lock_holds_up(pg_url):
    """The 64th move (it saves a position) holds the write lock on the loop and needs a thread;
    the shared threads are all taken by WebSocket handshakes waiting for that lock. It used to hang
    for good (the lock never released); it is stored and the handshakes go on."""
    import anyio

    from tabletown.web.movestore import AsyncMoveStore

    engine, svc = service_on(pg_url)
    table = svc.create("machikoro", {}, ["human", "human"], seed=5)
    tokens = [svc.touch(table, seat.token)[1] for seat in table.seats]
    play(svc, table, SNAPSHOT_EVERY - 1)

    async def scenario():
        svc.async_store = AsyncMoveStore.for_engine(engine)
        limiter = anyio.to_thread.current_default_thread_limiter()
        limiter.total_tokens = 2  # (40 by default: as many sockets do the same)
        go = threading.Event()

        def handshake():  # a seat's WebSocket arrives (routes/sockets.py): touch, under the write lock
            go.wait(GUARD)
            svc.touch(table, tokens[0], back=True)

        sockets = [asyncio.ensure_future(anyio.to_thread.run_sync(handshake)) for _ in range(2)]
        while limiter.borrowed_tokens < 2:  # every shared thread is taken
            await asyncio.sleep(0.01)
        seat = table.state.to_act[0]
        move = asyncio.ensure_future(
            svc.act_on_loop(table, tokens[seat], table.seq, passing(table.state, seat))
        )
        while not table.write_lock.locked():  # the move holds the lock on the loop
            await asyncio.sleep(0)
        go.set()  # the handshakes now wait for it in the shared threads
        try:
            done, _ = await asyncio.wait([move, *sockets], timeout=GUARD)
            assert move in done, "the move's writer never got a thread: the table hangs"
            return move.result()
        finally:
            go.set()
            await svc.async_store.close()

    try:
        assert asyncio.run(scenario()) == SNAPSHOT_EVERY
        assert table.seq == SNAPSHOT_EVERY and not table.write_lock.locked()
        assert replays_to_memory(table)
    finally:
        engine.dispose()


def test_hole_a_replay_whose_checkpoint_another_replay_drops_is_no_500(sqlite_url, monkeypatch):
    """A replay chose its checkpoint; a move arrived and another replay, seeing the longer table,
    spread the checkpoints out and dropped that one: the first replay failed with a KeyError."""
    monkeypatch.setattr(replaying, "REPLAY_CHECKPOINT", 2)  # spacing 2 up to 4 moves, then 4
    monkeypatch.setattr(replaying, "MAX_REPLAY_POINTS", 2)
    engine, svc = service_on(sqlite_url)
    table = svc.create("machikoro", {}, ["human", "human"], seed=5)
    play(svc, table, 4)
    expected = replaying.replay_view(table, 3, None)["state"]
    assert 2 in table.replay_points
    table.replay_last = None

    def meanwhile(_moves):  # the first replay has chosen checkpoint 2 when this happens
        play(svc, table, 1)
        replaying.replay_view(table, 5, None)
        assert 2 not in table.replay_points

    assert replaying.replay_view(table, 3, None, charge=meanwhile)["state"] == expected
    engine.dispose()


def two_processes(url: str):
    """Two services on one database (as two processes), a two-seat table made by the first with
    both seats joined, and the second's copy: (engine, first, second, table, tokens, twin)."""
    engine, first = service_on(url)
    second = TableService(db.session_factory(engine))
    first.shared = second.shared = True
    table = first.create("machikoro", {}, ["human", "human"], seed=5)
    tokens = [first.touch(table, seat.token)[1] for seat in table.seats]
    return engine, first, second, table, tokens, second.get(table.id)


def test_hole_two_processes_never_give_two_seats_one_name(sqlite_url):
    """Process B had not heard that seat 0 took "Alice" when seat 1 asked it for "alice"."""
    engine, first, second, table, tokens, twin = two_processes(sqlite_url)
    first.touch(table, tokens[0], name="Alice")
    with pytest.raises(TableError) as refused:
        second.touch(twin, tokens[1], name="alice")
    assert refused.value.status == 409 and refused.value.rule == "name.taken"
    second.catch_up(twin, seats=True)
    assert [s.name for s in twin.seats] == ["Alice", None]
    second.touch(twin, tokens[1], name="Bob")  # another name is taken
    assert [s.name for s in twin.seats] == ["Alice", "Bob"]
    engine.dispose()


def test_hole_two_renames_at_once_through_two_processes_leave_one_name(pg_url, monkeypatch):
    """On PostgreSQL, two seats renamed at the same moment through two processes: the second write
    waits for the first (the table's row lock) and then finds the name taken."""
    from tabletown.web import seating as seating_module

    engine, first, second, table, tokens, twin = two_processes(pg_url)
    checked, go_on = threading.Event(), threading.Event()
    real = seating_module.unique_name
    calls = []

    def unique_name(seats, seat_no, name):
        found = real(seats, seat_no, name)
        if threading.current_thread().name == "first":
            calls.append(name)
            if len(calls) == 2:  # the first writer's check in its transaction, which stays open
                checked.set()
                go_on.wait(GUARD)
        return found

    monkeypatch.setattr(seating_module, "unique_name", unique_name)
    answers = {}

    def rename(name, service, held, token):
        try:
            service.touch(held, token, name="Zed")
            answers[name] = 200
        except TableError as exc:
            answers[name] = exc.status

    one = threading.Thread(target=rename, args=("first", first, table, tokens[0]), name="first")
    one.start()
    try:
        assert checked.wait(GUARD), "the first rename never checked the name in its transaction"
        two = threading.Thread(target=rename, args=("second", second, twin, tokens[1]), name="second")
        two.start()
        with engine.connect() as conn:  # the second write waits for the first's row lock
            deadline = time.monotonic() + GUARD
            while two.is_alive() and time.monotonic() < deadline:
                waiting = conn.exec_driver_sql(
                    "SELECT count(*) FROM pg_stat_activity WHERE wait_event_type = 'Lock'"
                    " AND query LIKE 'UPDATE tt_tables%%'"
                ).scalar()
                conn.rollback()
                if waiting:
                    break
                time.sleep(0.01)
    finally:
        go_on.set()
    one.join(GUARD)
    two.join(GUARD)
    assert sorted(answers.values()) == [200, 409], answers
    first.catch_up(table, seats=True)
    assert sorted(s.name or "" for s in table.seats) == ["", "Zed"]
    engine.dispose()


# -- checked and sound --------------------------------------------------------------------------------------------
def test_one_seat_sending_one_move_many_times_at_once_is_stored_once(client):
    created = create(client, seats=["human", "human"], seed=3)
    table_id, token = created["id"], created["seats"][0]["token"]
    answers = at_once(
        8,
        lambda _i: (
            client.post(
                f"/api/tables/{table_id}/actions", json={"seq": 0, "action": "b"}, headers=bearer(token)
            ).status_code
        ),
    )
    assert sorted(answers) == [200] + [409] * 7
    table = client.app.state.service.get(table_id)
    assert table.seq == 1 and replays_to_memory(table)


def test_one_invitation_redeemed_by_many_at_once_seats_one(client):
    created = create(client, seats=["human", "human"], redeem=False)
    table_id, invitation = created["id"], created["seats"][1]["token"]
    answers = at_once(
        6,
        lambda i: client.post(f"/api/tables/{table_id}/join", json={"token": invitation, "name": f"N{i}"}),
    )
    taken = [a for a in answers if a.status_code == 200]
    assert len(taken) == 1 and sorted(a.status_code for a in answers) == [200] + [403] * 5
    seat = client.app.state.service.get(table_id).seats[1]
    assert seat.token == taken[0].json()["token"] and seat.name == taken[0].json()["name"]


def test_one_open_seat_taken_by_many_at_once_has_one_owner(client):
    created = create(client, seats=["human", "open"])
    table_id = created["id"]
    answers = at_once(4, lambda _i: client.post(f"/api/tables/{table_id}/sit", json={"seat": 1}))
    taken = [a for a in answers if a.status_code == 200]
    assert len(taken) == 1 and sorted(a.status_code for a in answers) == [200, 409, 409, 409]
    assert client.app.state.service.get(table_id).seats[1].token == taken[0].json()["token"]


def test_every_seat_of_a_secret_round_moving_at_once_is_stored_in_order(client):
    created = create(client, seats=["human"] * 3, seed=4)
    table_id, tokens = created["id"], [s["token"] for s in created["seats"]]
    for token in tokens:  # every seat banks once: the toy game's round of secret bets opens
        seq = client.get(f"/api/tables/{table_id}").json()["seq"]
        assert (
            client.post(
                f"/api/tables/{table_id}/actions", json={"seq": seq, "action": "b"}, headers=bearer(token)
            ).status_code
            == 200
        )
    bets_open = client.get(f"/api/tables/{table_id}").json()["seq"]
    answers = at_once(
        3,
        lambda i: client.post(
            f"/api/tables/{table_id}/actions",
            json={"seq": bets_open, "action": f"bet{i % 3}"},
            headers=bearer(tokens[i]),
        ),
    )
    assert [a.status_code for a in answers] == [200] * 3
    assert sorted(a.json()["seq"] for a in answers) == [bets_open + 1, bets_open + 2, bets_open + 3]
    table = client.app.state.service.get(table_id)
    assert sorted(seat for seat, _ in table.actions[bets_open:]) == [0, 1, 2]
    record = client.get(f"/api/tables/{table_id}/record").json()
    assert len(record["actions"]) == table.seq and replays_to_memory(table)


def test_a_standby_plan_made_before_its_player_came_back_is_never_stored(
    make_client, sqlite_url, monkeypatch
):
    """The standby bot plans an away player's whole New Las Vegas round on a copy; mid-plan the
    player comes back and sends their own first step. The plan, made at the older seq, is refused:
    only the player's step is stored."""
    import anyio

    mid_plan, release = threading.Event(), threading.Event()
    tried: list[BaseException | int] = []
    real_decide = drivers.Drivers._decide

    async def decide(self, table, seat, position, asking):
        if asking.steps >= 1 and not mid_plan.is_set():  # the plan's second step
            mid_plan.set()
            await anyio.to_thread.run_sync(release.wait, GUARD)
        return await real_decide(self, table, seat, position, asking)

    monkeypatch.setattr(drivers.Drivers, "_decide", decide)
    client = make_client(sqlite_url)
    svc = client.app.state.service
    real_commit = svc.commit_on_loop

    async def commit_on_loop(table, seat, action, by, expected_seq, **kw):
        try:
            seq = await real_commit(table, seat, action, by, expected_seq, **kw)
        except TableError as exc:
            if by == "standby":
                tried.append(exc)
            raise
        if by == "standby":
            tried.append(seq)
        return seq

    svc.commit_on_loop = commit_on_loop
    created = create(client, game="newlasvegas", seats=["human", "human"], seed=5, turn_timer=30)
    table_id, me = created["id"], created["seats"][0]["token"]
    table = svc.get(table_id)
    for token in (me, created["seats"][1]["token"]):  # no bank loans: the first round opens
        seq = client.get(f"/api/tables/{table_id}").json()["seq"]
        answer = client.post(
            f"/api/tables/{table_id}/actions", json={"seq": seq, "action": "noloan"}, headers=bearer(token)
        )
        assert answer.status_code == 200, answer.text
    assert table.state.to_act == (0, 1)
    before = list(table.actions)
    table.turn_since[0] -= 31  # seat 0's time ran out (seat 1 is still at the table)
    svc.expire_timers(table)
    assert mid_plan.wait(GUARD), "the standby bot never planned a round of several steps"
    assert (
        client.post(f"/api/tables/{table_id}/join", json={"back": True}, headers=bearer(me)).status_code
        == 200
    )
    mine = client.get(f"/api/tables/{table_id}", headers=bearer(me)).json()
    moved = client.post(
        f"/api/tables/{table_id}/actions",
        json={"seq": mine["seq"], "action": mine["legal"][0]},
        headers=bearer(me),
    )
    assert moved.status_code == 200
    release.set()
    deadline = time.monotonic() + GUARD
    while not tried and time.monotonic() < deadline:
        time.sleep(0.01)
    assert len(tried) == 1 and isinstance(tried[0], TableError) and tried[0].status == 409
    assert table.actions == [*before, (0, mine["legal"][0])] and replays_to_memory(table)
