"""Many games at once: ``tabletown analyze FOLDER`` for arena folders (``job.json`` + ``games.jsonl``).

Arena lines keep seeds, not actions, so each game is played again from its seed (the same seeds give
the same game; a line whose replay ends otherwise is refused) while a watcher writes its record, and
the record is analysed. Games go through the arena's own backends (``--workers`` processes, or Ray),
so an analysis of a thousand games spreads like the games themselves did. The summary is per bot:
its average loss per decision over all its games, with an interval — a ranking of bots that needs
no games between them.
"""

from __future__ import annotations

import functools
import hashlib
import json
import math
import time
from collections.abc import Callable, Iterable, Mapping
from dataclasses import asdict
from pathlib import Path
from typing import Any

from ..arena.runner import Job, backend_runner, play_game
from ..arena.store import GAMES_FILE, JOB_FILE
from ..core.game import Game, State
from ..core.record import Record
from ..core.registry import get_game
from .analyze import CLASSES, analyze
from .evaluate import Settings, tuned
from .model import shipped_model


class AnalysisError(Exception):
    pass


class _Recorder:
    """An arena watcher that keeps the game's actions (its record, less the set-up)."""

    def __init__(self, state: State) -> None:
        self.actions: list[list[Any]] = []

    def see(self, state: State, seat: int, text: str, simultaneous: bool) -> None:
        self.actions.append([seat, text])

    def finish(self, state: State) -> dict[str, Any]:
        return {"actions": self.actions}


def analyze_arena_game(game: Game, job: Job, index: int, settings: Settings) -> dict[str, Any]:
    """Play game ``index`` of ``job`` again, analyse its record; the per-seat summary as a line."""
    line = play_game(game, job, index, watch=_Recorder)
    record = Record(
        game=game.name,
        options=dict(job.options),
        seats=list(line["seats"]),
        seed=line["seed"],
        actions=[(seat, text) for seat, text in line["actions"]],
    )
    started = time.perf_counter()
    analysis = analyze(record, settings).to_json()
    seconds = time.perf_counter() - started
    losses = [[] for _ in record.seats]  # type: list[list[float]]
    for decision in analysis["decisions"]:
        losses[decision["seat"]].append(decision["loss"])
    return {
        "index": index,
        "seed": line["seed"],
        "seats": line["seats"],
        "result": line["result"],
        "length": line["length"],
        "summary": analysis["seats"],
        "losses": losses,
        # each seat's chance at every position and its final share: the calibration table's input
        "curve": analysis["curve"],
        "shares": [row for row in analysis["curve"][-1]] if analysis["curve"] else [],
        "seconds": round(seconds, 3),
    }


def read_job(folder: Path) -> tuple[Game, Job, dict[int, Any]]:
    try:
        identity = json.loads((folder / JOB_FILE).read_text(encoding="utf-8"))
        job = Job(
            identity["game"],
            tuple(identity["bots"]),
            0,
            int(identity["seed"]),
            dict(identity.get("options") or {}),
        )
    except (OSError, ValueError, KeyError, TypeError):
        raise AnalysisError(f"{folder / JOB_FILE} is not an arena job description") from None
    if identity.get("seeding") == "per-game":
        # A study's table of one bot: each game has a seed of its own (tabletown.study's MirrorJob).
        from ..study.runner import MirrorJob

        job = MirrorJob(job.game, job.bots, 0, job.seed, job.options)
    results: dict[int, Any] = {}
    path = folder / GAMES_FILE
    for raw in path.read_bytes().split(b"\n") if path.exists() else []:
        try:
            line = json.loads(raw)
            results.setdefault(int(line["index"]), line["result"])
        except (ValueError, KeyError, TypeError):
            continue
    game = get_game(job.game)
    count = (max(results) + 1) if results else 0
    return game, type(job)(job.game, job.bots, count, job.seed, job.options), dict(sorted(results.items()))


def kept_file(folder: Path, game: Game, job: Job, settings: Settings) -> Path:
    """Where a folder's analysed games are kept, one JSON line each: a file per analysis settings and
    model (its fingerprint in the name), so a run with other settings or a refitted model starts
    afresh instead of mixing its figures with older ones."""
    model = shipped_model(game, len(job.bots), game.resolve_options(len(job.bots), dict(job.options)))
    identity = {"settings": asdict(tuned(game, settings)), "model": model.meta if model is not None else None}
    digest = hashlib.sha256(json.dumps(identity, sort_keys=True, default=str).encode()).hexdigest()[:12]
    return folder / f"analysis-{digest}.jsonl"


def _read_kept(path: Path) -> dict[int, dict[str, Any]]:
    """The games already analysed (a half-written last line, from an interrupted run, is dropped)."""
    kept: dict[int, dict[str, Any]] = {}
    for raw in path.read_bytes().split(b"\n") if path.exists() else []:
        try:
            line = json.loads(raw)
            kept[int(line["index"])] = line
        except (ValueError, KeyError, TypeError):
            continue
    return kept


def analyze_folder(
    folder: Path,
    settings: Settings,
    workers: int = 1,
    backend: str = "process",
    ray_address: str | None = None,
    limit: int | None = None,
    on_game: Callable[[dict[str, Any]], None] | None = None,
    keep: bool = True,
) -> tuple[Game, list[dict[str, Any]]]:
    """Analyse the folder's games. With ``keep`` each analysed game is appended to the folder's
    ``analysis-<fingerprint>.jsonl`` as it finishes and the games already there are not analysed
    again: an interrupted run resumes where it stopped, like the arena's."""
    game, job, results = read_job(folder)
    indices = list(results)[:limit] if limit is not None else list(results)
    path = kept_file(folder, game, job, settings) if keep else None
    kept = _read_kept(path) if path is not None else {}
    if path is not None and path.exists():
        # rewrite without a half-written line before appending
        path.write_text("".join(json.dumps(line) + "\n" for line in kept.values()), encoding="utf-8")
    lines = [kept[i] for i in indices if i in kept]
    todo = [i for i in indices if i not in kept]
    play = functools.partial(analyze_arena_game, settings=settings)
    runner = backend_runner(backend, ray_address, play)
    for line in runner(game, job, todo, workers) if todo else ():
        if line["result"] != results[line["index"]]:
            # A game whose bots hit a time cap can come out differently; its record is not the one played.
            raise AnalysisError(
                f"game {line['index']} of {folder} played again ended differently; it cannot be analysed"
            )
        lines.append(line)
        if path is not None:
            with path.open("a", encoding="utf-8") as out:
                out.write(json.dumps(line) + "\n")
        if on_game is not None:
            on_game(line)
    lines.sort(key=lambda line: line["index"])
    return game, lines


def mean_interval(values: list[float], clusters: list[int]) -> tuple[float, float, float]:
    """Mean and a 95% interval, with the standard error computed over games (clusters) rather than
    decisions, since the decisions of one game are not independent."""
    if not values:
        return 0.0, 0.0, 0.0
    mean = sum(values) / len(values)
    totals: dict[int, list[float]] = {}
    for value, cluster in zip(values, clusters, strict=True):
        totals.setdefault(cluster, []).append(value - mean)
    groups = len(totals)
    if groups < 2:
        return mean, mean, mean
    variance = sum(sum(group) ** 2 for group in totals.values()) / (len(values) ** 2) * groups / (groups - 1)
    half = 1.96 * math.sqrt(variance)
    return mean, mean - half, mean + half


def bot_table(lines: Iterable[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """Per bot: games, decisions, average loss per decision (with its interval), and the share of
    its decisions in each class."""
    per_bot: dict[str, dict[str, Any]] = {}
    for line in lines:
        for seat, name in enumerate(line["seats"]):
            entry = per_bot.setdefault(
                name, {"losses": [], "games": [], "counts": dict.fromkeys((n for n, _ in CLASSES), 0)}
            )
            for loss in line["losses"][seat]:
                entry["losses"].append(loss)
                entry["games"].append(line["index"])
            for name_, _ in CLASSES:
                plural = {"inaccuracy": "inaccuracies", "mistake": "mistakes", "blunder": "blunders"}[name_]
                entry["counts"][name_] += line["summary"][seat][plural]
    table = []
    for name, entry in sorted(per_bot.items()):
        mean, low, high = mean_interval(entry["losses"], entry["games"])
        count = len(entry["losses"])
        table.append(
            {
                "bot": name,
                "games": len(set(entry["games"])),
                "decisions": count,
                "average_loss": round(mean, 4),
                "interval": [round(low, 4), round(high, 4)],
                **{f"{k}_share": round(v / count, 4) if count else 0.0 for k, v in entry["counts"].items()},
            }
        )
    return table


def calibration(lines: Iterable[Mapping[str, Any]], bins: int = 10) -> list[dict[str, Any]]:
    """How often a seat given a chance in each band went on to win: every position of every game
    (the final one left out), per seat, binned by the chance the model gave. The interval of a band's
    win rate is computed over games, since the positions of one game share its outcome."""
    bands: list[tuple[list[float], list[float], list[int]]] = [([], [], []) for _ in range(bins)]
    for line in lines:
        curve, shares = line.get("curve") or [], line.get("shares") or []
        for row in curve[:-1]:
            for seat, chance in enumerate(row):
                band = bands[min(bins - 1, int(chance * bins))]
                band[0].append(chance)
                band[1].append(shares[seat])
                band[2].append(line["index"])
    table = []
    for number, (chances, outcomes, games) in enumerate(bands):
        if not chances:
            continue
        rate, low, high = mean_interval(outcomes, games)
        table.append(
            {
                "band": f"{number / bins:.1f}-{(number + 1) / bins:.1f}",
                "positions": len(chances),
                "games": len(set(games)),
                "mean_chance": round(sum(chances) / len(chances), 4),
                "win_rate": round(rate, 4),
                "interval": [round(max(0.0, low), 4), round(min(1.0, high), 4)],
            }
        )
    return table
