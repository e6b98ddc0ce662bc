"""Round robin: every pair plays its own job, and the matrix agrees with those jobs' own summaries."""

from __future__ import annotations

import csv
import json

from typer.testing import CliRunner

from tabletown.arena.api import run_arena
from tabletown.arena.roundrobin import folder_name, pairings, run_round_robin
from tabletown.arena.runner import Job
from tabletown.arena.stats import summarize
from tabletown.core.rng import derive_seed

BOTS = ["greedy", "random", "mcts:easy"]
OPTIONS = {"target": 12}


def test_pairings_cover_every_pair_once():
    assert pairings(BOTS) == [("greedy", "random"), ("greedy", "mcts:easy"), ("random", "mcts:easy")]


def test_matrix_cells_are_the_pairings_own_results(toy, tmp_path):
    table = run_round_robin(toy, BOTS, 6, 9, OPTIONS, tmp_path)
    for i, a in enumerate(BOTS):
        assert table["cells"][i][i] is None
        for j, b in enumerate(BOTS):
            if i == j:
                continue
            first, second = (a, b) if i < j else (b, a)
            job = Job(toy.name, (first, second), 6, derive_seed(9, "round-robin", first, second), OPTIONS)
            summary = summarize(job.bots, run_arena(toy, job, None))
            mine = summary["bots"][0 if a == first else 1]
            assert table["cells"][i][j]["wins"] == mine["wins"]
            # The two cells of a pairing add up to its games (shared wins split).
            assert table["cells"][i][j]["wins"] + table["cells"][j][i]["wins"] == 6
            assert (tmp_path / folder_name((first, second)) / "games.jsonl").exists()
    # Resuming plays nothing new and gives the same matrix.
    assert run_round_robin(toy, BOTS, 6, 9, OPTIONS, tmp_path) == table


def test_cli_round_robin_writes_table_csv_json_and_heat_map(toy, tmp_path):
    from tabletown import cli

    cli._register_extra_commands()
    args = [
        "arena",
        "toyrace",
        "--round-robin",
        "--games",
        "4",
        "--option",
        "target=10",
        "--out",
        str(tmp_path),
    ]
    for bot in BOTS:
        args += ["--bot", bot]
    result = CliRunner().invoke(cli.app, args)
    assert result.exit_code == 0, result.output
    assert "win rate against column" in result.output
    rows = list(csv.reader((tmp_path / "matrix.csv").open()))
    assert rows[0][1:4] == BOTS and len(rows) == 4
    assert json.loads((tmp_path / "matrix.json").read_text())["bots"] == BOTS
    assert (tmp_path / "matrix.png").stat().st_size > 5000
    again = CliRunner().invoke(cli.app, [*args[:2], "--round-robin", "--bot", "greedy", "--bot", "greedy"])
    assert again.exit_code == 2
