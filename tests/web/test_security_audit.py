"""Holes found by the security audit, each checked from the outside: a seat spec that opened server
files, a cross-origin WebSocket riding the seat cookie, seat tokens in the WebSocket handshake log,
an event count that crashed the answer, a broken table whose error quoted a secret move, and (third
audit) post-game analyses anyone could queue without end, for games of any length, run twice over."""

from __future__ import annotations

import json
import logging
import time

import pytest
import web_toygame as toygame
from starlette.websockets import WebSocketDisconnect
from web_helpers import create, redeem_invitation, wait_for

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
    client.cookies.set(f"__Host-tt_{table_id}", token)  # host-only over https (security audit 27)
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


# -- the second audit (2026-11-28) -------------------------------------------------------------------------------------
def test_bot_only_tables_are_counted_however_the_seats_are_written(make_client, sqlite_url):
    from tabletown.web.limits import Limits

    client = make_client(sqlite_url, limits=Limits(bot_tables_per_address=1, bot_tables=4))
    first = client.post("/api/tables", json={"game": "toyrace", "seats": ["bot:random", "bot:random"]})
    assert first.status_code == 201
    for seats in (["BOT:random", " bot:random"], ["Bot", "bot:Random "], ["bot:random", "BOT"]):
        answer = client.post("/api/tables", json={"game": "toyrace", "seats": seats})
        assert answer.status_code == 429 and answer.json()["rule"] == "limit.bot_tables", seats
    # a table with a person at it is not a bot-only table
    assert client.post("/api/tables", json={"game": "toyrace", "seats": ["Human", "BOT"]}).status_code == 201


def test_a_seat_nobody_took_is_not_handed_to_a_standby_bot(client):
    """A turn timer runs for a player who arrived; a human seat never joined just waits, so a table
    of one bot and an empty seat with a short timer is not a bot-only table in disguise."""
    import time

    created = create(client, seats=["human", "bot:random"], seed=5, turn_timer=1, redeem=False)
    svc = client.app.state.service
    table = svc.get(created["id"])
    with table.lock:
        for seat in table.turn_since:
            table.turn_since[seat] = time.monotonic() - 60  # long past the timer
    svc.expire_timers(table)
    assert not table.seats[0].away and table.seq == 0
    # once its player has shown up, the timer applies
    redeem_invitation(client, created["id"], created["seats"][0]["token"])
    with table.lock:
        for seat in table.turn_since:
            table.turn_since[seat] = time.monotonic() - 60
    svc.expire_timers(table)
    assert table.seats[0].away


@pytest.mark.parametrize("token", ["é", "\u00ff" * 20, "token-\u2603"])
def test_a_token_that_is_not_ascii_is_refused_not_a_crash(client, token):
    created = create(client, seed=8)
    table_id = created["id"]
    answers = [
        client.get(f"/api/tables/{table_id}", params={"token": token}),
        client.get(f"/api/tables/{table_id}/replay", params={"seat": 0, "token": token}),
        client.post(f"/api/tables/{table_id}/join", json={"token": token}),
        client.post(f"/api/tables/{table_id}/actions", json={"token": token, "action": "roll", "seq": 0}),
        client.get(f"/api/tables/{table_id}", headers={"authorization": f"Bearer {token}".encode()}),
    ]
    assert [a.status_code for a in answers] == [403] * len(answers), [a.text for a in answers]


@pytest.mark.parametrize("field", ["seats", "seed", "actions", "game"])
def test_an_uploaded_record_with_an_unpaired_surrogate_is_refused(client, field):
    done = create(client, seats=["bot:random", "bot:random"], seed=4)
    from web_helpers import wait_for

    wait_for(lambda: client.get(f"/api/tables/{done['id']}").json()["over"])
    record = client.get(f"/api/tables/{done['id']}/record").json()
    record[field] = "\ud800"
    body = json.dumps({"record": record, "step": 1})  # json.dumps writes the surrogate as \\ud800
    answer = client.post("/api/replay", content=body, headers={"content-type": "application/json"})
    assert answer.status_code == 422, answer.text
    assert "\\ud800" in answer.json()["message"] or field == "game"


def test_a_player_cannot_take_another_seats_name(client):
    created = create(client, seats=["human", "human", "bot:random"], seed=6)
    table_id, (t0, t1) = created["id"], [s["token"] for s in created["seats"][:2]]
    # what another seat is called while it has no name, in any language ("Gracz 1": Polish)
    for name in ("Player 1", "player 1", "Gracz 1", "Random bot"):
        answer = client.post(f"/api/tables/{table_id}/join", json={"token": t1, "name": name})
        assert answer.status_code == 409 and answer.json()["rule"] == "name.taken", name
    assert client.post(f"/api/tables/{table_id}/join", json={"token": t0, "name": "Alice"}).status_code == 200
    for name in ("Alice", "alice", "ALICE"):
        answer = client.post(f"/api/tables/{table_id}/join", json={"token": t1, "name": name})
        assert answer.status_code == 409 and answer.json()["rule"] == "name.taken", name
    assert client.post(f"/api/tables/{table_id}/join", json={"token": t1, "name": "Bob"}).status_code == 200
    # a seat keeps its own name, and its own default label is its own
    assert client.post(f"/api/tables/{table_id}/join", json={"token": t0, "name": "Alice"}).status_code == 200
    # names given at creation must differ too
    twice = client.post(
        "/api/tables", json={"game": "toyrace", "seats": ["human", "human"], "names": ["Ann", "ann"]}
    )
    assert twice.status_code == 409 and twice.json()["rule"] == "name.taken"


def test_abandoned_tables_leave_memory_and_a_restart_skips_them(make_client, sqlite_url, monkeypatch):
    from datetime import timedelta

    from tabletown.web import tables as tables_module

    client = make_client(sqlite_url)
    svc = client.app.state.service
    monkeypatch.setattr(tables_module, "MAX_IN_MEMORY", 6)
    monkeypatch.setattr(tables_module, "IDLE_EVICTION", timedelta(0))
    quiet = [create(client, seed=100 + i)["id"] for i in range(8)]
    driven = create(client, seats=["human", "bot:random"], seed=99)["id"]
    with svc.lock:
        kept = set(svc.tables)
    assert len(kept) <= 6 and driven in kept, "idle human-only tables were not forgotten"
    forgotten = [t for t in quiet if t not in kept]
    assert forgotten
    # a forgotten table is still there: loaded again when someone opens it
    assert client.get(f"/api/tables/{forgotten[0]}").json()["seq"] == 0
    # a restart rebuilds only the tables that need a driver (bots, timers) and were not left long
    # ago by their people (here: none is older than the usual ten minutes)
    monkeypatch.setattr(tables_module, "IDLE_EVICTION", timedelta(minutes=10))
    assert {t.id for t in svc.load_unfinished()} == {driven}


# -- the third audit: post-game analyses (2026-11-29) ------------------------------------------------------------------
@pytest.fixture
def toys_analysable(monkeypatch):
    """No win-chance model ships for the toy game; these tests need its quick tables analysable."""
    from tabletown.web import analyses

    monkeypatch.setattr(analyses, "analysable", lambda table: True)


def finished_toy_tables(client, count):
    """``count`` finished toy tables made by other people (straight through the service, so the
    asking client's own table limits do not apply), the app's analyst stopped so none is taken."""
    from web_helpers import wait_for

    client.portal.call(client.app.state.analyst.stop)
    svc = client.app.state.service
    ids = [
        svc.create("toyrace", None, ["bot:random", "bot:random"], None, None, None).id for _ in range(count)
    ]
    wait_for(lambda: all(svc.get(i).status == "finished" for i in ids), timeout=60)
    return ids


def test_one_address_cannot_queue_analyses_without_end(make_client, sqlite_url, toys_analysable):
    """Anyone may ask for the analysis of any finished table (the lobby lists them), each costs up to
    minutes of a core and they were made one at a time, oldest first: one client could queue every
    finished table on the server and keep everybody else's analysis waiting for days."""
    from tabletown.web.limits import Limits

    # (the bound on one address's waiting analyses, audit 33, has a test of its own)
    client = make_client(sqlite_url, limits=Limits(analyses_queued_per_address=0))
    ids = finished_toy_tables(client, 12)
    answers = [client.post(f"/api/tables/{i}/analysis") for i in ids]
    burst = Limits().analyses_burst
    assert [a.status_code for a in answers] == [202] * burst + [429] * (len(ids) - burst)
    assert answers[-1].json()["rule"] == "limit.analyses" and int(answers[-1].headers["retry-after"]) > 0
    # asking again for one already queued costs nothing and answers where it stands
    assert client.post(f"/api/tables/{ids[0]}/analysis").json()["status"] == "pending"
    assert client.get(f"/api/tables/{ids[-1]}/analysis").json()["status"] == "none"


def test_the_analysis_queue_is_bounded_for_everyone(make_client, sqlite_url, toys_analysable):
    from tabletown.web.limits import Limits

    client = make_client(sqlite_url, limits=Limits(analyses_per_hour=0, analyses_queued=3))
    ids = finished_toy_tables(client, 4)
    answers = [client.post(f"/api/tables/{i}/analysis") for i in ids]
    assert [a.status_code for a in answers] == [202, 202, 202, 429]
    assert answers[-1].json()["rule"] == "limit.analysis_queue"


@pytest.mark.parametrize("database", ["sqlite", "postgresql"])
def test_simultaneous_requests_cannot_all_pass_the_queue_count(
    make_client, request, monkeypatch, toys_analysable, database
):
    """The queue's bound was counted, then added to: requests arriving together all counted the same
    queue and all got in. Now counting and adding happen under one lock: in PostgreSQL an advisory
    lock, which holds across processes (so there the process's own lock is taken away)."""
    import contextlib
    import threading
    import time

    from tabletown.web import analyses
    from tabletown.web.tables import TableError

    if database == "postgresql":
        url = request.getfixturevalue("pg_url")
        monkeypatch.setattr(analyses, "_QUEUE_LOCK", contextlib.nullcontext())
    else:
        url = request.getfixturevalue("sqlite_url")
    client = make_client(url)
    svc = client.app.state.service
    ids = finished_toy_tables(client, 6)

    def admit(waiting: int, mine: int) -> None:
        if waiting >= 1:
            raise TableError(429, "limit.analysis_queue", "full")
        time.sleep(0.05)  # the window in which the others counted the same queue

    refused: list[str] = []

    def ask(table_id: str) -> None:
        try:
            analyses.ask(svc, svc.get(table_id), admit)
        except TableError as exc:
            refused.append(exc.rule)

    threads = [threading.Thread(target=ask, args=(i,)) for i in ids]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    with svc.sessions() as session:
        assert analyses.queued(session) == 1
    assert refused == ["limit.analysis_queue"] * (len(ids) - 1)


def test_a_game_stalled_to_any_length_is_not_analysed(client, monkeypatch, toys_analysable):
    """How long a game lasts is the players' choice (Machi Koro never ends while both seats pass,
    toyrace while they bank nothing), and an analysis's time and size grow with it: two seats could
    make one game an analysis of hours. Past ``MAX_ACTIONS`` moves (here made small) it is refused."""
    from tabletown.web import analyses

    monkeypatch.setattr(analyses, "MAX_ACTIONS", 40, raising=False)
    client.portal.call(client.app.state.analyst.stop)
    svc = client.app.state.service

    def play(stall):
        created = create(client)
        table, tokens = svc.get(created["id"]), [s["token"] for s in created["seats"]]
        while table.status != "finished":
            state = table.state
            if state.phase == "bet":
                move = "bet0"
            else:  # bank nothing while stalling, then race to the target
                move = "b" if table.seq < stall or state.turn_total >= 6 else "r"
            svc.act(table, tokens[state.to_act[0]], table.seq, move)
        return table

    long = play(stall=60)
    refused = client.post(f"/api/tables/{long.id}/analysis")
    assert refused.status_code == 409 and refused.json()["rule"] == "analysis.too_long", refused.text
    answer = client.get(f"/api/tables/{long.id}/analysis").json()
    assert answer["status"] == "unavailable" and answer["rule"] == "analysis.too_long"
    short = play(stall=0)
    assert short.seq <= 40, short.seq
    assert client.post(f"/api/tables/{short.id}/analysis").status_code == 202


def test_an_analysis_still_at_work_is_not_taken_over(client, monkeypatch, toys_analysable):
    """The claim on an analysis was renewed only by the child's progress writes, at most once an
    action: a niced child on a busy machine (or a long Multicity decision) went quiet for longer than
    the lease, another process took the analysis over while the first still worked, and each
    analysis then ran as many times as there were bot workers. The owner now renews its claim."""
    import time
    from concurrent.futures import ThreadPoolExecutor
    from datetime import timedelta

    from tabletown.web import analyses

    (table_id,) = finished_toy_tables(client, 1)
    monkeypatch.setattr(analyses, "LEASE", timedelta(seconds=0.4))
    # the child's work, in a thread here: 2.5 s without a progress write
    monkeypatch.setattr(analyses, "run_analysis", lambda *args: (time.sleep(2.5), '{"curve": []}')[1])
    monkeypatch.setattr(analyses.Analyst, "_executor", lambda self: ThreadPoolExecutor(1))
    svc = client.app.state.service
    owner = analyses.Analyst(svc, client.app.state.analyst.db_url)
    assert client.post(f"/api/tables/{table_id}/analysis").status_code == 202
    client.portal.call(owner.start)
    try:
        from web_helpers import wait_for

        url = f"/api/tables/{table_id}/analysis"
        wait_for(lambda: client.get(url).json()["status"] == "running")
        time.sleep(1.2)  # three leases
        assert analyses.claim(svc, "another-process") is None
        done = wait_for(lambda: (a := client.get(url).json())["status"] in ("done", "failed") and a)
        assert done["status"] == "done" and done["analysis"] == {"curve": []}
    finally:
        client.portal.call(owner.stop)


def test_a_set_up_without_a_model_is_refused_when_asked(client):
    """Without a shipped win-chance model an analysis plays every candidate out to the end (minutes a
    game): the server refuses it when asked rather than queueing work that can only fail."""
    (table_id,) = finished_toy_tables(client, 1)
    refused = client.post(f"/api/tables/{table_id}/analysis")
    assert refused.status_code == 409 and refused.json()["rule"] == "analysis.no_model", refused.text
    # and the page learns it without asking: nothing is queued, no refusal in its console
    answer = client.get(f"/api/tables/{table_id}/analysis").json()
    assert answer["status"] == "unavailable" and answer["rule"] == "analysis.no_model"


def test_a_table_every_player_left_waits_for_them_instead_of_playing_itself(client):
    """Security audit F1: one human seat with a one-second timer, visited once, then left. The
    standby bot would play that seat for ever: a bot-only table in all but name, which the limit on
    those never counted. With nobody left at the table it waits; a player coming back wakes it."""
    created = create(client, seats=["human", "bot:random"], seed=5, turn_timer=1)
    table_id, token = created["id"], created["seats"][0]["token"]
    table = client.app.state.service.get(table_id)
    # the timer runs out (the drivers mark the seat away), and the table then stops at its turn
    wait_for(lambda: table.seats[0].away and 0 in table.state.to_act, timeout=15)
    stopped_at = table.seq
    assert client.app.state.service.auto_seat(table) is None
    time.sleep(1.5)  # the standby bot would have moved many times by now
    assert table.seq == stopped_at and not table.over
    back = client.post(f"/api/tables/{table_id}/join", json={"token": token, "back": True})
    assert back.status_code == 200 and not table.seats[0].away
    legal = client.get(f"/api/tables/{table_id}", params={"token": token}).json()["legal"]
    moved = client.post(
        f"/api/tables/{table_id}/actions", json={"token": token, "seq": stopped_at, "action": legal[0]}
    )
    assert moved.status_code == 200, moved.text


def test_with_somebody_still_at_the_table_the_standby_bot_plays_the_seat_that_left(make_client, sqlite_url):
    client = make_client(sqlite_url)
    created = create(client, seats=["human", "human"], seed=5, turn_timer=30)
    svc = client.app.state.service
    table = svc.get(created["id"])
    mover = table.state.to_act[0]
    with table.lock:
        table.turn_since[mover] = time.monotonic() - 60
    svc.expire_timers(table)
    assert table.seats[mover].away and not table.seats[1 - mover].away
    assert svc.auto_seat(table) == (mover, svc.standby_name(table.game))
