"""The arena's output folder is trusted only as far as it checks out: damaged, foreign, tampered or
duplicated lines never count, a missing or corrupt job file is refused, and --out must be a usable
folder. Hypothesis appends arbitrary lines and checks that a resumed job still counts each game once."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from tabletown.arena.api import run_arena
from tabletown.arena.runner import Job, deterministic_part
from tabletown.arena.store import GAMES_FILE, JOB_FILE, ArenaError

JOB = Job("toyrace", ("greedy", "random"), 6, seed=4, options={"target": 15})


def lines_of(folder: Path) -> list[dict]:
    return [json.loads(raw) for raw in (folder / GAMES_FILE).read_text().splitlines()]


def write_lines(folder: Path, lines: list) -> None:
    (folder / GAMES_FILE).write_text("".join(json.dumps(line) + "\n" for line in lines))


def test_damaged_foreign_and_tampered_lines_are_dropped_and_replayed(toy, tmp_path):
    reference = [deterministic_part(line) for line in run_arena(toy, JOB, None)]
    run_arena(toy, JOB, tmp_path)
    good = lines_of(tmp_path)
    tampered = dict(good[0], result={"scores": [0.0, 15.0], "ranks": [2, 1], "winners": [1]})
    outside = dict(good[1], index=JOB.games + 5)
    string_index = dict(good[2], index="2")
    no_result = {k: v for k, v in good[3].items() if k != "result"}
    foreign = dict(good[4], job="0123456789abcdef")
    raw = [json.dumps(line) for line in (tampered, outside, string_index, no_result, foreign)]
    body = "\n".join(raw).encode() + b"\n\xff\xfe not utf-8\n" + json.dumps(good[0]).encode() + b"\n"
    (tmp_path / GAMES_FILE).write_bytes(body + json.dumps(good[0]).encode() + b"\n")
    warnings: list[str] = []
    again = run_arena(toy, JOB, tmp_path, on_warning=warnings.append)
    assert [deterministic_part(line) for line in again] == reference
    assert len(again) == JOB.games
    assert len(warnings) == 7  # five bad lines, the non-UTF-8 one and the repeated game 0
    indices = [line["index"] for line in lines_of(tmp_path)]
    assert sorted(indices) == list(range(JOB.games))


def test_games_without_their_job_file_are_not_adopted(toy, tmp_path):
    run_arena(toy, JOB, tmp_path)
    (tmp_path / JOB_FILE).unlink()
    other = Job("toyrace", ("random", "greedy"), 6, seed=4, options={"target": 15})
    with pytest.raises(ArenaError, match="no job.json"):
        run_arena(toy, other, tmp_path)


def test_a_corrupt_job_file_or_an_unusable_out_is_refused(toy, tmp_path):
    run_arena(toy, JOB, tmp_path)
    (tmp_path / JOB_FILE).write_bytes(b"\xff{{{")
    with pytest.raises(ArenaError, match="damaged"):
        run_arena(toy, JOB, tmp_path)
    a_file = tmp_path / "plain.txt"
    a_file.write_text("x")
    with pytest.raises(ArenaError, match="is a file"):
        run_arena(toy, JOB, a_file)
    with pytest.raises(ArenaError, match="cannot use"):
        run_arena(toy, JOB, a_file / "below")


def test_the_cli_reports_an_unusable_out_without_a_traceback(toy, tmp_path):
    from tabletown import cli

    cli._register_extra_commands()
    a_file = tmp_path / "plain.txt"
    a_file.write_text("x")
    args = ["arena", "toyrace", "--bot", "greedy", "--bot", "random", "--games", "2", "--out", str(a_file)]
    out = CliRunner().invoke(cli.app, [*args, "--no-progress"])
    assert out.exit_code == 2 and "error:" in out.output and "Traceback" not in out.output


LINE_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers(-3, 12) | st.text(max_size=6),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=6), inner, max_size=3),
    max_leaves=10,
)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    extra=st.lists(
        st.dictionaries(st.sampled_from(["index", "seed", "result", "job", "check"]), LINE_VALUES), max_size=6
    )
)
def test_any_appended_lines_never_count_a_game_twice(toy, tmp_path_factory, extra):
    folder = tmp_path_factory.mktemp("arena")
    job = Job("toyrace", ("greedy", "random"), 4, seed=2, options={"target": 10})
    run_arena(toy, job, folder)
    with (folder / GAMES_FILE).open("a") as handle:
        for line in extra:
            handle.write(json.dumps(line) + "\n")
    lines = run_arena(toy, job, folder)
    assert [line["index"] for line in lines] == list(range(job.games))
