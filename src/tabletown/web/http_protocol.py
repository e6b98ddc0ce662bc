"""uvicorn's httptools protocol with a bounded request head (security audit 31).

uvicorn sets no limit on the request line and headers when it parses with httptools (its h11 parser
has one, but is several times slower): one connection sending a header that never ends made the
server hold hundreds of megabytes until the client hung up, and a few megabytes of Accept-Language or
Cookie cost the event loop a third of a second to read. ``BoundedHttpToolsProtocol`` counts the bytes
of each request's head and answers 431 past ``MAX_HEAD``, and closes a connection whose head is not
complete ``HEAD_SECONDS`` after its first byte (a head sent a byte at a time holds a connection as
long as it likes otherwise). Bodies are bounded by the app (``asgi.BodyLimit``), sockets by
``ws_max_size``.
"""

from __future__ import annotations

import asyncio
from typing import Any

from uvicorn.protocols.http.httptools_impl import STATUS_LINE, HttpToolsProtocol

# Bytes of a request line and its headers: browsers send 1-4 KiB (cookies of a few tables included);
# nginx answers 400 past 32 KiB by default, h11 past 16 KiB.
MAX_HEAD = 32 * 1024
HEAD_SECONDS = 15.0  # from a request's first byte to the end of its headers


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
