"""Issue 28 in real Chromium: the Lords of Vegas board's own words (board.js, trade.js, follow.js:
``Tabletown.t`` with the game's catalog) read in Polish, German and Russian. A casino is built through
the API, then the builder's page is opened with the browser's language set: the board's headings,
panels and buttons are in that language, the casino's colour goes by its printed name, and the English
words are gone. Screenshots land in the test's temporary folder (pytest prints it on failure)."""

from __future__ import annotations

import json
from pathlib import Path

import httpx
import pytest
from web_helpers import CHROMIUM, chromium, post_table, served, watch_errors

pytestmark = pytest.mark.skipif(CHROMIUM is None, reason="the chromium package is not installed")

LOCALES = {"pl": "pl-PL", "de": "de-DE", "ru": "ru-RU"}
SRC = Path(__file__).resolve().parents[2] / "src" / "tabletown"
# Words the board writes itself, in each language (the game's catalog), and their English originals.
WORDS = {
    "pl": [
        "Tor punktacji",
        "Zasoby",
        "Pozostałe płytki",
        "Pozostałe karty",
        "Zakończ turę",
        "Kasyna",
        "Szef kasyna",
        "Zaproponuj wymianę…",
        "Ostatnie dobranie",
    ],
    "de": [
        "Punkteleiste",
        "Vorrat",
        "Verbleibende Plättchen",
        "Verbleibende Karten",
        "Zug beenden",
        "Kasinos",
        "Handel vorschlagen…",
        "Letzte gezogene Karte",
    ],
    "ru": [
        "Шкала подсчета очков",
        "Запас",
        "Осталось жетонов",
        "Осталось карточек",
        "Закончить ход",
        "Казино",
        "Хозяин казино",
        "Предложить сделку…",
        "Последняя карточка",
    ],
}
ENGLISH = [
    "Score track",
    "Supply",
    "Tiles left",
    "Cards left",
    "End turn",
    "Casinos",
    "Propose a trade",
    "Last draw",
    "Click a lot to see it",
    "faces the Strip",
    "card still in the deck",
]


def printed(key: str, lang: str) -> str:
    terms = json.loads((SRC / "games" / "lordsofvegas" / "glossary.json").read_text(encoding="utf-8"))[
        "terms"
    ]
    return terms[key][lang]


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    with served(tmp_path_factory.mktemp("lvwords") / "lv.db", attempts=3) as url:
        yield url


@pytest.fixture(scope="module")
def browser():
    with chromium() as launched:
        yield launched


def a_casino_built(server: str) -> tuple[str, str, str]:
    """A 2-player table where the active seat has built a casino (through the API): its id, that
    seat's token and the colour built."""
    created = post_table(
        server, {"game": "lordsofvegas", "seats": ["human", "human"], "names": ["Ada", "Bolek"], "seed": 3}
    )
    table = created
    tokens = [s["token"] for s in table["seats"]]
    view = httpx.get(f"{server}/api/tables/{table['id']}", params={"token": tokens[0]}).json()
    token = tokens[view["state"]["active"]]
    view = httpx.get(f"{server}/api/tables/{table['id']}", params={"token": token}).json()
    build = next(move for move in view["legal"] if move.startswith("build "))
    answer = httpx.post(
        f"{server}/api/tables/{table['id']}/actions",
        json={"token": token, "seq": view["seq"], "action": build},
    )
    assert answer.status_code == 200, answer.text
    return table["id"], token, build.split()[2]


@pytest.mark.parametrize("lang", sorted(LOCALES))
def test_the_board_speaks_the_browsers_language(server, browser, lang, tmp_path):
    table, token, colour = a_casino_built(server)
    context = browser.new_context(locale=LOCALES[lang], viewport={"width": 1280, "height": 900})
    page = context.new_page()
    errors: list[str] = []
    watch_errors(page, errors)
    try:
        page.goto(f"{server}/t/{table}?token={token}")
        page.wait_for_selector("#board .lv-map", timeout=15_000)
        page.wait_for_selector("#board .lv-casinos", timeout=15_000)
        page.wait_for_timeout(300)  # the board's first drawing
        assert page.get_attribute("html", "lang") == lang
        # (textContent: the words as written, before CSS upper-cases a label; tooltips included)
        board = page.eval_on_selector("#board", "n => n.textContent")
        page.screenshot(path=str(tmp_path / f"lordsofvegas-words-{lang}.png"), full_page=True)
        missing = [word for word in WORDS[lang] if word not in board]
        assert not missing, f"{missing} not on the {lang} board (screenshot in {tmp_path})"
        left = [word for word in ENGLISH if word in board]
        assert not left, f"English {left} on the {lang} board (screenshot in {tmp_path})"
        # the casino built goes by its printed colour in the casinos' table, not by the English id
        casinos = page.eval_on_selector("#board .lv-casinos", "n => n.textContent")
        assert printed(colour, lang) in casinos, casinos
        # the lot's own words: a click on a lot of the casino
        page.click("#board .lv-casinos tr.on, #board .lv-casinos tr:nth-child(2)")
        page.wait_for_selector("#board .lv-lotpanel h3", timeout=5_000)
        panel = page.eval_on_selector("#board .lv-lotpanel", "n => n.textContent")
        assert "printed die" not in panel and "When it pays" not in panel, panel
        page.screenshot(path=str(tmp_path / f"lordsofvegas-lot-{lang}.png"), full_page=True)
        assert not errors, errors
    finally:
        context.close()
