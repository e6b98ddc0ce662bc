"""Running an arena job end to end: resume from the output folder, play what is missing, collect lines."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from ..core.game import Game
from .runner import Job, PlayGame, backend_runner, bot_settings, play_game
from .store import GAMES_FILE, GameStore

Progress = Callable[[dict[str, Any]], None]


def run_arena(
    game: Game,
    job: Job,
    out: Path | None = None,
    workers: int = 1,
    backend: str = "process",
    ray_address: str | None = None,
    on_game: Progress | None = None,
    on_start: Callable[[int, int], None] | None = None,
    on_warning: Callable[[str], None] | None = None,
    play: PlayGame = play_game,
) -> list[dict[str, Any]]:
    """Play the games of ``job`` not yet in ``out``; return all its game records in index order.

    ``on_start(already_done, total)`` is called once before playing, ``on_game(line)`` after each game.
    If interrupted, every finished game is already saved in ``out``; rerunning resumes from there.
    ``play`` plays one game (``play_game``, or a variant that adds to each record).
    """
    game.resolve_options(job.players, job.options)  # refuse bad set-ups before any worker starts
    store = GameStore(out)
    done = store.open(job, bot_settings(game, job))
    if on_warning is not None:
        for problem in store.dropped[:20]:
            on_warning(f"{GAMES_FILE} {problem}: dropped, its game will be played again")
        if len(store.dropped) > 20:
            on_warning(f"... and {len(store.dropped) - 20} more lines dropped")
    todo = [index for index in range(job.games) if index not in done]
    if on_start is not None:
        on_start(job.games - len(todo), job.games)
    runner = backend_runner(backend, ray_address, play)
    try:
        for line in runner(game, job, todo, workers):
            done[line["index"]] = line
            store.add(line)
            if on_game is not None:
                on_game(line)
    finally:
        store.close()
    return [done[index] for index in sorted(done) if index < job.games]
