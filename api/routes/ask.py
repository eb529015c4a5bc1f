"""Rules questions on the live table: the same answers as ``arbitre ask``."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, HTTPException, Request
from pydantic import BaseModel, ConfigDict, Field

from arbitre.api.routes.state import live_of
from arbitre.rules.errors import RulesError


class Question(BaseModel):
    """A question: its name, its arguments (ids, group names, mm) and keyword extras."""

    model_config = ConfigDict(extra="forbid")
    question: str = Field(examples=["fire"])
    args: list[str] = Field(default_factory=list, examples=[["alpins", "verts"]])
    extras: dict[str, Any] = Field(default_factory=dict, examples=[{"die": 3}])


router = APIRouter(prefix="/api")


@router.post("/ask")
def post_ask(question: Question, request: Request) -> dict[str, Any]:
    """Answer a rules question on the live table's settled positions."""
    try:
        answer, about = live_of(request).ask(question.question, question.args, question.extras)
    except RulesError as error:
        raise HTTPException(status_code=422, detail=str(error)) from None
    return {**answer.to_json(), **about}
