"""The server's defences against a client that cheats or floods: limits (429 with Retry-After and
nothing changed), security headers and cookies, tokens out of URLs and logs, names, strict numbers,
error shapes, and seats kept for their join links."""

from __future__ import annotations

import json
import logging

import pytest
from web_helpers import create

from tabletown.web.app import RedactTokens
from tabletown.web.limits import Limits, TokenBuckets


def table_count(client):
    return len(client.app.state.service.list(None, 10_000))


# -- limits ---------------------------------------------------------------------------------------------------
def test_tables_per_minute_per_address(make_client, sqlite_url):
    client = make_client(sqlite_url, limits=Limits(tables_per_minute=3))
    for _ in range(3):
        create(client)
    before = table_count(client)
    refused = client.post("/api/tables", json={"game": "toyrace", "seats": ["human", "human"]})
    assert refused.status_code == 429 and refused.json()["rule"] == "limit.tables"
    assert int(refused.headers["retry-after"]) >= 1
    assert table_count(client) == before == 3  # nothing else changed


def test_moves_per_second_per_token(make_client, sqlite_url):
    client = make_client(sqlite_url, limits=Limits(moves_per_second=0.01, moves_burst=2))
    created = create(client, seed=3, options={"target": 100})
    table_id, t0, t1 = created["id"], created["seats"][0]["token"], created["seats"][1]["token"]
    # the allowance counts attempts, whatever the engine then says of them
    first = client.post(f"/api/tables/{table_id}/actions", json={"token": t0, "seq": 0, "action": "p"})
    assert first.status_code == 200
    second = client.post(f"/api/tables/{table_id}/actions", json={"token": t0, "seq": 1, "action": "zz"})
    assert second.status_code == 422
    before = client.get(f"/api/tables/{table_id}", params={"token": t0}).json()
    refused = client.post(
        f"/api/tables/{table_id}/actions",
        json={"token": t0, "seq": before["seq"], "action": before["legal"][0]},
    )
    assert refused.status_code == 429 and refused.json()["rule"] == "limit.moves"
    assert int(refused.headers["retry-after"]) >= 1
    after = client.get(f"/api/tables/{table_id}", params={"token": t0}).json()
    assert after["seq"] == before["seq"] and after["state"] == before["state"]
    # another seat's token has an allowance of its own
    other = client.post(
        f"/api/tables/{table_id}/actions", json={"token": t1, "seq": before["seq"], "action": "b"}
    )
    assert other.status_code != 429


def test_name_changes_count_like_moves(make_client, sqlite_url):
    client = make_client(sqlite_url, limits=Limits(moves_per_second=0.01, moves_burst=2))
    created = create(client)
    table_id, token = created["id"], created["seats"][0]["token"]
    for name in ("Ada", "Bea"):
        assert (
            client.post(f"/api/tables/{table_id}/join", json={"token": token, "name": name}).status_code
            == 200
        )
    refused = client.post(f"/api/tables/{table_id}/join", json={"token": token, "name": "Cy"})
    assert refused.status_code == 429 and refused.json()["rule"] == "limit.moves"
    assert client.get(f"/api/tables/{table_id}").json()["seats"][0]["name"] == "Bea"


def refused_socket(client, url, **kwargs):
    """The denial (an HTTP answer instead of a WebSocket) a connection gets, as (status, headers, body)."""
    from starlette.testclient import WebSocketDenialResponse

    try:
        with client.websocket_connect(url, **kwargs):
            pass
    except WebSocketDenialResponse as denial:
        return denial.status_code, denial.headers, denial.json()
    raise AssertionError(f"{url} was let in")


def test_websocket_limits_per_table_address_and_spectators(make_client, sqlite_url):
    limits = Limits(sockets_per_table=3, sockets_per_address=4, spectators_per_table=1)
    client = make_client(sqlite_url, limits=limits)
    first, second = create(client), create(client)
    url, other_url = f"/ws/tables/{first['id']}", f"/ws/tables/{second['id']}"
    bearer = {"authorization": f"Bearer {first['seats'][0]['token']}"}
    with client.websocket_connect(url) as watcher:
        watcher.receive_json()
        status, headers, body = refused_socket(client, url)  # a second spectator
        assert status == 429 and int(headers["retry-after"]) >= 1 and body["rule"] == "limit.spectators"
        with (
            client.websocket_connect(url, headers=bearer) as a,
            client.websocket_connect(url, headers=bearer) as b,
        ):
            a.receive_json(), b.receive_json()
            assert refused_socket(client, url, headers=bearer)[2]["rule"] == "limit.table_sockets"
            with client.websocket_connect(other_url) as c:
                c.receive_json()
                seat = {"authorization": f"Bearer {second['seats'][0]['token']}"}
                assert refused_socket(client, other_url, headers=seat)[2]["rule"] == "limit.address_sockets"
    # every connection closed: the counters are back to zero and a spectator gets in again
    with client.websocket_connect(url) as again:
        assert again.receive_json()["type"] == "view"


def test_token_bucket_refills_and_limits_from_the_environment():
    bucket = TokenBuckets(rate=2.0, burst=2)
    assert bucket.take("k", now=0.0) == 0.0 and bucket.take("k", now=0.0) == 0.0
    assert bucket.take("k", now=0.0) == pytest.approx(0.5)
    assert bucket.take("k", now=0.5) == 0.0  # one token back after half a second
    assert bucket.take("other", now=0.5) == 0.0
    limits = Limits.from_env(
        {"TABLETOWN_LIMIT_TABLES_PER_MINUTE": "5", "TABLETOWN_LIMIT_MOVES_PER_SECOND": "2.5"}
    )
    assert limits.tables_per_minute == 5 and limits.moves_per_second == 2.5
    assert limits.sockets_per_table == Limits().sockets_per_table
    with pytest.raises(ValueError):
        Limits.from_env({"TABLETOWN_LIMIT_SOCKETS_PER_TABLE": "-1"})


# -- headers, cookies, tokens ---------------------------------------------------------------------------------
@pytest.mark.parametrize("path", ["/", "/api/games", "/static/app.css", "/api/tables/nope", "/replay"])
def test_security_headers_on_every_answer(client, path):
    answer = client.get(path)
    csp = answer.headers["content-security-policy"]
    assert "default-src 'self'" in csp and "frame-ancestors 'none'" in csp and "script-src 'self'" in csp
    assert answer.headers["x-content-type-options"] == "nosniff"
    assert answer.headers["referrer-policy"] == "no-referrer"
    assert answer.headers["x-frame-options"] == "DENY"


def test_an_unexpected_error_answers_json_with_the_security_headers(make_client, sqlite_url, monkeypatch):
    # A bug in a route must not answer a bare page a frame could embed or a cache could keep: the
    # 500 of Starlette's outermost error handler used to go out without any of the headers.
    from fastapi.testclient import TestClient

    client = make_client(sqlite_url)
    monkeypatch.setattr(client.app.state.service, "list", lambda *a, **k: 1 / 0)
    answer = TestClient(client.app, raise_server_exceptions=False).get("/api/tables")
    assert answer.status_code == 500
    assert answer.json()["rule"] == "server.error" and "ZeroDivision" not in answer.text
    assert answer.headers["x-frame-options"] == "DENY"
    assert "frame-ancestors 'none'" in answer.headers["content-security-policy"]
    assert answer.headers["cache-control"] == "no-store"


def test_join_link_cookie_is_http_only_and_secure_behind_https(make_client, sqlite_url):
    client = make_client(sqlite_url)
    created = create(client)
    table_id, token = created["id"], created["seats"][0]["token"]
    answer = client.get(f"/t/{table_id}?token={token}", follow_redirects=False)
    cookie = answer.headers["set-cookie"].lower()
    assert "httponly" in cookie and "samesite=lax" in cookie and "secure" not in cookie
    from fastapi.testclient import TestClient

    secure = TestClient(client.app, base_url="https://testserver")
    answer = secure.get(f"/t/{table_id}?token={token}", follow_redirects=False)
    assert "secure" in answer.headers["set-cookie"].lower()


def test_bearer_token_and_cookie_seat_speak_for_a_seat(client):
    created = create(client, seed=5)
    table_id, t0, t1 = created["id"], created["seats"][0]["token"], created["seats"][1]["token"]
    mine = client.get(f"/api/tables/{table_id}", headers={"authorization": f"Bearer {t0}"}).json()
    assert mine["seat"] == 0 and mine["legal"]
    moved = client.post(
        f"/api/tables/{table_id}/actions",
        json={"seq": 0, "action": mine["legal"][0]},
        headers={"authorization": f"Bearer {t0}"},
    )
    assert moved.status_code == 200
    # a page names the seat; the token comes from the HttpOnly cookie
    client.cookies.set(f"tt_{table_id}", f"{t0},{t1}")
    assert client.get(f"/api/tables/{table_id}", params={"seat": 1}).json()["seat"] == 1
    client.cookies.set(f"tt_{table_id}", t0)
    refused = client.get(f"/api/tables/{table_id}", params={"seat": 1})
    assert refused.status_code == 403 and refused.json()["rule"] == "seat.not_held"
    client.cookies.clear()
    bad = client.get(f"/api/tables/{table_id}", headers={"authorization": "Bearer nope"})
    assert bad.status_code == 403


def test_access_logs_never_print_a_token():
    record = logging.LogRecord(
        "uvicorn.access",
        logging.INFO,
        __file__,
        1,
        '%s - "%s %s HTTP/%s" %d',
        ("127.0.0.1:5000", "GET", "/t/abc?token=SECRET123&x=1", "1.1", 303),
        None,
    )
    assert RedactTokens().filter(record)
    line = record.getMessage()
    assert "SECRET123" not in line and "token=[redacted]&x=1" in line
    assert any(isinstance(f, RedactTokens) for f in logging.getLogger("uvicorn.access").filters)


# -- error shapes and strict numbers --------------------------------------------------------------------------
def test_every_error_has_the_documented_shape(client):
    created = create(client)
    table_id, token = created["id"], created["seats"][0]["token"]
    nested = "[" * 100_000 + "]" * 100_000
    for body in (nested[:60_000], "{" * 30_000, '{"a": ' * 5000 + "1" + "}" * 5000, "\x00", "[1,"):
        answer = client.post("/api/tables", content=body, headers={"content-type": "application/json"})
        assert answer.status_code in (413, 422), (answer.status_code, answer.text[:200])
        assert set(answer.json()) == {"rule", "message"}
    for seq in (0.0, "0", True, None):
        answer = client.post(
            f"/api/tables/{table_id}/actions", json={"token": token, "seq": seq, "action": "r"}
        )
        assert answer.status_code == 422 and answer.json()["rule"] == "request.invalid", seq
    assert client.get(f"/api/tables/{table_id}").json()["seq"] == 0
    missing = client.get("/no/such/page")
    assert missing.status_code == 404 and set(missing.json()) == {"rule", "message"}
    wrong = client.delete("/api/games")
    assert wrong.status_code == 405 and wrong.json()["rule"] == "http.method"


def test_websocket_refuses_deep_json_and_float_seq(client):
    created = create(client, seed=2)
    table_id, token = created["id"], created["seats"][0]["token"]
    with client.websocket_connect(
        f"/ws/tables/{table_id}", headers={"authorization": f"Bearer {token}"}
    ) as ws:
        ws.receive_json()
        ws.send_text("[" * 2_000 + "]" * 2_000)  # deeper than the JSON parser's recursion limit
        reply = ws.receive_json()
        assert reply["status"] == 422 and reply["rule"] == "request.json"
        ws.send_text("[" * 30_000 + "]" * 30_000)  # longer than any move: refused unparsed
        reply = ws.receive_json()
        assert reply["status"] == 413
        ws.send_text(json.dumps({"type": "action", "seq": 0.0, "action": "r"}))
        reply = ws.receive_json()
        assert reply["type"] == "error" and reply["rule"] == "request.seq"
    assert client.get(f"/api/tables/{table_id}").json()["seq"] == 0


def test_bot_only_tables_are_capped_per_address_and_in_all(make_client, sqlite_url):
    """Bots think for tables nobody plays at: a stranger may not start them without end."""
    client = make_client(
        sqlite_url, limits=Limits(tables_per_minute=0, bot_tables_per_address=2, bot_tables=3)
    )
    slow = {"game": "toyrace", "seats": ["bot:random", "bot:random"], "options": {"target": 100}}
    first = [client.post("/api/tables", json=slow) for _ in range(2)]
    assert [r.status_code for r in first] == [201, 201]
    refused = client.post("/api/tables", json=slow)
    assert refused.status_code == 429 and refused.json()["rule"] == "limit.bot_tables"
    assert int(refused.headers["retry-after"]) >= 1
    # a table with a person at it is never counted
    assert client.post("/api/tables", json={**slow, "seats": ["human", "bot:random"]}).status_code == 201


def test_a_finished_bot_table_frees_its_place():
    from tabletown.web.limits import Running

    class Table:
        over = False

    running = Running(per_key=1, total=2)
    a, b = Table(), Table()
    running.add("x", a)
    assert running.room("x") > 0 and running.room("y") == 0
    running.add("y", b)
    assert running.room("z") > 0  # two running in all
    a.over = True
    assert running.room("x") == 0 and running.room("z") == 0
