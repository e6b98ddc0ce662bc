"""Playing an arena job: which bot sits where in game ``i``, its seed, and the worker backends.

Everything a game needs is derived from ``(job.seed, index)``, so a game comes out the same whether it
runs alone, in a pool of worker processes or on Ray, and whether the job was interrupted or not.

Seating: with ``k`` bots, games come in deals of ``k`` consecutive indices that share one game seed
(the same dice and shuffles) while the bots rotate one seat per game, so every bot plays every seat of
every deal once — fair seating that also cancels much of the luck of the deal.
"""

from __future__ import annotations

import shlex
import signal
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import asdict, dataclass, field
from typing import Any, Protocol

from ..bots import make_bot
from ..core.game import Action, Game, State
from ..core.rng import derive_seed
from ..core.session import Agent, bot_agent, play_out


@dataclass(frozen=True)
class Job:
    """What to play: ``bots`` are names without the ``bot:`` prefix, one per seat of each game."""

    game: str
    bots: tuple[str, ...]
    games: int
    seed: int = 0
    options: dict[str, Any] = field(default_factory=dict)

    @property
    def players(self) -> int:
        return len(self.bots)

    def identity(self) -> dict[str, Any]:
        """What must match to resume a job (the game count may grow)."""
        data = asdict(self)
        data.pop("games")
        data["bots"] = list(self.bots)
        return data

    def game_seed(self, index: int) -> int:
        return derive_seed(self.seed, "arena", index // self.players)

    def entries(self, index: int) -> list[int]:
        """``entries[seat]`` is the index in ``bots`` of the bot sitting at ``seat`` in game ``index``."""
        shift = index % self.players
        return [(seat + shift) % self.players for seat in range(self.players)]


def bot_settings(game: Game, job: Job) -> dict[str, Any]:
    """Each bot's tunable settings (``Bot.settings()``, e.g. a search bot's budgets), by bot name.

    Stored in the job file so that a folder played with other settings (say, after a game's search
    tuning changed) is not silently extended with games from a different bot."""
    settings: dict[str, Any] = {}
    for name in dict.fromkeys(job.bots):
        describe = getattr(make_bot(game, name, 0), "settings", None)
        settings[name] = describe() if callable(describe) else {}
    return settings


def bot_seed(game_seed: int, seat: int, name: str) -> int:
    """The same derivation as ``tabletown play``, so a game replays with that command."""
    return derive_seed(game_seed, seat, f"bot:{name}")


def replay_command(job: Job, seed: int, names: Sequence[str]) -> str:
    parts = ["tabletown", "play", job.game, "--seed", str(seed), "--quiet"]
    for name in names:
        parts += ["--seat", f"bot:{name}"]
    for key, value in job.options.items():
        parts += ["--option", f"{key}={_option_text(value)}"]
    return shlex.join(parts)


def _option_text(value: Any) -> str:
    return str(value).lower() if isinstance(value, bool) else str(value)


class Watcher(Protocol):
    """Follows one game as it is played (``tabletown study`` extracts its features this way)."""

    def see(self, state: State, seat: int, text: str, simultaneous: bool) -> None: ...

    def finish(self, state: State) -> dict[str, Any]: ...


def play_game(
    game: Game, job: Job, index: int, watch: Callable[[State], Watcher] | None = None
) -> dict[str, Any]:
    """Play game ``index`` of ``job``; returns its JSON Lines record.

    ``watch(state)``, if given, makes a watcher that hears every action (its text, as the game
    notates it) and whose ``finish(state)`` dict is merged into the record."""
    seed = job.game_seed(index)
    entries = job.entries(index)
    names = [job.bots[entry] for entry in entries]
    state = game.new_game(job.players, job.options, seed)
    seeds = [bot_seed(seed, seat, name) for seat, name in enumerate(names)]
    bots = [make_bot(game, name, bot_seed) for name, bot_seed in zip(names, seeds, strict=True)]
    think = [0.0] * job.players
    longest = [0.0] * job.players
    agents = [
        _timed(bot_agent(bot, bot_seed), seat, think, longest)
        for seat, (bot, bot_seed) in enumerate(zip(bots, seeds, strict=True))
    ]
    watcher = watch(state) if watch is not None else None
    start = time.perf_counter()
    length = play_out(state, agents, on_action=watcher.see if watcher is not None else None)
    result = state.result()
    if result is None:
        raise RuntimeError(f"game {index} did not end")
    extra = watcher.finish(state) if watcher is not None else {}
    return {
        **extra,
        "index": index,
        "seed": seed,
        "seats": names,
        "entries": entries,
        "result": result.to_json(),
        "length": length,
        "replay": replay_command(job, seed, names),
        # Wall-clock figures: the only part of a line that differs between runs.
        "timing": {
            "seconds": round(time.perf_counter() - start, 4),
            "think": [round(t, 4) for t in think],
            "longest_decision": [round(t, 4) for t in longest],
            # Decisions cut short by a search bot's time cap (then the game may not replay exactly).
            "capped": [getattr(b, "capped", 0) for b in bots],
        },
    }


def _timed(agent: Agent, seat: int, think: list[float], longest: list[float]) -> Agent:
    """``agent``, adding each decision's wall-clock time to ``think[seat]`` and ``longest[seat]``."""
    clock = time.perf_counter

    def timed(state: State, player: int) -> Action:
        began = clock()
        action = agent(state, player)
        spent = clock() - began
        think[seat] += spent
        if spent > longest[seat]:
            longest[seat] = spent
        return action

    return timed


# -- backends -------------------------------------------------------------------------------------------

# How one game is played: ``play_game`` or a variant of it (``functools.partial(play_game, watch=...)``).
PlayGame = Callable[[Game, Job, int], dict[str, Any]]

_WORKER: dict[str, Any] = {}


def _init_worker(game: Game, job: Job, play: PlayGame = play_game) -> None:
    # A forked worker inherits its parent's Python signal handlers. The pool ends its workers with
    # SIGTERM; under a handler that does not end the process (one a test, a server or a terminal
    # game had installed) a worker went on waiting for the task queue's lock, which a sibling ended
    # while holding it, and the pool's exit waited for that worker for ever (seen in a test run).
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    _WORKER["game"] = game
    _WORKER["job"] = job
    _WORKER["play"] = play


def _play_in_worker(index: int) -> dict[str, Any]:
    return _WORKER["play"](_WORKER["game"], _WORKER["job"], index)


def run_process(
    game: Game, job: Job, indices: Sequence[int], workers: int, play: PlayGame = play_game
) -> Iterator[dict[str, Any]]:
    """Yield game records as they finish; one worker plays in this process."""
    if workers <= 1:
        for index in indices:
            yield play(game, job, index)
        return
    import multiprocessing

    # fork: workers inherit the game registry as it is (games registered at run time included).
    context = multiprocessing.get_context("fork")
    with context.Pool(workers, initializer=_init_worker, initargs=(game, job, play)) as pool:
        yield from pool.imap_unordered(_play_in_worker, indices, chunksize=1)


def _batches(indices: Sequence[int], size: int) -> list[list[int]]:
    return [list(indices[start : start + size]) for start in range(0, len(indices), size)]


def run_ray(
    game: Game,
    job: Job,
    indices: Sequence[int],
    workers: int,
    address: str | None = None,
    batch_size: int | None = None,
    play: PlayGame = play_game,
) -> Iterator[dict[str, Any]]:
    """Yield game records from a Ray cluster (a local one unless ``address``); a task plays a batch."""
    import ray

    started_here = False
    if not ray.is_initialized():
        kwargs: dict[str, Any] = {"include_dashboard": False, "log_to_driver": False}
        if address:
            kwargs["address"] = address
        else:
            kwargs["num_cpus"] = max(1, workers)
        ray.init(**kwargs)
        started_here = True
    try:
        size = batch_size or max(1, min(50, len(indices) // (4 * max(1, workers)) or 1))
        remote = ray.remote(_play_batch)
        game_ref, job_ref = ray.put(game), ray.put(job)
        pending = [remote.remote(game_ref, job_ref, batch, play) for batch in _batches(indices, size)]
        while pending:
            ready, pending = ray.wait(pending, num_returns=1)
            yield from ray.get(ready[0])
    finally:
        if started_here:
            ray.shutdown()


def _play_batch(game: Game, job: Job, indices: list[int], play: PlayGame = play_game) -> list[dict[str, Any]]:
    return [play(game, job, index) for index in indices]


Runner = Callable[[Game, Job, Sequence[int], int], Iterable[dict[str, Any]]]


def backend_runner(backend: str, ray_address: str | None = None, play: PlayGame = play_game) -> Runner:
    if backend == "process":
        return lambda game, job, indices, workers: run_process(game, job, indices, workers, play)
    if backend == "ray":
        return lambda game, job, indices, workers: run_ray(
            game, job, indices, workers, ray_address, play=play
        )
    raise ValueError(f"unknown backend {backend!r} (process or ray)")


def deterministic_part(line: dict[str, Any]) -> dict[str, Any]:
    """A record without its wall-clock figures and the store's integrity keys (``job``, ``check``):
    what must agree across backends and reruns."""
    return {key: value for key, value in line.items() if key not in ("timing", "job", "check")}
