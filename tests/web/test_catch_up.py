"""Two table services on one database, as two server processes are: a process that is behind the
database never hands a returning client an older position, never repeats an event, and never keeps a
position it loaded while another process stored a move (found by make load)."""

from __future__ import annotations

import asyncio
import json
import threading

import pytest

from tabletown.web import db
from tabletown.web.drivers import Follower
from tabletown.web.tables import TableError, TableService


def two_services(url):
    engine = db.make_engine(url)
    db.migrate(engine)
    first, second = TableService(db.session_factory(engine)), TableService(db.session_factory(engine))
    first.shared = second.shared = True
    return first, second


def play(service, table, moves):
    for _ in range(moves):
        seat = table.state.to_act[0]
        service.commit(table, seat, table.state.legal_actions(seat)[0], "human", table.seq)


def test_a_returning_client_is_never_sent_an_event_twice(sqlite_url):
    a, b = two_services(sqlite_url)
    table = a.create("machikoro", {}, ["human", "human"], seed=1)
    behind = b.get(table.id)  # B holds the table at move 0
    play(a, table, 6)  # A stores six moves; B has not heard of them (no hub here)
    count = table.state.view(0)["event_count"]
    pushed: list[str] = []
    sub, first = b.subscribe(behind, 0, count, pushed.append)  # the client knew every event
    assert first["seq"] == 6 and first["events"] == [] and sub.since == count
    play(a, table, 1)
    b.catch_up(behind)
    b.fanout.submit(lambda: None).result(5)  # the fan-out thread has pushed
    events = [e["i"] for text in pushed for e in json.loads(text)["events"]]
    assert events and min(events) >= count and len(events) == len(set(events))


def test_a_move_stored_while_a_process_loads_the_table_is_not_lost(sqlite_url):
    a, b = two_services(sqlite_url)
    table = a.create("machikoro", {}, ["human", "human"], seed=1)
    play(a, table, 1)
    read, go_on = threading.Event(), threading.Event()
    rebuild = b._rebuild

    def slow_rebuild(loading, snap):  # B has read the rows; A's move lands now
        read.set()
        go_on.wait(5)
        return rebuild(loading, snap)

    b._rebuild = slow_rebuild

    async def main():
        follower = Follower(b, None)
        loop = asyncio.get_running_loop()
        loading = loop.run_in_executor(None, b.get, table.id)
        await loop.run_in_executor(None, read.wait)
        play(a, table, 1)
        await follower.handle({"table": table.id, "kind": "move", "seq": table.seq})  # too early for B
        go_on.set()
        return await loading

    loaded = asyncio.run(main())
    assert loaded.seq == table.seq == 2
    assert loaded.state.to_json() == table.state.to_json()


def announcements(service):
    """What the service would publish to the hub, as the messages other processes receive."""
    heard: list[dict] = []
    service.on_stored.append(
        lambda table_id, kind, seq, detail: heard.append(
            {"table": table_id, "kind": kind, "seq": seq, **(detail or {})}
        )
    )
    return heard


class NoDatabase:
    def __call__(self, *args, **kwargs):
        raise AssertionError("the database was used")

    __getattr__ = __call__


def cut_off(service):
    """From now on any use of the database by ``service`` fails the test."""
    service.sessions = service.engine = NoDatabase()


def follow(follower, messages):
    async def main():
        for message in messages:
            await follower.handle(message)
        while follower.pending:
            await asyncio.sleep(0.01)

    asyncio.run(main())


# The set-up of test_a_missed_announcement_falls_back_to_the_database (below) on purpose: every
# announcement heard here, some lost there.
def test_announced_moves_are_followed_without_reading_the_database(sqlite_url):
    a, b = two_services(sqlite_url)
    heard = announcements(a)
    table = a.create("machikoro", {}, ["human", "human"], seed=3)
    for seat in table.seats:  # both players redeem their invitations (a "joins" move reads the seats)
        a.touch(table, seat.token)
    behind = b.get(table.id)
    play(a, table, 8)

    cut_off(b)
    follow(Follower(b, None), [m for m in heard if m["kind"] == "move"])
    assert behind.seq == 8 and behind.actions == table.actions and behind.status == table.status
    assert behind.state.to_json() == table.state.to_json()


# The set-up of test_announced_moves_are_followed_without_reading_the_database (above) on purpose:
# some announcements lost here, all heard there.
def test_a_missed_announcement_falls_back_to_the_database(sqlite_url):
    a, b = two_services(sqlite_url)
    heard = announcements(a)
    table = a.create("machikoro", {}, ["human", "human"], seed=4)
    behind = b.get(table.id)
    play(a, table, 5)
    moves = [m for m in heard if m["kind"] == "move"]
    follow(Follower(b, None), [moves[0], moves[3], moves[1], moves[4]])  # 2 and 3 lost, 1 late
    assert behind.seq == 5 and behind.state.to_json() == table.state.to_json()


def test_a_move_that_does_not_apply_here_is_not_taken_on_trust(sqlite_url):
    a, b = two_services(sqlite_url)
    heard = announcements(a)
    table = a.create("machikoro", {}, ["human", "human"], seed=5)
    behind = b.get(table.id)
    play(a, table, 1)
    forged = dict(heard[-1], action="this is no move")
    follow(Follower(b, None), [forged])
    assert behind.seq == 1 and behind.actions == table.actions  # read from the database instead


def test_a_bot_worker_does_not_load_tables_without_bots_or_timer(sqlite_url):
    a, b = two_services(sqlite_url)
    heard = announcements(a)
    people = a.create("machikoro", {}, ["human", "human"], seed=6)
    bots = a.create("machikoro", {}, ["human", "bot:random"], seed=7)
    started: list[str] = []
    follow(Follower(b, lambda t: started.append(t.id)), [m for m in heard if m["kind"] == "created"])
    assert started == [bots.id] and people.id not in b.tables


def test_an_announced_arrival_is_followed_without_reading_the_database(sqlite_url):
    a, b = two_services(sqlite_url)
    heard = announcements(a)
    table = a.create("machikoro", {}, ["human", "human"], seed=8)
    for seat in table.seats:  # the players redeem their invitations: new tokens, in the database
        a.touch(table, seat.token)
    behind = b.get(table.id)
    assert behind.status == "running" and [s.name for s in behind.seats] == [None, None]
    for seat in table.seats:
        a.touch(table, seat.token, name=f"Player {seat.seat}")
    cut_off(b)
    follow(Follower(b, None), [m for m in heard if m["kind"] == "joined"])
    assert [s.name for s in behind.seats] == ["Player 0", "Player 1"]
    assert all(s.joined for s in behind.seats) and behind.status == table.status == "running"


def test_away_and_back_travel_between_processes(sqlite_url):
    """The bot worker marks a player away when their turn timer runs out; a web process shows it.
    The player comes back through a web process; the bot worker stops standing in for them."""
    worker, web = two_services(sqlite_url)
    from_worker, from_web = announcements(worker), announcements(web)
    table = worker.create("machikoro", {}, ["human", "human"], seed=9, turn_timer=30)
    seen = web.get(table.id)
    mover = table.state.to_act[0]
    for seat in seen.seats:  # the players arrive (a timer runs only for them)
        web.touch(seen, seat.token)
    follow(Follower(worker, None), [m for m in from_web if m["kind"] == "seat"])
    assert table.seats[mover].joined
    table.turn_since[mover] -= 31  # the mover's 30 s are over
    assert worker.expire_timers(table) == 0.0 and table.seats[mover].away
    follow(Follower(web, None), [m for m in from_worker if m["kind"] == "away"])
    assert seen.seats[mover].away
    assert worker.auto_seat(table) == (mover, worker.standby_name(table.game))

    web.touch(seen, seen.seats[mover].token, back=True)
    follow(Follower(worker, None), [m for m in from_web if m["kind"] == "away"])
    assert not table.seats[mover].away and worker.auto_seat(table) is None
    assert worker.expire_timers(table) > 25  # a whole turn again, not marked away at once


def test_a_move_from_a_client_ahead_of_this_process_is_taken(sqlite_url):
    """The client saw move 1 through process A and sends move 2 to B, which has not heard of move
    1 yet: B reads it and takes the move instead of answering 409."""
    a, b = two_services(sqlite_url)
    table = a.create("machikoro", {}, ["human", "human"], seed=10)
    behind = b.get(table.id)
    play(a, table, 1)
    assert behind.seq == 0
    seat = table.state.to_act[0]
    assert b.commit(behind, seat, table.state.legal_actions(seat)[0], "human", 1) == 2
    with pytest.raises(TableError) as refused:  # a seq no process has reached is still refused
        b.commit(
            behind, behind.state.to_act[0], behind.state.legal_actions(behind.state.to_act[0])[0], "human", 5
        )
    assert refused.value.status == 409 and behind.seq == 2


@pytest.mark.parametrize("url_fixture", ["sqlite_url", "pg_url"])
def test_a_move_whose_hub_message_was_lost_is_found_by_the_sweep(request, url_fixture):
    """A process killed between storing a move and announcing it (make load's kill -9): the other
    process finds the table behind the database within one sweep and pushes the move to its socket."""
    a, b = two_services(request.getfixturevalue(url_fixture))
    table = a.create("machikoro", {}, ["human", "human"], seed=2)
    other = a.create("machikoro", {}, ["human", "human"], seed=3)
    held, held_other = b.get(table.id), b.get(other.id)
    pushed: list[str] = []
    b.subscribe(held, 0, 0, pushed.append)
    assert b.behind() == []
    play(a, table, 3)  # stored by A, never announced (no hub)
    assert b.behind() == [held] and held.seq == 0 and held_other.seq == 0

    async def one_sweep():
        follower = Follower(b, None)
        sweeping = asyncio.get_running_loop().create_task(follower.sweep(every=0.05))
        for _ in range(200):
            if held.seq == 3:
                break
            await asyncio.sleep(0.02)
        sweeping.cancel()

    asyncio.run(one_sweep())
    assert held.seq == 3 and held.actions == table.actions
    b.fanout.submit(lambda: None).result(5)
    assert pushed and json.loads(pushed[-1])["seq"] == 3
    assert b.behind() == []
