"""GET a table with ``seq`` and ``wait``: a long poll for clients without a WebSocket (the load
test's REST clients, a researcher's script). It answers as soon as the table moves on, at once when
the client is already behind, and after ``wait`` seconds when nothing happened."""

from __future__ import annotations

import threading
import time

from web_helpers import create

from tabletown.web.drivers import MAX_WAITERS, until_changed


def start(client):
    created = create(client, "machikoro", ["human", "human"])
    return created["id"], [{"Authorization": f"Bearer {s['token']}"} for s in created["seats"]]


def view(client, table_id, headers, **params):
    answer = client.get(f"/api/tables/{table_id}", headers=headers, params=params)
    assert answer.status_code == 200, answer.text
    return answer.json()


def move(client, table_id, headers):
    current = view(client, table_id, headers)
    answer = client.post(
        f"/api/tables/{table_id}/actions",
        headers=headers,
        json={"seq": current["seq"], "action": current["legal"][0]},
    )
    assert answer.status_code == 200, answer.text


def test_a_long_poll_answers_when_the_other_seat_moves(client):
    table_id, seats = start(client)
    view(client, table_id, seats[0])  # both seats have joined: the next change is the move
    first = view(client, table_id, seats[1])
    mover = seats[first["to_act"][0]]
    watcher = seats[1 - first["to_act"][0]]
    later = threading.Timer(0.5, move, (client, table_id, mover))
    began = time.monotonic()
    later.start()
    answer = view(client, table_id, watcher, seq=first["seq"], wait=20)
    waited = time.monotonic() - began
    later.join()
    assert answer["seq"] == first["seq"] + 1
    assert 0.4 < waited < 15  # held until the move, not until the 20 s were up


def test_a_client_that_is_behind_is_answered_at_once(client):
    table_id, seats = start(client)
    first = view(client, table_id, seats[0])
    move(client, table_id, seats[first["to_act"][0]])
    began = time.monotonic()
    answer = view(client, table_id, seats[0], seq=first["seq"], wait=20)
    assert answer["seq"] == first["seq"] + 1 and time.monotonic() - began < 10


def test_a_long_poll_with_nothing_new_ends_after_its_wait(client):
    table_id, seats = start(client)
    first = view(client, table_id, seats[0])
    began = time.monotonic()
    answer = view(client, table_id, seats[0], seq=first["seq"], wait=0.5)
    assert answer["seq"] == first["seq"] and time.monotonic() - began >= 0.45


def test_wait_is_bounded_and_checked(client):
    table_id, seats = start(client)
    for bad in ({"wait": 31, "seq": 0}, {"wait": -1, "seq": 0}, {"seq": -2, "wait": 1}):
        answer = client.get(f"/api/tables/{table_id}", headers=seats[0], params=bad)
        assert answer.status_code == 422, (bad, answer.text)


def test_waiters_on_one_table_are_bounded(client):
    """Past MAX_WAITERS, a long poll returns at once instead of holding memory for a flood."""
    import asyncio

    table = client.app.state.service.get(start(client)[0])

    async def flood() -> float:
        waiting = [asyncio.ensure_future(until_changed(table, table.seq, 5)) for _ in range(MAX_WAITERS)]
        await asyncio.sleep(0.05)
        began = time.monotonic()
        await until_changed(table, table.seq, 5)  # one too many
        quick = time.monotonic() - began
        for task in waiting:
            task.cancel()
        await asyncio.gather(*waiting, return_exceptions=True)
        return quick

    assert asyncio.run(flood()) < 1
