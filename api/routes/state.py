"""The live table's state: health, state, scene, and the WebSocket that pushes it."""

from __future__ import annotations

import asyncio
import hmac
import math
from typing import Annotated, Any

from fastapi import APIRouter, Header, HTTPException, Request, WebSocket, WebSocketDisconnect
from fastapi.responses import Response
from pydantic import BaseModel, ConfigDict, Field, field_validator

from arbitre.api.live.table import LiveTable
from arbitre.api.routes.errors import errors
from arbitre.bounds import LONGEST_MM
from arbitre.rules.errors import RulesError
from arbitre.rules.options import MIN_LENGTH_MM

router = APIRouter(prefix="/api")
JSON_OBJECT: dict[int | str, dict[str, Any]] = {
    200: {"content": {"application/json": {"schema": {"type": "object"}}}, "description": "OK"}
}
"""The documented answer of a route that writes its JSON itself (kept written for the
callers of the same state: made once, not for each)."""


def live_of(request: Request) -> LiveTable:
    table: LiveTable = request.app.state.live
    return table


@router.get("/health")
def get_health(request: Request) -> dict[str, Any]:
    """Whether the server runs, and how its source does."""
    state = live_of(request).recent_state()
    return {
        "status": "ok",
        "source": state["source"],
        "frame": state["frame"],
        "fps": state["fps"],
        "figures": len(state["figures"]),
    }


@router.get("/state", response_class=Response, responses=JSON_OBJECT)
def get_state(request: Request) -> Response:
    """Figures (tracked positions, stale, settled), groups, table, terrain and source."""
    return Response(live_of(request).recent_state_json(), media_type="application/json")


@router.get("/scene", response_class=Response, responses=JSON_OBJECT)
def get_scene(request: Request) -> Response:
    """The live table as the data of a scene.yaml (what ``arbitre snapshot`` saves)."""
    return Response(live_of(request).recent_document_json(), media_type="application/json")


def require_token(request: Request, token: str | None) -> None:
    """Refuse (403) a configuration change without the token printed at start-up."""
    expected = str(request.app.state.token).encode()
    if token is None or not hmac.compare_digest(token.encode(), expected):  # constant time
        raise HTTPException(
            status_code=403,
            detail="changing the configuration needs the "
            "token printed when the server started (header X-Arbitre-Token)",
        )


MAX_OPTION = LONGEST_MM
"""Largest size of a number in options: 100 m, the largest table a scene may have."""
MIN_CELL_MM = 10.0
"""Smallest cell of a hex or square grid (``hex_mm``, ``square_mm``): less than any base;
finer grids only make path finding slow."""
CELL_OPTIONS = ("hex_mm", "square_mm")
MAX_TEXT = 100


def check_option(name: str, value: Any) -> None:
    """Refuse (ValueError, one line) an option value no ruleset could use sensibly.

    >>> check_option("unit_mm", 150), check_option("surface", "hex")
    (None, None)
    >>> check_option("unit_mm", 1e308)
    Traceback (most recent call last):
    ...
    ValueError: unit_mm: numbers are at most 100000 in size, got 1e+308
    """
    if value is None or isinstance(value, bool):
        return
    if isinstance(value, str):
        if len(value) > MAX_TEXT:
            raise ValueError(f"{name}: text of at most {MAX_TEXT} characters expected")
        return
    if isinstance(value, list) and len(value) <= 4:
        for item in value:
            if isinstance(item, bool) or not isinstance(item, int | float):
                raise ValueError(f"{name}: a list of numbers expected, got {str(item)[:20]!r}")
            check_option(name, item)
        return
    if not isinstance(value, int | float):
        raise ValueError(
            f"{name}: expected a number, true/false, a short text or a list of up to 4 numbers"
        )
    if not math.isfinite(value) or abs(value) > MAX_OPTION:
        raise ValueError(f"{name}: numbers are at most {MAX_OPTION:g} in size, got {value:.6g}")
    if name in CELL_OPTIONS and value < MIN_CELL_MM:
        raise ValueError(f"{name}: a cell is at least {MIN_CELL_MM:g} mm, got {value:.6g}")
    if name.endswith("_mm") and 0 < abs(value) < MIN_LENGTH_MM:
        raise ValueError(f"{name}: a length is 0 or at least {MIN_LENGTH_MM:g} mm, got {value:.6g}")


class OptionsChange(BaseModel):
    """New ruleset options (merged into the current ones): names as in the ruleset's
    docs; numbers finite and at most 100 000 in size, lengths (``*_mm``) 0 or at least
    1 mm, grid cells at least 10 mm."""

    model_config = ConfigDict(extra="forbid")
    options: dict[Annotated[str, Field(max_length=64)], Any] = Field(
        max_length=32, examples=[{"unit_mm": 100}]
    )

    @field_validator("options")
    @classmethod
    def _sane_values(cls, options: dict[str, Any]) -> dict[str, Any]:
        for name, value in options.items():
            check_option(name, value)
        return options


@router.put("/options", responses=errors(403, 413, 422))
def put_options(
    change: OptionsChange, request: Request, x_arbitre_token: str | None = Header(None)
) -> dict[str, Any]:
    """Change the ruleset options (e.g. the length of M) until the server stops; token needed."""
    require_token(request, x_arbitre_token)
    live = live_of(request)
    try:
        with live.settings_lock:  # merged with the options of this moment, not older ones
            merged = {**live.config.options, **change.options}
            # null takes an option away: the rule system's default applies again
            options = live.set_options({k: v for k, v in merged.items() if v is not None})
    except RulesError as error:
        raise HTTPException(status_code=422, detail=str(error)) from None
    return {
        "options": options,
        "saved": False,
        "message": "in use until the server stops; write it under options: in arbitre.yaml "
        "to keep it",
    }


@router.websocket("/ws")
async def ws_state(websocket: WebSocket) -> None:
    """Pushes the state (the /api/state object) as it changes, at most 10 times a second."""
    await websocket.accept()
    broadcaster = websocket.app.state.broadcaster
    queue: asyncio.Queue[str] = asyncio.Queue(maxsize=1)
    broadcaster.clients.add(queue)
    try:
        await websocket.send_json(live_of_ws(websocket).recent_state())
        while True:
            await websocket.send_text(await queue.get())
    except (WebSocketDisconnect, RuntimeError):
        pass
    finally:
        broadcaster.clients.discard(queue)


def live_of_ws(websocket: WebSocket) -> LiveTable:
    table: LiveTable = websocket.app.state.live
    return table
