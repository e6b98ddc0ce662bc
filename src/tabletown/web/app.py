"""The FastAPI application: REST API, WebSocket pushes, pages, and the bots that play on the server.

``create_app(db_url)`` builds it; the database is migrated and every unfinished table rebuilt when
the application starts (its lifespan). The protocol is described in docs/server.md.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import os
import random
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import anyio
from fastapi import FastAPI, Query, Request, WebSocket, WebSocketDisconnect
from fastapi.exceptions import RequestValidationError
from fastapi.responses import HTMLResponse, JSONResponse, RedirectResponse, Response
from fastapi.staticfiles import StaticFiles
from fastapi.templating import Jinja2Templates
from pydantic import BaseModel, Field

from .. import __version__
from . import db
from .boards import board_words
from .catalog import broken_games, game_info, games
from .tables import LiveTable, TableError, TableService

log = logging.getLogger("tabletown.web")

HERE = Path(__file__).parent
MAX_BODY = 64 * 1024
COOKIE_PREFIX = "tt_"


# -- request bodies (their schema shows at /docs) ------------------------------------------------------
class CreateTable(BaseModel):
    game: str = Field(max_length=64)
    options: dict[str, Any] = Field(default_factory=dict)
    seats: list[str] = Field(min_length=1, max_length=16)
    seed: int | None = None
    turn_timer: int | None = Field(
        default=None, description="seconds a human has per decision; then a bot stands in"
    )
    names: list[str | None] | None = None


class ActionBody(BaseModel):
    token: str = Field(max_length=128)
    seq: int
    action: str | int = Field(
        description="the move in the game's notation (or its number in the action space)"
    )


class JoinBody(BaseModel):
    token: str = Field(max_length=128)
    name: str | None = Field(default=None, max_length=200)
    back: bool = True


class SitBody(BaseModel):
    seat: int
    name: str | None = Field(default=None, max_length=200)


class ReplayBody(BaseModel):
    record: dict[str, Any]
    step: int = 0
    seat: int | None = None


# -- the body limit ---------------------------------------------------------------------------------------------
class BodyLimit:
    """Refuse request bodies over ``limit`` bytes with 413 before anything parses them."""

    def __init__(self, app: Any, limit: int = MAX_BODY) -> None:
        self.app = app
        self.limit = limit

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        for name, value in scope.get("headers", ()):
            if name == b"content-length":
                try:
                    size = int(value)
                except ValueError:
                    await _send_json(send, 400, {"rule": "request.length", "message": "bad Content-Length"})
                    return
                if size > self.limit:
                    await _send_json(send, 413, _too_large(self.limit))
                    return
        body = bytearray()
        while True:
            message = await receive()
            if message["type"] == "http.disconnect":
                return
            body += message.get("body", b"")
            if len(body) > self.limit:
                await _send_json(send, 413, _too_large(self.limit))
                return
            if not message.get("more_body"):
                break
        done = False

        async def replay() -> Any:
            nonlocal done
            if not done:
                done = True
                return {"type": "http.request", "body": bytes(body), "more_body": False}
            return await receive()

        await self.app(scope, replay, send)


def _too_large(limit: int) -> dict[str, Any]:
    return {"rule": "request.too_large", "message": f"request bodies are limited to {limit // 1024} KB"}


async def _send_json(send: Any, status: int, data: dict[str, Any]) -> None:
    body = json.dumps(data).encode()
    await send(
        {
            "type": "http.response.start",
            "status": status,
            "headers": [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())],
        }
    )
    await send({"type": "http.response.body", "body": body})


# -- bots and timers on the server ------------------------------------------------------------------------------
class Drivers:
    """One asyncio task per table with bot seats or a turn timer: it asks bots (in worker threads,
    each decision time-limited) and stands a bot in for humans whose time ran out."""

    def __init__(self, service: TableService, bot_delay: float, bot_seconds: float, workers: int) -> None:
        self.service = service
        self.bot_delay = bot_delay
        self.bot_seconds = bot_seconds
        self.pool = ThreadPoolExecutor(max_workers=workers, thread_name_prefix="tabletown-bot")
        self.tasks: dict[str, asyncio.Task] = {}
        self.loop: asyncio.AbstractEventLoop | None = None

    def start(self, table: LiveTable) -> None:
        """Called from any thread: follow ``table`` if it needs a driver."""
        if table.over or not (table.turn_timer or any(s.is_bot for s in table.seats)):
            return
        loop = self.loop
        if loop is None:
            return
        if threading_in_loop(loop):
            self._start(table)
        else:
            loop.call_soon_threadsafe(self._start, table)

    def _start(self, table: LiveTable) -> None:
        task = self.tasks.get(table.id)
        if task is not None and not task.done():
            return
        changed = asyncio.Event()
        loop = asyncio.get_running_loop()
        table.on_change.append(lambda _t: loop.call_soon_threadsafe(changed.set))
        self.tasks[table.id] = loop.create_task(self._drive(table, changed))

    async def _drive(self, table: LiveTable, changed: asyncio.Event) -> None:
        service = self.service
        pending: asyncio.Future | None = None
        failures = 0
        try:
            while not table.over:
                changed.clear()
                auto = await anyio.to_thread.run_sync(service.auto_seat, table)
                if auto is not None:
                    seat, name = auto
                    if self.bot_delay and any(not s.is_bot for s in table.seats):
                        await asyncio.sleep(self.bot_delay)
                    seq, copy = await anyio.to_thread.run_sync(_copy, table)
                    if copy is None:
                        return
                    action = None
                    if failures < 3 and (pending is None or pending.done()):
                        try:
                            agent = service.agent(table, seat, name)
                            pending = asyncio.get_running_loop().run_in_executor(self.pool, agent, copy, seat)
                            action = await asyncio.wait_for(asyncio.shield(pending), self.bot_seconds)
                        except TimeoutError:
                            log.warning(
                                "table %s: bot %s took over %.1fs; a random move instead",
                                table.id,
                                name,
                                self.bot_seconds,
                            )
                        except Exception:
                            log.exception("table %s: bot %s failed; a random move instead", table.id, name)
                    if action is None:
                        action = await anyio.to_thread.run_sync(_random_move, table, seat)
                        if action is None:
                            continue
                    by = "bot" if table.seats[seat].is_bot else "standby"
                    try:
                        await anyio.to_thread.run_sync(service.commit, table, seat, action, by, seq)
                        failures = 0
                    except TableError as exc:
                        if exc.status != 409:
                            failures += 1
                            log.warning("table %s: bot move refused: %s", table.id, exc.message)
                            if failures > 6:
                                return
                    continue
                wait = await anyio.to_thread.run_sync(service.expire_timers, table)
                if wait == 0.0:
                    continue
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(changed.wait(), wait)
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("table %s: driver stopped", table.id)
        finally:
            self.tasks.pop(table.id, None)

    async def stop(self) -> None:
        for task in list(self.tasks.values()):
            task.cancel()
        for task in list(self.tasks.values()):
            with contextlib.suppress(BaseException):
                await task
        self.pool.shutdown(wait=False, cancel_futures=True)


def threading_in_loop(loop: asyncio.AbstractEventLoop) -> bool:
    try:
        return asyncio.get_running_loop() is loop
    except RuntimeError:
        return False


def _copy(table: LiveTable) -> tuple[int, Any]:
    with table.lock:
        if table.state is None or table.over:
            return table.seq, None
        return table.seq, table.state.clone()


def _random_move(table: LiveTable, seat: int) -> Any:
    with table.lock:
        if table.state is None or table.over:
            return None
        moves = table.state.legal_actions(seat)
        return random.choice(moves) if moves else None


# -- the application ---------------------------------------------------------------------------------------------------
def create_app(
    db_url: str | None = None,
    *,
    bot_delay: float | None = None,
    bot_seconds: float | None = None,
    bot_workers: int | None = None,
) -> FastAPI:
    """The Tabletown server. ``db_url``: SQLAlchemy URL (default $TABLETOWN_DATABASE_URL, else the
    SQLite file tabletown.db in the working folder). ``bot_delay``: seconds a bot waits before moving
    at a table with humans (so they can follow); ``bot_seconds``: time limit of one bot decision."""
    url = db.resolve_url(db_url)
    if bot_delay is None:
        bot_delay = float(os.environ.get("TABLETOWN_BOT_DELAY", "0"))
    if bot_seconds is None:
        bot_seconds = float(os.environ.get("TABLETOWN_BOT_SECONDS", "10"))
    if bot_workers is None:
        bot_workers = max(2, min(4, os.cpu_count() or 2))

    @contextlib.asynccontextmanager
    async def lifespan(app: FastAPI):
        engine = db.make_engine(url)
        await anyio.to_thread.run_sync(db.migrate, engine)
        await anyio.to_thread.run_sync(games)  # import every game before the first request
        service = TableService(db.session_factory(engine))
        drivers = Drivers(service, bot_delay, bot_seconds, bot_workers)
        drivers.loop = asyncio.get_running_loop()
        service.on_new_table.append(drivers.start)
        app.state.engine = engine
        app.state.service = service
        app.state.drivers = drivers
        tables = await anyio.to_thread.run_sync(service.load_unfinished)
        for table in tables:
            drivers.start(table)
        log.info(
            "Tabletown server ready on %s (%d unfinished tables)", engine.url.render_as_string(), len(tables)
        )
        try:
            yield
        finally:
            await drivers.stop()
            engine.dispose()

    app = FastAPI(
        title="Tabletown",
        version=__version__,
        description="Play Tabletown's games in the browser: tables, seats, moves, live updates, replays.",
        lifespan=lifespan,
    )
    app.add_middleware(BodyLimit, limit=MAX_BODY)
    app.mount("/static", StaticFiles(directory=HERE / "static"), name="static")
    templates = Jinja2Templates(directory=HERE / "templates")

    @app.exception_handler(TableError)
    async def _table_error(request: Request, exc: TableError) -> JSONResponse:
        return JSONResponse(exc.to_json(), status_code=exc.status)

    @app.exception_handler(RequestValidationError)
    async def _invalid(request: Request, exc: RequestValidationError) -> JSONResponse:
        problems = []
        for error in exc.errors()[:10]:
            loc = ".".join(str(part) for part in error.get("loc", ()))
            problems.append(f"{loc}: {error.get('msg', 'invalid')}")
        return JSONResponse(
            {"rule": "request.invalid", "message": "; ".join(problems) or "invalid request"}, status_code=422
        )

    def service(request: Request | WebSocket) -> TableService:
        return request.app.state.service

    def join_url(request: Request, table_id: str, token: str) -> str:
        return str(request.base_url).rstrip("/") + f"/t/{table_id}?token={token}"

    # -- API ----------------------------------------------------------------------------------------------
    @app.get("/api/games", tags=["games"])
    def list_games() -> dict[str, Any]:
        """Every game with its player counts, options and bot levels."""
        out = []
        for game in games().values():
            try:
                out.append(game_info(game))
            except Exception:
                continue
        return {"games": out, "unavailable": sorted(broken_games())}

    @app.post("/api/tables", status_code=201, tags=["tables"])
    def create_table(body: CreateTable, request: Request) -> dict[str, Any]:
        """Create a table; returns each seat's token and join link (keep them secret)."""
        table = service(request).create(
            body.game, body.options, body.seats, body.seed, body.turn_timer, body.names
        )
        return {
            "id": table.id,
            "game": table.game.name,
            "seed": table.seed,
            "options": table.options,
            "seats": [
                {
                    "seat": s.seat,
                    "kind": s.kind,
                    "token": None if s.is_bot else s.token,
                    "join_url": None if s.is_bot else join_url(request, table.id, s.token),
                }
                for s in table.seats
            ],
        }

    @app.get("/api/tables", tags=["tables"])
    def list_tables(
        request: Request, status: str | None = Query(default=None, max_length=16)
    ) -> dict[str, Any]:
        """Tables by status: open (a human seat is free), running, finished."""
        svc = service(request)
        if status is not None:
            return {"tables": svc.list(status)}
        return {name: svc.list(name, 50) for name in ("open", "running", "finished")}

    @app.get("/api/tables/{table_id}", tags=["tables"])
    def get_table(
        table_id: str,
        request: Request,
        token: str | None = Query(default=None, max_length=128),
        since: int = Query(default=0, ge=0),
    ) -> dict[str, Any]:
        """The seat's view (the spectator's without a token) with ``seq``, ``to_act`` and ``legal``."""
        svc = service(request)
        table = svc.get(table_id)
        seat = None
        if token is not None:
            seat = svc.touch(table, token, back=False).seat
        return svc.payload(table, seat, since)

    @app.post("/api/tables/{table_id}/actions", tags=["tables"])
    def post_action(table_id: str, body: ActionBody, request: Request) -> dict[str, Any]:
        """Make a move: 409 if ``seq`` is stale, 422 with the rule if the engine refuses it."""
        svc = service(request)
        table = svc.get(table_id)
        seq = svc.act(table, body.token, body.seq, body.action)
        return {"seq": seq}

    @app.post("/api/tables/{table_id}/join", tags=["tables"])
    def join(table_id: str, body: JoinBody, request: Request) -> dict[str, Any]:
        """A seat's player arrives (or returns after their timer ran out) and may set a display name."""
        svc = service(request)
        seat = svc.touch(svc.get(table_id), body.token, body.name, back=body.back)
        return seat.public()

    @app.post("/api/tables/{table_id}/sit", tags=["tables"])
    def sit(table_id: str, body: SitBody, request: Request) -> dict[str, Any]:
        """Take a free human seat of an open table; returns its token."""
        svc = service(request)
        table = svc.get(table_id)
        seat = svc.sit(table, body.seat, body.name)
        return {
            "seat": seat.seat,
            "kind": seat.kind,
            "token": seat.token,
            "join_url": join_url(request, table.id, seat.token),
        }

    @app.get("/api/tables/{table_id}/record", tags=["replays"])
    def get_record(table_id: str, request: Request, download: bool = False) -> Response:
        """The game record (the CLI's format: `tabletown replay FILE`)."""
        table = service(request).get(table_id)
        with table.lock:
            record = table.record().to_json()
        headers = {}
        if download:
            headers["content-disposition"] = f'attachment; filename="{table.game.name}-{table.id}.json"'
        return JSONResponse(record, headers=headers)

    @app.get("/api/tables/{table_id}/replay", tags=["replays"])
    def get_replay(
        table_id: str,
        request: Request,
        step: int = Query(default=0, ge=0, le=10_000_000),
        seat: int | None = Query(default=None, ge=0, le=64),
        token: str | None = Query(default=None, max_length=128),
    ) -> dict[str, Any]:
        """The position after ``step`` moves as ``seat`` saw it. While a table is unfinished only the
        spectator's view, or your own seat's with its token, is shown."""
        svc = service(request)
        table = svc.get(table_id)
        if seat is not None and seat >= table.num_players:
            raise TableError(422, "seat.number", "no such seat")
        if table.status != "finished" and seat is not None:
            holder = table.seat_for(token)
            if holder is None or holder.seat != seat:
                raise TableError(
                    403, "replay.hidden", "a seat's view of an unfinished game needs that seat's token"
                )
        return svc.replay_view(table, step, seat)

    @app.post("/api/replay", tags=["replays"])
    def post_replay(body: ReplayBody, request: Request) -> dict[str, Any]:
        """Watch an uploaded record: the position after ``step`` moves as ``seat`` saw it."""
        svc = service(request)
        table = svc.uploaded_table(body.record)
        if body.seat is not None and not 0 <= body.seat < table.num_players:
            raise TableError(422, "seat.number", "no such seat")
        return svc.replay_view(table, body.step, body.seat)

    # -- WebSocket --------------------------------------------------------------------------------------------
    @app.websocket("/ws/tables/{table_id}")
    async def table_socket(websocket: WebSocket, table_id: str) -> None:
        """Pushes the seat's payload (as GET returns it, events from ``since``) on every change.
        A client may also send ``{"type": "action", "seq", "action"}`` and gets an ``ack`` or an ``error``."""
        svc = service(websocket)
        token = websocket.query_params.get("token")
        try:
            since = max(0, int(websocket.query_params.get("since", "0")))
        except ValueError:
            since = 0
        try:
            table = await anyio.to_thread.run_sync(svc.get, table_id)
            seat = None
            if token:
                seat = (await anyio.to_thread.run_sync(lambda: svc.touch(table, token, back=True))).seat
        except TableError as exc:
            await websocket.close(code=4000 + exc.status, reason=exc.message[:100])
            return
        await websocket.accept()
        queue: asyncio.Queue = asyncio.Queue()
        loop = asyncio.get_running_loop()

        def push(payload: dict[str, Any]) -> None:
            loop.call_soon_threadsafe(queue.put_nowait, payload)

        sub, first = await anyio.to_thread.run_sync(svc.subscribe, table, seat, since, push)

        sending = asyncio.Lock()  # pushes and replies share the socket: one frame at a time

        async def sender() -> None:
            payload = first
            while True:
                async with sending:
                    await websocket.send_json({"type": "view", **payload})
                payload = await queue.get()

        async def receiver() -> None:
            while True:
                try:
                    text = await websocket.receive_text()
                except (WebSocketDisconnect, RuntimeError):
                    return
                reply = await anyio.to_thread.run_sync(_socket_message, svc, table, token, text)
                async with sending:
                    await websocket.send_json(reply)

        send_task = asyncio.create_task(sender())
        receive_task = asyncio.create_task(receiver())
        try:
            await asyncio.wait({send_task, receive_task}, return_when=asyncio.FIRST_COMPLETED)
        finally:
            for task in (send_task, receive_task):
                task.cancel()
                with contextlib.suppress(BaseException):
                    await task
            svc.unsubscribe(table, sub)
            with contextlib.suppress(Exception):
                await websocket.close()

    # -- pages -------------------------------------------------------------------------------------------------------
    def board_assets(game_name: str) -> dict[str, Any]:
        js = HERE / "static" / "boards" / f"{game_name}.js"
        html = HERE / "templates" / "boards" / f"{game_name}.html"
        return {
            "board_words": board_words(game_name),
            "board_js": f"/static/boards/{game_name}.js" if js.is_file() else None,
            "board_template": f"boards/{game_name}.html" if html.is_file() else "boards/generic.html",
        }

    @app.get("/", response_class=HTMLResponse, include_in_schema=False)
    def lobby(request: Request) -> Response:
        return templates.TemplateResponse(request, "lobby.html", {"version": __version__})

    @app.get("/t/{table_id}", response_class=HTMLResponse, include_in_schema=False)
    def table_page(
        table_id: str, request: Request, token: str | None = Query(default=None, max_length=128)
    ) -> Response:
        svc = service(request)
        table = svc.get(table_id)
        cookie = COOKIE_PREFIX + table.id
        held = [t for t in (request.cookies.get(cookie) or "").split(",") if t]
        if token is not None:
            if table.seat_for(token) is None:
                raise TableError(403, "seat.bad_token", "this link holds no seat at this table")
            if token not in held:
                held.append(token)
            response = RedirectResponse(f"/t/{table.id}", status_code=303)
            response.set_cookie(cookie, ",".join(held[-16:]), max_age=90 * 86400, samesite="lax", path="/")
            return response
        seats = []
        for t in held:
            s = table.seat_for(t)
            if s is not None and all(x["seat"] != s.seat for x in seats):
                seats.append({"seat": s.seat, "token": s.token})
        seats.sort(key=lambda x: x["seat"])
        context = {
            "table": table.summary(),
            "game_title": table.game.title,
            "held": seats,
            **board_assets(table.game.name),
        }
        return templates.TemplateResponse(request, "table.html", context)

    @app.get("/t/{table_id}/replay", response_class=HTMLResponse, include_in_schema=False)
    def replay_page(table_id: str, request: Request) -> Response:
        table = service(request).get(table_id)
        held = []
        for t in (request.cookies.get(COOKIE_PREFIX + table.id) or "").split(","):
            s = table.seat_for(t)
            if s is not None:
                held.append({"seat": s.seat, "token": s.token})
        context = {
            "table": table.summary(),
            "game_title": table.game.title,
            "held": held,
            "upload": False,
            **board_assets(table.game.name),
        }
        return templates.TemplateResponse(request, "replay.html", context)

    @app.get("/replay", response_class=HTMLResponse, include_in_schema=False)
    def upload_page(request: Request) -> Response:
        context = {
            "table": None,
            "game_title": "",
            "held": [],
            "upload": True,
            "board_js": None,
            "board_words": {},
            "board_template": "boards/generic.html",
        }
        return templates.TemplateResponse(request, "replay.html", context)

    @app.get("/healthz", include_in_schema=False)
    def health() -> dict[str, str]:
        return {"status": "ok"}

    return app


def _socket_message(svc: TableService, table: LiveTable, token: str | None, text: str) -> dict[str, Any]:
    if len(text) > MAX_BODY:
        return {"type": "error", "status": 413, **_too_large(MAX_BODY)}
    try:
        message = json.loads(text)
    except ValueError:
        return {"type": "error", "status": 400, "rule": "request.json", "message": "not JSON"}
    if not isinstance(message, dict) or message.get("type") != "action":
        return {
            "type": "error",
            "status": 422,
            "rule": "request.type",
            "message": 'send {"type": "action", "seq", "action"}',
        }
    try:
        seq = svc.act(table, token, message.get("seq"), message.get("action"))
    except TableError as exc:
        return {"type": "error", "status": exc.status, **exc.to_json()}
    return {"type": "ack", "seq": seq}
