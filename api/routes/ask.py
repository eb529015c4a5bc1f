"""Rules questions on the live table: the same answers as ``arbitre ask``."""

from __future__ import annotations

import asyncio
from typing import Annotated, Any

from fastapi import APIRouter, HTTPException, Request, Response
from pydantic import BaseModel, ConfigDict, Field

from arbitre.api.live.desk import RETRY_AFTER_S, Busy, QuestionDesk, TooLong, answer_scene
from arbitre.api.live.table import LiveTable
from arbitre.api.routes.errors import Refused, errors
from arbitre.api.routes.journal import journal_answer, journal_of
from arbitre.api.routes.state import live_of
from arbitre.rules.errors import RulesError, error_fields
from arbitre.rules.questions import ask
from arbitre.rules.scene import parse_scene


class Question(BaseModel):
    """A question: its name, its arguments (ids, group names, mm) and keyword extras."""

    model_config = ConfigDict(extra="forbid")
    question: str = Field(max_length=64, examples=["fire"])
    args: list[Annotated[str, Field(max_length=200)]] = Field(
        default_factory=list, max_length=8, examples=[["alpins", "verts"]]
    )
    extras: dict[str, Any] = Field(
        default_factory=dict,
        max_length=16,
        examples=[{"die": 3}],
        description="the question's options, each checked against what it takes (a die is "
        "an integer 1 to 6, a flag true or false; see each rule system's page): a bad value "
        "is 422 naming the option",
    )
    scene: dict[str, Any] | None = Field(
        default=None,
        description="a scene (the data of a scene.yaml) to answer on instead of the live table",
    )


router = APIRouter(prefix="/api")


@router.post(
    "/ask",
    response_model=dict[str, Any],
    responses=errors(
        422,
        503,
        e422="a malformed body, an unknown question or figure, a bad argument or option "
        "value (one line naming it); or a question given up after the desk's time limit "
        "(10 s) on a scene too costly for it",
        e503="the questions' queue is full: retry",
    ),
)
async def post_ask(question: Question, request: Request) -> dict[str, Any] | Response:
    """Answer a rules question on the live table's positions, or on the scene given.

    Questions are answered in turn by a few workers (`arbitre.api.live.desk`); when they are
    all busy and the queue is full, the answer is 503 with ``Retry-After``. A question
    still unanswered after the desk's time limit is given up: 422.
    """
    live, desk = live_of(request), desk_of(request)
    # a question on the live table is journaled, with the scene and picture it rests on
    journal = journal_of(request) if question.scene is None else None
    try:
        if desk.processes or journal is not None:  # the worker gets the scene as plain data
            if question.scene is not None:
                document, about, source = question.scene, SCENE_ABOUT, "scene"
            else:
                (document, about), source = live.question_input(), "live table"
            pictured = (  # the camera's picture, encoded beside the answer, off the event loop
                None
                if journal is None
                else asyncio.get_running_loop().run_in_executor(None, journal.picture, live)
            )
            try:
                _, found = await desk.run(
                    answer_scene,
                    document,
                    question.question,
                    question.args,
                    question.extras,
                    source,
                    about,
                )
            except TooLong as error:  # given up: journaled as the refusal it answers
                found = {"detail": given_up(question.question, error)}
            if journal is not None and pictured is not None:
                journal_answer(
                    journal,
                    question.question,
                    question.args,
                    question.extras,
                    document,
                    found,
                    await pictured,
                )
            if isinstance(found, dict):  # refused
                raise Refused(**found)
            # written by the worker: this process, the camera's, only passes it on
            return Response(content=found, media_type="application/json")
        return await desk.run(_answer_here, live, question)
    except Busy:
        raise busy() from None
    except TooLong as error:
        raise HTTPException(status_code=422, detail=given_up(question.question, error)) from None
    except RulesError as error:
        raise Refused(**error_fields(error)) from None


SCENE_ABOUT: dict[str, Any] = {"positions": "scene", "moving": [], "stale": []}


def given_up(question: str, error: TooLong) -> str:
    """The refusal of a question given up after the desk's time limit."""
    return f"{question}: {error}"


def _answer_here(live: LiveTable, question: Question) -> dict[str, Any]:
    """The answer, computed in this process (on a worker thread)."""
    if question.scene is not None:
        scene = parse_scene(question.scene, source="scene")
        found = ask(scene, question.question, question.args, question.extras)
        return {**found.to_json(), **SCENE_ABOUT}
    answer, about = live.ask(question.question, question.args, question.extras)
    return {**answer.to_json(), **about}


def busy() -> HTTPException:
    """The answer of a full desk: 503, retry in a second."""
    return HTTPException(
        status_code=503,
        detail="busy answering other questions: retry in a second",
        headers={"Retry-After": str(RETRY_AFTER_S)},
    )


def desk_of(request: Request) -> QuestionDesk:
    """The app's question desk."""
    desk: QuestionDesk = request.app.state.desk
    return desk
