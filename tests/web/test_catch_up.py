"""Two table services on one database, as two server processes are: a process that is behind the
database never hands a returning client an older position, never repeats an event, and never keeps a
position it loaded while another process stored a move (found by make load)."""

from __future__ import annotations

import asyncio
import json
import threading

from tabletown.web import db
from tabletown.web.drivers import Follower
from tabletown.web.tables import TableService


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
