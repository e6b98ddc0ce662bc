"""The ``tabletown`` command line: list games, play, replay and benchmark."""

from __future__ import annotations

import contextlib
import json
import math
import os
import signal
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Annotated, NoReturn

import typer
from rich.console import Console, RenderableType
from rich.markup import escape
from rich.table import Table

from . import __version__
from .bots import bot_names, make_bot
from .core.bench import bench_config
from .core.errors import TabletownError
from .core.game import Game, State
from .core.i18n import CORE_DOMAIN, LANGUAGES, Speaker, from_environment, in_language
from .core.options import parse_option_pairs
from .core.record import Record, apply_recorded, verify
from .core.registry import all_games, get_game
from .core.rng import derive_seed
from .core.session import bot_agent, play_out
from .terminal import (
    HotSeat,
    HumanAgent,
    LeaveGame,
    Stepper,
    human_count,
    render_board,
    resume_state,
    secret_moves,
)

app = typer.Typer(add_completion=False, no_args_is_help=True, help="Tabletown: city-building board games.")
console = Console(highlight=False)


def _fail(message: str, code: int = 2) -> NoReturn:
    console.print(f"[bold red]error:[/] {escape(message)}", soft_wrap=True)
    raise typer.Exit(code)


@app.command()
def games() -> None:
    """List the games, their player counts, options and bots."""
    for game in all_games().values():
        console.rule(f"[bold]{game.name}[/] — {game.title} ({game.min_players}-{game.max_players} players)")
        for option in game.options:
            console.print(f"  --option {option.describe()}")
        console.print(f"  bots: {', '.join('bot:' + n for n in bot_names(game))}")


def _bot_agent(game: Game, name: str, seed: int):
    """A seat-safe agent: the bot is handed a copy of the game made for its seat (same seeds as the
    arena, so an arena game replays with ``tabletown play``)."""
    return bot_agent(make_bot(game, name, seed), seed)


@contextlib.contextmanager
def leave_on_signals() -> Iterator[None]:
    """A closed terminal window (SIGHUP) or a kill (SIGTERM) leaves the game as Ctrl-C does, so it is
    saved: the process used to end at once and the game was lost."""

    def leave(signum: int, frame: object) -> None:
        raise LeaveGame

    kinds = [getattr(signal, name) for name in ("SIGTERM", "SIGHUP") if hasattr(signal, name)]
    before = {kind: signal.signal(kind, leave) for kind in kinds}
    try:
        yield
    finally:
        for kind, handler in before.items():
            signal.signal(kind, handler)


@app.command()
def play(
    game_name: Annotated[str, typer.Argument(metavar="GAME")] = "",
    seat: Annotated[list[str] | None, typer.Option("--seat", help="human or bot:NAME, once per seat")] = None,  # noqa: B008
    option: Annotated[list[str] | None, typer.Option("--option", help="KEY=VALUE")] = None,  # noqa: B008
    seed: Annotated[int | None, typer.Option(help="seed for dice and shuffles")] = None,
    record: Annotated[Path | None, typer.Option("--record", help="where to save the game record")] = None,
    resume: Annotated[
        Path | None, typer.Option("--resume", help="continue a saved game (its record)")
    ] = None,
    quiet: Annotated[bool, typer.Option(help="with only bots: print just the result")] = False,
    lang: Annotated[
        str | None, typer.Option("--lang", help="en, pl, de or ru (default: $TABLETOWN_LANG, else en)")
    ] = None,
) -> None:
    """Play GAME. With only bot seats the game runs to its end without input. A game with a human is
    saved on every exit (to --record or last-game.json); --resume FILE continues it."""
    if lang is not None and lang not in LANGUAGES:
        _fail(f"--lang is one of {', '.join(LANGUAGES)}, not {lang!r}")
    language = lang or from_environment()
    try:
        if resume is not None:
            if seat or option or seed is not None:
                _fail(
                    "--resume continues the saved game as it was set up: leave out --seat, --option and --seed"
                )
            rec = Record.load(resume)
            if game_name and game_name != rec.game:
                _fail(f"{resume} holds a game of {rec.game}, not {game_name}")
            state = resume_state(rec)
            seats = rec.seats
            record = record or resume
        else:
            seats = seat or ["human", "bot:greedy"]
            game = get_game(game_name)
            state = game.new_game(len(seats), parse_option_pairs(option or []), seed)
            rec = Record.start(state, seats)
        game = state.game
        has_human = "human" in seats
        if record is None and has_human:
            record = Path("last-game.json")
        if record is not None:
            _check_writable(record)
        # A resumed game with several people at the keyboard starts with a hand-over: whoever typed
        # the command is not necessarily the seat to play first (security audit 13).
        table = HotSeat(
            human_count(seats), last=-1 if resume is not None else None, resumed=resume is not None
        )
        agents = []
        for index, spec in enumerate(seats):
            if spec == "human":
                agents.append(HumanAgent(game, console, table, language))
            elif spec.startswith("bot:"):
                agents.append(_bot_agent(game, spec, derive_seed(state.seed, index, spec)))
            else:
                _fail(f"a seat is 'human' or 'bot:NAME', not {spec!r}")
    except TabletownError as exc:
        _fail(str(exc))

    words = Speaker(CORE_DOMAIN, language)

    def echo(state: State, player: int, text: str, simultaneous: bool) -> None:
        # Choices made in a simultaneous round stay secret; the board shows the round once resolved.
        if has_human and seats[player] != "human" and not simultaneous:
            mover = words.tr("seat {seat}", seat=player)
            console.print(f"[magenta]{escape(mover)} ({seats[player]}):[/] {escape(text)}")

    try:
        with leave_on_signals():
            play_out(state, agents, rec, on_action=echo, finish_rounds=table.humans > 1)
    except (LeaveGame, KeyboardInterrupt):
        if record is not None:
            rec.save(record, private=True)
            saved = words.tr(
                "game saved to {path}; continue it with: tabletown play --resume {path}", path=record
            )
            with contextlib.suppress(OSError):  # the terminal may be gone (its window was closed)
                console.print(escape(saved))
        raise typer.Exit(1) from None
    if has_human or not quiet:
        console.print(_final_board(state, seats, table, language))
    _print_result(state, seats, language)
    if record is not None:
        rec.save(record)
        console.print(
            escape(words.tr("record saved to {path} (replay with: tabletown replay {path})", path=record))
        )


def _final_board(state: State, seats: list[str], table: HotSeat, lang: str) -> RenderableType:
    """The board at the end of a game: with people at the table, every event that one of them has
    not been shown yet (the last moves, the final scoring); else the newest few."""
    since = table.unseen_from(seat for seat, spec in enumerate(seats) if spec == "human")
    if since is None:
        return in_language(state.game.render, state.view(None), lang=lang)
    return render_board(state.game, state.view(None, since=since), lang, all_events=True)


def _check_writable(path: Path) -> None:
    """Refuse a record path that cannot be written before the game, not after it."""
    folder = path.parent if str(path.parent) else Path(".")
    if path.is_dir():
        _fail(f"--record {path} is a folder; give a file name")
    if not folder.is_dir():
        _fail(f"--record {path}: the folder {folder} does not exist")
    if not os.access(folder, os.W_OK) or (path.exists() and not os.access(path, os.W_OK)):
        _fail(f"--record {path} cannot be written")


def _print_result(state: State, seats: list[str], lang: str = "en") -> None:
    words = Speaker(CORE_DOMAIN, lang)
    result = state.result()
    if result is None:
        console.print(words.tr("the game did not finish"))
        return
    # Every seat, and any opponent that holds no seat (solo New Las Vegas' ACME), by rank.
    rows = [(result.ranks[seat], str(seat), seats[seat], result.scores[seat]) for seat in range(len(seats))]
    rows += [(rank, "-", name, score) for name, score, rank in state.game.rivals(state.view(None), lang)]
    rows.sort(key=lambda row: row[0])
    table = Table(title=words.tr("Result"))
    for column in (words.tr("rank"), words.tr("seat"), words.tr("player"), words.tr("score")):
        table.add_column(column)
    for rank, seat, player, score in rows:
        # A cell is read as Rich markup, and a shared record's seats are any text: "[link=URL]"
        # printed a hidden hyperlink, "[b]..." a line of our own (security audit 22).
        table.add_row(str(rank), seat, escape(player), f"{score:g}")
    console.print(table)
    winners = [
        words.tr("seat {seat} ({player})", seat=seat, player=player) if seat != "-" else player
        for rank, seat, player, _score in rows
        if rank == 1
    ]
    if len(winners) == 1:
        outcome = words.tr("winner: {winner}", winner=winners[0])
    else:
        outcome = words.tr("shared win: {winners}", winners=", ".join(winners))
    console.print(f"[bold]{escape(outcome)}[/]")


@app.command()
def replay(
    path: Path,
    verify_only: Annotated[
        bool, typer.Option("--verify", help="re-play and exit non-zero on any difference")
    ] = False,
    step: Annotated[
        bool, typer.Option(help="step through it: next, back, jump to a move, switch seat")
    ] = False,
    seat: Annotated[int | None, typer.Option(help="show the game as this seat saw it")] = None,
    lang: Annotated[
        str | None, typer.Option("--lang", help="en, pl, de or ru (default: $TABLETOWN_LANG, else en)")
    ] = None,
) -> None:
    """Step through a recorded game, or verify that it replays exactly.

    Exit codes: 0 fine, 1 the record replays differently from what it says, 2 the file or an option is
    unusable (not a record, damaged, a seat that does not exist)."""
    if lang is not None and lang not in LANGUAGES:
        _fail(f"--lang is one of {', '.join(LANGUAGES)}, not {lang!r}")
    language = lang or from_environment()
    try:
        rec = Record.load(path)
    except TabletownError as exc:
        _fail(str(exc))
    if seat is not None and not 0 <= seat < len(rec.seats):
        _fail(f"--seat must be a seat of this game, 0-{len(rec.seats) - 1}, not {seat}")
    if not rec.version_matches:
        console.print(
            f"[yellow]warning:[/] recorded by engine {escape(rec.engine_version)}, this is {__version__}; "
            "an older record may replay differently"
        )
    if verify_only:
        try:
            problems = verify(rec)
        except TabletownError as exc:
            _fail(str(exc))
        for problem in problems:
            console.print(f"[red]{escape(problem)}[/]")
        if problems:
            raise typer.Exit(1)
        console.print(f"ok: {len(rec.actions)} actions replay identically ({rec.game}, seed {rec.seed})")
        if rec.commitment is not None:
            console.print(
                f"fair: seed and salt match the commitment {rec.commitment} published before move 1"
            )
        if rec.seed_chosen:
            console.print(
                "[yellow]note:[/] this table's seed was chosen by its creator, not drawn by the server"
            )
        return
    try:
        if step:
            Stepper(rec, console, seat, language).run()
        else:
            _show_replay(rec, seat, language)
    except TabletownError as exc:
        _fail(str(exc), 1)


def _show_replay(rec: Record, seat: int | None, lang: str = "en") -> None:
    words = Speaker(CORE_DOMAIN, lang)
    state = rec.initial_state()
    game = state.game
    shown = 0
    secret = secret_moves(rec)
    for index, (player, text) in enumerate(rec.actions):
        apply_recorded(state, index, player, text)
        mover = words.tr("seat {seat}", seat=player)
        if secret[index] and player != seat:  # an unfinished game's hidden choice of another seat
            text = words.tr("a secret choice (shown at the end)")
        console.print(f"[bold]{index + 1:4d}[/] {mover} ({escape(rec.seats[player])}): {escape(text)}")
        for event in state.events(seat, shown):
            said = in_language(game.describe_event, event, None, lang=lang)
            console.print(f"      [dim]{escape(said)}[/]")
        shown = len(state.log)
    console.print(in_language(game.render, state.view(seat), lang=lang))
    _print_result(state, rec.seats, lang)


@app.command()
def bench(
    game_name: Annotated[str | None, typer.Argument(metavar="[GAME]")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="print a JSON list of records")] = False,
    seconds: Annotated[float, typer.Option(help="minimum seconds per configuration")] = 2.0,
) -> None:
    """Full random games per second for each game and configuration, in this one process."""
    if not (math.isfinite(seconds) and 0 < seconds <= 3600):
        _fail(f"--seconds must be more than 0 and at most 3600, not {seconds}")
    try:
        selected = [get_game(game_name)] if game_name else list(all_games().values())
    except TabletownError as exc:
        _fail(str(exc))
    results = []
    for game in selected:
        for players, options in game.bench_configs:
            results.append(bench_config(game, players, options, min_seconds=seconds))
            if not as_json:
                r = results[-1]
                console.print(
                    f"{r['game']:14s} {players}p {json.dumps(r['options']):40s} "
                    f"{r['games_per_second']:9.1f} games/s  ({r['games']} games, {r['actions_per_game']} actions/game)",
                    soft_wrap=True,
                )
    if as_json:
        sys.stdout.write(json.dumps(results) + "\n")


@app.command()
def serve(
    host: Annotated[str, typer.Option(help="address to listen on")] = "127.0.0.1",
    port: Annotated[int, typer.Option(min=1, max=65535, help="port to listen on")] = 8000,
    db: Annotated[
        str | None, typer.Option(help="database URL (default: $TABLETOWN_DATABASE_URL or ./tabletown.db)")
    ] = None,
    bot_delay: Annotated[
        float | None, typer.Option(help="seconds a bot waits before moving at tables with people")
    ] = None,
    redis: Annotated[
        str | None,
        typer.Option(
            help="Redis URL (default $TABLETOWN_REDIS_URL): processes share live updates, bots apart"
        ),
    ] = None,
    workers: Annotated[
        int, typer.Option(min=1, max=64, help="web processes on this port (needs --redis)")
    ] = 1,
    external_bots: Annotated[
        bool, typer.Option(help="bot workers run elsewhere (tabletown bots); do not start one here")
    ] = False,
    public_url: Annotated[
        str | None,
        typer.Option(
            help="the address players reach this server at, e.g. http://my-pc:8000: join links are "
            "built from it (default $TABLETOWN_PUBLIC_URL, else http://HOST:PORT)"
        ),
    ] = None,
    trusted_proxies: Annotated[
        str | None,
        typer.Option(
            help="load balancers in front (addresses or networks, comma-separated): their "
            "X-Forwarded-For names the client, so per-address limits count each client "
            "(default $TABLETOWN_TRUSTED_PROXIES; none)"
        ),
    ] = None,
) -> None:
    """Serve Tabletown in the browser: lobby, live tables against friends and bots, replays."""
    if bot_delay is not None and not (math.isfinite(bot_delay) and 0 <= bot_delay <= 60):
        _fail(f"--bot-delay must be 0-60 seconds, not {bot_delay}")
    from .web.server import ConfigError
    from .web.server import serve as run_server

    try:
        run_server(
            host,
            port,
            db,
            bot_delay=bot_delay,
            redis_url=redis,
            workers=workers,
            external_bots=external_bots,
            public_url=public_url,
            trusted_proxies=trusted_proxies,
        )
    except (TabletownError, ConfigError) as exc:
        _fail(str(exc))


@app.command()
def bots(
    db: Annotated[
        str | None, typer.Option(help="database URL (default: $TABLETOWN_DATABASE_URL or ./tabletown.db)")
    ] = None,
    redis: Annotated[str | None, typer.Option(help="Redis URL (default $TABLETOWN_REDIS_URL)")] = None,
    workers: Annotated[int, typer.Option(min=1, max=64, help="bot worker processes (tables shared out)")] = 1,
    bot_delay: Annotated[
        float, typer.Option(help="seconds a bot waits before moving at tables with people")
    ] = 0.5,
) -> None:
    """Run the bots and turn timers of every table in worker processes of their own (beside
    `tabletown serve --redis URL --external-bots`)."""
    import os

    from .web.botworker import main as worker_main

    redis = redis or os.environ.get("TABLETOWN_REDIS_URL")
    if not redis:
        _fail("bot workers hear of moves through Redis: give --redis URL (or TABLETOWN_REDIS_URL)")
    args = ["--redis", redis, "--supervise", str(workers), "--bot-delay", str(bot_delay)]
    worker_main(args + (["--db", db] if db else []))


@app.command()
def prune(
    db: Annotated[
        str | None, typer.Option(help="database URL (default: $TABLETOWN_DATABASE_URL or ./tabletown.db)")
    ] = None,
    unstarted_days: Annotated[
        float, typer.Option(min=0, help="delete tables without a move quiet this long (0: keep them)")
    ] = 7.0,
    idle_days: Annotated[
        float, typer.Option(min=0, help="delete unfinished games quiet this long (0: keep them)")
    ] = 60.0,
    dry_run: Annotated[bool, typer.Option("--dry-run", help="only count what would be deleted")] = False,
) -> None:
    """Delete the server's unfinished tables nobody touched for long (finished games are kept), for
    an operator's scheduled job; docs/deploy.md."""
    from .web import db as database
    from .web.retention import prune as prune_tables

    engine = database.make_engine(database.resolve_url(db))
    try:
        database.migrate(engine)
        pruned = prune_tables(engine, unstarted_days=unstarted_days, idle_days=idle_days, dry_run=dry_run)
    finally:
        engine.dispose()
    verb = "would delete" if dry_run else "deleted"
    console.print(
        f"{verb} {pruned.total} tables: {pruned.unstarted} never started (quiet {unstarted_days:g} days), "
        f"{pruned.idle} left unfinished (quiet {idle_days:g} days)"
    )


def _register_extra_commands() -> None:
    """Commands that live in their own packages (the arena, studies, analysis) plug in here; one
    whose optional packages are missing is left out."""
    import importlib

    for module in ("tabletown.arena.cli", "tabletown.study.cli", "tabletown.analysis.cli"):
        try:
            importlib.import_module(module).register_commands(app)
        except ImportError:
            continue


def main() -> None:
    _register_extra_commands()
    app()


if __name__ == "__main__":
    main()
