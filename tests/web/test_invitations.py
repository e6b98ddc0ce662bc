"""A reserved seat's join link carries an invitation, not the seat: the table's creator saw every
invitation, so the seat's player redeems theirs for a token nobody else has seen, and from then on
the invitation opens nothing (security audit F3: the creator read an invited player's secret
choices and could move for them)."""

from __future__ import annotations

import pytest
from starlette.websockets import WebSocketDisconnect
from web_helpers import create, redeem_invitation


def invited_table(client, seats=("human", "human")):
    created = create(client, seats=seats, seed=3, redeem=False)
    return created["id"], [s["token"] for s in created["seats"]]


def refusal(answer) -> tuple[int, str]:
    return answer.status_code, answer.json()["rule"]


def test_an_invitation_opens_nothing_until_it_is_redeemed(client):
    table_id, (invitation, _) = invited_table(client)
    base = f"/api/tables/{table_id}"
    unredeemed = [
        client.get(base, params={"token": invitation}),
        client.get(base, headers={"authorization": f"Bearer {invitation}"}),
        client.post(f"{base}/actions", json={"token": invitation, "seq": 0, "action": "r"}),
        client.post(f"{base}/draft", json={"token": invitation, "steps": []}),
        client.get(f"{base}/record", params={"token": invitation}),
        client.post(f"{base}/chat", json={"token": invitation, "text": "hello"}),
    ]
    assert [refusal(a) for a in unredeemed] == [(403, "seat.invitation")] * len(unredeemed)
    with (
        pytest.raises(WebSocketDisconnect),
        client.websocket_connect(f"/ws/tables/{table_id}?token={invitation}") as ws,
    ):
        ws.receive_json()
    assert client.app.state.service.get(table_id).seats[0].joined is False  # nothing joined the seat

    joined = client.post(f"{base}/join", json={"token": invitation, "name": "Ada"})
    assert joined.status_code == 200 and joined.json()["name"] == "Ada"
    own = joined.json()["token"]
    assert own != invitation and len(own) >= 24
    assert client.get(base, params={"token": own}).json()["seat"] == 0
    # the invitation is spent: every way in refuses it, and it cannot be redeemed twice
    for spent in (
        client.get(base, params={"token": invitation}),
        client.post(f"{base}/join", json={"token": invitation}),
        client.post(f"{base}/actions", json={"token": invitation, "seq": 0, "action": "r"}),
    ):
        assert refusal(spent) == (403, "seat.bad_token")


def test_the_creator_cannot_read_or_play_a_seat_its_player_took_through_the_link(client):
    table_id, (mine, theirs) = invited_table(client)
    creator = redeem_invitation(client, table_id, mine)
    # The friend's browser: the test client's cookie jar (the creator's requests carry tokens).
    opened = client.get(f"/t/{table_id}", params={"token": theirs}, follow_redirects=False)
    assert opened.status_code == 303 and opened.headers["location"] == f"/t/{table_id}"
    # the page arrives with the invitation in its HttpOnly cookie and redeems it (table.js start())
    joined = client.post(f"/api/tables/{table_id}/join", json={"seat": 1, "name": "Bo", "back": False})
    assert joined.status_code == 200 and "token" not in joined.json()  # page scripts never see tokens
    cookie, browser = client.cookies.get(f"tt_{table_id}"), client.cookies.get("tt_browser")
    assert "httponly" in opened.headers["set-cookie"].lower() and browser
    assert client.get(f"/api/tables/{table_id}", params={"seat": 1}).json()["seat"] == 1
    assert client.app.state.service.get(table_id).seats[1].token not in (theirs, mine, creator)

    base = f"/api/tables/{table_id}"
    tries = [
        client.get(base, params={"token": theirs}),
        client.post(f"{base}/join", json={"token": theirs}),
        client.post(f"{base}/actions", json={"token": theirs, "seq": 0, "action": "r"}),
        client.get(f"{base}/record", params={"token": theirs}),
        client.get(f"{base}/replay", params={"token": theirs, "seat": 1, "step": 0}),
    ]
    assert [a.status_code for a in tries] == [403] * len(tries)
    with (
        pytest.raises(WebSocketDisconnect),
        client.websocket_connect(f"/ws/tables/{table_id}?token={theirs}") as ws,
    ):
        ws.receive_json()
    assert client.get(base, params={"token": creator}).json()["seat"] == 0  # the creator keeps their own
    # the link itself is spent: in another browser it opens nothing, not even with the invitation
    # put in the table's cookie by hand (that browser's own secret does not lead to the seat)...
    client.cookies.clear()
    again = client.get(f"/t/{table_id}", params={"token": theirs}, follow_redirects=False)
    assert again.status_code == 403 and again.headers["content-type"].startswith("text/html")
    assert "This join link opens no seat" in again.text and f'href="/t/{table_id}"' in again.text
    client.cookies.set(f"tt_{table_id}", theirs)
    for secret in (None, "0" * 48):
        if secret:
            client.cookies.set("tt_browser", secret)
        spied = client.get(f"/api/tables/{table_id}", params={"seat": 1})
        assert refusal(spied) == (403, "seat.not_held")
    # ...while the browser that used it (reloading the link, say) is simply taken to its table
    client.cookies.clear()
    client.cookies.set(f"tt_{table_id}", cookie)
    client.cookies.set("tt_browser", browser)
    reloaded = client.get(f"/t/{table_id}", params={"token": theirs}, follow_redirects=False)
    assert reloaded.status_code == 303
    assert client.get(f"/api/tables/{table_id}", params={"seat": 1}).json()["seat"] == 1


def test_a_redemption_whose_answer_was_lost_loses_no_seat(client):
    """The page may leave (a second link opened at once, at a shared device) or the network drop
    while its redemption is under way: the seat was redeemed, and the same browser still holds it,
    its cookies unchanged."""
    table_id, (_, theirs) = invited_table(client)
    client.get(f"/t/{table_id}", params={"token": theirs}, follow_redirects=False)
    before = dict(client.cookies)
    assert client.post(f"/api/tables/{table_id}/join", json={"seat": 1}).status_code == 200
    assert dict(client.cookies) == before  # nothing new to keep: the answer could have been lost
    assert client.app.state.service.get(table_id).seats[1].joined
    assert client.get(f"/api/tables/{table_id}", params={"seat": 1}).json()["seat"] == 1
    assert client.post(f"/api/tables/{table_id}/join", json={"seat": 1, "name": "Bo"}).status_code == 200


def test_a_link_preview_takes_no_seat(client):
    """Chat programs fetch a link to preview it: that GET must not spend the invitation."""
    table_id, (_, theirs) = invited_table(client)
    assert client.get(f"/t/{table_id}", params={"token": theirs}).status_code == 200
    assert client.app.state.service.get(table_id).seats[1].joined is False
    own = redeem_invitation(client, table_id, theirs)
    assert client.get(f"/api/tables/{table_id}", params={"token": own}).json()["seat"] == 1


def test_two_people_with_one_invitation_get_one_seat_between_them(client):
    """The second to redeem it is refused, and learns the seat was taken: nobody shares a seat with
    whoever else held the link without knowing."""
    table_id, (_, theirs) = invited_table(client)
    first = client.post(f"/api/tables/{table_id}/join", json={"token": theirs})
    second = client.post(f"/api/tables/{table_id}/join", json={"token": theirs})
    assert first.status_code == 200 and refusal(second) == (403, "seat.bad_token")
    stored = client.app.state.service.get(table_id).seats[1]
    assert stored.joined and stored.token == first.json()["token"]


def test_a_seat_redeemed_through_another_process_is_recognised_here(make_client, sqlite_url):
    """The page's join went to one server process and its WebSocket or next request comes to
    another, which holds the table from before the redemption and has not heard of it yet: it
    reads the seats again rather than refuse the new token."""
    here, there = make_client(sqlite_url), make_client(sqlite_url)
    table_id, (_, theirs) = invited_table(there)
    seen_here = here.app.state.service.get(table_id)  # in this process's memory, the seat unredeemed
    here.app.state.service.shared = True  # as with Redis between processes (the news is not sent here)
    own = redeem_invitation(there, table_id, theirs)
    assert seen_here.seats[1].token == theirs
    assert here.get(f"/api/tables/{table_id}", params={"token": own}).json()["seat"] == 1
    assert seen_here.seats[1].token == own and seen_here.seats[1].joined
    with here.websocket_connect(f"/ws/tables/{table_id}?token={own}") as ws:
        assert ws.receive_json()["seat"] == 1
    # a token that holds no seat anywhere is still refused, and reads the seats at most so often
    assert refusal(here.get(f"/api/tables/{table_id}", params={"token": "x" * 32})) == (403, "seat.bad_token")


@pytest.mark.parametrize("ask", ["record", "replay", "chat", "draft", "move"])
def test_every_way_in_recognises_a_seat_redeemed_through_another_process(make_client, sqlite_url, ask):
    here, there = make_client(sqlite_url), make_client(sqlite_url)
    table_id, (mine, _) = invited_table(there)
    here.app.state.service.get(table_id)  # held here from before the redemption
    here.app.state.service.shared = True
    own = redeem_invitation(there, table_id, mine)
    base = f"/api/tables/{table_id}"
    answer = {
        "record": lambda: here.get(f"{base}/record", params={"token": own}),
        "replay": lambda: here.get(f"{base}/replay", params={"token": own, "seat": 0, "step": 0}),
        "chat": lambda: here.post(f"{base}/chat", json={"token": own, "text": "hello"}),
        "draft": lambda: here.post(f"{base}/draft", json={"token": own, "steps": []}),
        "move": lambda: here.post(f"{base}/actions", json={"token": own, "seq": 0, "action": "r"}),
    }[ask]()
    # (the toy game has no drafts: that refusal comes after the seat was recognised)
    assert answer.status_code == 200 or answer.json()["rule"] == "draft.unsupported", answer.text
