"""The HTTP app: wires the live table, the routes and the web page."""

from __future__ import annotations

import asyncio
import json
import secrets
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from fastapi.staticfiles import StaticFiles
from fastapi_offline import FastAPIOffline

from arbitre import __version__
from arbitre.api.live import LiveTable
from arbitre.api.routes import ask, camera, page, scenes, state, terrain

STATIC = Path(__file__).parent / "static"
PUSH_EVERY_S = 0.1
HEARTBEAT_S = 1.0


class Broadcaster:
    """Sends the state to every WebSocket client when what players see has changed.

    The state is looked at 10 times a second and computed once for all clients; it is
    sent when a figure moved, hid, settled or reappeared, a group or the source
    changed — and at least once a second, so ages and the frame rate stay current.
    """

    def __init__(self, live: LiveTable) -> None:
        self.live = live
        self.clients: set[asyncio.Queue[str]] = set()

    async def run(self) -> None:
        last_seen: object = None
        last_sent = 0.0
        while True:
            await asyncio.sleep(PUSH_EVERY_S)
            if not self.clients:
                last_seen = None
                continue
            state = self.live.state()
            seen = _what_players_see(state)
            now = time.monotonic()
            if seen == last_seen and now - last_sent < HEARTBEAT_S:
                continue
            last_seen, last_sent = seen, now
            text = json.dumps(state)
            for queue in list(self.clients):
                if queue.full():
                    queue.get_nowait()  # a slow client gets the newest state only
                queue.put_nowait(text)


def _what_players_see(state: dict[str, Any]) -> object:
    """The parts of a state that change the picture (positions to the tenth of a mm)."""
    figures = tuple(
        (f["id"], round(f["x_mm"], 1), round(f["y_mm"], 1), f["stale"], f["settled"])
        for f in state["figures"]
    )
    return (
        figures,
        json.dumps(state["groups"], sort_keys=True),
        state["source"]["ok"],
        state["unit_mm"],
        json.dumps(state["terrain"], sort_keys=True),
    )


async def one_line_422(request: Request, error: Exception) -> JSONResponse:
    """A malformed body: HTTP 422 whose detail is one sentence naming the first bad field."""
    problems = error.errors() if isinstance(error, RequestValidationError) else []
    if not problems:
        return JSONResponse({"detail": "malformed request"}, status_code=422)
    first = problems[0]
    where = "".join(
        f"[{part}]" if isinstance(part, int) else f".{part}" for part in first["loc"]
    ).lstrip(".")
    return JSONResponse({"detail": f"{where}: {first['msg']}"}, status_code=422)


def create_app(live: LiveTable, *, token: str | None = None, run_loop: bool = True) -> FastAPI:
    """The FastAPI app over a live table; ``token`` guards configuration changes."""
    broadcaster = Broadcaster(live)

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        task = asyncio.create_task(broadcaster.run())
        if run_loop:
            live.start()
        try:
            yield
        finally:
            task.cancel()
            if run_loop:
                live.stop()

    # /docs and /redoc from assets shipped in the package: no request leaves the machine.
    app = FastAPIOffline(
        title="arbitre",
        description="A computer-vision table assistant for miniature wargames: the live "
        "table's state, rules questions on it, and the camera view.",
        version=__version__,
        lifespan=lifespan,
        favicon_url="/static/favicon.svg",
    )
    app.state.live = live
    app.state.token = token or secrets.token_urlsafe(12)
    app.state.broadcaster = broadcaster
    app.include_router(page.router)
    app.include_router(state.router)
    app.include_router(ask.router)
    app.include_router(camera.router)
    app.include_router(terrain.router)
    app.include_router(scenes.router)
    app.add_exception_handler(RequestValidationError, one_line_422)
    app.mount("/static", StaticFiles(directory=STATIC), name="static")
    return app
