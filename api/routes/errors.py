"""The error answers routes give, as documented in the OpenAPI schema."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pydantic import BaseModel, Field
from starlette.exceptions import HTTPException


class Detail(BaseModel):
    """An error: one short sentence, never more than an excerpt of the input; for a
    refusal of the rules that other languages can word, its ``code`` and ``params`` too
    (the page words ``error.{code}`` of its catalogue with them)."""

    detail: str = Field(examples=["body.question: Input should be a valid string"])
    code: str | None = Field(default=None, examples=["unknown_figure_or_group"])
    params: dict[str, Any] | None = Field(default=None, examples=[{"name": "'alpin'"}])


class Refused(HTTPException):
    """A refusal of the rules (422): its English line, and its ``code`` and ``params``
    when it has them."""

    def __init__(
        self, detail: str, code: str | None = None, params: Mapping[str, Any] | None = None
    ) -> None:
        super().__init__(status_code=422, detail=detail)
        self.code = code
        self.params = dict(params or {})


MEANINGS = {
    400: "the Host header (or a request's Origin) is not a name this server answers to",
    403: "changing the configuration needs the start-up token (header X-Arbitre-Token)",
    404: "no such thing here (a camera the table does not have, say)",
    413: "the request body is larger than the route's limit",
    422: "a malformed body or parameter, or a question the rules cannot read (one line)",
    500: "the change could not be saved (the message names the file); nothing changed",
    503: "not available now (no camera frame yet, or too many camera streams open)",
}


def errors(*codes: int, **meanings: str) -> dict[int | str, dict[str, Any]]:
    """``responses=`` for a route decorator: each code with the `Detail` body.

    ``meanings`` (``e503="..."``) replaces the usual description of a code.

    >>> sorted(errors(403, 422))
    [403, 422]
    >>> errors(503, e503="no frame yet")[503]["description"]
    'no frame yet'
    """
    return {
        code: {"model": Detail, "description": meanings.get(f"e{code}", MEANINGS[code])}
        for code in codes
    }
