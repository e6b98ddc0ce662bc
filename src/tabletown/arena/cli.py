"""``tabletown arena``: bots against bots, many games, with statistics."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.markup import escape
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    ProgressColumn,
    Task,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)
from rich.text import Text

from ..bots import make_bot
from ..core.errors import TabletownError
from ..core.options import parse_option_pairs
from ..core.registry import get_game
from .api import run_arena
from .report import tables, write_plots, write_summary
from .runner import Job
from .stats import summarize

console = Console(highlight=False)


class GamesPerSecond(ProgressColumn):
    def render(self, task: Task) -> Text:
        speed = task.finished_speed or task.speed
        return Text("–– games/s" if speed is None else f"{speed:.2f} games/s", style="progress.data.speed")


def register_commands(app: typer.Typer) -> None:
    app.command()(arena)


def arena(
    game_name: Annotated[str, typer.Argument(metavar="GAME")],
    bot: Annotated[list[str], typer.Option("--bot", help="NAME or bot:NAME, once per seat")] = None,  # noqa: B008
    games: Annotated[int, typer.Option("--games", min=1, help="number of games")] = 100,
    option: Annotated[list[str], typer.Option("--option", help="KEY=VALUE")] = None,  # noqa: B008
    seed: Annotated[int, typer.Option(min=0, help="job seed: every game's seed derives from it")] = 0,
    workers: Annotated[int, typer.Option(min=1, help="worker processes (or Ray CPUs)")] = 1,
    out: Annotated[Path | None, typer.Option(help="folder for games.jsonl and the summary; resumes")] = None,
    plot: Annotated[bool, typer.Option("--plot", help="write PNG charts (into --out or .)")] = False,
    backend: Annotated[str, typer.Option(help="process or ray")] = "process",
    ray_address: Annotated[
        str | None, typer.Option(help="Ray cluster address (default: a local one)")
    ] = None,
    progress: Annotated[bool, typer.Option(help="show the progress bar")] = True,
) -> None:
    """Play GAME many times between bots (seats rotate every game) and report win rates and ratings."""
    names = [name.removeprefix("bot:") for name in (bot or [])]
    try:
        game = get_game(game_name)
        if backend not in ("process", "ray"):
            raise TabletownError(f"--backend is process or ray, not {backend!r}")
        if len(names) < 2:
            raise TabletownError("name at least two bots with --bot (one per seat)")
        options = game.resolve_options(len(names), parse_option_pairs(option or []))
        # Only the options given (as resolved values) define the job, so defaults can evolve.
        given = {key: options[key] for key in parse_option_pairs(option or [])}
        for name in set(names):
            make_bot(game, name, 0)  # unknown bot names fail here, not in a worker
        job = Job(game.name, tuple(names), games, seed, given)
        lines = _run(game, job, out, workers, backend, ray_address, progress)
    except TabletownError as exc:
        console.print(f"[bold red]error:[/] {exc}")
        raise typer.Exit(2) from None
    except KeyboardInterrupt:
        console.print(
            f"[yellow]interrupted[/]: finished games are saved{' in ' + str(out) if out else ''}; "
            "run the same command again to resume"
        )
        raise typer.Exit(130) from None
    try:
        _report(game.title, job, lines, out, plot)
    except OSError as exc:
        console.print(f"[bold red]error:[/] cannot write the report: {escape(str(exc))}")
        raise typer.Exit(2) from None


def _run(
    game: Any, job: Job, out: Path | None, workers: int, backend: str, ray_address: str | None, show: bool
) -> list[dict[str, Any]]:
    columns = (
        TextColumn("[bold]{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        GamesPerSecond(),
        TimeElapsedColumn(),
        TextColumn("ETA"),
        TimeRemainingColumn(),
    )
    with Progress(
        *columns, console=console, disable=not show or bool(os.environ.get("TABLETOWN_NO_PROGRESS"))
    ) as bar:
        task = bar.add_task(f"{job.game} {' vs '.join(job.bots)}", total=job.games)

        def started(already: int, total: int) -> None:
            if already:
                console.print(f"resuming: {already} of {total} games already played")
            bar.update(task, completed=already)

        return run_arena(
            game,
            job,
            out,
            workers,
            backend,
            ray_address,
            on_game=lambda line: bar.advance(task),
            on_start=started,
            on_warning=lambda text: console.print(f"[yellow]warning:[/] {escape(text)}"),
        )


def _report(title: str, job: Job, lines: list[dict[str, Any]], out: Path | None, plot: bool) -> None:
    summary = summarize(job.bots, lines)
    if not console.is_terminal:
        console.width = max(console.width, 120)  # piped output: don't squeeze the table into 80 columns
    for table in tables(title, summary):
        console.print(table)
    if out is not None:
        write_summary(out, summary)
        console.print(f"games: {out / 'games.jsonl'}  summary: {out / 'summary.csv'}, {out / 'summary.json'}")
    if plot:
        paths = write_plots(out or Path("."), title, summary, [line["length"] for line in lines])
        console.print("charts: " + ", ".join(str(p) for p in paths))
