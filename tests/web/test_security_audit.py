"""Holes found by the security audit, each checked from the outside: a seat spec that opened server
files, a cross-origin WebSocket riding the seat cookie, seat tokens in the WebSocket handshake log,
an event count that crashed the answer, and a broken table whose error quoted a secret move."""

from __future__ import annotations

import logging

import pytest
import web_toygame as toygame
from starlette.websockets import WebSocketDisconnect
from web_helpers import create

from tabletown.core.errors import IllegalAction
from tabletown.web.asgi import RedactTokens


# -- seat specs: only the game's bots, never a file on the server --------------------------------------------------
def test_a_seat_spec_cannot_make_the_server_open_a_file(client):
    answers = {}
    for path in ("/etc/passwd", "/no/such/file"):
        answer = client.post(
            "/api/tables", json={"game": "toyrace", "seats": ["human", f"bot:policy:{path}"]}
        )
        assert answer.status_code == 422 and answer.json()["rule"] == "table.bot", answer.text
        answers[path] = answer.json()["message"].replace(path, "PATH")
    # the same answer for a file that exists and one that does not: no oracle, no loader's message
    assert answers["/etc/passwd"] == answers["/no/such/file"]
    assert "pickle" not in answers["/etc/passwd"] and "Errno" not in answers["/no/such/file"]
    # the game's own bot levels still sit
    for spec in ("bot:greedy", "bot", "bot:random"):
        assert create(client, seats=["human", spec])["seats"][1]["kind"].startswith("bot:")


# -- the WebSocket: the seat cookie works from the server's own pages only -------------------------------------------
def test_a_page_of_another_origin_cannot_use_the_seat_cookie_on_the_socket(make_client, sqlite_url):
    client = make_client(sqlite_url, public_url="https://play.example.org")
    created = create(client, seed=3)
    table_id, token = created["id"], created["seats"][0]["token"]
    client.cookies.set(f"tt_{table_id}", token)
    url = f"/ws/tables/{table_id}?seat=0"
    for origin in ("http://evil.example", "http://testserver.evil.example", "null"):
        with (
            pytest.raises(WebSocketDisconnect) as refused,
            client.websocket_connect(url, headers={"origin": origin}) as ws,
        ):
            ws.receive_json()
        assert refused.value.code == 4403, origin
    # the server's own pages (its Host, its public address), and clients that are not browsers
    for headers in ({"origin": "http://testserver"}, {"origin": "https://play.example.org"}, {}):
        with client.websocket_connect(url, headers=headers) as ws:
            first = ws.receive_json()
        assert first["type"] == "view" and first["seat"] == 0 and first["legal"], headers
    # a token the client holds itself (not a cookie the browser adds) works from anywhere
    client.cookies.clear()
    with client.websocket_connect(
        f"/ws/tables/{table_id}",
        headers={"origin": "http://elsewhere.example", "authorization": f"Bearer {token}"},
    ) as ws:
        assert ws.receive_json()["seat"] == 0


def test_websocket_handshake_logs_never_print_a_token(client):
    # uvicorn logs a WebSocket handshake on "uvicorn.error" (HTTP requests go to "uvicorn.access")
    logger = logging.getLogger("uvicorn.error")
    assert any(isinstance(f, RedactTokens) for f in logger.filters)
    record = logger.makeRecord(
        "uvicorn.error",
        logging.INFO,
        __file__,
        1,
        '%s - "WebSocket %s" [accepted]',
        ("127.0.0.1:5000", "/ws/tables/abc?token=SECRET123&since=4"),
        None,
    )
    assert logger.filter(record)
    line = record.getMessage()
    assert "SECRET123" not in line and "token=[redacted]&since=4" in line


# -- malformed input ----------------------------------------------------------------------------------------------
def test_a_huge_event_count_is_refused_not_a_crash(client):
    created = create(client, seed=4)
    table_id = created["id"]
    huge = str(10**20)
    answer = client.get(f"/api/tables/{table_id}", params={"since": huge})
    assert answer.status_code == 422 and answer.json()["rule"] == "request.invalid"
    answer = client.get(f"/api/tables/{table_id}", params={"since": huge, "seq": "0", "wait": "0"})
    assert answer.status_code == 422
    with client.websocket_connect(f"/ws/tables/{table_id}?since={huge}") as ws:
        first = ws.receive_json()
    assert first["type"] == "view" and first["seq"] == 0


# -- a table that no longer replays: its error names no secret move -------------------------------------------------
def test_a_broken_table_does_not_quote_a_secret_move(make_client, sqlite_url, monkeypatch):
    first = make_client(sqlite_url)
    created = create(first, seed=6)
    table_id, tokens = created["id"], [s["token"] for s in created["seats"]]
    for seat, seq, move in ((0, 0, "b"), (1, 1, "b"), (0, 2, "bet2")):  # bank, bank, then a secret bet
        answer = first.post(
            f"/api/tables/{table_id}/actions",
            headers={"authorization": f"Bearer {tokens[seat]}"},
            json={"seq": seq, "action": move},
        )
        assert answer.status_code == 200, answer.text
    assert first.get(f"/api/tables/{table_id}").json()["to_act"] == [1]
    first.__exit__(None, None, None)

    # The engine changes: the stored bet no longer replays (and its refusal quotes the move).
    apply = toygame.ToyState.apply

    def changed(self, player, action):
        if isinstance(action, int):
            raise IllegalAction("toy.changed", f"bet{action} is no longer allowed")
        return apply(self, player, action)

    monkeypatch.setattr(toygame.ToyState, "apply", changed)
    second = make_client(sqlite_url)
    answers = [
        second.get(f"/api/tables/{table_id}"),
        second.get(f"/api/tables/{table_id}", headers={"authorization": f"Bearer {tokens[1]}"}),
        second.post(
            f"/api/tables/{table_id}/actions",
            headers={"authorization": f"Bearer {tokens[1]}"},
            json={"seq": 3, "action": "bet0"},
        ),
        second.get(f"/api/tables/{table_id}/record"),
    ]
    payload = answers[0].json()
    assert payload["status"] == "error" and payload["error"].startswith("cannot rebuild the position")
    assert answers[2].status_code == 409
    for answer in answers:
        assert "bet2" not in answer.text and "'2'" not in answer.text, answer.text
