"""Issue 28 in real Chromium: the Multicity board's own words (board.js, pointer.js, follow.js:
``Tabletown.t`` with the game's catalog) read in Polish, German and Russian. A tile is drawn through the
API, then the drawer's page is opened with the browser's language set: the turn line, the drawn tile's
box and buttons, the chips, the players' cards and the legend are in that language, the colours go by
their printed names, and the English words are gone. Screenshots land in the test's temporary folder."""

from __future__ import annotations

import httpx
import pytest
from web_helpers import CHROMIUM, chromium, post_table, served, watch_errors

pytestmark = pytest.mark.skipif(CHROMIUM is None, reason="the chromium package is not installed")

LOCALES = {"pl": "pl-PL", "de": "de-DE", "ru": "ru-RU"}
# Words the board writes itself, in each language (the game's catalog), and their English originals.
WORDS = {
    "pl": [
        "Twoja dobrana płytka",
        "↻ Obróć",
        "dołóż dobraną płytkę na przerywanym polu",
        "w stosie:",
        "płytka w mieście",
        "na ruchu",
        "Przeciągnij, aby przesunąć",
        "Obróć w prawo (R)",
        "Pokaż całe miasto (0)",
        "START",
    ],
    "de": [
        "Dein gezogenes Plättchen",
        "↻ Drehen",
        "lege das gezogene Plättchen auf einen gestrichelten Platz",
        "im Stapel",
        "Plättchen in der Stadt",
        "am Zug",
        "Ziehen zum Verschieben",
        "Nach rechts drehen (R)",
        "Die ganze Stadt zeigen (0)",
    ],
    "ru": [
        "Ваша вытянутая плитка",
        "↻ Повернуть",
        "положите вытянутую плитку на пунктирное место",
        "в стопке:",
        "плитка в городе",
        "ходит",
        "Перетаскивайте для прокрутки",
        "Повернуть вправо (R)",
        "Показать весь город (0)",
        "СТАРТ",
    ],
}
ENGLISH = [
    "Your drawn tile",
    "Rotate",
    "lay the drawn tile",
    "in the stack",
    "in the city",
    "to play",
    "Drag to pan",
    "Turn right",
    "Show the whole city",
    "squares left",
    "Last turn",
]
COLOURS = {"pl": "zielony", "de": "Grün", "ru": "зелёный"}  # seat 0's colour, as the glossary prints it


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    with served(tmp_path_factory.mktemp("mcwords") / "mc.db", attempts=3) as url:
        yield url


@pytest.fixture(scope="module")
def browser():
    with chromium() as launched:
        yield launched


def a_tile_drawn(server: str) -> tuple[str, str]:
    """A 2-player table where the first player has drawn a tile (through the API): its id and that
    seat's token."""
    created = post_table(
        server,
        {
            "game": "multicity",
            "seats": ["human", "human"],
            "names": ["Ada", "Bolek"],
            "seed": 5,
            "options": {"first": "0"},
        },
    )
    table = created
    token = table["seats"][0]["token"]
    view = httpx.get(f"{server}/api/tables/{table['id']}", params={"token": token}).json()
    assert "draw" in view["legal"], view["legal"]
    answer = httpx.post(
        f"{server}/api/tables/{table['id']}/actions",
        json={"token": token, "seq": view["seq"], "action": "draw"},
    )
    assert answer.status_code == 200, answer.text
    return table["id"], token


@pytest.mark.parametrize("lang", sorted(LOCALES))
def test_the_board_speaks_the_browsers_language(server, browser, lang, tmp_path):
    table, token = a_tile_drawn(server)
    context = browser.new_context(locale=LOCALES[lang], viewport={"width": 1280, "height": 900})
    page = context.new_page()
    errors: list[str] = []
    watch_errors(page, errors)
    try:
        page.goto(f"{server}/t/{table}?token={token}")
        page.wait_for_selector("#board .mc-map", timeout=15_000)
        page.wait_for_selector("#board .mc-drawn-box.mine", timeout=15_000)
        page.wait_for_timeout(300)  # the board's first drawing
        assert page.get_attribute("html", "lang") == lang
        # (textContent: the words as written, before CSS changes their case; titles and the map's text included)
        board = page.eval_on_selector("#board", "n => n.textContent")
        board += " ".join(
            page.eval_on_selector_all(
                "#board [title], #board [aria-label]",
                "ns => ns.map(n => (n.getAttribute('title') || '') + ' ' + (n.getAttribute('aria-label') || ''))",
            )
        )
        page.screenshot(path=str(tmp_path / f"multicity-words-{lang}.png"), full_page=True)
        missing = [word for word in WORDS[lang] if word not in board]
        assert not missing, f"{missing} not on the {lang} board (screenshot in {tmp_path})"
        left = [word for word in ENGLISH if word in board]
        assert not left, f"English {left} on the {lang} board (screenshot in {tmp_path})"
        assert COLOURS[lang] in board
        assert not errors, errors
    finally:
        context.close()
