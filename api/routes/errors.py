"""The error answers routes give, as documented in the OpenAPI schema."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, Field


class Detail(BaseModel):
    """An error: one short sentence, never more than an excerpt of the input."""

    detail: str = Field(examples=["body.question: Input should be a valid string"])


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
