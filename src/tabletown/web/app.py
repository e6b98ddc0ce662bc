"""The FastAPI application: REST API, WebSocket pushes, pages, and the bots that play on the server.

``create_app(db_url)`` builds it; the database is migrated and every unfinished table rebuilt when
the application starts (its lifespan). The routes live in web/routes/ by resource (tables, chat,
replays, the socket, pages), who a request speaks for in web/access.py, and the ASGI layer (body
limit, security headers, the quick path) in web/asgi.py. The protocol is described in docs/server.md.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
from collections.abc import AsyncIterator, Mapping
from pathlib import Path

import anyio
from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, Response
from fastapi.staticfiles import StaticFiles
from starlette.exceptions import HTTPException as StarletteHTTPException

from .. import __version__
from ..core.i18n import N_
from . import db
from .analyses import Analyst
from .asgi import MAX_BODY, BodyLimit, RedactTokens, TabletownApp, install_log_redaction
from .catalog import games, warm_up
from .drivers import Drivers, Follower
from .hub import ENV_REDIS, make_hub
from .languages import request_language, ui_text
from .limits import Guard, Limits, SharedStore, keep_counts, retry_after, seconds_from_env
from .movestore import AsyncMoveStore
from .routes import chat, pages, replays, sockets, tables
from .tables import TableError, TableService

__all__ = ["ENV_BOTS", "ENV_PUBLIC_URL", "MAX_BODY", "RedactTokens", "app_from_env", "create_app"]

log = logging.getLogger("tabletown.web")

HERE = Path(__file__).parent
ENV_BOTS = "TABLETOWN_BOTS"  # "external": bot workers (tabletown bots) run the bots, not the web processes
ENV_PUBLIC_URL = "TABLETOWN_PUBLIC_URL"  # the base of join links (tabletown serve --public-url)


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
        bot_delay = seconds_from_env("TABLETOWN_BOT_DELAY", 0.0, allow_zero=True)
    if bot_seconds is None:
        bot_seconds = seconds_from_env("TABLETOWN_BOT_SECONDS", 10.0)
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
        await anyio.to_thread.run_sync(warm_up)
        service = TableService(db.session_factory(engine))
        hub = await anyio.to_thread.run_sync(make_hub, redis_url)
        service.on_stored.append(hub.publish)
        service.shared = hub.shared
        shared_limits = None
        if hub.shared:  # every process of this database counts a client's allowances together
            shared_limits = SharedStore(
                redis_url or os.environ[ENV_REDIS], engine.url.render_as_string(hide_password=True)
            )
            guard.share(shared_limits)
        # the process's share of open connections and running bot tables, written again while it lives
        counting = asyncio.get_running_loop().create_task(keep_counts(guard)) if shared_limits else None
        service.async_store = AsyncMoveStore.for_engine(engine)
        drivers = Drivers(service, bot_delay, bot_seconds, bot_workers)
        drivers.loop = service.loop = asyncio.get_running_loop()
        if run_bots:
            service.on_new_table.append(drivers.start)
            service.on_loaded.append(drivers.start)
            service.on_evicted.append(drivers.forget)
        app.state.engine = engine
        app.state.service = service
        app.state.drivers = drivers
        app.state.hub = hub
        follower = Follower(service, drivers.start if run_bots else None)
        await hub.start(follower.handle)
        # With other processes, a hub message can be lost (a process killed between storing a move
        # and announcing it): look for tables the database has moved past now and then.
        sweeping = asyncio.get_running_loop().create_task(follower.sweep()) if hub.shared else None
        # Only a process that drives the bots needs their tables at once; one whose bots run in
        # bot workers loads a table when a client asks for it (a restarted web worker used to
        # rebuild every bot table before serving, and then followed all their moves).
        tables = await anyio.to_thread.run_sync(service.load_unfinished) if run_bots else []
        analyst = Analyst(service, url) if run_bots else None
        app.state.analyst = analyst
        if run_bots:
            for table in tables:
                drivers.start(table)
            assert analyst is not None
            analyst.start()  # post-game analyses run where the bots do (web/analyses.py)
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
            if sweeping is not None:
                sweeping.cancel()
            await hub.stop()
            if counting is not None:
                counting.cancel()
            if shared_limits is not None:
                await anyio.to_thread.run_sync(guard.refresh)  # what is still open (nothing, mostly)
                shared_limits.close()
            await drivers.stop()
            if analyst is not None:
                await analyst.stop()
            if service.async_store is not None:
                await service.async_store.close()
            engine.dispose()

    # No /docs page: FastAPI's Swagger UI loads from a CDN; the schema itself is at /openapi.json.
    app = TabletownApp(
        # A JSON body must say so (FastAPI's default since 0.132, set here so it never depends on
        # the version): a body without a Content-Type is a no-cors request no preflight stopped.
        strict_content_type=True,
        # No redirect for a path with a slash added: Starlette's answer is an absolute URL built
        # from the request (plain http behind a TLS proxy), with a join link's token in it.
        redirect_slashes=False,
        title="Tabletown",
        version=__version__,
        description="Play Tabletown's games in the browser: tables, seats, moves, live updates, replays.",
        lifespan=lifespan,
        docs_url=None,
        redoc_url=None,
    )
    app.state.guard = guard
    app.add_middleware(BodyLimit, limit=MAX_BODY)
    app.state.public_base = public_base
    app.mount("/static", StaticFiles(directory=HERE / "static"), name="static")
    for routes in (tables.router, chat.router, replays.router, sockets.router, pages.router):
        app.include_router(routes)
    app.quick = tables.quick

    @app.exception_handler(TableError)
    async def _table_error(request: Request, exc: TableError) -> Response:
        headers = {"retry-after": retry_after(exc.retry_after)} if exc.retry_after is not None else None
        body = exc.to_json(request_language(request))
        return error_answer(request, exc.status, body, headers, exc.retry_after)

    @app.exception_handler(RequestValidationError)
    async def _invalid(request: Request, exc: RequestValidationError) -> Response:
        problems = []
        for error in exc.errors()[:10]:
            loc = ".".join(str(part) for part in error.get("loc", ()))
            problems.append(f"{loc}: {error.get('msg', 'invalid')}")
        body = {"rule": "request.invalid", "message": "; ".join(problems) or "invalid request"}
        return error_answer(request, 422, body)

    @app.exception_handler(Exception)
    async def _unexpected(request: Request, exc: Exception) -> Response:
        # Starlette logs the exception itself; the client learns nothing of it but the shape.
        body = {"rule": "server.error", "message": ui_text(request_language(request), SERVER_FAILED)}
        return error_answer(request, 500, body)

    @app.exception_handler(StarletteHTTPException)
    async def _http_error(request: Request, exc: StarletteHTTPException) -> Response:
        # FastAPI answers a body it cannot parse (deeply nested JSON, say) with 400 {"detail"}: keep
        # the documented shape, and call a body that is not JSON a 422 like any other bad request.
        status = 422 if exc.status_code == 400 else exc.status_code
        rule = {404: "http.not_found", 405: "http.method", 422: "request.invalid"}.get(
            status, f"http.{status}"
        )
        if status == 404:
            message = ui_text(request_language(request), NOT_FOUND)
        else:
            message = exc.detail if isinstance(exc.detail, str) else "the request was refused"
        return error_answer(request, status, {"rule": rule, "message": message}, exc.headers)

    return app


SERVER_FAILED = N_("the server failed; try again")
NOT_FOUND = N_("Not Found")
# The heading of an error page by its status (any other status: the last one).
ERROR_HEADINGS = {
    404: N_("Nothing here"),
    403: N_("Not yours to open"),
    429: N_("Too many requests"),
    500: N_("The server failed"),
}
REFUSED_HEADING = N_("The request was refused")
# Paths whose answers are data or files for scripts, never a page a person reads.
NOT_PAGES = ("/api/", "/static/", "/boards/", "/ws", "/healthz", "/openapi.json")


def wants_page(request: Request) -> bool:
    """Whether a person's browser asked for this address itself: a page (not the API, a socket, a
    script or a stylesheet) requested with HTML among what it accepts, as navigation asks."""
    return not request.url.path.startswith(NOT_PAGES) and "text/html" in request.headers.get("accept", "")


def error_answer(
    request: Request,
    status: int,
    body: dict[str, str],
    headers: Mapping[str, str] | None = None,
    wait: float | None = None,
) -> Response:
    """A refusal in the documented JSON shape (``{"rule", "message"}``), or, to a browser opening a
    page, the same refusal as a page of the site's own (a table that does not exist, a limit reached)
    with a way back to the lobby rather than raw JSON."""
    if not wants_page(request):
        return JSONResponse(body, status_code=status, headers=headers)
    lang = request_language(request)
    context = {
        "heading": ui_text(lang, ERROR_HEADINGS.get(status, REFUSED_HEADING)),
        "message": body["message"],
        "rule": body["rule"],
        "retry_after": retry_after(wait) if wait is not None else None,
    }
    return pages.templates.TemplateResponse(
        request, "error.html", context, status_code=status, headers=headers
    )


def app_from_env() -> FastAPI:
    """The application as ``serve --workers N`` starts it in each worker process (uvicorn's factory):
    every setting comes from the environment (TABLETOWN_DATABASE_URL, TABLETOWN_REDIS_URL,
    TABLETOWN_BOT_DELAY, TABLETOWN_BOTS, TABLETOWN_LIMIT_*)."""
    return create_app()
