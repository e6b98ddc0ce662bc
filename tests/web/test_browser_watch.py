"""Issue 27, watching a record: the "Watch a record" page replays any record the CLI or the server wrote
exactly, with the game's own board, even when its seed is past 2**53 (where JavaScript's JSON.parse
rounds integers). Real Chromium through Playwright; skipped when chromium is missing."""

from __future__ import annotations

import json
import subprocess
import sys
import time

import httpx
import pytest
from web_helpers import CHROMIUM, chromium, served, watch_errors

from tabletown.core.record import Record

pytestmark = pytest.mark.skipif(CHROMIUM is None, reason="the chromium package is not installed")

BIG_SEED = 2**63 - 12_345  # above 2**53: a JS number cannot hold it


@pytest.fixture
def server(tmp_path):
    with served(tmp_path / "watch.db") as url:
        yield url


def cli_record(path, game: str, seed: int) -> Record:
    """A record as `tabletown play` writes it (bots only)."""
    command = [
        sys.executable,
        "-m",
        "tabletown.cli",
        "play",
        game,
        "--seat",
        "bot:greedy",
        "--seat",
        "bot:random",
    ]
    done = subprocess.run(
        [*command, "--seed", str(seed), "--record", str(path), "--quiet"],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    assert f'"seed": {seed}' in path.read_text()  # a JSON number, as the CLI writes it
    return Record.load(path)


def server_record(server: str, path, game: str, seed: int) -> Record:
    created = httpx.post(
        f"{server}/api/tables", json={"game": game, "seats": ["bot:greedy", "bot:random"], "seed": seed}
    ).json()
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        answer = httpx.get(f"{server}/api/tables/{created['id']}/record")
        if answer.json().get("complete"):
            path.write_text(answer.text)
            assert f'"seed":{seed}' in answer.text.replace(" ", "")
            return Record.load(path)
        time.sleep(0.2)
    raise AssertionError("the bots did not finish")


def engine_views(record: Record, seed: int) -> dict:
    """The final position as each seat and a spectator see it, replayed in Python from ``seed``."""
    from tabletown.core.registry import get_game

    state = get_game(record.game).new_game(len(record.seats), record.options, seed)
    for player, text in record.actions:
        state.apply_text(player, text)
    return {seat: state.view(seat) for seat in (None, *range(len(record.seats)))}


def step_through(page, steps: int) -> None:
    """Click "one move on" from the start to the end, checking each step shows."""
    page.click("#first")
    page.wait_for_function("() => document.getElementById('step').value === '0'")
    for k in range(1, steps + 1):
        page.click("#forward")
        page.wait_for_function(f"() => document.getElementById('step').value === '{k}'")
    assert page.inner_text("#status-line") == f"After move {steps}: game over."


def test_uploaded_records_with_huge_seeds_replay_exactly(server, tmp_path):
    machikoro = cli_record(tmp_path / "machikoro.json", "machikoro", BIG_SEED)
    multicity = server_record(server, tmp_path / "multicity.json", "multicity", BIG_SEED + 2)
    assert machikoro.seed == BIG_SEED and multicity.seed == BIG_SEED + 2
    # the test means something: the seed as JSON.parse reads it gives another game
    rounded = int(float(BIG_SEED))
    assert rounded != BIG_SEED
    errors: list[str] = []
    with chromium() as browser:
        page = browser.new_page(viewport={"width": 1280, "height": 800})
        watch_errors(page, errors)
        for path, record, words in (
            (tmp_path / "machikoro.json", machikoro, ".mk-city"),
            (tmp_path / "multicity.json", multicity, ".mc-board svg"),
        ):
            page.goto(f"{server}/replay")
            page.set_input_files("#record-file", str(path))
            # the page comes back with the game's own board and shows the record
            page.wait_for_url(f"**/replay?game={record.game}")
            page.wait_for_selector("#move-list li")
            page.wait_for_selector(words)
            assert page.evaluate("(text) => JSON.parse(text).seed", path.read_text()) != record.seed
            steps = len(record.actions)
            assert page.inner_text("#steps") == str(steps)
            step_through(page, steps)
            board = page.inner_text("#board")
            assert "[object" not in board and "undefined" not in board
            expected = engine_views(record, record.seed)
            shown = page.evaluate("TabletownReplay.current()")
            assert shown["step"] == steps and shown["over"] is True
            assert shown["state"] == expected[None]["state"]
            assert shown["result"] == expected[None]["result"] == record.result
            # the server's own replay of the file (as posted by the page) agrees, and each seat's view too
            text = path.read_text()
            for seat in range(len(record.seats)):
                page.select_option("#view-seat", str(seat))
                page.wait_for_function(f"() => (TabletownReplay.current() || {{}}).seat === {seat}")
                assert page.evaluate("TabletownReplay.current()")["state"] == expected[seat]["state"]
            body = '{"record": ' + text + ', "step": ' + str(steps) + "}"
            served = httpx.post(
                f"{server}/api/replay", content=body, headers={"content-type": "application/json"}
            ).json()
            assert served["state"] == expected[None]["state"]
            if record.game == "machikoro":
                wrong = engine_views(record, rounded) if _replays(record, rounded) else None
                assert wrong is None or wrong[None]["state"] != expected[None]["state"]
            page.screenshot(path=str(tmp_path / f"watch-{record.game}.png"))
        browser.close()
    assert errors == []


def _replays(record: Record, seed: int) -> bool:
    try:
        engine_views(record, seed)
    except Exception:
        return False  # with the rounded seed the recorded moves are not even legal
    return True


def test_a_file_that_is_no_record_is_refused(server, tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps([1, 2, 3]))
    unknown = tmp_path / "unknown.json"
    unknown.write_text(
        json.dumps({"game": "nosuchgame", "options": {}, "seats": ["human"], "seed": 1, "actions": []})
    )
    with chromium() as browser:
        page = browser.new_page()
        page.goto(f"{server}/replay")
        page.set_input_files("#record-file", str(bad))
        page.wait_for_selector("#replay-error:has-text('not a Tabletown record')")
        page.set_input_files("#record-file", str(unknown))
        page.wait_for_url("**/replay?game=nosuchgame")
        page.wait_for_selector("#replay-error:has-text('unknown game')")
        browser.close()
