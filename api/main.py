"""The HTTP app: wires the live table, the routes and the web page."""

from __future__ import annotations

import asyncio
import json
import secrets
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

from fastapi import FastAPI
from fastapi.staticfiles import StaticFiles

from api.live import LiveTable
from api.routes import ask, camera, page, state

STATIC = Path(__file__).parent / "static"
PUSH_EVERY_S = 0.1


class Broadcaster:
    """Sends the state to every WebSocket client: computed once per change, at most 10 Hz."""

    def __init__(self, live: LiveTable) -> None:
        self.live = live
        self.clients: set[asyncio.Queue[str]] = set()
        self._changed = asyncio.Event()
        self._loop: asyncio.AbstractEventLoop | None = None

    def attach(self, loop: asyncio.AbstractEventLoop) -> None:
        self._loop = loop
        self.live.on_change(self._signal)

    def _signal(self) -> None:
        if self._loop is not None and self.clients:
            self._loop.call_soon_threadsafe(self._changed.set)

    async def run(self) -> None:
        while True:
            await self._changed.wait()
            self._changed.clear()
            if self.clients:
                text = json.dumps(self.live.state())
                for queue in list(self.clients):
                    if queue.full():
                        queue.get_nowait()  # a slow client gets the newest state only
                    queue.put_nowait(text)
            await asyncio.sleep(PUSH_EVERY_S)


def create_app(live: LiveTable, *, token: str | None = None, run_loop: bool = True) -> FastAPI:
    """The FastAPI app over a live table; ``token`` guards configuration changes."""
    broadcaster = Broadcaster(live)

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        broadcaster.attach(asyncio.get_running_loop())
        task = asyncio.create_task(broadcaster.run())
        if run_loop:
            live.start()
        try:
            yield
        finally:
            task.cancel()
            if run_loop:
                live.stop()

    app = FastAPI(
        title="arbitre",
        description="A computer-vision table assistant for miniature wargames: the live "
        "table's state, rules questions on it, and the camera view.",
        version="0.1.0",
        lifespan=lifespan,
    )
    app.state.live = live
    app.state.token = token or secrets.token_urlsafe(12)
    app.state.broadcaster = broadcaster
    app.include_router(page.router)
    app.include_router(state.router)
    app.include_router(ask.router)
    app.include_router(camera.router)
    app.mount("/static", StaticFiles(directory=STATIC), name="static")
    return app
