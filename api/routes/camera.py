"""The camera view: a JPEG snapshot and an MJPEG stream, with the markers outlined.

Every client of the stream gets the same JPEG: one encoder per kind of picture (with
or without the drawings) runs while someone watches, about 10 times a second, and
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

Encode = Callable[[bool], bytes | None]


class SharedJpeg:
    """The newest camera picture as JPEG, encoded once for every client of the stream.

    ``encode(overlays)`` makes one JPEG (``LiveTable.jpeg``); it runs in a worker thread,
    at most once every ``every_s`` per kind of picture, and only while a client waits.
    """

    def __init__(
        self, encode: Encode, *, every_s: float = STREAM_EVERY_S, max_streams: int = MAX_STREAMS
    ) -> None:
        self.encode = encode
        self.every_s = every_s
        self.max_streams = max_streams
        self.open_streams = 0
        self.encoded = 0  # JPEGs made so far (for the tests and the curious)
        self._pictures: dict[bool, tuple[int, bytes | None]] = {}
        self._watchers: dict[bool, int] = {}
        self._tasks: dict[bool, asyncio.Task[None]] = {}
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

    async def pictures(self, overlays: bool) -> AsyncGenerator[bytes, None]:
        """Each new JPEG as it is made (the newest only, when the client was slow)."""
        if self._changed is None:
            self._changed = asyncio.Condition()
        changed = self._changed
        self._watchers[overlays] = self._watchers.get(overlays, 0) + 1
        task = self._tasks.get(overlays)
        if task is None or task.done():
            self._tasks[overlays] = asyncio.create_task(self._run(overlays, changed))
        seen = -1
        try:
            while True:
                async with changed:
                    await changed.wait_for(partial(self._newer, overlays, seen))
                    seen, data = self._pictures[overlays]
                if data is not None:
                    yield data
        finally:
            self._watchers[overlays] -= 1

    def _number(self, overlays: bool) -> int:
        return self._pictures.get(overlays, (-1, None))[0]

    def _newer(self, overlays: bool, seen: int) -> bool:
        return self._number(overlays) > seen

    async def _run(self, overlays: bool, changed: asyncio.Condition) -> None:
        """Encode while someone watches this kind of picture."""
        number = self._number(overlays)
        while self._watchers.get(overlays, 0) > 0:
            data = await asyncio.to_thread(self.encode, overlays)
            self.encoded += 1
            number += 1
            async with changed:
                self._pictures[overlays] = (number, data)
                changed.notify_all()
            await asyncio.sleep(self.every_s)
        self._tasks.pop(overlays, None)


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
        **errors(422, 503, e503="no camera frame yet"),
    },
)
def get_snapshot(request: Request, overlays: bool = True) -> Response:
    """The newest camera frame as JPEG, markers outlined unless ``overlays=false``."""
    data = live_of(request).jpeg(overlays=overlays)
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
        **errors(422, 503, e503=f"{MAX_STREAMS} camera streams are open already"),
    },
)
async def get_stream(request: Request, overlays: bool = True) -> StreamingResponse:
    """The camera as an MJPEG stream (about 10 frames a second, 16 streams at most)."""
    shared = shared_jpeg_of(request)
    if not shared.open():
        raise HTTPException(
            status_code=503,
            detail=f"{shared.max_streams} camera streams are open already; close one first",
        )

    async def parts() -> AsyncIterator[bytes]:
        async with aclosing(shared.pictures(overlays)) as pictures:
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
