"""The Ray backend, on a local one-CPU Ray instance, agrees game for game with the process backend."""

from __future__ import annotations

from pathlib import Path

import pytest
from test_arena import JOB, stable

from tabletown.arena.api import run_arena
from tabletown.arena.runner import Job, _batches, run_process

ray = pytest.importorskip("ray")


@pytest.fixture(scope="module")
def local_ray():
    # The workers import the toy game by name, so they need this folder on their path.
    here = str(Path(__file__).parent)
    ray.init(
        num_cpus=1,
        include_dashboard=False,
        log_to_driver=False,
        runtime_env={"env_vars": {"PYTHONPATH": here}},
    )
    yield
    ray.shutdown()


def test_ray_and_process_backends_agree(toy, local_ray, tmp_path: Path) -> None:
    job = Job(JOB.game, JOB.bots, 8, JOB.seed, JOB.options)
    on_ray = run_arena(toy, job, tmp_path, workers=1, backend="ray")
    assert stable(on_ray) == stable(list(run_process(toy, job, range(job.games), 1)))
    assert len((tmp_path / "games.jsonl").read_text().splitlines()) == job.games


def test_batches_cover_every_index_once() -> None:
    batches = _batches(list(range(23)), 5)
    assert [len(b) for b in batches] == [5, 5, 5, 5, 3]
    assert sum(batches, []) == list(range(23))
