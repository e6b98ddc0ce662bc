"""A move sent at an older ``seq`` stands when every move stored since was another seat's secret
choice (a simultaneous round): such moves tell the sender nothing it could have chosen on. Its own
moves since, or any move made in the open, still make it stale (409)."""

from __future__ import annotations

import threading

import pytest
from web_helpers import create


def act(client, table_id, token, seq, action):
    return client.post(f"/api/tables/{table_id}/actions", json={"token": token, "seq": seq, "action": action})


def seq_of(client, table_id) -> int:
    return client.get(f"/api/tables/{table_id}").json()["seq"]


def to_the_bets(client, table_id, tokens) -> int:
    """Every seat banks once: the toy game then opens its round of secret bets. Returns the seq."""
    for token in tokens:
        assert act(client, table_id, token, seq_of(client, table_id), "b").status_code == 200
    view = client.get(f"/api/tables/{table_id}", params={"token": tokens[0]}).json()
    assert sorted(view["to_act"]) == list(range(len(tokens)))
    return view["seq"]


def test_secret_choices_of_others_leave_a_move_at_the_older_seq_standing(client):
    created = create(client, seats=["human"] * 3, seed=4)
    table_id, tokens = created["id"], [s["token"] for s in created["seats"]]
    bets_open = to_the_bets(client, table_id, tokens)
    first = act(client, table_id, tokens[0], bets_open, "bet2")
    assert first.status_code == 200 and first.json()["seq"] == bets_open + 1
    # seat 0's own move since: its second bet at the same seq is stale
    again = act(client, table_id, tokens[0], bets_open, "bet1")
    assert again.status_code == 409 and again.json()["rule"] == "seq.stale"
    # seats 1 and 2 chose on the position before seat 0's secret bet: both stand, in arrival order
    second = act(client, table_id, tokens[1], bets_open, "bet1")
    assert second.status_code == 200 and second.json()["seq"] == bets_open + 2
    third = act(client, table_id, tokens[2], bets_open + 1, "bet0")
    assert third.status_code == 200 and third.json()["seq"] == bets_open + 3
    # the round resolved with the three bets as sent (seat 0's unique 2 scored)
    view = client.get(f"/api/tables/{table_id}", params={"token": tokens[0]}).json()
    assert view["seq"] == bets_open + 3 and view["to_act"] == [0]
    assert view["state"]["scores"][0] >= 2


def test_a_move_in_the_open_since_still_makes_it_stale(client):
    created = create(client, seats=["human", "human"], seed=4)
    table_id, tokens = created["id"], [s["token"] for s in created["seats"]]
    assert act(client, table_id, tokens[0], 0, "b").status_code == 200  # in the open: seat 1's turn now
    stale = act(client, table_id, tokens[1], 0, "b")
    assert stale.status_code == 409 and stale.json()["rule"] == "seq.stale"
    assert seq_of(client, table_id) == 1


def test_a_refused_move_at_an_older_seq_is_answered_as_stale(client):
    """Behind the table, the answer is "look again" (409) rather than the rules' refusal (422),
    which the position the sender saw may not have deserved; at the current seq it is the 422."""
    created = create(client, seats=["human"] * 3, seed=4)
    table_id, tokens = created["id"], [s["token"] for s in created["seats"]]
    bets_open = to_the_bets(client, table_id, tokens)
    assert act(client, table_id, tokens[0], bets_open, "bet2").status_code == 200
    behind = act(client, table_id, tokens[1], bets_open, "fly")
    assert behind.status_code == 409 and behind.json()["rule"] == "seq.stale"
    current = act(client, table_id, tokens[1], bets_open + 1, "fly")
    assert current.status_code == 422 and current.json()["rule"] == "toy.notation"
    assert seq_of(client, table_id) == bets_open + 1


def bets_on_one_database(url):
    """A three-seat toy table made through one table service, played to its round of secret bets:
    (engine, that service, the table, the seats' tokens, the seq the bets open at)."""
    from tabletown.web import db
    from tabletown.web.tables import TableService

    engine = db.make_engine(url)
    db.migrate(engine)
    first = TableService(db.session_factory(engine))
    table = first.create("toyrace", {}, ["human", "human", "human"], 4)
    tokens = [first.touch(table, s.token)[0].token for s in table.seats]  # invitations redeemed
    for seat, token in enumerate(tokens):
        first.act(table, token, seat, "b")
    return engine, first, table, tokens, table.seq


def test_two_servers_one_database_the_behind_one_takes_the_move_after_catching_up(sqlite_url):
    """The process that did not hear of another seat's secret bet yet has its write refused by the
    database, reads the bet, and stores its own move after it instead of answering 409."""
    from tabletown.web import db
    from tabletown.web.tables import TableError, TableService

    _, first, table, tokens, bets_open = bets_on_one_database(sqlite_url)
    second = TableService(db.session_factory(db.make_engine(sqlite_url)))
    twin = second.get(table.id)
    assert twin.seq == bets_open
    assert first.act(table, tokens[0], bets_open, "bet2") == bets_open + 1
    # seat 0 again through the behind process: the database refuses the write, the process reads
    # what it missed, and that was seat 0's own bet: stale
    with pytest.raises(TableError) as refused:
        second.act(twin, tokens[0], bets_open, "bet1")
    assert refused.value.status == 409 and refused.value.rule == "seq.stale"
    assert twin.seq == bets_open + 1
    # seat 1 bets through the first process; seat 2's bet through the behind one stands after it
    assert first.act(table, tokens[1], bets_open + 1, "bet1") == bets_open + 2
    assert twin.seq == bets_open + 1
    assert second.act(twin, tokens[2], bets_open + 1, "bet0") == bets_open + 3
    assert [seat for seat, _ in twin.actions[-3:]] == [0, 1, 2]
    assert twin.state.to_act == (0,)  # the round resolved: seat 0's turn


def test_racing_bets_of_two_seats_at_one_seq_both_stand(client):
    created = create(client, seats=["human"] * 3, seed=9)
    table_id, tokens = created["id"], [s["token"] for s in created["seats"]]
    bets_open = to_the_bets(client, table_id, tokens)
    barrier = threading.Barrier(2)
    answers: dict[int, int] = {}

    def bet(seat: int) -> None:
        barrier.wait()
        answers[seat] = act(client, table_id, tokens[seat], bets_open, "bet1").status_code

    threads = [threading.Thread(target=bet, args=(seat,)) for seat in (0, 1)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert answers == {0: 200, 1: 200}
    assert seq_of(client, table_id) == bets_open + 2


def test_on_postgresql_the_loop_path_takes_the_move_after_catching_up(pg_url):
    """The same as two processes on PostgreSQL, where a move is stored from the event loop
    (``commit_on_loop``): the loop's refused write falls back to the thread path, which stores it."""
    import asyncio

    from tabletown.web import db
    from tabletown.web.movestore import AsyncMoveStore
    from tabletown.web.tables import TableService

    engine, first, table, tokens, bets_open = bets_on_one_database(pg_url)
    second = TableService(db.session_factory(engine))
    second.async_store = AsyncMoveStore.for_engine(engine)
    twin = second.get(table.id)
    assert first.act(table, tokens[0], bets_open, "bet2") == bets_open + 1

    async def scenario() -> int:
        try:
            return await second.act_on_loop(twin, tokens[1], bets_open, "bet1")
        finally:
            await second.async_store.close()

    assert asyncio.run(scenario()) == bets_open + 2
    assert [seat for seat, _ in twin.actions[-2:]] == [0, 1] and not twin.write_lock.locked()
