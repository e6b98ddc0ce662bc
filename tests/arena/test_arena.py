"""The arena on the toy game: fair seating, reproducible results, resume, outputs and the CLI."""

from __future__ import annotations

import csv
import json
from collections import Counter
from pathlib import Path

import pytest
from toygame import TOY
from typer.testing import CliRunner

from tabletown.arena.api import run_arena
from tabletown.arena.runner import Job, bot_seed, deterministic_part, play_game, run_process
from tabletown.arena.store import GAMES_FILE, ArenaError
from tabletown.core.record import Record
from tabletown.core.rng import derive_seed

JOB = Job("toyrace", ("mcts:easy", "greedy"), 12, seed=5, options={"target": 15})


def stable(lines: list[dict]) -> list[dict]:
    return [deterministic_part(line) for line in sorted(lines, key=lambda line: line["index"])]


def test_seats_rotate_fairly_and_deals_share_a_seed() -> None:
    job = Job("toyrace", ("a", "b", "c"), 30, seed=1)
    by_seat = Counter(
        (seat, entry) for index in range(job.games) for seat, entry in enumerate(job.entries(index))
    )
    assert set(by_seat.values()) == {10} and len(by_seat) == 9
    for index in range(job.games):
        assert sorted(job.entries(index)) == [0, 1, 2]
        assert job.game_seed(index) == job.game_seed(index - index % 3)
    assert len({job.game_seed(index) for index in range(job.games)}) == 10
    assert Job("toyrace", ("a", "b", "c"), 30, seed=2).game_seed(0) != job.game_seed(0)


def test_game_lines_hold_what_a_replay_needs() -> None:
    line = play_game(TOY, JOB, 3)
    assert line["index"] == 3
    assert line["seats"] == ["greedy", "mcts:easy"] and line["entries"] == [1, 0]
    assert line["seed"] == JOB.game_seed(3)
    assert line["length"] >= 1
    assert sorted(line["result"]["ranks"]) in ([1, 2], [1, 1])
    assert "--seed" in line["replay"] and "--option target=15" in line["replay"]
    assert json.loads(json.dumps(line)) == line


def test_same_seed_same_results_in_any_worker_count(toy) -> None:
    alone = list(run_process(toy, JOB, range(JOB.games), 1))
    again = list(run_process(toy, JOB, range(JOB.games), 1))
    pooled = list(run_process(toy, JOB, range(JOB.games), 2))
    assert stable(alone) == stable(again) == stable(pooled)
    other_seed = list(
        run_process(toy, Job(JOB.game, JOB.bots, JOB.games, 6, JOB.options), range(JOB.games), 1)
    )
    assert stable(other_seed) != stable(alone)


class Interrupt(Exception):
    pass


def test_resume_neither_repeats_nor_loses_games(toy, tmp_path: Path) -> None:
    reference = stable(run_arena(toy, JOB, None))
    out = tmp_path / "job"
    seen = []

    def stop_after_five(line: dict) -> None:
        seen.append(line["index"])
        if len(seen) == 5:
            raise Interrupt

    with pytest.raises(Interrupt):
        run_arena(toy, JOB, out, on_game=stop_after_five)
    saved = (out / GAMES_FILE).read_text().splitlines()
    assert len(saved) == 5
    # A kill in the middle of a write leaves half a line: it is dropped and that game replayed.
    with (out / GAMES_FILE).open("a") as handle:
        handle.write(saved[0][: len(saved[0]) // 2])
    played_now = []
    starts = []
    lines = run_arena(
        toy,
        JOB,
        out,
        on_game=lambda line: played_now.append(line["index"]),
        on_start=lambda done, total: starts.append((done, total)),
    )
    assert starts == [(5, JOB.games)]
    assert sorted(played_now) == sorted(set(range(JOB.games)) - set(seen))
    assert stable(lines) == reference
    indices = [json.loads(raw)["index"] for raw in (out / GAMES_FILE).read_text().splitlines()]
    assert sorted(indices) == list(range(JOB.games))
    # Nothing left to play: a rerun plays no game and returns the same lines.
    assert stable(run_arena(toy, JOB, out, on_game=lambda line: pytest.fail("replayed a game"))) == reference


def test_more_games_extend_a_finished_job(toy, tmp_path: Path) -> None:
    first = Job(JOB.game, JOB.bots, 4, JOB.seed, JOB.options)
    run_arena(toy, first, tmp_path)
    played = []
    lines = run_arena(toy, JOB, tmp_path, on_game=lambda line: played.append(line["index"]))
    assert sorted(played) == list(range(4, JOB.games))
    assert stable(lines) == stable(run_arena(toy, JOB, None))


def test_a_folder_of_another_job_is_refused(toy, tmp_path: Path) -> None:
    run_arena(toy, Job(JOB.game, JOB.bots, 2, JOB.seed, JOB.options), tmp_path)
    with pytest.raises(ArenaError):
        run_arena(toy, Job(JOB.game, ("greedy", "random"), 2, JOB.seed, JOB.options), tmp_path)
    with pytest.raises(ArenaError):
        run_arena(toy, Job(JOB.game, JOB.bots, 2, JOB.seed + 1, JOB.options), tmp_path)


def test_a_folder_played_with_other_bot_settings_is_refused(toy, tmp_path: Path) -> None:
    job = Job(JOB.game, JOB.bots, 2, JOB.seed, JOB.options)
    run_arena(toy, job, tmp_path)
    saved = json.loads((tmp_path / "job.json").read_text())
    assert saved["bot_settings"]["mcts:easy"]["iterations"] > 0 and saved["bot_settings"]["greedy"] == {}
    saved["bot_settings"]["mcts:easy"]["iterations"] += 1  # as if the search tuning had changed since
    (tmp_path / "job.json").write_text(json.dumps(saved))
    with pytest.raises(ArenaError):
        run_arena(toy, Job(JOB.game, JOB.bots, 4, JOB.seed, JOB.options), tmp_path)


def test_a_folder_from_before_bot_settings_were_recorded_still_resumes(toy, tmp_path: Path) -> None:
    job = Job(JOB.game, JOB.bots, 2, JOB.seed, JOB.options)
    run_arena(toy, job, tmp_path)
    saved = json.loads((tmp_path / "job.json").read_text())
    del saved["bot_settings"]
    (tmp_path / "job.json").write_text(json.dumps(saved))
    assert len(run_arena(toy, Job(JOB.game, JOB.bots, 4, JOB.seed, JOB.options), tmp_path)) == 4


def _cli():
    import tabletown.cli as cli

    if not any(
        command.name == "arena" or command.callback.__name__ == "arena"
        for command in cli.app.registered_commands
    ):
        cli._register_extra_commands()
    return cli.app


def test_cli_writes_lines_summary_and_charts(toy, tmp_path: Path) -> None:
    out = tmp_path / "out"
    args = [
        "arena",
        "toyrace",
        "--bot",
        "bot:mcts:easy",
        "--bot",
        "greedy",
        "--games",
        "8",
        "--seed",
        "5",
        "--option",
        "target=15",
        "--out",
        str(out),
        "--plot",
        "--workers",
        "2",
        "--no-progress",
    ]
    result = CliRunner().invoke(_cli(), args)
    assert result.exit_code == 0, result.output
    assert "mcts:easy" in result.output and "95% CI" in result.output
    lines = [json.loads(raw) for raw in (out / GAMES_FILE).read_text().splitlines()]
    assert sorted(line["index"] for line in lines) == list(range(8))
    assert stable(lines) == stable(run_arena(toy, Job(JOB.game, JOB.bots, 8, JOB.seed, JOB.options), None))
    rows = list(csv.DictReader((out / "summary.csv").open()))
    bots = {row["name"]: row for row in rows if row["kind"] == "bot"}
    assert set(bots) == {"mcts:easy", "greedy"}
    assert sum(float(row["wins"]) for row in bots.values()) == pytest.approx(8)
    seats = [row for row in rows if row["kind"] == "seat"]
    assert len(seats) == 2
    summary = json.loads((out / "summary.json").read_text())
    assert summary["games"] == 8
    for name in ("win_rates.png", "game_lengths.png"):
        assert (out / name).read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    # Rerun: everything is there already.
    again = CliRunner().invoke(_cli(), args)
    assert again.exit_code == 0 and "resuming: 8 of 8" in again.output


def test_cli_refuses_bad_input(toy, tmp_path: Path) -> None:
    app = _cli()
    for args, needle in [
        (["arena", "toyrace", "--bot", "greedy"], "two bots"),
        (["arena", "toyrace", "--bot", "greedy", "--bot", "nobot"], "unknown bot"),
        (["arena", "toyrace", "--bot", "greedy", "--bot", "random", "--option", "target=1"], "target"),
        (["arena", "toyrace", "--bot", "greedy", "--bot", "random", "--backend", "mpi"], "backend"),
        (["arena", "nogame", "--bot", "greedy", "--bot", "random"], "unknown game"),
    ]:
        result = CliRunner().invoke(app, [*args, "--no-progress", "--games", "2"])
        assert result.exit_code == 2, (args, result.output)
        assert needle in result.output, (args, result.output)


def test_replay_command_reproduces_the_game(toy, tmp_path: Path) -> None:
    """``tabletown play`` with the line's seed and seats derives the same bot seeds: same game."""
    line = play_game(toy, JOB, 5)
    assert bot_seed(line["seed"], 1, "greedy") == derive_seed(line["seed"], 1, "bot:greedy")
    record_path = tmp_path / "game.json"
    args = line["replay"].split()[1:] + ["--record", str(record_path)]
    result = CliRunner().invoke(_cli(), args)
    assert result.exit_code == 0, result.output
    record = Record.load(record_path)
    assert record.result == line["result"]
    assert len(record.actions) == line["length"]


def _signal_probe(game, job, index: int) -> dict:
    """A 'game' that reports how its pool worker would take the pool's SIGTERM."""
    import signal

    return {"index": index, "default_sigterm": signal.getsignal(signal.SIGTERM) == signal.SIG_DFL}


def test_pool_workers_end_on_sigterm_whatever_their_parent_handles(toy) -> None:
    """The pool ends its workers with SIGTERM; forked under a handler that does not end the process,
    a worker waiting on the task queue's lock outlived the pool, whose exit then waited for ever (a
    test run hung for 20 minutes)."""
    import signal

    before = signal.signal(signal.SIGTERM, lambda signum, frame: None)
    try:
        lines = list(run_process(toy, JOB, range(4), 2, play=_signal_probe))
    finally:
        signal.signal(signal.SIGTERM, before)
    assert sorted(line["index"] for line in lines) == [0, 1, 2, 3]
    assert all(line["default_sigterm"] for line in lines)
