"""The sixth security audit (script injection, malformed input, one client slowing everyone;
2026-12-05): no injection and no crash was found; the holes below were, each checked from the
outside as a cheating client would try it."""

from __future__ import annotations

import tracemalloc
from datetime import timedelta

import pytest
from web_helpers import create

from tabletown.web import replaying
from tabletown.web.db import utcnow
from tabletown.web.limits import Limits


def bearer(token):
    return {"authorization": f"Bearer {token}"}


def passing(legal):
    """Machi Koro for ever: roll, then build nothing."""
    return "pass" if "pass" in legal else ("roll" if "roll" in legal else legal[-1])


def play(client, table_id, tokens, moves):
    """``moves`` moves through the API, each seat to act rolling and passing."""
    for _ in range(moves):
        seat = client.get(f"/api/tables/{table_id}?since=999999").json()["to_act"][0]
        view = client.get(f"/api/tables/{table_id}?since=999999", headers=bearer(tokens[seat])).json()
        answer = client.post(
            f"/api/tables/{table_id}/actions",
            json={"seq": view["seq"], "action": passing(view["legal"])},
            headers=bearer(tokens[seat]),
        )
        assert answer.status_code == 200, answer.text


# -- a name that reads as the reader ----------------------------------------------------------------------------
@pytest.mark.parametrize("name", ["You", "you", "YOU", "Ty", "Du", "Вы", "Spectator", "Zuschauer"])
def test_a_player_may_not_take_the_readers_own_word_for_a_name(client, name):
    """Every other seat's log words the reader as "You" ("You roll 1"), and the page shows the
    reader's own chat lines as "You": a player named so had their moves and chat read as the
    reader's own. The word, and "Spectator", are refused in every language of the site."""
    answer = client.post(
        "/api/tables", json={"game": "machikoro", "seats": ["human", "human"], "names": [name, None]}
    )
    assert answer.status_code == 409 and answer.json()["rule"] == "name.reserved", answer.text


def test_joining_or_sitting_as_you_is_refused(client):
    created = create(client, game="machikoro", seats=("human", "open"))
    joined = client.post(
        f"/api/tables/{created['id']}/join",
        json={"name": "You"},
        headers=bearer(created["seats"][0]["token"]),
    )
    sat = client.post(f"/api/tables/{created['id']}/sit", json={"seat": 1, "name": "Du"})
    assert (joined.status_code, sat.status_code) == (409, 409)
    # a name that merely contains the word is a name like any other
    fine = client.post(
        f"/api/tables/{created['id']}/join",
        json={"name": "Young"},
        headers=bearer(created["seats"][0]["token"]),
    )
    assert fine.status_code == 200 and fine.json()["name"] == "Young"


# -- tables of bots played by a script --------------------------------------------------------------------------
def test_tables_of_bots_and_a_scripted_seat_count_against_a_limit(make_client, sqlite_url):
    """Bot-only tables stop at 4 per address; tables of bots and one human seat were not counted at
    all, though the creator's script may play that seat at once and keep the bots thinking as much.
    Now at most 8 such tables that keep moving, per address."""
    client = make_client(sqlite_url, limits=Limits())  # the real limits
    made = []
    for _ in range(9):
        answer = client.post("/api/tables", json={"game": "machikoro", "seats": ["human", "bot:random"]})
        made.append(answer)
    assert [a.status_code for a in made] == [201] * 8 + [429]
    assert made[-1].json()["rule"] == "limit.bot_games" and made[-1].headers["retry-after"]
    # a table with human seats only is not limited by it
    people = client.post("/api/tables", json={"game": "machikoro", "seats": ["human", "human"]})
    assert people.status_code == 201


def test_a_table_of_bots_left_alone_stops_counting(make_client, sqlite_url):
    """A player who leaves tables against bots unfinished is not locked out: a table that saw no
    move for five minutes no longer counts."""
    client = make_client(sqlite_url, limits=Limits(bot_games_per_address=2))
    ids = [
        client.post("/api/tables", json={"game": "machikoro", "seats": ["human", "bot:random"]}).json()["id"]
        for _ in range(2)
    ]
    refused = client.post("/api/tables", json={"game": "machikoro", "seats": ["human", "bot:random"]})
    assert refused.status_code == 429
    table = client.app.state.service.get(ids[0])
    table.updated_at = utcnow() - timedelta(minutes=6)
    again = client.post("/api/tables", json={"game": "machikoro", "seats": ["human", "bot:random"]})
    assert again.status_code == 201


# -- sitting down ---------------------------------------------------------------------------------------------------
def test_one_address_cannot_take_every_open_seat_in_the_lobby(make_client, sqlite_url):
    """POST .../sit had no limit: one client took all 40 open seats of 20 tables in under a second.
    Now 10 a minute per address, bursts of 5."""
    client = make_client(sqlite_url, limits=Limits())
    svc = client.app.state.service
    ids = [svc.create("machikoro", {}, ["open", "open"]).id for _ in range(20)]
    codes = [
        client.post(f"/api/tables/{table_id}/sit", json={"seat": seat}).status_code
        for table_id in ids
        for seat in (0, 1)
    ]
    assert codes[:5] == [200] * 5 and codes.count(200) <= 6 and 429 in codes
    refused = client.post(f"/api/tables/{ids[-1]}/sit", json={"seat": 1})
    assert refused.json()["rule"] == "limit.sits" and refused.headers["retry-after"]


# -- replays of long tables -----------------------------------------------------------------------------------------
def test_replaying_a_long_table_keeps_a_bounded_number_of_positions(client, monkeypatch):
    """A replay kept a copy of the position every 32 moves for as long as the table stayed in memory:
    a 5,000-move table, one request, 156 copies. Checkpoints now spread out as a table grows, at
    most ``MAX_REPLAY_POINTS`` besides the start, and a replay still shows every step right."""
    created = create(client, game="machikoro", seats=("human", "human"), seed=5)
    tokens = [s["token"] for s in created["seats"]]
    play(client, created["id"], tokens, 600)
    table = client.app.state.service.get(created["id"])
    before = client.get(f"/api/tables/{created['id']}/replay?step=600", headers=bearer(tokens[0])).json()
    points = table.replay_points
    assert 0 < len(points) <= replaying.MAX_REPLAY_POINTS + 1
    assert all(step % replaying.checkpoint_every(600) == 0 for step in points)
    for step in (1, 37, 300, 599, 600):  # every step read through the checkpoints, as from the start
        via = client.get(f"/api/tables/{created['id']}/replay?step={step}", headers=bearer(tokens[0])).json()
        table.replay_points.clear()
        fresh = client.get(
            f"/api/tables/{created['id']}/replay?step={step}", headers=bearer(tokens[0])
        ).json()
        assert via["state"] == fresh["state"]
    assert before["step"] == 600
    tracemalloc.start()
    first = tracemalloc.take_snapshot()
    table.replay_points.clear()
    client.get(f"/api/tables/{created['id']}/replay?step=600")
    kept = sum(stat.size_diff for stat in tracemalloc.take_snapshot().compare_to(first, "filename"))
    tracemalloc.stop()
    assert len(table.replay_points) <= replaying.MAX_REPLAY_POINTS + 1 and kept < 2_000_000
