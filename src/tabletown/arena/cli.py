"""``tabletown arena``: bots against bots, many games, with statistics."""

from __future__ import annotations

import contextlib
import importlib.util
import os
from collections.abc import Iterator
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
from rich.table import Table
from rich.text import Text

from ..bots import make_bot
from ..core.errors import TabletownError
from ..core.options import parse_option_pairs
from ..core.registry import get_game
from .api import run_arena
from .report import tables, write_plots, write_summary
from .roundrobin import run_round_robin, write_matrix
from .runner import Job
from .stats import summarize

console = Console(highlight=False)


class GamesPerSecond(ProgressColumn):
    def render(self, task: Task) -> Text:
        speed = task.finished_speed or task.speed
        return Text("–– games/s" if speed is None else f"{speed:.2f} games/s", style="progress.data.speed")


@contextlib.contextmanager
def command_errors(
    console: Console, saved_in: Path | None = None, writing: str | None = None
) -> Iterator[None]:
    """A command's failures as its exit code (the arena, its round robin, and ``study`` run in it): a
    TabletownError or, when ``writing`` names what the command writes, an OSError exits 2 and says
    why; Ctrl-C exits 130, saying that finished games are kept (``saved_in``) for the same command to
    resume."""
    try:
        yield
    except TabletownError as exc:
        console.print(f"[bold red]error:[/] {escape(str(exc))}")
        raise typer.Exit(2) from None
    except KeyboardInterrupt:
        console.print(
            f"[yellow]interrupted[/]: finished games are saved{' in ' + str(saved_in) if saved_in else ''}; "
            "run the same command again to resume"
        )
        raise typer.Exit(130) from None
    except OSError as exc:
        if writing is None:
            raise
        console.print(f"[bold red]error:[/] cannot write {writing}: {escape(str(exc))}")
        raise typer.Exit(2) from None


def register_commands(app: typer.Typer) -> None:
    app.command()(arena)


def arena(
    game_name: Annotated[str, typer.Argument(metavar="GAME")],
    bot: Annotated[list[str] | None, typer.Option("--bot", help="NAME or bot:NAME, once per seat")] = None,  # noqa: B008
    games: Annotated[int, typer.Option("--games", min=1, help="number of games")] = 100,
    option: Annotated[list[str] | None, typer.Option("--option", help="KEY=VALUE")] = None,  # noqa: B008
    seed: Annotated[int, typer.Option(min=0, help="job seed: every game's seed derives from it")] = 0,
    workers: Annotated[int, typer.Option(min=1, help="worker processes (or Ray CPUs)")] = 1,
    out: Annotated[Path | None, typer.Option(help="folder for games.jsonl and the summary; resumes")] = None,
    plot: Annotated[bool, typer.Option("--plot", help="write PNG charts (into --out or .)")] = False,
    backend: Annotated[str, typer.Option(help="process or ray")] = "process",
    ray_address: Annotated[
        str | None, typer.Option(help="Ray cluster address (default: a local one)")
    ] = None,
    progress: Annotated[bool, typer.Option(help="show the progress bar")] = True,
    round_robin: Annotated[
        bool, typer.Option("--round-robin", help="every pair of the bots plays --games two-player games")
    ] = False,
) -> None:
    """Play GAME many times between bots (seats rotate every game) and report win rates and ratings.
    With --round-robin every pair of the named bots plays its own two-player job instead, and the
    report is a win-rate matrix (table, matrix.csv, matrix.json and a heat map matrix.png)."""
    names = [name.removeprefix("bot:") for name in (bot or [])]
    if plot and importlib.util.find_spec("matplotlib") is None:  # checked before any game is played
        console.print("[bold red]error:[/] --plot needs matplotlib: pip install -e '.\\[research]'")
        raise typer.Exit(2)
    if round_robin:
        _round_robin(game_name, names, games, option or [], seed, workers, out, backend, ray_address)
        return
    with command_errors(console, saved_in=out):
        game = get_game(game_name)
        if backend not in ("process", "ray"):
            raise TabletownError(f"--backend is process or ray, not {backend!r}")
        if len(names) < min(2, game.min_players) or not names:
            raise TabletownError(
                "name at least two bots with --bot (one per seat; one if the game has a solo mode)"
            )
        options = game.resolve_options(len(names), parse_option_pairs(option or []))
        # Only the options given (as resolved values) define the job, so defaults can evolve.
        given = {key: options[key] for key in parse_option_pairs(option or [])}
        for name in set(names):
            make_bot(game, name, 0)  # unknown bot names fail here, not in a worker
        job = Job(game.name, tuple(names), games, seed, given)
        lines = _run(game, job, out, workers, backend, ray_address, progress)
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


def _round_robin(
    game_name: str,
    names: list[str],
    games: int,
    option: list[str],
    seed: int,
    workers: int,
    out: Path | None,
    backend: str,
    ray_address: str | None,
) -> None:
    with command_errors(console):
        game = get_game(game_name)
        if len(set(names)) < 2 or len(set(names)) != len(names):
            raise TabletownError("a round robin needs at least two different bots (--bot, once each)")
        options = game.resolve_options(2, parse_option_pairs(option))
        given = {key: options[key] for key in parse_option_pairs(option)}
        for name in names:
            make_bot(game, name, 0)

        def announce(pair: tuple[str, str], number: int, total: int) -> None:
            console.print(f"pairing {number + 1} of {total}: {pair[0]} vs {pair[1]}")

        table = run_round_robin(
            game,
            names,
            games,
            seed,
            given,
            out,
            workers,
            backend,
            on_pairing=announce,
            ray_address=ray_address,
        )
    console.print(matrix_table(game.title, table))
    if out is not None:
        try:
            paths = write_matrix(out, game.title, table)
        except OSError as exc:
            console.print(f"[bold red]error:[/] cannot write the matrix: {escape(str(exc))}")
            raise typer.Exit(2) from None
        console.print("matrix: " + ", ".join(str(p) for p in paths))


def matrix_table(title: str, table: dict[str, Any]) -> Table:
    """Rows name the bots in full; columns are numbered after them, so long names stay readable."""
    bots = table["bots"]
    grid = Table(title=f"{title}: row's win rate against column (2 players)")
    grid.add_column("row vs column", no_wrap=True)
    for number in range(1, len(bots) + 1):
        grid.add_column(str(number), justify="right", no_wrap=True)
    grid.add_column("overall", justify="right", no_wrap=True)
    for number, (bot, row, overall) in enumerate(zip(bots, table["cells"], table["overall"], strict=True), 1):
        cells = ["—" if cell is None else f"{cell['win_rate']:.1%}" for cell in row]
        grid.add_row(f"{number} {bot}", *cells, f"{overall['win_rate']:.1%}")
    return grid
