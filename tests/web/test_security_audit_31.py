"""Security audit 31 (2026-12-07): what a request costs before anything refuses it. A name or chat
message of combining marks was NFC-normalized before its length was checked (quadratic: 31,000 marks
held the GIL for three seconds, on a spectator's chat before any allowance); uvicorn's httptools
parser bounds no request head (a header that never ends grew the server by hundreds of megabytes);
a board file's name past the file system's limit answered 500."""

from __future__ import annotations

import contextlib
import dataclasses
import socket
import unicodedata

import pytest
from web_helpers import create, uvicorn_in_thread

from tabletown.web import chat, live
from tabletown.web.limits import Limits
from tabletown.web.protocols import MAX_HEAD, BoundedHttpToolsProtocol

MARKS = "a" + "".join(chr(0x0345 - i % 2) for i in range(31_000))  # combining marks, worst order for NFC


@pytest.fixture
def normalize_watch(monkeypatch):
    """Every string longer than 1,000 characters that the web code hands to unicodedata.normalize."""
    long_inputs: list[int] = []
    real = unicodedata.normalize

    def watched(form, text):
        if len(text) > 1_000:
            long_inputs.append(len(text))
        return real(form, text)

    monkeypatch.setattr(live.unicodedata, "normalize", watched)
    monkeypatch.setattr(chat.unicodedata, "normalize", watched)
    return long_inputs


def test_long_names_and_messages_are_refused_before_they_are_normalized(client, normalize_watch):
    table = create(client, seats=["human", "open"], redeem=False)
    tid, token = table["id"], table["seats"][0]["token"]
    seated = create(client)  # invitations redeemed: its first token speaks for seat 0
    attempts = [
        (f"/api/tables/{tid}/join", {"token": token, "name": MARKS}, "name.invalid"),
        (f"/api/tables/{tid}/sit", {"seat": 1, "name": MARKS}, "name.invalid"),
        ("/api/tables", {"game": "toyrace", "seats": ["human", "human"], "names": [MARKS]}, "name.invalid"),
        (f"/api/tables/{tid}/chat", {"text": "hi", "name": MARKS}, "name.invalid"),
        (
            f"/api/tables/{seated['id']}/chat",
            {"text": MARKS, "token": seated["seats"][0]["token"]},
            "chat.invalid",
        ),
    ]
    for path, body, rule in attempts:
        answer = client.post(path, json=body)
        assert answer.status_code == 422, (path, answer.text)
        assert answer.json()["rule"] == rule
    assert normalize_watch == []
    # Names and messages at their limits, written with decomposed letters, still pass.
    decomposed = "e\u0301" * 40  # 80 characters before NFC, 40 after
    assert live.valid_name(decomposed) == "\u00e9" * 40
    assert chat.valid_text("e\u0301" * 300) == "\u00e9" * 300


def test_a_spectator_s_chat_is_paid_for_before_its_name_is_read(make_client, sqlite_url):
    limits = dataclasses.replace(Limits.off(), chat_per_minute=1, chat_burst=2)
    client = make_client(sqlite_url, limits=limits)
    tid = create(client)["id"]
    answers = [client.post(f"/api/tables/{tid}/chat", json={"text": "hi", "name": MARKS}) for _ in range(3)]
    assert [a.status_code for a in answers] == [422, 422, 429]
    assert answers[2].json()["rule"] == "limit.chat"


@pytest.mark.parametrize(
    "path", ["/boards/" + "x" * 300 + "/board.js", "/boards/machikoro/" + "x" * 300 + ".js", "/boards/x/y.js"]
)
def test_a_board_file_with_an_overlong_name_is_not_found(client, path):
    answer = client.get(path)
    assert answer.status_code == 404


def test_a_board_file_is_still_served(client):
    answer = client.get("/boards/machikoro/board.js")
    assert answer.status_code == 200 and answer.headers["content-type"].startswith("text/javascript")


# -- the bounded request head, on a real uvicorn ------------------------------------------------------------------
class QuickHead(BoundedHttpToolsProtocol):
    head_seconds = 0.5


async def tiny_app(scope, receive, send):
    """Answers every request with the size of its body."""
    if scope["type"] != "http":
        return
    size, more = 0, True
    while more:
        message = await receive()
        size += len(message.get("body", b""))
        more = message.get("more_body", False)
    body = str(size).encode()
    await send(
        {"type": "http.response.start", "status": 200, "headers": [(b"content-length", b"%d" % len(body))]}
    )
    await send({"type": "http.response.body", "body": body})


def read_all(sock: socket.socket, timeout: float = 5.0) -> bytes:
    sock.settimeout(timeout)
    chunks = []
    with contextlib.suppress(ConnectionResetError):
        while chunk := sock.recv(65536):
            chunks.append(chunk)
    return b"".join(chunks)


@pytest.fixture(scope="module")
def port():
    with uvicorn_in_thread(tiny_app, http=QuickHead) as port:
        yield port


def test_a_head_past_the_limit_is_refused_and_the_connection_closed(port):
    with socket.create_connection(("127.0.0.1", port)) as sock:
        sock.sendall(b"GET / HTTP/1.1\r\nHost: x\r\nX-Junk: ")
        with contextlib.suppress(OSError):  # the server may close while we still send
            for _ in range(64):
                sock.sendall(b"a" * 4096)
        answer = read_all(sock)
    assert answer.startswith(b"HTTP/1.1 431 ")
    assert answer.endswith(b"request header fields too large")


def test_a_head_that_comes_too_slowly_is_closed(port):
    with socket.create_connection(("127.0.0.1", port)) as sock:
        sock.sendall(b"GET / HTTP/1.1\r\nHost: x\r\n")
        answer = read_all(sock)
    assert answer.startswith(b"HTTP/1.1 408 ")


def test_ordinary_requests_big_bodies_and_pipelining_pass(port):
    head = "GET / HTTP/1.1\r\nHost: x\r\nCookie: " + "a=b; " * (MAX_HEAD // 8) + "\r\n\r\n"
    body = b"x" * 200_000  # sent with its head in one write: a body never counts as head
    post = b"POST / HTTP/1.1\r\nHost: x\r\nContent-Length: %d\r\n\r\n" % len(body) + body
    last = b"GET / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"
    with socket.create_connection(("127.0.0.1", port)) as sock:
        sock.sendall(head.encode() + post + last)
        answer = read_all(sock)
    assert answer.count(b"HTTP/1.1 200 OK") == 3, answer[:300]
    assert answer.endswith(b"0") and b"\r\n\r\n200000" in answer


def test_serve_runs_uvicorn_with_the_bounded_protocol(monkeypatch, tmp_path):
    import uvicorn

    from tabletown.web import server

    ran = {}
    monkeypatch.setattr(server.sys, "setswitchinterval", lambda seconds: None)  # (this process's own)
    monkeypatch.setattr(uvicorn, "run", lambda app, **options: ran.update(options))
    server.serve(db_url=f"sqlite:///{tmp_path / 't.db'}", port=8799)
    assert ran["http"] is BoundedHttpToolsProtocol
