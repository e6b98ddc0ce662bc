"""The FastAPI application: REST API, WebSocket pushes, pages, and the bots that play on the server.

``create_app(db_url)`` builds it; the database is migrated and every unfinished table rebuilt when
the application starts (its lifespan). The protocol is described in docs/server.md.
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import json
import logging
import os
import re
from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path
from typing import Any
from urllib.parse import parse_qsl

import anyio
import orjson
from fastapi import FastAPI, Query, Request, WebSocket, WebSocketDisconnect
from fastapi.exceptions import RequestValidationError
from fastapi.responses import HTMLResponse, JSONResponse, RedirectResponse, Response
from fastapi.staticfiles import StaticFiles
from fastapi.templating import Jinja2Templates
from pydantic import BaseModel, Field, StrictBool, StrictInt, ValidationError
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.requests import HTTPConnection

from .. import __version__
from . import chat, db
from .boards import board_words
from .catalog import broken_games, find_game, game_info, games, set_up_title
from .drivers import Drivers, Follower, from_any_thread, gate, until_changed, until_seq
from .help import help_page as game_help
from .hub import make_hub
from .limits import Guard, Limits, retry_after
from .movestore import AsyncMoveStore
from .tables import LiveTable, Seat, TableError, TableService, json_bytes, json_text, valid_name

log = logging.getLogger("tabletown.web")

HERE = Path(__file__).parent
MAX_BODY = 64 * 1024
MAX_WAIT = 30.0  # seconds a long poll (GET a table with seq and wait) may hold its answer
# A move whose seq is ahead of this process (the client saw the last move through another one)
# waits this long for the hub's news before the move reads the missing moves from the database.
CATCH_UP_WAIT = 0.05
COOKIE_PREFIX = "tt_"
ENV_BOTS = "TABLETOWN_BOTS"  # "external": bot workers (tabletown bots) run the bots, not the web processes
ENV_PUBLIC_URL = "TABLETOWN_PUBLIC_URL"  # the base of join links (tabletown serve --public-url)


# -- request bodies (their schema shows at /docs) ------------------------------------------------------
# Numbers are strict: ``seq: 0.0`` or ``"1"`` is refused, not read as 0 or 1.
class CreateTable(BaseModel):
    game: str = Field(max_length=64)
    options: dict[str, Any] = Field(default_factory=dict)
    seats: list[str] = Field(
        min_length=1,
        max_length=16,
        description='"human" (kept for its join link), "open" (anyone may sit from the lobby), "bot:NAME"',
    )
    seed: StrictInt | None = Field(
        default=None,
        description="only for practice: every seat is told the seed was chosen; default a secret seed",
    )
    turn_timer: StrictInt | None = Field(
        default=None, description="seconds a human has per decision; then a bot stands in"
    )
    # Names are checked by the table service (rule name.invalid), not here: pydantic would refuse
    # an unpaired surrogate with a generic error.
    names: list[Any] | None = Field(default=None, max_length=16)


class ActionBody(BaseModel):
    token: str | None = Field(default=None, max_length=128, description="or Authorization: Bearer")
    seat: StrictInt | None = Field(default=None, description="with the table's cookie instead of a token")
    seq: StrictInt
    action: str | StrictInt = Field(
        description="the move in the game's notation (or its number in the action space)"
    )


class JoinBody(BaseModel):
    token: str | None = Field(default=None, max_length=128)
    seat: StrictInt | None = None
    name: Any = Field(default=None, description="1-40 printable characters")
    back: StrictBool = True


class ChatBody(BaseModel):
    text: Any = Field(description="1-300 characters of plain text")
    seat: StrictInt | None = None
    token: str | None = Field(default=None, max_length=128)
    name: Any = Field(default=None, description="a spectator's name, 1-40 printable characters")


class SitBody(BaseModel):
    seat: StrictInt
    name: Any = Field(default=None, description="1-40 printable characters")


class ReplayBody(BaseModel):
    record: dict[str, Any]
    step: StrictInt = 0
    seat: StrictInt | None = None


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


# -- security headers and quiet logs ---------------------------------------------------------------------------
CSP = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; "
    "font-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"
)
SECURITY_HEADERS = [
    (b"content-security-policy", CSP.encode()),
    (b"x-frame-options", b"DENY"),
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"no-referrer"),  # join links carry a seat's token
]


class SecurityHeaders:
    """Add the security headers to every HTTP answer (pages, API, static files, errors)."""

    def __init__(self, app: Any) -> None:
        self.app = app

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def send_with_headers(message: Any) -> None:
            if message["type"] == "http.response.start":
                message = dict(message)
                message["headers"] = [*message.get("headers", ()), *SECURITY_HEADERS]
            await send(message)

        await self.app(scope, receive, send_with_headers)


TOKEN_IN_QUERY = re.compile(r"(token=)[^&\s\"]*", re.IGNORECASE)


class RedactTokens(logging.Filter):
    """Access logs never print a seat's token (join links and old clients put it in the query)."""

    def filter(self, record: logging.LogRecord) -> bool:
        if isinstance(record.args, tuple) and record.args:
            record.args = tuple(
                TOKEN_IN_QUERY.sub(r"\1[redacted]", arg) if isinstance(arg, str) else arg
                for arg in record.args
            )
        if isinstance(record.msg, str) and "token=" in record.msg.lower():
            record.msg = TOKEN_IN_QUERY.sub(r"\1[redacted]", record.msg)
        return True


def install_log_redaction() -> None:
    access = logging.getLogger("uvicorn.access")
    if not any(isinstance(f, RedactTokens) for f in access.filters):
        access.addFilter(RedactTokens())


# -- the short way for a game's two busiest requests ----------------------------------------------------------------
# GET a table (a view, or a long poll) and POST a move are nearly every request a playing client sends.
# FastAPI's full stack (middlewares, routing, parameter models, response classes) cost about 0.5 ms
# of CPU per request, five times the view itself: ``TabletownApp`` answers the plain cases of these
# two itself and hands anything else (a table not in memory, a first visit, a parameter or body
# that needs FastAPI's checks and error messages) to the full stack, which stays their documented form.
TABLE_PATH = re.compile(r"/api/tables/([A-Za-z0-9_-]{1,64})(/actions)?")
_QUICK_INT = re.compile(r"[0-9]{1,9}")
_QUICK_FLOAT = re.compile(r"[0-9]{1,3}(\.[0-9]{1,6})?")
_JSON_HEADERS = [(b"content-type", b"application/json"), *SECURITY_HEADERS]

Receive = Callable[[], Awaitable[Any]]
QuickHandler = Callable[[Any, Receive, Any, str, bool], Awaitable[Receive | None]]


class TabletownApp(FastAPI):
    """FastAPI, with ``quick`` (set by ``create_app``) tried first on the table paths: it answers
    and returns None, or returns the ``receive`` to hand the request on with (its body replayed)."""

    quick: QuickHandler | None = None

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        quick = self.quick
        if quick is not None and scope["type"] == "http":
            match = TABLE_PATH.fullmatch(scope["path"])
            if match is not None:
                receive = await quick(scope, receive, send, match[1], match[2] is not None)
                if receive is None:
                    return
        await super().__call__(scope, receive, send)


def quick_query(query_string: bytes) -> dict[str, Any] | None:
    """The GET-a-table parameters when every one is plainly valid (else None: FastAPI checks them)."""
    found: dict[str, Any] = {}
    for key, value in parse_qsl(query_string.decode("latin-1"), keep_blank_values=True):
        if key in found:
            return None
        if key == "token":
            if len(value) > 128:
                return None
            found[key] = value
        elif key in ("seat", "since", "seq"):
            if not _QUICK_INT.fullmatch(value) or (key == "seat" and int(value) > 64):
                return None
            found[key] = int(value)
        elif key == "wait":
            if not _QUICK_FLOAT.fullmatch(value) or float(value) > MAX_WAIT:
                return None
            found[key] = float(value)
    return found


async def send_quick(
    send: Any, status: int, body: bytes, extra: list[tuple[bytes, bytes]] | None = None
) -> None:
    headers = [(b"content-length", str(len(body)).encode()), *_JSON_HEADERS, *(extra or ())]
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": body})


async def send_error(send: Any, exc: TableError) -> None:
    extra = [(b"retry-after", retry_after(exc.retry_after).encode())] if exc.retry_after is not None else None
    await send_quick(send, exc.status, orjson.dumps(exc.to_json()), extra)


async def read_body(receive: Receive, limit: int) -> bytes | None:
    """The request body, or None when the client left or sent more than ``limit`` bytes."""
    body = bytearray()
    while True:
        message = await receive()
        if message["type"] == "http.disconnect":
            return None
        body += message.get("body", b"")
        if len(body) > limit:
            return None
        if not message.get("more_body"):
            return bytes(body)


def replaying(body: bytes, receive: Receive) -> Receive:
    """A ``receive`` that hands over ``body`` (already read) first."""
    done = False

    async def replay() -> Any:
        nonlocal done
        if not done:
            done = True
            return {"type": "http.request", "body": body, "more_body": False}
        return await receive()

    return replay


# -- the application ---------------------------------------------------------------------------------------------------
def create_app(
    db_url: str | None = None,
    *,
    bot_delay: float | None = None,
    bot_seconds: float | None = None,
    bot_workers: int | None = None,
    limits: Limits | None = None,
    redis_url: str | None = None,
    run_bots: bool | None = None,
    public_url: str | None = None,
) -> FastAPI:
    """The Tabletown server. ``db_url``: SQLAlchemy URL (default $TABLETOWN_DATABASE_URL, else the
    SQLite file tabletown.db in the working folder). ``bot_delay``: seconds a bot waits before moving
    at a table with humans (so they can follow); ``bot_seconds``: time limit of one bot decision;
    ``limits``: what one client may ask (default ``Limits.from_env()``); ``redis_url``: Redis for live
    updates between server processes (default $TABLETOWN_REDIS_URL; none: one process); ``run_bots``:
    whether this process runs the bots and turn timers (default: yes, unless $TABLETOWN_BOTS is
    "external", when bot workers (``tabletown bots``) do); ``public_url``: the address players reach
    the server at, the base of every join link (default $TABLETOWN_PUBLIC_URL, else the address and
    port the connection came in on; never the request's Host header, which a client may forge)."""
    url = db.resolve_url(db_url)
    public_base = (public_url or os.environ.get(ENV_PUBLIC_URL) or "").strip().rstrip("/") or None
    if bot_delay is None:
        bot_delay = float(os.environ.get("TABLETOWN_BOT_DELAY", "0"))
    if bot_seconds is None:
        bot_seconds = float(os.environ.get("TABLETOWN_BOT_SECONDS", "10"))
    if bot_workers is None:
        bot_workers = max(2, min(4, os.cpu_count() or 2))
    guard = Guard(limits if limits is not None else Limits.from_env())
    install_log_redaction()
    if run_bots is None:
        run_bots = os.environ.get(ENV_BOTS, "") != "external"

    @contextlib.asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        engine = db.make_engine(url)
        await anyio.to_thread.run_sync(db.migrate, engine)
        await anyio.to_thread.run_sync(games)  # import every game before the first request
        service = TableService(db.session_factory(engine))
        hub = await anyio.to_thread.run_sync(make_hub, redis_url)
        service.on_stored.append(hub.publish)
        service.shared = hub.shared
        service.async_store = AsyncMoveStore.for_engine(engine)
        drivers = Drivers(service, bot_delay, bot_seconds, bot_workers)
        drivers.loop = service.loop = asyncio.get_running_loop()
        if run_bots:
            service.on_new_table.append(drivers.start)
        app.state.engine = engine
        app.state.service = service
        app.state.drivers = drivers
        app.state.hub = hub
        await hub.start(Follower(service, drivers.start if run_bots else None).handle)
        tables = await anyio.to_thread.run_sync(service.load_unfinished)
        if run_bots:
            for table in tables:
                drivers.start(table)
        log.info(
            "Tabletown server ready on %s (%d unfinished tables, %s, bots %s)",
            engine.url.render_as_string(),
            len(tables),
            "Redis between processes" if hub.shared else "one process",
            "here" if run_bots else "in bot workers",
        )
        try:
            yield
        finally:
            await hub.stop()
            await drivers.stop()
            if service.async_store is not None:
                await service.async_store.close()
            engine.dispose()

    # No /docs page: FastAPI's Swagger UI loads from a CDN; the schema itself is at /openapi.json.
    app = TabletownApp(
        title="Tabletown",
        version=__version__,
        description="Play Tabletown's games in the browser: tables, seats, moves, live updates, replays.",
        lifespan=lifespan,
        docs_url=None,
        redoc_url=None,
    )
    app.state.guard = guard
    app.add_middleware(BodyLimit, limit=MAX_BODY)
    app.add_middleware(SecurityHeaders)
    app.mount("/static", StaticFiles(directory=HERE / "static"), name="static")
    templates = Jinja2Templates(directory=HERE / "templates")

    @app.exception_handler(TableError)
    async def _table_error(request: Request, exc: TableError) -> JSONResponse:
        headers = {"retry-after": retry_after(exc.retry_after)} if exc.retry_after is not None else None
        return JSONResponse(exc.to_json(), status_code=exc.status, headers=headers)

    @app.exception_handler(RequestValidationError)
    async def _invalid(request: Request, exc: RequestValidationError) -> JSONResponse:
        problems = []
        for error in exc.errors()[:10]:
            loc = ".".join(str(part) for part in error.get("loc", ()))
            problems.append(f"{loc}: {error.get('msg', 'invalid')}")
        return JSONResponse(
            {"rule": "request.invalid", "message": "; ".join(problems) or "invalid request"}, status_code=422
        )

    @app.exception_handler(StarletteHTTPException)
    async def _http_error(request: Request, exc: StarletteHTTPException) -> JSONResponse:
        # FastAPI answers a body it cannot parse (deeply nested JSON, say) with 400 {"detail"}: keep
        # the documented shape, and call a body that is not JSON a 422 like any other bad request.
        status = 422 if exc.status_code == 400 else exc.status_code
        rule = {404: "http.not_found", 405: "http.method", 422: "request.invalid"}.get(
            status, f"http.{status}"
        )
        message = exc.detail if isinstance(exc.detail, str) else "the request was refused"
        return JSONResponse({"rule": rule, "message": message}, status_code=status, headers=exc.headers)

    def service(request: Request | WebSocket) -> TableService:
        return request.app.state.service  # type: ignore[no-any-return]  # set by lifespan()

    def with_titles(summaries: list[dict[str, Any]]) -> list[dict[str, Any]]:
        """Each table's title as its set-up makes it ("Machi Koro" or "Machi Koro with Harbor")."""
        for summary in summaries:
            game = find_game(summary.get("game", ""))
            if game is not None:
                summary["title"] = set_up_title(game, len(summary.get("seats") or ()), summary.get("options"))
        return summaries

    def join_url(request: Request, table_id: str, token: str) -> str:
        return (public_base or server_base(request.scope)) + f"/t/{table_id}?token={token}"

    def client_address(request: Request | WebSocket) -> str:
        return request.client.host if request.client else "unknown"

    def credential(request: HTTPConnection, table: LiveTable, token: Any, seat: Any) -> str | None:
        """The seat token a request carries: ``Authorization: Bearer``, else the token it names,
        else (pages) the token of seat ``seat`` among those the table's HttpOnly cookie holds."""
        header = request.headers.get("authorization", "")
        if header[:7].lower() == "bearer ":
            return header[7:].strip()
        if isinstance(token, str) and token:
            return token
        if isinstance(seat, int) and not isinstance(seat, bool):
            for held in held_tokens(request, table):
                found = table.seat_for(held)
                if found is not None and found.seat == seat:
                    return held
            raise TableError(403, "seat.not_held", f"this browser holds no token for seat {seat}")
        return None

    def viewer(request: HTTPConnection, table: LiveTable, token: Any, seat: Any) -> Seat | None:
        """The seat a request speaks for (403 for a token of no seat), or None for a spectator."""
        held = credential(request, table, token, seat)
        if held is None:
            return None
        found = table.seat_for(held)
        if found is None:
            raise TableError(403, "seat.bad_token", "this token holds no seat at this table")
        return found

    def check_move_rate(token: str | None) -> None:
        if token:
            wait = guard.moves.take(token)
            if wait:
                raise TableError(429, "limit.moves", "too many moves: slow down", retry_after=wait)

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
        """Create a table; returns each reserved seat's token and join link (keep them secret). The
        seed is never returned: the commitment to it is, and the seed comes with the record at the end."""
        wait = guard.tables.take(client_address(request))
        if wait:
            raise TableError(429, "limit.tables", "too many new tables from this address", retry_after=wait)
        table = service(request).create(
            body.game, body.options, body.seats, body.seed, body.turn_timer, body.names
        )
        fair = table.fairness()
        return {
            "id": table.id,
            "game": table.game.name,
            "options": table.options,
            "seed_chosen": table.seed_chosen,
            "commitment": fair["commitment"],
            "seats": [
                {
                    "seat": s.seat,
                    "kind": s.kind,
                    "open": s.open,
                    "token": None if s.is_bot or s.open else s.token,
                    "join_url": None if s.is_bot or s.open else join_url(request, table.id, s.token),
                }
                for s in table.seats
            ],
        }

    @app.get("/api/tables", tags=["tables"])
    def list_tables(
        request: Request, status: str | None = Query(default=None, max_length=16)
    ) -> dict[str, Any]:
        """Tables by status: open (a seat anyone may take is free), running, finished."""
        svc = service(request)
        if status is not None:
            return {"tables": with_titles(svc.list(status))}
        return {name: with_titles(svc.list(name, 50)) for name in ("open", "running", "finished")}

    @app.get("/api/tables/{table_id}", tags=["tables"])
    async def get_table(
        table_id: str,
        request: Request,
        token: str | None = Query(default=None, max_length=128),
        seat: int | None = Query(default=None, ge=0, le=64),
        since: int = Query(default=0, ge=0),
        seq: int | None = Query(default=None, ge=0),
        wait: float = Query(default=0, ge=0, le=MAX_WAIT),
    ) -> Response:
        """The seat's view (the spectator's without a token) with ``seq``, ``to_act`` and ``legal``.

        A long poll for clients without a WebSocket: with ``seq`` (the moves the client has seen)
        and ``wait`` (seconds, at most 30) the answer comes when the table has moved on from ``seq``
        or anything else changed in it, else after ``wait`` seconds with the same position."""
        return Response(
            await table_view(service(request), request, table_id, token, seat, since, seq, wait),
            media_type="application/json",
        )

    async def table_view(
        svc: TableService,
        request: HTTPConnection,
        table_id: str,
        token: str | None,
        seat: int | None,
        since: int,
        seq: int | None,
        wait: float,
    ) -> bytes:
        def look() -> tuple[LiveTable, int | None]:
            table = svc.get(table_id)
            held = credential(request, table, token, seat)
            return table, svc.touch(table, held, back=False).seat if held is not None else None

        table = svc.held(table_id)
        number: int | None = None
        found = None if table is None else viewer(request, table, token, seat)
        if table is None or (found is not None and not found.joined):
            # Not in memory, or a player's first visit (stored): a thread may wait for the database.
            table, number = await anyio.to_thread.run_sync(look)
        elif found is not None:
            number = found.seat
        if wait and seq is not None:
            await until_changed(table, seq, wait)  # type: ignore[arg-type]  # held, or loaded by look()
        # In memory: microseconds, no thread needed. Sent as it is (no response model to check a
        # whole view against, no generic encoder walking it).
        return json_bytes(svc.payload(table, number, since))  # type: ignore[arg-type]  # as above

    @app.post("/api/tables/{table_id}/actions", tags=["tables"])
    async def post_action(table_id: str, body: ActionBody, request: Request) -> dict[str, Any]:
        """Make a move: 409 if ``seq`` is stale, 422 with the rule if the engine refuses it."""
        svc = service(request)
        # (mypy types ``x or await y`` as Optional; get raises rather than return None)
        table: LiveTable = svc.held(table_id) or await anyio.to_thread.run_sync(svc.get, table_id)  # type: ignore[assignment]
        return {"seq": await make_move(svc, request, table, body)}

    async def make_move(
        svc: TableService, request: HTTPConnection, table: LiveTable, body: ActionBody
    ) -> int:
        token = credential(request, table, body.token, body.seat)
        if token is None or table.seat_for(token) is None:
            raise TableError(403, "seat.bad_token", "this token holds no seat at this table")
        check_move_rate(token)
        await until_seq(table, body.seq, CATCH_UP_WAIT)
        async with gate(table):
            return await svc.act_on_loop(table, token, body.seq, body.action)

    async def quick(scope: Any, receive: Receive, send: Any, table_id: str, actions: bool) -> Receive | None:
        """``TabletownApp.quick``: GET a table in memory, POST a well-formed move to one."""
        svc: TableService | None = getattr(app.state, "service", None)
        if svc is None:
            return receive
        if not actions:
            query = quick_query(scope["query_string"]) if scope["method"] == "GET" else None
            if query is None or (table := svc.held(table_id)) is None:
                return receive
            request = HTTPConnection(scope)
            try:
                found = viewer(request, table, query.get("token"), query.get("seat"))
                if found is not None and not found.joined:
                    return receive
                body = await table_view(
                    svc,
                    request,
                    table_id,
                    query.get("token"),
                    query.get("seat"),
                    query.get("since", 0),
                    query.get("seq"),
                    query.get("wait", 0.0),
                )
            except TableError as exc:
                await send_error(send, exc)
                return None
            await send_quick(send, 200, body)
            return None
        if scope["method"] != "POST" or svc.held(table_id) is None:
            return receive
        request = HTTPConnection(scope)
        length = request.headers.get("content-length", "")
        if not length.isdigit() or int(length) > MAX_BODY:
            return receive
        if not request.headers.get("content-type", "").startswith("application/json"):
            return receive
        raw = await read_body(receive, MAX_BODY)
        if raw is None:
            return None  # the client left
        try:
            move = ActionBody.model_validate_json(raw)
        except ValidationError:
            return replaying(raw, receive)  # FastAPI's error, as documented
        table = svc.held(table_id)
        if table is None:
            return replaying(raw, receive)
        try:
            seq = await make_move(svc, request, table, move)
        except TableError as exc:
            await send_error(send, exc)
            return None
        await send_quick(send, 200, b'{"seq":%d}' % seq)
        return None

    app.quick = quick

    @app.post("/api/tables/{table_id}/join", tags=["tables"])
    async def join(table_id: str, body: JoinBody, request: Request) -> dict[str, Any]:
        """A seat's player arrives (or returns after their timer ran out) and may set a display name."""
        svc = service(request)
        table = await anyio.to_thread.run_sync(svc.get, table_id)
        token = credential(request, table, body.token, body.seat)
        if token is None or table.seat_for(token) is None:
            raise TableError(403, "seat.bad_token", "this token holds no seat at this table")
        check_move_rate(token)  # a new name is a database write: it counts like a move
        async with gate(table):
            seat = await anyio.to_thread.run_sync(lambda: svc.touch(table, token, body.name, back=body.back))
        return seat.public()

    # -- table chat (web/chat.py): seats and spectators, plain text, kept with the table ---------------------
    @app.get("/api/tables/{table_id}/chat", tags=["chat"])
    async def get_chat(table_id: str, request: Request) -> dict[str, Any]:
        """The table's last 100 chat messages, oldest first (new ones come over the WebSocket)."""
        svc = service(request)
        table = await anyio.to_thread.run_sync(svc.get, table_id)
        return {"messages": await anyio.to_thread.run_sync(chat.recent, svc, table.id)}

    @app.post("/api/tables/{table_id}/chat", tags=["chat"])
    async def post_chat(table_id: str, body: ChatBody, request: Request) -> dict[str, Any]:
        """Say something at the table: a seat (its credentials) or a spectator (marked as such); 422
        ``chat.invalid`` unless 1-300 characters, 429 ``limit.chat`` past the seat's (or the
        spectator address's) allowance."""
        svc = service(request)
        table = await anyio.to_thread.run_sync(svc.get, table_id)
        seat = viewer(request, table, body.token, body.seat)
        name = None if seat is not None or body.name is None else valid_name(body.name)
        key = f"{table.id}:{seat.seat}" if seat is not None else "address:" + client_address(request)
        wait = guard.chat.take(key)
        if wait:
            raise TableError(429, "limit.chat", "too many messages: slow down", retry_after=wait)
        seat_no = seat.seat if seat is not None else None
        return await anyio.to_thread.run_sync(chat.post, svc, table, seat_no, body.text, name)

    @app.post("/api/tables/{table_id}/sit", tags=["tables"])
    async def sit(table_id: str, body: SitBody, request: Request) -> Response:
        """Take an open seat (one the creator let anyone take); returns its new token and link."""
        svc = service(request)
        table = await anyio.to_thread.run_sync(svc.get, table_id)
        async with gate(table):
            seat = await anyio.to_thread.run_sync(svc.sit, table, body.seat, body.name)
            token = seat.token
        response = JSONResponse(
            {
                "seat": seat.seat,
                "kind": seat.kind,
                "token": token,
                "join_url": join_url(request, table.id, token),
            }
        )
        remember_token(request, response, table, token)
        return response

    @app.get("/api/tables/{table_id}/record", tags=["replays"])
    def get_record(
        table_id: str,
        request: Request,
        download: bool = False,
        token: str | None = Query(default=None, max_length=128),
        seat: int | None = Query(default=None, ge=0, le=64),
    ) -> Response:
        """The game record (the CLI's format: `tabletown replay FILE`) once the game is finished; before
        that, what the asking seat (or a spectator) has seen: no seed, no salt, other seats' secret
        moves withheld (``complete: false``)."""
        table = service(request).get(table_id)
        holder = viewer(request, table, token, seat)
        with table.lock:
            record = table.record_for(holder.seat if holder else None)
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
            try:
                holder = viewer(request, table, token, seat)
            except TableError:
                holder = None
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
        view = svc.replay_view(table, body.step, body.seat)
        view["title"] = set_up_title(table.game, table.num_players, table.options)
        return view

    # -- WebSocket --------------------------------------------------------------------------------------------
    @app.websocket("/ws/tables/{table_id}")
    async def table_socket(websocket: WebSocket, table_id: str) -> None:
        """Pushes the seat's payload (as GET returns it, events from ``since``) on every change.
        A client may also send ``{"type": "action", "seq", "action"}`` and gets an ``ack`` or an ``error``.
        The seat: ``Authorization: Bearer``, or ``?seat=N`` with the table's cookie (pages)."""
        svc = service(websocket)
        params = websocket.query_params
        try:
            since = max(0, int(params.get("since", "0")))
        except ValueError:
            since = 0
        seat_param = params.get("seat")
        try:
            table = await anyio.to_thread.run_sync(svc.get, table_id)
            seat_no = int(seat_param) if seat_param is not None and seat_param.isdigit() else None
            token = credential(websocket, table, params.get("token"), seat_no)
            seat = None
            if token:
                seat = (await anyio.to_thread.run_sync(lambda: svc.touch(table, token, back=True))).seat
        except TableError as exc:
            await websocket.close(code=4000 + exc.status, reason=exc.message[:100])
            return
        address = client_address(websocket)
        entered = enter_socket(table.id, address, seat is None)
        if entered is not None:
            await deny(websocket, entered)
            return
        try:
            await serve_socket(websocket, svc, table, token, seat, since)
        finally:
            leave_socket(table.id, address, seat is None)

    def enter_socket(table_id: str, address: str, spectator: bool) -> TableError | None:
        if not guard.table_sockets.enter(table_id):
            return TableError(429, "limit.table_sockets", "this table has too many connections", 30)
        if not guard.address_sockets.enter(address):
            guard.table_sockets.leave(table_id)
            return TableError(429, "limit.address_sockets", "too many connections from this address", 30)
        if spectator and not guard.spectators.enter(table_id):
            guard.table_sockets.leave(table_id)
            guard.address_sockets.leave(address)
            return TableError(429, "limit.spectators", "this table has as many spectators as it takes", 30)
        return None

    def leave_socket(table_id: str, address: str, spectator: bool) -> None:
        guard.table_sockets.leave(table_id)
        guard.address_sockets.leave(address)
        if spectator:
            guard.spectators.leave(table_id)

    async def deny(websocket: WebSocket, error: TableError) -> None:
        """Refuse a WebSocket with an HTTP 429 and Retry-After where the server supports it (the
        ASGI denial-response extension), else close it with code 4429."""
        headers = {"retry-after": retry_after(error.retry_after or 1)}
        if "websocket.http.response" in websocket.scope.get("extensions", {}):
            await websocket.send_denial_response(JSONResponse(error.to_json(), 429, headers=headers))
        else:
            await websocket.close(code=4429, reason=error.message[:100])

    async def serve_socket(
        websocket: WebSocket,
        svc: TableService,
        table: LiveTable,
        token: str | None,
        seat: int | None,
        since: int,
    ) -> None:
        await websocket.accept()
        queue: asyncio.Queue[Any] = asyncio.Queue()
        loop = asyncio.get_running_loop()

        # Pushes come from the fan-out thread or, for a move made on the loop, from the loop itself:
        # both append here under the table's lock, so the socket sends them in the order they were made.
        outbox: collections.deque[str] = collections.deque()

        def drain() -> None:
            while outbox:
                queue.put_nowait(outbox.popleft())

        def push(text: str) -> None:
            outbox.append(text)
            from_any_thread(loop, drain)

        sub, first = await anyio.to_thread.run_sync(svc.subscribe, table, seat, since, push)
        sending = asyncio.Lock()  # pushes and replies share the socket: one frame at a time

        async def sender() -> None:
            async with sending:
                await websocket.send_text(json_text({"type": "view", **first}))
            while True:
                text = await queue.get()
                async with sending:
                    await websocket.send_text(text)

        async def receiver() -> None:
            while True:
                try:
                    text = await websocket.receive_text()
                except (WebSocketDisconnect, RuntimeError):
                    return
                reply = await socket_message(svc, table, token, text)
                async with sending:
                    await websocket.send_text(json_text(reply))

        send_task = asyncio.create_task(sender())
        receive_task = asyncio.create_task(receiver())
        try:
            await asyncio.wait({send_task, receive_task}, return_when=asyncio.FIRST_COMPLETED)
        finally:
            for task in (send_task, receive_task):
                task.cancel()
                with contextlib.suppress(BaseException):
                    await task
            # The table's lock may be held by a thread building payloads: never wait for it here
            # (on the event loop); the subscriber is marked closed at once and removed in a thread.
            sub.closed = True
            loop.run_in_executor(None, svc.unsubscribe, table, sub)
            with contextlib.suppress(Exception):
                await websocket.close()

    async def socket_message(
        svc: TableService, table: LiveTable, token: str | None, text: str
    ) -> dict[str, Any]:
        message = parse_socket_message(text)
        if message.get("type") == "error":
            return message
        if token is None or table.seat_for(token) is None:
            return {
                "type": "error",
                "status": 403,
                "rule": "seat.bad_token",
                "message": "spectators cannot move",
            }
        try:
            check_move_rate(token)
            await until_seq(table, message.get("seq"), CATCH_UP_WAIT)
            async with gate(table):
                seq = await svc.act_on_loop(table, token, message.get("seq"), message.get("action"))
        except TableError as exc:
            reply = {"type": "error", "status": exc.status, **exc.to_json()}
            if exc.retry_after is not None:
                reply["retry_after"] = float(retry_after(exc.retry_after))
            return reply
        return {"type": "ack", "seq": seq}

    def remember_token(request: Request, response: Response, table: LiveTable, token: str) -> None:
        """Keep a seat's token in the table's cookie: HttpOnly (page scripts never see it), Lax."""
        held = [t for t in held_tokens(request, table) if t != token] + [token]
        response.set_cookie(
            COOKIE_PREFIX + table.id,
            ",".join(held[-16:]),
            max_age=90 * 86400,
            samesite="lax",
            httponly=True,
            secure=request.url.scheme == "https",
            path="/",
        )

    def held_tokens(request: HTTPConnection, table: LiveTable) -> list[str]:
        return [t for t in (request.cookies.get(COOKIE_PREFIX + table.id) or "").split(",") if t]

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
        if token is not None:
            # A join link: keep its token in the HttpOnly cookie and take it out of the address bar.
            if table.seat_for(token) is None:
                raise TableError(403, "seat.bad_token", "this link holds no seat at this table")
            response = RedirectResponse(f"/t/{table.id}", status_code=303)
            remember_token(request, response, table, token)
            return response
        context = {
            "table": table.summary(),
            "game_title": set_up_title(table.game, table.num_players, table.options),
            "held": held_seats(request, table),
            **board_assets(table.game.name),
        }
        return templates.TemplateResponse(request, "table.html", context)

    def held_seats(request: Request, table: LiveTable) -> list[dict[str, int]]:
        """The seats this browser holds, by number only: the tokens stay in the HttpOnly cookie."""
        seats = {s.seat for s in map(table.seat_for, held_tokens(request, table)) if s is not None}
        return [{"seat": seat} for seat in sorted(seats)]

    @app.get("/t/{table_id}/replay", response_class=HTMLResponse, include_in_schema=False)
    def replay_page(table_id: str, request: Request) -> Response:
        table = service(request).get(table_id)
        context = {
            "table": table.summary(),
            "game_title": set_up_title(table.game, table.num_players, table.options),
            "held": held_seats(request, table),
            "upload": False,
            **board_assets(table.game.name),
        }
        return templates.TemplateResponse(request, "replay.html", context)

    @app.get("/games/{game_name}/help", response_class=HTMLResponse, include_in_schema=False)
    def help_page(game_name: str, request: Request) -> Response:
        """A game's rules in short and every card, tile or place it has (web/help.py, from the
        engine's own data)."""
        found = find_game(game_name)
        if found is None:
            raise TableError(404, "game.unknown", f"no game called {game_name!r}")
        context = {"game_name": found.name, "game_title": found.title, **game_help(found.name)}
        return templates.TemplateResponse(request, "help.html", context)

    @app.get("/replay", response_class=HTMLResponse, include_in_schema=False)
    def upload_page(request: Request, game: str | None = Query(default=None, max_length=64)) -> Response:
        """Watch a record file. The page reads the file's game and comes back as ``/replay?game=NAME``
        (the record kept in the tab's sessionStorage), so the game's own board draws it."""
        found = find_game(game) if game else None
        context = {
            "table": None,
            "game_name": found.name if found else None,
            "game_title": found.title if found else "",
            "held": [],
            "upload": True,
            "board_js": None,
            "board_words": {},
            "board_template": "boards/generic.html",
            **(board_assets(found.name) if found else {}),
        }
        return templates.TemplateResponse(request, "replay.html", context)

    @app.get("/favicon.ico", include_in_schema=False)
    def favicon() -> Response:  # browsers ask for it without looking at the pages' <link rel="icon">
        return RedirectResponse("/static/favicon.svg", status_code=301)

    @app.get("/healthz", include_in_schema=False)
    async def health() -> dict[str, str]:  # on the event loop: it answers only while the loop is free
        return {"status": "ok"}

    return app


def app_from_env() -> FastAPI:
    """The application as ``serve --workers N`` starts it in each worker process (uvicorn's factory):
    every setting comes from the environment (TABLETOWN_DATABASE_URL, TABLETOWN_REDIS_URL,
    TABLETOWN_BOT_DELAY, TABLETOWN_BOTS, TABLETOWN_LIMIT_*)."""
    return create_app()


def server_base(scope: Any) -> str:
    """``scheme://host:port`` of the socket the server accepted the connection on (the ASGI scope's
    ``server``, which uvicorn takes from the socket): not the Host header, which the client chooses."""
    scheme = "https" if scope.get("scheme") in ("https", "wss") else "http"
    server = scope.get("server") or ("localhost", None)
    host, port = str(server[0]), server[1] if len(server) > 1 else None
    if ":" in host:  # an IPv6 address
        host = f"[{host}]"
    default = 443 if scheme == "https" else 80
    return f"{scheme}://{host}" + (f":{port}" if port and port != default else "")


def parse_socket_message(text: str) -> dict[str, Any]:
    """A WebSocket message as an action request, or the error to answer with."""
    if len(text) > MAX_BODY:
        return {"type": "error", "status": 413, **_too_large(MAX_BODY)}
    try:
        message = json.loads(text)
    except (ValueError, RecursionError):
        return {"type": "error", "status": 422, "rule": "request.json", "message": "not JSON"}
    if not isinstance(message, dict) or message.get("type") != "action":
        return {
            "type": "error",
            "status": 422,
            "rule": "request.type",
            "message": 'send {"type": "action", "seq", "action"}',
        }
    return message
