"""Security audit 30 (2026-12-07): cheap load. Any request for a table this process does not hold
loaded it from the database (every move read, the position replayed from its last saved one: 10 to
100 ms of a core), and the lobby lists finished tables for anyone to ask for one after another."""

from __future__ import annotations

import dataclasses

import pytest
from starlette.testclient import WebSocketDenialResponse
from starlette.websockets import WebSocketDisconnect
from web_helpers import create, play_past

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


@pytest.fixture
def long_table(make_client, sqlite_url):
    """A table with a few times ``FREE_VIEW_EVENTS`` events, on a client whose address may word
    one whole view of it and not two."""
    from tabletown.web.live import FREE_VIEW_EVENTS

    client = make_client(sqlite_url, limits=dataclasses.replace(Limits.off(), view_events_per_second=0.01))
    created = create(client, game="machikoro", seats=["human", "human"], seed=5)
    svc = client.app.state.service
    table = svc.get(created["id"])
    play_past(svc, table, 2 * FREE_VIEW_EVENTS)
    client.app.state.guard.view_events.burst = 1.5 * len(table.state.log)
    return client, table, [s["token"] for s in created["seats"]]


def test_replay_steps_word_through_the_cache_and_pay_for_what_they_word(long_table):
    """A replay step at a long table's last position worded every event again at every request, for a
    replay step's price (100 moves of the replay allowance): one address kept cores busy."""
    client, table, _ = long_table
    url = f"/api/tables/{table.id}/replay"
    last = {"step": table.seq}
    first = client.get(url, params=last)
    assert first.status_code == 200 and len(first.json()["event_text"]) == len(table.state.log)
    assert client.get(url, params=last).status_code == 200  # its words are kept now: free
    assert client.get(f"/api/tables/{table.id}", params={"since": 0}).status_code == 200  # the same reader
    refused = client.get(url, params=last | {"seat": 0, "token": "x"})  # another reader, worded afresh
    assert refused.status_code in (403, 429)
    refused = client.get(url, params=last, headers={"accept-language": "de"})
    assert refused.status_code == 429 and refused.json()["rule"] == "limit.views"


def test_an_uploaded_record_stepped_at_its_end_pays_for_its_words(long_table):
    client, table, _ = long_table
    record = client.get(f"/api/tables/{table.id}/record").json() | {"seed": table.seed}  # a record made up
    body = {"record": record, "step": len(record["actions"])}
    assert client.post("/api/replay", json=body).status_code == 200
    assert client.post("/api/replay", json=body).status_code == 200  # kept: free
    refused = client.post("/api/replay", json=body, headers={"accept-language": "ru"})
    assert refused.status_code == 429 and refused.json()["rule"] == "limit.views"


def test_a_move_asking_for_its_view_pays_for_the_words_and_is_made_all_the_same(long_table):
    client, table, tokens = long_table
    assert client.get(f"/api/tables/{table.id}", params={"since": 0}).status_code == 200  # spends it
    seat = table.state.to_act[0]
    first_move = table.state.format_action(table.state.legal_actions(seat)[0])
    move = {"token": tokens[seat], "seq": table.seq, "action": first_move, "since": 0}
    answer = client.post(f"/api/tables/{table.id}/actions", json=move, headers={"accept-language": "pl"})
    assert answer.status_code == 200
    body = answer.json()
    assert body["seq"] == table.seq == move["seq"] + 1 and "view" not in body
    assert body["view_error"]["rule"] == "limit.views" and body["view_error"]["retry_after"] > 0
    following = dict(move, seq=table.seq, since=len(table.state.log))  # from the last event: free
    seat = table.state.to_act[0]
    following |= {
        "token": tokens[seat],
        "action": table.state.format_action(table.state.legal_actions(seat)[0]),
    }
    assert "view" in client.post(f"/api/tables/{table.id}/actions", json=following).json()


def test_a_socket_s_first_view_pays_for_its_words(long_table):
    client, table, _ = long_table
    with client.websocket_connect(f"/ws/tables/{table.id}?since=0") as ws:
        assert len(ws.receive_json()["event_text"]) == len(table.state.log)
    with (
        pytest.raises(WebSocketDenialResponse) as refused,
        client.websocket_connect(f"/ws/tables/{table.id}?since=0", headers={"accept-language": "de"}),
    ):
        pass
    assert refused.value.status_code == 429 and refused.value.json()["rule"] == "limit.views"
    # and a GET after it finds nothing worded for that reader
    refused = client.get(f"/api/tables/{table.id}", params={"since": 0}, headers={"accept-language": "de"})
    assert refused.status_code == 429


def test_short_views_cannot_empty_the_cache_of_worded_events(monkeypatch):
    """The cache held 64 readers of the whole process, so 64 free short views pushed everyone's
    words out; it is now bounded by the events it holds, and short entries are cheap."""
    from tabletown.web import live

    monkeypatch.setattr(live, "_worded", type(live._worded)())
    long_reader = ("long", 0, "en", ())
    live.worded_events(long_reader).update({i: ({"i": i}, "w") for i in range(2000)})
    for n in range(1000):  # a thousand short readers, a few events each
        live.worded_events(("short", n, "en", ())).update({i: ({"i": i}, "w") for i in range(5)})
    assert long_reader in live._worded
    monkeypatch.setattr(live, "WORDED_EVENTS_KEPT", 6000)
    for n in range(1000, 1002):
        live.worded_events(("short", n, "en", ())).update({i: ({"i": i}, "w") for i in range(5)})
    assert long_reader not in live._worded  # the oldest go once the events held pass the bound
    assert sum(len(entry) for entry in live._worded.values()) <= 6000 + 5
