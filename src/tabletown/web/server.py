"""Run the server: ``serve(host, port, db_url)`` (what `tabletown serve` and `make run` call).

One process without Redis (the embedded default) runs the bots itself. With Redis (``redis_url`` or
$TABLETOWN_REDIS_URL) the web processes (``workers`` of them on one port) share live updates through
Redis and the bots run in a bot worker process, which ``serve`` starts and restarts itself unless
``external_bots`` says that bot workers run elsewhere (``tabletown bots``).
"""

from __future__ import annotations

import argparse
import ipaddress
import logging
import os
import socket
import subprocess
import sys
import threading
from collections.abc import Callable
from typing import Any
from urllib.parse import urlsplit

from . import db
from .app import ENV_BOTS, ENV_PUBLIC_URL, MAX_BODY, create_app
from .hub import ENV_REDIS

DEFAULT_HOST = "127.0.0.1"
DEFAULT_PORT = 8000
# seconds a thread holds the interpreter lock while another waits, when bots think in the web process
BOTS_INSIDE_SWITCH_INTERVAL = 0.001


class ConfigError(ValueError):
    """Settings that cannot work together (``tabletown serve`` shows the message)."""


WILDCARD_HOSTS = ("0.0.0.0", "::", "")

ENV_TRUSTED_PROXIES = "TABLETOWN_TRUSTED_PROXIES"


def check_public_url(url: str) -> str:
    """``url`` as the base of every link the server hands out (no trailing slash), or ConfigError."""
    parts = urlsplit(url.strip())
    if parts.scheme not in ("http", "https") or not parts.hostname or parts.query or parts.fragment:
        raise ConfigError(f"--public-url must look like http://my-pc:8000, not {url!r}")
    try:
        parts.port  # noqa: B018  (a bad port raises here)
    except ValueError:
        raise ConfigError(f"--public-url has a bad port: {url!r}") from None
    return url.strip().rstrip("/")


def check_trusted_proxies(text: str) -> str:
    """``text`` (addresses or networks, separated by commas) as uvicorn's ``forwarded_allow_ips``,
    "" for none, or ConfigError. Behind a load balancer every request comes from the balancer, so
    the per-address limits would count all clients together; naming the balancer lets the server
    read the client's address from the header the balancer adds. "*" is refused: it would believe
    the header from anyone, and a client could then pick a new address for every request."""
    entries = [entry.strip() for entry in text.split(",") if entry.strip()]
    for entry in entries:
        try:
            ipaddress.ip_network(entry, strict=False)
        except ValueError:
            raise ConfigError(
                f"--trusted-proxies takes the balancers' addresses or networks (10.0.0.5, 10.0.0.0/24), not {entry!r}"
            ) from None
    return ",".join(entries)


def lan_address() -> str:
    """This machine's address on its network (the interface its default route leaves by; nothing
    is sent), else its host name."""
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        try:
            probe.connect(("192.0.2.1", 9))  # TEST-NET-1: a UDP "connect" only picks the interface
            address = probe.getsockname()[0]
        except OSError:
            address = ""
    return address if address and not address.startswith(("0.", "127.")) else socket.gethostname()


def default_public_url(host: str, port: int) -> str:
    """The links' base when no public URL is given: the address the server listens on, or for a
    wildcard address (0.0.0.0, ::) this machine's network address."""
    name = lan_address() if host in WILDCARD_HOSTS else host
    if ":" in name:  # an IPv6 address
        name = f"[{name}]"
    return f"http://{name}:{port}"


def serve(
    host: str = DEFAULT_HOST,
    port: int = DEFAULT_PORT,
    db_url: str | None = None,
    *,
    bot_delay: float | None = None,
    redis_url: str | None = None,
    workers: int = 1,
    external_bots: bool = False,
    public_url: str | None = None,
    trusted_proxies: str | None = None,
) -> None:
    """Start uvicorn with the Tabletown app (blocks until stopped). Bots wait ``bot_delay`` seconds
    (default 0.5, or $TABLETOWN_BOT_DELAY) before moving at tables with humans, so people can follow.
    ``public_url`` (default $TABLETOWN_PUBLIC_URL, else ``http://HOST:PORT``) is the address players
    reach the server at: every join link is built from it, never from a request's Host header.
    ``trusted_proxies`` (default $TABLETOWN_TRUSTED_PROXIES): the load balancers' addresses or
    networks whose X-Forwarded-For and X-Forwarded-Proto headers are believed (see
    :func:`check_trusted_proxies`)."""
    import uvicorn

    from .protocols import BoundedHttpToolsProtocol, BoundedWebSocketProtocol

    logging.basicConfig(level=logging.INFO, format="%(levelname)s %(name)s: %(message)s")
    logging.getLogger("alembic").setLevel(logging.WARNING)
    if bot_delay is None:
        bot_delay = float(os.environ.get("TABLETOWN_BOT_DELAY", "0.5"))
    redis_url = redis_url or os.environ.get(ENV_REDIS) or None
    url = db.resolve_url(db_url)
    if workers < 1:
        raise ConfigError("--workers must be 1 or more")
    if workers > 1 and not redis_url:
        raise ConfigError("several web processes share live updates through Redis: give --redis URL too")
    if external_bots and not redis_url:
        raise ConfigError("bot workers elsewhere need Redis to hear of moves: give --redis URL too")
    public_url = check_public_url(
        public_url or os.environ.get(ENV_PUBLIC_URL) or default_public_url(host, port)
    )
    proxies = check_trusted_proxies(trusted_proxies or os.environ.get(ENV_TRUSTED_PROXIES) or "")
    options: dict[str, Any] = {
        "host": host,
        "port": port,
        "ws_max_size": MAX_BODY,
        "log_level": "warning",
        # httptools as uvicorn[standard] picks it, with a bounded request head (web/protocols.py).
        "http": BoundedHttpToolsProtocol,
        "ws": BoundedWebSocketProtocol,  # uvicorn's own, with a budget of pings
        # Off unless the operator names the balancers: a header anyone can send would otherwise
        # let each request claim a new client address and pass every per-address limit.
        "proxy_headers": bool(proxies),
    }
    if proxies:
        options["forwarded_allow_ips"] = proxies
    if not redis_url:  # the embedded default: one process, bots inside
        # The bots' threads share the interpreter lock with the event loop that answers everyone,
        # which waits up to a switch interval for it at each step of a request: one address's four
        # bot-only tables of searching bots took /healthz from 3.4 to 26 ms at the median (82 ms at
        # p90); at 1 ms instead of 5, 10.6 ms (24 ms), for a little of the bots' speed (security
        # audit 33). Bots apart from the web process (``--redis``) avoid the contention altogether.
        sys.setswitchinterval(BOTS_INSIDE_SWITCH_INTERVAL)
        app = create_app(url, bot_delay=bot_delay, public_url=public_url)
        print(
            f"Tabletown is served at {public_url}/  (API schema at /openapi.json; Ctrl+C stops it)",
            flush=True,
        )
        uvicorn.run(app, **options)
        return
    # Migrate once, before any web process or bot worker starts (they would queue on the lock).
    engine = db.make_engine(url)
    db.migrate(engine)
    engine.dispose()
    os.environ.update(
        {
            db.ENV_URL: url,
            ENV_REDIS: redis_url,
            ENV_BOTS: "external",
            "TABLETOWN_BOT_DELAY": str(bot_delay),
            ENV_PUBLIC_URL: public_url,
        }
    )
    stop_bots = None if external_bots else start_bot_worker(url, redis_url, bot_delay)
    print(
        f"Tabletown is served at {public_url}/ by {workers} web process(es) with Redis at "
        f"{redis_url}; bots in {'bot workers elsewhere' if external_bots else 'a bot worker'} (Ctrl+C stops it)",
        flush=True,
    )
    try:
        uvicorn.run("tabletown.web.app:app_from_env", factory=True, workers=workers, **options)
    finally:
        if stop_bots is not None:
            stop_bots()


def start_bot_worker(db_url: str, redis_url: str, bot_delay: float) -> Callable[[], None]:
    """Start ``tabletown bots`` (one worker) beside the web processes; returns a function that stops it."""
    from .botworker import worker_command, worker_environment

    command = [
        sys.executable,
        "-m",
        "tabletown.web.botworker",
        "--supervise",
        "1",
        "--parent",
        str(os.getpid()),
    ]
    command += worker_command(0, 1, bot_delay)[3:]
    worker_environment(db_url, redis_url)  # not on the command line, where ``ps`` shows passwords
    process = subprocess.Popen(command)
    done = threading.Event()

    def stop() -> None:
        done.set()
        if process.poll() is None:
            process.terminate()
            try:
                process.wait(15)
            except subprocess.TimeoutExpired:
                process.kill()

    return stop


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(
        prog="python -m tabletown.web.server", description="Run the Tabletown game server."
    )
    parser.add_argument("--host", default=DEFAULT_HOST)
    parser.add_argument("--port", type=int, default=DEFAULT_PORT)
    parser.add_argument(
        "--db", default=None, help="SQLAlchemy URL (default $TABLETOWN_DATABASE_URL or ./tabletown.db)"
    )
    parser.add_argument("--bot-delay", type=float, default=None)
    parser.add_argument("--redis", default=None, help="Redis URL: several processes share live updates")
    parser.add_argument("--workers", type=int, default=1, help="web processes on this port (needs --redis)")
    parser.add_argument("--external-bots", action="store_true", help="bot workers run elsewhere")
    parser.add_argument(
        "--trusted-proxies",
        default=None,
        help="load balancers (addresses or networks, comma-separated) whose X-Forwarded-For is believed "
        "(default $TABLETOWN_TRUSTED_PROXIES)",
    )
    parser.add_argument(
        "--public-url",
        default=None,
        help="address players reach the server at, for join links (default $TABLETOWN_PUBLIC_URL, "
        "else http://HOST:PORT)",
    )
    args = parser.parse_args(argv)
    try:
        # Alike by shape to bench.py's main passing its options on purpose: each command its own.
        serve(
            args.host,
            args.port,
            args.db,
            bot_delay=args.bot_delay,
            redis_url=args.redis,
            workers=args.workers,
            external_bots=args.external_bots,
            public_url=args.public_url,
            trusted_proxies=args.trusted_proxies,
        )
    except ConfigError as exc:
        parser.error(str(exc))


if __name__ == "__main__":
    main()
