"""The ASGI layer around the routes: the body limit, security headers, quiet access logs, and the
quick path for a game's two busiest requests (``TabletownApp``)."""

from __future__ import annotations

import json
import logging
import re
from collections.abc import Awaitable, Callable
from typing import Any
from urllib.parse import parse_qsl

import orjson
from fastapi import FastAPI

from .limits import retry_after
from .tables import TableError

MAX_BODY = 64 * 1024
MAX_WAIT = 30.0  # seconds a long poll (GET a table with seq and wait) may hold its answer
MAX_COUNT = 999_999_999  # the largest ``since`` (an event count) asked for: a payload echoes it as JSON


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
                    await _send_json(send, 413, too_large(self.limit))
                    return
        body = bytearray()
        while True:
            message = await receive()
            if message["type"] == "http.disconnect":
                return
            body += message.get("body", b"")
            if len(body) > self.limit:
                await _send_json(send, 413, too_large(self.limit))
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


def too_large(limit: int) -> dict[str, Any]:
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


# Answers other than the public files carry a seat's view, tokens, join links or a page that holds a
# seat: no cache (a shared proxy, a CDN or the browser's disk) may keep them, and a cache that does
# anyway must tell readers apart by their credentials (security audit 10: the page asks for its
# seat's view by a URL that is the same for every browser, the cookie telling whose it is).
PRIVATE_HEADERS = [(b"cache-control", b"no-store"), (b"vary", b"Cookie, Authorization")]
PUBLIC_PATHS = ("/static/", "/boards/")  # the same files for everyone: cached with their ETag


def with_security_headers(scope: Any, send: Any) -> Any:
    """``send`` adding the security headers to an HTTP answer (pages, API, static files, errors),
    and ``PRIVATE_HEADERS`` to every answer but the public files that sets no Cache-Control itself."""
    public = str(scope.get("path", "")).startswith(PUBLIC_PATHS)

    async def send_with_headers(message: Any) -> None:
        if message["type"] == "http.response.start":
            message = dict(message)
            headers = [*message.get("headers", ()), *SECURITY_HEADERS]
            if not public and not any(name.lower() == b"cache-control" for name, _ in headers):
                headers += PRIVATE_HEADERS
            message["headers"] = headers
        await send(message)

    return send_with_headers


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
    # uvicorn logs HTTP requests on "uvicorn.access" but WebSocket handshakes ('"WebSocket
    # /ws/tables/ID?token=..." [accepted]') on "uvicorn.error".
    for name in ("uvicorn.access", "uvicorn.error"):
        logger = logging.getLogger(name)
        if not any(isinstance(f, RedactTokens) for f in logger.filters):
            logger.addFilter(RedactTokens())


# -- the short way for a game's two busiest requests ----------------------------------------------------------------
# GET a table (a view, or a long poll) and POST a move are nearly every request a playing client sends.
# FastAPI's full stack (middlewares, routing, parameter models, response classes) cost about 0.5 ms
# of CPU per request, five times the view itself: ``TabletownApp`` answers the plain cases of these
# two itself and hands anything else (a table not in memory, a first visit, a parameter or body
# that needs FastAPI's checks and error messages) to the full stack, which stays their documented form.
TABLE_PATH = re.compile(r"/api/tables/([A-Za-z0-9_-]{1,64})(/actions)?")
_QUICK_INT = re.compile(r"[0-9]{1,9}")
_QUICK_FLOAT = re.compile(r"[0-9]{1,3}(\.[0-9]{1,6})?")
_JSON_HEADERS = [(b"content-type", b"application/json"), *SECURITY_HEADERS, *PRIVATE_HEADERS]

Receive = Callable[[], Awaitable[Any]]
QuickHandler = Callable[[Any, Receive, Any, str, bool], Awaitable[Receive | None]]


class TabletownApp(FastAPI):
    """FastAPI, with ``quick`` (set by ``create_app``) tried first on the table paths: it answers
    and returns None, or returns the ``receive`` to hand the request on with (its body replayed)."""

    quick: QuickHandler | None = None

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        quick = self.quick
        if quick is not None and scope["type"] == "http":
            scope["app"] = self  # (as Starlette sets it: request.app works in the quick path)
            match = TABLE_PATH.fullmatch(scope["path"])
            if match is not None:
                receive = await quick(scope, receive, send, match[1], match[2] is not None)
                if receive is None:
                    return
        if scope["type"] == "http":
            # Wrapped here, outside Starlette's ServerErrorMiddleware, so that a 500 carries the
            # headers too (a middleware added with add_middleware sits inside it).
            send = with_security_headers(scope, send)
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


async def send_error(send: Any, exc: TableError, lang: str = "en") -> None:
    extra = [(b"retry-after", retry_after(exc.retry_after).encode())] if exc.retry_after is not None else None
    await send_quick(send, exc.status, orjson.dumps(exc.to_json(lang)), extra)


async def read_body(receive: Receive, limit: int) -> bytes | None:
    """The request body, or None when the client left; TableError 413 past ``limit`` bytes (a body
    longer than its Content-Length said)."""
    body = bytearray()
    while True:
        message = await receive()
        if message["type"] == "http.disconnect":
            return None
        body += message.get("body", b"")
        if len(body) > limit:
            raise TableError(413, **too_large(limit))
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
