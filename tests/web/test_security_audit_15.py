"""Security audit 15 (2026-12-05): cheap requests that cost the server a lot of CPU.

Each test failed before its fix: replay steps (of a table or a kept upload) were unlimited, a
refused upload was read through before its refusal, a finished table's record was rebuilt (its
final position hashed) at every request, and views of long tables worded thousands of events at
every request with nothing counting them. No test asserts a time: each counts answers (a 429
expected) or work done (calls of the costly function).

Set-up (module fixture): a finished 4-seat Machi Koro table of about 1,300 moves, played through the
API by a server with the limits off (nobody builds for a thousand moves: any player can make such a
game). Each test then opens a server with the default limits on the same database, as a stranger
would meet it.
"""

from __future__ import annotations

import random

import pytest
from fastapi.testclient import TestClient

from tabletown.core import record as core_record
from tabletown.core.registry import get_game
from tabletown.games.machikoro.state import MachiKoroState
from tabletown.web import live, replaying
from tabletown.web.app import create_app
from tabletown.web.limits import Limits

RAPID = 120  # requests one client sends back to back


def long_machikoro(seed: int = 1, until: int = 1100) -> list[list]:
    """A finished 4-seat Machi Koro game of ~1,300 moves: nobody builds until move ``until``."""
    state = get_game("machikoro").new_game(4, {}, seed)
    rng, actions = random.Random(seed), []
    while not state.is_over:
        player = state.to_act[0]
        legal = state.legal_actions(player)
        texts = [state.format_action(a) for a in legal]
        calm = [i for i, t in enumerate(texts) if t.split()[0] in {"pass", "roll", "keep", "noswap"}]
        i = rng.choice(calm) if calm and len(actions) < until else rng.randrange(len(texts))
        actions.append([player, texts[i]])
        state.apply(player, legal[i])
    return actions


@pytest.fixture(scope="module")
def long_table(tmp_path_factory):
    """(database URL, table id, number of moves, the finished record) of the long table."""
    url = f"sqlite:///{tmp_path_factory.mktemp('audit15') / 'long.db'}"
    actions = long_machikoro()
    with TestClient(create_app(url, limits=Limits.off())) as client:
        created = client.post("/api/tables", json={"game": "machikoro", "seats": ["human"] * 4, "seed": 1})
        table_id = created.json()["id"]
        tokens = [
            client.post(f"/api/tables/{table_id}/join", json={"token": s["token"]}).json()["token"]
            for s in created.json()["seats"]
        ]
        for seq, (seat, text) in enumerate(actions):
            moved = client.post(
                f"/api/tables/{table_id}/actions", json={"token": tokens[seat], "seq": seq, "action": text}
            )
            assert moved.status_code == 200, moved.text
        assert client.get(f"/api/tables/{table_id}").json()["status"] == "finished"
        record = client.get(f"/api/tables/{table_id}/record").json()
    return url, table_id, len(actions), record


@pytest.fixture
def stranger(long_table):
    """A server with the default limits on the long table's database (one client address)."""
    with TestClient(create_app(long_table[0], limits=Limits())) as client:
        yield client


def worst_steps(moves: int) -> list[int]:
    """The steps farthest from a replay checkpoint: each replays ``checkpoint_every - 1`` moves."""
    every = replaying.checkpoint_every(moves)
    return [k * every + every - 1 for k in range(moves // every)]


# -- 1: GET /api/tables/{id}/replay: ~1,000 moves replayed a request, anonymously, no limit -------------
def test_replaying_a_long_table_from_one_address_is_limited(long_table, stranger):
    """Each request for a step just before a checkpoint replays 1,023 moves (checkpoints are 1,024
    apart on a 4,500-move table): 25-50 ms of CPU, up to 200 ms. Anyone may ask, for any finished
    table (and any table's spectator view while it runs), as often as they like: ~25 requests a
    second from one client keep a core busy. Expected: past an allowance, 429 ``limit.replays``."""
    _, table_id, moves, _ = long_table
    steps = worst_steps(moves)
    codes = [
        stranger.get(f"/api/tables/{table_id}/replay", params={"step": steps[i % len(steps)]}).status_code
        for i in range(RAPID)
    ]
    assert 429 in codes, (
        f"{RAPID} replays of {replaying.checkpoint_every(moves) - 1} moves each, all answered"
    )


# -- 2: POST /api/replay: re-stepping a kept upload is free, and costs as much as a new one ---------------
def test_restepping_a_kept_upload_from_one_address_is_limited(long_table, stranger):
    """A record already uploaded is "free" (docs: stepping through one record is free), yet every
    re-step re-validates and re-keys the 60 KB record (~20 ms) and replays up to 1,023 moves from a
    checkpoint (~45 ms in all, up to 130 ms). One upload from the allowance buys unlimited work."""
    _, _, moves, record = long_table
    record = {k: v for k, v in record.items() if k != "complete"}
    first = stranger.post("/api/replay", json={"record": record, "step": 0})
    assert first.status_code == 200, first.text
    steps = worst_steps(moves)
    codes = [
        stranger.post("/api/replay", json={"record": record, "step": steps[i % len(steps)]}).status_code
        for i in range(RAPID)
    ]
    assert 429 in codes, f"{RAPID} re-steps of a kept 60 KB upload, all answered"


# -- 3: POST /api/replay: the uploads limit is checked after the costly part of the request ------------------
def test_an_upload_past_the_allowance_is_refused_before_its_record_is_read(long_table, stranger, monkeypatch):
    """``limit.uploads`` is taken only after ``Record.from_json`` has walked the whole record, the
    options are resolved and the 64 KB key is serialized with sorted keys: a refused (429) upload
    still costs ~25-30 ms, so the limit bounds nothing. Past the burst, a refusal must come before
    the record is read (at most a few reads past the 10 admitted)."""
    record = {k: v for k, v in long_table[3].items() if k != "complete"}
    reads = []
    original = core_record.Record.from_json.__func__

    def counting(cls, data):
        reads.append(1)
        return original(cls, data)

    monkeypatch.setattr(core_record.Record, "from_json", classmethod(counting))
    codes = [
        stranger.post("/api/replay", json={"record": {**record, "seed": seed}, "step": 1}).status_code
        for seed in range(40)
    ]
    refused = codes.count(429)
    assert refused >= 20  # the limit does refuse...
    assert len(reads) <= 40 - refused + 3, f"{len(reads)} records read for {40 - refused} admitted"


def test_stepping_through_a_replay_move_by_move_costs_one_move_each(long_table, stranger, monkeypatch):
    """The last position a replay reached is kept: the next step replays one move, not up to a
    checkpoint's spacing, so a person stepping through a long game never meets the limit."""
    _, table_id, moves, _ = long_table
    start = replaying.checkpoint_every(moves) + 1
    applied = []

    plain = MachiKoroState.apply_text

    def counting(self, player, text):
        applied.append(1)
        return plain(self, player, text)

    stranger.get(f"/api/tables/{table_id}/replay", params={"step": start})
    monkeypatch.setattr(MachiKoroState, "apply_text", counting)
    codes = [
        stranger.get(f"/api/tables/{table_id}/replay", params={"step": step}).status_code
        for step in range(start + 1, start + 101)
    ]
    assert codes == [200] * 100
    assert len(applied) == 100


# -- 4: GET /api/tables/{id}/record: a finished table's record is rebuilt at every request ----------------
def test_a_finished_tables_record_is_not_rebuilt_at_every_request(long_table, stranger, monkeypatch):
    """``record_for`` builds ``record()`` afresh: ``finish`` hashes five whole views of the final
    position (``state_digest``: ~80 ms on this table) and ``asdict`` deep-copies every move (~60 ms),
    under the table's lock, for every anonymous GET: ~100 ms of CPU a request, 10 a second keep a
    core busy. A finished table never changes: its record should be built once (or the requests
    limited)."""
    _, table_id, _, _ = long_table
    digests = []
    original = core_record.state_digest

    def counting(state):
        digests.append(1)
        return original(state)

    monkeypatch.setattr(core_record, "state_digest", counting)
    codes = [stranger.get(f"/api/tables/{table_id}/record").status_code for _ in range(30)]
    assert len(digests) <= 2 or 429 in codes, f"the final position hashed {len(digests)} times for 30 GETs"


# -- 5: GET /api/tables/{id}?since=0: 2,000 events worded at every request, on the event loop ----------
def test_a_full_view_does_not_word_the_whole_log_at_every_request(long_table, stranger, monkeypatch):
    """A view from ``since=0`` words ``MAX_VIEW_EVENTS`` (2,000) events in the reader's language at
    every request (12 ms in English, ~28 ms in Polish), in the quick path ON THE EVENT LOOP with
    the table's lock held: while it runs no other client of the process is served. Nothing limits
    it (and a WebSocket opened with since=0 costs the same). The words of an event never change:
    20 identical requests should not word 20 x 2,000 events (or should meet a limit)."""
    _, table_id, _, _ = long_table
    worded = []
    original = live.describe

    def counting(*args, **kwargs):
        worded.append(1)
        return original(*args, **kwargs)

    monkeypatch.setattr(live, "describe", counting)
    codes = [
        stranger.get(
            f"/api/tables/{table_id}", params={"since": 0}, headers={"accept-language": "pl"}
        ).status_code
        for _ in range(RAPID)
    ]
    assert codes == [200] * RAPID
    # each event worded once for this reader, not once a request
    assert len(worded) <= live.MAX_VIEW_EVENTS, f"{len(worded)} events worded for {RAPID} views"
