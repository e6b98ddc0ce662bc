"""Helpers of the web server tests (a module name of its own: other test folders have a conftest too)."""

from __future__ import annotations

import collections
import contextlib
import os
import shutil
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tabletown.web.bench import free_port, wait_until_up

HERE = Path(__file__).parent
# Keys the server adds around a view (everything else in a payload is the engine's view).
EXTRA_KEYS = {
    "table",
    "seq",
    "legal",
    "status",
    "seats",
    "event_text",
    "lang",
    "since",
    "turn_timer",
    "turn_deadline",
    "fairness",
}


def create(client, game="toyrace", seats=("human", "human"), redeem=True, **extra):
    """A new table's answer; with ``redeem`` each reserved seat's invitation is redeemed (POST
    .../join, as its player's page does) and the answer holds the seat's own token instead."""
    response = client.post("/api/tables", json={"game": game, "seats": list(seats), **extra})
    assert response.status_code == 201, response.text
    created = response.json()
    for seat in created["seats"] if redeem else ():
        if seat["token"]:
            invitation, seat["token"] = seat["token"], redeem_invitation(client, created["id"], seat["token"])
            # a link with the seat's own token opens it too (the invitation's link opens nothing now)
            seat["join_url"] = seat["join_url"].replace(invitation, seat["token"])
    return created


def create_at(server: str, game="toyrace", seats=("human", "human"), **extra):
    """``create`` on a server running at the URL ``server``."""
    import httpx

    with httpx.Client(base_url=server, timeout=30) as http:
        return create(http, game, seats, **extra)


def post_table(server: str, body: dict):
    """``create_at`` with the request's whole body."""
    return create_at(server, **body)


def play_past(svc, table, events: int) -> None:
    """Play each seat's first legal move at ``table`` until its log holds more than ``events``
    events (a long table for the limits on worded events)."""
    while len(table.state.log) <= events:
        seat = table.state.to_act[0]
        svc.commit(table, seat, table.state.legal_actions(seat)[0], "human", table.seq)


def redeem_invitation(client, table_id: str, invitation: str) -> str:
    """The seat's own token for its invitation (what its player's first POST .../join answers)."""
    answer = client.post(f"/api/tables/{table_id}/join", json={"token": invitation})
    assert answer.status_code == 200, answer.text
    return answer.json()["token"]


def strip(payload):
    return {k: v for k, v in payload.items() if k not in EXTRA_KEYS}


def wait_for(predicate, timeout: float = 10.0, poll: float = 0.02):
    """``predicate()``'s first true value, asked every ``poll`` seconds; AssertionError after ``timeout``."""
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        value = predicate()
        if value:
            return value
        time.sleep(poll)
    raise AssertionError("timed out")


def start_server(
    db_url: str, port: int, extra: list[str] | tuple[str, ...] = (), env: dict[str, str] | None = None
) -> subprocess.Popen:
    # The browser tests open tables against bots for every game and page from one address within
    # minutes, far past the per-address limit on tables with bots that people play (which has
    # tests of its own, test_security_audit_6.py); the other limits stay as a player meets them.
    env = {
        **os.environ,
        "TABLETOWN_BOT_DELAY": "0",
        "TABLETOWN_LIMIT_BOT_GAMES_PER_ADDRESS": "0",
        **(env or {}),
    }
    process = subprocess.Popen(
        [sys.executable, str(HERE / "toyserver.py"), "--port", str(port), "--db", db_url, *extra],
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    try:
        wait_until_up(process, port, 30)
    except RuntimeError as exc:  # a test's failure, and what the retrying fixtures catch
        raise AssertionError(str(exc)) from None
    drain(process)
    return process


def drain(process: subprocess.Popen) -> None:
    """Read a child's piped stderr on a thread from now on, keeping its last lines in
    ``process.stderr_tail``: a child that logs more than a pipe holds (64 KiB) and is never read
    blocks at its next log line, and a server or bot worker then stops answering mid-test."""
    tail: collections.deque[bytes] = collections.deque(maxlen=200)
    process.stderr_tail = tail  # type: ignore[attr-defined]

    def pump() -> None:
        for line in process.stderr or ():
            tail.append(line)

    threading.Thread(target=pump, daemon=True).start()


@contextlib.contextmanager
def served(db_path: Path | str, attempts: int = 1) -> Iterator[str]:
    """A toy server on the SQLite file ``db_path``: its base URL while the block runs, stopped after.
    ``attempts`` > 1 tries fresh ports again (a loaded machine may start it slower than start_server waits)."""
    for attempt in range(attempts):
        port = free_port()
        try:
            process = start_server(f"sqlite:///{db_path}", port)
            break
        except AssertionError:
            if attempt == attempts - 1:
                raise
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        process.terminate()
        process.wait(10)


CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")


# The tests play whole games against bots and click as soon as they may: their browsers start every
# table at the Instant pace, as a player who chose it once would (tests of the pace choose their own).
INSTANT_PACE = "if (!localStorage.getItem('tt_pace')) localStorage.setItem('tt_pace', 'instant');"


class InstantBrowser:
    """A Playwright browser whose pages follow other seats' turns at once (``INSTANT_PACE``)."""

    def __init__(self, browser):
        self._browser = browser

    def new_context(self, **options):
        context = self._browser.new_context(**options)
        context.add_init_script(INSTANT_PACE)
        return context

    def new_page(self, **options):
        context = self.new_context(**options)
        page = context.new_page()
        page.on("close", lambda _page: context.close())
        return page

    def __getattr__(self, name):
        return getattr(self._browser, name)


def launch(p):
    """Debian's chromium under Playwright (its own browser download cannot work here)."""
    return InstantBrowser(p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"]))


@contextlib.contextmanager
def chromium() -> Iterator[InstantBrowser]:
    """A launched browser (``launch``) for the block, closed after; the test is skipped without Playwright."""
    playwright_api = pytest.importorskip("playwright.sync_api")
    with playwright_api.sync_playwright() as p:
        browser = launch(p)
        try:
            yield browser
        finally:
            if browser.is_connected():  # a test may have closed it itself
                browser.close()


def watch_errors(page, errors):
    """Page errors and console errors (a Content-Security-Policy refusal is one), not the favicon."""
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.on(
        "console",
        lambda m: (
            errors.append(m.text)
            if m.type == "error" and "favicon" not in m.text and "404" not in m.text
            else None
        ),
    )


@contextlib.contextmanager
def uvicorn_in_thread(app, **config: Any) -> Iterator[int]:
    """``app`` served by uvicorn on a free port in a thread of this process (its port), with any
    further ``uvicorn.Config`` settings (the protocols ``serve`` runs, say); stopped at the end."""
    import uvicorn

    port = free_port()
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning", **config))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    end = time.monotonic() + 30
    while not server.started:
        assert time.monotonic() < end, "uvicorn did not start"
        time.sleep(0.02)
    try:
        yield port
    finally:
        server.should_exit = True
        thread.join(10)
