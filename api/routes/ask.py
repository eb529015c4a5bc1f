"""Rules questions on the live table: the same answers as ``arbitre ask``."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, HTTPException, Request
from pydantic import BaseModel, ConfigDict, Field

from arbitre.api.routes.state import live_of
from arbitre.rules.errors import RulesError
from arbitre.rules.questions import ask
from arbitre.rules.scene import parse_scene


class Question(BaseModel):
    """A question: its name, its arguments (ids, group names, mm) and keyword extras."""

    model_config = ConfigDict(extra="forbid")
    question: str = Field(examples=["fire"])
    args: list[str] = Field(default_factory=list, examples=[["alpins", "verts"]])
    extras: dict[str, Any] = Field(default_factory=dict, examples=[{"die": 3}])
    scene: dict[str, Any] | None = Field(
        default=None,
        description="a scene (the data of a scene.yaml) to answer on instead of the live table",
    )


router = APIRouter(prefix="/api")


@router.post("/ask")
def post_ask(question: Question, request: Request) -> dict[str, Any]:
    """Answer a rules question on the live table's positions, or on the scene given."""
    try:
        if question.scene is not None:
            scene = parse_scene(question.scene, source="scene")
            answer = ask(scene, question.question, question.args, question.extras)
            return {**answer.to_json(), "positions": "scene", "moving": [], "stale": []}
        answer, about = live_of(request).ask(question.question, question.args, question.extras)
    except RulesError as error:
        raise HTTPException(status_code=422, detail=str(error).splitlines()[0]) from None
    return {**answer.to_json(), **about}
