"""The table WebSocket: pushes of the seat's payload on every change, and moves sent over it."""

from __future__ import annotations

import asyncio
import collections
import contextlib
import json
from typing import Any

import anyio
from fastapi import APIRouter, WebSocket, WebSocketDisconnect
from fastapi.responses import JSONResponse

from ...core.i18n import N_
from ..access import (
    charge_view_events,
    check_move_rate,
    client_address,
    credential,
    guard_of,
    open_table,
    service,
    with_fresh_seats,
)
from ..asgi import MAX_COUNT, too_large
from ..drivers import from_any_thread, gate, until_seq
from ..languages import request_language, ui_text
from ..limits import Counter, Guard, TokenBuckets, enter_off_loop, leave_from_loop, retry_after, take_off_loop
from ..live import Subscriber
from ..tables import LiveTable, TableError, TableService, json_text, playing_seat
from .tables import CATCH_UP_WAIT

# Pushes waiting for one socket: past this many the client is not reading and the socket is
# dropped (a player's page reconnects with ``since``). A move makes one push per socket.
MAX_QUEUED_PUSHES = 64
CLOSE_WAIT = 2.0  # seconds a close frame may wait for a socket that stopped reading

MAX_SEAT_DIGITS = 6  # a seat number longer than this is no seat (the REST routes take 0 to 64)
# A socket message is one move: its notation and seq fit in far less. Longer ones are refused
# before they are parsed (the frame limit is the 64 KB of a request body; parsing that much on the
# event loop took over a millisecond a message; security audit 29).
MAX_SOCKET_MESSAGE = 4096

router = APIRouter()


# -- the socket --------------------------------------------------------------------------------------------
@router.websocket("/ws/tables/{table_id}")
async def table_socket(websocket: WebSocket, table_id: str) -> None:
    """Pushes the seat's payload (as GET returns it, events from ``since``) on every change.
    A client may also send ``{"type": "action", "seq", "action"}`` and gets an ``ack`` or an ``error``.
    The seat: ``Authorization: Bearer``, or ``?seat=N`` with the table's cookie (pages)."""
    svc = service(websocket)
    address = client_address(websocket)
    guard = guard_of(websocket)
    # Before any database work: a seat's handshake stores that its player is back and announces
    # it to every process, and a client could open and close sockets without end (security audit 25).
    wait = await take_off_loop(guard.handshakes, address)
    if wait:
        await deny(
            websocket,
            TableError(
                429,
                "limit.handshakes",
                N_("too many connections opened from this address; wait a moment"),
                wait,
            ),
        )
        return
    params = websocket.query_params
    try:
        since = min(max(0, int(params.get("since", "0"))), MAX_COUNT)
    except ValueError:
        since = 0
    seat_param = params.get("seat")
    try:
        table = await open_table(websocket, table_id)
        # ASCII digits only: str.isdigit() also passes "²", which int() refuses (an unhandled error);
        # and int() refuses more than 4,300 digits (noticed by security audit 26).
        seat_no = None
        if seat_param is not None and seat_param.isascii() and seat_param.isdigit():
            if len(seat_param) > MAX_SEAT_DIGITS:
                raise TableError(422, "seat.number", N_("no such seat"))
            seat_no = int(seat_param)

        def check() -> str | None:
            token = credential(websocket, table, params.get("token"), seat_no)
            if token:
                playing_seat(table, token)  # an invitation must be redeemed first (POST .../join)
            return token

        token = await with_fresh_seats(websocket, table, check)
    except TableError as exc:
        await websocket.close(code=4000 + exc.status, reason=exc.message[:100])
        return
    # Counted before the seat is touched: a socket refused for being one too many must not have
    # written the seat's arrival to the database and announced it first.
    counted = socket_counts(guard, table.id, address, not token)
    full = await enter_off_loop(guard, *counted)
    if full is not None:
        await deny(websocket, socket_refusal(counted[full][0], guard))
        return
    try:
        held = table.seat_for(token) if token else None
        try:  # the first view is charged as a GET's is (security audit 30), before the seat is touched
            await charge_view_events(
                websocket, table, held.seat if held else None, since, request_language(websocket)
            )
        except TableError as exc:
            await deny(websocket, exc)
            return
        seat = None
        if token:
            try:
                seat = (await anyio.to_thread.run_sync(lambda: svc.touch(table, token, back=True)))[0].seat
            except TableError as exc:
                await websocket.close(code=4000 + exc.status, reason=exc.message[:100])
                return
        await serve_socket(websocket, svc, table, token, seat, since)
    finally:
        leave_from_loop(guard, *counted)


def socket_counts(guard: Guard, table_id: str, address: str, spectator: bool) -> list[tuple[Counter, str]]:
    """What one socket counts against: its table's sockets, its address's, and its table's
    spectators (a spectator); every server process's when they share Redis (``Guard.enter``)."""
    counted = [(guard.table_sockets, table_id), (guard.address_sockets, address)]
    if spectator:
        counted.append((guard.spectators, table_id))
    return counted


def socket_refusal(full: Counter, guard: Guard) -> TableError:
    if full is guard.table_sockets:
        return TableError(429, "limit.table_sockets", N_("this table has too many connections"), 30)
    if full is guard.address_sockets:
        return TableError(429, "limit.address_sockets", N_("too many connections from this address"), 30)
    return TableError(429, "limit.spectators", N_("this table has as many spectators as it takes"), 30)


async def deny(websocket: WebSocket, error: TableError) -> None:
    """Refuse a WebSocket with an HTTP 429 and Retry-After where the server supports it (the
    ASGI denial-response extension), else close it with code 4429."""
    headers = {"retry-after": retry_after(error.retry_after or 1)}
    if "websocket.http.response" in websocket.scope.get("extensions", {}):
        await websocket.send_denial_response(
            JSONResponse(error.to_json(request_language(websocket)), 429, headers=headers)
        )
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
    # A client that stops reading (its transport paused) must not make the server keep every push
    # for as long as it holds the connection: past MAX_QUEUED_PUSHES the socket is dropped, and a
    # real client reconnects with ``since`` and loses nothing (security audit 9).
    too_slow = asyncio.Event()
    subscribed: list[Subscriber] = []

    def drain() -> None:
        while outbox:
            queue.put_nowait(outbox.popleft())
        if queue.qsize() > MAX_QUEUED_PUSHES and not too_slow.is_set():
            too_slow.set()
            for sub in subscribed:
                sub.closed = True  # no more pushes to it
            while not queue.empty():
                queue.get_nowait()

    def push(text: str) -> None:
        if too_slow.is_set():
            return
        outbox.append(text)
        from_any_thread(loop, drain)

    lang = request_language(websocket)
    sub, first = await anyio.to_thread.run_sync(svc.subscribe, table, seat, since, push, lang)
    subscribed.append(sub)
    sending = asyncio.Lock()  # pushes and replies share the socket: one frame at a time

    async def sender() -> None:
        async with sending:
            await websocket.send_text(json_text({"type": "view", **first}))
        while True:
            text = await queue.get()
            async with sending:
                await websocket.send_text(text)

    # Messages a second on this socket, bursts of a few: the socket is closed past them (a page
    # sends one message a move; the handshake limit keeps a reconnecting flood slow).
    limits = guard_of(websocket).limits
    allowance = TokenBuckets(limits.socket_messages_per_second, limits.socket_messages_burst)

    async def receiver() -> None:
        while True:
            try:
                message = await websocket.receive()
            except (WebSocketDisconnect, RuntimeError):
                return
            if message["type"] == "websocket.disconnect":
                return
            if allowance.take("socket"):
                with contextlib.suppress(Exception):
                    await websocket.close(code=1008, reason="too many messages")
                return
            # A binary frame is read as UTF-8 text like a text frame (security audit 18:
            # receive_text() failed on one, and the socket closed without an answer).
            text = message.get("text")
            if text is None:
                text = (message.get("bytes") or b"").decode("utf-8", "replace")
            reply = await socket_message(websocket, svc, table, token, text)
            async with sending:
                await websocket.send_text(json_text(reply))

    send_task = asyncio.create_task(sender())
    receive_task = asyncio.create_task(receiver())
    slow_task = asyncio.create_task(too_slow.wait())
    try:
        await asyncio.wait({send_task, receive_task, slow_task}, return_when=asyncio.FIRST_COMPLETED)
    finally:
        for task in (send_task, receive_task, slow_task):
            task.cancel()
            with contextlib.suppress(BaseException):
                await task
        # The table's lock may be held by a thread building payloads: never wait for it here
        # (on the event loop); the subscriber is marked closed at once and removed in a thread.
        sub.closed = True
        loop.run_in_executor(None, svc.unsubscribe, table, sub)
        # Bounded: the close frame of a socket that stopped reading would wait for ever.
        with contextlib.suppress(Exception):
            await asyncio.wait_for(websocket.close(), CLOSE_WAIT)


async def socket_message(
    websocket: WebSocket, svc: TableService, table: LiveTable, token: str | None, text: str
) -> dict[str, Any]:
    message = parse_socket_message(text)
    if message.get("type") == "error":
        return message
    if token is None or table.seat_for(token) is None:
        return {
            "type": "error",
            "status": 403,
            "rule": "seat.bad_token",
            "message": ui_text(request_language(websocket), N_("spectators cannot move")),
        }
    try:
        await check_move_rate(websocket, token)
        await until_seq(table, message.get("seq"), CATCH_UP_WAIT)
        async with gate(table):
            seq = await svc.act_on_loop(table, token, message.get("seq"), message.get("action"))
    except TableError as exc:
        reply = {"type": "error", "status": exc.status, **exc.to_json(request_language(websocket))}
        if exc.retry_after is not None:
            reply["retry_after"] = float(retry_after(exc.retry_after))
        return reply
    return {"type": "ack", "seq": seq}


def parse_socket_message(text: str) -> dict[str, Any]:
    """A WebSocket message as an action request, or the error to answer with."""
    if len(text) > MAX_SOCKET_MESSAGE:
        return {"type": "error", "status": 413, **too_large(MAX_SOCKET_MESSAGE)}
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
