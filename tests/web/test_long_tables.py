"""A table cannot be grown without end (security audit F2): every full view, WebSocket from 0 or
replay's last step was built on the event loop from the whole event log, so two players passing
for ever, or one client on purpose, slowed every table of the server. Now a view carries at most
``MAX_VIEW_EVENTS`` of the latest events and a table takes at most ``MAX_LIVE_MOVES`` moves."""

from __future__ import annotations

import pytest
from web_helpers import create, wait_for

from tabletown.web import live, tables


@pytest.fixture
def small_caps(monkeypatch):
    monkeypatch.setattr(live, "MAX_VIEW_EVENTS", 5)
    monkeypatch.setattr(tables, "MAX_LIVE_MOVES", 12)


def play_until_refused(client, table_id, tokens):
    """Each seat to act plays its first legal move until a move is refused: that refusal."""
    last = (0, "b")
    while True:
        view = client.get(f"/api/tables/{table_id}").json()
        if view["to_act"]:  # (a table ended at the limit has nobody to act: the last seat tries again)
            seat = view["to_act"][0]
            mine = client.get(f"/api/tables/{table_id}", params={"token": tokens[seat]}).json()
            last = (seat, mine["legal"][0])
        seat, action = last
        answer = client.post(
            f"/api/tables/{table_id}/actions",
            json={"token": tokens[seat], "seq": view["seq"], "action": action},
        )
        if answer.status_code != 200:
            return view["seq"], answer


def test_a_view_holds_the_latest_events_only(client, small_caps):
    created = create(client, options={"target": 100}, seed=2)
    table_id, tokens = created["id"], [s["token"] for s in created["seats"]]
    play_until_refused(client, table_id, tokens)
    table = client.app.state.service.get(table_id)
    assert len(table.state.log) > 5  # the game made more events than a view may carry
    for params in ({}, {"token": tokens[0]}, {"token": tokens[1], "since": 0}):
        view = client.get(f"/api/tables/{table_id}", params=params).json()
        count = view["event_count"]
        assert view["since"] == count - 5 and len(view["event_text"]) <= 5
        assert all(count - 5 <= event["i"] < count for event in view["events"])
    later = client.get(f"/api/tables/{table_id}", params={"since": view["event_count"] - 2}).json()
    assert later["since"] == view["event_count"] - 2  # a client that is nearly up to date is not moved
    replay = client.get(f"/api/tables/{table_id}/replay", params={"step": table.seq}).json()
    assert 0 < len(replay["events"]) <= 5 and len(replay["event_text"]) <= 5


def test_a_table_takes_no_move_past_its_limit(client, small_caps):
    created = create(client, options={"target": 100}, seed=3)
    table_id, tokens = created["id"], [s["token"] for s in created["seats"]]
    seq, refused = play_until_refused(client, table_id, tokens)
    assert seq == 12 and refused.status_code == 422 and refused.json()["rule"] == "table.too_long"
    assert "12" in refused.json()["message"]
    # what was played stays: the record and the replay's last step
    assert len(client.get(f"/api/tables/{table_id}/record").json()["actions"]) == 12
    assert client.get(f"/api/tables/{table_id}/replay", params={"step": 12}).json()["step"] == 12


def test_bots_at_the_limit_stop_rather_than_spin(client, small_caps):
    created = create(client, seats=["bot:random", "bot:random"], options={"target": 100}, seed=4)
    table = client.app.state.service.get(created["id"])
    drivers = client.app.state.drivers
    wait_for(lambda: table.seq == 12 and created["id"] not in drivers.tasks, timeout=20)
    # the move that reached the limit ended the table (security audit 17: it used to stay running)
    assert table.seq == 12 and table.over and table.status == "error"
