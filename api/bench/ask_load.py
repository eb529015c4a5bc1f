"""Clients asking rules questions for ``arbitre bench serve``, in a process of their own.

Each client asks ``reach`` or ``fire`` for groups of the demo table, again and again,
until told to stop, waiting when told to retry; the answers' latencies come back. The
paced client asks at a table's pace instead (50 questions a minute, for the journal's
section).
"""

from __future__ import annotations

import json
import time
import urllib.error
import urllib.request
from multiprocessing.queues import Queue
from multiprocessing.synchronize import Event

from arbitre.api.bench.clients import Latencies, send_until_stopped

QUESTIONS = (("reach", ["alpins"]), ("reach", ["verts"]), ("fire", ["alpins", "verts"]))


def run_askers(port: int, count: int, ready: Event, stop: Event, results: Queue[Latencies]) -> None:
    """``count`` clients asking in turn until ``stop``: latencies by status."""

    def request(index: int) -> urllib.request.Request:
        question, args = QUESTIONS[index % len(QUESTIONS)]
        return urllib.request.Request(
            f"http://127.0.0.1:{port}/api/ask",
            data=json.dumps({"question": question, "args": args}).encode(),
            headers={"Content-Type": "application/json"},
        )

    results.put(send_until_stopped(count, request, ready, stop))


def run_paced_askers(
    port: int,
    per_minute: float,
    asking: Event,
    ready: Event,
    stop: Event,
    results: Queue[Latencies],
) -> None:
    """One client asking `QUESTIONS` in turn at ``per_minute`` questions a minute (the
    pace of a table's players) while ``asking`` is set, until ``stop``: latencies by
    status."""
    latencies: Latencies = {}
    period_s = 60.0 / per_minute
    ready.set()
    asked = 0
    asking_s = 0.0  # the time spent asking: pauses do not count, the pace holds across them
    last = time.perf_counter()
    while not stop.wait(0.01):
        now = time.perf_counter()
        if asking.is_set():
            asking_s += now - last
        last = now
        if not asking.is_set() or asking_s < asked * period_s:
            continue
        question, args = QUESTIONS[asked % len(QUESTIONS)]
        request = urllib.request.Request(
            f"http://127.0.0.1:{port}/api/ask",
            data=json.dumps({"question": question, "args": args}).encode(),
            headers={"Content-Type": "application/json"},
        )
        sent = time.perf_counter()
        try:
            with urllib.request.urlopen(request, timeout=60) as response:
                response.read()
                status = str(response.status)
        except urllib.error.HTTPError as error:
            status = str(error.code)
        except OSError:
            status = "failed"
        last = time.perf_counter()
        latencies.setdefault(status, []).append(last - sent)
        if asking.is_set():  # the time answering counts while asking (not into a pause)
            asking_s += last - sent
        asked += 1
    results.put(latencies)
