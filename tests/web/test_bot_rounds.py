"""A bot's secret round is stored as one move (security, 2026-12-06).

The move count ``seq`` is public. A New Las Vegas round takes one step (a refusal) or three or four
(a pick, a casino, an effect, a copy), so a bot whose steps were stored one by one told the seat
still choosing what kind of round it had played. The driver now plans the bot's whole part of the
round and stores it as one plan (``State.combine``), as the browser does for a person."""

from __future__ import annotations

import random

from web_helpers import create, wait_for

from tabletown.core.registry import get_game
from tabletown.core.session import round_goes_on


def play_beside_a_bot(client, seed: int) -> dict:
    """A two-seat New Las Vegas table, a person (seat 0, random steps sent one by one) beside
    ``bot:greedy``; the person waits for the bot before each step, so the bot always chooses while
    the person's round is still open. Returns the finished record."""
    created = create(client, game="newlasvegas", seats=["human", "bot:greedy"], seed=seed)
    table_id, token = created["id"], created["seats"][0]["token"]
    url = f"/api/tables/{table_id}"
    rng = random.Random(seed)

    def settled():
        view = client.get(url, params={"token": token}).json()
        return view if view["over"] or view["to_act"] == [0] else None

    while not (view := wait_for(settled, timeout=30))["over"]:
        moved = client.post(
            f"{url}/actions", json={"token": token, "seq": view["seq"], "action": rng.choice(view["legal"])}
        )
        assert moved.status_code == 200, moved.text
    record = client.get(f"{url}/record").json()
    assert record["complete"]
    return record


def test_a_bots_round_is_one_move_while_another_seat_still_chooses(client):
    record = play_beside_a_bot(client, seed=5)
    state = get_game("newlasvegas").new_game(len(record["seats"]), record["options"], record["seed"])
    plans = 0
    for seat, text in record["actions"]:
        before = len(state.to_act)
        state.apply_text(seat, text)
        if seat == 1:
            # nothing of the bot's round is left for a later move while the person still chooses
            assert not round_goes_on(state, 1, before), text
            plans += "," in text
    assert state.is_over
    assert plans >= 10  # most rounds were a pick, a casino and an effect, sent together
