"""Issue 28 in real Chromium: each game's table page read in Polish, German and Russian (the browser's
language, then the switch on the page). The page says its language (``<html lang>``), the board names
things by the printed names of the game's glossary, the log is worded in that language, and the
switch keeps the choice. Screenshots land in the test's temporary folder (pytest prints it on failure)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import httpx
import pytest
from web_helpers import CHROMIUM, chromium, post_table, served, watch_errors

from tabletown.core.registry import all_games

pytestmark = pytest.mark.skipif(CHROMIUM is None, reason="the chromium package is not installed")

GAMES = sorted(all_games())
PLAYERS = {"machikoro": 2, "lordsofvegas": 2, "newlasvegas": 2, "multicity": 2}
LOCALES = {"pl": "pl-PL", "de": "de-DE", "ru": "ru-RU"}
SRC = Path(__file__).resolve().parents[2] / "src" / "tabletown"


def printed_names(game: str, lang: str) -> set[str]:
    """The glossary's names in ``lang`` that differ from the English ones."""
    terms = json.loads((SRC / "games" / game / "glossary.json").read_text(encoding="utf-8"))["terms"]
    return {t[lang] for t in terms.values() if t.get(lang) and t[lang] != t.get("en")}


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    with served(tmp_path_factory.mktemp("lang") / "lang.db", attempts=3) as url:
        yield url


@pytest.fixture(scope="module")
def browser():
    with chromium() as launched:
        yield launched


def new_table(server: str, game: str) -> dict:
    players = PLAYERS[game]
    created = post_table(
        server,
        {
            "game": game,
            "seats": ["human"] * players,
            "names": ["Ada", "Bolek", "Cela", "Dora"][:players],
        },
    )
    return created


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("lang", sorted(LOCALES))
def test_a_game_page_in_the_browsers_language(server, browser, game, lang, tmp_path):
    created = new_table(server, game)
    context = browser.new_context(locale=LOCALES[lang], viewport={"width": 1280, "height": 900})
    page = context.new_page()
    errors: list[str] = []
    watch_errors(page, errors)
    try:
        page.goto(f"{server}/t/{created['id']}?token={created['seats'][0]['token']}")
        page.wait_for_selector("#board :is(svg, table, div)", timeout=15_000)
        page.wait_for_timeout(300)  # the board's first drawing
        assert page.get_attribute("html", "lang") == lang
        text = page.inner_text("body")
        shown = {name for name in printed_names(game, lang) if name in text}
        page.screenshot(path=str(tmp_path / f"{game}-{lang}.png"), full_page=True)
        assert shown, f"no printed {lang} name of {game} on the page (screenshot in {tmp_path})"
        current = page.locator("nav.languages a.current")
        assert current.get_attribute("hreflang") == lang
        assert not errors, errors
    finally:
        context.close()


def test_the_switch_changes_the_language_and_keeps_it(server, browser, tmp_path):
    created = new_table(server, "machikoro")
    context = browser.new_context(locale="en-GB")
    page = context.new_page()
    try:
        page.goto(f"{server}/t/{created['id']}?token={created['seats'][0]['token']}")
        page.wait_for_selector("#board :is(svg, table, div)", timeout=15_000)
        assert page.get_attribute("html", "lang") == "en"
        page.click("nav.languages a[hreflang=de]")
        page.wait_for_load_state()
        assert page.get_attribute("html", "lang") == "de"
        assert re.search(r"/t/", page.url), page.url  # back on the table, not elsewhere
        page.goto(f"{server}/")
        assert page.get_attribute("html", "lang") == "de"  # the cookie beats the browser's English
        page.screenshot(path=str(tmp_path / "lobby-de.png"), full_page=True)
    finally:
        context.close()


def test_a_bots_seat_is_called_in_the_pages_language(server, browser, tmp_path):
    from tabletown.core.i18n import seat_names

    created = post_table(server, {"game": "machikoro", "seats": ["human", "bot:expert"], "names": ["Ada"]})
    context = browser.new_context(locale="pl-PL", viewport={"width": 1280, "height": 900})
    page = context.new_page()
    try:
        page.goto(f"{server}/t/{created['id']}?token={created['seats'][0]['token']}")
        page.wait_for_selector("#seat-list li", timeout=15_000)
        polish = seat_names([("human", "Ada"), ("bot:expert", None)], "pl")[1]
        page.wait_for_selector(f"#seat-list li:has-text('{polish}')", timeout=15_000)
        page.screenshot(path=str(tmp_path / "seats-pl.png"), full_page=True)
        assert "Expert bot" not in page.inner_text("body")
    finally:
        context.close()


def test_english_move_words_take_an_before_a_vowel(server, browser):
    """ "Build a Apple Orchard" was on every English Machi Koro page: the article follows the name."""
    created = new_table(server, "machikoro")
    table, token = f"{server}/api/tables/{created['id']}", created["seats"][0]["token"]
    headers = {"authorization": f"Bearer {token}"}
    view = httpx.get(table, headers=headers).json()
    assert httpx.post(
        f"{table}/actions", json={"seq": view["seq"], "action": "roll"}, headers=headers
    ).is_success
    assert "build apple" in httpx.get(table, headers=headers).json()["legal"]  # 3 coins at the start
    context = browser.new_context(locale="en-GB")
    page = context.new_page()
    try:
        page.goto(f"{server}/t/{created['id']}?token={token}")
        apple = page.locator('button[data-move="build apple"]')
        apple.wait_for(state="attached", timeout=15_000)  # (in a folded group of moves)
        assert apple.text_content().startswith("Build an Apple Orchard")
        assert (
            page.locator('button[data-move="build wheat"]').text_content().startswith("Build a Wheat Field")
        )
    finally:
        context.close()
