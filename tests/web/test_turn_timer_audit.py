"""The turn-timer audit (security audit 8, 2026-12-05): ways a player, or the other seats, could get
a seat marked away and its turn played by the standby bot. The timer is per decision; a player who
arrives, comes back or faces a new decision gets a whole timer, and the standby bot never moves for a
player who is back. Clocks are moved back by hand rather than waited for, so the tests do not depend
on the machine's speed."""

from __future__ import annotations

import pytest
from web_helpers import create, redeem_invitation, wait_for

from tabletown.web.tables import TableError

TIMER = 30  # seconds; the tests move clocks, they never wait a timer out


def act(client, table_id, token, seq, action):
    return client.post(f"/api/tables/{table_id}/actions", json={"token": token, "seq": seq, "action": action})


def run_clock(table, seat, seconds):
    """As if ``seconds`` of the seat's turn had passed."""
    table.turn_since[seat] -= seconds


def left(table, seat):
    import time

    return TIMER - (time.monotonic() - table.turn_since[seat])


def test_a_friend_who_redeems_the_link_late_gets_a_whole_timer(client):
    """The clock of a seat nobody held ran all the same: a friend opening the link after the
    timer's length was marked away on arrival, and the standby bot played their turn."""
    created = create(client, seats=["human", "human"], seed=5, turn_timer=TIMER, redeem=False)
    table_id = created["id"]
    me = redeem_invitation(client, table_id, created["seats"][0]["token"])
    assert act(client, table_id, me, 0, "b").status_code == 200  # seat 1's turn begins
    svc = client.app.state.service
    table = svc.get(table_id)
    assert table.state.to_act == (1,)
    run_clock(table, 1, TIMER + 5)  # the friend is late; an empty seat waits
    svc.expire_timers(table)
    assert not table.seats[1].away
    redeem_invitation(client, table_id, created["seats"][1]["token"])
    assert left(table, 1) > TIMER - 5
    svc.expire_timers(table)
    assert not table.seats[1].away and table.seq == 1


def test_a_player_who_sits_down_late_gets_a_whole_timer(client):
    created = create(client, seats=["human", "open"], seed=5, turn_timer=TIMER)
    table_id, me = created["id"], created["seats"][0]["token"]
    assert act(client, table_id, me, 0, "b").status_code == 200
    svc = client.app.state.service
    table = svc.get(table_id)
    run_clock(table, 1, TIMER + 5)
    assert client.post(f"/api/tables/{table_id}/sit", json={"seat": 1}).status_code == 200
    assert left(table, 1) > TIMER - 5
    svc.expire_timers(table)
    assert not table.seats[1].away


def test_the_standby_bot_never_moves_for_a_player_who_is_back(make_client, sqlite_url):
    """The driver chose the standby bot, waited and thought, then stored its move without asking
    again whether the seat was still away: a player who pressed "I'm back" (or moved) meanwhile had
    the bot's move played all the same. The move itself now checks it."""
    client = make_client(sqlite_url, bot_delay=5.0)  # the standby bot waits before it moves
    created = create(client, seats=["human", "human"], seed=5, turn_timer=TIMER)
    table_id, me = created["id"], created["seats"][0]["token"]
    svc = client.app.state.service
    table = svc.get(table_id)
    run_clock(table, 0, TIMER + 1)
    svc.expire_timers(table)
    assert table.seats[0].away and svc.auto_seat(table) == (0, svc.standby_name(table.game))
    # the bot starts thinking now; the player presses "I'm back" before it answers
    back = client.post(f"/api/tables/{table_id}/join", json={"token": me, "back": True})
    assert back.status_code == 200 and not table.seats[0].away
    with pytest.raises(TableError) as refused:
        svc.commit(table, 0, table.state.legal_actions(0)[0], "standby", table.seq)
    assert refused.value.status == 409 and refused.value.rule == "seat.back"
    assert table.seq == 0 and svc.auto_seat(table) is None


def test_a_player_back_by_a_move_in_their_own_turn_gets_a_whole_timer(make_client, sqlite_url):
    """Back by a move, the seat kept its expired clock and was marked away again at once."""
    client = make_client(sqlite_url, bot_delay=5.0)
    created = create(client, seats=["human", "human"], seed=5, turn_timer=TIMER)
    table_id, me = created["id"], created["seats"][0]["token"]
    svc = client.app.state.service
    table = svc.get(table_id)
    run_clock(table, 0, TIMER + 1)
    svc.expire_timers(table)
    assert table.seats[0].away
    assert act(client, table_id, me, 0, "p").status_code == 200  # back: my turn goes on
    assert table.state.to_act == (0,) and not table.seats[0].away
    assert left(table, 0) > TIMER - 5
    svc.expire_timers(table)
    assert not table.seats[0].away


def test_a_counter_offer_at_the_last_second_gives_the_answerer_a_whole_timer(client):
    """Lords of Vegas: seat 2 offers seats 0 and 1 a trade; seat 1 counters just before the timer
    ends, in an offer where seat 0 still gives. Seat 0 faces a new decision: a whole timer, not the
    second left of the old one."""
    created = create(client, game="lordsofvegas", seats=["human"] * 3, seed=7, turn_timer=TIMER)
    table_id, tokens = created["id"], [s["token"] for s in created["seats"]]
    svc = client.app.state.service
    table = svc.get(table_id)
    assert table.state.to_act == (2,)
    assert act(client, table_id, tokens[2], 0, "offer 0>2:$1 1>2:$1").status_code == 200
    assert table.state.to_act == (0, 1)
    run_clock(table, 0, TIMER - 1)
    run_clock(table, 1, TIMER - 1)
    assert act(client, table_id, tokens[1], 1, "offer 0>1:$1 2>1:$1").status_code == 200
    assert table.state.to_act == (0, 2)
    assert left(table, 0) > TIMER - 5
    svc.expire_timers(table)
    assert not table.seats[0].away


def test_another_seats_secret_choice_restarts_no_clock(client):
    """In a secret round (New Las Vegas) when another seat steps through its choices is not public,
    so it restarts nobody's clock (each seat's deadline is in every payload)."""
    created = create(client, game="newlasvegas", seats=["human", "human"], seed=3, turn_timer=TIMER)
    svc = client.app.state.service
    table = svc.get(created["id"])
    for _ in range(200):  # play until both seats choose at once and seat 0 has a secret step
        acting = table.state.to_act
        if len(acting) == 2:
            secret = [a for a in table.state.legal_actions(0) if table.state.is_secret(0, a)]
            if secret:
                break
        seat = acting[0]
        svc.commit(table, seat, table.state.legal_actions(seat)[0], "human", table.seq)
    else:
        pytest.fail("no secret round met")
    run_clock(table, 1, 10)
    before = table.turn_since[1]
    svc.commit(table, 0, secret[0], "human", table.seq)
    assert 1 in table.state.to_act and table.turn_since[1] == before


def test_the_seat_whose_secret_move_ends_the_decision_gets_a_whole_timer_for_the_next(client):
    """Security audit 34: the seat whose secret move ended the loan choice or a round (New Las
    Vegas) kept its old clock into the next decision, so a rival who always chose at once could run
    it out a little every round until the standby bot played for it."""
    created = create(client, game="newlasvegas", seats=["human", "human"], seed=3, turn_timer=TIMER)
    svc = client.app.state.service
    table = svc.get(created["id"])
    for _ in range(3):  # the loans, then two rounds
        start = (table.state.round_no, table.state.phase)
        while 0 in table.state.to_act and (table.state.round_no, table.state.phase) == start:
            svc.commit(table, 0, table.state.legal_actions(0)[0], "human", table.seq)
        run_clock(table, 1, 25)  # seat 1 thinks 25 s of its 30, then ends the decision
        while (table.state.round_no, table.state.phase) == start:
            svc.commit(table, 1, table.state.legal_actions(1)[0], "human", table.seq)
        assert sorted(table.state.to_act) == [0, 1]
        assert left(table, 1) > TIMER - 2 and left(table, 0) > TIMER - 2


def test_im_back_through_another_process_stops_the_standby_bot(make_client, sqlite_url, redis_url):
    """Who is away lives in memory: a web process that loaded the table after the bot worker marked
    the seat away held it as present, and "I'm back" there said nothing to the bot worker."""
    bots = make_client(sqlite_url, redis_url=redis_url, run_bots=True, bot_delay=5.0)
    created = create(bots, seats=["human", "human"], seed=5, turn_timer=TIMER)
    table_id, me = created["id"], created["seats"][0]["token"]
    driven = bots.app.state.service.get(table_id)
    run_clock(driven, 0, TIMER + 1)
    bots.app.state.service.expire_timers(driven)
    assert driven.seats[0].away
    web = make_client(sqlite_url, redis_url=redis_url, run_bots=False)  # loads the table on demand
    assert web.post(f"/api/tables/{table_id}/join", json={"token": me, "back": True}).status_code == 200
    wait_for(lambda: not driven.seats[0].away, timeout=10)
    assert driven.seq == 0
