"""Run the server: ``serve(host, port, db_url)`` (what `tabletown serve` and `make run` call)."""

from __future__ import annotations

import argparse
import logging
import os

from .app import MAX_BODY, create_app

DEFAULT_HOST = "127.0.0.1"
DEFAULT_PORT = 8000


def serve(
    host: str = DEFAULT_HOST,
    port: int = DEFAULT_PORT,
    db_url: str | None = None,
    *,
    bot_delay: float | None = None,
) -> None:
    """Start uvicorn with the Tabletown app (blocks until stopped). Bots wait ``bot_delay`` seconds
    (default 0.5, or $TABLETOWN_BOT_DELAY) before moving at tables with humans, so people can follow."""
    import uvicorn

    logging.basicConfig(level=logging.INFO, format="%(levelname)s %(name)s: %(message)s")
    if bot_delay is None:
        bot_delay = float(os.environ.get("TABLETOWN_BOT_DELAY", "0.5"))
    app = create_app(db_url, bot_delay=bot_delay)
    shown = "localhost" if host in ("127.0.0.1", "0.0.0.0", "::") else host
    print(
        f"Tabletown is served at http://{shown}:{port}/  (API schema at /docs; Ctrl+C stops it)", flush=True
    )
    uvicorn.run(app, host=host, port=port, ws_max_size=MAX_BODY, log_level="warning", proxy_headers=False)


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
    args = parser.parse_args(argv)
    serve(args.host, args.port, args.db, bot_delay=args.bot_delay)


if __name__ == "__main__":
    main()
