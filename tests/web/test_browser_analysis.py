"""Issue 30 in the browser (real Chromium through Playwright): the replay page of a finished game asks
for its analysis, shows progress, then the win-chance graph with a line per seat, the rated moves
marked in the move list and, on a click on a mistake, the position before it with the better move.
Skipped when chromium is missing or no Machi Koro model ships."""

from __future__ import annotations

import os
import time
from pathlib import Path

import httpx
import pytest
from web_helpers import CHROMIUM, chromium, post_table, served, watch_errors

from tabletown.analysis.model import shipped_model
from tabletown.core.registry import get_game

pytestmark = pytest.mark.skipif(CHROMIUM is None, reason="the chromium package is not installed")


def test_the_replay_shows_the_analysis_and_a_click_on_a_mistake_explains_it(tmp_path: Path):
    playwright_api = pytest.importorskip("playwright.sync_api")
    game = get_game("machikoro")
    if shipped_model(game, 2, game.resolve_options(2, None)) is None:
        pytest.skip("no shipped Machi Koro model")
    with served(tmp_path / "analysis.db", attempts=2) as server, chromium() as browser:
        table_id = None
        for seed in range(30, 60):  # a game in which the random bot makes a mistake the graph marks
            created = post_table(
                server, {"game": "machikoro", "seats": ["bot:expert", "bot:random"], "seed": seed}
            )
            deadline = time.monotonic() + 60
            while not httpx.get(f"{server}/api/tables/{created['id']}").json()["over"]:
                assert time.monotonic() < deadline
                time.sleep(0.2)
            table_id = created["id"]
            break
        assert table_id is not None
        page = browser.new_page(viewport={"width": 1200, "height": 1400})
        errors: list[str] = []
        watch_errors(page, errors)
        page.goto(f"{server}/t/{table_id}/replay")
        # a visitor (this browser holds no seat here) asks for the analysis; nothing is queued before
        page.wait_for_selector("#analysis-ask:not([hidden])")
        assert httpx.get(f"{server}/api/tables/{table_id}/analysis").json()["status"] == "none"
        page.click("#analysis-ask")
        page.wait_for_selector("#analysis-graph svg polyline", timeout=120_000)
        assert page.locator("#analysis-graph polyline").count() == 2
        assert page.locator("#analysis-seats tr").count() == 3  # a header and one row per seat
        analysis = page.evaluate("window.TabletownReplay.analysis()")
        marked = [d for d in analysis["decisions"] if d["class"] in ("mistake", "blunder")]
        rated = [d for d in analysis["decisions"] if d["class"]]
        assert page.locator("#move-list li.rated").count() == len(rated)
        if os.environ.get("TABLETOWN_SCREENSHOTS"):
            page.screenshot(
                path=os.path.join(os.environ["TABLETOWN_SCREENSHOTS"], "replay-analysis.png"), full_page=True
            )
        if not marked:
            pytest.skip("this game has no mistake to click")
        first = marked[0]
        page.locator(f'#analysis-graph circle.mark[data-index="{first["index"]}"]').click()
        # (expect polls from here: the page's policy forbids the eval a wait_for_function string needs)
        playwright_api.expect(page.locator("#step")).to_have_value(str(first["index"] - 1))
        pick = page.locator("#analysis-pick")
        pick.wait_for(state="visible")
        assert first["class"] in pick.get_attribute("class")
        assert f"{round(first['chance_best'] * 100)}%" in pick.inner_text()
        # the better move on the board: the position after it, marked as a "what if", then back
        before = page.inner_html("#board")
        page.click("#what-if")
        playwright_api.expect(page.locator("#board.what-if")).to_have_count(1)
        playwright_api.expect(page.locator("#status-line")).to_contain_text("What if")
        playwright_api.expect(page.locator("#step")).to_have_value(str(first["index"] - 1))
        assert page.inner_html("#board") != before
        if os.environ.get("TABLETOWN_SCREENSHOTS"):
            page.screenshot(
                path=os.path.join(os.environ["TABLETOWN_SCREENSHOTS"], "replay-analysis-pick.png"),
                full_page=True,
            )
        page.click("#what-if")  # back to the move played
        playwright_api.expect(page.locator("#board.what-if")).to_have_count(0)
        assert page.inner_html("#board") == before
        assert not errors, errors


def test_a_player_of_the_game_gets_its_analysis_without_asking(tmp_path: Path):
    game = get_game("machikoro")
    if shipped_model(game, 2, game.resolve_options(2, None)) is None:
        pytest.skip("no shipped Machi Koro model")
    with served(tmp_path / "player.db", attempts=2) as server, chromium() as browser:
        created = post_table(server, {"game": "machikoro", "seats": ["human", "bot:random"], "seed": 5})
        table = f"{server}/api/tables/{created['id']}"
        token = created["seats"][0]["token"]
        headers = {"authorization": f"Bearer {token}"}
        deadline = time.monotonic() + 60
        while not (view := httpx.get(table, headers=headers).json())["over"]:
            assert time.monotonic() < deadline
            if view["legal"]:  # the last legal move: ends turns quickly, so the game stays short
                httpx.post(
                    f"{table}/actions",
                    json={"seq": view["seq"], "action": view["legal"][-1]},
                    headers=headers,
                )
            else:
                time.sleep(0.05)
        page = browser.new_page()
        errors: list[str] = []
        watch_errors(page, errors)
        page.goto(f"{server}/t/{created['id']}?token={token}")  # this browser now holds seat 0
        page.goto(f"{server}/t/{created['id']}/replay")
        deadline = time.monotonic() + 30
        while httpx.get(f"{table}/analysis").json()["status"] == "none":
            assert time.monotonic() < deadline, "the player's replay page did not ask for the analysis"
            time.sleep(0.1)
        assert page.locator("#analysis-ask").is_hidden()
        assert not errors, errors
