"""Which games a study plays, playing them through the arena, and reading arena folders.

A study is a list of set-ups (:class:`Config`: player count, the bots at the table, the rules
options). Each set-up is an ordinary arena job — same seeding, seat rotation, worker backends and
resumable folder (``OUT/runs/<set-up>/``) — played with the arena's ``play_game`` plus a watcher from
the game's ``study.py`` that adds the game's features to every line. Every set-up uses the study's
seed, so set-ups with the same player count share their deals (the same dice and shuffles): option
variants are compared on common random numbers.
"""

from __future__ import annotations

import functools
import itertools
import json
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..arena.api import run_arena
from ..arena.runner import Job, backend_runner, play_game
from ..arena.store import GAMES_FILE, JOB_FILE, job_key, line_problem
from ..core.errors import TabletownError
from ..core.game import Game
from ..core.rng import derive_seed
from .features import FORMAT, study_module, watch, watcher_factory

RUNS = "runs"


class StudyError(TabletownError):
    """The study cannot be set up or its folder cannot be read."""


@dataclass(frozen=True)
class Config:
    """One set-up: ``bots`` has one name per seat (the arena rotates them), ``options`` as given."""

    players: int
    bots: tuple[str, ...]
    options: dict[str, Any] = field(default_factory=dict)

    @property
    def options_text(self) -> str:
        return ",".join(f"{k}={_text(v)}" for k, v in sorted(self.options.items())) or "default"

    @property
    def lineup(self) -> str:
        names = list(dict.fromkeys(self.bots))
        if len(names) == 1:
            return f"{names[0]} x{self.players}"
        return " v ".join(self.bots)

    @property
    def label(self) -> str:
        return f"{self.players}p {self.lineup} [{self.options_text}]"

    @property
    def slug(self) -> str:
        text = f"{self.players}p_{'_'.join(self.bots)}_{self.options_text}"
        return re.sub(r"[^A-Za-z0-9_.=,-]+", "-", text)

    @property
    def mirror(self) -> bool:
        return len(set(self.bots)) == 1

    def job(self, game: str, games: int, seed: int) -> Job:
        kind = MirrorJob if self.mirror else Job
        return kind(game, self.bots, games, seed, dict(sorted(self.options.items())))


@dataclass(frozen=True)
class MirrorJob(Job):
    """A table of one bot. The arena's deals (one seed, seats rotated) would replay the very same game
    at every rotation here, so each game gets a seed of its own; the job file says so (``seeding``),
    which also keeps ``tabletown arena`` from resuming such a folder as one of its own jobs."""

    def identity(self) -> dict[str, Any]:
        return {**super().identity(), "seeding": "per-game"}

    def game_seed(self, index: int) -> int:
        return derive_seed(self.seed, "study", index)


def _text(value: Any) -> str:
    return str(value).lower() if isinstance(value, bool) else str(value)


def lineups(names: Sequence[str], players: int) -> list[tuple[str, ...]]:
    """Seatings from one ``--bots`` list: one name fills every seat; exactly ``players`` names are one
    table; fewer are repeated in turn; more give every table of ``players`` different ones (a round
    robin with two players)."""
    if len(names) == 1:
        return [tuple(names) * players]
    if len(names) == players:
        return [tuple(names)]
    if len(names) < players:
        return [tuple(itertools.islice(itertools.cycle(names), players))]
    return [tuple(c) for c in itertools.combinations(names, players)]


def make_plan(
    game: Game,
    players: Sequence[int] | None,
    bots: Sequence[Sequence[str]] | None,
    variants: Sequence[dict[str, Any]] | None,
) -> list[Config]:
    """The set-ups to play: the game's default plan when nothing is given; otherwise every player
    count x bot list x options variant (defaults: the plan's player counts, ``expert``, default rules)."""
    plan = study_module(game).PLAN
    if not players and not bots and not variants:
        configs = [Config(n, lineup, dict(opts)) for n, names, opts in plan for lineup in lineups(names, n)]
    else:
        counts = list(players or sorted({n for n, _, _ in plan}))
        configs = [
            Config(n, lineup, dict(opts))
            for n in counts
            for names in (bots or [("expert",)])
            for lineup in lineups(list(names), n)
            for opts in (variants or [{}])
        ]
    seen: dict[str, Config] = {}
    for config in configs:
        resolved = game.resolve_options(config.players, config.options)  # refuse bad set-ups up front
        given = {key: resolved[key] for key in config.options}
        config = Config(config.players, config.bots, given)
        seen.setdefault(config.slug, config)
    return list(seen.values())


def study_play() -> Callable[..., dict[str, Any]]:
    """The arena's ``play_game`` with the study's watcher (module-level parts only: picklable for Ray)."""
    return functools.partial(play_game, watch=watch)


def run_study(
    game: Game,
    configs: Sequence[Config],
    games: int,
    seed: int,
    out: Path,
    workers: int = 1,
    backend: str = "process",
    ray_address: str | None = None,
    on_config: Callable[[Config, int, int], None] | None = None,
    on_game: Callable[[dict[str, Any]], None] | None = None,
) -> list[tuple[Config, list[dict[str, Any]]]]:
    """Play (or resume) every set-up into ``out/runs/<slug>``; returns each set-up's lines."""
    results = []
    for number, config in enumerate(configs):
        if on_config is not None:
            on_config(config, number, len(configs))
        job = config.job(game.name, games, seed)
        lines = run_arena(
            game,
            job,
            out / RUNS / config.slug,
            workers,
            backend,
            ray_address,
            on_game=on_game,
            play=study_play(),
        )
        lines = complete(game, job, lines, workers, backend, ray_address)
        results.append((config, lines))
    return results


def complete(
    game: Game,
    job: Job,
    lines: list[dict[str, Any]],
    workers: int = 1,
    backend: str = "process",
    ray_address: str | None = None,
) -> list[dict[str, Any]]:
    """Lines written without the study's features (a plain arena folder, or an older format) get them
    by playing those games again — the same seeds give the same games, which is checked."""
    version = watcher_factory(game).version
    missing = [
        line["index"]
        for line in lines
        if (line.get("study") or {}).get("format") != FORMAT or line["study"].get("version", 1) != version
    ]
    if not missing:
        return lines
    by_index = {line["index"]: line for line in lines}
    runner = backend_runner(backend, ray_address, study_play())
    for again in runner(game, job, missing, workers):
        old = by_index[again["index"]]
        if again["result"] != old["result"] or again["length"] != old["length"]:
            raise StudyError(
                f"game {again['index']} of {job.game} played again came out differently from its line "
                "(another engine or bot version?); use a fresh study folder"
            )
        by_index[again["index"]] = {**old, "study": again["study"]}
    return [by_index[index] for index in sorted(by_index)]


STUDY_FILE = "study.json"  # a study folder's command and order of set-ups


def study_info(folder: Path) -> dict[str, Any]:
    try:
        info = json.loads((folder / STUDY_FILE).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return info if isinstance(info, dict) else {}


def write_study_info(folder: Path, command: str, configs: Sequence[Config]) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    info = {"command": command, "configs": [config.slug for config in configs]}
    (folder / STUDY_FILE).write_text(json.dumps(info, indent=1) + "\n", encoding="utf-8")


def read_folder(
    game_name: str | None,
    folder: Path,
    workers: int = 1,
    backend: str = "process",
    ray_address: str | None = None,
) -> tuple[Game, list[tuple[Config, list[dict[str, Any]]]]]:
    """An arena folder (``job.json`` + ``games.jsonl``) or a study folder (``runs/*``), read without
    changing it; games whose lines lack the study's features are played again to get them."""
    from ..core.registry import get_game

    if (folder / JOB_FILE).is_file():
        folders = [folder]
    else:
        folders = sorted(p for p in (folder / RUNS).glob("*") if (p / JOB_FILE).is_file())
        # The study's own order of set-ups (its study.json), so a report made again matches the first.
        order = {slug: place for place, slug in enumerate(study_info(folder).get("configs", []))}
        folders.sort(key=lambda p: (order.get(p.name, len(order)), p.name))
    if not folders:
        raise StudyError(f"{folder} holds no arena job ({JOB_FILE}) and no study ({RUNS}/*/{JOB_FILE})")
    game: Game | None = None
    results = []
    for path in folders:
        try:
            identity = json.loads((path / JOB_FILE).read_text(encoding="utf-8"))
            bots = tuple(identity["bots"])
            job_game = identity["game"]
            options = dict(identity.get("options") or {})
            job_seed = int(identity["seed"])
        except (OSError, ValueError, KeyError, TypeError):
            raise StudyError(f"{path / JOB_FILE} is not an arena job description") from None
        if game_name is not None and job_game != game_name:
            raise StudyError(f"{path} holds {job_game} games, not {game_name}")
        if game is None:
            game = get_game(job_game)
        elif game.name != job_game:
            raise StudyError(f"{folder} mixes games ({game.name} and {job_game})")
        key = job_key(identity)
        per_game = identity.get("seeding") == "per-game"
        kind = MirrorJob if per_game else Job
        probe = kind(job_game, bots, 1, job_seed, options)
        lines: dict[int, dict[str, Any]] = {}
        games_path = path / GAMES_FILE
        raw_lines = games_path.read_bytes().split(b"\n") if games_path.exists() else []
        for raw in raw_lines:
            try:
                line = json.loads(raw.decode("utf-8"))
            except (UnicodeDecodeError, ValueError):
                continue
            if line_problem(probe, key, line) is None and line["index"] not in lines:
                lines[line["index"]] = {k: v for k, v in line.items() if k not in ("job", "check")}
        if len(set(bots)) == 1 and not per_game:
            # An arena job of one bot: the rotations of a deal are the same game; count it once.
            lines = {i: line for i, line in lines.items() if i % len(bots) == 0}
        job = kind(job_game, bots, (max(lines) + 1) if lines else 0, job_seed, options)
        ordered = [lines[i] for i in sorted(lines)]
        config = Config(len(bots), bots, options)
        results.append((config, complete(game, job, ordered, workers, backend, ray_address)))
    assert game is not None
    return game, results
