"""Post-game analyses on the server (issue 30): asked for a finished table only, claimed by exactly
one process, made in a bot worker's child process, kept and served from the database."""

from __future__ import annotations

import pytest
from web_helpers import create, wait_for

from tabletown.analysis.model import shipped_model
from tabletown.core.registry import get_game
from tabletown.web import analyses


def finished_table(client, game="machikoro", seed=12):
    created = create(client, game=game, seats=["bot:greedy", "bot:random"], seed=seed)
    wait_for(lambda: client.get(f"/api/tables/{created['id']}").json()["over"], timeout=60)
    return created["id"]


def test_an_unfinished_table_is_not_analysed(client):
    created = create(client, seed=3)
    url = f"/api/tables/{created['id']}/analysis"
    assert client.get(url).json()["status"] == "none"
    refused = client.post(url)
    assert refused.status_code == 409 and refused.json()["rule"] == "analysis.unfinished"
    assert client.post("/api/tables/nosuchtable/analysis").status_code == 404


def test_only_one_process_claims_an_analysis(client, monkeypatch):
    monkeypatch.setattr(analyses, "analysable", lambda table: True)  # no model ships for the toy game
    table_id = finished_table(client, game="toyrace")
    svc = client.app.state.service
    # the server's own analyst would race us for it: take it out of the way first
    client.portal.call(client.app.state.analyst.stop)
    first = client.post(f"/api/tables/{table_id}/analysis")
    assert first.status_code == 202 and first.json()["status"] == "pending"
    assert client.post(f"/api/tables/{table_id}/analysis").json()["status"] == "pending"  # asked once
    claims = [analyses.claim(svc, "one"), analyses.claim(svc, "two")]
    assert claims.count(table_id) == 1 and claims.count(None) == 1
    assert client.get(f"/api/tables/{table_id}/analysis").json()["status"] == "running"


def test_a_finished_game_is_analysed_and_kept(client):
    game = get_game("machikoro")
    if shipped_model(game, 2, game.resolve_options(2, None)) is None:
        pytest.skip("no shipped Machi Koro model")
    table_id = finished_table(client)
    url = f"/api/tables/{table_id}/analysis"
    assert client.post(url).status_code == 202
    done = wait_for(lambda: (a := client.get(url).json())["status"] in ("done", "failed") and a, timeout=120)
    assert done["status"] == "done", done
    analysis = done["analysis"]
    record = client.get(f"/api/tables/{table_id}/record").json()
    assert analysis["game"] == "machikoro" and len(analysis["curve"]) == len(record["actions"]) + 1
    assert analysis["decisions"] and all(0 <= d["loss"] <= 1 for d in analysis["decisions"])
    # asking again serves what is stored
    assert client.post(url).json()["analysis"] == analysis


def test_the_better_move_is_tried_on_the_board_only_once_the_game_is_over(client):
    table_id = finished_table(client, seed=21)
    record = client.get(f"/api/tables/{table_id}/record").json()
    game = get_game("machikoro")
    state = game.new_game(2, record["options"], record["seed"])
    # the first decision where another move was legal: try that one instead of the move played
    step = 0
    while True:
        seat, played = record["actions"][step]
        others = [m for m in state.legal_actions(seat) if state.format_action(m) != played]
        if others:
            break
        state.apply_text(seat, played)
        step += 1
    other = state.format_action(others[0])
    url = f"/api/tables/{table_id}/replay"
    tried = client.get(url, params={"step": step, "instead": other, "seat": seat}).json()
    assert tried["instead"] == {"seat": seat, "move": other, "played": played}
    assert tried["step"] == step
    state.apply_text(seat, other)
    assert tried["state"] == state.view(seat)["state"]  # the engine's position after the other move
    assert tried["to_act"] == list(state.to_act)
    assert tried != client.get(url, params={"step": step + 1, "seat": seat}).json()
    refused = client.get(url, params={"step": step, "instead": "fly to the moon"})
    assert refused.status_code == 422 and refused.json()["rule"] == "replay.instead_refused"
    past = client.get(url, params={"step": len(record["actions"]), "instead": other})
    assert past.status_code == 422 and past.json()["rule"] == "replay.instead_step"
    # on a running table a move tried on a copy could show what comes next: refused
    running = create(client, seed=3)
    live = client.get(f"/api/tables/{running['id']}/replay", params={"step": 0, "instead": "roll"})
    assert live.status_code == 403 and live.json()["rule"] == "replay.instead_live"
    # an uploaded record may try a move too
    uploaded = client.post("/api/replay", json={"record": record, "step": step, "instead": other}).json()
    assert uploaded["instead"]["move"] == other
