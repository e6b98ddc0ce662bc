"""``POST /api/tables/{id}/draft``: where a seat's unsent steps lead (a New Las Vegas round clicked
step by step). Only the seat itself may ask, the answer holds only what it may see, and asking
changes nothing at the table."""

from __future__ import annotations

from web_helpers import create


def _nlv_round(client):
    created = create(client, game="newlasvegas", seats=["human", "human"], seed=21)
    tid = created["id"]
    tokens = [s["token"] for s in created["seats"]]
    for seq, token in enumerate(tokens):
        r = client.post(f"/api/tables/{tid}/actions", json={"token": token, "seq": seq, "action": "noloan"})
        assert r.status_code == 200, r.text
    return tid, tokens


def test_a_seat_drafts_its_round_and_nothing_changes(client):
    tid, tokens = _nlv_round(client)
    before = client.get(f"/api/tables/{tid}", params={"token": tokens[0]}).json()
    first = client.post(f"/api/tables/{tid}/draft", json={"token": tokens[0], "steps": []})
    assert first.status_code == 200, first.text
    body = first.json()
    assert sorted(o["text"] for o in body["options"]) == sorted(before["legal"])
    assert body["seq"] == before["seq"] and body["turn"]["step"] == "pick"
    pick = body["options"][0]["text"]
    second = client.post(f"/api/tables/{tid}/draft", json={"token": tokens[0], "steps": [pick]}).json()
    assert second["turn"]["step"] == "open" and second["steps"] == [pick]
    assert all(o["kind"] == "open" for o in second["options"])
    after = client.get(f"/api/tables/{tid}", params={"token": tokens[0]}).json()
    assert after["seq"] == before["seq"] and after["state"] == before["state"]
    # the steps are sent as one move when the player confirms
    plan = ", ".join([pick, second["options"][0]["text"], "skip"])
    moved = client.post(
        f"/api/tables/{tid}/actions", json={"token": tokens[0], "seq": after["seq"], "action": plan}
    )
    assert moved.status_code == 200, moved.text


def test_only_the_seat_may_draft_and_refusals_name_the_rule(client):
    tid, tokens = _nlv_round(client)
    spectator = client.post(f"/api/tables/{tid}/draft", json={"steps": []})
    assert spectator.status_code == 403 and spectator.json()["rule"] == "seat.bad_token"
    other_table, other_tokens = _nlv_round(client)
    stolen = client.post(f"/api/tables/{tid}/draft", json={"token": other_tokens[0], "steps": []})
    assert stolen.status_code == 403
    refused = client.post(
        f"/api/tables/{tid}/draft", json={"token": tokens[0], "steps": ["a", "1.1", "skip"]}
    )
    assert refused.status_code == 422 and refused.json()["rule"].startswith("nlv.")
    junk = client.post(f"/api/tables/{tid}/draft", json={"token": tokens[0], "steps": ["x" * 41]})
    assert junk.status_code == 422
    many = client.post(f"/api/tables/{tid}/draft", json={"token": tokens[0], "steps": ["skip"] * 9})
    assert many.status_code == 422
    wrong_type = client.post(f"/api/tables/{tid}/draft", json={"token": tokens[0], "steps": "a"})
    assert wrong_type.status_code == 422


def test_a_draft_never_shows_another_seats_unsent_steps(client):
    """Seat 0 has sent part of its round; seat 1's draft scores seat 0 from the public sheet, exactly
    as seat 1's view does."""
    tid, tokens = _nlv_round(client)
    seq = client.get(f"/api/tables/{tid}", params={"token": tokens[0]}).json()["seq"]
    for step in range(2):
        legal = client.get(f"/api/tables/{tid}", params={"token": tokens[0]}).json()["legal"]
        r = client.post(
            f"/api/tables/{tid}/actions", json={"token": tokens[0], "seq": seq + step, "action": legal[0]}
        )
        assert r.status_code == 200, r.text
    view1 = client.get(f"/api/tables/{tid}", params={"token": tokens[1]}).json()
    drafted = client.post(f"/api/tables/{tid}/draft", json={"token": tokens[1], "steps": []}).json()
    assert drafted["score_now"]["players"][0] == view1["state"]["score_now"]["players"][0]
    assert "turn" not in view1["state"]["players"][0]
    mine = client.get(f"/api/tables/{tid}", params={"token": tokens[0]}).json()
    assert mine["state"]["players"][0]["sheet"] != view1["state"]["players"][0]["sheet"]


def test_games_without_drafts_refuse(client):
    created = create(client, seats=["human", "human"])
    r = client.post(
        f"/api/tables/{created['id']}/draft", json={"token": created["seats"][0]["token"], "steps": []}
    )
    assert r.status_code == 422 and r.json()["rule"] == "draft.unsupported"
