"""uvicorn's HTTP and WebSocket protocols with bounds uvicorn does not set (security audits 31, 32).

*The HTTP request head* (audit 31).
uvicorn sets no limit on the request line and headers when it parses with httptools (its h11 parser
has one, but is several times slower): one connection sending a header that never ends made the
server hold hundreds of megabytes until the client hung up, and a few megabytes of Accept-Language or
Cookie cost the event loop a third of a second to read. ``BoundedHttpToolsProtocol`` counts the bytes
of each request's head and answers 431 past ``MAX_HEAD``, and closes a connection whose head is not
complete ``HEAD_SECONDS`` after its first byte (a head sent a byte at a time holds a connection as
long as it likes otherwise). Bodies are bounded by the app (``asgi.BodyLimit``), socket messages by
``ws_max_size``.

*WebSocket pings* (audit 32). A ping frame is not a message, so the per-socket allowance of messages
never saw one, and uvicorn answers each with a pong written to the socket whether or not the peer
reads: a client sending pings without reading made the server buffer 130 MB in five seconds (held
until it hung up) and spend 5 µs a ping on the event loop. ``BoundedWebSocketProtocol`` lets a socket
ping ``PINGS_PER_SECOND`` times a second (bursts of ``PING_BURST``; browsers never ping, they only
answer the server's keep-alive pings) and drops a socket past that, or one that pings while its
pongs are not being read, at once (an abort: a close would wait to send to a peer that never reads).
"""

from __future__ import annotations

import asyncio
from typing import Any

from uvicorn.protocols.http.httptools_impl import STATUS_LINE, HttpToolsProtocol
from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol
from websockets.frames import Frame, Opcode

# Bytes of a request line and its headers: browsers send 1-4 KiB (cookies of a few tables included);
# nginx answers 400 past 32 KiB by default, h11 past 16 KiB.
MAX_HEAD = 32 * 1024
HEAD_SECONDS = 15.0  # from a request's first byte to the end of its headers
PINGS_PER_SECOND = 2.0  # pings a client may send on one socket
PING_BURST = 10


class BoundedHttpToolsProtocol(HttpToolsProtocol):
    """HttpToolsProtocol refusing a head over ``MAX_HEAD`` bytes (431) or slower than ``HEAD_SECONDS``."""

    max_head = MAX_HEAD
    head_seconds = HEAD_SECONDS

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._reading_head = True  # between requests, the next bytes begin a head
        self._head_bytes = 0
        self._head_timer: asyncio.TimerHandle | None = None

    def data_received(self, data: bytes) -> None:
        if self._reading_head:
            self._head_bytes += len(data)
        super().data_received(data)
        # Checked after parsing: a chunk may hold a whole head and the start of its body, which is
        # counted above but lets the headers complete. The parser's buffer is bounded by this check
        # plus one read (asyncio reads at most 256 KiB at a time).
        if self._reading_head and self._head_bytes > self.max_head and not self.transport.is_closing():
            self._refuse(431, b"request header fields too large")

    def on_message_begin(self) -> None:
        super().on_message_begin()
        self._cancel_head_timer()
        self._head_timer = self.loop.call_later(self.head_seconds, self._head_too_slow)

    def on_headers_complete(self) -> None:
        self._reading_head = False
        self._cancel_head_timer()
        super().on_headers_complete()

    def on_message_complete(self) -> None:
        super().on_message_complete()
        self._reading_head = True
        self._head_bytes = 0

    def connection_lost(self, exc: Exception | None) -> None:
        self._cancel_head_timer()
        super().connection_lost(exc)

    def _cancel_head_timer(self) -> None:
        if self._head_timer is not None:
            self._head_timer.cancel()
            self._head_timer = None

    def _head_too_slow(self) -> None:
        self._head_timer = None
        if self._reading_head and not self.transport.is_closing():
            self._refuse(408, b"request head too slow")

    def _refuse(self, status: int, message: bytes) -> None:
        self._cancel_head_timer()
        self.transport.write(
            b"".join(
                [
                    STATUS_LINE[status],
                    b"content-type: text/plain; charset=utf-8\r\n",
                    b"content-length: " + str(len(message)).encode("ascii") + b"\r\n",
                    b"connection: close\r\n\r\n",
                    message,
                ]
            )
        )
        self.transport.close()


class BoundedWebSocketProtocol(WebSocketsSansIOProtocol):
    """uvicorn's WebSocket protocol (``ws="auto"`` with websockets installed) with a budget of pings."""

    pings_per_second = PINGS_PER_SECOND
    ping_burst = PING_BURST

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._pings = float(self.ping_burst)
        self._pings_at = self.loop.time()

    def data_received(self, data: bytes) -> None:
        # uvicorn's data_received with the budget checked between parsing and answering: the parser
        # queues a pong for every ping it reads, and the first ping answered would send them all.
        self.conn.receive_data(data)
        if not self._pings_allowed():
            self.drop()
            return
        if self.conn.parser_exc is not None:
            self.handle_parser_exception()
            return
        if self.conn.handshake_exc is not None and not self.handshake_initiated:
            self.handle_handshake_exception()
            return
        self.handle_events()

    def _pings_allowed(self) -> bool:
        """Spend the budget on the pings just read; False past it, or if any came while the peer is
        not reading what is written to it."""
        pings = sum(
            1 for event in self.conn.events if isinstance(event, Frame) and event.opcode == Opcode.PING
        )
        if not pings:
            return True
        now = self.loop.time()
        self._pings = (
            min(self.ping_burst, self._pings + (now - self._pings_at) * self.pings_per_second) - pings
        )
        self._pings_at = now
        return self._pings >= 0.0 and self.writable.is_set()

    def drop(self) -> None:
        """End the socket at once, without waiting for its unsent bytes (the peer may never read)."""
        self.close_sent = True
        self.stop_keepalive()
        self.transport.abort()
