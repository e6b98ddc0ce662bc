"""Issue 27, table chat in the browser: two seats in two browser contexts talk live over the table's
WebSocket; markup arrives as text (never HTML); a spectator gets the history on load and is marked as
such; a message past 300 characters is refused with a word, not sent. Real Chromium through
Playwright; skipped when chromium is missing."""

from __future__ import annotations

import os

import httpx
import pytest
from web_helpers import CHROMIUM, chromium, served, watch_errors

pytestmark = pytest.mark.skipif(CHROMIUM is None, reason="the chromium package is not installed")

SHOTS = "/tmp/shots-27b"


@pytest.fixture
def server(tmp_path):
    with served(tmp_path / "chat.db") as url:
        yield url


def say(page, text: str) -> None:
    page.fill("#chat-input", text)
    page.press("#chat-input", "Enter")


def lines(page) -> list[str]:
    return page.locator("#chat-log li").all_inner_texts()


def test_two_seats_chat_and_a_spectator_reads_along(server, tmp_path):
    os.makedirs(SHOTS, exist_ok=True)
    created = httpx.post(
        f"{server}/api/tables",
        json={"game": "machikoro", "seats": ["human", "human"], "names": ["Alice", "Bob"], "seed": 3},
    ).json()
    errors: list[str] = []
    with chromium() as browser:
        alice_ctx = browser.new_context(viewport={"width": 1280, "height": 800})
        bob_ctx = browser.new_context(viewport={"width": 390, "height": 844})
        alice, bob = alice_ctx.new_page(), bob_ctx.new_page()
        for page, seat in ((alice, 0), (bob, 1)):
            watch_errors(page, errors)
            page.goto(created["seats"][seat]["join_url"])
            page.wait_for_selector(f"#status-line[data-seat='{seat}']:has-text('You are')")
            page.wait_for_selector(".mk-city")

        # Alice writes markup: Bob sees it as text, live, named; no element is made from it
        say(alice, "Hi Bob <b>bold</b> <img src=x onerror=alert(1)> & good luck")
        bob.wait_for_selector("#chat-log li:has-text('good luck')")
        assert lines(bob) == ["Alice: Hi Bob <b>bold</b> <img src=x onerror=alert(1)> & good luck"]
        assert bob.locator("#chat-log b, #chat-log img").count() == 0
        assert lines(alice) == ["You: Hi Bob <b>bold</b> <img src=x onerror=alert(1)> & good luck"]
        assert alice.input_value("#chat-input") == ""

        say(bob, "Thanks, you too!")
        alice.wait_for_selector("#chat-log li:has-text('Thanks, you too!')")
        assert lines(alice)[-1] == "Bob: Thanks, you too!"

        # at most 300 characters (the field stops there; the server refuses more: test_chat.py), and a
        # blank line is not sent
        bob.fill("#chat-input", "x" * 301)
        assert len(bob.input_value("#chat-input")) == 300
        say(bob, "   ")
        bob.wait_for_timeout(300)
        assert len(lines(alice)) == 2 and len(lines(bob)) == 2

        # a spectator (no seat in this browser) gets the history on load and is marked as such
        watcher_ctx = browser.new_context(viewport={"width": 390, "height": 844})
        watcher = watcher_ctx.new_page()
        watch_errors(watcher, errors)
        watcher.goto(f"{server}/t/{created['id']}")
        watcher.wait_for_selector("#chat-log li:has-text('Thanks, you too!')")
        assert lines(watcher)[0].startswith("Alice: Hi Bob")
        say(watcher, "Watching with popcorn")
        alice.wait_for_selector("#chat-log li.spectator:has-text('popcorn')")
        assert lines(alice)[-1] == "Spectator: Watching with popcorn"

        # kept with the table: a reload shows the same conversation
        bob.reload()
        bob.wait_for_selector("#chat-log li:has-text('popcorn')")
        assert len(lines(bob)) == 3
        alice.screenshot(path=f"{SHOTS}/chat-desktop.png", full_page=True)
        bob.screenshot(path=f"{SHOTS}/chat-phone.png", full_page=True)
        browser.close()
    assert errors == []
