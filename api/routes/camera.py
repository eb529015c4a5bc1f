"""The camera view: a JPEG snapshot and an MJPEG stream, with the markers outlined."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator

from fastapi import APIRouter, HTTPException, Request
from fastapi.responses import Response, StreamingResponse

from arbitre.api.routes.state import live_of

router = APIRouter(prefix="/api")
BOUNDARY = "frame"
STREAM_EVERY_S = 0.1


@router.get("/snapshot.jpg", response_class=Response)
def get_snapshot(request: Request, overlays: bool = True) -> Response:
    """The newest camera frame as JPEG, markers outlined unless ``overlays=false``."""
    data = live_of(request).jpeg(overlays=overlays)
    if data is None:
        raise HTTPException(status_code=503, detail="no camera frame yet")
    return Response(content=data, media_type="image/jpeg")


@router.get("/stream.mjpg")
async def get_stream(request: Request, overlays: bool = True) -> StreamingResponse:
    """The camera as an MJPEG stream (about 10 frames a second)."""
    live = live_of(request)

    async def frames() -> AsyncIterator[bytes]:
        while not await request.is_disconnected():
            data = await asyncio.to_thread(live.jpeg, overlays=overlays)
            if data is not None:
                yield (
                    (
                        f"--{BOUNDARY}\r\nContent-Type: image/jpeg\r\n"
                        f"Content-Length: {len(data)}\r\n\r\n"
                    ).encode()
                    + data
                    + b"\r\n"
                )
            await asyncio.sleep(STREAM_EVERY_S)

    return StreamingResponse(frames(), media_type=f"multipart/x-mixed-replace; boundary={BOUNDARY}")
