"""Multicity's board in a real browser (Playwright driving Debian's chromium): whole 2-player and
4-player games against bots played by clicking on the map (draw, turn the tile, lay it on a slot,
choose a length and click two ends), a refusal explained, the replay drawn. Skipped without chromium.

Set TABLETOWN_SHOTS=folder to keep the screenshots (1280x900 and 375x812)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from web_helpers import CHROMIUM, chromium, served

pytestmark = pytest.mark.skipif(CHROMIUM is None, reason="the chromium package is not installed")

# Board targets whose centre is really clickable (inside the map, not under its zoom buttons).
VISIBLE = """sel => {
  const map = document.querySelector('.mc-map').getBoundingClientRect();
  const zoom = document.querySelector('.mc-zoom').getBoundingClientRect();
  const inside = (r, x, y) => x > r.left && x < r.right && y > r.top && y < r.bottom;
  return [...document.querySelectorAll(sel)].filter(n => {
    const r = n.getBoundingClientRect();
    const x = r.x + r.width / 2, y = r.y + r.height / 2;
    return inside(map, x, y) && !inside(zoom, x, y);
  }).map(n => n.dataset.end || n.dataset.slot);
}"""


@pytest.fixture
def server(tmp_path):
    with served(tmp_path / "mc.db") as url:
        yield url


@pytest.fixture
def browser():
    with chromium() as browser:
        yield browser


def shots(tmp_path) -> Path:
    folder = Path(os.environ.get("TABLETOWN_SHOTS") or tmp_path)
    folder.mkdir(parents=True, exist_ok=True)
    return folder


def create_in_lobby(page, base, seats, deck, seed, kids=False, overlap="strict"):
    page.goto(base + "/")
    page.select_option("#game-select", "multicity")
    page.select_option("#players-select", str(len(seats)))
    for i, kind in enumerate(seats):
        page.select_option(f'select[data-seat="{i}"]', kind)
    page.fill('[data-option="deck"]', str(deck))
    page.select_option('[data-option="first"]', "0")
    if kids:
        page.check('[data-option="kids"]')
    page.select_option('[data-option="overlap"]', overlap)
    page.click("text=More")
    page.fill("#seed", str(seed))
    page.click("#create-button")
    page.wait_for_url("**/t/*")
    page.wait_for_selector(".mc-map")


def seq_of(page) -> str:
    return page.evaluate("() => document.getElementById('status-line').textContent")


def wait_change(page, old):
    page.wait_for_function(
        "o => document.getElementById('status-line').textContent !== o", arg=old, timeout=30000
    )


def play_one(page, turn_tile: bool, touch: bool = False, drag: bool = False) -> str | None:
    """One decision by clicking on the board; returns what was done (None: not our turn)."""
    board = page.locator("#board")
    ends = page.evaluate(VISIBLE, ".mc-end")
    if ends:  # place an object: the longest length with a spot, then its two ends
        lens = board.locator(".mc-len:not([disabled])")
        lens.last.click()
        page.wait_for_selector(".mc-len.on")
        ends = page.evaluate(VISIBLE, ".mc-end")
        if ends:
            old = seq_of(page)
            if drag:  # press on one end, drag to the other, let go
                page.hover(f'.mc-end[data-end="{ends[0]}"]')
                page.mouse.down()
                page.wait_for_selector(".mc-end.first")
                second = page.evaluate(VISIBLE, ".mc-end.second")
                box = page.locator(f'.mc-end.second[data-end="{second[-1]}"]').bounding_box()
                page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2, steps=5)
                page.wait_for_selector(".mc-preview")  # the object drawn where it would lie
                page.mouse.up()
                wait_change(page, old)
                return "drag"
            page.click(f'.mc-end[data-end="{ends[0]}"]')
            page.wait_for_selector(".mc-end.first")
            second = page.evaluate(VISIBLE, ".mc-end.second")
            if not second:  # the other end lies outside the map as it is zoomed: show the whole city
                page.click(".mc-zoom-fit")
                second = page.evaluate(VISIBLE, ".mc-end.second")
            assert second, "a first end lights up its other ends"
            page.click(f'.mc-end.second[data-end="{second[-1]}"]')
            wait_change(page, old)
            return "place"
    if board.locator("button.mc-draw").count():
        old = seq_of(page)
        board.locator("button.mc-draw").click()
        wait_change(page, old)
        return "draw"
    slots = page.evaluate(VISIBLE, ".mc-slot-hit")
    if slots:
        if turn_tile:
            page.keyboard.press("r")
        old = seq_of(page)
        target = f'.mc-slot-hit[data-slot="{slots[len(slots) // 2]}"]'
        if touch:  # a first tap shows the tile there, a second lays it
            page.tap(target)
            page.wait_for_selector(".mc-lay-here")
            page.tap(target)
        else:
            page.click(target)
        # Set-up alike to the test above in this file on purpose: each test stands alone.
        wait_change(page, old)
        return "lay"
    if board.locator("button.mc-pass").count():
        old = seq_of(page)
        board.locator("button.mc-pass").click()
        wait_change(page, old)
        return "pass"
    return None


def refused_off_line(page) -> str:
    """Choose a first end, then click the square diagonally next to it: the board explains the rule."""
    ends = page.evaluate(VISIBLE, ".mc-end")
    page.click(f'.mc-end[data-end="{ends[0]}"]')
    ring = page.locator(".mc-end.first").bounding_box()
    square = ring["width"] / 0.9  # a ring is 0.9 of a square wide
    x, y = ring["x"] + ring["width"] / 2, ring["y"] + ring["height"] / 2
    view = page.locator(".mc-map").bounding_box()  # step towards the middle of the map, so it stays on it
    dx = square if x < view["x"] + view["width"] / 2 else -square
    dy = square if y < view["y"] + view["height"] / 2 else -square
    page.mouse.click(x + dx, y + dy)
    page.wait_for_selector(".mc-tip.refuse")
    text = page.inner_text(".mc-tip")
    page.keyboard.press("Escape")
    page.wait_for_selector(".mc-end.first", state="detached")
    return text


def play_to_the_end(page, limit=400, touch=False, explain=False) -> dict[str, int]:
    done: dict[str, int] = {}
    for n in range(limit):
        if page.locator(".mc-result").count():
            break
        drag = False
        if touch and page.locator("#board button.mc-pass").count():  # the final round: pass once
            old = seq_of(page)
            assert "Final round" in page.inner_text(".mc-final")
            page.locator("#board button.mc-pass").tap()
            wait_change(page, old)
            done["pass"] = done.get("pass", 0) + 1
            continue
        if explain and page.evaluate(VISIBLE, ".mc-end"):
            assert "not in line" in refused_off_line(page)
            explain = False
            done["explained"] = 1
            drag = True
        what = play_one(page, turn_tile=n % 3 == 0, touch=touch, drag=drag)
        if what is None:
            page.wait_for_selector(
                ".mc-result, .mc-end, .mc-slot-hit, button.mc-draw, button.mc-pass", timeout=30000
            )
        else:
            done[what] = done.get(what, 0) + 1
    return done


def test_two_player_game_by_clicking_on_the_map(server, browser, tmp_path):
    errors: list[str] = []
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    create_in_lobby(page, server, ["human", "bot:expert"], deck=12, seed=5)
    assert page.locator(".mc-player").count() == 2
    assert page.locator(".mc-start-flag").count() == 1

    # draw, turn the tile with the key and the button, see the ghost snap to a slot, lay it
    page.wait_for_selector("button.mc-draw")
    old = seq_of(page)
    page.click("button.mc-draw")
    wait_change(page, old)
    page.wait_for_selector(".mc-slot-hit")
    assert page.get_attribute(".mc-turn-btn.on", "data-turn") == "0"
    page.keyboard.press("r")
    assert page.get_attribute(".mc-turn-btn.on", "data-turn") == "1"
    page.click("#mc-rotate")
    assert page.get_attribute(".mc-turn-btn.on", "data-turn") == "2"
    page.keyboard.press("Shift+R")
    assert page.get_attribute(".mc-turn-btn.on", "data-turn") == "1"
    slot = page.evaluate(VISIBLE, ".mc-slot-hit")[0]
    page.hover(f'.mc-slot-hit[data-slot="{slot}"]')
    page.wait_for_selector(".mc-layer-ghost.snapped")
    assert page.get_attribute(".mc-layer-ghost", "data-slot") == slot
    page.screenshot(path=str(shots(tmp_path) / "multicity-lay-1280.png"))
    # a click on the city itself is refused with the rule
    start = page.locator(".mc-start").bounding_box()
    page.mouse.click(start["x"] + start["width"] / 2, start["y"] + start["height"] / 2)
    page.wait_for_selector(".mc-tip.refuse")
    assert "already lies" in page.inner_text(".mc-tip")
    old = seq_of(page)
    page.click(f'.mc-slot-hit[data-slot="{slot}"]')
    wait_change(page, old)
    page.wait_for_selector("text=turned a quarter clockwise")

    # zoom and pan keep working (buttons and a drag)
    before = page.get_attribute(".mc-world", "transform")
    page.click(".mc-zoom-in")
    assert page.get_attribute(".mc-world", "transform") != before
    zoomed = page.get_attribute(".mc-world", "transform")
    page.locator(".mc-map").scroll_into_view_if_needed()
    box = page.locator(".mc-map").bounding_box()
    page.mouse.move(box["x"] + 20, box["y"] + box["height"] - 20)
    page.mouse.down()
    page.mouse.move(box["x"] + 80, box["y"] + box["height"] - 60, steps=4)
    page.mouse.up()
    assert page.locator(".mc-end.first").count() == 0  # a drag on the ground pans, it picks nothing
    panned = page.get_attribute(".mc-world", "transform")
    assert panned != zoomed
    page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    page.mouse.wheel(0, -300)
    page.wait_for_function(
        "t => document.querySelector('.mc-world').getAttribute('transform') !== t", arg=panned
    )
    page.click(".mc-zoom-fit")

    done = play_to_the_end(page, explain=True)
    page.wait_for_selector(".mc-result")
    assert "Game over" in page.inner_text("#status-line")
    assert done.get("lay", 0) >= 1 and done.get("draw", 0) >= 1 and done.get("place", 0) >= 1, done
    assert done.get("explained") == 1 and done.get("drag") == 1, done
    assert "wins" in page.inner_text(".mc-result-head") or "Shared" in page.inner_text(".mc-result-head")
    page.screenshot(path=str(shots(tmp_path) / "multicity-over-1280.png"), full_page=True)
    page.click("text=Replay")
    page.wait_for_selector(".mc-map")
    page.click("#forward")
    # a function, not an expression: Playwright evals an expression, which the CSP forbids
    page.wait_for_function("() => document.getElementById('step').value === '1'")
    assert page.locator(".mc-tile").count() >= 1
    page.close()
    assert errors == []


def test_four_player_game_on_a_phone_kids_and_loose_overlap(server, browser, tmp_path):
    errors: list[str] = []
    page = browser.new_page(viewport={"width": 375, "height": 812}, has_touch=True)
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    create_in_lobby(
        page,
        server,
        ["human", "bot:greedy", "bot:random", "bot:expert"],
        deck=10,
        seed=3,
        kids=True,
        overlap="loose",
    )
    assert page.locator(".mc-player").count() == 4
    assert "kids' variant" in page.inner_text(".mc-chips") and "loose overlap" in page.inner_text(".mc-chips")
    done = play_to_the_end(page, touch=True)
    page.wait_for_selector(".mc-result")
    assert "Game over" in page.inner_text("#status-line")
    assert sum(done.values()) >= 2, done
    assert page.locator(".mc-rank tbody tr").count() == 4
    page.screenshot(path=str(shots(tmp_path) / "multicity-over-375.png"), full_page=True)
    page.close()
    assert errors == []


def move_words(move: str) -> str:
    """A move of the list as the board words it: no coordinates, where it lies as the player sees it."""
    from tabletown.games.multicity.render import TURN_WORDS, _from_start

    if move.startswith("t "):
        at, turn = move[2:].split(" r")
        x, y = map(int, at.split(","))
        return f"Lay the tile {_from_start(x, y)}, {TURN_WORDS[int(turn)]}"
    length, at = move[0], move.split()[1]
    x, y = map(int, at.split(","))
    row, col = ("top", "middle", "bottom")[y % 3], ("left", "middle", "right")[x % 3]
    square = "centre" if row == col == "middle" else f"{row}-{col}"
    where = _from_start(x - x % 3, y - y % 3)
    tile = "the start tile" if where == "on the start tile" else f"the tile {where}"
    how, way = ("lying", "to the right") if move[1] == "h" else ("standing", "downward")
    return f"Place your {length}-square object {how}: from the {square} square of {tile} {way}"


def test_the_move_list_speaks_without_coordinates(server, browser, tmp_path):
    """Issue 27: the move buttons beside the board say where a tile or an object goes as the player
    sees it (from the start tile, which square of which tile), as the log does: no "2, 2 downward"."""
    import re

    import httpx

    created = httpx.post(
        server + "/api/tables",
        json={
            "game": "multicity",
            "seats": ["human", "bot:expert"],
            "seed": 5,
            "options": {"deck": 12, "first": "0"},
        },
    ).json()
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.goto(created["seats"][0]["join_url"])
    kinds = set()
    for step in ("place", "lay"):
        ready = "[data-move^='t ']" if step == "lay" else "[data-move=draw]"
        page.wait_for_selector(f"#legal-moves button.move{ready}", state="attached")
        for details in page.locator("#legal-moves details:not([open]) summary").all():
            details.click()
        buttons = page.locator("#legal-moves button.move")
        for k in range(buttons.count()):
            move, words = buttons.nth(k).get_attribute("data-move"), buttons.nth(k).inner_text()
            assert not re.search(r"-?\d+, ?-?\d+|\br[0-3]\b|rightward|downward from", words), words
            if move not in ("draw", "pass"):
                assert words == move_words(move), move
                kinds.add(move[0] if move[0] == "t" else move[1])
        if step == "place":
            page.locator("#legal-moves").screenshot(path=str(shots(tmp_path) / "multicity-moves-objects.png"))
            old = seq_of(page)
            page.click("#legal-moves button.move[data-move=draw]")
            wait_change(page, old)
        else:
            page.locator("#legal-moves").screenshot(path=str(shots(tmp_path) / "multicity-moves-tiles.png"))
    assert "t" in kinds and kinds & {"h", "v"}, kinds
    assert errors == []
