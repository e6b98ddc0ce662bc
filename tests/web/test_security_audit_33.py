"""Security audit 33 (2026-12-07; a helper session played the attacker against cookies, the analysis
queue and bots): a page of another site could send a browser through hundreds of join links of its
own tables; each set a 90-day cookie, which evicted the browser's own seat cookies (Chromium keeps
about 180 a site) or grew every request's head past what the server reads (431 for the whole site)."""

from __future__ import annotations

import pytest
from web_helpers import create


def join_link(client, table_id: str, invitation: str, **headers: str):
    return client.get(f"/t/{table_id}", params={"token": invitation}, headers=headers, follow_redirects=False)


def seat_cookies(response) -> list[str]:
    return [v for k, v in response.headers.multi_items() if k == "set-cookie" and v.startswith("tt_")]


@pytest.mark.parametrize(
    "headers",
    [
        {"Sec-Fetch-Site": "cross-site"},
        {"Sec-Fetch-Site": "same-site"},  # a sibling subdomain is another origin too
        {"Referer": "https://elsewhere.example/page"},  # a browser without Fetch Metadata
    ],
    ids=["cross-site", "same-site", "foreign-referer"],
)
def test_a_join_link_from_another_site_asks_before_it_sets_a_cookie(client, headers):
    created = create(client, seats=("human", "human"), seed=3, redeem=False)
    table_id, invitation = created["id"], created["seats"][1]["token"]
    page = join_link(client, table_id, invitation, **headers)
    assert page.status_code == 200
    assert seat_cookies(page) == [] and not client.cookies.get(f"tt_{table_id}")
    assert page.headers["cache-control"] == "no-store"
    assert "Join this table?" in page.text and "Player 2" in page.text
    # the seat is not this browser's until the player takes it
    assert client.get(f"/api/tables/{table_id}", params={"seat": 1}).status_code == 403
    # "Take the seat" is a link to the same address on this server's page: same-origin
    assert f'href="/t/{table_id}?token={invitation}"' in page.text
    taken = join_link(client, table_id, invitation, **{"Sec-Fetch-Site": "same-origin"})
    assert taken.status_code == 303 and seat_cookies(taken)
    joined = client.post(f"/api/tables/{table_id}/join", json={"seat": 1, "name": "Bo", "back": False})
    assert joined.status_code == 200, joined.text
    assert client.get(f"/api/tables/{table_id}", params={"seat": 1}).json()["seat"] == 1


@pytest.mark.parametrize(
    "headers",
    [
        {"Sec-Fetch-Site": "none"},  # typed or pasted into the address bar, a bookmark
        {"Sec-Fetch-Site": "same-origin"},  # a link on this server's own pages
        {"Referer": "http://testserver/"},  # an older browser, from this server's page
        {},  # no browser at all (a script, a link preview): as before
    ],
    ids=["typed", "same-origin", "own-referer", "no-headers"],
)
def test_a_join_link_opened_by_its_player_takes_the_seat_at_once(client, headers):
    created = create(client, seats=("human", "human"), seed=3, redeem=False)
    table_id, invitation = created["id"], created["seats"][1]["token"]
    opened = join_link(client, table_id, invitation, **headers)
    assert opened.status_code == 303 and opened.headers["location"] == f"/t/{table_id}"
    assert [c for c in seat_cookies(opened) if c.startswith(f"tt_{table_id}=")]


def test_a_spent_link_from_another_site_still_says_it_is_spent(client):
    created = create(client, seats=("human", "human"), seed=3)  # every invitation redeemed
    table_id = created["id"]
    page = join_link(client, table_id, "x" * 43, **{"Sec-Fetch-Site": "cross-site"})
    assert page.status_code == 403 and seat_cookies(page) == []


# -- F2: the analysis queue ----------------------------------------------------------------------


@pytest.fixture
def toys_analysable(monkeypatch):
    from tabletown.web import analyses

    monkeypatch.setattr(analyses, "analysable", lambda table: True)


def finished_tables(client, count):
    from test_security_audit import finished_toy_tables

    return finished_toy_tables(client, count)


def test_another_sites_page_cannot_ask_for_analyses(client, toys_analysable):
    """The POST has no body, so a no-cors fetch from any page needs no preflight: each visitor of
    such a page spent their own address's allowance on the attacker's queue."""
    (table_id,) = finished_tables(client, 1)
    for headers in (
        {"Origin": "https://elsewhere.example", "Sec-Fetch-Site": "cross-site"},
        {"Origin": "https://elsewhere.example"},
        {"Sec-Fetch-Site": "same-site"},
    ):
        refused = client.post(f"/api/tables/{table_id}/analysis", headers=headers)
        assert refused.status_code == 403 and refused.json()["rule"] == "analysis.origin"
    assert client.get(f"/api/tables/{table_id}/analysis").json()["status"] == "none"
    own = client.post(
        f"/api/tables/{table_id}/analysis",
        headers={"Origin": "http://testserver", "Sec-Fetch-Site": "same-origin"},
    )
    assert own.status_code == 202 and own.json()["status"] == "pending"


def test_one_address_keeps_only_a_few_analyses_waiting(make_client, sqlite_url, toys_analysable):
    from tabletown.web.limits import Limits

    client = make_client(sqlite_url, limits=Limits(analyses_per_hour=0, analyses_queued_per_address=2))
    ids = finished_tables(client, 3)
    answers = [client.post(f"/api/tables/{i}/analysis") for i in ids]
    assert [a.status_code for a in answers] == [202, 202, 429]
    assert answers[-1].json()["rule"] == "limit.analyses_waiting"


def test_a_worker_takes_each_address_in_turn(make_client, sqlite_url, toys_analysable):
    """Served oldest first, the three analyses one address asked for came before a fourth from
    anybody else; now each address's first comes before anybody's second."""
    from tabletown.web import analyses

    client = make_client(sqlite_url)
    svc = client.app.state.service
    ids = finished_tables(client, 5)
    for table_id, who in zip(ids, ("a", "a", "a", "b", "a"), strict=True):
        analyses.ask(svc, svc.get(table_id), requester=who)
    claimed = [analyses.claim(svc, "w") for _ in ids]
    assert claimed == [ids[0], ids[3], ids[1], ids[2], ids[4]]
    assert analyses.claim(svc, "w") is None


# -- F3: bots in the web process -----------------------------------------------------------------


def test_serve_with_bots_inside_shortens_the_switch_interval(monkeypatch, tmp_path):
    """Bots' threads share the interpreter lock with the event loop: at the default 5 ms switch
    interval one address's four bot-only tables of searching bots raised every request's latency
    about sevenfold; the embedded server (bots inside) gives the lock up every millisecond."""
    import uvicorn

    from tabletown.web import server

    intervals: list[float] = []
    monkeypatch.setattr(server.sys, "setswitchinterval", intervals.append)
    monkeypatch.setattr(uvicorn, "run", lambda app, **options: None)
    server.serve(db_url=f"sqlite:///{tmp_path / 't.db'}", port=8799)
    assert intervals == [server.BOTS_INSIDE_SWITCH_INTERVAL] and intervals[0] <= 0.001
