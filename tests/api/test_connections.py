"""How the server treats connections: a request head that does not come whole in time loses
its connection, one that came in time is never cut by the head's limit (a real uvicorn
server over a raw socket)."""

from __future__ import annotations

import socket
import time
from collections.abc import Iterator

import pytest

from tests.api.real_server import real_server

TOKEN = "t"
REPLY_WITHIN_S = 5.0


@pytest.fixture(scope="module")
def port() -> Iterator[int]:
    with real_server(TOKEN) as served:
        yield served


def test_a_request_head_that_does_not_come_whole_in_time_loses_its_connection(
    port: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A client sends half a request line and then a byte now and then: after the head's
    # time (here 0.5 s, counted from the connection) the server closes the connection,
    # bytes or not. Before, uvicorn held it for as long as the client liked.
    from arbitre.api import connections

    monkeypatch.setattr(connections, "HEAD_S", 0.5)
    started = time.monotonic()
    with socket.create_connection(("127.0.0.1", port), timeout=REPLY_WITHIN_S) as connection:
        connection.sendall(b"GET /api/state HT")
        closed = False
        for byte in b"TP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: " + b"a" * 40:
            time.sleep(0.05)
            try:
                connection.sendall(bytes([byte]))
            except OSError:  # reset: closed
                closed = True
                break
        if not closed:
            try:
                closed = connection.recv(100) == b""
            except OSError:
                closed = True
    assert closed
    elapsed = time.monotonic() - started
    assert 0.5 <= elapsed < REPLY_WITHIN_S


def test_a_connection_whose_head_came_in_time_is_not_cut_by_the_head_limit(
    port: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The head's time no longer counts once the head is whole: two requests on one
    # connection, the second sent after the head's time has passed twice (within the
    # keep-alive time), both answered; and a WebSocket stays open past it.
    from arbitre.api import connections

    monkeypatch.setattr(connections, "HEAD_S", 0.3)
    request = b"GET /api/health HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"
    with socket.create_connection(("127.0.0.1", port), timeout=REPLY_WITHIN_S) as connection:
        for _ in range(2):
            connection.sendall(request)
            assert _whole_response(connection).startswith(b"HTTP/1.1 200")
            time.sleep(0.7)
    with socket.create_connection(("127.0.0.1", port), timeout=REPLY_WITHIN_S) as connection:
        connection.sendall(
            b"GET /api/ws HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\n"
            b"Connection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
            b"Sec-WebSocket-Version: 13\r\n\r\n"
        )
        reply = connection.recv(65536)
        assert reply.startswith(b"HTTP/1.1 101")
        connection.settimeout(0.2)
        try:  # the state sent on connecting
            while connection.recv(65536):
                pass
        except TimeoutError:
            pass
        time.sleep(0.7)
        connection.settimeout(REPLY_WITHIN_S)
        connection.sendall(bytes([0x89, 0x80, 1, 2, 3, 4]))  # a masked, empty ping
        assert connection.recv(2) == bytes([0x8A, 0x00])  # its pong: still open


def _whole_response(connection: socket.socket) -> bytes:
    """One whole HTTP response (its head, then as many bytes as its Content-Length says):
    what one recv gives may be the head alone, the body coming in a second packet."""
    data = b""
    while b"\r\n\r\n" not in data:
        part = connection.recv(65536)
        assert part, f"closed before a whole head: {data!r}"
        data += part
    head, _, body = data.partition(b"\r\n\r\n")
    length = next(
        int(line.split(b":", 1)[1])
        for line in head.split(b"\r\n")
        if line.lower().startswith(b"content-length:")
    )
    while len(body) < length:
        part = connection.recv(65536)
        assert part, "closed before the whole body"
        body += part
    return head + b"\r\n\r\n" + body
