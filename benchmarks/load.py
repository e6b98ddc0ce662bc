"""`make load` (issue 26): a bounded loopback load test of the scaled-out server.

    python benchmarks/load.py [--db POSTGRES_URL] [--redis REDIS_URL] [--tables 200] [--seconds 60]

What it does:

* creates a fresh PostgreSQL schema (dropped at the end) and starts
  ``python -m tabletown.web --workers 3 --redis URL --external-bots --bot-delay 0`` on it (three uvicorn
  worker processes on one port, every limit switched off) and one bot worker
  (``python -m tabletown.web.botworker --db URL --redis URL --bot-delay 0``);
* drives ``--tables`` table slots from one asyncio process: the four games in turn, half human-vs-bot
  (``bot:greedy`` / ``bot:random``), half human-vs-human; half of the tables are played by REST clients
  (GET the payload with a Bearer token, POST the move; a long poll ``GET ?seq=N&wait=10`` while waiting), half by WebSocket clients
  (one socket per human seat, moves over the socket, reconnecting with ``since=event_count``). Every
  client picks random legal moves (at once, or after ``--think`` seconds); a finished game is replaced
  by a new table;
* kills one web worker (a uvicorn child of the serve process, the one holding the most of our
  WebSockets) with SIGKILL at ~35% of the run and checks that uvicorn starts a new one; kills the bot
  worker with SIGKILL at ~65% and starts it again. Clients retry on connection errors, 409 and 503;
* prints acknowledged moves/s, p50/p95/p99 latency (send -> ack), errors by kind, how soon a move
  reaches the other seat's WebSocket (from the mover's ack, and from the time stamped on the stored
  move; split by whether the two sockets were held by the same web worker or by two, found from
  /proc; and from a bot worker's stored move to the human's socket), the client's own event-loop lag
  and the CPU seconds of every part (servers, PostgreSQL, Redis, the clients, the rest of the machine);
* checks every table from the database: every acknowledged (seq, seat, action) is stored, once, at its
  seq; no stored human move that no client sent (each one is acknowledged or was in flight when a
  connection broke); moves numbered 1..tt_tables.seq; the stored moves replay from the seed and give
  the same position as a fresh ``TableService.get`` (saved positions included); every WebSocket
  seat received each event visible to it exactly once, in order, across its reconnections (compared
  with the final ``GET ?since=0`` and with the replayed engine's events); no push was lost (a seat
  that heard nothing for ``--idle`` seconds, or was still playing at the end, knew of every move
  stored well before). Exit status 1 if any check fails.

Options: ``--tables``, ``--seconds``, ``--workers``, ``--think``, ``--poll`` (REST clients poll with this
back-off instead of long polls), ``--kill-web-at`` / ``--kill-bots-at`` (fractions of the run), ``--keep-logs``; ``make load
LOAD_ARGS="..."`` passes them on.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from bisect import bisect_left
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import orjson
import uvloop

GAMES = ("machikoro", "lordsofvegas", "newlasvegas", "multicity")
DEFAULT_PG = "postgresql+psycopg://postgres@127.0.0.1:5432/test"
DEFAULT_REDIS = "redis://127.0.0.1:6379/0"


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def percentile(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def ms(value: float) -> float:
    return round(value * 1000, 1)


def log(start: float, text: str) -> None:
    print(f"[{time.monotonic() - start:6.1f}s] {text}", flush=True)


# -- the processes under test ----------------------------------------------------------------------------
def children(pid: int) -> list[int]:
    found = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat") as handle:
                stat = handle.read()
        except OSError:
            continue
        # the command name (field 2) may hold spaces: the parent pid is the 2nd field after ")"
        if int(stat.rsplit(")", 1)[1].split()[1]) == pid:
            found.append(int(entry))
    return found


def cmdline(pid: int) -> str:
    try:
        with open(f"/proc/{pid}/cmdline", "rb") as handle:
            return handle.read().replace(b"\0", b" ").decode(errors="replace")
    except OSError:
        return ""


class Cluster:
    """``serve --workers N`` and one bot worker on a fresh schema, with logs in a temporary folder."""

    def __init__(self, db_url: str, redis_url: str, workers: int, folder: Path) -> None:
        from tabletown.web.limits import ENV_PREFIX, Limits

        self.db_url, self.redis_url, self.workers, self.folder = db_url, redis_url, workers, folder
        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        off = {ENV_PREFIX + name.upper(): "0" for name in vars(Limits.off())}
        self.env = dict(os.environ, TABLETOWN_BOT_DELAY="0", **off)
        self.web: subprocess.Popen | None = None
        self.bots: subprocess.Popen | None = None
        self.bot_starts = 0
        self.logs: list[Path] = []

    def _start(self, command: list[str], name: str) -> subprocess.Popen:
        path = self.folder / f"{name}.log"
        self.logs.append(path)
        with open(path, "ab") as out:
            return subprocess.Popen(
                command, env=self.env, stdout=out, stderr=subprocess.STDOUT, start_new_session=True
            )

    def start_web(self) -> None:
        import httpx

        command = [sys.executable, "-m", "tabletown.web", "--port", str(self.port), "--db", self.db_url]
        command += ["--redis", self.redis_url, "--workers", str(self.workers), "--external-bots"]
        command += ["--bot-delay", "0"]
        self.web = self._start(command, "web")
        end = time.monotonic() + 120
        while time.monotonic() < end:
            if self.web.poll() is not None:
                raise RuntimeError(f"the server exited; see {self.folder / 'web.log'}")
            try:
                if httpx.get(f"{self.base}/healthz", timeout=1).status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            time.sleep(0.1)
        else:
            raise RuntimeError("the server did not start")
        # every worker up (each one answers only once its lifespan ran)
        end = time.monotonic() + 60
        while len(self.web_workers()) < self.workers and time.monotonic() < end:
            time.sleep(0.1)

    def start_bots(self) -> None:
        command = [sys.executable, "-m", "tabletown.web.botworker", "--db", self.db_url]
        command += ["--redis", self.redis_url, "--bot-delay", "0"]
        self.bot_starts += 1
        self.bots = self._start(command, f"bots-{self.bot_starts}")

    def web_workers(self) -> list[int]:
        """The uvicorn worker processes (multiprocessing children running ``spawn_main``)."""
        if self.web is None:
            return []
        return sorted(p for p in children(self.web.pid) if "spawn_main" in cmdline(p))

    def recent_web_workers(self, max_age: float = 1.0) -> list[int]:
        """``web_workers`` as found at most ``max_age`` seconds ago (walking /proc costs the clients'
        process CPU, and its GIL, on every call)."""
        now = time.monotonic()
        cached = getattr(self, "_workers_seen", None)
        if cached is None or now - cached[0] > max_age:
            cached = self._workers_seen = (now, self.web_workers())
        return cached[1]

    def stop(self) -> None:
        for process in (self.bots, self.web):
            if process is not None and process.poll() is None:
                process.terminate()
        for process in (self.bots, self.web):
            if process is None:
                continue
            try:
                process.wait(20)
            except subprocess.TimeoutExpired:
                with contextlib.suppress(ProcessLookupError):
                    os.killpg(process.pid, signal.SIGKILL)  # our own session: the process and its workers
                process.wait(5)


SCAN_TRIES = 4
RECONNECT_FIRST, RECONNECT_LAST = 0.5, 8.0  # seconds: a WebSocket client's waits before reconnecting


class SocketOwners:
    """Which server process holds the other end of a client's TCP connection (from /proc: the
    server-side socket's inode, found in /proc/net/tcp by the client's port, among the workers' fds)."""

    def __init__(self, cluster: Cluster) -> None:
        self.cluster = cluster
        self.wanted: dict[int, int] = {}  # connection id -> client port
        self.owner: dict[int, int] = {}  # connection id -> server pid
        self.cpu: dict[int, tuple[str, float]] = {}  # pid -> (group, CPU seconds)
        self.cpu_start: dict[int, float] = {}
        self.tries: Counter[int] = Counter()  # connection id -> scans that looked for it
        self.stop = threading.Event()
        self.wake = threading.Event()  # a scan is wanted now (connections are waiting to be placed)
        self.thread = threading.Thread(target=self._run, daemon=True)

    def add(self, conn_id: int, port: int) -> None:
        self.wanted[conn_id] = port

    def _run(self) -> None:
        # One thread does every scan: the WebSocket seats that must know their worker ask it for
        # one (``wake``) instead of each scanning /proc themselves, which at the start of a run
        # (dozens of such seats at once) took a third of the clients' CPU.
        next_cpu = time.monotonic() + 1.5
        while not self.stop.is_set():
            self.wake.wait(0.5)
            self.wake.clear()
            with contextlib.suppress(Exception):
                self.scan()
            if time.monotonic() >= next_cpu:
                next_cpu = time.monotonic() + 1.5
                with contextlib.suppress(Exception):
                    self.sample_cpu()
            self.stop.wait(0.1)  # at most ten scans a second, however often woken

    # CPU seconds by group (the last value read of each process: killed ones keep theirs)
    def sample_cpu(self) -> None:
        cluster = self.cluster
        groups: dict[int, str] = {os.getpid(): "load clients"}
        if cluster.web is not None:
            groups[cluster.web.pid] = "web (uvicorn parent)"
        for pid in cluster.recent_web_workers():
            groups[pid] = "web workers"
        if cluster.bots is not None:
            groups[cluster.bots.pid] = "bot worker"
        for entry in os.listdir("/proc"):
            if entry.isdigit() and int(entry) not in groups:
                with contextlib.suppress(OSError), open(f"/proc/{entry}/comm") as handle:
                    comm = handle.read().strip()
                if comm in ("postgres", "redis-server"):
                    groups[int(entry)] = "PostgreSQL" if comm == "postgres" else "Redis"
        tick = os.sysconf("SC_CLK_TCK")
        for pid, group in groups.items():
            with contextlib.suppress(OSError, ValueError, IndexError), open(f"/proc/{pid}/stat") as handle:
                fields = handle.read().rsplit(")", 1)[1].split()
                self.cpu[pid] = (group, (int(fields[11]) + int(fields[12])) / tick)

    @staticmethod
    def machine_busy() -> float:
        """CPU seconds the whole machine spent busy since boot (every core)."""
        with open("/proc/stat") as handle:
            values = [int(v) for v in handle.readline().split()[1:]]
        idle = values[3] + (values[4] if len(values) > 4 else 0)
        return (sum(values) - idle) / os.sysconf("SC_CLK_TCK")

    def probe(self, count: int = 30) -> Counter[int]:
        """Which workers accept fresh connections: ``count`` keep-alive requests to /healthz, each
        on its own connection, held open while /proc is read."""
        socks = []
        try:
            for n in range(count):
                sock = socket.create_connection(("127.0.0.1", self.cluster.port), timeout=10)
                sock.sendall(b"GET /healthz HTTP/1.1\r\nHost: load\r\n\r\n")
                sock.recv(4096)
                socks.append(sock)
                self.add(-1 - n, sock.getsockname()[1])
            self.owner = {c: pid for c, pid in self.owner.items() if c >= 0}
            for n in range(count):
                self.tries.pop(-1 - n, None)
            self.scan()
            return Counter(pid for c, pid in self.owner.items() if c < 0)
        finally:
            for sock in socks:
                sock.close()
            for n in range(count):
                self.wanted.pop(-1 - n, None)
                self.owner.pop(-1 - n, None)

    def scan(self) -> None:
        # A connection is looked for in a few scans only: one that closed before it was found would
        # otherwise keep every later scan reading /proc (the clients' own CPU, taken from the servers').
        todo = {
            c: p for c, p in list(self.wanted.items()) if c not in self.owner and self.tries[c] < SCAN_TRIES
        }
        if not todo:
            return
        for conn_id in todo:
            self.tries[conn_id] += 1
        server_port = self.cluster.port
        port_hex = f":{server_port:04X} "
        inode_of_port: dict[int, str] = {}
        for name in ("/proc/net/tcp", "/proc/net/tcp6"):
            with contextlib.suppress(OSError), open(name) as handle:
                next(handle)
                for line in handle:
                    if port_hex not in line:  # (most lines are other connections: skip them unsplit)
                        continue
                    parts = line.split()
                    local, remote, state, inode = parts[1], parts[2], parts[3], parts[9]
                    if state != "01" or int(local.rsplit(":", 1)[1], 16) != server_port:
                        continue
                    inode_of_port[int(remote.rsplit(":", 1)[1], 16)] = inode
        pid_of_inode: dict[str, int] = {}
        for pid in self.cluster.recent_web_workers():
            with contextlib.suppress(OSError):
                for fd in os.listdir(f"/proc/{pid}/fd"):
                    with contextlib.suppress(OSError):
                        target = os.readlink(f"/proc/{pid}/fd/{fd}")
                        if target.startswith("socket:["):
                            pid_of_inode[target[8:-1]] = pid
        for conn_id, port in todo.items():
            inode = inode_of_port.get(port)
            if inode is not None and inode in pid_of_inode:
                self.owner[conn_id] = pid_of_inode[inode]


# -- the clients -------------------------------------------------------------------------------------------
@dataclass
class SeatClient:
    seat: int
    token: str
    acked: dict[int, str] = field(default_factory=dict)  # seq -> action text
    double_acks: list[tuple[int, str, str]] = field(default_factory=list)
    # (the first seq it could get, action): sent, reply lost. Other seats' secret choices stored
    # meanwhile would put it later (a move sent at an older seq stands over those)
    doubt: list[tuple[int, str]] = field(default_factory=list)
    events: list[int] = field(default_factory=list)  # WebSocket: event indices received, in order
    event_count: int = 0
    connections: int = 0
    conn: int | None = None  # the current connection's id
    spread_tries: int = 0
    # WebSocket views: (seq, receipt time (wall clock), connection id, first message of its connection)
    views: list[tuple[int, float, int, bool]] = field(default_factory=list)
    ack_log: list[tuple[int, float, int]] = field(default_factory=list)  # (seq, time, connection id)

    def ack(self, seq: int, action: str) -> None:
        if seq in self.acked and self.acked[seq] != action:
            self.double_acks.append((seq, self.acked[seq], action))
        self.acked[seq] = action


@dataclass
class TableRun:
    id: str
    game: str
    kind: str  # "hvb" or "hvh"
    mode: str  # "ws" or "rest"
    seats: list[SeatClient]
    over: bool = False
    spread: bool = False  # human-vs-human WebSocket table whose seats are put on two web workers


class Load:
    def __init__(self, args: argparse.Namespace, cluster: Cluster, owners: SocketOwners) -> None:
        self.args = args
        self.cluster = cluster
        self.owners = owners
        self.base = cluster.base
        self.ws_base = "ws" + cluster.base.removeprefix("http")
        self.tables: list[TableRun] = []
        self.latencies: list[float] = []
        self.latency_by_mode: dict[str, list[float]] = {"ws": [], "rest": []}
        self.ack_times: list[float] = []
        self.details: list[tuple[float, float, str, str, int | None]] = []  # with --dump
        self.errors: Counter[str] = Counter()
        self.notes: Counter[str] = Counter()
        self.stalls: list[dict[str, Any]] = []  # WebSocket seats that heard nothing for --idle s
        self.conn_ids = 0
        self.rng = random.Random(args.seed)
        self.start = time.monotonic()
        self.wall_start = time.time()
        self.deadline = self.start + args.seconds
        self.timeline: list[tuple[float, str]] = []

    def event(self, text: str) -> None:
        self.timeline.append((time.monotonic() - self.start, text))
        log(self.start, text)

    # -- table slots ---------------------------------------------------------------------------------
    async def slot(self, lobby, n: int) -> None:
        import aiohttp

        kind = "hvb" if n % 2 == 0 else "hvh"
        mode = "ws" if (n // 2) % 2 == 0 else "rest"
        game = GAMES[(n // 4) % len(GAMES)]
        bot = "bot:greedy" if (n // 16) % 2 == 0 else "bot:random"
        rng = random.Random(self.rng.random())
        if self.args.ramp:  # players arrive over the first seconds, not all in one instant
            await asyncio.sleep(self.args.ramp * n / self.args.tables)
        while time.monotonic() < self.deadline:
            seats = ["human", bot] if kind == "hvb" else ["human", "human"]
            if kind == "hvb" and rng.random() < 0.5:
                seats.reverse()
            try:
                async with lobby.post("/api/tables", json={"game": game, "seats": seats}) as answer:
                    status, body = answer.status, await answer.read()
            except (aiohttp.ClientError, TimeoutError) as exc:
                self.errors[f"create: {type(exc).__name__}"] += 1
                await asyncio.sleep(0.2)
                continue
            if status != 201:
                self.errors[f"create: HTTP {status}"] += 1
                await asyncio.sleep(0.2)
                continue
            created = orjson.loads(body)
            # each player redeems their seat's invitation first, as their page does
            humans = [s for s in created["seats"] if s["kind"] == "human"]
            tokens = [await self.redeem(lobby, created["id"], s["token"]) for s in humans]
            if None in tokens:
                await asyncio.sleep(0.2)
                continue
            clients = [SeatClient(s["seat"], str(t)) for s, t in zip(humans, tokens, strict=True)]
            spread = kind == "hvh" and mode == "ws" and (n // 16) % 2 == 0
            table = TableRun(created["id"], game, kind, mode, clients, spread=spread)
            self.tables.append(table)
            play = self.ws_seat if mode == "ws" else self.rest_seat
            await asyncio.gather(*(play(table, c, random.Random(rng.random())) for c in clients))

    async def redeem(self, lobby: Any, table_id: str, invitation: str) -> str | None:
        """The seat's own token for its invitation (POST .../join), None (counted) if refused."""
        import aiohttp

        try:
            async with lobby.post(f"/api/tables/{table_id}/join", json={"token": invitation}) as answer:
                status, body = answer.status, await answer.read()
        except (aiohttp.ClientError, TimeoutError) as exc:
            self.errors[f"join: {type(exc).__name__}"] += 1
            return None
        if status != 200:
            self.errors[f"join: HTTP {status}"] += 1
            return None
        return str(orjson.loads(body)["token"])

    def acked(
        self, mode: str, client: SeatClient, seq: int, action: str, sent: float, table: TableRun | None = None
    ) -> None:
        now = time.perf_counter()
        self.latencies.append(now - sent)
        self.latency_by_mode[mode].append(now - sent)
        self.ack_times.append(time.monotonic())
        if self.args.dump:
            game = table.game if table is not None else ""
            self.details.append((self.ack_times[-1] - self.start, now - sent, mode, game, client.conn))
        client.ack(seq, action)

    # -- a REST client ---------------------------------------------------------------------------------
    async def rest_seat(self, table: TableRun, client: SeatClient, rng: random.Random) -> None:
        import aiohttp

        # Each REST seat has its own session (connection pool), as separate players' programs would.
        # aiohttp rather than httpx: it costs a fraction of the CPU per request, and the clients
        # share the machine with the servers they measure.
        session = aiohttp.ClientSession(
            base_url=self.base,
            connector=aiohttp.TCPConnector(limit=4),
            timeout=aiohttp.ClientTimeout(total=30),
        )
        async with session as http:
            await self._rest_seat(http, table, client, rng)

    async def _rest_seat(self, http, table: TableRun, client: SeatClient, rng: random.Random) -> None:
        import aiohttp

        headers = {"authorization": f"Bearer {client.token}"}
        path = f"/api/tables/{table.id}"
        since = 0
        pause = 0.05
        waiting_at: int | None = None  # the seq a long poll waits to move on from
        after_move: dict[str, Any] | None = None  # the view a move's answer carried (no GET needed)
        while time.monotonic() < self.deadline and not table.over:
            if after_move is not None:
                payload, after_move = after_move, None
            else:
                params: dict[str, Any] = {"since": since}
                if waiting_at is not None:
                    params.update(
                        seq=waiting_at, wait=round(min(10.0, max(0.1, self.deadline - time.monotonic())), 2)
                    )
                waiting_at = None
                try:
                    async with http.get(path, params=params, headers=headers) as answer:
                        status, body = answer.status, await answer.read()
                except (aiohttp.ClientError, TimeoutError) as exc:
                    self.errors[f"rest GET: {type(exc).__name__}"] += 1
                    await asyncio.sleep(0.1)
                    continue
                if status != 200:
                    self.errors[f"rest GET: HTTP {status} {rule_in(body)}"] += 1
                    await asyncio.sleep(0.1)
                    continue
                payload = orjson.loads(body)
            since = payload.get("event_count", since)
            if payload.get("over") or payload.get("status") in ("finished", "error"):
                table.over = True
                return
            if not payload.get("legal"):  # not our turn: a long poll (or, with --poll, polling with back-off)
                if self.args.poll:
                    await asyncio.sleep(pause)
                    pause = min(pause * 2, self.args.poll)
                else:
                    waiting_at = payload["seq"]
                continue
            pause = 0.05
            seq, action = payload["seq"], rng.choice(payload["legal"])
            if self.args.think:
                await asyncio.sleep(self.args.think * rng.uniform(0.5, 1.5))
            sent = time.perf_counter()
            try:
                async with http.post(
                    f"{path}/actions", json={"seq": seq, "action": action, "since": since}, headers=headers
                ) as moved:
                    status, body = moved.status, await moved.read()
            except aiohttp.ClientConnectorError as exc:  # never reached a server: nothing was sent
                self.errors[f"rest POST: {type(exc).__name__}"] += 1
                await asyncio.sleep(0.1)
                continue
            except (aiohttp.ClientError, TimeoutError) as exc:  # sent, answer lost: stored or not
                client.doubt.append((seq + 1, action))
                self.errors[f"rest POST: {type(exc).__name__} (reply lost)"] += 1
                await asyncio.sleep(0.1)
                continue
            if status == 200:
                reply = orjson.loads(body)
                new, after_move = reply["seq"], reply["view"]
                if new <= seq:  # (later than seq + 1 when other seats' secret choices came first)
                    self.errors[f"rest POST: acknowledged seq {new} for a move sent at {seq}"] += 1
                self.acked("rest", client, new, action, sent, table)
            else:
                self.errors[f"rest POST: HTTP {status} {rule_in(body)} ({table.game}, {table.kind})"] += 1
                if status == 503:
                    await asyncio.sleep(0.1)

    # -- a WebSocket client -------------------------------------------------------------------------------
    async def ws_seat(self, table: TableRun, client: SeatClient, rng: random.Random) -> None:
        from websockets.asyncio.client import connect
        from websockets.exceptions import ConnectionClosed, InvalidHandshake, InvalidStatus

        headers = {"authorization": f"Bearer {client.token}"}
        hard_stop = self.deadline + 10
        # Reconnecting as the table page does (static/table.js): half a second after a lost
        # connection, doubling up to 8 s, back to half a second once a view arrives, each wait
        # spread by chance so that the sockets a dead worker held do not all come back at once.
        retry = RECONNECT_FIRST
        while time.monotonic() < self.deadline and not table.over:
            url = f"{self.ws_base}/ws/tables/{table.id}?since={client.event_count}"
            self.conn_ids += 1
            conn_id = self.conn_ids
            pending: tuple[int, str, float] | None = None  # (seq sent, action, time)
            try:
                async with connect(url, additional_headers=headers, max_size=2**23, open_timeout=10) as ws:
                    client.connections += 1
                    client.conn = conn_id
                    with contextlib.suppress(Exception):
                        self.owners.add(conn_id, ws.local_address[1])
                    if await self.same_worker_as_partner(table, client, conn_id):
                        continue  # reconnect (the async with closes this socket)
                    latest: dict[str, Any] | None = None
                    floor = 0  # act only on a view with seq >= floor
                    first = True
                    move_at: float | None = None  # thinking until then (messages are still read)
                    while True:
                        now = time.monotonic()
                        if (now >= self.deadline and pending is None) or now >= hard_stop:
                            if pending is not None:  # never answered: it may or may not be stored
                                client.doubt.append((pending[0] + 1, pending[1]))
                            return
                        full_wait = wait = self.args.stall if pending is not None else self.args.idle
                        if pending is None:
                            wait = min(wait, max(0.01, self.deadline - now))
                        if move_at is not None:
                            wait = min(wait, max(0.001, move_at - now))
                        message = None
                        try:
                            raw = await asyncio.wait_for(ws.recv(), wait)
                        except TimeoutError:
                            # (a wait cut short by the deadline is no stall: its timer may fire a
                            # hair before the deadline, and "stored well before" then meant a second)
                            if move_at is None and wait >= full_wait and time.monotonic() < self.deadline:
                                # nothing for a while: reconnect (a real client would too)
                                why = "move unanswered" if pending else "waiting for others"
                                self.notes[f"ws reconnect after {wait} s without a message ({why})"] += 1
                                self.stalls.append(
                                    {
                                        "table": table.id,
                                        "what": f"{table.game}, {table.kind}",
                                        "seat": client.seat,
                                        "seq": max((v[0] for v in client.views), default=0),
                                        "to_act": latest and latest.get("to_act"),
                                        "time": time.time(),
                                        "wait": wait,
                                    }
                                )
                                break
                        else:
                            received = time.time()  # wall clock: compared with the stored moves' times
                            message = orjson.loads(raw)
                        kind = message.get("type") if message else None
                        if kind == "view":
                            retry = RECONNECT_FIRST
                            for event in message.get("events") or []:
                                client.events.append(event["i"])
                            client.event_count = message.get("event_count", client.event_count)
                            if client.views and message["seq"] < client.views[-1][0]:
                                self.notes["ws view older than one seen before (seq went back)"] += 1
                            client.views.append((message["seq"], received, conn_id, first))
                            first = False
                            latest = message
                            if message.get("over") or message.get("status") in ("finished", "error"):
                                table.over = True
                        elif kind == "ack":
                            if pending is None:
                                self.errors["ws: an ack without a move in flight"] += 1
                                continue
                            seq = message["seq"]
                            if seq <= pending[0]:
                                self.errors[
                                    f"ws: acknowledged seq {seq} for a move sent at {pending[0]}"
                                ] += 1
                            self.acked("ws", client, seq, pending[1], pending[2], table)
                            client.ack_log.append((seq, received, conn_id))
                            floor, pending = seq, None
                        elif kind == "error":
                            status, rule = message.get("status"), message.get("rule")
                            self.errors[f"ws error: {status} {rule} ({table.game}, {table.kind})"] += 1
                            if pending is not None and status != 503:
                                floor = pending[0] + 1  # wait for a newer view
                            pending = None
                            if status == 503:
                                await asyncio.sleep(0.1)
                        if table.over and pending is None:
                            return
                        ready = (
                            pending is None
                            and latest is not None
                            and latest.get("legal")
                            and latest["seq"] >= floor
                            and time.monotonic() < self.deadline
                        )
                        if not ready:
                            move_at = None
                            continue
                        if self.args.think and move_at is None:  # a player thinks before moving
                            move_at = time.monotonic() + self.args.think * rng.uniform(0.5, 1.5)
                        if move_at is not None and time.monotonic() < move_at:
                            continue
                        move_at = None
                        action = rng.choice(latest["legal"])
                        pending = (latest["seq"], action, time.perf_counter())
                        await ws.send(json.dumps({"type": "action", "seq": latest["seq"], "action": action}))
            except InvalidStatus as exc:
                self.errors[f"ws handshake: HTTP {exc.response.status_code}"] += 1
                await asyncio.sleep(retry * rng.uniform(0.5, 1.5))
                retry = min(retry * 2, RECONNECT_LAST)
            except (ConnectionClosed, InvalidHandshake, OSError, TimeoutError) as exc:
                self.errors[f"ws: connection lost ({type(exc).__name__})"] += 1
                await asyncio.sleep(retry * rng.uniform(0.5, 1.5))
                retry = min(retry * 2, RECONNECT_LAST)
            if pending is not None:  # sent, but no answer: the move may or may not be stored
                client.doubt.append((pending[0] + 1, pending[1]))

    async def same_worker_as_partner(self, table: TableRun, client: SeatClient, conn_id: int) -> bool:
        """The load balancer (the kernel, one port for every worker) chooses the process; to measure
        pushes between processes, the second seat of a ``spread`` table reconnects (up to 4 times)
        until /proc shows its socket held by another worker than its partner's."""
        if not table.spread or client is not table.seats[-1] or client.spread_tries >= 4:
            return False
        partner = table.seats[0]
        for _ in range(20):
            self.owners.wake.set()
            await asyncio.sleep(0.1)
            mine, theirs = self.owners.owner.get(conn_id), self.owners.owner.get(partner.conn or 0)
            if mine is not None and theirs is not None:
                if mine != theirs:
                    return False
                client.spread_tries += 1
                self.notes["ws reconnect to reach another worker than the partner seat's"] += 1
                return True
            await asyncio.sleep(0.1)
        return False

    async def loop_lag(self) -> None:
        """How late this client process's event loop runs (its share of every latency measured)."""
        self.lags: list[float] = []
        self.lag_times: list[float] = []  # when each was measured (monotonic, like ack_times)
        while time.monotonic() < self.deadline:
            before = time.perf_counter()
            await asyncio.sleep(0.05)
            self.lags.append(time.perf_counter() - before - 0.05)
            self.lag_times.append(time.monotonic())

    async def progress(self) -> None:
        last = 0
        while time.monotonic() < self.deadline:
            await asyncio.sleep(min(10, max(0.1, self.deadline - time.monotonic())))
            done = len(self.latencies)
            self.event(f"{done} moves acknowledged ({(done - last) / 10:.0f}/s over the last 10 s)")
            last = done

    async def killer(self) -> None:
        """SIGKILL one web worker, then the bot worker (restarted by us); check that uvicorn restarts."""
        await asyncio.sleep(max(0, self.start + self.args.kill_web_at * self.args.seconds - time.monotonic()))
        before = self.cluster.web_workers()
        counts = Counter(self.owners.owner.values())
        victim = max(before, key=lambda pid: counts.get(pid, 0)) if before else None
        self.web_kill = {"workers_before": before, "victim": victim, "restarted": False}
        if victim is not None:
            os.kill(victim, signal.SIGKILL)
            killed = time.monotonic()
            self.web_kill["time"] = killed - self.start
            self.event(f"SIGKILL web worker {victim} (held {counts.get(victim, 0)} of our sockets)")
            while time.monotonic() < killed + 30:
                now_workers = self.cluster.web_workers()
                fresh = [p for p in now_workers if p not in before]
                if victim not in now_workers and len(now_workers) == len(before) and fresh:
                    self.web_kill.update(
                        restarted=True, new=fresh[0], restart_seconds=round(time.monotonic() - killed, 2)
                    )
                    self.event(f"uvicorn started web worker {fresh[0]} in its place")
                    break
                await asyncio.sleep(0.1)
            else:
                self.event("uvicorn did NOT restart the killed web worker within 30 s")
        await asyncio.sleep(
            max(0, self.start + self.args.kill_bots_at * self.args.seconds - time.monotonic())
        )
        bots = self.cluster.bots
        assert bots is not None
        os.kill(bots.pid, signal.SIGKILL)
        self.bot_kill = {"time": time.monotonic() - self.start, "wall": time.time(), "pid": bots.pid}
        self.event(f"SIGKILL bot worker {bots.pid}")
        await asyncio.to_thread(bots.wait, 10)
        await asyncio.sleep(self.args.bot_restart_after)
        self.cluster.start_bots()
        self.bot_kill["restart_wall"] = time.time()
        self.event(f"bot worker started again ({self.cluster.bots.pid})")

    async def run(self) -> None:
        import aiohttp
        import httpx

        self.web_kill: dict[str, Any] = {}
        self.bot_kill: dict[str, Any] = {}
        limits = httpx.Limits(
            max_connections=self.args.tables * 2, max_keepalive_connections=self.args.tables * 2
        )
        # Tables are made through one aiohttp session (its pool stays cheap with hundreds of
        # connections; httpx's pool scans them all for each request, which cost the clients more
        # CPU than the servers spent making the tables); httpx is kept for the final reads.
        lobby = aiohttp.ClientSession(
            base_url=self.base,
            connector=aiohttp.TCPConnector(limit=64),
            timeout=aiohttp.ClientTimeout(total=30),
        )
        async with httpx.AsyncClient(base_url=self.base, timeout=30, limits=limits) as http, lobby:
            tasks = [asyncio.create_task(self.slot(lobby, n)) for n in range(self.args.tables)]
            helpers = [asyncio.create_task(self.progress()), asyncio.create_task(self.killer())]
            lag = asyncio.create_task(self.loop_lag())
            await asyncio.gather(*tasks)
            self.elapsed = time.monotonic() - self.start
            await lag
            for task in helpers:
                if not task.done():
                    self.event("the run ended before every kill happened")
                    task.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await task
            await self.final_views(http)

    async def final_views(self, http) -> None:
        """Each WebSocket seat's events as GET ?since=0 gives them, after the run (the server may
        still be catching up on a last bot move: asked again until it is as far as the client got)."""
        self.final: dict[tuple[str, int], list[int]] = {}
        sem = asyncio.Semaphore(20)

        async def one(table: TableRun, client: SeatClient) -> None:
            async with sem:
                for _ in range(20):
                    try:
                        answer = await http.get(
                            f"/api/tables/{table.id}",
                            params={"since": 0},
                            headers={"authorization": f"Bearer {client.token}"},
                        )
                        if answer.status_code == 200:
                            payload = answer.json()
                            if payload.get("event_count", 0) >= client.event_count:
                                self.final[(table.id, client.seat)] = [e["i"] for e in payload["events"]]
                                return
                            self.notes["final GET behind the client's own view (asked again)"] += 1
                    except Exception:
                        pass
                    await asyncio.sleep(0.1)

        await asyncio.gather(*(one(t, c) for t in self.tables if t.mode == "ws" for c in t.seats))

    # -- push latency -------------------------------------------------------------------------------
    def push_latency(self) -> dict[str, list[float]]:
        """How soon a move reaches the other seat's WebSocket (views that open a reconnection are not
        pushes and are skipped). Human-vs-human WebSocket tables: from the mover's ack of seq S, and
        from the time the server stamped on the stored move (tt_moves.created_at, same machine clock),
        to the other seat's first view with seq >= S, split by whether the two sockets were held by
        the same web worker or by two. Human-vs-bot WebSocket tables: from the bot worker's stored
        move to the human's view (always another process)."""
        out: dict[str, list[float]] = {
            "ack->view same": [],
            "ack->view cross": [],
            "stored->view same": [],
            "stored->view cross": [],
            "bot stored->view": [],
        }
        owner = self.owners.owner
        stored_at = getattr(self, "stored_at", {})
        self.slow_pushes: list[tuple[str, float]] = []  # (kind, wall time stored) of pushes over 100 ms

        tops: dict[int, list[int]] = {}

        def first_view(client: SeatClient, seq: int):
            if id(client) not in tops:  # the highest seq seen so far, view by view (sorted)
                seqs, top = [], -1
                for view in client.views:
                    top = max(top, view[0])
                    seqs.append(top)
                tops[id(client)] = seqs
            seqs = tops[id(client)]
            k = bisect_left(seqs, seq)
            return None if k >= len(seqs) or client.views[k][3] else client.views[k]

        for table in self.tables:
            if table.mode != "ws":
                continue
            if table.kind == "hvb":
                human = table.seats[0]
                for seq, (when, by) in stored_at.get(table.id, {}).items():
                    if by == "bot":
                        view = first_view(human, seq)
                        if view is not None:
                            out["bot stored->view"].append(view[1] - when)
                            if view[1] - when > 0.1:
                                self.slow_pushes.append(("bot", when))
                continue
            for mover, other in (table.seats, table.seats[::-1]):
                for seq, acked_at, conn in mover.ack_log:
                    view = first_view(other, seq)
                    if view is None:
                        continue
                    a, b = owner.get(conn), owner.get(view[2])
                    if a is None or b is None:
                        continue
                    where = "same" if a == b else "cross"
                    out[f"ack->view {where}"].append(view[1] - acked_at)
                    stored = stored_at.get(table.id, {}).get(seq)
                    if stored is not None:
                        out[f"stored->view {where}"].append(view[1] - stored[0])
                        if view[1] - stored[0] > 0.1:
                            self.slow_pushes.append((where, stored[0]))
        return out


def rule_in(body: bytes) -> str:
    try:
        return str(orjson.loads(body).get("rule"))
    except (ValueError, AttributeError):
        return "?"


def rule_of(answer) -> str:
    try:
        return str(answer.json().get("rule"))
    except Exception:
        return ""


# -- the checks ---------------------------------------------------------------------------------------------------
def check_database(db_url: str, load: Load) -> tuple[list[str], dict[str, Any]]:
    """Every table in the schema, from the database alone (plus what the clients recorded)."""
    import sqlalchemy as sa

    from tabletown.web import db
    from tabletown.web.catalog import find_game
    from tabletown.web.tables import TableService

    failures: list[str] = []
    facts: Counter[str] = Counter()
    engine = db.make_engine(db_url)
    service = TableService(db.session_factory(engine))
    runs = {t.id: t for t in load.tables}
    with engine.connect() as conn:
        rows = conn.execute(
            sa.text("SELECT id, game, options, num_players, seed, status, seq FROM tt_tables")
        )
        tables = {r.id: r for r in rows}
        moves: dict[str, list[Any]] = {}
        for m in conn.execute(
            sa.text("SELECT table_id, seq, seat, action, by, created_at FROM tt_moves ORDER BY table_id, seq")
        ):
            moves.setdefault(m.table_id, []).append(m)
    facts["tables in the database"] = len(tables)
    load.stored_at = {
        tid: {m.seq: (m.created_at.timestamp(), m.by) for m in stored} for tid, stored in moves.items()
    }
    facts["moves in the database"] = sum(len(v) for v in moves.values())
    bot_times = sorted(m.created_at.timestamp() for v in moves.values() for m in v if m.by == "bot")
    for table_id in runs:
        if table_id not in tables:
            failures.append(f"table {table_id}: created by a client but not in the database")

    def fail(table_id: str, text: str) -> None:
        if len(failures) < 200:
            failures.append(f"table {table_id}: {text}")
        facts["failed checks"] += 1

    for table_id, row in tables.items():
        stored = moves.get(table_id, [])
        if [m.seq for m in stored] != list(range(1, row.seq + 1)):
            fail(table_id, f"moves are not numbered 1..{row.seq}: {[m.seq for m in stored][:20]}...")
        if row.status == "error":
            fail(table_id, "status error")
        by_seq = {m.seq: m for m in stored}
        run = runs.get(table_id)
        if run is not None:
            sent: set[tuple[int, int, str]] = set()
            for client in run.seats:
                for seq, first, second in client.double_acks:
                    fail(
                        table_id, f"seq {seq} acknowledged twice to seat {client.seat}: {first!r}, {second!r}"
                    )
                for seq, action in client.acked.items():
                    facts["acknowledged moves checked"] += 1
                    m = by_seq.get(seq)
                    if m is None:
                        fail(table_id, f"acknowledged move {seq} ({client.seat}: {action!r}) is not stored")
                    elif (m.seat, m.action) != (client.seat, action):
                        fail(
                            table_id,
                            f"acknowledged move {seq} ({client.seat}: {action!r}) is stored as "
                            f"({m.seat}: {m.action!r})",
                        )
                    sent.add((seq, client.seat, action))
                for first, action in client.doubt:
                    facts["moves sent whose reply was lost"] += 1
                    m = next(
                        (
                            m
                            for m in stored
                            if m.seq >= first
                            and (m.seat, m.action) == (client.seat, action)
                            and m.seq not in client.acked
                        ),
                        None,
                    )
                    if m is not None:
                        facts["... of which stored (the client saw it on its next view)"] += 1
                        sent.add((m.seq, client.seat, action))
            for m in stored:
                if m.by == "human" and (m.seq, m.seat, m.action) not in sent:
                    fail(table_id, f"stored human move {m.seq} ({m.seat}: {m.action!r}) that no client sent")
        elif any(m.by == "human" for m in stored):
            fail(table_id, "human moves at a table no client knows")
        # replay from the seed; compare with the server's own load (saved positions and all)
        game = find_game(row.game)
        try:
            state = game.new_game(row.num_players, json.loads(row.options), row.seed)
            for m in stored:
                state.apply_text(m.seat, m.action)
        except Exception as exc:
            fail(table_id, f"the stored moves do not replay: {type(exc).__name__}: {exc}")
            continue
        facts["tables replayed"] += 1
        if state.is_over != (row.status == "finished"):
            fail(table_id, f"replay over={state.is_over} but status {row.status}")
        loaded = service.get(table_id)
        if loaded.state is None or loaded.seq != row.seq:
            fail(table_id, f"TableService could not load it ({loaded.status}: {loaded.error})")
        elif json.dumps(loaded.state.to_json(), sort_keys=True) != json.dumps(
            state.to_json(), sort_keys=True
        ):
            fail(table_id, "the replayed position differs from TableService's load")
        # every WebSocket seat got the events visible to it, each once, in order
        if run is not None and run.mode == "ws":
            for client in run.seats:
                facts["WebSocket seats checked"] += 1
                got = client.events
                want = [e["i"] for e in state.events(client.seat, 0) if e["i"] < client.event_count]
                if got != want:
                    dup = sorted(i for i, c in Counter(got).items() if c > 1)
                    missing = sorted(set(want) - set(got))
                    fail(
                        table_id,
                        f"seat {client.seat} (WebSocket, {client.connections} connections) events differ "
                        f"from the replay: missing {missing[:10]}, doubled {dup[:10]}, "
                        f"got {len(got)} want {len(want)}",
                    )
                final = load.final.get((table_id, client.seat))
                if final is None:
                    fail(table_id, f"seat {client.seat}: no final GET payload")
                elif [i for i in final if i < client.event_count] != got:
                    fail(table_id, f"seat {client.seat}: events differ from the final GET ?since=0")
                if client.connections > 1:
                    facts["WebSocket seats that reconnected (events still exact)"] += 1
                # no push lost: a seat that heard nothing for --idle seconds, or is still connected at
                # the end, knows of every move stored well before (a slow bot is not a lost push)
                heard = max((v[0] for v in client.views), default=0)
                for stall in load.stalls:
                    if stall["table"] != table_id or stall["seat"] != client.seat:
                        continue
                    missed = [
                        m
                        for m in stored
                        if m.seq > stall["seq"]
                        and m.created_at.timestamp() < stall["time"] - stall["wait"] / 2
                    ]
                    if missed:
                        m = missed[0]
                        fail(
                            table_id,
                            f"seat {client.seat} (WebSocket) was never told of move {m.seq} ({m.by}): it heard "
                            f"nothing for {stall['wait']:.0f} s at seq {stall['seq']} while move {m.seq} had been "
                            f"stored {stall['time'] - m.created_at.timestamp():.1f} s before; it reconnected",
                        )
                    else:
                        facts["WebSocket seats idle for --idle s with nothing missed (slow bot)"] += 1
                if not run.over:
                    end = load.wall_start + load.args.seconds - 15
                    missed = [m for m in stored if m.seq > heard and m.created_at.timestamp() < end]
                    if missed:
                        fail(
                            table_id,
                            f"seat {client.seat} (WebSocket) at the end of the run had heard of seq {heard}; "
                            f"move {missed[0].seq} was stored more than 15 s before the end",
                        )
    with engine.connect() as conn:
        reads = conn.execute(
            sa.text(
                "SELECT relname, coalesce(idx_scan, 0) + coalesce(seq_scan, 0) AS reads FROM pg_stat_user_tables"
                " WHERE schemaname = current_schema()"
            )
        )
        scans = {r.relname: r.reads for r in reads}
    engine.dispose()
    details: dict[str, Any] = dict(facts)
    details["final seq"] = {tid: row.seq for tid, row in tables.items()}
    total = max(1, facts["moves in the database"])
    mine = len(tables) + 1  # this check's own reads: one load of each table, one scan of all
    details["database reads per stored move by the servers (tt_tables / tt_seats / tt_moves)"] = " / ".join(
        f"{max(0, scans.get(name, 0) - mine) / total:.1f}" for name in ("tt_tables", "tt_seats", "tt_moves")
    )
    if load.bot_kill.get("wall"):
        after = [t for t in bot_times if t > load.bot_kill["wall"]]
        details["bot moves after the bot worker restart"] = len(after)
        if after:
            details["first bot move after the kill (s)"] = round(after[0] - load.bot_kill["wall"], 2)
        else:
            failures.append("no bot move was stored after the bot worker was restarted")
    return failures, details


# -- main -----------------------------------------------------------------------------------------------------------
def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="benchmarks/load.py", description=__doc__.split("\n\n")[0])
    parser.add_argument("--db", default=os.environ.get("TABLETOWN_TEST_POSTGRES_URL", DEFAULT_PG))
    parser.add_argument("--redis", default=os.environ.get("TABLETOWN_TEST_REDIS_URL", DEFAULT_REDIS))
    parser.add_argument("--tables", type=int, default=200, help="table slots played at once")
    parser.add_argument("--seconds", type=float, default=60)
    parser.add_argument("--workers", type=int, default=3, help="web worker processes")
    parser.add_argument(
        "--poll",
        type=float,
        default=0,
        help="REST clients waiting: 0 = long poll (GET ?seq=N&wait=10); else GET after 0.05 s, doubling up to this",
    )
    parser.add_argument(
        "--idle", type=float, default=20, help="WebSocket: reconnect after this long without news"
    )
    parser.add_argument(
        "--stall", type=float, default=15, help="WebSocket: reconnect when a move is unanswered"
    )
    parser.add_argument(
        "--think", type=float, default=0, help="seconds a client thinks before each move (0: none)"
    )
    parser.add_argument(
        "--ramp", type=float, default=2.0, help="seconds over which the table slots begin (0: all at once)"
    )
    parser.add_argument(
        "--dump", type=Path, default=None, help="write every acknowledged move's timing to this JSON file"
    )
    parser.add_argument("--kill-web-at", type=float, default=0.35, help="fraction of the run")
    parser.add_argument("--kill-bots-at", type=float, default=0.65, help="fraction of the run")
    parser.add_argument(
        "--bot-restart-after", type=float, default=1.0, help="seconds the bot worker stays dead"
    )
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--keep-logs", action="store_true", help="keep the server logs even when all is well")
    args = parser.parse_args(argv)
    if not args.db.startswith("postgresql"):
        parser.error("--db must be a PostgreSQL URL")

    import sqlalchemy as sa

    schema = "tt_load_" + uuid.uuid4().hex[:10]
    admin = sa.create_engine(args.db)
    with admin.begin() as conn:
        conn.execute(sa.text(f'CREATE SCHEMA "{schema}"'))
    db_url = args.db + ("&" if "?" in args.db else "?") + f"options=-csearch_path%3D{schema}"
    folder = Path(tempfile.mkdtemp(prefix="tabletown-load-"))
    cluster = Cluster(db_url, args.redis, args.workers, folder)
    owners = SocketOwners(cluster)
    failures: list[str] = []
    try:
        print(f"schema {schema}; logs in {folder}", flush=True)
        cluster.start_web()
        cluster.start_bots()
        wait_until_ready(cluster, owners)
        workers = cluster.web_workers()
        print(
            f"serve --workers {args.workers} on {cluster.base}: worker pids {workers}; bot worker", flush=True
        )
        owners.sample_cpu()
        owners.cpu_start = {pid: seconds for pid, (_, seconds) in owners.cpu.items()}
        busy_start, wall_start = owners.machine_busy(), time.monotonic()
        owners.thread.start()
        load = Load(args, cluster, owners)
        # The clients share the machine with the servers: uvloop and orjson keep their share small.
        uvloop.run(load.run())
        owners.scan()
        owners.sample_cpu()
        owners.stop.set()
        load.probe = owners.probe()
        if load.bot_kill.get("wall"):
            wait_for_bot_move(db_url, load.bot_kill["wall"], 90)
        load.busy, load.wall = owners.machine_busy() - busy_start, time.monotonic() - wall_start
        workers_after = cluster.web_workers()
        cluster.stop()
        failures, details = check_database(db_url, load)
        report(load, details, failures, workers, workers_after, owners)
    finally:
        owners.stop.set()
        cluster.stop()
        with admin.begin() as conn:
            conn.execute(sa.text(f'DROP SCHEMA "{schema}" CASCADE'))
        admin.dispose()
        problems = count_log_problems(cluster.logs)
        if problems:
            print(f"server logs: {problems}", flush=True)
        if failures or problems or args.keep_logs:
            print(f"server logs kept in {folder}")
        else:
            shutil.rmtree(folder, ignore_errors=True)
    return 1 if failures else 0


def wait_until_ready(cluster: Cluster, owners: SocketOwners, seconds: float = 60) -> None:
    """Every web worker accepting connections (a worker accepts only once its start-up ran) and the
    bot worker ready: otherwise the first seconds of the run measure processes still starting."""
    began = time.monotonic()
    end = began + seconds
    while time.monotonic() < end:
        accepting = set(owners.probe())
        if len(accepting) >= cluster.workers:
            break
        time.sleep(0.2)
    else:
        print(
            f"warning: only {len(accepting)} of {cluster.workers} web workers accept connections", flush=True
        )
    log_path = cluster.folder / f"bots-{cluster.bot_starts}.log"
    while time.monotonic() < end:
        with contextlib.suppress(OSError):
            if " ready " in log_path.read_text():
                break
        time.sleep(0.1)
    else:
        print("warning: the bot worker did not say it was ready", flush=True)
    print(f"all processes ready after {time.monotonic() - began:.1f} s", flush=True)


def wait_for_bot_move(db_url: str, after: float, seconds: float) -> None:
    """Give the restarted bot worker time for its first move (its start-up replays every unfinished
    table, which takes a while on a busy machine); the check below wants one."""
    import sqlalchemy as sa

    engine = sa.create_engine(db_url)
    end = time.monotonic() + seconds
    try:
        while time.monotonic() < end:
            with engine.connect() as conn:
                last = conn.execute(sa.text("SELECT max(created_at) FROM tt_moves WHERE by = 'bot'")).scalar()
            if last is not None and last.timestamp() > after:
                return
            time.sleep(0.5)
    finally:
        engine.dispose()


def count_log_problems(paths: list[Path]) -> dict[str, int]:
    found: Counter[str] = Counter()
    for path in paths:
        with contextlib.suppress(OSError):
            for line in path.read_text(errors="replace").splitlines():
                if line.startswith(("ERROR", "CRITICAL")) or line.startswith("Traceback"):
                    found[f"{path.name}: {line[:120]}"] += 1
    return dict(found.most_common(15))


def print_latency_windows(load: Load) -> None:
    """Send -> ack p99 by 10 s of the run, and outside the 5 s after each kill (where the tail comes from)."""
    windows: dict[int, list[float]] = {}
    calm: list[float] = []
    kills = [info["time"] for info in (load.web_kill, load.bot_kill) if info.get("time") is not None]
    for latency, when in zip(load.latencies, load.ack_times, strict=True):
        at = when - load.start
        windows.setdefault(int(at // 10) * 10, []).append(latency)
        if not any(kill <= at < kill + 5 for kill in kills):
            calm.append(latency)
    print(
        "send -> ack p99 by 10 s of the run: "
        + ", ".join(f"{at}-{at + 10}s {ms(percentile(v, 0.99))} ms" for at, v in sorted(windows.items()))
    )
    first = [
        (when - load.start, latency) for latency, when in zip(load.latencies, load.ack_times, strict=True)
    ]
    print(
        "send -> ack p99 by 2 s of the first 10 s (start-up): "
        + ", ".join(
            f"{at}-{at + 2}s {ms(percentile([v for t, v in first if at <= t < at + 2], 0.99))} ms"
            for at in range(0, 10, 2)
            if any(at <= t < at + 2 for t, _ in first)
        )
    )
    for label, info in (("web", load.web_kill), ("bot", load.bot_kill)):
        kill = info.get("time")
        if kill is None:
            continue
        around = [(at - kill, v) for at, v in first if kill - 2 <= at < kill + 8]
        lags = [
            (when - load.start - kill, lag)
            for lag, when in zip(getattr(load, "lags", []), getattr(load, "lag_times", []), strict=True)
        ]
        print(
            f"send -> ack p99 by 1 s around the {label} kill (0 = the kill; the clients' own loop lag, max): "
            + ", ".join(
                f"{k:+d}s {ms(percentile(vals, 0.99))} ms ({ms(max((v for t, v in lags if k <= t < k + 1), default=0))})"
                for k in range(-2, 8)
                if (vals := [v for t, v in around if k <= t < k + 1])
            )
        )
    if kills:
        print(
            f"send -> ack outside the 5 s after each kill: n={len(calm)} p50 {ms(percentile(calm, 0.5))} ms, "
            f"p95 {ms(percentile(calm, 0.95))} ms, p99 {ms(percentile(calm, 0.99))} ms"
        )


def report(
    load: Load,
    details: dict[str, Any],
    failures: list[str],
    workers: list[int],
    workers_after: list[int],
    owners: SocketOwners,
) -> None:
    args = load.args
    lat = load.latencies
    rate = len(lat) / load.elapsed if load.elapsed else 0.0
    push = load.push_latency()
    stored = details.get("moves in the database", 0)
    print()
    print(
        f"== make load: {args.tables} tables, {load.elapsed:.1f} s, {args.workers} web workers, "
        f"{len(load.tables)} tables played"
    )
    by_kind = Counter((t.kind, t.mode) for t in load.tables)
    print("tables:", ", ".join(f"{k} {m}: {c}" for (k, m), c in sorted(by_kind.items())))
    print(f"acknowledged client moves: {len(lat)} = {rate:.0f} moves/s")
    print(f"stored moves (clients and bots): {stored} = {stored / load.elapsed:.0f} moves/s")
    print(
        f"latency send -> ack: p50 {ms(percentile(lat, 0.5))} ms, p95 {ms(percentile(lat, 0.95))} ms, "
        f"p99 {ms(percentile(lat, 0.99))} ms, max {ms(max(lat, default=float('nan')))} ms"
    )
    for mode in ("ws", "rest"):
        values = load.latency_by_mode[mode]
        print(
            f"  {mode:4s} clients: {len(values)} moves, p50 {ms(percentile(values, 0.5))} ms, "
            f"p95 {ms(percentile(values, 0.95))} ms, p99 {ms(percentile(values, 0.99))} ms"
        )
    for name, info in (("web", load.web_kill), ("bot", load.bot_kill)):
        at = info.get("time")
        if at is not None:
            before = sum(at - 5 <= t - load.start < at for t in load.ack_times) / 5
            after = sum(at <= t - load.start < at + 5 for t in load.ack_times) / 5
            print(f"moves/s in the 5 s before / after the {name} kill: {before:.0f} / {after:.0f}")
    print_latency_windows(load)
    if load.args.dump:
        load.args.dump.write_text(
            json.dumps(
                {
                    "moves": load.details,  # (seconds into the run, latency, mode, game, connection id)
                    "owners": {str(c): pid for c, pid in load.owners.owner.items()},
                    "web_kill": load.web_kill,
                    "bot_kill": {k: v for k, v in load.bot_kill.items() if k != "wall"},
                }
            )
        )
    for where, values in push.items():
        if values:
            print(
                f"push {where}: n={len(values)} p50 {ms(percentile(values, 0.5))} ms, "
                f"p99 {ms(percentile(values, 0.99))} ms, within 100 ms {sum(v < 0.1 for v in values) / len(values):.1%}"
            )
    lags = getattr(load, "lags", [])
    print(
        f"client event-loop lag (part of every latency above): p50 {ms(percentile(lags, 0.5))} ms, "
        f"p99 {ms(percentile(lags, 0.99))} ms, max {ms(max(lags, default=float('nan')))} ms"
    )
    if load.slow_pushes:
        wall0 = load.wall_start
        buckets = Counter((kind, int((when - wall0) // 10) * 10) for kind, when in load.slow_pushes)
        print(
            "pushes over 100 ms (stored -> view) by 10 s of the run: "
            + ", ".join(f"{kind} {at}-{at + 10}s: {n}" for (kind, at), n in sorted(buckets.items()))
        )
    used: Counter[str] = Counter()
    for pid, (group, seconds) in owners.cpu.items():
        used[group] += seconds - owners.cpu_start.get(pid, 0.0)
    cores = os.cpu_count() or 1
    ours = sum(used.values())
    print(
        f"CPU seconds over {load.wall:.0f} s ({cores} cores: {cores * load.wall:.0f} available, "
        f"{load.busy:.0f} busy): "
        + ", ".join(f"{g} {v:.1f}" for g, v in used.most_common())
        + f"; other processes on the machine {max(0.0, load.busy - ours):.1f}"
    )
    spread = Counter(owners.owner.values())
    print(f"WebSocket connections per web worker: {dict(spread)}")
    print(f"web workers before {workers}, after {workers_after}")
    print(f"web kill: {load.web_kill}")
    probe = getattr(load, "probe", Counter())
    print(f"after the run, 30 fresh connections were accepted by: {dict(probe)}")
    if load.web_kill.get("new") and not probe.get(load.web_kill["new"]):
        print("  (the worker uvicorn started in place of the killed one took none of them)")
    print(f"bot kill: {load.bot_kill}")
    print("errors by kind:" + ("" if load.errors else " none"))
    for kind, count in load.errors.most_common():
        print(f"  {count:6d}  {kind}")
    if load.notes:
        print("notes:")
        for kind, count in load.notes.most_common():
            print(f"  {count:6d}  {kind}")
    print("checks:")
    for key, value in details.items():
        if key != "final seq":
            print(f"  {key}: {value}")
    if not load.web_kill.get("restarted"):
        failures.append("the killed web worker was not replaced by uvicorn")
    if not lat:
        failures.append("no move was acknowledged")
    if failures:
        print(f"FAILED: {len(failures)} problem(s)")
        for line in failures[:50]:
            print("  " + line)
    else:
        print(
            "all checks passed: every acknowledged move stored once, replays match, no event missed or doubled"
        )
    summary = {
        "tables": args.tables,
        "seconds": round(load.elapsed, 1),
        "moves_acked": len(lat),
        "moves_per_second": round(rate, 1),
        "stored_moves_per_second": round(stored / load.elapsed, 1),
        "p50_ms": ms(percentile(lat, 0.5)),
        "p95_ms": ms(percentile(lat, 0.95)),
        "p99_ms": ms(percentile(lat, 0.99)),
        **{
            f"push {where} {q}_ms": ms(percentile(values, level))
            for where, values in push.items()
            for q, level in (("p50", 0.5), ("p99", 0.99))
        },
        "errors": sum(load.errors.values()),
        "failures": len(failures),
    }
    print(json.dumps(summary), flush=True)


if __name__ == "__main__":
    sys.exit(main())
