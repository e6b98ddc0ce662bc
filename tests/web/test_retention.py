"""``tabletown prune``: unfinished tables nobody touched for long are deleted with everything they
hold; finished games, and anything touched lately, are kept."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
import sqlalchemy as sa
from typer.testing import CliRunner
from web_helpers import create, wait_for

from tabletown.cli import app
from tabletown.web import db
from tabletown.web.retention import prune

NOW = datetime.now(UTC)


def made(client, moved=False):
    """A table of two people; with ``moved`` the first seat has banked once."""
    created = create(client, seats=["human", "human"])
    token = created["seats"][0]["token"]
    if moved:
        answer = client.post(
            f"/api/tables/{created['id']}/actions",
            json={"seq": 0, "action": "b"},
            headers={"authorization": f"Bearer {token}"},
        )
        assert answer.status_code == 200, answer.text
    return created, token


def quiet_for(engine, table_id: str, days: float) -> None:
    with engine.begin() as conn:
        conn.execute(
            sa.update(db.TableRow)
            .where(db.TableRow.id == table_id)
            .values(updated_at=NOW - timedelta(days=days))
        )


def rows(engine, table_id: str) -> dict[str, int]:
    with engine.connect() as conn:
        return {
            name: conn.execute(
                sa.text(f"SELECT count(*) FROM {name} WHERE table_id = :t"), {"t": table_id}
            ).scalar_one()
            for name in ("tt_seats", "tt_moves", "tt_chat")
        } | {
            "tt_tables": conn.execute(
                sa.text("SELECT count(*) FROM tt_tables WHERE id = :t"), {"t": table_id}
            ).scalar_one()
        }


@pytest.fixture(params=["sqlite", "postgresql"])
def database(request, tmp_path):
    """The URL of an empty database (SQLite, or a fresh PostgreSQL schema when one is configured)."""
    return request.getfixturevalue("sqlite_url" if request.param == "sqlite" else "pg_url")


@pytest.fixture
def engine(database):
    engine = db.make_engine(database)
    yield engine
    engine.dispose()


def test_quiet_unfinished_tables_go_with_everything_they_hold(database, engine, make_client):
    client = make_client(database)
    invitation, _ = made(client)  # never started
    fresh, _ = made(client)  # never started, but created lately
    left, token = made(client, moved=True)  # a game left after its first move
    said = client.post(f"/api/tables/{left['id']}/chat", json={"token": token, "text": "back soon"})
    assert said.status_code == 200, said.text
    playing, _ = made(client, moved=True)  # a game still played
    finished = create(client, seats=["bot:random", "bot:random"])
    wait_for(lambda: client.get(f"/api/tables/{finished['id']}").json()["over"])
    quiet_for(engine, invitation["id"], 8)
    quiet_for(engine, fresh["id"], 2)
    quiet_for(engine, left["id"], 61)
    quiet_for(engine, playing["id"], 30)
    quiet_for(engine, finished["id"], 400)
    before = rows(engine, left["id"])
    assert before["tt_moves"] == 1 and before["tt_chat"] == 1 and before["tt_seats"] == 2

    counted = prune(engine, dry_run=True)
    assert (counted.unstarted, counted.idle) == (1, 1)
    assert rows(engine, left["id"]) == before  # a dry run deletes nothing
    done = prune(engine)
    assert (done.unstarted, done.idle) == (1, 1)
    assert rows(engine, invitation["id"]) == {"tt_seats": 0, "tt_moves": 0, "tt_chat": 0, "tt_tables": 0}
    assert rows(engine, left["id"]) == {"tt_seats": 0, "tt_moves": 0, "tt_chat": 0, "tt_tables": 0}
    for kept in (fresh, playing, finished):
        assert rows(engine, kept["id"])["tt_tables"] == 1
    assert prune(engine).total == 0
    # 0 keeps a kind; the command says what it did
    quiet_for(engine, playing["id"], 100)
    assert prune(engine, idle_days=0).total == 0
    out = CliRunner().invoke(app, ["prune", "--db", database, "--idle-days", "90", "--dry-run"])
    assert out.exit_code == 0 and "would delete 1 tables" in out.output, out.output
    out = CliRunner().invoke(app, ["prune", "--db", database, "--idle-days", "90"])
    assert out.exit_code == 0 and "deleted 1 tables" in out.output, out.output
    assert rows(engine, playing["id"])["tt_tables"] == 0


def test_days_below_zero_are_refused(sqlite_url):
    engine = db.make_engine(sqlite_url)
    with pytest.raises(ValueError):
        prune(engine, idle_days=-1)


def test_a_table_deleted_while_a_process_holds_it_is_forgotten_there(database, engine, make_client):
    """A page open for weeks keeps its table in its process's memory; once pruned, the copy must
    not take moves it can never store (409 for ever) nor chat that breaks the foreign key (500)."""
    client = make_client(database)
    for step in ("move", "chat"):
        created, token = made(client)
        table, auth = created["id"], {"authorization": f"Bearer {token}"}
        assert client.get(f"/api/tables/{table}", headers=auth).status_code == 200  # held in memory
        quiet_for(engine, table, 8)
        assert prune(engine).unstarted == 1
        if step == "move":
            moved = client.post(f"/api/tables/{table}/actions", json={"seq": 0, "action": "b"}, headers=auth)
            assert moved.status_code in (404, 409), moved.text  # stale: the page looks again...
        else:
            said = client.post(f"/api/tables/{table}/chat", json={"token": token, "text": "still there?"})
            assert said.status_code == 404, said.text
        again = client.get(f"/api/tables/{table}", headers=auth)  # ... and learns the table is gone
        assert again.status_code == 404 and again.json()["rule"] == "table.not_found"
