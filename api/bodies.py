"""Request bodies, bounded and strict, before any route reads them.

A body longer than its route's limit is refused with HTTP 413: at once when its
``Content-Length`` says so, else as soon as the chunks received add up to more (the
rest is never read). A JSON body must be plain JSON: ``NaN``, ``Infinity`` and
numbers no float can hold (``1e400``, a 400-digit integer) are refused with 422, as
are bodies nested deeper than `MAX_DEPTH` or not UTF-8 — Python's own parser would
accept the first ones, and the error shown would echo what cannot be encoded.
"""

from __future__ import annotations

import asyncio
import email.message
import json
import math
from collections.abc import Mapping, Sequence
from typing import Any

from starlette.datastructures import Headers
from starlette.types import ASGIApp, Message, Receive, Scope, Send

MAX_BODY_BYTES = 2_000_000
"""Largest body of a request (a question, options, terrain): 2 MB."""
MAX_DEPTH = 64
"""Deepest nesting of lists and objects a JSON body may have (a scene needs about 6)."""
SHOWN_CHARS = 40  # at most this much of the input is quoted back in an error
MAX_NUMBER_CHARS = 309  # longer integers than 10**308 do not fit a float


class BodyTooLarge(Exception):
    """The body went past its limit while it was being received."""


class BadJson(ValueError):
    """A JSON body that is not plain, finite, shallow JSON."""


def _constant(name: str) -> Any:
    raise BadJson(f"{name} is not a JSON number: numbers must be finite")


def _float(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise BadJson(f"the number {text[:SHOWN_CHARS]} is too large for a float")
    return value


def _int(text: str) -> int:
    if len(text.lstrip("-")) > MAX_NUMBER_CHARS:
        raise BadJson(f"the number {text[:SHOWN_CHARS]}... is too large for a float")
    return int(text)


def depth(value: Any) -> int:
    """How deeply lists and objects nest in ``value`` (0 for a number or string).

    >>> depth(3), depth([]), depth({"a": [1, {"b": 2}]})
    (0, 1, 3)
    """
    deepest = 0
    stack: list[tuple[Any, int]] = [(value, 1)]
    while stack:
        item, level = stack.pop()
        if isinstance(item, dict):
            item = list(item.values())
        if isinstance(item, list):
            deepest = max(deepest, level)
            stack.extend((child, level + 1) for child in item)
    return deepest


def strict_json(body: bytes) -> Any:
    """The data of a JSON body, or `BadJson` saying in one line what is wrong.

    >>> strict_json(b'{"unit_mm": 100}')
    {'unit_mm': 100}
    >>> strict_json(b'{"question": NaN}')
    Traceback (most recent call last):
    ...
    arbitre.api.bodies.BadJson: NaN is not a JSON number: numbers must be finite
    """
    try:
        text = body.decode("utf-8")
    except UnicodeDecodeError:
        raise BadJson("the body is not UTF-8 text") from None
    try:
        data = json.loads(text, parse_constant=_constant, parse_float=_float, parse_int=_int)
    except json.JSONDecodeError as error:
        raise BadJson(f"malformed JSON at character {error.pos}: {error.msg}") from None
    except RecursionError:
        raise BadJson(f"the JSON nests deeper than {MAX_DEPTH} levels") from None
    if depth(data) > MAX_DEPTH:
        raise BadJson(f"the JSON nests deeper than {MAX_DEPTH} levels")
    return data


def is_json(headers: Headers) -> bool:
    """Whether FastAPI reads this body as JSON (``application/json`` or ``*+json``)."""
    value = headers.get("content-type")
    if not value:
        return False
    message = email.message.Message()
    message["content-type"] = value
    subtype = message.get_content_subtype()
    return message.get_content_maintype() == "application" and (
        subtype == "json" or subtype.endswith("+json")
    )


class BodyGuard:
    """ASGI middleware: bounds every HTTP body (413) and refuses non-strict JSON (422).

    ``limits`` gives a larger (or smaller) limit to some paths; every other path gets
    ``default_bytes``. The body is received here, then handed to the app in one piece.
    """

    def __init__(
        self,
        app: ASGIApp,
        *,
        default_bytes: int = MAX_BODY_BYTES,
        limits: Mapping[str, int] | None = None,
    ) -> None:
        self.app = app
        self.default_bytes = default_bytes
        self.limits = dict(limits or {})

    def limit(self, path: str) -> int:
        return self.limits.get(path, self.default_bytes)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        headers = Headers(scope=scope)
        limit = self.limit(str(scope.get("path", "")))
        declared = headers.get("content-length", "")
        if declared.isdigit() and int(declared) > limit:
            await send_detail(send, 413, _too_large(limit), close=True)
            return
        try:
            body, last = await _receive_body(receive, limit)
        except BodyTooLarge:
            await send_detail(send, 413, _too_large(limit), close=True)
            return
        except TimeoutError:  # a client sending its body too slowly holds a place for nothing
            await send_detail(send, 408, _too_slow(), close=True)
            return
        if last is not None:  # the client left before the body was whole
            return
        if body and is_json(headers):
            try:
                strict_json(body)
            except BadJson as error:
                await send_detail(send, 422, f"body: {error}")
                return
        given = False

        async def replay() -> Message:
            nonlocal given
            if not given:
                given = True
                return {"type": "http.request", "body": body, "more_body": False}
            return await receive()

        await self.app(scope, replay, send)


BODY_IDLE_S = 10.0
"""A body whose next part does not come within this long is given up (408)."""


async def _receive_body(receive: Receive, limit: int) -> tuple[bytes, Message | None]:
    """The whole body (`BodyTooLarge` past ``limit``, `TimeoutError` when a part does not
    come within `BODY_IDLE_S`), or the disconnect that cut it."""
    chunks: list[bytes] = []
    size = 0
    while True:
        message = await asyncio.wait_for(receive(), BODY_IDLE_S)
        if message["type"] != "http.request":
            return b"", message
        chunk = message.get("body", b"")
        size += len(chunk)
        if size > limit:
            raise BodyTooLarge
        chunks.append(chunk)
        if not message.get("more_body", False):
            return b"".join(chunks), None


def _too_slow() -> str:
    return f"the request body stopped coming for {BODY_IDLE_S:g} s"


def _too_large(limit: int) -> str:
    return f"the request body is larger than {limit / 1_000_000:g} MB"


async def send_detail(
    send: Send,
    status: int,
    detail: str,
    *,
    close: bool = False,
    headers: Sequence[tuple[bytes, bytes]] = (),
) -> None:
    """Answer ``{"detail": detail}`` with ``status`` (and ``headers``); ``close``: end the
    connection too (its body was left unread)."""
    body = json.dumps({"detail": detail}).encode()
    headers = [
        (b"content-type", b"application/json"),
        (b"content-length", str(len(body)).encode()),
        *headers,
    ]
    if close:
        headers.append((b"connection", b"close"))
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": body})
