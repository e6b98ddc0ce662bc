"""Issue 28 in real Chromium: the Machi Koro board's own words (board.js's Tabletown.t messages, from
the machikoro catalog handed over in the board words) in Polish, German and Russian. A table of two
human seats is opened with the browser's language set; the first roll is played through the API, and
the board's buttons, turn line, decision hint, market heading and card tooltips read in that language,
the English ones nowhere. A screenshot per language lands in the test's temporary folder."""

from __future__ import annotations

import httpx
import pytest
from web_helpers import CHROMIUM, chromium, post_table, served, watch_errors

pytestmark = pytest.mark.skipif(CHROMIUM is None, reason="the chromium package is not installed")

LOCALES = {"pl": "pl-PL", "de": "de-DE", "ru": "ru-RU"}

# What the board says before the first roll (seat 0 to roll) and after it (seat 0 may build).
BEFORE = {
    "pl": ["Rzuć jedną kością", "rzuca kośćmi", "Rynek", "Tura 1: Alice"],
    "de": ["Mit einem Würfel würfeln", "würfelt", "Markt", "Zug 1: Alice"],
    "ru": ["Бросить один кубик", "бросает кубики", "Рынок", "Ход 1: Alice"],
}
AFTER = {
    "pl": ["Nic nie buduj", "może budować"],
    "de": ["Nichts bauen", "darf bauen"],
    "ru": ["Ничего не строить", "может строить"],
}
# the card tooltips (in the page, shown on hover)
TIPS = {
    "pl": ["Działa przy wyniku", "Koszt: ", "Efekt: ", "Na rynku zostało: "],
    "de": ["Wirkt bei einem Wurf von", "Kostet ", "Wirkung: ", "auf dem Markt."],
    "ru": ["Срабатывает при результате", "Стоимость: ", "Эффект: ", "Осталось на рынке: "],
}
ENGLISH = [
    "Roll one die",
    "rolls the dice",
    "Turn 1:",
    "Build nothing",
    "may build",
    "Activates on a roll of",
    "Costs ",
    "left in the market.",
    "in this town.",
]


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    with served(tmp_path_factory.mktemp("mkwords") / "mk.db", attempts=3) as url:
        yield url


@pytest.fixture(scope="module")
def browser():
    with chromium() as launched:
        yield launched


def new_table(server: str) -> dict:
    created = post_table(
        server, {"game": "machikoro", "seats": ["human", "human"], "names": ["Alice", "Bob"], "seed": 4}
    )
    return created


def play(server: str, created: dict, seat: int, move: str) -> None:
    table, token = created["id"], created["seats"][seat]["token"]
    seq = httpx.get(f"{server}/api/tables/{table}", params={"token": token}).json()["seq"]
    answer = httpx.post(
        f"{server}/api/tables/{table}/actions", json={"token": token, "seq": seq, "action": move}
    )
    assert answer.status_code == 200, (move, answer.text)


@pytest.mark.parametrize("lang", sorted(LOCALES))
def test_the_machikoro_board_speaks_the_browsers_language(server, browser, lang, tmp_path):
    created = new_table(server)
    context = browser.new_context(locale=LOCALES[lang], viewport={"width": 1280, "height": 1000})
    page = context.new_page()
    errors: list[str] = []
    watch_errors(page, errors)
    try:
        page.goto(f"{server}/t/{created['id']}?token={created['seats'][0]['token']}")
        page.wait_for_selector("#board .mk-city")
        page.wait_for_selector("#board [data-move=roll]")
        assert page.get_attribute("html", "lang") == lang
        board = page.inner_text("#board")
        for word in BEFORE[lang]:
            assert word in board, (word, board)
        tips = page.text_content("#board .mk-market")
        for word in TIPS[lang]:
            assert word in tips, (word, tips)
        page.screenshot(path=str(tmp_path / f"machikoro-roll-{lang}.png"), full_page=True)

        play(server, created, 0, "roll")
        page.wait_for_selector("#board [data-move=pass]", timeout=20_000)
        page.hover("#board .mk-market .mk-card >> nth=0")
        board = page.inner_text("#board")
        for word in AFTER[lang]:
            assert word in board, (word, board)
        everything = page.text_content("#board")
        for word in ENGLISH:
            assert word not in everything, (word, everything)
        page.screenshot(path=str(tmp_path / f"machikoro-build-{lang}.png"), full_page=True)
        assert not errors, errors
    finally:
        context.close()
