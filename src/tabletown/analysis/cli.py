"""``tabletown analyze``: a finished game (or an arena folder of them) rated decision by decision."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console
from rich.markup import escape
from rich.table import Table

from ..core.errors import TabletownError
from ..core.i18n import LANGUAGES, from_environment
from ..core.record import Record
from .analyze import Analysis, analyze
from .evaluate import Settings
from .folder import AnalysisError, analyze_folder, bot_table, calibration
from .model import WinModel
from .report import html_page

console = Console(highlight=False, stderr=True)
out = Console(highlight=False)


def _fail(message: str) -> typer.Exit:
    console.print(f"[bold red]error:[/] {escape(message)}", soft_wrap=True)
    return typer.Exit(2)


def _print_analysis(analysis: Analysis) -> None:
    data = analysis.to_json()
    names = analysis.seats
    table = Table(title=f"{analysis.game}: {analysis.judge}, {analysis.settings.samples} samples a move")
    for column in ("seat", "decisions", "average loss", "inaccuracies", "mistakes", "blunders", "luck"):
        table.add_column(column)
    for seat in data["seats"]:
        table.add_row(
            escape(seat["name"]),
            str(seat["decisions"]),
            f"{seat['average_loss'] * 100:.1f} pts",
            str(seat["inaccuracies"]),
            str(seat["mistakes"]),
            str(seat["blunders"]),
            f"{seat['luck'] * 100:+.0f} pts",
        )
    out.print(table)
    for d in data["decisions"]:
        if not d["class"]:
            continue
        # the words name their seat ("Expert bot builds..."); a move in notation needs the name before it
        played = d["played_words"] or f"{names[d['seat']]}: {d['played']}"
        out.print(
            f"[bold]{d['index']:4d}[/] {escape(played)} "
            f"[red]{d['class']}[/] (-{d['loss'] * 100:.0f} pts, {d['chance_after'] * 100:.0f}% instead of "
            f"{d['chance_best'] * 100:.0f}%); better: {escape(d['best_words'] or d['best'])}"
        )


def analyze_command(
    path: Annotated[Path, typer.Argument(help="a record file, or an arena folder (job.json + games.jsonl)")],
    seat: Annotated[int | None, typer.Option(help="rate only this seat's decisions")] = None,
    budget: Annotated[float, typer.Option(help="seconds a decision may take at most (a safety cap)")] = 5.0,
    samples: Annotated[int, typer.Option(help="samples of the hidden information per move")] = 16,
    depth: Annotated[int, typer.Option(help="actions the expert plays after a move before it is judged")] = 0,
    candidates: Annotated[int, typer.Option(help="moves evaluated in full at each decision")] = 8,
    seed: Annotated[int, typer.Option(help="seed of the samples")] = 30,
    as_json: Annotated[bool, typer.Option("--json", help="print the analysis as JSON")] = False,
    html: Annotated[Path | None, typer.Option(help="write a self-contained HTML page here")] = None,
    model: Annotated[
        Path | None, typer.Option(help="a win-chance model file instead of the game's own")
    ] = None,
    workers: Annotated[int, typer.Option(help="processes, for a folder")] = 1,
    backend: Annotated[str, typer.Option(help="process or ray, for a folder")] = "process",
    ray_address: Annotated[str | None, typer.Option(help="a Ray cluster's address")] = None,
    limit: Annotated[int | None, typer.Option(help="analyse only the first N games of a folder")] = None,
    lang: Annotated[str | None, typer.Option(help="en, pl, de or ru for the moves in words")] = None,
    decisions: Annotated[
        bool, typer.Option(help="rate the decisions (--no-decisions: only the win-chance curve and luck)")
    ] = True,
    game_tuning: Annotated[
        bool, typer.Option(help="let the game tune the settings left at their defaults (its best judge)")
    ] = True,
) -> None:
    """Rate every decision of a finished game: win chance before, after the move played and after the
    best move found, each from that seat's own information; mistakes, blunders and luck.

    Exit codes: 0 fine, 2 the file, folder or an option is unusable."""
    if lang is not None and lang not in LANGUAGES:
        raise _fail(f"--lang is one of {', '.join(LANGUAGES)}, not {lang!r}")
    if samples < 1 or candidates < 1 or depth < -1 or budget <= 0:
        raise _fail(
            "--samples and --candidates must be at least 1, --depth at least -1 (to the end), --budget above 0"
        )
    if backend not in ("process", "ray"):
        raise _fail(f"--backend is process or ray, not {backend!r}")
    settings = Settings(
        samples=samples,
        depth=depth,
        candidates=candidates,
        budget=budget,
        seed=seed,
        rate_decisions=decisions,
        game_tuning=game_tuning,
    )
    if path.is_dir():
        _analyze_folder(path, settings, workers, backend, ray_address, limit, as_json)
        return
    try:
        record = Record.load(path)
        win_model = WinModel.load(model) if model is not None else None
    except (TabletownError, OSError, ValueError, KeyError) as exc:
        raise _fail(str(exc)) from None
    _refuse_unfinished(record)
    if seat is not None and not 0 <= seat < len(record.seats):
        raise _fail(f"--seat must be a seat of this game, 0-{len(record.seats) - 1}, not {seat}")
    try:
        analysis = analyze(record, settings, seat, lang or from_environment(), model=win_model)
    except TabletownError as exc:
        raise _fail(str(exc)) from None
    data = analysis.to_json()
    if html is not None:
        html.write_text(html_page(data, f"Analysis: {record.game}, seed {record.seed}"), encoding="utf-8")
    if as_json:
        out.print_json(json.dumps(data))
    else:
        _print_analysis(analysis)


def _refuse_unfinished(record: Record) -> None:
    """A game is analysed once it is over (as the web's tables are): an unfinished record's analysis
    would print other seats' secret choices in words and give live advice, in a page titled with the
    seed that replays every die to come (security audit 20). Replayed, not read from the record's
    ``result``, which anyone can write."""
    try:
        over = record.replay().is_over
    except TabletownError as exc:
        raise _fail(str(exc)) from None
    if not over:
        raise _fail(
            "this game is not over: a game is analysed once it has ended, since an analysis shows "
            "every seat's secret choices"
        )


def _analyze_folder(
    folder: Path,
    settings: Settings,
    workers: int,
    backend: str,
    ray_address: str | None,
    limit: int | None,
    as_json: bool,
) -> None:
    try:
        game, lines = analyze_folder(folder, settings, workers, backend, ray_address, limit)
    except (AnalysisError, TabletownError) as exc:
        raise _fail(str(exc)) from None
    rows = bot_table(lines)
    calibrated = calibration(lines)
    seconds = [line["seconds"] for line in lines]
    timing = {"mean": round(sum(seconds) / len(seconds), 2), "max": round(max(seconds), 2)} if seconds else {}
    if as_json:
        out.print_json(
            json.dumps(
                {
                    "game": game.name,
                    "games": len(lines),
                    "bots": rows,
                    "calibration": calibrated,
                    "seconds": timing,
                }
            )
        )
        return
    table = Table(title=f"{game.name}: {len(lines)} games, average loss per decision (95% interval, by game)")
    for column in (
        "bot",
        "games",
        "decisions",
        "average loss",
        "interval",
        "inaccuracies",
        "mistakes",
        "blunders",
    ):
        table.add_column(column)
    for row in rows:
        table.add_row(
            escape(row["bot"]),
            str(row["games"]),
            str(row["decisions"]),
            f"{row['average_loss'] * 100:.2f} pts",
            f"{row['interval'][0] * 100:.2f}-{row['interval'][1] * 100:.2f}",
            f"{row['inaccuracy_share'] * 100:.1f}%",
            f"{row['mistake_share'] * 100:.1f}%",
            f"{row['blunder_share'] * 100:.1f}%",
        )
    out.print(table)
    bands = Table(title="calibration: how often a seat given each chance went on to win")
    for column in ("chance given", "positions", "games", "mean chance", "won", "95% interval (by game)"):
        bands.add_column(column)
    for row in calibrated:
        bands.add_row(
            row["band"],
            str(row["positions"]),
            str(row["games"]),
            f"{row['mean_chance'] * 100:.1f}%",
            f"{row['win_rate'] * 100:.1f}%",
            f"{row['interval'][0] * 100:.1f}-{row['interval'][1] * 100:.1f}%",
        )
    out.print(bands)
    if timing:
        out.print(f"analysis time a game: mean {timing['mean']} s, longest {timing['max']} s")


def register_commands(app: typer.Typer) -> None:
    app.command(name="analyze")(analyze_command)
