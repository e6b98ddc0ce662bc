"""Hostile files and input are refused cleanly: records, move text, command-line values.

Every case from the hardening issue is a fixed test; Hypothesis then throws arbitrary record-shaped
documents at the loader and asserts "a clean error or a correct result, never a traceback".
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from tabletown.cli import app
from tabletown.core.errors import MalformedAction, RecordError
from tabletown.core.record import Record
from tabletown.core.registry import all_games

sys.path.insert(0, str(Path(__file__).parents[1] / "arena"))
import toygame  # noqa: E402

runner = CliRunner()


@pytest.fixture
def toy():
    from tabletown.core import registry

    registry.register(toygame.TOY)
    yield toygame.TOY
    registry._GAMES.pop(toygame.TOY.name, None)


def good_record(toy_game) -> dict:
    from tabletown.core.session import play_out, random_agent

    state = toy_game.new_game(2, None, seed=3)
    record = Record.start(state, ["bot:random", "bot:random"])
    import random

    agent = random_agent(random.Random(1))
    play_out(state, [agent, agent], record)
    return record.to_json()


@pytest.mark.parametrize("name", sorted(all_games()))
def test_every_parser_refuses_odd_text_with_the_engines_own_error(name):
    game = all_games()[name]
    state = game.new_game(game.min_players, None, seed=1)
    seat = state.to_act[0]
    hostile = [
        "²",
        "tv ²",
        "swap ² 1 ²",
        "9" * 5000,
        "5h ²,1",
        "\x00",
        "x" * 10_000,
    ]
    hostile += [f"{word} {'9' * 4400}" for word in ("tv", "build", "bet", "t", "5h", "pick", "swap 1")]
    for text in hostile:
        with pytest.raises(MalformedAction):
            state.parse_action(text, seat)


@pytest.mark.parametrize(
    "document",
    [
        '{"game": "toyrace", "options": {}, "seats": ["a", "b"], "seed": Infinity, "actions": []}',
        '{"game": "toyrace", "options": {}, "seats": ["a", "b"], "seed": 1e400, "actions": []}',
        '{"game": "toyrace", "options": {}, "seats": ["a", "b"], "seed": ' + "9" * 5000 + ', "actions": []}',
        '{"game": "toyrace", "options": {}, "seats": ["a", "b"], "seed": -1, "actions": []}',
        '{"game": "toyrace", "options": {}, "seats": ["a", "b"], "seed": 1, "actions": [[Infinity, "r"]]}',
        '{"game": "toyrace", "options": {}, "seats": ["a", "b"], "seed": 1, "actions": [[0.9, "r"]]}',
        '{"game": "toyrace", "options": {}, "seats": ["a", "b"], "seed": 1, "actions": [[7, "r"]]}',
        '{"game": "toyrace", "options": {}, "seats": "ab", "seed": 1, "actions": []}',
        '{"game": "toyrace", "options": [], "seats": ["a", "b"], "seed": 1, "actions": []}',
        '{"game": "toyrace", "options": {}, "seats": ["a", "b"], "seed": 1, "actions": [[0, "'
        + "r" * 300
        + '"]]}',
        "[" * 100_000 + "]" * 100_000,
        "not json at all",
        "[]",
    ],
)
def test_damaged_records_are_refused_with_a_record_error(tmp_path, document):
    path = tmp_path / "r.json"
    path.write_text(document, encoding="utf-8")
    with pytest.raises(RecordError):
        Record.load(path)


@pytest.mark.parametrize("encoding", ["latin-1", "utf-16"])
def test_records_in_other_encodings_are_refused(tmp_path, encoding, toy):
    path = tmp_path / "r.json"
    text = json.dumps(good_record(toy)).replace('"random"', '"rändom"')
    path.write_bytes(text.replace("bot:random", "bot:ränd").encode(encoding))
    with pytest.raises(RecordError):
        Record.load(path)


def test_huge_and_endless_files_are_refused_quickly(tmp_path):
    with pytest.raises(RecordError, match="larger than"):
        Record.load("/dev/zero")
    big = tmp_path / "big.json"
    big.write_text('{"game": "x", "actions": [[0, "' + "a" * 100_000_000 + '"]]}')
    with pytest.raises(RecordError) as refused:
        Record.load(big)
    assert len(str(refused.value)) < 300


def test_replay_exit_codes_unusable_file_two_different_game_one(tmp_path, toy):
    record = good_record(toy)
    good = tmp_path / "good.json"
    good.write_text(json.dumps(record))
    assert runner.invoke(app, ["replay", str(good), "--verify"]).exit_code == 0
    broken = tmp_path / "broken.json"
    broken.write_text('{"seed": Infinity}')
    out = runner.invoke(app, ["replay", str(broken), "--verify"])
    assert out.exit_code == 2 and "error:" in out.output and "Traceback" not in out.output
    assert runner.invoke(app, ["replay", str(broken)]).exit_code == 2
    unknown_game = tmp_path / "chess.json"
    unknown_game.write_text(json.dumps({**record, "game": "chess"}))
    assert runner.invoke(app, ["replay", str(unknown_game), "--verify"]).exit_code == 2
    changed = tmp_path / "changed.json"
    changed.write_text(json.dumps({**record, "result": {"scores": [0, 0], "ranks": [2, 1], "winners": [1]}}))
    assert runner.invoke(app, ["replay", str(changed), "--verify"]).exit_code == 1
    assert runner.invoke(app, ["replay", str(good), "--seat", "99"]).exit_code == 2
    older = tmp_path / "older.json"
    older.write_text(json.dumps({**record, "engine_version": "0.0.1"}))
    out = runner.invoke(app, ["replay", str(older), "--verify"])
    assert out.exit_code == 0 and "warning" in out.output


@pytest.mark.parametrize("seconds", ["-1", "nan", "0", "inf"])
def test_bench_refuses_senseless_durations(seconds):
    out = runner.invoke(app, ["bench", "machikoro", "--seconds", seconds])
    assert out.exit_code == 2 and "error:" in out.output


JSON_LEAF = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(2**70), max_value=2**70),
    st.floats(allow_nan=True, allow_infinity=True),
    st.text(max_size=12),
)
JSON = st.recursive(
    JSON_LEAF,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=20,
)
RECORDISH = st.fixed_dictionaries(
    {},
    optional={
        "game": st.sampled_from(["toyrace", "chess", ""]) | JSON,
        "options": st.sampled_from([{}, {"target": 10}, {"target": "x"}, {"nope": 1}]) | JSON,
        "seats": st.lists(st.sampled_from(["bot:random", "human"]), min_size=0, max_size=14) | JSON,
        "seed": st.integers(min_value=-5, max_value=2**64) | JSON,
        "actions": st.lists(
            st.tuples(
                st.integers(min_value=-2, max_value=14) | JSON,
                st.sampled_from(["r", "b", "p", "bet1", "zz"]) | JSON,
            ).map(list),
            max_size=30,
        )
        | JSON,
        "result": JSON,
        "final_digest": JSON,
        "engine_version": JSON,
    },
)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(document=RECORDISH)
def test_any_record_document_gives_a_clean_error_or_a_correct_replay(toy, tmp_path_factory, document):
    from tabletown.core.record import verify

    path = tmp_path_factory.mktemp("fuzz") / "r.json"
    path.write_text(json.dumps(document), encoding="utf-8")
    try:
        record = Record.load(path)
        problems = verify(record)
    except RecordError:
        return
    assert isinstance(problems, list)
