"""The game journal: every question asked of the live table, read back, and the settled
states that replay the evening (`arbitre.api.live.journal`)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Annotated, Any

from fastapi import APIRouter, Header, HTTPException, Query, Request
from fastapi.responses import Response
from pydantic import BaseModel, ConfigDict, Field

from arbitre.api.live.desk import json_body
from arbitre.api.live.journal import (
    PAGE_LIMIT,
    STATES_LIMIT,
    Asked,
    Journal,
    JournalError,
    JournalReader,
    Picture,
)
from arbitre.api.live.table import LiveTable, Pin
from arbitre.api.routes.errors import errors
from arbitre.api.routes.state import live_of, require_token

router = APIRouter(prefix="/api/journal")

NO_JOURNAL = (
    "no journal: this server keeps none (serve --config keeps one beside arbitre.yaml; "
    "--journal PATH chooses the file)"
)
MAX_ID = 2**62


def journal_of(request: Request) -> Journal | None:
    """The app's journal, None when the server keeps none."""
    journal: Journal | None = request.app.state.journal
    return journal


def journal_answer(
    journal: Journal,
    question: str,
    args: list[str],
    extras: Mapping[str, Any],
    scene: Mapping[str, Any],
    found: bytes | Mapping[str, Any],
    picture: Picture | None,
) -> None:
    """Queue a question asked of the live table with its answer (``found``: the JSON
    body answered, or the refusal's fields) for the journal's writer."""
    answered = isinstance(found, bytes)
    text = found.decode("utf-8") if isinstance(found, bytes) else json_body(found).decode()
    journal.add(
        Asked(
            journal.wall(),
            question,
            tuple(args),
            dict(extras),
            200 if answered else 422,
            text,
            scene,
            picture,
        )
    )


def _kept(request: Request) -> Journal:
    """The app's journal; 404 when the server keeps none."""
    journal = journal_of(request)
    if journal is None:
        raise HTTPException(status_code=404, detail=NO_JOURNAL)
    return journal


def _reader(request: Request) -> JournalReader:
    journal = _kept(request)
    try:
        return JournalReader(journal.path)
    except JournalError as error:
        raise HTTPException(status_code=500, detail=str(error)) from None


def _missing(what: str, number: int) -> HTTPException:
    return HTTPException(status_code=404, detail=f"no {what} {number} in the journal")


def _entry(
    request: Request,
    read: Callable[[JournalReader, int], dict[str, Any] | None],
    what: str,
    number: int,
) -> dict[str, Any]:
    """An entry read whole (``read(reader, number)``); 404 for one the journal lacks."""
    with _reader(request) as reader:
        found = read(reader, number) if 1 <= number <= MAX_ID else None
    if found is None:
        raise _missing(what, number)
    return found


Id = Annotated[int, Query(ge=1, le=MAX_ID)]


@router.get("", responses=errors(404, 422, e404="the server keeps no journal"))
def get_journal(
    request: Request,
    before: Annotated[
        int | None, Query(ge=1, le=MAX_ID, description="only questions of id below this")
    ] = None,
    limit: Annotated[int, Query(ge=1, le=PAGE_LIMIT, description="at most this many")] = 50,
    figure: Annotated[
        str | None, Query(min_length=1, max_length=200, description="only those about it")
    ] = None,
) -> dict[str, Any]:
    """The questions journaled, newest first (paged with ``before``), and the journal's size
    and counts."""
    journal = _kept(request)
    with _reader(request) as reader:
        questions = reader.questions(before=before, limit=limit, figure=figure)
    more = len(questions) == limit and questions[-1]["id"] > 1
    return {
        "questions": questions,
        "next_before": questions[-1]["id"] if more else None,
        "journal": journal.stats(),
    }


class PinRequest(BaseModel):
    """A figure to put back where it stood in the journal: at a settled state, on the
    table a question was asked on, or at a moment (the table the journal last knew then)."""

    model_config = ConfigDict(extra="forbid")
    figure: str = Field(min_length=1, max_length=200, examples=["Cavalier"])
    state: int | None = Field(default=None, ge=1, le=MAX_ID, description="a settled state's id")
    question: int | None = Field(default=None, ge=1, le=MAX_ID, description="a question's id")
    at: float | None = Field(
        default=None, ge=0, le=1e11, allow_inf_nan=False, description="seconds since 1970"
    )


@router.get("/pins")
def get_journal_pins(request: Request) -> dict[str, Any]:
    """The figures put back by hand: the live table uses their pinned places."""
    return {"pins": _pins(request)}


@router.post("/pins", responses=errors(403, 404, 422, e404="no such entry, or no journal"))
def post_journal_pin(
    change: PinRequest, request: Request, x_arbitre_token: str | None = Header(None)
) -> dict[str, Any]:
    """Put a figure back where it stood in the journal (a knocked-over figure): the live
    table uses that place until the camera sees the figure within 10 mm of it, or it is
    released; token needed."""
    require_token(request, x_arbitre_token)
    moments = [name for name in ("state", "question", "at") if getattr(change, name) is not None]
    if len(moments) != 1:
        raise HTTPException(status_code=422, detail="give one of state, question or at")
    with _reader(request) as reader:
        if change.state is not None:
            found, what = reader.state(change.state), f"settled state {change.state}"
        elif change.question is not None:
            found, what = reader.question(change.question), f"question {change.question}"
        else:
            found = reader.scene_at(float(change.at or 0.0))
            what = "the journal at that moment"
    if found is None:
        raise HTTPException(status_code=404, detail=f"nothing journaled for {what}")
    live = live_of(request)
    figures = {str(f.get("id")): f for f in found["scene"].get("figures", [])}
    stood = figures.get(change.figure)
    marker = _marker_of(live, change.figure)
    if stood is None or marker is None:
        names = ", ".join(sorted(figures)[:10]) or "none"
        raise HTTPException(
            status_code=422,
            detail=f"figure {change.figure!r} is not on the table of {what} (its figures: {names})",
        )
    live.pin(
        Pin(
            marker=marker,
            x_mm=float(stood["x_mm"]),
            y_mm=float(stood["y_mm"]),
            facing_deg=float(stood.get("facing_deg", 90.0)),
            sigma_mm=float(stood.get("sigma_mm", live.config.sigma_floor_mm)),
            time=float(found["time"]),
        )
    )
    return {"pinned": change.figure, "from": what, "time": found["time"], "pins": _pins(request)}


@router.delete("/pins/{figure}", responses=errors(403, 404, 422, e404="the figure is not pinned"))
def delete_journal_pin(
    figure: str, request: Request, x_arbitre_token: str | None = Header(None)
) -> dict[str, Any]:
    """Release a pinned figure: the camera places it again; token needed."""
    require_token(request, x_arbitre_token)
    live = live_of(request)
    marker = _marker_of(live, figure)
    if marker is None or not live.release(marker):
        raise HTTPException(status_code=404, detail=f"figure {figure[:200]!r} is not pinned")
    return {"released": figure, "pins": _pins(request)}


def _marker_of(live: LiveTable, figure: str) -> int | None:
    """The marker a figure id goes by: the roster's, or N of ``markerN``."""
    for who in live.config.roster.figures:
        if who.id == figure:
            return who.marker
    if figure.startswith("marker") and figure[6:].isdigit():
        return int(figure[6:])
    return None


def _pins(request: Request) -> list[dict[str, Any]]:
    return list(live_of(request).state_pins())


@router.get("/states", responses=errors(404, 422, e404="the server keeps no journal"))
def get_journal_states(
    request: Request,
    after: Annotated[
        int | None, Query(ge=0, le=MAX_ID, description="only states of id above this")
    ] = None,
    limit: Annotated[int, Query(ge=1, le=STATES_LIMIT, description="at most this many")] = (
        STATES_LIMIT
    ),
) -> dict[str, Any]:
    """The settled states (the table each time a figure came to rest), oldest first: the
    replay's timeline."""
    with _reader(request) as reader:
        states = reader.states(after=after, limit=limit)
    return {"states": states, "next_after": states[-1]["id"] if len(states) == limit else None}


@router.get(
    "/states/{state_id}",
    responses=errors(404, 422, e404="no such settled state, or no journal"),
)
def get_journal_state(request: Request, state_id: int) -> dict[str, Any]:
    """A settled state: its time, the figures that came to rest and the table's scene."""
    return _entry(request, JournalReader.state, "settled state", state_id)


@router.get("/{question_id}", responses=errors(404, 422, e404="no such question, or no journal"))
def get_journal_question(request: Request, question_id: int) -> dict[str, Any]:
    """A question journaled: its time, arguments, answer and the scene it was asked on."""
    return _entry(request, JournalReader.question, "question", question_id)


@router.get(
    "/{question_id}/frame.jpg",
    response_class=Response,
    responses={
        200: {"content": {"image/jpeg": {}}, "description": "the camera's picture"},
        **errors(404, 422, e404="no such question, no picture kept for it, or no journal"),
    },
)
def get_journal_frame(request: Request, question_id: int) -> Response:
    """The camera's picture a question was asked on, as the journal keeps it (JPEG)."""
    with _reader(request) as reader:
        jpeg = reader.frame(question_id) if 1 <= question_id <= MAX_ID else None
        held = jpeg is not None or reader.question(question_id) is not None
    if jpeg is None:
        if held:
            raise HTTPException(
                status_code=404, detail=f"no picture kept for question {question_id}"
            )
        raise _missing("question", question_id)
    return Response(jpeg, media_type="image/jpeg", headers={"Cache-Control": "max-age=86400"})
