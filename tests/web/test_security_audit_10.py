"""The tenth security audit (HTTP level, 2026-12-05): private answers could be kept by a shared cache
(the page asks for its seat's view by a URL that is the same in every browser), nothing private was
marked no-store, and a join link with a slash added was redirected to an absolute URL built from the
request. Public files (/static, /boards) stay cacheable."""

from __future__ import annotations

import pytest
from web_helpers import create


# -- helpers ------------------------------------------------------------------------------------------------------
def directives(response) -> set[str]:
    value = response.headers.get("cache-control", "")
    return {part.strip().split("=")[0].lower() for part in value.split(",") if part.strip()}


def varies_on(response, *names: str) -> bool:
    vary = {v.strip().lower() for v in response.headers.get("vary", "").split(",") if v.strip()}
    return "*" in vary or any(name in vary for name in names)


def shared_cache_may_reuse(request_headers: dict, response) -> bool:
    """Whether an RFC 9111 shared cache (a corporate proxy, a CDN with a default TTL) may answer
    another client's request for the same URL with this stored answer."""
    cc = directives(response)
    if "no-store" in cc or "private" in cc:
        return False
    names = {k.lower() for k in request_headers}
    if "authorization" in names and not cc & {"public", "s-maxage", "must-revalidate"}:
        return False  # RFC 9111 3.5
    # keyed on the credentials: another client's request does not match
    return not varies_on(response, "cookie", "authorization")


def browser_page(client, table_id, invitation, seat):
    """A browser opens a join link and its page redeems the seat (what table.js does)."""
    opened = client.get(f"/t/{table_id}", params={"token": invitation}, follow_redirects=False)
    assert opened.status_code == 303
    assert client.post(f"/api/tables/{table_id}/join", json={"seat": seat}).status_code == 200


# -- 1. a seat's private view, fetched with the table's cookie, is shareable by a proxy -------------------------
def test_a_seat_view_fetched_with_the_cookie_is_not_reusable_by_a_shared_cache(make_client, sqlite_url):
    """The table page fetches GET /api/tables/ID?since=N&seat=K: the same URL for every browser
    watching seat K, the seat told only by the HttpOnly cookie. The answer carries no Cache-Control
    and no Vary: Cookie, so a shared cache (an office proxy, a CDN with a default TTL) that keeps it
    serves seat K's hidden hand and legal moves to the next client asking that URL, whom the server
    itself refuses (403)."""
    victim = make_client(sqlite_url)
    created = create(victim, seed=3, redeem=False)
    table_id = created["id"]
    browser_page(victim, table_id, created["seats"][0]["token"], 0)

    url = f"/api/tables/{table_id}?since=0&seat=0"
    private = victim.get(url)  # quick path (table in memory)
    assert private.status_code == 200
    assert private.json()["state"]["hand"] is not None and private.json()["legal"]

    stranger = make_client(sqlite_url)
    assert stranger.get(url).status_code == 403  # the origin refuses a stranger this answer...
    # ...but a shared cache may hand it the victim's stored one
    assert not shared_cache_may_reuse({"cookie": "tt_..."}, private), dict(private.headers)

    # a repeated parameter skips the quick path: FastAPI's own route answers
    slow = victim.get(f"/api/tables/{table_id}?since=0&seat=0&seat=0")
    assert slow.status_code == 200
    assert not shared_cache_may_reuse({"cookie": "tt_..."}, slow), dict(slow.headers)


# -- 2. answers carrying tokens, join links or a seat's view are not marked no-store -----------------------------
PRIVATE_ANSWERS = [
    "create_table",
    "join_with_token",
    "join_from_page",
    "sit",
    "view_with_token",
    "view_with_bearer",
    "long_poll",
    "move_with_view",
    "record_before_the_end",
    "replay_of_a_seat_before_the_end",
    "table_page_holding_a_seat",
]


@pytest.mark.parametrize("what", PRIVATE_ANSWERS)
def test_private_answers_are_never_stored(client, what):
    """Every answer that holds a seat's token, a join link, or a seat's private view/legal moves
    should be Cache-Control: no-store (no shared cache, no browser disk cache on a shared computer,
    no back/forward cache). Today none has any Cache-Control."""
    created = create(client, seed=3, seats=("human", "human", "open"), redeem=False)
    table_id = created["id"]
    invitation0, invitation1 = created["seats"][0]["token"], created["seats"][1]["token"]
    if what == "create_table":
        answer = client.post("/api/tables", json={"game": "toyrace", "seats": ["human", "human"]})
        assert answer.status_code == 201 and answer.json()["seats"][0]["join_url"]
    elif what == "join_with_token":
        answer = client.post(f"/api/tables/{table_id}/join", json={"token": invitation0})
        assert answer.status_code == 200 and answer.json()["token"]
    elif what == "join_from_page":
        client.get(f"/t/{table_id}", params={"token": invitation1}, follow_redirects=False)
        answer = client.post(f"/api/tables/{table_id}/join", json={"seat": 1})
        assert answer.status_code == 200
    elif what == "sit":
        answer = client.post(f"/api/tables/{table_id}/sit", json={"seat": 2})
        assert answer.status_code == 200 and answer.json()["token"]
    else:
        token = client.post(f"/api/tables/{table_id}/join", json={"token": invitation0}).json()["token"]
        if what == "view_with_token":
            answer = client.get(f"/api/tables/{table_id}", params={"token": token})
        elif what == "view_with_bearer":
            answer = client.get(f"/api/tables/{table_id}", headers={"authorization": f"Bearer {token}"})
        elif what == "long_poll":
            answer = client.get(f"/api/tables/{table_id}", params={"token": token, "seq": 0, "wait": 0.05})
        elif what == "move_with_view":
            legal = client.get(f"/api/tables/{table_id}", params={"token": token}).json()["legal"]
            answer = client.post(
                f"/api/tables/{table_id}/actions",
                json={"token": token, "seq": 0, "action": legal[0], "since": 0},
            )
            assert answer.status_code == 200 and "view" in answer.json()
        elif what == "record_before_the_end":
            answer = client.get(f"/api/tables/{table_id}/record", params={"token": token})
        elif what == "replay_of_a_seat_before_the_end":
            answer = client.get(f"/api/tables/{table_id}/replay", params={"token": token, "seat": 0})
        elif what == "table_page_holding_a_seat":
            client.get(f"/t/{table_id}", params={"token": token}, follow_redirects=False)
            answer = client.get(f"/t/{table_id}")
            assert answer.status_code == 200 and "text/html" in answer.headers["content-type"]
        assert answer.status_code == 200, answer.text
    assert "no-store" in directives(answer), (what, answer.headers.get("cache-control"))


# -- 3. Starlette's trailing-slash redirect is absolute, built from the Host header and the plain scheme ---------
def join_link_with_slash(make_client, sqlite_url, host):
    """``/t/ID/?token=...``: a join link with a slash added (chat apps, hand-editing). Starlette's
    ``redirect_slashes`` answers it with an ABSOLUTE Location built from the request's Host header
    and the scheme uvicorn saw, token and all (every redirect of Tabletown's own is a relative path)."""
    client = make_client(sqlite_url, public_url="https://games.example")
    created = create(client, seed=3, redeem=False)
    table_id, invitation = created["id"], created["seats"][0]["token"]
    assert created["seats"][0]["join_url"].startswith("https://games.example/")
    answer = client.get(
        f"/t/{table_id}/", params={"token": invitation}, headers={"host": host}, follow_redirects=False
    )
    return answer.headers.get("location", ""), invitation


def test_a_join_link_with_a_trailing_slash_is_not_sent_back_over_plain_http(make_client, sqlite_url):
    """Behind a TLS proxy (public URL https; uvicorn sees plain http and trusts no proxy headers) the
    redirect sends the browser, invitation in the query, to http://: a network attacker reads the
    token (no HSTS is set either)."""
    location, invitation = join_link_with_slash(make_client, sqlite_url, "games.example")
    assert not (location.startswith("http://") and invitation in location), location


def test_a_join_link_with_a_trailing_slash_is_not_redirected_by_the_host_header(make_client, sqlite_url):
    """A forged Host (a proxy forwarding any Host, a cache keying on the path only) points the
    redirect, invitation and all, at another domain."""
    location, invitation = join_link_with_slash(make_client, sqlite_url, "evil.example")
    assert "evil.example" not in location, location


def test_public_files_stay_cacheable(client):
    """Scripts, styles and board files are the same for everyone: no no-store on them."""
    for path in ("/static/tabletown.js", "/boards/machikoro/board.js"):
        answer = client.get(path)
        assert answer.status_code == 200, path
        assert "no-store" not in answer.headers.get("cache-control", "") and answer.headers.get("etag")
