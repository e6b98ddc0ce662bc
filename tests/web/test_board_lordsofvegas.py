"""Lords of Vegas in a real browser (Playwright driving Debian's chromium): a whole 3-player game
against bot:expert and bot:greedy, every move made by clicking the board (builds, a gamble with the
bet slider, a reorganize and placing its dice, a trade composed in the dialog), screenshots at phone
and desktop size, and the replay page. Skipped when chromium or Playwright is missing."""

from __future__ import annotations

import contextlib
import re
import time

import httpx
import pytest
from web_helpers import CHROMIUM, chromium, create_at, served

pytestmark = pytest.mark.skipif(CHROMIUM is None, reason="the chromium package is not installed")

SEED = 11


@pytest.fixture
def server(tmp_path):
    with served(tmp_path / "lv.db") as url:
        yield url


def status(page) -> str:
    return page.inner_text("#status-line")


def click_and_wait(page, selector: str, timeout: float = 15000) -> None:
    """Click something that posts a move and wait until the table has moved on (the status line
    names the move number), or a refusal is shown."""
    before = status(page)
    page.click(selector)
    page.wait_for_function(
        "old => document.getElementById('status-line').textContent !== old"
        " || document.getElementById('move-error').textContent !== ''",
        arg=before,
        timeout=timeout,
    )
    error = page.inner_text("#move-error")
    assert not error, f"{selector}: {error}"


def legal(page) -> list[str]:
    return page.locator("#legal-moves button.move").evaluate_all("bs => bs.map(b => b.dataset.move)")


class Player:
    """Plays seat 0 by clicking on the board only (never the legal-move list)."""

    def __init__(self, page) -> None:
        self.page = page
        self.did: dict[str, int] = {"gamble": 0, "reorg": 0, "trade": 0, "build": 0, "place": 0, "end": 0}
        self.turn_marks: set[str] = set()

    def turn_key(self) -> str:
        return self.page.inner_text(".lv-turn")

    def select_lot(self, lot: str) -> None:
        self.page.click(f'.lv-lot[data-lot="{lot}"]')
        self.page.wait_for_selector(f'.lv-lotpanel h3:has-text("{lot.upper()}")')

    def step(self) -> bool:
        page = self.page
        moves = legal(page)
        if not moves:
            return False
        if "nolayoff" in moves:
            click_and_wait(page, ".lv-decision button[data-move='nolayoff']")
            return True
        if "accept" in moves:  # an offer to us: accept every other one
            answer = "accept" if self.did["trade"] % 2 else "refuse"
            click_and_wait(page, f".lv-decision button[data-move='{answer}']")
            return True
        if any(m.split()[0] in ("put", "take", "free") for m in moves):
            if moves[0].startswith("put"):
                self.did["place"] += 1
            click_and_wait(page, ".lv-lot.playable")  # one click places / moves / frees
            return True
        if "end" not in moves:
            raise AssertionError(f"unexpected moves {moves}")
        turn = self.turn_key()
        if not self.did["trade"] and page.locator("#lv-trade-open").count():
            return self.trade()
        gambles = [m for m in moves if m.startswith("gamble ")]
        if gambles and f"gamble {turn}" not in self.turn_marks:
            self.turn_marks.add(f"gamble {turn}")
            lot = gambles[0].split()[1]
            self.select_lot(lot)
            slider = page.locator(".lv-slider")
            top = int(slider.get_attribute("max"))
            slider.fill(str(min(top, 3)))
            assert page.get_attribute("#lv-bet", "data-move") == f"gamble {lot} {min(top, 3)}"
            click_and_wait(page, "#lv-bet")
            self.did["gamble"] += 1
            return True
        reorgs = [m for m in moves if m.startswith("reorg ")]
        if reorgs and self.did["reorg"] < 3 and f"reorg {turn}" not in self.turn_marks:
            self.turn_marks.add(f"reorg {turn}")
            lot = reorgs[0].split()[1]
            self.select_lot(lot)
            click_and_wait(page, f".lv-lotpanel button[data-move='{reorgs[0]}']")
            self.did["reorg"] += 1
            return True
        builds = [m for m in moves if m.startswith("build ")]
        if builds:
            lot = builds[0].split()[1]
            self.select_lot(lot)
            click_and_wait(page, ".lv-lotpanel button.lv-color >> nth=0")
            self.did["build"] += 1
            return True
        click_and_wait(page, ".lv-decision button[data-move='end']")
        self.did["end"] += 1
        return True

    def trade(self) -> bool:
        """Ask a bot for one of its lots (or dice) for a generous price, composed in the dialog."""
        page = self.page
        page.click("#lv-trade-open")
        page.wait_for_selector(".lv-dialog")
        for partner in ("1", "2"):
            page.select_option("#lv-partner", partner)
            asks = page.locator(".lv-side >> nth=1").locator(
                "input[data-item^='lot:'], input[data-item^='die:']"
            )
            if asks.count():
                asks.first.check()
                break
        money = int(page.get_attribute("#lv-give-money", "max"))
        page.fill("#lv-give-money", str(max(1, min(money, 12))))
        page.press("#lv-give-money", "Tab")
        text = page.inner_text("#lv-offer-text")
        assert re.fullmatch(r"offer( \d>\d:\S+)+", text), text
        click_and_wait(page, "#lv-offer-send")
        page.wait_for_selector(".lv-dialoghost", state="hidden")
        # the bot's answer arrives live and is shown with the offer
        page.wait_for_selector(".lv-lasttrade:has-text('accepts'), .lv-lasttrade:has-text('refuses')")
        self.did["trade"] += 1
        return True


# The lobby steps of test_browser.py's test_lobby_table_and_replay_in_a_browser on purpose: each
# browser test stands alone.
def test_a_whole_three_player_game_by_clicking(server, tmp_path):
    playwright_api = pytest.importorskip("playwright.sync_api")
    errors: list[str] = []
    started = time.monotonic()
    with chromium() as browser:
        page = browser.new_page(viewport={"width": 375, "height": 812})
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        page.goto(server + "/")
        page.fill("#player-name", "Ada")
        page.select_option("#game-select", "lordsofvegas")
        page.select_option("#players-select", "3")
        page.select_option('select[data-seat="1"]', "bot:expert")
        page.select_option('select[data-seat="2"]', "bot:greedy")
        page.click("#create-form summary")  # "More": the seed
        page.fill("#seed", str(SEED))
        page.click("#create-button")
        page.wait_for_url("**/t/*")
        page.wait_for_selector(".lv-map .lv-lot >> nth=47")
        assert page.locator(".lv-lot").count() == 48
        assert page.locator(".lv-track .lv-square").count() == 29  # 0-8, then the squares with gaps, to 90
        player = Player(page)
        shot_taken = False
        for _ in range(3000):
            if "Game over" in status(page):
                break
            if player.step():
                if not shot_taken and player.did["reorg"] and player.did["gamble"]:
                    page.screenshot(path=str(tmp_path / "lordsofvegas-375-midgame.png"), full_page=True)
                    shot_taken = True
            else:  # the bots are thinking: wait for the next change of the table
                before = status(page)
                with contextlib.suppress(playwright_api.TimeoutError):
                    page.wait_for_function(
                        "old => document.getElementById('status-line').textContent !== old",
                        arg=before,
                        timeout=5000,
                    )
        assert "Game over" in status(page), status(page)
        assert page.locator(".lv-result").count() == 1
        page.wait_for_selector("#game-over:not([hidden])")
        headline = page.inner_text("#game-over")  # the winners named above the board
        assert " win" in headline or "share the win" in headline, headline
        table = page.url.rstrip("/").split("/")[-1]
        record = httpx.get(f"{server}/api/tables/{table}/record").json()
        mine = [text for seat, text in record["actions"] if seat == 0]
        theirs = [text for seat, text in record["actions"] if seat != 0]
        assert any(t.startswith("gamble ") for t in mine), player.did
        assert any(t.startswith("reorg ") for t in mine), player.did
        assert any(t.startswith("offer ") for t in mine), player.did
        assert any(t in ("accept", "refuse") for t in theirs), "a bot answered the offer"
        assert player.did["place"] >= 0
        page.screenshot(path=str(tmp_path / "lordsofvegas-375.png"), full_page=True)
        page.set_viewport_size({"width": 1280, "height": 900})
        page.screenshot(path=str(tmp_path / "lordsofvegas-1280.png"), full_page=True)
        # the replay draws the same board
        page.click("text=Replay")
        page.wait_for_selector(".lv-map .lv-lot >> nth=47")
        page.click("#first")
        # a function, not an expression: Playwright evals an expression, which the CSP forbids
        page.wait_for_function("() => document.getElementById('step').value === '0'")
        assert (
            page.locator(".lv-lot .lv-marker").count() >= 6
        )  # two dealt lots per player (and the first draw)
        browser.close()
    assert errors == []
    assert time.monotonic() - started < 150


def test_free_form_offers_reach_the_engine(server):
    """Offers outside the listed moves (a die, a promise, any amount) are passed to the engine as
    text, accepted when the rules allow them and refused with the engine's rule id otherwise."""
    created = create_at(server, "lordsofvegas", ["human", "human"], seed=3)
    tokens = [s["token"] for s in created["seats"]]
    table = created["id"]
    view = httpx.get(f"{server}/api/tables/{table}", params={"token": tokens[0]}).json()
    active = view["state"]["active"]
    other = 1 - active
    token = tokens[active]
    # wait for the draw: the active seat's action phase
    offer = f"offer {active}>{other}:$1 {active}>{other}:no-gamble {other}>{active}:$2"
    assert offer not in view["legal"]
    answer = httpx.post(
        f"{server}/api/tables/{table}/actions", json={"token": token, "seq": view["seq"], "action": offer}
    )
    assert answer.status_code == 200, answer.text
    view = httpx.get(f"{server}/api/tables/{table}", params={"token": tokens[other]}).json()
    assert view["state"]["phase"] == "offer" and view["state"]["offer"]["waiting_for"] == [other]
    assert view["legal"] == ["accept", "refuse"]
    refused = httpx.post(
        f"{server}/api/tables/{table}/actions",
        json={"token": tokens[other], "seq": view["seq"], "action": f"offer {other}>{active}:$999"},
    )
    assert refused.status_code == 422 and refused.json()["rule"] == "trade.money", refused.text
