"""The HTTP app: wires the live table, the routes and the web page."""

from __future__ import annotations

import asyncio
import json
import secrets
import time
from collections.abc import AsyncIterator, Iterable
from contextlib import asynccontextmanager
from http import HTTPStatus
from pathlib import Path
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, Response
from fastapi.staticfiles import StaticFiles
from fastapi_offline import FastAPIOffline
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from arbitre import __version__
from arbitre.api.bodies import MAX_BODY_BYTES, BodyGuard, send_detail
from arbitre.api.hosts import LOOPBACK, TrustedHostGuard
from arbitre.api.live.camera_loop import STREAM_WIDTH_PX
from arbitre.api.live.desk import QuestionDesk, load_path_search
from arbitre.api.live.journal import Journal, RestWatch
from arbitre.api.live.table import LiveTable
from arbitre.api.pace import PACE_PER_S, Pace
from arbitre.api.routes import ask, camera, page, scenes, state, terrain
from arbitre.api.routes import journal as journal_routes
from arbitre.api.routes.camera import MAX_STREAMS, SharedJpeg
from arbitre.api.routes.errors import Refused, errors
from arbitre.rules.scene import MAX_SCENE_BYTES

STATIC = Path(__file__).parent / "static"
PUSH_EVERY_S = 0.1
HEARTBEAT_S = 1.0
MAX_DETAIL_CHARS = 300
"""Longest error detail: one line, never more than an excerpt of what was sent."""
BODY_LIMITS = {"/api/scene/read": MAX_SCENE_BYTES}
"""Bodies larger than `MAX_BODY_BYTES` (2 MB): a scene file may have up to 10 MB."""


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
            state = self.live.recent_state()
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


def short(text: str, limit: int = MAX_DETAIL_CHARS) -> str:
    """The first line of ``text``, cut to ``limit`` characters (an error never quotes more).

    >>> short("terrain[0]: bad\\nsecond line"), short("x" * 10, 4)
    ('terrain[0]: bad', 'x...')
    """
    line = text.strip().splitlines()[0] if text.strip() else ""
    return line if len(line) <= limit else line[: limit - 3] + "..."


def _printable(text: str) -> str:
    """``text`` with its control characters escaped (``\\x07``), and ``?`` for what was
    no text (pydantic gives a lone surrogate's bytes as replacement characters)."""
    text = text.replace("\ufffd", "?")
    if text.isprintable():
        return text
    return "".join(c if c.isprintable() else repr(c)[1:-1] for c in text)


async def one_line_422(request: Request, error: Exception) -> JSONResponse:
    """A malformed body: HTTP 422 whose detail is one sentence naming the first bad field."""
    problems = error.errors() if isinstance(error, RequestValidationError) else []
    if not problems:
        return JSONResponse({"detail": "malformed request"}, status_code=422)
    first = problems[0]
    message = str(first.get("msg", "invalid"))
    if first.get("type") == "value_error" and "error" in first.get("ctx", {}):
        message = str(first["ctx"]["error"])  # without pydantic's "Value error, "
    where = "".join(
        f"[{part}]" if isinstance(part, int) else f".{short(_printable(str(part)), 40)}"
        for part in first["loc"]
        if part != "[key]"  # pydantic's mark of a bad key: the key itself comes before
    ).lstrip(".")
    return JSONResponse({"detail": short(f"{where}: {message}")}, status_code=422)


async def one_line_http_error(request: Request, error: Exception) -> Response:
    """An HTTP error raised by a route: its detail as one short line, headers kept."""
    if not isinstance(error, StarletteHTTPException):
        return JSONResponse({"detail": "error"}, status_code=500)
    if error.status_code in (204, 304):
        return Response(status_code=error.status_code, headers=error.headers)
    body: dict[str, Any] = {"detail": short(str(error.detail))}
    if isinstance(error, Refused) and error.code:
        body |= {"code": error.code, "params": error.params}
    return JSONResponse(body, status_code=error.status_code, headers=error.headers)


async def unexpected_500(request: Request, error: Exception) -> Response:
    """An error no route foresaw: still one line of JSON (the traceback goes to the log)."""
    return JSONResponse(
        {"detail": f"internal error ({type(error).__name__}); the table goes on"}, status_code=500
    )


class JsonRefusals:
    """An ASGI app whose plain-text refusals (a malformed or unsatisfiable ``Range`` header
    on a static file) are turned into ``{"detail": ...}``, as every other error is."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        refused: Message | None = None

        async def relay(message: Message) -> None:
            nonlocal refused
            if message["type"] == "http.response.start" and 400 <= message["status"] < 500:
                kind = dict(message.get("headers", [])).get(b"content-type", b"")
                if kind.startswith(b"text/plain"):
                    refused = message  # its body follows: sent as the detail
                    return
            if refused is not None and message["type"] == "http.response.body":
                text = bytes(message.get("body", b"")).decode("utf-8", "replace")
                status, refused = refused["status"], None
                detail = " ".join(text.split())[:200] or HTTPStatus(status).phrase
                await send_detail(send, status, detail)
                return
            await send(message)

        await self.app(scope, receive, relay)


class HeadAsGet:
    """``HEAD`` answered wherever ``GET`` is: the same status and headers, no body (HTTP
    asks it of every GET resource; link checkers and monitors use it). The camera's
    endless stream is left out: its ``GET`` never ends."""

    ENDLESS = frozenset({"/api/stream.mjpg"})

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope["method"] != "HEAD" or scope["path"] in self.ENDLESS:
            await self.app(scope, receive, send)
            return
        ended = False

        async def headers_only(message: Message) -> None:
            nonlocal ended
            if message["type"] == "http.response.start":
                await send(message)
            elif message["type"] == "http.response.body" and not ended:
                if not message.get("more_body", False):
                    ended = True
                    await send({"type": "http.response.body", "body": b""})

        await self.app({**scope, "method": "GET"}, receive, headers_only)


def create_app(
    live: LiveTable,
    *,
    token: str | None = None,
    run_loop: bool = True,
    hosts: Iterable[str] = LOOPBACK,
    max_streams: int = MAX_STREAMS,
    desk: QuestionDesk | None = None,
    pace_per_s: float | None = PACE_PER_S,
    journal: Journal | None = None,
) -> FastAPI:
    """The FastAPI app over a live table.

    ``token`` guards configuration changes; ``hosts`` are the names the server answers
    to (`arbitre.api.hosts.trusted_hosts`, the loopback names by default);
    ``max_streams`` caps the camera streams open at once; ``desk`` answers the
    questions (one worker and eight waiting by default); ``pace_per_s`` the requests
    served a second (`arbitre.api.pace`; None: as fast as they come); ``journal``
    keeps every question asked of the live table and the table each time a figure comes
    to rest (`arbitre.api.live.journal`; its writer runs while the app does, and the
    journal is closed when the app stops).
    """
    broadcaster = Broadcaster(live)
    question_desk = QuestionDesk() if desk is None else desk
    rest_watch = None if journal is None else RestWatch(live, journal)

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        task = asyncio.create_task(broadcaster.run())
        # the path search's compiled loops, loaded before the first "where can it go"
        question_desk.prepare(load_path_search)
        if journal is not None and rest_watch is not None:
            journal.start()
            rest_watch.start()
        if run_loop:
            live.start()
        try:
            yield
        finally:
            task.cancel()
            question_desk.close()
            if run_loop:
                live.stop()
            if journal is not None and rest_watch is not None:
                rest_watch.stop()
                journal.close()  # what is queued is written first

    # /docs and /redoc from assets shipped in the package: no request leaves the machine.
    app = FastAPIOffline(
        title="arbitre",
        description="A computer-vision table assistant for miniature wargames: the live "
        "table's state, rules questions on it, and the camera view.",
        version=__version__,
        lifespan=lifespan,
        favicon_url="/static/favicon.svg",
        responses=errors(400),
    )
    app.state.live = live
    app.state.token = token or secrets.token_urlsafe(12)
    app.state.broadcaster = broadcaster
    app.state.desk = question_desk
    app.state.journal = journal
    app.state.shared_jpeg = SharedJpeg(
        lambda overlays, camera: live.jpeg(
            overlays=overlays, camera=camera, max_width=STREAM_WIDTH_PX
        ),
        max_streams=max_streams,
    )
    app.include_router(page.router)
    app.include_router(state.router)
    app.include_router(ask.router, responses=errors(413, 422))
    app.include_router(camera.router)
    app.include_router(terrain.router)
    app.include_router(scenes.router)
    app.include_router(journal_routes.router)
    app.add_exception_handler(RequestValidationError, one_line_422)
    app.add_exception_handler(StarletteHTTPException, one_line_http_error)
    app.add_exception_handler(Exception, unexpected_500)
    app.mount("/static", JsonRefusals(StaticFiles(directory=STATIC)), name="static")
    # Outermost first: a request from an untrusted name is refused before its body is read.
    app.add_middleware(HeadAsGet)
    app.add_middleware(BodyGuard, default_bytes=MAX_BODY_BYTES, limits=BODY_LIMITS)
    if pace_per_s is not None:
        app.add_middleware(Pace, per_s=pace_per_s)
    app.add_middleware(TrustedHostGuard, hosts=hosts)
    return app
