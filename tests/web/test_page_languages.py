"""Issue 28: the pages (lobby, table, replay) in Polish, German and Russian. The page's language comes
from ``?lang=``, else the ``tt_lang`` cookie set by the switch (/lang/<code>), else Accept-Language;
the templates' words and the scripts' words (the page's ``ui-text`` JSON, read by Tabletown.t) come
from the shared catalog, which must be complete and compiled."""

from __future__ import annotations

import html
import json
import re

import pytest
from babel.messages.pofile import read_po
from web_helpers import create

from tabletown.core import catalogs
from tabletown.core.i18n import CORE_DOMAIN, CORE_LOCALE_DIR, missing_translations

LANGS = ("pl", "de", "ru")
HEADERS = {"pl": "pl-PL,pl;q=0.9", "de": "de-DE,de;q=0.9,en;q=0.5", "ru": "ru-RU,ru;q=0.9,en;q=0.8"}
# A few messages of the lobby's template and their translations.
LOBBY_WORDS = {
    "pl": ["Nowy stół", "Utwórz stół", "Stoły", "Twoje imię"],
    "de": ["Neuer Tisch", "Tisch erstellen", "Tische", "Dein Name"],
    "ru": ["Новый стол", "Создать стол", "Столы", "Ваше имя"],
}
# Messages of the scripts (Tabletown.t) and their translations, as the page hands them to the scripts.
SCRIPT_WORDS = {
    "pl": {
        "Your turn": "Twoja tura",
        "Move {n}. Your turn.": "Ruch {n}. Twoja tura.",
        "You win!": "Wygrywasz!",
    },
    "de": {
        "Your turn": "Du bist am Zug",
        "Move {n}. Your turn.": "Zug {n}. Du bist am Zug.",
        "You win!": "Du gewinnst!",
    },
    "ru": {
        "Your turn": "Ваш ход",
        "Move {n}. Your turn.": "Ход {n}. Ваша очередь.",
        "You win!": "Вы победили!",
    },
}


def page_lang(text: str) -> str:
    found = re.search(r'<html lang="([^"]+)">', text)
    assert found, text[:200]
    return found.group(1)


def ui_text(text: str) -> dict[str, str]:
    found = re.search(r'<script id="ui-text" type="application/json">(.*?)</script>', text, re.S)
    assert found, "the page has no ui-text"
    return json.loads(html.unescape(found.group(1)))


def po_messages(lang: str) -> dict[str, str]:
    with (CORE_LOCALE_DIR / lang / "LC_MESSAGES" / f"{CORE_DOMAIN}.po").open("rb") as handle:
        return {m.id: m.string for m in read_po(handle) if m.id}


# -- (a) the browser's language ---------------------------------------------------------------------------
@pytest.mark.parametrize("lang", LANGS)
def test_lobby_in_the_browsers_language(client, lang):
    response = client.get("/", headers={"Accept-Language": HEADERS[lang]})
    assert response.status_code == 200
    assert page_lang(response.text) == lang
    for word in LOBBY_WORDS[lang]:
        assert word in response.text
    markup = re.sub(r'<script id="ui-text".*?</script>', "", response.text, flags=re.S)  # (English keys)
    assert "Create table" not in markup and "New table" not in markup


def test_lobby_in_english_by_default_and_for_other_languages(client):
    for header in (None, "fr-FR,fr;q=0.9", "en-GB,en;q=0.8"):
        response = client.get("/", headers={"Accept-Language": header} if header else {})
        assert page_lang(response.text) == "en"
        assert "New table" in response.text and "Create table" in response.text


def test_quality_values_pick_the_language(client):
    response = client.get("/", headers={"Accept-Language": "fr;q=1, de;q=0.4, ru;q=0.8"})
    assert page_lang(response.text) == "ru"


def test_table_and_replay_pages_in_the_browsers_language(client):
    table = create(client, seats=["human", "bot:greedy"])
    headers = {"Accept-Language": HEADERS["de"]}
    page = client.get(f"/t/{table['id']}", headers=headers)
    assert page.status_code == 200 and page_lang(page.text) == "de"
    assert (
        f"Tisch {table['id']}" in page.text
        and "Deine Züge" in page.text
        and "Nachricht an den Tisch" in page.text
    )
    replay = client.get(f"/t/{table['id']}/replay", headers=headers)
    assert replay.status_code == 200 and page_lang(replay.text) == "de"
    assert "Zurück zum Tisch" in replay.text and "Ansicht als" in replay.text
    upload = client.get("/replay", headers={"Accept-Language": HEADERS["pl"]})
    assert page_lang(upload.text) == "pl" and "Plik zapisu" in upload.text


# -- (b) the switch ------------------------------------------------------------------------------------------
def test_the_switch_sets_the_cookie_and_goes_back(client):
    response = client.get("/lang/ru", params={"back": "/"}, follow_redirects=False)
    assert response.status_code == 303 and response.headers["location"] == "/"
    assert response.cookies.get("tt_lang") == "ru"
    assert "tt_lang=ru" in response.headers["set-cookie"]
    # the cookie beats the browser's language
    page = client.get("/", headers={"Accept-Language": HEADERS["de"]})
    assert page_lang(page.text) == "ru" and "Новый стол" in page.text
    # and ?lang= beats the cookie
    assert page_lang(client.get("/", params={"lang": "pl"}).text) == "pl"


def test_the_switch_goes_back_to_a_page_of_this_site(client):
    table = create(client)
    back = f"/t/{table['id']}/replay"
    response = client.get("/lang/de", params={"back": back}, follow_redirects=False)
    assert response.status_code == 303 and response.headers["location"] == back


@pytest.mark.parametrize(
    "back", ["//evil.example", "https://evil.example", "//evil.example/t/x", "/\\evil.example", "evil"]
)
def test_the_switch_never_sends_elsewhere(client, back):
    response = client.get("/lang/pl", params={"back": back}, follow_redirects=False)
    assert response.status_code == 303 and response.headers["location"] == "/"


@pytest.mark.parametrize("code", ["fr", "xx", "PL", "en-US"])
def test_an_unknown_code_sets_no_cookie(client, code):
    response = client.get(f"/lang/{code}", params={"back": "/"}, follow_redirects=False)
    assert response.status_code == 303 and response.headers["location"] == "/"
    assert "set-cookie" not in response.headers
    assert "tt_lang" not in client.cookies


# -- (c) the scripts' words ------------------------------------------------------------------------------------
@pytest.mark.parametrize("lang", LANGS)
def test_the_page_hands_the_scripts_their_words(client, lang):
    messages = ui_text(client.get("/", headers={"Accept-Language": HEADERS[lang]}).text)
    for message, translated in SCRIPT_WORDS[lang].items():
        assert messages.get(message) == translated
    scripts = {
        m.id for m in catalogs.extract(CORE_DOMAIN) if m.id and any(p.endswith(".js") for p, _ in m.locations)
    }
    assert scripts and scripts <= set(messages)


def test_english_pages_hand_the_scripts_no_words(client):
    assert ui_text(client.get("/").text) == {}


# -- (d) a complete, compiled catalog ---------------------------------------------------------------------------
def test_the_shared_catalog_is_complete_and_compiled():
    assert missing_translations([CORE_DOMAIN]) == []
    assert [path for path in catalogs.stale() if path.startswith("core/")] == []


# -- (e) every script's message is in each catalog ----------------------------------------------------------------
@pytest.mark.parametrize("lang", LANGS)
def test_every_script_message_is_translated(lang):
    extracted = catalogs.extract(CORE_DOMAIN)
    scripts = {m.id for m in extracted if m.id and any(p.endswith(".js") for p, _ in m.locations)}
    assert len(scripts) > 50  # the extractor found the scripts' t("...") calls
    found = po_messages(lang)
    missing = sorted(m for m in scripts if not found.get(m))
    assert missing == []
    # and every message of the pages (templates, scripts, Python) is there too, none left over
    everything = {m.id for m in extracted if m.id}
    assert everything == set(found)


@pytest.mark.parametrize("lang", LANGS)
def test_translations_keep_their_fields(lang):
    for message, translated in po_messages(lang).items():
        if isinstance(message, str):
            assert sorted(re.findall(r"\{\w+\}", translated)) == sorted(re.findall(r"\{\w+\}", message)), (
                message
            )
