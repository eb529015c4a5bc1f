"""Requests served at a steady pace: however fast clients send them, the camera's process
keeps its time.

Every HTTP request (but the camera's stream, which is one long answer paced by itself,
and the WebSocket) takes a turn from one token bucket: `PACE_PER_S` turns a second, up
to `BURST` at once (a page loading its files). A request whose turn is more than
`MAX_WAIT_S` away is answered 503 with Retry-After at once, before its body is read;
the others wait their turn without holding a thread. Four clients sending requests as
fast as they can thus get `PACE_PER_S` answers a second between them, and the camera
loses a few per cent of its frame rate, not two thirds.
"""

from __future__ import annotations

import asyncio
import math
import time

from starlette.types import ASGIApp, Receive, Scope, Send

from arbitre.api.bodies import send_detail

PACE_PER_S = 60.0
"""Requests served a second, every client together (a page uses one WebSocket and one
stream; a phone asking questions sends one a second)."""
BURST = 60
"""Requests served at once before the pace holds (a page loads about fifteen files)."""
MAX_WAIT_S = 2.0
"""A request that would wait longer for its turn is told to retry (503)."""
UNPACED = ("/api/stream.mjpg",)


class Pace:
    """ASGI middleware: each HTTP request waits its turn (see the module's notes)."""

    def __init__(
        self,
        app: ASGIApp,
        *,
        per_s: float = PACE_PER_S,
        burst: int = BURST,
        max_wait_s: float = MAX_WAIT_S,
    ) -> None:
        if not (per_s > 0 and burst >= 1 and max_wait_s >= 0):
            raise ValueError(f"need per_s > 0, burst >= 1, max_wait_s >= 0, got {per_s}, {burst}")
        self.app = app
        self.interval_s = 1.0 / per_s
        self.burst = burst
        self.max_wait_s = max_wait_s
        self._next = -math.inf  # when the next turn comes (monotonic seconds)

    def turn(self, now: float) -> float | None:
        """Seconds to wait for a turn taken now, or None when it is too far away."""
        earliest = now - (self.burst - 1) * self.interval_s
        slot = max(self._next, earliest)
        wait = slot - now
        if wait > self.max_wait_s:
            return None
        self._next = slot + self.interval_s
        return max(wait, 0.0)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope.get("path") in UNPACED:
            await self.app(scope, receive, send)
            return
        wait = self.turn(time.monotonic())
        if wait is None:
            await send_detail(
                send,
                503,
                "too many requests at once: retry in a second",
                close=True,  # its body, if any, is left unread
                headers=[(b"retry-after", b"1")],
            )
            return
        if wait > 0.0:
            await asyncio.sleep(wait)
        await self.app(scope, receive, send)
