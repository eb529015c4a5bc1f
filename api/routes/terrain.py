"""The live table's fixed terrain: changed from the page, saved into arbitre.yaml."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Header, HTTPException, Request
from pydantic import BaseModel, ConfigDict, Field

from arbitre.api.routes.errors import errors
from arbitre.api.routes.state import live_of, require_token
from arbitre.api.settings import UnloadableSettings, save_terrain
from arbitre.calibration.errors import CalibrationError
from arbitre.rules.errors import RulesError

MAX_PIECES = 500
"""The most fixed terrain pieces the page may save."""
MAX_SAVED_POINTS = 2000
"""The most outline points the page may save in all, every piece together (a scene's
outline may hold ten times as many in one piece: `arbitre.rules.scene.MAX_POINTS`)."""

router = APIRouter(prefix="/api")


class TerrainChange(BaseModel):
    """The whole fixed terrain, as in a scene's ``terrain:`` list (table millimetres)."""

    model_config = ConfigDict(extra="forbid")
    terrain: list[dict[str, Any]] = Field(
        max_length=MAX_PIECES,
        examples=[
            [{"id": "wood1", "kind": "wood", "polygon_mm": [[300, 300], [500, 300], [400, 450]]}]
        ],
    )


@router.put("/terrain", responses=errors(403, 413, 422, 500))
def put_terrain(
    change: TerrainChange, request: Request, x_arbitre_token: str | None = Header(None)
) -> dict[str, Any]:
    """Replace the fixed terrain (token needed): checked, saved to arbitre.yaml, used at once."""
    require_token(request, x_arbitre_token)
    points = sum(_points(piece) for piece in change.terrain)
    if points > MAX_SAVED_POINTS:
        raise HTTPException(
            status_code=422, detail=f"terrain: {points} points, at most {MAX_SAVED_POINTS} allowed"
        )
    live = live_of(request)
    # the file and the live table get the same terrain, one save after the other
    with live.settings_lock:
        try:
            pieces = live.check_terrain(change.terrain)
        except RulesError as error:
            raise HTTPException(status_code=422, detail=str(error)) from None
        path = live.config.config_path
        if path is not None:
            try:
                save_terrain(path, pieces)
            except UnloadableSettings as error:  # the next start would refuse the file
                raise HTTPException(status_code=422, detail=str(error)) from None
            except CalibrationError as error:
                raise HTTPException(status_code=500, detail=str(error)) from None
        live.use_terrain(pieces)  # checked above, under the same lock
        version = live.terrain_version
    if path is None:
        message = "no arbitre.yaml (demo table): the change lasts until the server stops"
    else:
        message = f"saved in {path}"
    return {
        "terrain": pieces,
        "terrain_version": version,
        "saved": path is not None,
        "file": str(path) if path is not None else None,
        "message": message,
    }


def _points(piece: dict[str, Any]) -> int:
    outline = piece.get("polygon_mm") or piece.get("line_mm")
    return len(outline) if isinstance(outline, list) else 0
