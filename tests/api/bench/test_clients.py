"""The HTTP clients of ``arbitre bench serve``: each sends its request again and again
until told to stop, polite ones waiting when told to retry, hostile ones not."""

from __future__ import annotations

import multiprocessing
import threading
import urllib.request
from multiprocessing.synchronize import Event

from arbitre.api.bench.clients import send_until_stopped
from tests.api.bench.recording_server import recording_server
from tests.api.ports import free_port


def _stopped_after(seconds: float) -> Event:
    """An event set ``seconds`` from now."""
    stop = multiprocessing.Event()
    threading.Timer(seconds, stop.set).start()
    return stop


def test_each_client_sends_once_when_asked_to() -> None:
    with recording_server({"/ok": 200}) as (port, _):
        ready = multiprocessing.Event()
        latencies = send_until_stopped(
            3,
            lambda _k: urllib.request.Request(f"http://127.0.0.1:{port}/ok"),
            ready,
            _stopped_after(0.5),
            once=True,
        )
    assert ready.is_set()
    assert list(latencies) == ["200"] and len(latencies["200"]) == 3
    assert all(0.0 < seconds < 0.5 for seconds in latencies["200"])


def test_a_polite_client_waits_when_told_to_retry_a_hostile_one_does_not() -> None:
    # The server answers 503 with Retry-After: 1. In half a second the polite client
    # sends once, then waits (until the stop, within the second it was asked to wait);
    # the hostile one sends again and again.
    with recording_server({"/busy": 503}) as (port, _):
        sent = {}
        for polite in (True, False):
            latencies = send_until_stopped(
                1,
                lambda _k: urllib.request.Request(f"http://127.0.0.1:{port}/busy"),
                multiprocessing.Event(),
                _stopped_after(0.5),
                polite=polite,
            )
            assert list(latencies) == ["503"]
            sent[polite] = len(latencies["503"])
    assert sent[True] == 1
    assert sent[False] >= 3


def test_a_request_nobody_answers_is_counted_as_failed() -> None:
    port = free_port()  # nothing listens there
    latencies = send_until_stopped(
        1,
        lambda _k: urllib.request.Request(f"http://127.0.0.1:{port}/"),
        multiprocessing.Event(),
        _stopped_after(0.3),
        once=True,
    )
    assert list(latencies) == ["failed"] and len(latencies["failed"]) == 1
