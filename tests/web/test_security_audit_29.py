"""Security audit 29 (2026-12-06): griefing and cheap load. A seat whose turn timer ran out said
"I'm back" just before its standby bot moved, got a whole timer again, and so held a timed table
still for ever without making a move. Clocks are moved by hand, never waited for."""

from __future__ import annotations

import pytest
from web_helpers import create, play_past

from tabletown.web.tables import TableError

TIMER = 30


def run_out(svc, table, seat):
    """The seat's whole timer passes and the timer marks it away."""
    table.turn_since[seat] -= TIMER + 1
    svc.expire_timers(table)
    assert table.seats[seat].away


def back(client, table_id, token):
    return client.post(f"/api/tables/{table_id}/join", json={"token": token, "back": True})


def timed_table(make_client, sqlite_url):
    client = make_client(sqlite_url, bot_delay=5.0)  # the standby bot would wait before it moves
    created = create(client, seats=["human", "human"], seed=5, turn_timer=TIMER)
    svc = client.app.state.service
    return client, svc, svc.get(created["id"]), created["seats"][0]["token"]


def test_a_seat_cannot_stall_its_turn_by_coming_back_each_time_its_timer_runs_out(make_client, sqlite_url):
    client, svc, table, me = timed_table(make_client, sqlite_url)
    run_out(svc, table, 0)
    assert back(client, table.id, me).status_code == 200  # once: a whole timer again
    assert not table.seats[0].away
    run_out(svc, table, 0)  # the same decision, its timer out a second time
    refused = back(client, table.id, me)
    assert refused.status_code == 409 and refused.json()["rule"] == "seat.timed_out"
    assert table.seats[0].away and svc.auto_seat(table) == (0, svc.standby_name(table.game))
    # a socket opening (back=True without the refusal) leaves the seat away as well
    svc.touch(table, me, back=True)
    assert table.seats[0].away
    svc.commit(table, 0, table.state.legal_actions(0)[0], "standby", table.seq)
    assert table.seq == 1
    if 0 in table.state.to_act:  # the seat's next decision: coming back works again
        assert back(client, table.id, me).status_code == 200 and not table.seats[0].away


def test_the_player_may_still_make_the_timed_out_move_themselves(make_client, sqlite_url):
    client, svc, table, me = timed_table(make_client, sqlite_url)
    run_out(svc, table, 0)
    back(client, table.id, me)
    run_out(svc, table, 0)
    moved = client.post(
        f"/api/tables/{table.id}/actions",
        json={"token": me, "seq": 0, "action": table.state.legal_actions(0)[0]},
    )
    assert moved.status_code == 200 and table.seq == 1
    with pytest.raises(TableError) as stale:
        svc.commit(table, 0, table.state.legal_actions(0)[0], "standby", 0)
    assert stale.value.status == 409


def test_coming_back_is_never_refused_when_no_standby_bot_would_play(make_client, sqlite_url):
    """With every other player away too, the standby waits; refusing "back" then would leave the
    table with nobody allowed to play it."""
    client, svc, table, me = timed_table(make_client, sqlite_url)
    run_out(svc, table, 0)
    back(client, table.id, me)
    run_out(svc, table, 0)
    table.seats[1].away = True  # the other player has gone too
    assert back(client, table.id, me).status_code == 200 and not table.seats[0].away


def test_moves_from_one_address_share_an_allowance_across_its_seats(make_client, sqlite_url):
    """Seats cost nothing to make, so a per-seat allowance alone let one address move from 56 tokens
    at 235 moves a second (every move a database write), slowing other players' moves twentyfold."""
    import dataclasses

    from tabletown.web.limits import Limits

    limits = dataclasses.replace(Limits.off(), moves_per_address_per_second=0.01, moves_address_burst=7)
    client = make_client(sqlite_url, limits=limits)
    tokens = []
    for seed in (3, 4):  # each table's two seats are redeemed by a join: 4 of the 7
        created = create(client, seed=seed, options={"target": 100})
        tokens.append((created["id"], created["seats"][0]["token"]))
    answers = []
    for table_id, token in tokens + tokens:
        view = client.get(f"/api/tables/{table_id}", params={"token": token}).json()
        action = view["legal"][0] if view["legal"] else "p"
        answers.append(
            client.post(
                f"/api/tables/{table_id}/actions", json={"token": token, "seq": view["seq"], "action": action}
            )
        )
    codes = [answer.status_code for answer in answers]
    assert 429 not in codes[:3]  # (200, or the engine's refusal: the allowance counts attempts)
    assert codes[3] == 429 and answers[3].json()["rule"] == "limit.moves"


def test_views_from_far_back_count_their_events_against_the_address(make_client, sqlite_url):
    """Asking round robin for more readers than the cache of worded events keeps made every view of
    a long table a miss (tens of milliseconds on the event loop each, for every table): views that
    word many events afresh now spend a per-address allowance; asking again for a view whose words
    are cached, or following a table from the last event seen, stays free."""
    import dataclasses

    from tabletown.web.limits import Limits
    from tabletown.web.live import FREE_VIEW_EVENTS

    client = make_client(sqlite_url, limits=dataclasses.replace(Limits.off(), view_events_per_second=0.01))
    created = create(client, game="machikoro", seats=["human", "human"], seed=5)
    svc = client.app.state.service
    table = svc.get(created["id"])
    play_past(svc, table, 2 * FREE_VIEW_EVENTS)
    events = len(table.state.log)
    guard = client.app.state.guard
    guard.view_events.burst = 1.5 * events  # one whole view, not two
    url = f"/api/tables/{table.id}"
    assert client.get(url, params={"since": 0}).status_code == 200  # worded afresh: charged
    assert client.get(url, params={"since": 0}).status_code == 200  # its words are cached: free
    refused = client.get(url, params={"since": 0}, headers={"accept-language": "pl"})  # a new reader
    assert refused.status_code == 429 and refused.json()["rule"] == "limit.views"
    assert client.get(url, params={"since": events - 5}, headers={"accept-language": "de"}).status_code == 200
    # that short view made the German reader's entry; a full view words the rest afresh all the same
    again = client.get(url, params={"since": 0}, headers={"accept-language": "de"})
    assert again.status_code == 429 and again.json()["rule"] == "limit.views"


def test_lobby_lists_are_limited_per_address(make_client, sqlite_url):
    import dataclasses

    from tabletown.web.limits import Limits

    limits = dataclasses.replace(Limits.off(), lobby_lists_per_second=0.01, lobby_lists_burst=2)
    client = make_client(sqlite_url, limits=limits)
    assert [client.get("/api/tables").status_code for _ in range(2)] == [200, 200]
    refused = client.get("/api/tables", params={"status": "open"})
    assert refused.status_code == 429 and refused.json()["rule"] == "limit.lobby"


def test_a_socket_sending_without_pause_is_closed_and_long_messages_are_not_parsed(make_client, sqlite_url):
    """Socket messages were parsed and answered on the event loop with no allowance once the socket
    was open, each up to 64 KB (over a millisecond to parse)."""
    import dataclasses

    from starlette.websockets import WebSocketDisconnect

    from tabletown.web.limits import Limits
    from tabletown.web.routes.sockets import MAX_SOCKET_MESSAGE

    limits = dataclasses.replace(Limits.off(), socket_messages_per_second=0.01, socket_messages_burst=3)
    client = make_client(sqlite_url, limits=limits)
    created = create(client, seed=3)
    url = f"/ws/tables/{created['id']}"
    with client.websocket_connect(url) as ws:
        assert ws.receive_json()["type"] == "view"
        ws.send_text("x" * (MAX_SOCKET_MESSAGE + 1))
        assert ws.receive_json()["status"] == 413
        for _ in range(2):
            ws.send_text("{}")
            assert ws.receive_json()["type"] == "error"
        ws.send_text("{}")  # the fourth message in a burst of three
        with pytest.raises(WebSocketDisconnect) as closed:
            ws.receive_json()
        assert closed.value.code == 1008
