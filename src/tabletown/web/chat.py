"""Table chat: short plain-text messages from the seats and the spectators, kept with the table.

A message is 1-300 characters of text (NFC, no control characters; the page shows it with
``textContent``, never as HTML), stored in ``tt_chat`` (migration 0003) and pushed to every WebSocket
of the table as ``{"type": "chat", "id", "seat", "name", "spectator", "text", "at"}``; a page loads
the last 100 with ``GET /api/tables/{id}/chat``, and a table keeps only those (``KEPT``). With
several server processes the storing process announces the message on the hub (kind ``"chat"``)
and every other process that holds the table hands it to its own sockets (:func:`follow_chat`,
called by ``drivers.Follower``). A message is never part of a game's record or its views.
"""

from __future__ import annotations

import unicodedata
from datetime import datetime
from typing import Any

from sqlalchemy import DateTime, ForeignKey, Integer, String, Text, delete, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Mapped, mapped_column

from ..core.i18n import N_
from .db import Base, utcnow
from .live import not_found
from .tables import LiveTable, TableError, TableService, json_text

MAX_CHAT = 300  # characters of one message
# Characters before NFC and trimming may shrink it; a longer text is refused unread.
RAW_CHAT = 2 * MAX_CHAT
HISTORY = 100  # messages a page gets on load
# Messages a table keeps: nothing reads older ones, and a table's chat is open to every spectator
# for as long as the server runs (security audit 17: 60 a minute per address, never deleted).
KEPT = HISTORY
SPECTATOR_NAME = "Spectator"
HUB_KIND = "chat"


class ChatRow(Base):
    __tablename__ = "tt_chat"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    table_id: Mapped[str] = mapped_column(String(32), ForeignKey("tt_tables.id", ondelete="CASCADE"))
    seat: Mapped[int | None] = mapped_column(Integer, nullable=True)  # None: a spectator
    name: Mapped[str] = mapped_column(String(64))
    text: Mapped[str] = mapped_column(Text)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


def valid_text(text: Any) -> str:
    """A chat message: NFC, line breaks and tabs made spaces, no other control or format characters,
    1-300 characters once trimmed; else 422 ``chat.invalid``."""
    if not isinstance(text, str):
        raise TableError(422, "chat.invalid", N_("a message is a text"))
    if len(text) > RAW_CHAT:
        # Refused before NFC, which is quadratic in a run of combining marks (security audit 31).
        raise TableError(422, "chat.invalid", N_("a message is 1 to {limit} characters long"), limit=MAX_CHAT)
    clean = unicodedata.normalize("NFC", text).replace("\r\n", " ").replace("\n", " ").replace("\t", " ")
    clean = clean.strip()
    if any(unicodedata.category(ch) in ("Cc", "Cf", "Cs", "Co", "Cn") for ch in clean):
        raise TableError(422, "chat.invalid", N_("a message may hold only printable characters"))
    if not 1 <= len(clean) <= MAX_CHAT:
        raise TableError(422, "chat.invalid", N_("a message is 1 to {limit} characters long"), limit=MAX_CHAT)
    return clean


def as_message(row: ChatRow) -> dict[str, Any]:
    at = row.created_at
    return {
        "id": row.id,
        "seat": row.seat,
        "name": row.name,
        "spectator": row.seat is None,
        "text": row.text,
        "at": at.isoformat() if at is not None else None,
    }


def speaker_name(table: LiveTable, seat: int | None, name: str | None) -> str:
    """Who speaks: a seat by its player's name (people's words: core/words.py), a spectator by the
    name they gave (else "Spectator")."""
    if seat is None:
        return name or SPECTATOR_NAME
    from ..core.words import seat_display_names

    return seat_display_names([(s.kind, s.name) for s in table.seats])[seat]


def post(
    service: TableService, table: LiveTable, seat: int | None, text: Any, name: str | None = None
) -> dict[str, Any]:
    """Store a message (in a worker thread: it writes to the database), push it to this process's
    sockets of the table and announce it to the other processes. Returns the message."""
    clean = valid_text(text)
    row = ChatRow(table_id=table.id, seat=seat, name=speaker_name(table, seat, name), text=clean)
    try:
        with service.sessions() as session, session.begin():
            session.add(row)
            session.flush()
            message = as_message(row)
            _trim(session, table.id)
    except IntegrityError:  # the table was deleted (tabletown prune) while this process held it
        service.forget_deleted(table)
        raise not_found() from None
    deliver(table, message)
    service._stored(table.id, HUB_KIND, None, {"chat": message})
    return message


def _trim(session: Any, table_id: str) -> None:
    """Delete the table's messages older than its last ``KEPT`` (one indexed statement: the
    ``(table_id, id)`` index finds the cut, and a table with fewer has none)."""
    cut = (
        select(ChatRow.id)
        .where(ChatRow.table_id == table_id)
        .order_by(ChatRow.id.desc())
        .offset(KEPT)
        .limit(1)
        .scalar_subquery()
    )
    session.execute(delete(ChatRow).where(ChatRow.table_id == table_id, ChatRow.id <= cut))


def recent(service: TableService, table_id: str, limit: int = HISTORY) -> list[dict[str, Any]]:
    """The table's last ``limit`` messages, oldest first."""
    with service.sessions() as session:
        rows = session.scalars(
            select(ChatRow).where(ChatRow.table_id == table_id).order_by(ChatRow.id.desc()).limit(limit)
        ).all()
    return [as_message(row) for row in reversed(rows)]


def deliver(table: LiveTable, message: dict[str, Any]) -> None:
    """Push a message to every open WebSocket of the table in this process (seats and spectators)."""
    text = json_text({"type": "chat", **message})
    with table.lock:
        listeners = [sub for sub in table.subscribers if not sub.closed]
    for sub in listeners:
        try:
            sub.push(text)
        except Exception:  # a closing socket: the others still get it
            continue


def follow_chat(service: TableService, hub_message: dict[str, Any]) -> bool:
    """Another process stored a chat message (hub kind ``"chat"``): hand it to this process's sockets
    of that table, if it holds the table. True when the hub message was a chat message."""
    if hub_message.get("kind") != HUB_KIND:
        return False
    message = hub_message.get("chat")
    table = service.held(hub_message.get("table"))
    if table is not None and isinstance(message, dict):
        deliver(table, message)
    return True
