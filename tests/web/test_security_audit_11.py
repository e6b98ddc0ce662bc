"""The eleventh security audit (table options, loading, server defaults, records; 2026-12-05): options
are bounded (no set-up costs more than milliseconds), nothing unsafe is loaded; an uploaded record with
a stray surrogate or a value nested a thousand deep crashed its replay, one could carry the wrong
title, malformed bot time settings were taken without a word, and the SQLite file was readable by
every local user."""

from __future__ import annotations

import json
import math
import os
import stat
from pathlib import Path

import pytest


def _record(**fields):
    base = {"game": "machikoro", "options": {}, "seats": ["human", "human"], "seed": 1, "actions": []}
    base.update(fields)
    return base


def _post_raw(client, body: str):
    return client.post("/api/replay", content=body, headers={"content-type": "application/json"})


# -- F1: an uploaded record with a lone surrogate inside a seat or a move: 500 ------------------------------
@pytest.mark.parametrize(
    "record",
    [
        # a seat's text (the record's seats list); json.dumps writes the surrogate as \ud800
        _record(seats=["\ud800", "human"]),
        # a move's text: the replay view echoes the move list
        _record(actions=[[0, "\ud800"]]),
    ],
    ids=["seat", "move"],
)
def test_an_uploaded_record_with_a_surrogate_inside_a_seat_or_a_move_is_refused_not_a_crash(
    sqlite_url, record
):
    from fastapi.testclient import TestClient

    from tabletown.web.app import create_app
    from tabletown.web.limits import Limits

    with TestClient(create_app(sqlite_url, limits=Limits.off()), raise_server_exceptions=False) as c:
        answer = _post_raw(c, json.dumps({"record": record, "step": 0}))
        assert answer.status_code == 422, (answer.status_code, answer.text[:200])


# -- F2: an uploaded record whose options (or result) nest deeply: RecursionError, 500 ----------------------
@pytest.mark.parametrize("field", ["options", "result"])
def test_an_uploaded_record_with_deeply_nested_values_is_refused_not_a_crash(sqlite_url, field):
    from fastapi.testclient import TestClient

    from tabletown.web.app import create_app
    from tabletown.web.limits import Limits

    depth = 900  # about 2 KB: far under the 64 KB body limit, within the JSON parser's own limit
    nested = "[" * depth + "]" * depth
    key = "harbor" if field == "options" else "scores"
    value = f'{{"{key}": {nested}}}'
    head = '{"record": {"game": "machikoro", "seats": ["a", "b"], "seed": 1, "actions": [], '
    body = head + f'"{field}": {value}}}}}'
    with TestClient(create_app(sqlite_url, limits=Limits.off()), raise_server_exceptions=False) as c:
        answer = _post_raw(c, body)
        assert answer.status_code in (200, 422), (answer.status_code, answer.text[:200])


# -- F3: an uploaded record's title is made from its raw options, not the ones it replays with ------------
@pytest.mark.parametrize("written", ["false", "no", "off", "0"])
def test_an_uploaded_record_is_titled_by_the_set_up_it_replays(client, written):
    answer = client.post("/api/replay", json={"record": _record(options={"harbor": written})})
    assert answer.status_code == 200, answer.text
    view = answer.json()
    assert view["options"]["harbor"] is False  # replayed without Harbor...
    assert "Harbor" not in view["title"], view["title"]  # ...but titled "Machi Koro with Harbor"


# -- F4: a malformed TABLETOWN_BOT_SECONDS / TABLETOWN_BOT_DELAY is taken silently --------------------------
# In production (uvicorn with uvloop) loop.call_later(nan) raises ValueError: with BOT_SECONDS=nan every
# bot decision "fails" and a random move is played instead (drivers._drive), with BOT_DELAY=nan the
# driver of every table with a human and a bot dies ("driver stopped") and its bots never move again;
# inf switches the per-decision time limit off. Each is accepted at start without a word.
@pytest.mark.parametrize(
    "name,raw",
    [
        ("TABLETOWN_BOT_SECONDS", "nan"),
        ("TABLETOWN_BOT_SECONDS", "inf"),
        ("TABLETOWN_BOT_SECONDS", "-1"),
        ("TABLETOWN_BOT_DELAY", "nan"),
        ("TABLETOWN_BOT_DELAY", "inf"),
    ],
)
def test_a_malformed_bot_time_setting_is_refused_at_start_not_taken(
    make_client, sqlite_url, monkeypatch, name, raw
):
    monkeypatch.setenv(name, raw)
    try:
        c = make_client(sqlite_url)
    except ValueError:
        return  # refused at start: fine
    drivers = c.app.state.drivers
    value = drivers.bot_seconds if name == "TABLETOWN_BOT_SECONDS" else drivers.bot_delay
    assert math.isfinite(value) and value >= 0 and (name != "TABLETOWN_BOT_SECONDS" or value > 0), value


# -- F5 (hardening): the SQLite file holding every seat token and secret seed is world-readable ------------
def test_the_database_file_is_not_readable_by_other_users(make_client, tmp_path):
    old = os.umask(0o022)  # the usual default
    try:
        db = tmp_path / "tabletown.db"
        c = make_client(f"sqlite:///{db}")
        assert (
            c.post("/api/tables", json={"game": "machikoro", "seats": ["human", "human"]}).status_code == 201
        )
    finally:
        os.umask(old)
    for path in [db, *tmp_path.glob("tabletown.db-*")]:
        mode = stat.S_IMODE(Path(path).stat().st_mode)
        assert mode & 0o077 == 0, f"{path.name} is {oct(mode)}: other users can read the seat tokens"
