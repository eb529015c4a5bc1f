"""Requests served at a steady pace: a burst at once, then one a turn, and 503 for a
request whose turn is too far away; the camera's stream is never held back."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient
from starlette.types import Receive, Scope, Send

from arbitre.api.pace import Pace


async def _hello(scope: Scope, receive: Receive, send: Send) -> None:
    """An app that answers every request 200 "hello"."""
    await send({"type": "http.response.start", "status": 200, "headers": []})
    await send({"type": "http.response.body", "body": b"hello"})


def test_a_burst_is_served_at_once_then_one_a_turn_then_refused() -> None:
    # 10 a second: a turn every 0.1 s; a burst of 3; a wait of at most 0.25 s.
    # Six requests at t = 0: the first three fit in the burst (their turns, -0.2, -0.1
    # and 0.0 s, are not in the future: no wait); the fourth's turn is at 0.1 s and the
    # fifth's at 0.2 s; the sixth's, 0.3 s, is past 0.25 s away: refused, and it takes
    # no turn.
    pace = Pace(_hello, per_s=10.0, burst=3, max_wait_s=0.25)
    waits = [pace.turn(0.0) for _ in range(6)]
    assert waits[:3] == pytest.approx([0.0, 0.0, 0.0], abs=1e-9)
    assert waits[3:5] == [pytest.approx(0.1), pytest.approx(0.2)]
    assert waits[5] is None
    # At t = 0.15 the next turn is still 0.3 s: 0.15 s to wait, no longer too far.
    assert pace.turn(0.15) == pytest.approx(0.15)
    # A second later the burst is whole again: three more at once.
    assert [pace.turn(1.5) for _ in range(3)] == pytest.approx([0.0, 0.0, 0.0], abs=1e-9)
    assert pace.turn(1.5) == pytest.approx(0.1)


def test_a_request_past_its_wait_is_503_with_retry_after() -> None:
    # One request every 100 s, no burst, no waiting: the second request, sent at once,
    # would wait about 100 s for its turn.
    client = TestClient(Pace(_hello, per_s=0.01, burst=1, max_wait_s=0.0))
    first = client.get("/api/state")
    assert (first.status_code, first.text) == (200, "hello")
    second = client.get("/api/state")
    assert second.status_code == 503
    assert second.headers["retry-after"] == "1"
    assert second.json() == {"detail": "too many requests at once: retry in a second"}


def test_the_camera_stream_takes_no_turn() -> None:
    # The same pace as above: the stream is answered however often it is asked for, and
    # leaves the one turn to the next other request.
    client = TestClient(Pace(_hello, per_s=0.01, burst=1, max_wait_s=0.0))
    for _ in range(3):
        assert client.get("/api/stream.mjpg").status_code == 200
    assert client.get("/api/health").status_code == 200
    assert client.get("/api/health").status_code == 503


@pytest.mark.parametrize(
    "given",
    [{"per_s": 0.0}, {"per_s": -1.0}, {"burst": 0}, {"max_wait_s": -0.5}],
)
def test_a_pace_that_serves_nothing_is_refused(given: dict[str, Any]) -> None:
    with pytest.raises(ValueError, match="need per_s > 0, burst >= 1, max_wait_s >= 0"):
        Pace(_hello, **given)
