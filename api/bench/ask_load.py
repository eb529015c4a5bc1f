"""Clients asking rules questions for ``arbitre bench serve``, in a process of their own.

Each client asks ``reach`` or ``fire`` for groups of the demo table, again and again,
until told to stop, waiting when told to retry; the answers' latencies come back.
"""

from __future__ import annotations

import json
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
