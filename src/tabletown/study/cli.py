"""``tabletown study``: strategy studies of one game, written as tables and a self-contained report."""

from __future__ import annotations

import importlib.util
import os
import shlex
import sys
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

from ..arena.cli import command_errors
from ..bots import make_bot
from ..core.errors import TabletownError
from ..core.options import parse_option_pairs
from ..core.registry import get_game
from .report import write_study
from .runner import make_plan, read_folder, run_study, study_info, write_study_info

console = Console(highlight=False)


def register_commands(app: typer.Typer) -> None:
    app.command()(study)


def _variant(text: str) -> dict[str, Any]:
    text = text.strip()
    if text in ("", "default"):
        return {}
    return parse_option_pairs([pair for pair in text.split(",") if pair])


def study(
    game_name: Annotated[str, typer.Argument(metavar="GAME")],
    out: Annotated[Path, typer.Option(help="folder for runs/, tables/, tables.json and report.html")],
    players: Annotated[
        list[int] | None, typer.Option("--players", help="player count (repeat for several)")
    ] = None,  # noqa: B008
    bots: Annotated[
        list[str] | None,
        typer.Option(
            "--bots",
            help="bots at the table, comma-separated: one name fills every seat, more than the seats "
            "play every combination (repeat for several tables)",
        ),
    ] = None,  # noqa: B008
    options: Annotated[
        list[str] | None,
        typer.Option("--options", help="a rules variant K=V,K=V or 'default' (repeat to compare)"),
    ] = None,  # noqa: B008
    games: Annotated[int, typer.Option("--games", min=1, help="games per set-up")] = 100,
    seed: Annotated[int, typer.Option(min=0, help="study seed: every game's seed derives from it")] = 0,
    workers: Annotated[int, typer.Option(min=1, help="worker processes (or Ray CPUs)")] = 1,
    backend: Annotated[str, typer.Option(help="process or ray")] = "process",
    ray_address: Annotated[str | None, typer.Option(help="Ray cluster address")] = None,
    source: Annotated[
        Path | None, typer.Option("--from", help="report on an existing arena or study folder instead")
    ] = None,
    progress: Annotated[bool, typer.Option(help="show the progress bar")] = True,
) -> None:
    """Play GAME many times in the set-ups of a study (or read --from an arena folder) and write
    OUT/report.html with seat advantage, openings, what wins, game shape and rules options, plus a
    CSV (tables/) and JSON (tables.json) of every table."""
    if importlib.util.find_spec("matplotlib") is None:
        console.print(
            "[bold red]error:[/] studies draw charts with matplotlib: pip install -e '.\\[research]'"
        )
        raise typer.Exit(2)
    command = shlex.join(["tabletown", "study", *sys.argv[2:]]) if sys.argv[1:2] == ["study"] else ""
    with command_errors(console, writing="the study"):
        if backend not in ("process", "ray"):
            raise TabletownError(f"--backend is process or ray, not {backend!r}")
        if out.exists() and not out.is_dir():
            raise TabletownError(f"--out {out} is a file, not a folder")
        if source is not None:
            game, results = read_folder(game_name, source, workers, backend, ray_address)
            command = _recorded_command(source) or command
        else:
            game = get_game(game_name)
            lineups = [
                [n.strip().removeprefix("bot:") for n in b.split(",") if n.strip()] for b in bots or []
            ]
            variants = [_variant(text) for text in options or []]
            configs = make_plan(game, players, lineups, variants)
            for name in sorted({name for config in configs for name in config.bots}):
                make_bot(game, name, 0)  # unknown bot names fail here, not in a worker
            write_study_info(out, command, configs)
            results = _play(game, configs, games, seed, out, workers, backend, ray_address, progress)
        tables = write_study(out, game, results, command or f"tabletown study {game_name} ...")
    console.print(
        f"{len(tables['games'])} games in {len(results)} set-ups; report: {out / 'report.html'}; "
        f"tables: {out / 'tables'}/*.csv, {out / 'tables.json'}"
    )


def _recorded_command(folder: Path) -> str | None:
    """The command that played a study folder (its ``study.json``), for the report's reproduce line."""
    command = study_info(folder).get("command")
    return command if isinstance(command, str) else None


def _play(
    game: Any,
    configs: Any,
    games: int,
    seed: int,
    out: Path,
    workers: int,
    backend: str,
    ray_address: str | None,
    show: bool,
) -> Any:
    columns = (TextColumn("[bold]{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn())
    hidden = not show or bool(os.environ.get("TABLETOWN_NO_PROGRESS"))
    with Progress(*columns, console=console, disable=hidden) as bar:
        task = bar.add_task(game.name, total=games * len(configs))
        return run_study(
            game,
            configs,
            games,
            seed,
            out,
            workers,
            backend,
            ray_address,
            on_config=lambda config, number, total: bar.update(
                task, description=f"{number + 1}/{total} {config.label}", completed=number * games
            ),
            on_game=lambda line: bar.advance(task),
        )
