"""Request bodies: refused past their limit before they are read, JSON strict and finite.

The limits are checked against a real uvicorn server over a raw socket (the test client
reads a whole body before the app sees it), the JSON rules with the test client.
"""

from __future__ import annotations

import json
import socket
import time
from collections.abc import Iterator

import pytest
from fastapi.testclient import TestClient

from arbitre.api.bodies import MAX_BODY_BYTES, MAX_DEPTH, BadJson, depth, strict_json
from arbitre.api.hosts import LOOPBACK
from arbitre.api.main import create_app
from arbitre.rules.scene import MAX_SCENE_BYTES
from tests.api.real_server import real_server, still_live

TOKEN = "t"
REPLY_WITHIN_S = 5.0


@pytest.fixture(scope="module")
def client() -> Iterator[TestClient]:
    app = create_app(still_live(), token=TOKEN, run_loop=False, hosts=[*LOOPBACK, "testserver"])
    with TestClient(app) as test_client:
        yield test_client


@pytest.fixture(scope="module")
def port() -> Iterator[int]:
    with real_server(TOKEN) as served:
        yield served


def _send_then_read(port: int, head: bytes, chunks: Iterator[bytes]) -> tuple[bytes, int]:
    """Send ``head``, then ``chunks`` until the server stops taking them; its reply and
    how many body bytes were sent."""
    sent = 0
    with socket.create_connection(("127.0.0.1", port), timeout=REPLY_WITHIN_S) as connection:
        connection.sendall(head)
        try:
            for chunk in chunks:
                connection.sendall(chunk)
                sent += len(chunk)
        except OSError:  # refused and closed, or no longer read: stop sending
            pass
        reply = b""
        try:
            while len(reply) < 10_000:
                part = connection.recv(65536)
                if not part:
                    break
                reply += part
        except OSError:
            pass
    return reply, sent


def test_a_100_mb_body_is_refused_from_its_length_alone(port: int) -> None:
    head = (
        b"POST /api/ask HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
        b"Content-Length: 100000000\r\n\r\n"
    )
    started = time.monotonic()
    # Only 64 kB of the announced 100 MB are sent: the answer comes all the same.
    reply, _ = _send_then_read(port, head, iter([b"{" + b" " * 65535]))
    assert reply.startswith(b"HTTP/1.1 413"), reply[:200]
    assert time.monotonic() - started < REPLY_WITHIN_S
    assert len(reply) < 1000  # nothing echoed
    assert b"larger than 2 MB" in reply


def test_a_chunked_body_is_counted_and_refused_once_past_the_limit(port: int) -> None:
    head = (
        b"POST /api/ask HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
        b"Transfer-Encoding: chunked\r\n\r\n"
    )
    size = 64 * 1024

    def chunks() -> Iterator[bytes]:  # 10 MB offered, never the closing empty chunk
        for _ in range(160):
            yield f"{size:x}\r\n".encode() + b" " * size + b"\r\n"

    reply, sent = _send_then_read(port, head, chunks())
    assert reply.startswith(b"HTTP/1.1 413"), reply[:200]
    assert sent < 10 * 1024 * 1024  # the server stopped reading long before the end
    assert len(reply) < 1000


def test_a_body_under_the_limit_is_served(port: int) -> None:
    body = json.dumps({"question": "groups", "args": [], "extras": {}, "pad": ""}).encode()
    head = (
        b"POST /api/ask HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
        + f"Content-Length: {len(body)}\r\nConnection: close\r\n\r\n".encode()
    )
    reply, _ = _send_then_read(port, head, iter([body]))
    # "pad" is not a field of a question: 422 naming it, so the body was read and checked.
    assert reply.startswith(b"HTTP/1.1 422"), reply[:200]
    assert b"pad" in reply


def test_the_limit_is_2_mb_for_a_question_and_10_mb_for_a_scene_file(client: TestClient) -> None:
    padding = " " * (MAX_BODY_BYTES + 10)
    big_question = '{"question": "groups"' + padding + "}"
    reply = client.post(
        "/api/ask", content=big_question, headers={"content-type": "application/json"}
    )
    assert reply.status_code == 413
    assert reply.json()["detail"] == "the request body is larger than 2 MB"
    # A 3 MB scene file (a comment pads it) is read; 10 MB and one byte is not.
    scene = "ruleset: choc-base-6\ntable: {width_mm: 900, depth_mm: 600}\nfigures: []\n# "
    reply = client.post("/api/scene/read", content=scene + "x" * 3_000_000)
    assert reply.status_code == 200, reply.text[:300]
    reply = client.post("/api/scene/read", content=scene + "x" * MAX_SCENE_BYTES)
    assert reply.status_code == 413
    assert reply.json()["detail"] == "the request body is larger than 10 MB"


@pytest.mark.parametrize(
    ("body", "fragment"),
    [
        (b'{"question": NaN}', "NaN is not a JSON number"),
        (b'{"question": "distance", "extras": {"x": Infinity}}', "Infinity is not"),
        (b'{"question": "distance", "extras": {"x": -Infinity}}', "-Infinity is not"),
        (b'{"question": "distance", "extras": {"x": 1e400}}', "1e400 is too large"),
        (b'{"question": "distance", "extras": {"x": ' + b"9" * 400 + b"}}", "too large"),
        (b"[" * 100 + b"]" * 100, f"deeper than {MAX_DEPTH}"),
        (b"[" * 100_000 + b"]" * 100_000, f"deeper than {MAX_DEPTH}"),
        (b'{"question": "\xff"}', "not UTF-8"),
        (b'{"question": ', "malformed JSON at character 13"),
    ],
)
def test_json_that_is_not_plain_and_finite_is_422_in_one_line(
    client: TestClient, body: bytes, fragment: str
) -> None:
    reply = client.post("/api/ask", content=body, headers={"content-type": "application/json"})
    assert reply.status_code == 422
    detail = reply.json()["detail"]
    assert fragment in detail
    assert "\n" not in detail and len(detail) < 200


def test_nan_in_options_or_terrain_is_422(client: TestClient) -> None:
    headers = {"content-type": "application/json", "x-arbitre-token": TOKEN}
    for path, body in [
        ("/api/options", b'{"options": {"unit_mm": NaN}}'),
        ("/api/terrain", b'{"terrain": [{"id": "w", "kind": "wood", "polygon_mm": [[NaN, 0]]}]}'),
    ]:
        reply = client.put(path, content=body, headers=headers)
        assert reply.status_code == 422, path
        assert "NaN" in reply.json()["detail"]
    assert client.get("/api/state").json()["unit_mm"] == 100  # nothing changed


def test_strict_json_keeps_ordinary_numbers() -> None:
    assert strict_json(b'{"a": [1, -2.5, 1e308, 0]}') == {"a": [1, -2.5, 1e308, 0]}
    assert strict_json(b"[" * MAX_DEPTH + b"]" * MAX_DEPTH) is not None
    with pytest.raises(BadJson):
        strict_json(b"[" * (MAX_DEPTH + 1) + b"]" * (MAX_DEPTH + 1))


def test_depth_counts_lists_and_objects() -> None:
    # {"a": [1, {"b": [[]]}]}: object 1, list 2, object 3, list 4, list 5.
    assert depth({"a": [1, {"b": [[]]}]}) == 5
    assert depth("text") == 0


def test_a_body_that_stops_coming_is_given_up(port: int, monkeypatch: pytest.MonkeyPatch) -> None:
    # A client announces 1,000 bytes, sends ten and waits: after the body's idle time
    # (here 0.5 s) the server answers 408 and closes, its place freed.
    from arbitre.api import bodies

    monkeypatch.setattr(bodies, "BODY_IDLE_S", 0.5)
    head = (
        b"POST /api/ask HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
        b"Content-Length: 1000\r\n\r\n"
    )
    started = time.monotonic()
    reply, _ = _send_then_read(port, head, iter([b'{"question"']))
    assert reply.startswith(b"HTTP/1.1 408"), reply[:200]
    assert b"stopped coming for 0.5 s" in reply
    assert time.monotonic() - started < REPLY_WITHIN_S
