"""Table chat (web/chat.py): seats and spectators, plain text, kept with the table."""

from __future__ import annotations

from typing import Any

import anyio
from fastapi import APIRouter, Request
from pydantic import BaseModel, Field, StrictInt

from ...core.i18n import N_
from .. import chat
from ..access import client_address, guard_of, open_table, service, viewer, with_fresh_seats
from ..limits import take_off_loop
from ..live import valid_name
from ..tables import TableError

router = APIRouter()


class ChatBody(BaseModel):
    text: Any = Field(description="1-300 characters of plain text")
    seat: StrictInt | None = None
    token: str | None = Field(default=None, max_length=128)
    name: Any = Field(default=None, description="a spectator's name, 1-40 printable characters")


# -- table chat (web/chat.py): seats and spectators, plain text, kept with the table ---------------------
@router.get("/api/tables/{table_id}/chat", tags=["chat"])
async def get_chat(table_id: str, request: Request) -> dict[str, Any]:
    """The table's last 100 chat messages, oldest first (new ones come over the WebSocket)."""
    svc = service(request)
    table = await open_table(request, table_id)
    return {"messages": await anyio.to_thread.run_sync(chat.recent, svc, table.id)}


@router.post("/api/tables/{table_id}/chat", tags=["chat"])
async def post_chat(table_id: str, body: ChatBody, request: Request) -> dict[str, Any]:
    """Say something at the table: a seat (its credentials) or a spectator (marked as such); 422
    ``chat.invalid`` unless 1-300 characters, 429 ``limit.chat`` past the seat's (or the
    spectator address's) allowance."""
    svc = service(request)
    table = await open_table(request, table_id)
    seat = await with_fresh_seats(request, table, lambda: viewer(request, table, body.token, body.seat))
    address = client_address(request)
    key = f"{table.id}:{seat.seat}" if seat is not None else "address:" + address
    guard = guard_of(request)
    wait = await take_off_loop(guard.chat, key)
    if not wait and seat is not None:  # a seat's message also counts for its address
        wait = await take_off_loop(guard.address_chat, address)
    if wait:
        raise TableError(429, "limit.chat", N_("too many messages: slow down"), retry_after=wait)
    # A spectator's name is read once the message is paid for (security audit 31).
    name = None if seat is not None or body.name is None else valid_name(body.name)
    seat_no = seat.seat if seat is not None else None
    return await anyio.to_thread.run_sync(chat.post, svc, table, seat_no, body.text, name)
