"""The pages in a real browser (Playwright driving Debian's chromium): create a table in the lobby,
play a toy game against a bot by clicking, watch its replay. Skipped when chromium is missing."""

from __future__ import annotations

import time

import pytest
from web_helpers import CHROMIUM, chromium, served

pytestmark = pytest.mark.skipif(CHROMIUM is None, reason="the chromium package is not installed")


# The lobby steps of test_board_lordsofvegas.py's test_a_whole_three_player_game_by_clicking on
# purpose: each browser test stands alone.
def test_lobby_table_and_replay_in_a_browser(tmp_path):
    playwright_api = pytest.importorskip("playwright.sync_api")
    errors: list[str] = []
    with served(tmp_path / "browser.db") as base, chromium() as browser:
        for width, height in ((375, 812),):  # the Machi Koro test takes the desktop screenshot
            page = browser.new_page(viewport={"width": width, "height": height})
            page.on("pageerror", lambda exc: errors.append(str(exc)))
            page.goto(base + "/")
            page.fill("#player-name", "Ada")
            page.select_option("#game-select", "toyrace")
            page.select_option("#players-select", "2")
            page.select_option('select[data-seat="1"]', "bot:greedy")
            page.click("#create-button")
            page.wait_for_url("**/t/*")
            page.wait_for_selector("#status-line:has-text('You are Ada')")
            for _ in range(300):
                if "Game over" in page.inner_text("#status-line"):
                    break
                buttons = page.locator("#legal-moves button.move")
                if buttons.count():
                    texts = buttons.all_inner_texts()
                    choice = (
                        "b"
                        if "b" in texts and len(page.locator("#event-log li").all()) % 3 == 0
                        else texts[0]
                    )
                    try:
                        page.click(f'#legal-moves button[data-move="{choice}"]', timeout=5_000)
                    except playwright_api.TimeoutError:
                        continue  # the bot moved between reading the list and the click: look again
                page.wait_for_timeout(30)
            assert "Game over" in page.inner_text("#status-line")
            assert page.locator("#event-log li").count() > 3
            page.screenshot(path=str(tmp_path / f"table-{width}.png"), full_page=True)
            page.click("text=Replay")
            page.wait_for_selector("#move-list li")
            page.click("#forward")
            # a function, not an expression: Playwright evals an expression, which the CSP forbids
            page.wait_for_function("() => document.getElementById('step').value === '1'")
            # the page never scrolls sideways, and the step controls stay in sight right above the
            # board while one scrolls down to it (they used to sit above the analysis, off screen)
            assert page.evaluate("() => document.documentElement.scrollWidth") <= width
            page.evaluate(
                "() => window.scrollTo(0, document.getElementById('board').getBoundingClientRect().top + window.scrollY)"
            )
            bar = page.evaluate(
                "() => document.getElementById('replay-bar').getBoundingClientRect().toJSON()"
            )
            assert -1 <= bar["top"] < 5 and bar["bottom"] < height / 2
            page.keyboard.press("ArrowRight")
            page.wait_for_function("() => document.getElementById('step').value === '2'")
            page.select_option("#view-seat", "1")
            page.click("#last")
            page.wait_for_selector("#status-line:has-text('game over')")
            page.close()
        browser.close()
    assert errors == []


def click_a_move(page) -> bool:
    """One Machi Koro decision by clicking on the board: a landmark or a market card when one can be
    built, a swap or a TV target when asked, else the first big decision button (roll, keep, ...)."""
    board = page.locator("#board")
    for selector in (
        ".mk-city.mine .mk-card.playable",  # landmarks (and a swap's own card, once theirs is chosen)
        ".mk-city:not(.mine) .mk-card.playable",  # a swap: first the card we want from an opponent
        ".mk-market .mk-card.playable",
        "button[data-move^='tv ']",
        ".mk-actions button",
    ):
        target = board.locator(selector)
        if target.count():
            from playwright.sync_api import TimeoutError as PlaywrightTimeout

            try:
                target.first.click(timeout=2000)
            except PlaywrightTimeout:  # the board was redrawn under the click (a bot's reply came in)
                return False  # look again at the new board
            return True
    return False


def test_machi_koro_with_harbor_against_bots_by_clicking(tmp_path):
    playwright_api = pytest.importorskip("playwright.sync_api")
    errors: list[str] = []
    with served(tmp_path / "mk.db") as base, chromium() as browser:
        page = browser.new_page(viewport={"width": 375, "height": 812})
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        page.goto(base + "/")
        page.select_option("#game-select", "machikoro")
        page.check('[data-option="harbor"]')
        page.select_option("#players-select", "2")
        page.select_option('select[data-seat="1"]', "bot:greedy")
        page.click("#create-button")
        page.wait_for_url("**/t/*")
        page.wait_for_selector(".mk-city")
        clicks = stale = 0
        deadline = time.monotonic() + 150
        for _ in range(2000):
            assert time.monotonic() < deadline, "the game did not end in time: " + page.inner_text(
                "#status-line"
            )
            if "Game over" in page.inner_text("#status-line"):
                break
            seq = page.evaluate("() => document.getElementById('status-line').textContent")
            if click_a_move(page):
                clicks += 1
                try:  # a move changes the status line; choosing a swap's first card does not
                    page.wait_for_function(
                        "old => document.getElementById('status-line').textContent !== old",
                        arg=seq,
                        timeout=3000,
                    )
                except playwright_api.TimeoutError:
                    stuck = page.inner_text("#move-error")
                    if "moved on" in stuck:
                        # A click on a board the bot's answer had just overtaken (a loaded
                        # machine): the server refuses the stale move and the page reloads the
                        # table, as it should. Only a few such races are expected.
                        stale += 1
                        assert stale <= 5, stuck
                        continue
                    assert not stuck, stuck
            else:
                page.wait_for_timeout(20)
        assert "Game over" in page.inner_text("#status-line"), page.inner_text("#status-line")
        assert clicks > 10
        page.screenshot(path=str(tmp_path / "machikoro-375.png"), full_page=True)
        page.set_viewport_size({"width": 1280, "height": 900})
        page.screenshot(path=str(tmp_path / "machikoro-1280.png"), full_page=True)
        page.click("text=Replay")
        page.wait_for_selector(".mk-city")
        browser.close()
    assert errors == []


def test_hot_seat_passes_the_device_between_seats(tmp_path):
    import httpx

    errors: list[str] = []
    with served(tmp_path / "hot.db") as base:
        created = httpx.post(
            base + "/api/tables", json={"game": "toyrace", "seats": ["human", "human"], "seed": 2}
        ).json()
        with chromium() as browser:
            page = browser.new_page(viewport={"width": 375, "height": 700})
            page.on("pageerror", lambda exc: errors.append(str(exc)))
            for seat in created["seats"]:  # both links opened in one browser
                page.goto(seat["join_url"])
            # several seats held: the pass screen comes first, and it is the only way between seats
            page.wait_for_selector("#pass-screen:not([hidden]) #pass-button[data-seat='0']")
            assert page.locator("#seat-switch").count() == 0
            # each player names their own seat on the pass screen (issue 27: not the creator's name)
            assert page.input_value("#pass-name") == ""
            page.fill("#pass-name", "Ann")
            page.click("#pass-button")
            page.wait_for_selector("#status-line:has-text('You are Ann')")
            page.wait_for_selector("#legal-moves button[data-move='b']")
            page.click("#legal-moves button[data-move='b']")  # seat 0 banks: seat 1's turn
            page.wait_for_selector("#pass-screen:not([hidden])")
            assert "Player 2" in page.inner_text("#pass-text")
            page.fill("#pass-name", "Ben")
            page.press("#pass-name", "Enter")
            page.wait_for_selector("#pass-screen", state="hidden")
            page.wait_for_selector("#status-line:has-text('You are Ben')")
            page.wait_for_selector("#legal-moves button[data-move='r']")
            seats = httpx.get(f"{base}/api/tables/{created['id']}").json()["seats"]
            assert [s["name"] for s in seats] == ["Ann", "Ben"]
            page.wait_for_selector("#seat-list:has-text('Ann')")
            browser.close()
    assert errors == []
