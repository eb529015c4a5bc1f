"""Scene files on the page: the live table saved as scene.yaml, a scene file read back."""

from __future__ import annotations

import re
from typing import Any

import yaml
from fastapi import APIRouter, HTTPException, Request
from fastapi.responses import Response

from arbitre.api.live.desk import Busy, TooLong
from arbitre.api.routes.ask import busy, desk_of
from arbitre.api.routes.errors import errors
from arbitre.api.routes.state import live_of
from arbitre.rules.errors import RulesError
from arbitre.rules.model import Base, Scene
from arbitre.rules.questions import ask
from arbitre.rules.registry import find_ruleset
from arbitre.rules.scene import parse_scene, read_scene_text

router = APIRouter(prefix="/api")


@router.get(
    "/scene.yaml",
    response_class=Response,
    responses={200: {"content": {"application/yaml": {}}, "description": "a scene.yaml file"}},
)
def get_scene_yaml(request: Request) -> Response:
    """The live table as a scene.yaml file to download (the data of ``GET /api/scene``)."""
    document = live_of(request).recent_document()
    text = yaml.safe_dump(document, sort_keys=False, allow_unicode=True)
    return Response(
        text,
        media_type="application/yaml",
        headers={"Content-Disposition": 'attachment; filename="scene.yaml"'},
    )


@router.post(
    "/scene/read",
    responses=errors(413, 422, 503, e413="the scene file is larger than 10 MB"),
    openapi_extra={
        "requestBody": {
            "content": {"text/plain": {"schema": {"type": "string"}}},
            "description": "the text of a scene file (YAML or JSON), 10 MB at most",
        }
    },
)
async def post_scene_read(request: Request, name: str = "scene.yaml") -> dict[str, Any]:
    """Read a scene file (YAML or JSON text in the body): its data and how to draw it.

    The file is read by the question desk, as a question is (on a worker process when the
    server runs one, never more at once than its workers, the rest waiting or told to
    retry): however many clients send files, the camera's process goes on measuring.
    """
    body = await request.body()  # bounded by the body guard (arbitre.api.main)
    source = _NOT_SHOWN.sub("", name)[:200] or "scene.yaml"
    try:
        text = body.decode("utf-8")
    except UnicodeDecodeError:
        raise HTTPException(status_code=422, detail=f"{source}: not UTF-8 text") from None
    try:
        ok, found = await desk_of(request).run(read_scene_file, text, source)
    except Busy:
        raise busy() from None
    except TooLong as error:
        raise HTTPException(status_code=422, detail=f"{source}: {error}") from None
    if not ok:
        raise HTTPException(status_code=422, detail=str(found))
    assert isinstance(found, dict)
    return found


_NOT_SHOWN = re.compile(r"[\x00-\x1f\x7f-\x9f\u2028\u2029\ud800-\udfff\ufffd]")
"""What a file's name loses in messages: control characters, line breaks, lone
surrogates and the replacement character (bytes that were not UTF-8)."""


def read_scene_file(text: str, source: str) -> tuple[bool, dict[str, Any] | str]:
    """A scene file's data and how to draw it, or why not (the message's first line):
    plain data, from a worker process as from a thread."""
    try:
        data = read_scene_text(text, source)  # no aliases, bounded nesting and size
        scene = parse_scene(data, source=source)
        return True, {"scene": data, "view": scene_view(scene, data)}
    except RulesError as error:
        return False, str(error).splitlines()[0]


def scene_view(scene: Scene, data: dict[str, Any]) -> dict[str, Any]:
    """The parts of ``/api/state`` the page draws, for a scene file."""
    problem: str | None = None
    ruleset = find_ruleset(scene.ruleset)
    groups: dict[str, Any] = {"groups": {}, "warnings": []}
    if "groups" in ruleset.known_questions:  # MUSG and Confrontation have none
        try:
            groups = ask(scene, "groups", []).to_json()
        except RulesError as error:
            problem = str(error)
    unit = ruleset.unit(scene)
    return {
        "table": {"width_mm": scene.table.width_mm, "depth_mm": scene.table.depth_mm},
        "terrain": list(data.get("terrain") or []),
        "figures": [
            {
                "id": f.id,
                "name": None,
                "side": f.side,
                "group": f.group,
                "reference": f.reference,
                "type": f.type,
                "wounded": f.wounded,
                "x_mm": f.x_mm,
                "y_mm": f.y_mm,
                "sigma_mm": f.sigma_mm,
                "heading_deg": f.facing_deg,
                "base": _base(f.base),
                "stale": False,
                "age_s": 0.0,
                "settled": True,
                "image_px": None,
            }
            for f in scene.figures
        ],
        "ruleset": scene.ruleset,
        "questions": sorted(ruleset.known_questions),
        "unit": unit.name,
        "unit_mm": unit.mm,
        "grid": ruleset.grid(scene),
        "groups": groups["groups"],
        "group_warnings": groups["warnings"],
        "problem": problem,
    }


def _base(base: Base | None) -> dict[str, Any] | None:
    """A base as a scene file writes it (``{shape: rect, width_mm, depth_mm}``), or None."""
    if base is None:
        return None
    if base.shape.value == "round":
        return {"shape": "round", "diameter_mm": base.width_mm}
    if base.shape.value == "square":
        return {"shape": "square", "side_mm": base.width_mm}
    return {"shape": base.shape.value, "width_mm": base.width_mm, "depth_mm": base.depth_mm}
