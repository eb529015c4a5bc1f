"""The live table's state: health, state, scene, and the WebSocket that pushes it."""

from __future__ import annotations

import asyncio
import hmac
from typing import Any

from fastapi import APIRouter, Header, HTTPException, Request, WebSocket, WebSocketDisconnect
from pydantic import BaseModel, ConfigDict

from arbitre.api.live import LiveTable
from arbitre.rules.errors import RulesError

router = APIRouter(prefix="/api")


def live_of(request: Request) -> LiveTable:
    table: LiveTable = request.app.state.live
    return table


@router.get("/health")
def get_health(request: Request) -> dict[str, Any]:
    """Whether the server runs, and how its source does."""
    state = live_of(request).state()
    return {
        "status": "ok",
        "source": state["source"],
        "frame": state["frame"],
        "fps": state["fps"],
        "figures": len(state["figures"]),
    }


@router.get("/state")
def get_state(request: Request) -> dict[str, Any]:
    """Figures (tracked positions, stale, settled), groups, table, terrain and source."""
    return live_of(request).state()


@router.get("/scene")
def get_scene(request: Request) -> dict[str, Any]:
    """The live table as the data of a scene.yaml (what ``arbitre snapshot`` saves)."""
    return live_of(request).scene_document()


def require_token(request: Request, token: str | None) -> None:
    """Refuse (403) a configuration change without the token printed at start-up."""
    expected = str(request.app.state.token).encode()
    if token is None or not hmac.compare_digest(token.encode(), expected):  # constant time
        raise HTTPException(
            status_code=403,
            detail="changing the configuration needs the "
            "token printed when the server started (header X-Arbitre-Token)",
        )


class OptionsChange(BaseModel):
    """New ruleset options (merged into the current ones)."""

    model_config = ConfigDict(extra="forbid")
    options: dict[str, Any]


@router.put("/options")
def put_options(
    change: OptionsChange, request: Request, x_arbitre_token: str | None = Header(None)
) -> dict[str, Any]:
    """Change the ruleset options (e.g. the length of M); needs the start-up token."""
    require_token(request, x_arbitre_token)
    live = live_of(request)
    try:
        options = live.set_options({**live.config.options, **change.options})
    except RulesError as error:
        raise HTTPException(status_code=422, detail=str(error)) from None
    return {"options": options}


@router.websocket("/ws")
async def ws_state(websocket: WebSocket) -> None:
    """Pushes the state (the /api/state object) as it changes, at most 10 times a second."""
    await websocket.accept()
    broadcaster = websocket.app.state.broadcaster
    queue: asyncio.Queue[str] = asyncio.Queue(maxsize=1)
    broadcaster.clients.add(queue)
    try:
        await websocket.send_json(live_of_ws(websocket).state())
        while True:
            await websocket.send_text(await queue.get())
    except (WebSocketDisconnect, RuntimeError):
        pass
    finally:
        broadcaster.clients.discard(queue)


def live_of_ws(websocket: WebSocket) -> LiveTable:
    table: LiveTable = websocket.app.state.live
    return table
