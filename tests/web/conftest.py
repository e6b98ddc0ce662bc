"""Fixtures of the web server tests: the toy game registered, a server on a temporary SQLite file
(or on PostgreSQL when TABLETOWN_TEST_POSTGRES_URL is set), and helpers to play through the API."""

from __future__ import annotations

import os
import sys
import uuid
from pathlib import Path

import pytest

HERE = str(Path(__file__).parent)
if HERE not in sys.path:
    sys.path.insert(0, HERE)

import web_toygame as toygame  # noqa: E402

from tabletown.core import registry  # noqa: E402

PG_ENV = "TABLETOWN_TEST_POSTGRES_URL"
REDIS_ENV = "TABLETOWN_TEST_REDIS_URL"


@pytest.fixture(autouse=True)
def toy():
    """The toy game (hidden hands, a simultaneous round) registered for each test, then removed."""
    registry.register(toygame.TOY)
    yield toygame.TOY
    registry._GAMES.pop(toygame.TOY.name, None)


@pytest.fixture
def sqlite_url(tmp_path):
    return f"sqlite:///{tmp_path / 'tabletown.db'}"


@pytest.fixture
def pg_url():
    """A fresh schema on the PostgreSQL server named by $TABLETOWN_TEST_POSTGRES_URL, dropped after."""
    base = os.environ.get(PG_ENV)
    if not base:
        pytest.skip(f"{PG_ENV} is not set")
    import sqlalchemy as sa

    schema = "tt_test_" + uuid.uuid4().hex[:12]
    admin = sa.create_engine(base)
    try:
        with admin.begin() as conn:
            conn.execute(sa.text(f'CREATE SCHEMA "{schema}"'))
    except Exception as exc:  # the variable is set, so a missing server is a failure
        admin.dispose()
        pytest.fail(f"cannot reach PostgreSQL at {base}: {exc}")
    sep = "&" if "?" in base else "?"
    yield f"{base}{sep}options=-csearch_path%3D{schema}"
    with admin.begin() as conn:
        conn.execute(sa.text(f'DROP SCHEMA "{schema}" CASCADE'))
    admin.dispose()


@pytest.fixture
def redis_url():
    url = os.environ.get(REDIS_ENV)
    if not url:
        pytest.skip(f"{REDIS_ENV} is not set (Redis for the multi-process tests)")
    import redis

    try:
        redis.Redis.from_url(url, socket_connect_timeout=5).ping()
    except Exception as exc:  # the variable is set, so a missing server is a failure
        pytest.fail(f"cannot reach Redis at {url}: {exc}")
    return url


@pytest.fixture
def make_client():
    """make_client(url, **app_kwargs) -> a started TestClient; all are closed at the end."""
    from fastapi.testclient import TestClient

    from tabletown.web.app import create_app
    from tabletown.web.limits import Limits

    clients = []

    def make(url, **kwargs):
        # The limits on clients have tests of their own (test_limits.py); elsewhere one test client
        # plays whole games as fast as it can.
        kwargs.setdefault("limits", Limits.off())
        client = TestClient(create_app(url, **kwargs))
        client.__enter__()
        clients.append(client)
        return client

    yield make
    for client in reversed(clients):
        client.__exit__(None, None, None)


@pytest.fixture
def client(make_client, sqlite_url):
    return make_client(sqlite_url)
