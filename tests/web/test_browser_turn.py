"""Issue 27, your turn: the tab's title and icon say when a seat this browser holds must act; sound is
off until switched on; notifications come only after the player asked for them with the button (never a
permission prompt on load), and only while the tab is hidden. Real Chromium through Playwright (the
Notification API and the page's visibility are stubbed in the page); skipped when chromium is missing."""

from __future__ import annotations

import httpx
import pytest
from web_helpers import CHROMIUM, chromium, post_table, served, watch_errors

pytestmark = pytest.mark.skipif(CHROMIUM is None, reason="the chromium package is not installed")

TURN_TITLE = "● Your turn — Tabletown"

# Before the page's scripts: a Notification API that records what the page asks, and a switch for
# document.hidden (headless tabs are always visible).
STUBS = """
window.__asked = 0;
window.__notes = [];
class FakeNotification {
  constructor(title, options) { window.__notes.push({ title, body: options && options.body }); }
  close() {}
}
FakeNotification.permission = "default";
FakeNotification.requestPermission = async () => {
  window.__asked++;
  FakeNotification.permission = "granted";
  return "granted";
};
window.Notification = FakeNotification;
let hiddenNow = false;
Object.defineProperty(Document.prototype, "hidden", { get: () => hiddenNow, configurable: true });
window.__setHidden = (value) => { hiddenNow = value; document.dispatchEvent(new Event("visibilitychange")); };
"""


@pytest.fixture
def server(tmp_path):
    with served(tmp_path / "turn.db") as url:
        yield url


def icon(page) -> str:
    return page.get_attribute("#favicon", "href")


def wait_title(page, title: str) -> None:
    page.wait_for_function("(title) => document.title === title", arg=title)


def test_the_tab_says_when_it_is_your_turn(server, tmp_path):
    created = post_table(
        server, {"game": "toyrace", "seats": ["human", "human"], "names": ["Alice", "Bob"], "seed": 3}
    )
    table = created["id"]
    bob = {"authorization": f"Bearer {created['seats'][1]['token']}"}
    base_title = f"Toy Race · table {table}"
    errors: list[str] = []
    with chromium() as browser:
        page = browser.new_page(viewport={"width": 1280, "height": 800})
        watch_errors(page, errors)
        page.add_init_script(STUBS)
        page.goto(created["seats"][0]["join_url"])

        # Alice moves first: the title and the icon say so at once (no sound, no prompt on load)
        wait_title(page, TURN_TITLE)
        assert icon(page) == "/static/favicon-turn.svg"
        assert page.evaluate("window.__asked") == 0
        assert page.inner_text("#sound-toggle") == "Sound at my turn: off"
        assert page.get_attribute("#sound-toggle", "aria-pressed") == "false"
        assert (
            page.is_visible("#notify-button") and page.inner_text("#notify-button") == "Notify me at my turn"
        )
        page.screenshot(path=str(tmp_path / "your-turn.png"))

        # notifications: asked once, from the button
        page.click("#notify-button")
        page.wait_for_selector("#notify-button:has-text('Stop notifications')")
        assert page.evaluate("window.__asked") == 1

        # Alice banks: Bob's turn, the title goes back
        page.click("#legal-moves button[data-move='b']")
        wait_title(page, base_title)
        assert icon(page) == "/static/favicon.svg"
        assert page.evaluate("window.__notes") == []

        # the tab in the background; Bob banks: the round's secret bets, Alice's turn again, a notification
        page.evaluate("window.__setHidden(true)")
        view = httpx.get(f"{server}/api/tables/{table}", headers=bob).json()
        assert view["legal"], view
        moved = httpx.post(
            f"{server}/api/tables/{table}/actions", json={"seq": view["seq"], "action": "b"}, headers=bob
        )
        assert moved.status_code == 200, moved.text
        wait_title(page, TURN_TITLE)
        page.wait_for_function("() => window.__notes.length === 1")
        note = page.evaluate("window.__notes[0]")
        assert note["title"] == "Your turn" and base_title in note["body"]

        # without the opt-in (switched off again) nothing is shown, and a new page never asks on load
        page.click("#notify-button")
        page.wait_for_selector("#notify-button:has-text('Notify me at my turn')")
        page.reload()
        wait_title(page, TURN_TITLE)
        page.wait_for_timeout(300)
        assert page.evaluate("window.__asked") == 0

        # sound: off by default, a switch that stays on for this browser
        page.click("#sound-toggle")
        page.wait_for_selector("#sound-toggle[aria-pressed='true']")
        page.reload()
        page.wait_for_selector("#sound-toggle[aria-pressed='true']")

        # a spectator has no turn: no switches, the plain title
        other = browser.new_context().new_page()
        watch_errors(other, errors)
        other.goto(f"{server}/t/{table}")
        other.wait_for_selector("#status-line:has-text('You are watching')")
        assert other.title() == base_title and other.is_hidden("#turn-alerts")
        browser.close()
    assert errors == []


def test_every_acting_seat_shows_its_turn_clock_to_players_and_spectators(server):
    """With a turn timer, the seat list shows the clock of each seat that has to act (m:ss, as a
    chess site shows both clocks), to the players and to spectators; it moves with the turn."""
    created = post_table(
        server, {"game": "toyrace", "seats": ["human", "human"], "names": ["Alice", "Bob"], "turn_timer": 90}
    )
    table = created["id"]
    errors: list[str] = []
    with chromium() as browser:
        alice = browser.new_page(viewport={"width": 1280, "height": 800})
        watch_errors(alice, errors)
        alice.goto(created["seats"][0]["join_url"])
        bob = browser.new_context().new_page()
        watch_errors(bob, errors)
        bob.goto(created["seats"][1]["join_url"])
        alice.wait_for_selector("#seat-list li:first-child .clock")
        first = alice.inner_text("#seat-list li:first-child .clock")
        assert first.startswith("1:") and len(first) == 4, first
        assert alice.locator("#seat-list .clock").count() == 1
        watcher = browser.new_context().new_page()
        watch_errors(watcher, errors)
        watcher.goto(f"{server}/t/{table}")
        watcher.wait_for_selector("#seat-list li:first-child .clock")

        alice.click("#legal-moves button[data-move='b']")
        for page in (alice, bob, watcher):
            page.wait_for_selector("#seat-list li:nth-child(2) .clock")
            assert page.locator("#seat-list li:first-child .clock").count() == 0
        browser.close()
    assert errors == []
