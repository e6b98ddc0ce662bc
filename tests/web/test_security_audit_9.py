"""The ninth security audit (the table WebSocket, chat, listings, records; 2026-12-05): a socket
that stops reading made the server keep every push, and one address's chat allowance grew with the
seats it created. Each is checked from the outside, the socket against a real uvicorn server."""

from __future__ import annotations

import collections
import gc
import socket
import time
from datetime import timedelta

import pytest
from web_helpers import create, uvicorn_in_thread, wait_for

from tabletown.web.limits import Limits


def bearer(token):
    return {"authorization": f"Bearer {token}"}


# -- helpers: a real server (uvicorn) in a thread, and a WebSocket client that stops reading --------------------
def stalled_socket(port, path):
    """A WebSocket handshake on a raw TCP socket with a tiny receive buffer; the caller never reads
    from it again (a client that stopped reading, but keeps the connection open)."""
    sock = socket.socket()
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    sock.connect(("127.0.0.1", port))
    sock.sendall(
        (
            f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nUpgrade: websocket\r\n"
            "Connection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
            "Sec-WebSocket-Version: 13\r\n\r\n"
        ).encode()
    )
    assert sock.recv(12) == b"HTTP/1.1 101"
    return sock


def pushes_held_in_memory() -> int:
    """Characters of WebSocket messages ('{"type":...') the server holds, not yet sent, in queues,
    deques or lists of this process (whatever structure a socket keeps its outgoing messages in)."""
    total = 0
    for obj in gc.get_objects():  # (an asyncio.Queue keeps its items in a deque)
        if not isinstance(obj, (collections.deque, list)):
            continue
        items = list(obj)
        total += sum(len(i) for i in items if isinstance(i, str) and i.startswith('{"type":'))
    return total


def pass_forever(svc, table, tokens, moves):
    """Machi Koro for ever, straight through the service: each seat to act rolls, then builds nothing."""
    for _ in range(moves):
        seat = table.state.to_act[0]
        legal = svc.payload(table, seat, 999_999_999)["legal"]
        move = "pass" if "pass" in legal else ("roll" if "roll" in legal else legal[-1])
        svc.act(table, tokens[seat], table.seq, move)
        time.sleep(0.001)  # let the fan-out thread push each move (as with moves made by people)


def test_a_socket_that_stops_reading_does_not_make_the_server_keep_every_push(sqlite_url):
    """``serve_socket`` puts every push (a whole view per move, every chat line) in an unbounded
    ``asyncio.Queue``; once the client stops reading, the send blocks (the transport is paused)
    and the queue only grows. uvicorn's keepalive does not save it either: its ping-timeout close
    waits for the transport's buffer to drain, which never happens, so the socket, its queue and
    its slots are held as long as the client keeps the TCP connection open, and grow with every
    move and chat line at the table. Here one spectator socket that stopped reading makes the
    server hold megabytes after 2,500 moves of a four-seat table (about 4 KB a move), and it still
    holds them once the game has gone quiet."""
    from tabletown.web.app import create_app

    app = create_app(sqlite_url, limits=Limits.off())
    with uvicorn_in_thread(app, timeout_graceful_shutdown=2) as port:
        import httpx

        with httpx.Client(base_url=f"http://127.0.0.1:{port}", timeout=30) as http:
            created = create(
                http, game="machikoro", seats=["human"] * 4, names=["A" * 40, "B" * 40, "C" * 40, "D" * 40]
            )
        svc = app.state.service
        table = svc.get(created["id"])
        tokens = [s["token"] for s in created["seats"]]
        sock = stalled_socket(port, f"/ws/tables/{table.id}")  # a spectator, who never reads
        try:
            end = time.monotonic() + 10
            while not table.subscribers:
                assert time.monotonic() < end
                time.sleep(0.02)
            pass_forever(svc, table, tokens, 2500)
            time.sleep(1.0)
            held = pushes_held_in_memory()
            still_open = any(not s.closed for s in table.subscribers)
        finally:
            sock.close()
    assert held < 1_000_000 or not still_open, (
        f"one spectator socket that stopped reading makes the server hold {held:,} characters of "
        "unsent pushes (and the socket stays open)"
    )


def test_one_address_cannot_flood_chat_through_the_seats_of_its_own_tables(make_client, sqlite_url):
    """Chat was limited per seat, and seats are free to make: three 12-seat tables gave one address
    180 messages in one burst. The address's seats now share one allowance too (60 a minute,
    bursts of 20), while each seat keeps its own (20 a minute, bursts of 5)."""
    client = make_client(sqlite_url, limits=Limits())  # the real limits
    answers = []
    for _ in range(3):
        created = create(client, game="newlasvegas", seats=["human"] * 12)
        for seat in created["seats"]:
            for n in range(5):
                answers.append(
                    client.post(
                        f"/api/tables/{created['id']}/chat",
                        json={"text": f"flood {n}"},
                        headers=bearer(seat["token"]),
                    )
                )
    stored = [a for a in answers if a.status_code == 200]
    assert 20 <= len(stored) <= 60  # the burst, and what refilled meanwhile (a second each)
    refused = [a for a in answers if a.status_code != 200]
    assert all(a.status_code == 429 and a.json()["rule"] == "limit.chat" for a in refused)


# -- tables left waiting for their people ------------------------------------------------------------------------
@pytest.fixture
def crowded(monkeypatch):
    """A process that keeps at most 6 tables in memory and finds any table idle at once."""
    from tabletown.web import tables as tables_module

    monkeypatch.setattr(tables_module, "MAX_IN_MEMORY", 6)
    monkeypatch.setattr(tables_module, "IDLE_EVICTION", timedelta(0))


@pytest.mark.parametrize("seats", [["human", "human"], ["human", "bot:random"]])
def test_abandoned_tables_with_a_timer_or_a_bot_do_not_pile_up_in_memory(
    make_client, sqlite_url, crowded, seats
):
    """Tables with a turn timer or a bot were never forgotten while unfinished, and one whose people
    never come never finishes: 30 new ones a minute stayed in memory for good, each with its driver
    (and, with a bot, in the limit's own list). Now an idle table that waits for its people is
    forgotten like any other, and its driver stopped."""
    client = make_client(sqlite_url, limits=Limits(bot_games_per_address=100))
    svc, drivers = client.app.state.service, client.app.state.drivers
    made = []
    for _ in range(20):
        answer = client.post("/api/tables", json={"game": "machikoro", "seats": seats, "turn_timer": 60})
        assert answer.status_code == 201, answer.text
        made.append(answer.json()["id"])
    with svc.lock:
        kept = [t for t in made if t in svc.tables]
    assert len(kept) <= 6
    wait_for(lambda: all(t in kept for t in drivers.tasks))  # the forgotten tables' drivers stopped
    gc.collect()
    guard = client.app.state.guard
    assert sum(len(items) for items in guard.bot_games.items.values()) <= 6


def test_a_forgotten_table_plays_on_when_its_player_comes_back(make_client, sqlite_url, crowded):
    """A table against a bot that was forgotten while it waited for its player is loaded again by
    the player's move, and its bot answers: the driver starts again with the table."""
    client = make_client(sqlite_url)
    created = create(client, game="toyrace", seats=["human", "bot:random"], seed=4)
    table_id, token = created["id"], created["seats"][0]["token"]
    svc = client.app.state.service
    wait_for(lambda: svc.get(table_id).state.to_act == (0,))
    for _ in range(8):  # other tables push it out of memory
        create(client, seats=["human", "human"])
    with svc.lock:
        assert table_id not in svc.tables
    view = client.get(f"/api/tables/{table_id}", headers=bearer(token)).json()
    moved = client.post(
        f"/api/tables/{table_id}/actions",
        json={"seq": view["seq"], "action": view["legal"][0]},
        headers=bearer(token),
    )
    assert moved.status_code == 200, moved.text
    table = svc.get(table_id)
    wait_for(lambda: table.seq >= view["seq"] + 2 or table.over)  # the bot moved after the player
    assert table.actions[view["seq"] + 1][0] == 1 or table.over
