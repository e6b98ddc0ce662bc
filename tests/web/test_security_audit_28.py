"""Security audit 28: a page of another origin on the same site (another port, a sibling subdomain)
gets the table's Lax cookie sent along, so a request riding it must come from the server's own
pages. The WebSocket checked the Origin; the REST routes leaned on the browser's CORS preflight,
which a no-cors ``fetch`` with an untyped body never triggers, and FastAPI before 0.132 read such a
body as JSON: such a page could move, rename and chat for the victim's seat."""

from __future__ import annotations

import json

from web_helpers import create

EVIL = "http://evil.example:9000"


def seat_cookie_client(client):
    created = create(client, seed=3)
    table_id, token = created["id"], created["seats"][0]["token"]
    client.cookies.set(f"tt_{table_id}", token)
    return table_id, client.get(f"/api/tables/{table_id}", params={"seat": 0}).json()


def test_a_page_of_another_origin_cannot_move_rename_or_chat_with_the_seat_cookie(client):
    table_id, view = seat_cookie_client(client)
    move = {"seat": 0, "seq": view["seq"], "action": view["legal"][0]}
    requests = [
        (f"/api/tables/{table_id}/actions", move),
        (f"/api/tables/{table_id}/join", {"seat": 0, "name": "I resign"}),
        (f"/api/tables/{table_id}/chat", {"seat": 0, "text": "gg, I concede"}),
    ]
    forged = [
        {"origin": EVIL},
        {"origin": "null"},
        {"origin": "http://testserver.evil.example"},
        {"sec-fetch-site": "same-site"},  # a browser's GET carries no Origin, but says this
        {"sec-fetch-site": "cross-site", "origin": "http://testserver"},
    ]
    for path, body in requests:
        for headers in forged:
            refused = client.post(path, json=body, headers=headers)
            assert refused.status_code == 403 and refused.json()["rule"] == "seat.origin", (path, headers)
    # nothing happened: no move, no new name, no chat line
    after = client.get(f"/api/tables/{table_id}", params={"seat": 0}).json()
    assert after["seq"] == view["seq"]
    assert "I resign" not in str(after) and "gg, I concede" not in str(after)
    # reading the seat's view from another origin is refused the same way
    peek = client.get(f"/api/tables/{table_id}", params={"seat": 0}, headers={"sec-fetch-site": "cross-site"})
    assert peek.status_code == 403 and peek.json()["rule"] == "seat.origin"
    # the server's own pages (their Origin, or a browser's same-origin fetch) still play the seat
    own = {"origin": "http://testserver", "sec-fetch-site": "same-origin"}
    played = client.post(f"/api/tables/{table_id}/actions", json=move, headers=own)
    assert played.status_code == 200, played.text
    renamed = client.post(f"/api/tables/{table_id}/join", json={"seat": 0, "name": "Ada"}, headers=own)
    assert renamed.status_code == 200 and renamed.json()["name"] == "Ada"


def test_an_untyped_body_is_never_read_as_json(client):
    """What the audit sent: the cookie and no Content-Type (a no-cors fetch of a Blob). Refused by
    the Origin check and, with the Origin left out, by FastAPI's strict Content-Type, which the app
    now asks for itself whatever FastAPI's version defaults to."""
    table_id, view = seat_cookie_client(client)
    body = json.dumps({"seat": 0, "seq": view["seq"], "action": view["legal"][0]}).encode()
    path = f"/api/tables/{table_id}/actions"
    for headers in ({"origin": EVIL}, {}):
        refused = client.post(path, content=body, headers=headers)
        assert refused.status_code == 422, refused.text  # the body is refused before any seat is looked up
    assert client.get(f"/api/tables/{table_id}", params={"seat": 0}).json()["seq"] == view["seq"]
    assert client.app.router.strict_content_type is True


def test_a_token_the_client_holds_itself_works_from_any_origin(client):
    """Only the cookie a browser adds by itself is tied to the server's pages; a token in the
    request (a bot, a script, another client) is the holder's own to send from anywhere."""
    created = create(client, seed=3)
    table_id, token = created["id"], created["seats"][0]["token"]
    view = client.get(f"/api/tables/{table_id}", params={"token": token}).json()
    answer = client.post(
        f"/api/tables/{table_id}/actions",
        json={"token": token, "seq": view["seq"], "action": view["legal"][0]},
        headers={"origin": EVIL, "sec-fetch-site": "cross-site"},
    )
    assert answer.status_code == 200, answer.text
