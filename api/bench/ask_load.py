"""Clients asking rules questions for ``arbitre bench serve``, in a process of their own.

Like `ws_load`, kept apart so the clients' process imports nothing heavy. Each client
asks ``reach`` for a group of the demo table, again and again, until told to stop; the
answers' latencies (answered or refused) are sent back.
"""

from __future__ import annotations

import json
import threading
import time
import urllib.error
import urllib.request
from multiprocessing.queues import Queue
from multiprocessing.synchronize import Event

QUESTIONS = (("reach", ["alpins"]), ("reach", ["verts"]), ("fire", ["alpins", "verts"]))


def run_askers(
    port: int, count: int, ready: Event, stop: Event, results: Queue[dict[str, list[float]]]
) -> None:
    """``count`` clients asking in turn until ``stop``: latencies by status."""
    latencies: dict[str, list[float]] = {}
    lock = threading.Lock()

    def client(index: int) -> None:
        question, args = QUESTIONS[index % len(QUESTIONS)]
        body = json.dumps({"question": question, "args": args}).encode()
        while not stop.is_set():
            request = urllib.request.Request(
                f"http://127.0.0.1:{port}/api/ask",
                data=body,
                headers={"Content-Type": "application/json"},
            )
            start = time.perf_counter()
            try:
                with urllib.request.urlopen(request, timeout=60) as response:
                    response.read()
                    status = str(response.status)
            except urllib.error.HTTPError as error:
                status = str(error.code)
                if error.code == 503:
                    delay = float(error.headers.get("Retry-After", "1"))
                    stop.wait(min(delay, 1.0))
            except OSError:
                status = "failed"
            with lock:
                latencies.setdefault(status, []).append(time.perf_counter() - start)

    threads = [threading.Thread(target=client, args=(k,), daemon=True) for k in range(count)]
    for thread in threads:
        thread.start()
    ready.set()
    stop.wait()
    for thread in threads:
        thread.join(timeout=65)
    results.put(latencies)
