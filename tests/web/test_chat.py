"""Issue 27, table chat through the API: seats and spectators (marked), plain text of 1-300
characters, rate-limited per seat and per spectator address, kept in tt_chat (migration 0003; SQLite,
and PostgreSQL when TABLETOWN_TEST_POSTGRES_URL is set), pushed over the table's WebSocket as
``{"type": "chat"}``, the last 100 on load, and handed to another process's sockets by the hub
follower (``kind: "chat"``)."""

from __future__ import annotations

import pytest
from web_helpers import create

from tabletown.web import chat
from tabletown.web.drivers import Follower
from tabletown.web.limits import Limits


@pytest.fixture(params=["sqlite", "postgresql"])
def url(request, sqlite_url):
    if request.param == "sqlite":
        return sqlite_url
    return request.getfixturevalue("pg_url")


def test_seats_and_spectators_chat_live_and_it_is_kept(make_client, url):
    client = make_client(url)
    table = create(client, seats=["human", "human"], names=["Alice", "Bob"])
    t0, t1 = (s["token"] for s in table["seats"])
    tid = table["id"]
    with (
        client.websocket_connect(f"/ws/tables/{tid}?token={t1}") as bob,
        client.websocket_connect(f"/ws/tables/{tid}") as watcher,
    ):
        assert bob.receive_json()["type"] == "view"
        assert watcher.receive_json()["type"] == "view"
        said = client.post(
            f"/api/tables/{tid}/chat",
            json={"text": "  hello <b>Bob</b> &amp; all\n"},
            headers={"authorization": f"Bearer {t0}"},
        )
        assert said.status_code == 200, said.text
        message = said.json()
        assert message["text"] == "hello <b>Bob</b> &amp; all"  # kept as text: the page never parses it
        assert (message["seat"], message["name"], message["spectator"]) == (0, "Alice", False)
        for socket in (bob, watcher):
            pushed = socket.receive_json()
            assert pushed == {"type": "chat", **message}
        spoken = client.post(f"/api/tables/{tid}/chat", json={"text": "nice game", "name": "Carol"})
        assert spoken.status_code == 200
        assert (spoken.json()["seat"], spoken.json()["name"], spoken.json()["spectator"]) == (
            None,
            "Carol",
            True,
        )
        assert bob.receive_json()["name"] == "Carol"
    history = client.get(f"/api/tables/{tid}/chat").json()["messages"]
    assert [m["text"] for m in history] == ["hello <b>Bob</b> &amp; all", "nice game"]
    # kept with the table: a new server process on the same database has it
    again = make_client(url)
    assert again.get(f"/api/tables/{tid}/chat").json()["messages"] == history


def test_length_and_rules(client):
    table = create(client, seats=["human", "human"])
    tid, token = table["id"], table["seats"][0]["token"]
    auth = {"authorization": f"Bearer {token}"}
    for bad in ["", "   ", "x" * 301, "bell\x07", 42, None]:
        answer = client.post(f"/api/tables/{tid}/chat", json={"text": bad}, headers=auth)
        assert answer.status_code == 422, bad
        assert answer.json()["rule"] in ("chat.invalid", "request.invalid")
    assert client.post(f"/api/tables/{tid}/chat", json={"text": "x" * 300}, headers=auth).status_code == 200
    assert (
        client.post(
            f"/api/tables/{tid}/chat", json={"text": "hi"}, headers={"authorization": "Bearer nope"}
        ).status_code
        == 403
    )
    assert client.post("/api/tables/nosuch/chat", json={"text": "hi"}).status_code == 404
    # the last 100 only
    for k in range(105):
        client.post(f"/api/tables/{tid}/chat", json={"text": f"line {k}"}, headers=auth)
    history = client.get(f"/api/tables/{tid}/chat").json()["messages"]
    assert len(history) == 100 and history[-1]["text"] == "line 104" and history[0]["text"] == "line 5"


def test_rate_limited_per_seat_and_per_spectator_address(make_client, sqlite_url):
    client = make_client(sqlite_url, limits=Limits(chat_per_minute=6, chat_burst=3))
    table = create(client, seats=["human", "human"])
    tid = table["id"]
    t0, t1 = (s["token"] for s in table["seats"])
    codes = [
        client.post(
            f"/api/tables/{tid}/chat", json={"text": "a"}, headers={"authorization": f"Bearer {t0}"}
        ).status_code
        for _ in range(4)
    ]
    assert codes == [200, 200, 200, 429]
    refused = client.post(
        f"/api/tables/{tid}/chat", json={"text": "a"}, headers={"authorization": f"Bearer {t0}"}
    )
    assert refused.json()["rule"] == "limit.chat" and int(refused.headers["retry-after"]) >= 1
    # another seat has its own allowance; spectators share their address's
    assert (
        client.post(
            f"/api/tables/{tid}/chat", json={"text": "b"}, headers={"authorization": f"Bearer {t1}"}
        ).status_code
        == 200
    )
    spectators = [client.post(f"/api/tables/{tid}/chat", json={"text": "c"}).status_code for _ in range(4)]
    assert spectators == [200, 200, 200, 429]
    assert len(client.get(f"/api/tables/{tid}/chat").json()["messages"]) == 7


def test_another_process_hands_chat_to_its_own_sockets(client):
    """The hub's "chat" message (RedisHub.publish(table, "chat", None, {"chat": message})) reaches the
    sockets this process holds for the table through drivers.Follower."""
    table = create(client, seats=["human", "human"])
    tid = table["id"]
    service = client.app.state.service
    published = []
    service.on_stored.append(lambda table_id, kind, seq, detail: published.append((table_id, kind, detail)))
    said = client.post(f"/api/tables/{tid}/chat", json={"text": "from here", "name": "Dan"}).json()
    assert published == [(tid, "chat", {"chat": said})]
    message = {
        "origin": "other",
        "table": tid,
        "kind": "chat",
        "seq": None,
        "chat": {**said, "id": said["id"] + 1000, "text": "from there"},
    }
    with client.websocket_connect(f"/ws/tables/{tid}") as watcher:
        assert watcher.receive_json()["type"] == "view"
        client.portal.call(Follower(service, None).handle, message)
        assert watcher.receive_json() == {"type": "chat", **message["chat"]}
    # a table this process does not hold, or a message of another kind: nothing happens, no error
    assert chat.follow_chat(service, {"kind": "chat", "table": "elsewhere", "chat": said}) is True
    assert chat.follow_chat(service, {"kind": "move", "table": tid}) is False
