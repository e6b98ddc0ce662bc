"""Issue 28 in real Chromium: the Welcome To New Las Vegas board's own words (the Tabletown.t messages
of board.js, panels.js and sheet.js, from the newlasvegas catalog handed over in the board words) in
Polish, German and Russian. A solo table against ACME is opened with the browser's language set: the
bank loan decision, the head, ACME's panel and the score sheet read in that language; the loan is
then taken through the API and the first round's prompt and cards do too, the English words nowhere.
A screenshot per language lands in the test's temporary folder."""

from __future__ import annotations

import httpx
import pytest
from web_helpers import CHROMIUM, chromium, post_table, served, watch_errors

pytestmark = pytest.mark.skipif(CHROMIUM is None, reason="the chromium package is not installed")

LOCALES = {"pl": "pl-PL", "de": "de-DE", "ru": "ru-RU"}

# Before the first round: the secret bank loan, the head, ACME's panel, the sheet.
LOAN = {
    "pl": [
        "Kredyt (w tajemnicy):",
        "Weź kredyt",
        "Bez kredytu",
        "Przed pierwszą rundą",
        "ACME · karta architekta 4",
        "Twój arkusz",
    ],
    "de": [
        "Das Bankdarlehen (geheim):",
        "Darlehen nehmen",
        "Kein Darlehen",
        "Vor der ersten Runde",
        "ACME · Architektenkarte 4",
        "Dein Wertungsblatt",
    ],
    "ru": [
        "Банковский кредит (тайно):",
        "Взять кредит",
        "Без кредита",
        "Перед первым раундом",
        "ACME · карта архитектора 4",
        "Ваш лист",
    ],
}
# the score sheet (SVG text and titles)
SHEET = {
    "pl": ["Otwarcie", "Sejf", "Pokaz 1", "pole toru otwarcia 1", "kasyno: ulica 1, aleja 1"],
    "de": ["Einweihung", "Tresor", "Show 1", "Kästchen 1 der Einweihungsleiste", "Casino: Straße 1, Allee 1"],
    "ru": ["Открытие", "Сейф", "Шоу 1", "клетка шкалы открытий 1", "казино: улица 1, авеню 1"],
}
# the first round: the prompt and the cards
ROUND = {
    "pl": ["Runda 1", "Wybierz kartę, której numer wpisujesz", "karta 1"],
    "de": ["Runde 1", "Wähle die Karte, deren Nummer du einträgst", "Karte 1"],
    "ru": ["Раунд 1", "Выберите карту, номер которой вписываете", "карта 1"],
}
ENGLISH = [
    "The bank loan (secret)",
    "Take the loan",
    "Before the first round",
    "architect card 4",
    "Your sheet",
    "Choose the card whose number you write",
    "Vault",
    "opening box 1",
    "casino on street",
]


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    with served(tmp_path_factory.mktemp("nlvwords") / "nlv.db", attempts=3) as url:
        yield url


@pytest.fixture(scope="module")
def browser():
    with chromium() as launched:
        yield launched


def play(server: str, created: dict, seat: int, move: str) -> None:
    table, token = created["id"], created["seats"][seat]["token"]
    seq = httpx.get(f"{server}/api/tables/{table}", params={"token": token}).json()["seq"]
    answer = httpx.post(
        f"{server}/api/tables/{table}/actions", json={"token": token, "seq": seq, "action": move}
    )
    assert answer.status_code == 200, (move, answer.text)


@pytest.mark.parametrize("lang", sorted(LOCALES))
def test_the_newlasvegas_board_speaks_the_browsers_language(server, browser, lang, tmp_path):
    created = post_table(
        server,
        {
            "game": "newlasvegas",
            "seats": ["human"],
            "names": ["Ada"],
            "seed": 11,
            "options": {"architect": 4},
        },
    )
    created = created
    context = browser.new_context(locale=LOCALES[lang], viewport={"width": 1280, "height": 900})
    page = context.new_page()
    errors: list[str] = []
    watch_errors(page, errors)
    try:
        page.goto(f"{server}/t/{created['id']}?token={created['seats'][0]['token']}")
        page.wait_for_selector("#board .nlv-acme")
        page.wait_for_selector("#board [data-step=loan]")
        assert page.get_attribute("html", "lang") == lang
        board = page.inner_text("#board")
        for word in LOAN[lang]:
            assert word in board, (word, board)
        sheet = page.text_content("#board .nlv-sheet")
        for word in SHEET[lang]:
            assert word in sheet, (word, sheet)
        page.screenshot(path=str(tmp_path / f"newlasvegas-loan-{lang}.png"), full_page=True)

        play(server, created, 0, "loan")
        page.wait_for_selector("#board .nlv-decision .nlv-card.playable", timeout=20_000)
        everything = page.text_content("#board")  # (the cards' labels are upper-cased by the stylesheet)
        for word in ROUND[lang]:
            assert word in everything, (word, everything)
        for word in ENGLISH:
            assert word not in everything, (word, everything)
        page.screenshot(path=str(tmp_path / f"newlasvegas-round-{lang}.png"), full_page=True)
        assert not errors, errors
    finally:
        context.close()
