"""Security audit 30 (2026-12-07): cheap load. Any request for a table this process does not hold
loaded it from the database (every move read, the position replayed from its last saved one: 10 to
100 ms of a core), and the lobby lists finished tables for anyone to ask for one after another."""

from __future__ import annotations

import dataclasses

import pytest
from starlette.websockets import WebSocketDisconnect
from web_helpers import create

from tabletown.web.limits import Limits


@pytest.fixture
def forgotten(make_client, sqlite_url):
    """Three tables in the database, none in the memory of a second process's client, whose
    address may load two."""
    first = make_client(sqlite_url)
    ids = [create(first, seed=seed)["id"] for seed in range(3)]
    limits = dataclasses.replace(Limits.off(), table_loads_per_second=0.001, table_loads_burst=2)
    client = make_client(sqlite_url, limits=limits)
    assert client.app.state.service.tables == {}
    return client, ids


def test_loading_tables_from_the_database_is_limited_per_address(forgotten):
    client, ids = forgotten
    svc = client.app.state.service
    assert client.get(f"/api/tables/{ids[0]}").status_code == 200
    for _ in range(3):  # held now: asking again loads nothing and costs nothing
        assert client.get(f"/api/tables/{ids[0]}").status_code == 200
    assert client.get(f"/t/{ids[1]}").status_code == 200  # a page load counts as well
    refused = client.get(f"/api/tables/{ids[2]}")
    assert refused.status_code == 429 and refused.json()["rule"] == "limit.loads"
    assert float(refused.headers["retry-after"]) > 0
    assert ids[2] not in svc.tables  # refused before anything was read
    for path in (f"/t/{ids[2]}", f"/t/{ids[2]}/replay", f"/api/tables/{ids[2]}/record"):
        assert client.get(path).status_code == 429, path
    assert client.get(f"/api/tables/{ids[2]}/chat").status_code == 429
    assert client.get(f"/api/tables/{ids[1]}/chat").status_code == 200  # held tables stay open
    assert ids[2] not in svc.tables


def test_a_socket_to_a_table_the_address_may_not_load_is_closed_with_the_reason(forgotten):
    client, ids = forgotten
    for table_id in ids[:2]:
        assert client.get(f"/api/tables/{table_id}").status_code == 200
    with pytest.raises(WebSocketDisconnect) as closed, client.websocket_connect(f"/ws/tables/{ids[2]}"):
        pass
    assert closed.value.code == 4429 and "too many tables" in closed.value.reason
    assert ids[2] not in client.app.state.service.tables


def test_unknown_tables_count_as_loads_too(forgotten):
    """A miss reads the database as well; guessing ids is not free."""
    client, ids = forgotten
    assert [client.get(f"/api/tables/nosuchtable{n}").status_code for n in range(2)] == [404, 404]
    assert client.get(f"/api/tables/{ids[0]}").status_code == 429
