"""How the server treats connections: uvicorn's options, and a request head in time.

uvicorn gives a connection its keep-alive time only once a request is answered; before,
a client sending the request line and headers a byte at a time holds the connection (and
a file of the server's) for as long as it likes, and a few hundred such clients leave
none for the phones at the table. `HeadInTime` closes a connection whose request head
is not whole within `HEAD_S` of its first byte (or of the connection). A body that stops
coming is `arbitre.api.bodies`' concern.
"""

from __future__ import annotations

import asyncio
from typing import Any

import h11
from uvicorn.protocols.http.h11_impl import H11Protocol

HEAD_S = 10.0
"""A request's line and headers must come whole within this long."""


class HeadInTime(H11Protocol):
    """uvicorn's HTTP/1.1 protocol, closing a connection whose request head is not whole
    within `HEAD_S`."""

    _head_timer: asyncio.TimerHandle | None = None

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self._await_head()

    def data_received(self, data: bytes) -> None:
        super().data_received(data)
        if self.conn.their_state is h11.IDLE:  # a head begun, not whole yet
            if self._head_timer is None:
                self._await_head()
        else:  # whole (a body comes, or the connection became a WebSocket)
            self._head_came()

    def connection_lost(self, exc: Exception | None) -> None:
        self._head_came()
        super().connection_lost(exc)

    def _await_head(self) -> None:
        self._head_timer = self.loop.call_later(HEAD_S, self._head_too_slow)

    def _head_came(self) -> None:
        if self._head_timer is not None:
            self._head_timer.cancel()
            self._head_timer = None

    def _head_too_slow(self) -> None:
        self._head_timer = None
        if self.conn.their_state is h11.IDLE and not self.transport.is_closing():
            self.transport.close()


SERVER_OPTIONS: dict[str, Any] = {
    "http": HeadInTime,
    # States are small; compressing each one for each client costs more than it saves.
    "ws_per_message_deflate": False,
    # The page never sends on its WebSocket: a message over 64 kB closes it.
    "ws_max_size": 65_536,
    # Open camera streams never end by themselves: give them 2 s to close on shutdown.
    "timeout_graceful_shutdown": 2,
}
"""uvicorn's options for arbitre's server (``uvicorn.run(app, **SERVER_OPTIONS, ...)``)."""
