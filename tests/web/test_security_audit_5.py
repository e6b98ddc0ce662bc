"""The fifth security audit (invitations and the seat cookie, 2026-12-05): holes a table's creator, or
a client forging its cookies, could use to take an invited friend's seat or stall the server. Each is
checked from the outside, as a cheating client would try it; the two-process cases run two server
processes (test clients) on one database, one of them behind on the news of the other."""

from __future__ import annotations

from fastapi.testclient import TestClient
from web_helpers import create, redeem_invitation

from tabletown.web.drivers import Follower


def page_seat(client, table_id, invitation, seat):
    """A browser opens a join link and its page redeems the seat (what table.js does on arrival)."""
    opened = client.get(f"/t/{table_id}", params={"token": invitation}, follow_redirects=False)
    assert opened.status_code == 303
    joined = client.post(f"/api/tables/{table_id}/join", json={"seat": seat})
    assert joined.status_code == 200, joined.text
    return opened


def two_processes(make_client, sqlite_url):
    """Process ``there`` makes a two-seat table and the creator redeems seat 0; process ``here``
    loaded the table before anybody redeemed seat 1 and hears of other processes' writes only as
    news (``shared``, as with Redis)."""
    here, there = make_client(sqlite_url), make_client(sqlite_url)
    created = create(there, seats=("human", "human"), seed=3, redeem=False)
    table_id = created["id"]
    creator = redeem_invitation(there, table_id, created["seats"][0]["token"])
    svc = here.app.state.service
    stale = svc.get(table_id)
    svc.shared = True
    return here, there, table_id, created["seats"][1]["token"], creator, svc, stale


# -- a join racing the news of the friend's redemption ------------------------------------------------------------
def test_news_of_the_redemption_arriving_mid_join_does_not_hand_the_creator_the_new_token(
    make_client, sqlite_url
):
    """The creator keeps sending ``POST .../join {"token": invitation}`` to a process that still
    holds seat 1 unredeemed. The news that the friend redeemed it elsewhere (a catch-up, which
    holds the table's write lock) lands between the join's first look at the token and its write:
    the join used to find a joined seat then and answer its new token, the friend's own."""
    here, there, table_id, invitation, _creator, svc, stale = two_processes(make_client, sqlite_url)
    page_seat(there, table_id, invitation, 1)  # the friend's browser, through process "there"
    friends = there.app.state.service.get(table_id).seats[1].token
    real = stale.write_lock

    class NewsArrivesFirst:
        """The table's write lock; the next writer finds the catch-up of the "seat" news done."""

        armed = True

        def __enter__(self):
            if NewsArrivesFirst.armed:
                NewsArrivesFirst.armed = False
                with real:
                    svc._catch_up(stale, True)
            return real.__enter__()

        def __exit__(self, *exc):
            return real.__exit__(*exc)

        def acquire(self, *args, **kwargs):
            return real.acquire(*args, **kwargs)

        def release(self):
            return real.release()

    stale.write_lock = NewsArrivesFirst()
    answer = here.post(f"/api/tables/{table_id}/join", json={"token": invitation, "name": "Mallory"})
    assert not NewsArrivesFirst.armed  # the news did land inside the join
    assert answer.status_code == 403 and answer.json()["rule"] == "seat.bad_token"
    assert "token" not in answer.json() and friends not in answer.text
    assert stale.seats[1].token == friends and stale.seats[1].name != "Mallory"


def test_a_join_answers_only_the_token_its_own_redemption_made(client):
    """A client redeeming by body gets its new token; joining again (a rename) answers no token."""
    created = create(client, seats=("human", "human"), seed=3, redeem=False)
    table_id, invitation = created["id"], created["seats"][1]["token"]
    first = client.post(f"/api/tables/{table_id}/join", json={"token": invitation}).json()
    token = first["token"]
    assert token != invitation
    again = client.post(f"/api/tables/{table_id}/join", json={"token": token, "name": "Bo"})
    assert again.status_code == 200 and "token" not in again.json() and again.json()["name"] == "Bo"


# -- a missed redemption and a rename heard later -------------------------------------------------------------------
def test_a_name_change_heard_from_another_process_does_not_make_the_invitation_a_token(
    make_client, sqlite_url
):
    """Process ``here`` missed the news of the redemption (it was still loading the table, or the
    message was lost) and then hears the friend's rename. Marking the seat joined then left the
    invitation as its token: the creator could read the friend's hand and move for them there.
    Now the rename is taken only for a seat joined here; otherwise the seats are read again."""
    here, there, table_id, invitation, creator, svc, stale = two_processes(make_client, sqlite_url)
    page_seat(there, table_id, invitation, 1)
    assert there.post(f"/api/tables/{table_id}/join", json={"seat": 1, "name": "Bo"}).status_code == 200
    # "here" hears only the rename, through the code that takes every hub message
    Follower(svc, None)._apply(
        stale, [{"table": table_id, "kind": "joined", "seq": 0, "seat": 1, "name": "Bo"}]
    )
    assert stale.seats[1].joined and stale.seats[1].name == "Bo" and stale.seats[1].token != invitation
    base = f"/api/tables/{table_id}"
    spied = here.get(base, params={"token": invitation})
    assert there.post(f"{base}/actions", json={"token": creator, "seq": 0, "action": "b"}).status_code == 200
    moved = here.post(f"{base}/actions", json={"token": invitation, "seq": 1, "action": "r"})
    assert (spied.status_code, moved.status_code) == (403, 403)


def test_a_table_loaded_while_its_seat_was_redeemed_reads_the_seats(make_client, sqlite_url):
    """A process that loads a table as another redeems a seat catches up with the seats too, so an
    announcement it could not hear (the table was not in memory yet) costs nothing."""
    here, there = make_client(sqlite_url), make_client(sqlite_url)
    created = create(there, seats=("human", "human"), seed=3, redeem=False)
    table_id, invitation = created["id"], created["seats"][1]["token"]
    svc = here.app.state.service
    svc.shared = True
    loaded = svc._load

    def load_then_redeem(table_id_):
        table = loaded(table_id_)
        redeem_invitation(there, table_id, invitation)  # stored while "here" was loading
        return table

    svc._load = load_then_redeem
    table = svc.get(table_id)
    assert table.seats[1].joined and table.seat_for(invitation) is None


# -- the seat cookie --------------------------------------------------------------------------------------------------
def test_secret_cookies_are_secure_when_the_public_address_is_https(make_client, sqlite_url):
    """Behind a TLS proxy the server sees plain http; its https public address still makes the seat
    cookie and the browser secret Secure, so no plain-http request ever carries them."""
    client = make_client(sqlite_url, public_url="https://play.example.org")
    created = create(client, seats=("human", "human"), seed=3, redeem=False)
    opened = client.get(
        f"/t/{created['id']}", params={"token": created["seats"][1]["token"]}, follow_redirects=False
    )
    cookies = opened.headers.get_list("set-cookie")
    # host-only names over https (security audit 27: a sibling subdomain cannot plant them)
    assert {c.split("=")[0] for c in cookies} == {f"__Host-tt_{created['id']}", "__Host-tt_browser"}
    assert all("secure" in c.lower() for c in cookies), cookies
    plain = make_client(sqlite_url)  # no public address, reached over http: not Secure
    opened = plain.get(
        f"/t/{created['id']}", params={"token": created["seats"][0]["token"]}, follow_redirects=False
    )
    assert not any("secure" in c.lower() for c in opened.headers.get_list("set-cookie"))


def test_a_huge_seat_cookie_is_read_no_further_than_its_last_entries(client):
    """A forged cookie of 100,000 entries used to cost an HMAC and a seat lookup each, on the event
    loop, for every view that names a seat; now the entries past the last 16 are never looked at,
    so it costs what a cookie of 16 does (compared as counts of the entries looked at, not times)."""
    from tabletown.web import access

    created = create(client, seats=("human", "human"), seed=3)
    table_id = created["id"]
    looked_at = []
    real = access.redeemed_token

    def counting(invitation, browser):
        looked_at.append(invitation)
        return real(invitation, browser)

    access.redeemed_token = counting
    try:
        for entries in (16, 100_000):
            looked_at.clear()
            client.cookies.clear()
            client.cookies.set(f"tt_{table_id}", ",".join(["a" * 32] * entries))
            client.cookies.set("tt_browser", "b" * 48)
            answer = client.get(f"/api/tables/{table_id}", params={"seat": 0})
            assert answer.status_code == 403 and answer.json()["rule"] == "seat.not_held"
            assert 0 < len(looked_at) <= 16 * 2  # at most the last 16, each once or twice
    finally:
        access.redeemed_token = real
    # entries not shaped like a token are not looked at at all
    looked_at.clear()
    client.cookies.set(f"tt_{table_id}", "a,<script>," + "z" * 500)
    assert client.get(f"/api/tables/{table_id}", params={"seat": 0}).status_code == 403


def test_another_player_cannot_push_a_browsers_seat_out_of_its_cookie(client):
    """The friend's seat lives only as its invitation in the table's cookie (the seat token is told
    from it and the browser's secret). The creator of a 12-seat table could make the friend's browser
    open 16 other join links (a page of any site can steer a popup through them) and push that
    entry out: the seat was lost for good. Now the cookie keeps one entry per seat and never drops
    another seat's."""
    created = create(client, game="newlasvegas", seats=["human"] * 12, seed=3, redeem=False)
    table_id = created["id"]
    invitations = [s["token"] for s in created["seats"]]
    page_seat(client, table_id, invitations[1], 1)  # the friend's browser (this client) sits at seat 1
    creator = TestClient(client.app)
    others = [inv for n, inv in enumerate(invitations) if n != 1]

    def navigate(token):  # the friend's browser is made to open /t/{id}?token=... at the top level
        assert (
            client.get(f"/t/{table_id}", params={"token": token}, follow_redirects=False).status_code == 303
        )

    for invitation in others:
        navigate(invitation)
    for invitation in others[:6]:  # some redeemed by the creator, and their new tokens opened too
        navigate(creator.post(f"/api/tables/{table_id}/join", json={"token": invitation}).json()["token"])
    kept = client.get(f"/api/tables/{table_id}", params={"seat": 1})
    assert kept.status_code == 200 and kept.json()["seat"] == 1
    # the creator's redeemed tokens replaced their invitations: one entry per seat, never more
    assert len(client.cookies.get(f"tt_{table_id}").strip('"').split(",")) <= 12


def test_the_spent_link_opened_again_by_the_browser_that_redeemed_it_keeps_its_seat(client):
    """The browser that redeemed a join link may open it again: its seat is told from it, so it is
    kept (not a 'link spent' page), even when its cookie for the table was lost."""
    created = create(client, seats=("human", "human"), seed=3, redeem=False)
    table_id, invitation = created["id"], created["seats"][1]["token"]
    page_seat(client, table_id, invitation, 1)
    secret = client.cookies.get("tt_browser")
    client.cookies.clear()
    client.cookies.set("tt_browser", secret)  # the table's cookie is gone, the browser secret stays
    again = client.get(f"/t/{table_id}", params={"token": invitation}, follow_redirects=False)
    assert again.status_code == 303
    assert client.get(f"/api/tables/{table_id}", params={"seat": 1}).json()["seat"] == 1
    # another browser (no secret of the redeeming one) is told the link is spent
    other = TestClient(client.app)
    assert (
        other.get(f"/t/{table_id}", params={"token": invitation}, follow_redirects=False).status_code == 403
    )
