"""The REST API and WebSocket of the game server (issue 12's protocol), on the toy game."""

from __future__ import annotations

import json
import re
import threading
import time

import pytest
from web_helpers import create, strip, wait_for

from tabletown.core.record import Record, verify


def view(client, table_id, token=None, **params):
    if token is not None:
        params["token"] = token
    response = client.get(f"/api/tables/{table_id}", params=params)
    assert response.status_code == 200, response.text
    return response.json()


def act(client, table_id, token, seq, action):
    return client.post(f"/api/tables/{table_id}/actions", json={"token": token, "seq": seq, "action": action})


def test_create_returns_seats_tokens_and_links(client):
    created = create(
        client, seats=["human", "bot:greedy", "human", "open"], seed=7, options={"target": 15}, redeem=False
    )
    assert "seed" not in created and created["options"] == {"target": 15}
    assert created["seed_chosen"] is True and len(created["commitment"]) == 64
    seats = created["seats"]
    assert [s["kind"] for s in seats] == ["human", "bot:greedy", "human", "human"]
    assert [s["open"] for s in seats] == [False, False, False, True]
    assert seats[1]["token"] is None and seats[1]["join_url"] is None
    # an open seat's token is made when somebody sits down, so the creator never holds it
    assert seats[3]["token"] is None and seats[3]["join_url"] is None
    assert seats[0]["token"] != seats[2]["token"] and len(seats[0]["token"]) >= 24
    assert seats[0]["join_url"].endswith(f"/t/{created['id']}?token={seats[0]['token']}")


def test_view_of_a_seat_and_of_a_spectator(client):
    created = create(client, seed=1)
    table_id, token = created["id"], created["seats"][0]["token"]
    mine = view(client, table_id, token)
    assert mine["seq"] == 0 and mine["to_act"] == [0] and mine["seat"] == 0
    assert set(mine["legal"]) == {"r", "b", "p"}
    assert isinstance(mine["state"]["hand"], int)
    assert [i for i, _ in mine["event_text"]] == [e["i"] for e in mine["events"]]
    spectator = view(client, table_id)
    assert spectator["seat"] is None and spectator["legal"] == []
    assert spectator["state"]["hand"] is None
    assert all("private" not in e for e in spectator["events"])
    other = view(client, table_id, created["seats"][1]["token"])
    assert other["legal"] == [] and other["to_act"] == [0]
    # events since a point: only the new ones
    assert view(client, table_id, token, since=mine["event_count"])["events"] == []


def test_actions_seq_and_refusals(client):
    created = create(client, seed=2)
    table_id = created["id"]
    t0, t1 = created["seats"][0]["token"], created["seats"][1]["token"]
    response = act(client, table_id, t0, 0, "r")
    assert response.status_code == 200 and response.json() == {"seq": 1}
    stale = act(client, table_id, t0, 0, "r")
    assert stale.status_code == 409 and stale.json()["rule"] == "seq.stale"
    wrong_seat = act(client, table_id, t1, view(client, table_id)["seq"], "r")
    assert wrong_seat.status_code == 422 and wrong_seat.json()["rule"] == "turn.not_your_turn"
    seq = view(client, table_id)["seq"]
    malformed = act(client, table_id, t0, seq, "fly")
    assert malformed.status_code == 422 and malformed.json()["rule"] == "toy.notation"
    assert malformed.json()["message"]
    bad_token = act(client, table_id, "not-a-token", seq, "r")
    assert bad_token.status_code == 403 and bad_token.json()["rule"] == "seat.bad_token"
    # a token of another table holds no seat here
    other = create(client, seed=3)
    assert act(client, table_id, other["seats"][0]["token"], seq, "r").status_code == 403
    assert act(client, "nosuchtable", t0, seq, "r").status_code == 404
    assert view(client, table_id)["seq"] == seq  # nothing refused was stored


def test_action_by_number_in_the_action_space(client, toy):
    created = create(client, seed=4)
    space = list(toy.action_space(2, {}))
    response = act(client, created["id"], created["seats"][0]["token"], 0, space.index("b"))
    assert response.status_code == 200
    assert client.get(f"/api/tables/{created['id']}/record").json()["actions"] == [[0, "b"]]
    assert act(client, created["id"], created["seats"][1]["token"], 1, 999).status_code == 422


@pytest.mark.parametrize(
    "body",
    [
        b"{not json",
        b"[]",
        b'"text"',
        b"null",
        b'{"token": 5, "seq": "x", "action": []}',
        b'{"token": "t", "seq": 0}',
        b'{"token": "t", "seq": 0, "action": {"a": 1}}',
        '{"token": "\u00e9", "seq": 1e400, "action": "r"}'.encode(),
        b"\xff\xfe\x00garbage",
    ],
)
def test_malformed_bodies_are_refused_not_crashing(client, body):
    created = create(client)
    response = client.post(
        f"/api/tables/{created['id']}/actions", content=body, headers={"content-type": "application/json"}
    )
    assert response.status_code in (400, 403, 422), response.text
    assert "rule" in response.json()
    assert client.get("/healthz").status_code == 200


@pytest.mark.parametrize(
    "payload",
    [
        {"game": "nosuchgame", "seats": ["human", "human"]},
        {"game": "toyrace", "seats": []},
        {"game": "toyrace", "seats": ["human"]},
        {"game": "toyrace", "seats": ["human"] * 9},
        {"game": "toyrace", "seats": ["human", "alien"]},
        {"game": "toyrace", "seats": ["human", "bot:nosuchbot"]},
        {"game": "toyrace", "seats": ["human", "human"], "options": {"target": 1000}},
        {"game": "toyrace", "seats": ["human", "human"], "options": {"colour": "red"}},
        {"game": "toyrace", "seats": ["human", "human"], "seed": -1},
        {"game": "toyrace", "seats": ["human", "human"], "seed": 2**64},
        {"game": "toyrace", "seats": ["human", "human"], "turn_timer": 0},
        {"game": "toyrace", "seats": [1, 2]},
    ],
)
def test_bad_tables_are_refused(client, payload):
    response = client.post("/api/tables", json=payload)
    assert response.status_code == 422, response.text
    assert response.json()["rule"]


def test_oversized_bodies_get_413(client):
    created = create(client)
    big = json.dumps({"token": "x" * 70_000, "seq": 0, "action": "r"})
    response = client.post(
        f"/api/tables/{created['id']}/actions", content=big, headers={"content-type": "application/json"}
    )
    assert response.status_code == 413

    # without a Content-Length (chunked): counted as it arrives
    def chunks():
        for _ in range(20):
            yield b"x" * 8192

    response = client.post("/api/tables", content=chunks(), headers={"content-type": "application/json"})
    assert response.status_code == 413
    assert client.post("/api/replay", json={"record": {"pad": "y" * 66_000}}).status_code == 413


def test_websocket_pushes_every_change(client):
    created = create(client, seed=5)
    table_id = created["id"]
    t0 = created["seats"][0]["token"]
    with (
        client.websocket_connect(f"/ws/tables/{table_id}?token={t0}") as ws,
        client.websocket_connect(f"/ws/tables/{table_id}") as watcher,
    ):
        first = ws.receive_json()
        assert first["type"] == "view" and first["seq"] == 0 and first["legal"]
        assert watcher.receive_json()["seat"] is None
        assert act(client, table_id, t0, 0, "p").status_code == 200
        pushed = ws.receive_json()
        assert pushed["seq"] == 1 and pushed["since"] == first["event_count"]
        kinds = [e["kind"] for e in pushed["events"]]
        assert kinds == ["play", "draw"] and pushed["events"][1]["private"] == [0]
        seen = watcher.receive_json()
        assert seen["seq"] == 1 and [e["kind"] for e in seen["events"]] == ["play"]  # the draw is private
        # actions over the socket too
        ws.send_text(json.dumps({"type": "action", "seq": 1, "action": "b"}))
        replies = [ws.receive_json(), ws.receive_json()]
        assert {"type": "ack", "seq": 2} in replies
        ws.send_text(json.dumps({"type": "action", "seq": 0, "action": "b"}))
        assert ws.receive_json()["status"] == 409
        ws.send_text("{junk")
        assert ws.receive_json()["status"] == 422
    # reconnecting with ``since`` loses nothing: the events after it come first
    with client.websocket_connect(f"/ws/tables/{table_id}?token={t0}&since={first['event_count']}") as ws:
        again = ws.receive_json()
        assert again["seq"] == 2 and [e["i"] for e in again["events"]] == list(
            range(first["event_count"], again["event_count"])
        )


def test_websocket_refuses_bad_token_and_table(client):
    from starlette.websockets import WebSocketDisconnect

    created = create(client)
    with (
        pytest.raises(WebSocketDisconnect),
        client.websocket_connect(f"/ws/tables/{created['id']}?token=bad") as ws,
    ):
        ws.receive_json()
    with pytest.raises(WebSocketDisconnect), client.websocket_connect("/ws/tables/nope") as ws:
        ws.receive_json()


def test_bots_play_their_seats_and_the_record_verifies(client):
    created = create(client, seats=["bot:greedy", "bot:random", "bot:greedy"], seed=11)
    table_id = created["id"]
    final = wait_for(lambda: (v := view(client, table_id))["over"] and v)
    assert final["result"]["winners"] and final["status"] == "finished"
    record = Record.from_json(client.get(f"/api/tables/{table_id}/record").json())
    assert len(record.actions) == final["seq"] and verify(record) == []
    listed = client.get("/api/tables", params={"status": "finished"}).json()["tables"]
    assert table_id in [t["id"] for t in listed]


def test_human_against_bot_table(client):
    created = create(client, seats=["human", "bot:greedy"], seed=12)
    table_id, token = created["id"], created["seats"][0]["token"]
    for _ in range(400):
        payload = view(client, table_id, token)
        if payload["over"]:
            break
        if payload["legal"]:
            choice = (
                "b"
                if "b" in payload["legal"] and payload["state"]["turn_total"] >= 4
                else payload["legal"][0]
            )
            assert act(client, table_id, token, payload["seq"], choice).status_code in (200, 409)
        else:
            time.sleep(0.01)
    assert view(client, table_id)["over"]
    record = client.get(f"/api/tables/{table_id}/record").json()
    assert {seat for seat, _ in record["actions"]} == {0, 1}


def test_lists_open_running_finished(client):
    open_table = create(client, seats=["human", "open"], redeem=False)
    running = create(client, seats=["human", "human"], redeem=False)
    for seat, name in zip(running["seats"], ("  Ada   L. ", "Bo"), strict=True):
        assert (
            client.post(
                f"/api/tables/{running['id']}/join", json={"token": seat["token"], "name": name}
            ).status_code
            == 200
        )
    lists = client.get("/api/tables").json()
    assert open_table["id"] in [t["id"] for t in lists["open"]]
    entry = next(t for t in lists["running"] if t["id"] == running["id"])
    assert entry["seats"][0]["name"] == "Ada L." and "token" not in json.dumps(entry)
    # sitting down at a free seat of an open table hands out its token once
    sat = client.post(f"/api/tables/{open_table['id']}/sit", json={"seat": 1, "name": "Bo"})
    assert sat.status_code == 200 and len(sat.json()["token"]) >= 24
    assert client.post(f"/api/tables/{open_table['id']}/sit", json={"seat": 1}).status_code == 409
    # the seat kept for a join link cannot be taken from the lobby
    refused = client.post(f"/api/tables/{open_table['id']}/sit", json={"seat": 0})
    assert refused.status_code == 409 and refused.json()["rule"] == "seat.reserved"
    assert open_table["id"] in [t["id"] for t in client.get("/api/tables").json()["running"]]


def test_seq_race_exactly_one_wins(client):
    created = create(client, seed=21)
    table_id, token = created["id"], created["seats"][0]["token"]
    for round_ in range(3):
        seq = view(client, table_id)["seq"]
        legal = view(client, table_id, token)["legal"]
        if not legal:
            break
        barrier = threading.Barrier(8)
        codes = []

        def send(barrier=barrier, seq=seq, legal=legal, codes=codes):
            barrier.wait()
            codes.append(act(client, table_id, token, seq, legal[0]).status_code)

        threads = [threading.Thread(target=send) for _ in range(8)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        assert sorted(codes) == [200] + [409] * 7, (round_, codes)
        assert view(client, table_id)["seq"] == seq + 1


def test_seq_race_between_two_servers_on_one_database(sqlite_url):
    """Two server processes' table services on the same database: the store lets one move in."""
    from tabletown.web import db
    from tabletown.web.tables import TableError, TableService

    engine = db.make_engine(sqlite_url)
    db.migrate(engine)
    first = TableService(db.session_factory(engine))
    table = first.create("toyrace", {}, ["human", "human"], 9)
    first.touch(table, table.seats[0].token)  # seat 0's player redeems the invitation
    second = TableService(db.session_factory(db.make_engine(sqlite_url)))
    twin = second.get(table.id)
    assert twin is not table
    token = table.seats[0].token
    results = []
    barrier = threading.Barrier(2)

    def go(service, tab):
        barrier.wait()
        try:
            results.append(service.act(tab, token, 0, "r"))
        except TableError as exc:
            results.append(exc.status)

    threads = [threading.Thread(target=go, args=args) for args in ((first, table), (second, twin))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(results) == [1, 409]
    # the loser learnt the winner's move from the database: both know the same position now
    assert table.seq == twin.seq == 1 and table.actions == twin.actions
    assert table.state.to_json() == twin.state.to_json()


def test_turn_timer_stands_a_bot_in_until_the_player_returns(client):
    created = create(client, seats=["human", "human"], seed=31, turn_timer=1)
    table_id, t0 = created["id"], created["seats"][0]["token"]
    payload = view(client, table_id, t0)
    assert payload["turn_deadline"]["0"] <= 1
    moved = wait_for(lambda: (v := view(client, table_id))["seq"] > 0 and v, timeout=8)
    assert moved["seats"][0]["away"]
    back = client.post(f"/api/tables/{table_id}/join", json={"token": t0})
    assert back.status_code == 200 and back.json()["away"] is False


def test_replays_of_finished_and_running_tables(client):
    done = create(client, seats=["bot:greedy", "bot:greedy"], seed=41)
    wait_for(lambda: view(client, done["id"])["over"])
    record = client.get(f"/api/tables/{done['id']}/record").json()
    steps = len(record["actions"])
    state = Record.from_json(record).initial_state()
    for index, (seat, text) in enumerate(record["actions"][:5]):
        state.apply_text(seat, text)
        response = client.get(f"/api/tables/{done['id']}/replay", params={"step": index + 1, "seat": 1})
        assert strip(response.json())["state"] == state.view(1)["state"]
    last = client.get(f"/api/tables/{done['id']}/replay", params={"step": steps + 50}).json()
    assert last["step"] == steps and last["over"]
    assert client.get(f"/api/tables/{done['id']}/replay", params={"step": 0}).json()["seq"] == 0
    # a running table: only the spectator's view, or your own seat's with its token
    running = create(client, seed=42)
    assert client.get(f"/api/tables/{running['id']}/replay", params={"seat": 1}).status_code == 403
    token = running["seats"][1]["token"]
    assert (
        client.get(f"/api/tables/{running['id']}/replay", params={"seat": 1, "token": token}).status_code
        == 200
    )
    assert client.get(f"/api/tables/{running['id']}/replay").status_code == 200
    # an uploaded record
    uploaded = client.post("/api/replay", json={"record": record, "step": 3, "seat": 0})
    assert uploaded.status_code == 200 and uploaded.json()["steps"] == steps
    broken = dict(record, actions=[[0, "fly"]])
    assert client.post("/api/replay", json={"record": broken, "step": 1}).status_code == 422
    assert client.post("/api/replay", json={"record": {"game": "toyrace"}}).status_code == 422
    download = client.get(f"/api/tables/{done['id']}/record", params={"download": "true"})
    assert "attachment" in download.headers["content-disposition"]


def test_pages_and_static_files(client):
    created = create(client, seats=["human", "human"])
    table_id, t0, t1 = created["id"], created["seats"][0]["token"], created["seats"][1]["token"]
    lobby = client.get("/")
    assert lobby.status_code == 200 and "Tabletown" in lobby.text
    first = client.get(f"/t/{table_id}?token={t0}", follow_redirects=False)
    assert first.status_code == 303 and first.headers["location"] == f"/t/{table_id}"
    client.cookies.set(f"tt_{table_id}", t0)
    second = client.get(f"/t/{table_id}?token={t1}", follow_redirects=False)
    assert t0 in second.cookies.get(f"tt_{table_id}") and t1 in second.cookies.get(f"tt_{table_id}")
    client.cookies.set(f"tt_{table_id}", f"{t0},{t1}")
    page = client.get(f"/t/{table_id}")
    # the page names the seats it holds; the tokens stay in the HttpOnly cookie
    assert page.status_code == 200 and t0 not in page.text and t1 not in page.text
    assert '"held": [{"seat": 0}, {"seat": 1}]' in page.text
    client.cookies.clear()
    spectator = client.get(f"/t/{table_id}")
    assert spectator.status_code == 200 and t0 not in spectator.text
    assert client.get(f"/t/{table_id}?token=bad", follow_redirects=False).status_code == 403
    assert client.get(f"/t/{table_id}/replay").status_code == 200
    assert client.get("/replay").status_code == 200
    for path in ("/static/app.css", "/static/tabletown.js", "/static/boards/generic.js"):
        assert client.get(path).status_code == 200, path
    assert client.get("/api/games").json()["games"]
    assert client.get("/openapi.json").status_code == 200


def test_each_board_is_served_from_its_own_folder(client):
    """web/boards/<game>/ holds a board's scripts (board.js and its parts), styles, markup and words;
    the page links the scripts (board.js last, deferred, so in order) and the styles at /boards/<game>/
    and nothing else in the folder is served."""
    from tabletown.core.registry import all_games

    with_parts = set()
    for name in all_games():
        if name == "toyrace":
            continue
        page = client.get(f"/replay?game={name}")
        scripts = re.findall(rf'<script src="(/boards/{name}/[^"]+)" defer></script>', page.text)
        assert scripts and scripts[-1] == f"/boards/{name}/board.js", (name, scripts)
        assert scripts[:-1] == sorted(scripts[:-1]), scripts
        assert f'href="/boards/{name}/board.css"' in page.text, name
        script = client.get(f"/boards/{name}/board.js")
        assert script.status_code == 200 and f'registerBoard("{name}"' in script.text
        assert script.headers["content-type"].startswith("text/javascript")
        assert client.get(f"/boards/{name}/board.css").headers["content-type"].startswith("text/css")
        for src in scripts[:-1]:  # a part script registers itself for board.js to read
            part = client.get(src)
            assert part.status_code == 200 and f'boardPart("{name}"' in part.text, src
            assert part.headers["content-type"].startswith("text/javascript")
            with_parts.add(name)
        for asset in ("__init__.py", "board.html", "../app.py", "%2e%2e%2fapp.py", "a.b.js", "none.js"):
            assert client.get(f"/boards/{name}/{asset}").status_code == 404, asset
    assert {"newlasvegas", "lordsofvegas", "multicity"} <= with_parts
    assert client.get("/boards/..%2Fstatic/board.js").status_code == 404
    assert client.get("/boards/newlasvegas/..%2Fmulticity%2Fboard.js").status_code == 404


def test_the_lobby_names_each_bot_level_as_a_table_does(client):
    """The lobby's seat choices read like the seats at a table ("Search hard bot"), in the page's
    language, not as the level's id ("search:hard")."""
    games = {g["name"]: g for g in client.get("/api/games").json()["games"]}
    machikoro = games["machikoro"]
    assert set(machikoro["bot_labels"]) == set(machikoro["bots"])
    assert machikoro["bot_labels"]["search:hard"] == "Search hard bot"
    assert machikoro["bot_labels"]["expert"] == "Expert bot"
    polish = {g["name"]: g for g in client.get("/api/games", params={"lang": "pl"}).json()["games"]}
    assert polish["machikoro"]["bot_labels"]["expert"] == "Bot ekspert"


def test_the_lobby_words_every_option_and_choice_in_the_page_language(client):
    """A form shows an option by its words ("City Hall", "1 coin every turn"), in the page's
    language; the ids (``city_hall``, ``every_turn``) stay what a new table's options take."""
    for lang, city_hall, every_turn in (
        ("en", "City Hall", "1 coin every turn"),
        ("de", "Rathaus", "1 Münze in jedem Zug"),
    ):
        games = {g["name"]: g for g in client.get("/api/games", params={"lang": lang}).json()["games"]}
        option = next(o for o in games["machikoro"]["options"] if o["name"] == "city_hall")
        assert option["label"] == city_hall
        assert option["choices"] == ["broke", "every_turn"]
        assert option["choice_labels"][1] == every_turn
    for game in games.values():
        for option in game["options"]:
            assert option["label"] and "_" not in option["label"], (game["name"], option["name"])
            if option["choices"] is not None:
                assert len(option["choice_labels"]) == len(option["choices"])
    # a choice's words are for reading only: the id creates the table
    created = client.post(
        "/api/tables",
        json={
            "game": "machikoro",
            "seats": ["bot:random", "bot:random"],
            "options": {"city_hall": "every_turn"},
        },
    )
    assert created.status_code == 201, created.text
