"""Helpers of the web server tests (a module name of its own: other test folders have a conftest too)."""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys
import time
from pathlib import Path

import httpx

HERE = Path(__file__).parent
# Keys the server adds around a view (everything else in a payload is the engine's view).
EXTRA_KEYS = {
    "table",
    "seq",
    "legal",
    "status",
    "seats",
    "event_text",
    "since",
    "turn_timer",
    "turn_deadline",
    "fairness",
}


def create(client, game="toyrace", seats=("human", "human"), **extra):
    response = client.post("/api/tables", json={"game": game, "seats": list(seats), **extra})
    assert response.status_code == 201, response.text
    return response.json()


def strip(payload):
    return {k: v for k, v in payload.items() if k not in EXTRA_KEYS}


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def start_server(db_url: str, port: int, extra: list[str] | tuple[str, ...] = ()) -> subprocess.Popen:
    env = dict(os.environ, TABLETOWN_BOT_DELAY="0")
    process = subprocess.Popen(
        [sys.executable, str(HERE / "toyserver.py"), "--port", str(port), "--db", db_url, *extra],
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    end = time.monotonic() + 30
    while time.monotonic() < end:
        if process.poll() is not None:
            raise AssertionError(f"server exited: {process.stderr.read().decode()[-2000:]}")
        try:
            if httpx.get(f"http://127.0.0.1:{port}/healthz", timeout=1).status_code == 200:
                return process
        except httpx.HTTPError:
            time.sleep(0.1)
    process.kill()
    raise AssertionError("server did not start")


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
