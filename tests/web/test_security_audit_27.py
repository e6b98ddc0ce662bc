"""Security audit 27: secret cookies a sibling subdomain could plant.

Found (a ``test_hole_*`` test, failing before its fix): over https the browser secret (``tt_browser``)
and each table's cookie of seat tokens were plain cookies. A page on a sibling subdomain (a user's
site under the same parent domain) may set a cookie for the parent domain, which the browser then
sends here under the same name. Planting a browser secret the attacker knows in an invited friend's
browser let the table's creator, who saw the invitation, compute the seat token the friend's
redemption would give (``redeemed_token(invitation, secret)``) and play or read that seat. Over
https the secret cookies are now named ``__Host-...``: a browser takes such a cookie only from this
very host, Secure, for path ``/`` and without a Domain, so no other host can plant it; and over
https only that name is read. Over plain http (a server on one's own machine) nothing changes.
"""

from __future__ import annotations

import pytest
from web_helpers import create

from tabletown.web.access import redeemed_token


def https_client(make_client, url):
    client = make_client(url)
    client.base_url = client.base_url.copy_with(scheme="https")
    return client


def test_hole_a_planted_browser_secret_gives_the_creator_no_seat(make_client, sqlite_url):
    client = https_client(make_client, sqlite_url)
    created = create(client, seats=("human", "human"), seed=3, redeem=False)
    table_id, invitation = created["id"], created["seats"][1]["token"]
    planted = "a" * 48  # what the creator's sibling-subdomain page set for the parent domain
    client.cookies.set("tt_browser", planted)
    opened = client.get(f"/t/{table_id}", params={"token": invitation}, follow_redirects=False)
    assert opened.status_code == 303
    joined = client.post(f"/api/tables/{table_id}/join", json={"seat": 1, "name": "Bo", "back": False})
    assert joined.status_code == 200, joined.text
    guessed = redeemed_token(invitation, planted)
    assert client.app.state.service.get(table_id).seats[1].token != guessed
    # the friend's browser holds its own secret under the host-only name, Secure, for path /
    cookies = [v for k, v in joined.headers.multi_items() + opened.headers.multi_items() if k == "set-cookie"]
    secret_cookies = [c for c in cookies if c.startswith("__Host-tt_browser=")]
    assert secret_cookies, cookies
    for cookie in secret_cookies:
        attributes = cookie.lower()
        assert "secure" in attributes and "path=/" in attributes and "domain=" not in attributes
    assert not any(c.startswith("tt_") for c in cookies)
    # and the friend holds the seat: the page reads it through the host-only cookies
    assert client.get(f"/api/tables/{table_id}", params={"seat": 1}).json()["seat"] == 1
    with client.websocket_connect(
        f"wss://testserver/ws/tables/{table_id}?seat=1"
    ) as ws:  # the page's socket: wss
        assert ws.receive_json()["seat"] == 1


def test_a_planted_table_cookie_is_not_read_over_https(make_client, sqlite_url):
    client = https_client(make_client, sqlite_url)
    created = create(client, seats=("human", "human"), seed=3)
    table_id, token = created["id"], created["seats"][0]["token"]
    client.cookies.clear()
    client.cookies.set(f"tt_{table_id}", token)  # planted under the plain name
    assert client.get(f"/api/tables/{table_id}", params={"seat": 0}).status_code == 403
    client.cookies.clear()
    client.cookies.set(f"__Host-tt_{table_id}", token)
    assert client.get(f"/api/tables/{table_id}", params={"seat": 0}).json()["seat"] == 0


def test_over_plain_http_the_cookies_keep_their_names(client):
    created = create(client, seats=("human", "human"), seed=3, redeem=False)
    table_id, invitation = created["id"], created["seats"][1]["token"]
    client.get(f"/t/{table_id}", params={"token": invitation}, follow_redirects=False)
    joined = client.post(f"/api/tables/{table_id}/join", json={"seat": 1, "name": "Bo", "back": False})
    assert joined.status_code == 200
    assert client.cookies.get("tt_browser") and client.cookies.get(f"tt_{table_id}")
    assert client.get(f"/api/tables/{table_id}", params={"seat": 1}).json()["seat"] == 1


def test_hole_a_move_with_a_content_length_int_cannot_read_is_answered(client):
    """The quick path for moves read Content-Length with ``isdigit()`` and ``int()``: "²" (latin-1
    0xB2, a digit to ``isdigit()``) and 5,000 digits both raised ValueError out of the app, where an
    HTTP server that let such a header through would answer 500. Both now go the full stack's way."""
    from test_security_audit_18 import _asgi

    table = create(client, "toyrace", ("human", "human"), seed=3)
    path = f"/api/tables/{table['id']}/actions"
    body = b'{"token": "x", "seq": 0, "action": "r"}'
    for length in ("\u00b2".encode("latin-1"), b"9" * 5000):
        scope = {
            "type": "http",
            "asgi": {"version": "3.0"},
            "http_version": "1.1",
            "method": "POST",
            "scheme": "http",
            "path": path,
            "raw_path": path.encode(),
            "root_path": "",
            "query_string": b"",
            "headers": [(b"content-type", b"application/json"), (b"content-length", length)],
            "client": ("203.0.113.27", 50000),
            "server": ("testserver", 80),
            "extensions": {},
            "state": {},
        }
        status, _, _ = client.portal.call(_asgi, client.app, scope, body)
        assert 400 <= status < 500, (length[:9], status)


def test_hole_a_socket_refused_as_one_too_many_does_not_bring_its_seat_back(make_client, sqlite_url):
    """The handshake touched the seat (stored "back", cleared the away flag, announced the arrival)
    before counting the socket against the per-address and per-table limits, so a socket refused as
    one too many had still told the table its player was back (noticed by security audit 25)."""
    import dataclasses

    from starlette.testclient import WebSocketDenialResponse

    from tabletown.web.limits import Limits

    client = make_client(sqlite_url, limits=dataclasses.replace(Limits.off(), sockets_per_address=1))
    created = create(client, seats=("human", "human"), seed=3)
    table_id = created["id"]
    svc = client.app.state.service
    table = svc.get(table_id)
    svc._write_away(table, 1, True)  # seat 1's timer ran out: a standby bot plays for it
    table.seats[1].away = True
    seq = table.seq
    bearer = {"authorization": f"Bearer {created['seats'][1]['token']}"}
    with client.websocket_connect(f"/ws/tables/{table_id}") as watcher:  # the address's one socket
        watcher.receive_json()
        with (
            pytest.raises(WebSocketDenialResponse),
            client.websocket_connect(f"/ws/tables/{table_id}", headers=bearer) as refused,
        ):
            refused.receive_json()
        assert table.seats[1].away and table.seq == seq
    assert svc.get(table_id).seats[1].away
