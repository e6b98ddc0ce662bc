"""Security audit 24 (2026-12-06): the per-request allowances shared in Redis, ``tabletown prune``,
names compared by how they look, the stored away flag, the turn clocks and the lobby's option words.

Found and closed (``test_hole_*``, each failing on the code as audited):

* *A long name took the event loop.* ``valid_name`` looked at a name (``name_key``: NFKD, which
  makes up to 18 letters of one, then a Python loop over every letter; ``_invisible`` over every
  letter) before refusing it as too long, and a name is as long as the request body (64 KiB). A
  spectator's chat line (``POST .../chat``, no token, its name checked on the event loop before
  the chat allowance) with a name of U+FDFA held the loop for most of a second: a few requests a
  second froze every table of the process. The length is now refused first.
* *A redeemed invitation cleared the seat's away flag.* ``touch`` stores "I'm back" before it looks
  at the seat under the write lock. A process that had not heard yet that another one redeemed an
  invitation still took it as the seat's token, and its holder (the table's creator saw every
  invitation) cleared the flag of a seat now somebody else's: the standby bot's moves for that
  away player were refused (``seat.back``) for as long as they kept asking. Only a seat joined in
  the process's memory is written: one not joined is never away.
* *Letters drawn as one stroke.* A dotless i, a click letter (U+01C0) and a few other stroke-like
  letters were not among the lookalikes: "Al\\u0131ce" and "A\\u01c0ice" were taken next to "Alice".
* *Prune deleted a table sat at a moment ago.* A seat taken (from the lobby, or an invitation
  redeemed) did not count as a change of the table: an open table a week in the lobby, sat at
  now, was "never started, quiet for 7 days" and went at the next ``tabletown prune``. Taking a
  seat now stamps the table's ``updated_at``.

Checked and sound: the Redis token bucket (keys are the process's own bucket names and the client's
address key or a table's seat, under a per-database prefix, each expiring once full; costs clamped
to 0..burst; Redis's own clock); prune's conditions are re-checked in its DELETE (a move stored
meanwhile keeps the table); the turn clocks and option words are built with ``el`` (text nodes).
"""

from __future__ import annotations

from datetime import timedelta

import pytest
import sqlalchemy as sa
from web_helpers import create

from tabletown.web import db, live
from tabletown.web.retention import prune
from tabletown.web.tables import TableError, TableService

TIMER = 30  # seconds; clocks are moved by hand, never waited out


def _service(url: str) -> TableService:
    """A server process's table service on the shared database, as with a Redis hub (``shared``)
    but with no hub: its news reaches nobody, as if still on its way (or lost)."""
    engine = db.make_engine(url)
    db.migrate(engine)
    service = TableService(db.session_factory(engine))
    service.shared = True
    return service


def _looked_at(monkeypatch) -> list[int]:
    """The lengths of the texts ``valid_name`` looks at letter by letter."""
    seen: list[int] = []
    name_key, invisible = live.name_key, live._invisible

    def counted_key(text: str) -> str:
        seen.append(len(text))
        return name_key(text)

    def counted_invisible(ch: str) -> bool:
        seen.append(1)
        return invisible(ch)

    monkeypatch.setattr(live, "name_key", counted_key)
    monkeypatch.setattr(live, "_invisible", counted_invisible)
    return seen


def test_hole_a_long_name_is_refused_before_it_is_looked_at(monkeypatch):
    seen = _looked_at(monkeypatch)
    with pytest.raises(TableError) as refused:
        live.valid_name("\ufdfa" * 20_000)  # each one 18 letters in NFKD
    assert refused.value.rule == "name.invalid"
    assert max(seen, default=0) <= live.MAX_NAME and sum(seen) <= 4 * live.MAX_NAME
    assert live.valid_name(" Alice  Smith ") == "Alice Smith"


def test_hole_a_spectators_long_name_in_chat_costs_the_loop_nothing(client, monkeypatch):
    created = create(client, seats=["human", "human"])
    seen = _looked_at(monkeypatch)
    answer = client.post(f"/api/tables/{created['id']}/chat", json={"text": "hi", "name": "\ufdfa" * 20_000})
    assert answer.status_code == 422 and answer.json()["rule"] == "name.invalid", answer.text
    assert sum(seen) <= 4 * live.MAX_NAME


@pytest.mark.parametrize("name", ["Al\u0131ce", "A\u01c0ice", "A\u0269ice", "A\u2223ice"])
def test_hole_a_stroke_letter_for_the_l_is_refused(client, name):
    created = create(client, seats=["human", "human"], seed=6)
    table_id, (t0, t1) = created["id"], [s["token"] for s in created["seats"][:2]]
    assert client.post(f"/api/tables/{table_id}/join", json={"token": t0, "name": "Alice"}).status_code == 200
    answer = client.post(f"/api/tables/{table_id}/join", json={"token": t1, "name": name})
    assert answer.status_code == 409 and answer.json()["rule"] == "name.taken", (name, answer.text)


def _away(url: str, table_id: str, seat: int) -> bool:
    engine = sa.create_engine(url)
    try:
        with engine.connect() as conn:
            return bool(
                conn.execute(
                    sa.text("SELECT away FROM tt_seats WHERE table_id = :t AND seat = :s"),
                    {"t": table_id, "s": seat},
                ).scalar_one()
            )
    finally:
        engine.dispose()


def test_hole_a_redeemed_invitation_does_not_bring_the_seat_back(pg_url):
    """Process B held the table before seat 0's invitation was redeemed through process A, and has
    not heard of it. The invitation's holder (the creator saw it) says "I'm back" with it to B
    while seat 0's player is away: refused, and the standby bot still plays for the away player."""
    a, b, worker = _service(pg_url), _service(pg_url), _service(pg_url)
    try:
        table = a.create("toyrace", None, ["human", "human"], 5, TIMER, None)
        invitation = table.seats[0].token
        stale = b.get(table.id)  # B holds the invitations
        for seat in table.seats:  # both players arrive through A (seat 0's invitation is redeemed)
            a.touch(table, seat.token)
        mine = worker.get(table.id)
        seat = mine.state.to_act[0]
        assert seat == 0
        mine.turn_since[seat] -= TIMER + 1
        worker.expire_timers(mine)  # seat 0's player is away
        assert _away(pg_url, table.id, 0)

        with pytest.raises(TableError):
            b.touch(stale, invitation, back=True)  # the old invitation, at the process that missed it

        assert _away(pg_url, table.id, 0)
        assert worker.commit(mine, seat, mine.state.legal_actions(seat)[0], "standby", mine.seq) == 1
    finally:
        for service in (a, b, worker):
            service.engine.dispose()


def test_hole_a_table_sat_at_a_moment_ago_is_not_pruned(sqlite_url, make_client):
    """An open table waits in the lobby for a week; a player sits down now and the game is about to
    begin. A seat taken used to leave the table's last change where it was, and prune deleted it."""
    client = make_client(sqlite_url)
    created = client.post("/api/tables", json={"game": "toyrace", "seats": ["human", "open"]}).json()
    engine = db.make_engine(sqlite_url)
    try:
        with engine.begin() as conn:
            conn.execute(
                sa.update(db.TableRow)
                .where(db.TableRow.id == created["id"])
                .values(updated_at=db.utcnow() - timedelta(days=8))
            )
        sat = client.post(f"/api/tables/{created['id']}/sit", json={"seat": 1, "name": "Bob"})
        assert sat.status_code == 200, sat.text
        assert prune(engine).total == 0
        assert client.get(f"/api/tables/{created['id']}").status_code == 200
    finally:
        engine.dispose()
