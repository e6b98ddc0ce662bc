"""Server benchmark (issue 12's `make bench-server`): many tables played by WebSocket clients on
loopback; reports acknowledged (stored) moves per second and the latency from sending a move to its
acknowledgment (p50, p99).

    python -m tabletown.web.bench [--db URL] [--tables 16] [--seconds 20] [--game machikoro]

The server runs as a subprocess (uvicorn, as `serve` runs it) on a free port; without ``--db`` it uses a
fresh SQLite file in a temporary folder. Each seat of each table has its own WebSocket and plays
uniformly random legal moves as soon as it must act; a finished table is replaced by a new one.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]  # type: ignore[no-any-return]  # (host, port)


def start_server(db_url: str, port: int, extra_args: list[str] | None = None) -> subprocess.Popen[bytes]:
    from .limits import ENV_PREFIX, Limits

    # The benchmark measures throughput: one client address plays every table as fast as it can.
    off = {ENV_PREFIX + name.upper(): "0" for name in vars(Limits.off())}
    env = dict(os.environ, TABLETOWN_BOT_DELAY="0", **off)
    command = [
        sys.executable,
        "-m",
        "tabletown.web",
        "--port",
        str(port),
        "--db",
        db_url,
        *(extra_args or []),
    ]
    process = subprocess.Popen(command, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    wait_until_up(process, port, 60)
    return process


def wait_until_up(process: subprocess.Popen[bytes], port: int, seconds: float) -> None:
    """Return once the server on ``port`` answers /healthz; RuntimeError if it exits first (with the end
    of its stderr, when piped) or is not up within ``seconds`` (then it is killed). The web tests'
    ``start_server`` and scripts/screenshots.py wait with it too."""
    import httpx

    end = time.monotonic() + seconds
    while time.monotonic() < end:
        if process.poll() is not None:
            said = process.stderr.read().decode()[-2000:] if process.stderr else ""
            raise RuntimeError("server exited: " + said)
        try:
            if httpx.get(f"http://127.0.0.1:{port}/healthz", timeout=1).status_code == 200:
                return
        except httpx.HTTPError:
            time.sleep(0.1)
    process.kill()
    raise RuntimeError("server did not start")


class Stats:
    def __init__(self) -> None:
        self.latencies: list[float] = []
        self.stale = 0
        self.refused = 0
        self.games = 0


async def play_seat(
    base_ws: str, table_id: str, token: str, rng: random.Random, stats: Stats, deadline: float
) -> None:
    from websockets.asyncio.client import connect

    async with connect(
        f"{base_ws}/ws/tables/{table_id}",
        additional_headers={"authorization": f"Bearer {token}"},
        max_size=2**23,
    ) as ws:
        latest: dict[str, Any] | None = None
        sent_at: float | None = None
        floor = 0
        while time.monotonic() < deadline:
            try:
                raw = await asyncio.wait_for(ws.recv(), max(0.01, deadline - time.monotonic()))
            except TimeoutError:
                return
            message = json.loads(raw)
            kind = message.get("type")
            if kind == "view":
                latest = message
                if message.get("over"):
                    return
            elif kind == "ack":
                stats.latencies.append(time.perf_counter() - sent_at)  # type: ignore[operator]
                sent_at = None
                floor = message["seq"]
            elif kind == "error":
                sent_at = None
                if message.get("status") == 409:
                    stats.stale += 1
                else:
                    stats.refused += 1
            if sent_at is None and latest is not None and latest["legal"] and latest["seq"] >= floor:
                sent_at = time.perf_counter()
                action = rng.choice(latest["legal"])
                await ws.send(json.dumps({"type": "action", "seq": latest["seq"], "action": action}))


async def spectate(base_ws: str, table_id: str, deadline: float) -> None:
    """A spectator's socket: it only reads (the pushes it causes are the cost being measured)."""
    from websockets.asyncio.client import connect

    async with connect(f"{base_ws}/ws/tables/{table_id}", max_size=2**23) as ws:
        while time.monotonic() < deadline:
            try:
                raw = await asyncio.wait_for(ws.recv(), max(0.01, deadline - time.monotonic()))
            except TimeoutError:
                return
            if '"over":true' in raw:
                return


async def table_worker(
    base: str, game: str, players: int, number: int, stats: Stats, deadline: float, spectators: int = 0
) -> None:
    import httpx

    rng = random.Random(number)
    base_ws = "ws" + base.removeprefix("http")
    async with httpx.AsyncClient(base_url=base, timeout=30) as http:
        while time.monotonic() < deadline:
            response = await http.post("/api/tables", json={"game": game, "seats": ["human"] * players})
            if response.status_code != 201:
                raise RuntimeError(f"table refused: {response.status_code} {response.text[:300]}")
            created = response.json()
            tokens = []
            for seat in created["seats"]:  # each player redeems their seat's invitation, as pages do
                joined = await http.post(f"/api/tables/{created['id']}/join", json={"token": seat["token"]})
                if joined.status_code != 200:
                    raise RuntimeError(f"join refused: {joined.status_code} {joined.text[:300]}")
                tokens.append(joined.json()["token"])
            watchers = [spectate(base_ws, created["id"], deadline) for _ in range(spectators)]
            await asyncio.gather(
                *watchers,
                *(
                    play_seat(base_ws, created["id"], t, random.Random(rng.random()), stats, deadline)
                    for t in tokens
                ),
            )
            stats.games += 1


def cpu_seconds(pid: int) -> float:
    """User + system CPU seconds of process ``pid`` so far (Linux /proc; 0.0 elsewhere)."""
    try:
        with open(f"/proc/{pid}/stat") as handle:
            fields = handle.read().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def percentile(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def run(
    db_url: str | None,
    tables: int,
    seconds: float,
    game: str,
    players: int,
    *,
    spectators: int = 0,
    bot_tables: int = 0,
    bot: str = "mcts:hard",
    redis_url: str | None = None,
) -> dict[str, Any]:
    """Play ``tables`` human tables over WebSockets (each watched by ``spectators`` more sockets)
    while ``bot_tables`` bot-only tables of ``bot`` play beside them; with ``redis_url`` the server
    runs its bots in a bot worker process."""
    folder = None
    if db_url is None:
        folder = tempfile.TemporaryDirectory()
        db_url = f"sqlite:///{Path(folder.name) / 'bench.db'}"
    schema = None
    shown = db_url.split(":", 1)[0].split("+")[0]
    if db_url.startswith("postgresql"):  # a schema of its own, dropped afterwards
        import uuid

        import sqlalchemy as sa

        schema = "tt_bench_" + uuid.uuid4().hex[:10]
        admin = sa.create_engine(db_url)
        with admin.begin() as conn:
            conn.execute(sa.text(f'CREATE SCHEMA "{schema}"'))
        db_url += ("&" if "?" in db_url else "?") + f"options=-csearch_path%3D{schema}"
    port = free_port()
    extra = ["--redis", redis_url, "--bot-delay", "0"] if redis_url else None
    server = start_server(db_url, port, extra)
    try:
        stats = Stats()
        cpu_before = cpu_seconds(server.pid)
        start = time.monotonic()
        deadline = start + seconds
        base = f"http://127.0.0.1:{port}"

        async def main() -> None:
            import httpx

            async with httpx.AsyncClient(base_url=base, timeout=30) as http:
                for _ in range(bot_tables):
                    made = await http.post(
                        "/api/tables", json={"game": game, "seats": [f"bot:{bot}"] * players}
                    )
                    if made.status_code != 201:
                        raise RuntimeError(f"bot table refused: {made.text[:300]}")
            await asyncio.gather(
                *(table_worker(base, game, players, n, stats, deadline, spectators) for n in range(tables))
            )

        asyncio.run(main())
        elapsed = time.monotonic() - start
        server_cpu = cpu_seconds(server.pid) - cpu_before
    finally:
        server.terminate()
        server.wait(20)
        if folder is not None:
            folder.cleanup()
        if schema is not None:
            with admin.begin() as conn:
                conn.execute(sa.text(f'DROP SCHEMA "{schema}" CASCADE'))
            admin.dispose()
    return {
        "database": shown,
        "redis": bool(redis_url),
        "spectators": spectators,
        "bot_tables": f"{bot_tables} x {bot}" if bot_tables else 0,
        "game": game,
        "players": players,
        "tables": tables,
        "seconds": round(elapsed, 1),
        "moves": len(stats.latencies),
        "moves_per_second": round(len(stats.latencies) / elapsed, 1),
        "p50_ms": round(percentile(stats.latencies, 0.50) * 1000, 2),
        "p99_ms": round(percentile(stats.latencies, 0.99) * 1000, 2),
        # CPU the server process spent per acknowledged move (table set-up included): a figure that
        # a busy machine disturbs less than moves/s
        "server_cpu_ms_per_move": round(1000 * server_cpu / max(1, len(stats.latencies)), 3),
        "stale": stats.stale,
        "refused": stats.refused,
        "games_finished": stats.games,
    }


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(
        prog="python -m tabletown.web.bench", description=__doc__.split("\n\n")[0]
    )
    parser.add_argument(
        "--db", action="append", default=None, help="database URL (repeat to compare); default SQLite"
    )
    parser.add_argument("--tables", type=int, default=16)
    parser.add_argument("--seconds", type=float, default=20)
    parser.add_argument("--game", default="machikoro")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--spectators", type=int, default=0, help="spectator sockets on every human table")
    parser.add_argument("--bot-tables", type=int, default=0, help="bot-only tables playing beside them")
    parser.add_argument("--bot", default="mcts:hard", help="the bot of the bot-only tables")
    parser.add_argument("--redis", default=None, help="Redis URL: the server runs its bots in a bot worker")
    args = parser.parse_args(argv)
    for url in args.db or [None]:
        # Alike by shape to server.py's main passing its options on purpose: each command its own.
        result = run(
            url,
            args.tables,
            args.seconds,
            args.game,
            args.players,
            spectators=args.spectators,
            bot_tables=args.bot_tables,
            bot=args.bot,
            redis_url=args.redis,
        )
        print(json.dumps(result), flush=True)


if __name__ == "__main__":
    main()
