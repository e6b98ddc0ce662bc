"""Issue 27, keyboard and screen readers: axe-core (from the npm registry, installed into .tools/axe
at test set-up; injected by Playwright, never served to players) reports no serious or critical
violation on each game's table page, its help page and the lobby; a Machi Koro turn is played with
the keyboard alone (Tab to a move, Enter), with a visible focus ring. Real Chromium; skipped when
chromium (or npm, to fetch axe-core) is missing."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path

import httpx
import pytest
from web_helpers import CHROMIUM, chromium, post_table, served, watch_errors

pytestmark = pytest.mark.skipif(CHROMIUM is None, reason="the chromium package is not installed")

ROOT = Path(__file__).resolve().parents[2]
AXE_DIR = ROOT / ".tools" / "axe"
AXE_JS = AXE_DIR / "node_modules" / "axe-core" / "axe.min.js"
SHOTS = "/tmp/shots-27b"
GAMES = {
    "machikoro": {"options": {"harbor": True}, "ready": ".mk-city"},
    "lordsofvegas": {"options": {}, "ready": ".lv-decision, .lv-board, svg"},
    "newlasvegas": {"options": {}, "ready": ".nlv-decision"},
    "multicity": {"options": {}, "ready": "#board svg, #board button"},
}


@pytest.fixture(scope="module")
def axe_js() -> Path:
    """axe-core from the npm registry at the version in .tools/axe's lockfile (make test installs it
    too); fetched here when missing."""
    if not AXE_JS.is_file():
        if shutil.which("npm") is None:
            pytest.skip("npm is missing (Debian: apt-get install nodejs npm): cannot fetch axe-core")
        subprocess.run(
            ["npm", "ci", "--prefix", str(AXE_DIR), "--no-audit", "--no-fund", "--loglevel=error"],
            check=True,
            timeout=300,
        )
    return AXE_JS


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    with served(tmp_path_factory.mktemp("a11y") / "a11y.db") as url:
        yield url


def new_table(server: str, game: str) -> dict:
    created = post_table(
        server,
        {
            "game": game,
            "seats": ["human", "bot:greedy"],
            "names": ["Alice", None],
            "options": GAMES[game]["options"],
            "seed": 7,
        },
    )
    return created


def serious_violations(page, axe_js: Path) -> list[dict]:
    """axe-core's serious and critical violations of the page as it is now."""
    page.add_script_tag(path=str(axe_js))
    report = page.evaluate(
        "async () => { const r = await axe.run(document, { resultTypes: ['violations'] });"
        " return r.violations.map(v => ({ id: v.id, impact: v.impact, help: v.help,"
        " nodes: v.nodes.slice(0, 5).map(n => n.target.join(' ') + ' :: ' + n.failureSummary) })); }"
    )
    return [v for v in report if v["impact"] in ("serious", "critical")]


# The browser set-up of test_no_serious_accessibility_violation_in_the_middle_of_a_game (below) on
# purpose: a fresh page here, a game under way there.
@pytest.mark.parametrize("game", list(GAMES))
def test_no_serious_accessibility_violation_on_each_game_page(server, axe_js, game):
    os.makedirs(SHOTS, exist_ok=True)
    table = new_table(server, game)
    errors: list[str] = []
    with chromium() as browser:
        # axe is injected as an inline script, which the pages' Content-Security-Policy forbids: this
        # test's browser context alone bypasses it (players' pages keep it)
        context = browser.new_context(viewport={"width": 1280, "height": 800}, bypass_csp=True)
        page = context.new_page()
        watch_errors(page, errors)
        page.goto(table["seats"][0]["join_url"])
        page.wait_for_selector("#status-line[data-seat='0']:has-text('You are Alice')")
        page.wait_for_selector(GAMES[game]["ready"])
        page.wait_for_timeout(500)
        found = serious_violations(page, axe_js)
        assert found == [], json.dumps(found, indent=1)
        page.goto(f"{server}/games/{game}/help")
        found = serious_violations(page, axe_js)
        assert found == [], json.dumps(found, indent=1)
        browser.close()
    assert errors == []


def test_lobby_has_no_serious_accessibility_violation(server, axe_js):
    with chromium() as browser:
        page = browser.new_context(viewport={"width": 390, "height": 844}, bypass_csp=True).new_page()
        page.goto(f"{server}/")
        page.wait_for_selector("#game-select option", state="attached")
        found = serious_violations(page, axe_js)
        assert found == [], json.dumps(found, indent=1)
        browser.close()


def tab_to(page, selector: str, limit: int = 150) -> None:
    """Press Tab until the focused element matches ``selector``."""
    for _ in range(limit):
        page.keyboard.press("Tab")
        if page.evaluate(
            "(sel) => !!document.activeElement && document.activeElement.matches(sel)", selector
        ):
            return
    raise AssertionError(f"Tab never reached {selector}")


def test_a_machi_koro_turn_with_the_keyboard_alone(server):
    table = new_table(server, "machikoro")
    errors: list[str] = []
    with chromium() as browser:
        page = browser.new_page(viewport={"width": 1280, "height": 800})
        watch_errors(page, errors)
        page.goto(table["seats"][0]["join_url"])
        page.wait_for_selector("#board .mk-actions button[data-move='roll']")
        tab_to(page, "#board button[data-move='roll']")
        ring = page.evaluate(
            "() => { const s = getComputedStyle(document.activeElement);"
            " return s.outlineStyle !== 'none' && parseFloat(s.outlineWidth) >= 2; }"
        )
        assert ring, "the focused move shows no focus ring"
        page.screenshot(path=f"{SHOTS}/keyboard-focus-desktop.png")
        events = page.locator("#event-log li").count()
        page.keyboard.press("Enter")
        page.wait_for_function("(n) => document.querySelectorAll('#event-log li').length > n", arg=events)
        # the build decision: the move list words every move; Tab to one and press Enter (or build nothing)
        page.wait_for_selector("#legal-moves button.move[data-move='pass'], #status-line:has-text('Waiting')")
        if page.locator("#legal-moves button.move[data-move='pass']").count():
            assert "Build nothing" in page.inner_text("#legal-moves")
            assert "build wheat" not in page.inner_text("#legal-moves")  # words, not notation
            tab_to(page, "#legal-moves button.move[data-move='pass']")
            page.keyboard.press("Enter")
            page.wait_for_selector("#event-log li:has-text('You build nothing')")
        browser.close()
    assert errors == []


@pytest.mark.parametrize("game", ["lordsofvegas", "newlasvegas", "multicity"])
def test_a_move_of_each_game_with_the_keyboard_alone(server, game):
    """Beyond Machi Koro: Tab to a worded move (or New Las Vegas's "Confirm my round" once a step is
    chosen), Enter, until the server has stored a move of ours; the focus ring shows on the way."""
    table = new_table(server, game)
    token = table["seats"][0]["token"]

    def my_moves() -> int:
        record = httpx.get(f"{server}/api/tables/{table['id']}/record", params={"token": token}).json()
        return sum(1 for seat, _ in record["actions"] if seat == 0)

    errors: list[str] = []
    with chromium() as browser:
        page = browser.new_page(viewport={"width": 1280, "height": 800})
        watch_errors(page, errors)
        page.goto(table["seats"][0]["join_url"])
        page.wait_for_selector(GAMES[game]["ready"])
        before = my_moves()
        for _ in range(12):
            if my_moves() > before:
                break
            confirm = "#nlv-confirm:not([disabled])"
            move = "#legal-moves button.move:not([disabled])"
            page.wait_for_selector(f"{confirm}, {move}", timeout=30_000)
            target = confirm if page.locator(confirm).count() else move
            tab_to(page, target)
            ring = page.evaluate("() => getComputedStyle(document.activeElement).outlineStyle !== 'none'")
            assert ring, f"{game}: the focused move shows no focus ring"
            page.keyboard.press("Enter")
            page.wait_for_timeout(400)
        assert my_moves() > before, f"{game}: no move was made with the keyboard"
        browser.close()
    assert errors == []


def play_a_while(server: str, table: dict, moves: int) -> None:
    """Seat 0 plays its first legal move whenever it must act (the bot answers) until ``moves``
    moves are stored or the game ends."""
    import time

    token, path = table["seats"][0]["token"], f"{server}/api/tables/{table['id']}"
    end = time.monotonic() + 60
    while time.monotonic() < end:
        view = httpx.get(path, headers={"authorization": f"Bearer {token}"}).json()
        if view["seq"] >= moves or view["status"] == "finished":
            return
        if view["legal"]:
            httpx.post(
                f"{path}/actions",
                json={"seq": view["seq"], "action": view["legal"][0]},
                headers={"authorization": f"Bearer {token}"},
            )
        else:
            time.sleep(0.1)
    raise AssertionError("the game did not move on")


# The browser set-up of test_no_serious_accessibility_violation_on_each_game_page (above) on
# purpose: a game under way here, a fresh page there.
@pytest.mark.parametrize("game", list(GAMES))
def test_no_serious_accessibility_violation_in_the_middle_of_a_game(server, axe_js, game):
    """The first screen is not the whole game: the same check after a dozen moves (bought cards,
    casinos, a filled sheet, a grown city, the last turn's marks on the board)."""
    table = new_table(server, game)
    play_a_while(server, table, 12)
    # Set-up alike to the first-screen axe test above on purpose: each test stands alone.
    errors: list[str] = []
    with chromium() as browser:
        context = browser.new_context(viewport={"width": 1280, "height": 800}, bypass_csp=True)
        page = context.new_page()
        watch_errors(page, errors)
        page.goto(table["seats"][0]["join_url"])
        page.wait_for_selector(GAMES[game]["ready"])
        page.wait_for_timeout(800)
        page.screenshot(path=f"{SHOTS}/a11y-middle-{game}.png")
        found = serious_violations(page, axe_js)
        assert found == [], json.dumps(found, indent=1)
        browser.close()
    assert errors == []
