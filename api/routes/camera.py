"""The camera view: a JPEG snapshot and an MJPEG stream, with the markers outlined.

Every client of a camera's stream gets the same JPEG: one encoder per kind of picture
(each camera, with or without the drawings) runs while someone watches, about 10 times a second, and
each client sends the newest picture when it is ready for one — a slow phone skips
pictures, it never makes the others wait or the server encode more. At most
`MAX_STREAMS` streams are open at once; one more is refused with 503.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncGenerator, AsyncIterator, Callable
from contextlib import aclosing
from functools import partial

from fastapi import APIRouter, HTTPException, Request
from fastapi.responses import Response, StreamingResponse
from starlette.types import Receive, Scope, Send

from arbitre.api.routes.errors import errors
from arbitre.api.routes.state import live_of

router = APIRouter(prefix="/api")
BOUNDARY = "frame"
STREAM_EVERY_S = 0.1
MAX_STREAMS = 16

Encode = Callable[[bool, int], bytes | None]
"""Makes a JPEG: ``encode(overlays, camera)``."""
Kind = tuple[bool, int]
"""A kind of picture: with the drawings or not, of which camera."""


class SharedJpeg:
    """The newest camera picture as JPEG, encoded once for every client of the stream.

    ``encode(overlays, camera)`` makes one JPEG (``LiveTable.jpeg``); it runs in a worker
    thread, at most once every ``every_s`` per kind of picture, and only while a client
    waits. ``max_streams`` counts the streams of every camera together.
    """

    def __init__(
        self, encode: Encode, *, every_s: float = STREAM_EVERY_S, max_streams: int = MAX_STREAMS
    ) -> None:
        self.encode = encode
        self.every_s = every_s
        self.max_streams = max_streams
        self.open_streams = 0
        self.encoded = 0  # JPEGs made so far (for the tests and the curious)
        self._pictures: dict[Kind, tuple[int, bytes | None]] = {}
        self._watchers: dict[Kind, int] = {}
        self._tasks: dict[Kind, asyncio.Task[None]] = {}
        self._changed: asyncio.Condition | None = None

    def open(self) -> bool:
        """Take a place for a new stream; False when `max_streams` are open."""
        if self.open_streams >= self.max_streams:
            return False
        self.open_streams += 1
        return True

    def close(self) -> None:
        """Give back a stream's place."""
        self.open_streams = max(0, self.open_streams - 1)

    async def pictures(self, overlays: bool, camera: int = 0) -> AsyncGenerator[bytes, None]:
        """Each new JPEG of a camera as it is made (the newest only, when the client was
        slow)."""
        if self._changed is None:
            self._changed = asyncio.Condition()
        changed = self._changed
        kind = (overlays, camera)
        self._watchers[kind] = self._watchers.get(kind, 0) + 1
        task = self._tasks.get(kind)
        if task is None or task.done():
            self._tasks[kind] = asyncio.create_task(self._run(kind, changed))
        seen = -1
        try:
            while True:
                async with changed:
                    await changed.wait_for(partial(self._newer, kind, seen))
                    seen, data = self._pictures[kind]
                if data is not None:
                    yield data
        finally:
            self._watchers[kind] -= 1

    def _number(self, kind: Kind) -> int:
        return self._pictures.get(kind, (-1, None))[0]

    def _newer(self, kind: Kind, seen: int) -> bool:
        return self._number(kind) > seen

    async def _run(self, kind: Kind, changed: asyncio.Condition) -> None:
        """Encode while someone watches this kind of picture."""
        number = self._number(kind)
        while self._watchers.get(kind, 0) > 0:
            data = await asyncio.to_thread(self.encode, *kind)
            self.encoded += 1
            number += 1
            async with changed:
                self._pictures[kind] = (number, data)
                changed.notify_all()
            await asyncio.sleep(self.every_s)
        self._tasks.pop(kind, None)


def shared_jpeg_of(request: Request) -> SharedJpeg:
    shared: SharedJpeg = request.app.state.shared_jpeg
    return shared


class CameraStream(StreamingResponse):
    """A streaming answer that gives its place back however the client leaves."""

    def __init__(self, content: AsyncIterator[bytes], shared: SharedJpeg) -> None:
        super().__init__(content, media_type=f"multipart/x-mixed-replace; boundary={BOUNDARY}")
        self.shared = shared

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        try:
            await super().__call__(scope, receive, send)
        finally:
            self.shared.close()
            aclose = getattr(self.body_iterator, "aclose", None)
            if aclose is not None:
                await aclose()


@router.get(
    "/snapshot.jpg",
    response_class=Response,
    responses={
        200: {"content": {"image/jpeg": {}}, "description": "the newest camera frame"},
        **errors(404, 422, 503, e404="no such camera", e503="no camera frame yet"),
    },
)
def get_snapshot(request: Request, overlays: bool = True, camera: int = 0) -> Response:
    """A camera's newest frame as JPEG (the first camera's unless ``camera=i``, from 0),
    markers outlined unless ``overlays=false``."""
    live = live_of(request)
    _check_camera(camera, len(live.cameras))
    data = live.recent_jpeg(overlays=overlays, camera=camera)
    if data is None:
        raise HTTPException(status_code=503, detail="no camera frame yet")
    return Response(content=data, media_type="image/jpeg")


@router.get(
    "/stream.mjpg",
    response_class=StreamingResponse,
    responses={
        200: {
            "content": {f"multipart/x-mixed-replace; boundary={BOUNDARY}": {}},
            "description": "JPEG parts, about 10 a second",
        },
        **errors(
            404,
            422,
            503,
            e404="no such camera",
            e503=f"{MAX_STREAMS} camera streams are open already",
        ),
    },
)
async def get_stream(request: Request, overlays: bool = True, camera: int = 0) -> StreamingResponse:
    """A camera as an MJPEG stream (the first camera's unless ``camera=i``, from 0; about
    10 frames a second, no wider than 1920 pixels, 16 streams at most)."""
    _check_camera(camera, len(live_of(request).cameras))
    shared = shared_jpeg_of(request)
    if not shared.open():
        raise HTTPException(
            status_code=503,
            detail=f"{shared.max_streams} camera streams are open already; close one first",
        )

    async def parts() -> AsyncIterator[bytes]:
        async with aclosing(shared.pictures(overlays, camera)) as pictures:
            async for data in pictures:
                if await request.is_disconnected():
                    break
                yield (
                    (
                        f"--{BOUNDARY}\r\nContent-Type: image/jpeg\r\n"
                        f"Content-Length: {len(data)}\r\n\r\n"
                    ).encode()
                    + data
                    + b"\r\n"
                )

    return CameraStream(parts(), shared)


def _check_camera(camera: int, count: int) -> None:
    """404 for a camera the table does not have."""
    if not 0 <= camera < count:
        cameras = "one camera (0)" if count == 1 else f"{count} cameras (0 to {count - 1})"
        raise HTTPException(status_code=404, detail=f"no camera {camera}: the table has {cameras}")
