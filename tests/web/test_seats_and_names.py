"""Seats kept for their join links, open seats taken from the lobby, and the rules for names: a
refused name changes neither the server's memory nor the database (on SQLite and on PostgreSQL)."""

from __future__ import annotations

import json

import pytest
import sqlalchemy as sa
from web_helpers import create, redeem_invitation

BAD_NAMES = [
    "",
    "   ",
    "x" * 41,
    "Ada\x00",  # PostgreSQL refuses NUL in text: it must never get that far
    "Ada\ud800",  # a lone surrogate (cannot be encoded)
    "Ada\nBob",
    "Ada\u202e",  # a right-to-left override (format character) to disguise a name
    "\x1b[31mred",
]


@pytest.fixture(params=["sqlite", "postgresql"])
def any_db(request):
    return request.getfixturevalue("sqlite_url" if request.param == "sqlite" else "pg_url")


def stored_seat(client, table_id, seat):
    engine = client.app.state.engine
    with engine.connect() as conn:
        row = conn.execute(
            sa.text("SELECT name, joined, token FROM tt_seats WHERE table_id = :t AND seat = :s"),
            {"t": table_id, "s": seat},
        ).one()
    return row.name, bool(row.joined), row.token


def post(client, path, body):
    """JSON with every non-ASCII character escaped, as a browser may send a lone surrogate (\\ud800)."""
    return client.post(path, content=json.dumps(body), headers={"content-type": "application/json"})


@pytest.mark.parametrize("bad", BAD_NAMES)
def test_a_refused_name_changes_nothing(make_client, any_db, bad):
    client = make_client(any_db)
    created = create(client, seats=["human", "open"], redeem=False)
    table_id, token = created["id"], created["seats"][0]["token"]
    live = client.app.state.service.get(table_id)
    answer = post(client, f"/api/tables/{table_id}/join", {"token": token, "name": bad})
    assert answer.status_code == 422 and answer.json()["rule"] == "name.invalid"
    assert (live.seats[0].name, live.seats[0].joined) == (None, False)
    assert stored_seat(client, table_id, 0)[:2] == (None, False)
    sat = post(client, f"/api/tables/{table_id}/sit", {"seat": 1, "name": bad})
    assert sat.status_code == 422 and sat.json()["rule"] == "name.invalid"
    assert not live.seats[1].joined and stored_seat(client, table_id, 1)[1] is False
    made = post(client, "/api/tables", {"game": "toyrace", "seats": ["human", "human"], "names": [bad]})
    assert made.status_code == 422 and made.json()["rule"] == "name.invalid"


def test_names_are_normalised(make_client, any_db):
    client = make_client(any_db)
    created = create(client, seats=["human", "human"], names=["  Zoe\u0308   van  Dijk "])
    table_id = created["id"]
    assert client.get(f"/api/tables/{table_id}").json()["seats"][0]["name"] == "Zoë van Dijk"
    token = created["seats"][1]["token"]
    answer = client.post(f"/api/tables/{table_id}/join", json={"token": token, "name": "Ł" * 40})
    assert answer.status_code == 200 and answer.json()["name"] == "Ł" * 40
    assert stored_seat(client, table_id, 1)[:2] == ("Ł" * 40, True)


def test_a_reserved_seat_cannot_be_taken_and_an_open_seat_gets_a_new_token(client):
    created = create(client, seats=["human", "human", "open"], redeem=False)
    table_id = created["id"]
    reserved = client.post(f"/api/tables/{table_id}/sit", json={"seat": 1, "name": "Mallory"})
    assert reserved.status_code == 409 and reserved.json()["rule"] == "seat.reserved"
    lobby = client.get("/api/tables").json()
    entry = next(t for t in lobby["open"] if t["id"] == table_id)
    assert [s["open"] for s in entry["seats"]] == [False, False, True]
    old_token = client.app.state.service.get(table_id).seats[2].token
    sat = client.post(f"/api/tables/{table_id}/sit", json={"seat": 2, "name": "Bo"})
    assert sat.status_code == 200
    token = sat.json()["token"]
    assert token != old_token and stored_seat(client, table_id, 2) == ("Bo", True, token)
    assert "httponly" in sat.headers["set-cookie"].lower()
    assert client.get(f"/api/tables/{table_id}", params={"token": old_token}).status_code == 403
    assert client.get(f"/api/tables/{table_id}", params={"token": token}).json()["seat"] == 2
    again = client.post(f"/api/tables/{table_id}/sit", json={"seat": 2})
    assert again.status_code == 409 and again.json()["rule"] == "seat.taken"
    # no seat left to take: the table leaves the lobby's open list
    lobby = client.get("/api/tables").json()
    assert table_id not in [t["id"] for t in lobby["open"]]
    # the invited friend's invitation still works
    friend = redeem_invitation(client, table_id, created["seats"][1]["token"])
    assert client.get(f"/api/tables/{table_id}", params={"token": friend}).json()["seat"] == 1
