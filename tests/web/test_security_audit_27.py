"""Security audit 27: secret cookies a sibling subdomain could plant.

Found (a ``test_hole_*`` test, failing before its fix): over https the browser secret (``tt_browser``)
and each table's cookie of seat tokens were plain cookies. A page on a sibling subdomain (a user's
site under the same parent domain) may set a cookie for the parent domain, which the browser then
sends here under the same name. Planting a browser secret the attacker knows in an invited friend's
browser let the table's creator, who saw the invitation, compute the seat token the friend's
redemption would give (``redeemed_token(invitation, secret)``) and play or read that seat. Over
https the secret cookies are now named ``__Host-...``: a browser takes such a cookie only from this
very host, Secure, for path ``/`` and without a Domain, so no other host can plant it; and over
https only that name is read. Over plain http (a server on one's own machine) nothing changes.
"""

from __future__ import annotations

from web_helpers import create

from tabletown.web.access import redeemed_token


def https_client(make_client, url):
    client = make_client(url)
    client.base_url = client.base_url.copy_with(scheme="https")
    return client


def test_hole_a_planted_browser_secret_gives_the_creator_no_seat(make_client, sqlite_url):
    client = https_client(make_client, sqlite_url)
    created = create(client, seats=("human", "human"), seed=3, redeem=False)
    table_id, invitation = created["id"], created["seats"][1]["token"]
    planted = "a" * 48  # what the creator's sibling-subdomain page set for the parent domain
    client.cookies.set("tt_browser", planted)
    opened = client.get(f"/t/{table_id}", params={"token": invitation}, follow_redirects=False)
    assert opened.status_code == 303
    joined = client.post(f"/api/tables/{table_id}/join", json={"seat": 1, "name": "Bo", "back": False})
    assert joined.status_code == 200, joined.text
    guessed = redeemed_token(invitation, planted)
    assert client.app.state.service.get(table_id).seats[1].token != guessed
    # the friend's browser holds its own secret under the host-only name, Secure, for path /
    cookies = [v for k, v in joined.headers.multi_items() + opened.headers.multi_items() if k == "set-cookie"]
    secret_cookies = [c for c in cookies if c.startswith("__Host-tt_browser=")]
    assert secret_cookies, cookies
    for cookie in secret_cookies:
        attributes = cookie.lower()
        assert "secure" in attributes and "path=/" in attributes and "domain=" not in attributes
    assert not any(c.startswith("tt_") for c in cookies)
    # and the friend holds the seat: the page reads it through the host-only cookies
    assert client.get(f"/api/tables/{table_id}", params={"seat": 1}).json()["seat"] == 1
    with client.websocket_connect(
        f"wss://testserver/ws/tables/{table_id}?seat=1"
    ) as ws:  # the page's socket: wss
        assert ws.receive_json()["seat"] == 1


def test_a_planted_table_cookie_is_not_read_over_https(make_client, sqlite_url):
    client = https_client(make_client, sqlite_url)
    created = create(client, seats=("human", "human"), seed=3)
    table_id, token = created["id"], created["seats"][0]["token"]
    client.cookies.clear()
    client.cookies.set(f"tt_{table_id}", token)  # planted under the plain name
    assert client.get(f"/api/tables/{table_id}", params={"seat": 0}).status_code == 403
    client.cookies.clear()
    client.cookies.set(f"__Host-tt_{table_id}", token)
    assert client.get(f"/api/tables/{table_id}", params={"seat": 0}).json()["seat"] == 0


def test_over_plain_http_the_cookies_keep_their_names(client):
    created = create(client, seats=("human", "human"), seed=3, redeem=False)
    table_id, invitation = created["id"], created["seats"][1]["token"]
    client.get(f"/t/{table_id}", params={"token": invitation}, follow_redirects=False)
    joined = client.post(f"/api/tables/{table_id}/join", json={"seat": 1, "name": "Bo", "back": False})
    assert joined.status_code == 200
    assert client.cookies.get("tt_browser") and client.cookies.get(f"tt_{table_id}")
    assert client.get(f"/api/tables/{table_id}", params={"seat": 1}).json()["seat"] == 1
