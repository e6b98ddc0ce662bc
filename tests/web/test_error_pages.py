"""A browser opening a page that cannot be shown (a table that does not exist, an address past its
allowance, a path the site does not have) gets a page of the site's own with the reason and a way
back; scripts and API clients keep the documented JSON shape ``{"rule", "message"}``."""

from __future__ import annotations

import re
from dataclasses import replace

from web_helpers import create

from tabletown.web.limits import Limits

BROWSER = {"accept": "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8"}


def heading(text: str) -> str:
    found = re.search(r"<h1>(.*?)</h1>", text, re.S)
    assert found, text[:300]
    return found.group(1).strip()


def test_an_unknown_table_page_answers_404_with_a_page_and_a_way_back(client):
    for path in ("/t/nosuchtable", "/t/nosuchtable/replay"):
        answer = client.get(path, headers=BROWSER)
        assert answer.status_code == 404
        assert answer.headers["content-type"].startswith("text/html")
        assert heading(answer.text) == "Nothing here"
        assert 'data-rule="table.not_found"' in answer.text
        assert '<a href="/">Lobby</a>' in answer.text


def test_an_unknown_path_and_an_unknown_game_s_help_are_pages_too(client):
    answer = client.get("/no/such/page", headers=BROWSER)
    assert answer.status_code == 404 and heading(answer.text) == "Nothing here"
    answer = client.get("/games/chess/help", headers=BROWSER)
    assert answer.status_code == 404 and 'data-rule="game.unknown"' in answer.text
    assert "no game called &#39;chess&#39;" in answer.text  # escaped, as every field a client typed


def test_scripts_and_the_api_keep_the_json_shape(client):
    # A script's fetch asks for anything (or JSON); the API answers JSON even to a browser's Accept.
    for path, headers in (
        ("/t/nosuchtable", {}),
        ("/t/nosuchtable", {"accept": "application/json"}),
        ("/api/tables/nosuchtable", BROWSER),
        ("/static/nosuch.js", BROWSER),
    ):
        answer = client.get(path, headers=headers)
        assert answer.status_code == 404, path
        assert answer.headers["content-type"] == "application/json", (path, headers)
        assert set(answer.json()) == {"rule", "message"}


def test_a_page_refused_by_a_limit_says_when_to_try_again(make_client, sqlite_url):
    limits = replace(Limits.off(), table_loads_per_second=0.01, table_loads_burst=1)
    client = make_client(sqlite_url, limits=limits)
    client.get("/t/first", headers=BROWSER)  # an unknown table's load is paid too: the burst is spent
    answer = client.get("/t/second", headers=BROWSER)
    assert answer.status_code == 429
    assert heading(answer.text) == "Too many requests"
    wait = answer.headers["retry-after"]
    assert f"Wait {wait} s and load the page again." in answer.text


def test_the_error_page_speaks_the_reader_s_language(client):
    answer = client.get("/t/nosuchtable?lang=de", headers=BROWSER)
    assert answer.status_code == 404
    assert '<html lang="de">' in answer.text
    assert heading(answer.text) != "Nothing here"
    assert "Lobby" not in heading(answer.text)


def test_a_table_that_exists_still_opens(client):
    table_id = create(client)["id"]
    answer = client.get(f"/t/{table_id}", headers=BROWSER)
    assert answer.status_code == 200 and "error-page" not in answer.text
