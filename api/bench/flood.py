"""Hostile clients for ``arbitre bench serve``, in a process of their own: four clients
sending one kind of request again and again, never waiting, even when told to retry.

Kept apart, like `ask_load`, so that the clients' process imports nothing heavy. Each
flood is one endpoint that needs no token; the counts of answers by status come back.
"""

from __future__ import annotations

import threading
import urllib.error
import urllib.request
from multiprocessing.queues import Queue
from multiprocessing.synchronize import Event

FLOODS = ("scene/read", "state", "snapshot.jpg", "scene")
"""The endpoints flooded, each in turn: a scene file read, the state, the camera's
picture and the table as a scene."""

SCENE_FIGURES = 1000


def big_scene() -> bytes:
    """A scene file of 1,000 figures (about 100 kB): the largest a club would send."""
    lines = ["ruleset: choc-base-6", "table: {width_mm: 1800, depth_mm: 1200}", "figures:"]
    for k in range(SCENE_FIGURES):
        x, y = 40 + 50 * (k % 34), 40 + 40 * (k // 34)
        side = "blue" if k % 2 else "red"
        lines.append(f"  - {{id: f{k}, side: {side}, x_mm: {x}, y_mm: {y}, type: TD}}")
    return ("\n".join(lines) + "\n").encode()


def run_flood(
    port: int, endpoint: str, count: int, ready: Event, stop: Event, results: Queue[dict[str, int]]
) -> None:
    """``count`` clients sending ``endpoint`` without pause until ``stop``: how many
    answers of each status."""
    counts: dict[str, int] = {}
    lock = threading.Lock()
    body = big_scene() if endpoint == "scene/read" else None

    def client() -> None:
        while not stop.is_set():
            request = urllib.request.Request(
                f"http://127.0.0.1:{port}/api/{endpoint}",
                data=body,
                headers={"Content-Type": "text/plain"} if body else {},
            )
            try:
                with urllib.request.urlopen(request, timeout=60) as response:
                    response.read()
                    status = str(response.status)
            except urllib.error.HTTPError as error:
                status = str(error.code)  # a 503 is sent again at once: hostile
            except OSError:
                status = "failed"
            with lock:
                counts[status] = counts.get(status, 0) + 1

    threads = [threading.Thread(target=client, daemon=True) for _ in range(count)]
    for thread in threads:
        thread.start()
    ready.set()
    stop.wait()
    for thread in threads:
        thread.join(timeout=65)
    results.put(counts)
