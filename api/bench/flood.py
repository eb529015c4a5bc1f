"""Hostile clients for ``arbitre bench serve``, in a process of their own: clients
sending one kind of request again and again, never waiting, even when told to retry.

Each flood is one endpoint that needs no token; the counts of answers by status come
back. The last is a burst: a hundred clients at once, each asking one costly question.
"""

from __future__ import annotations

import json
import urllib.request
from multiprocessing.queues import Queue
from multiprocessing.synchronize import Event
from typing import NamedTuple

from arbitre.api.bench.clients import send_until_stopped


class Flood(NamedTuple):
    """``clients`` clients sending ``endpoint`` (once each, with ``once``)."""

    endpoint: str
    clients: int = 4
    once: bool = False

    @property
    def name(self) -> str:
        """How the report names it."""
        what = {"ask": "a reach in a comb-shaped wood 2 km long"}.get(self.endpoint)
        return f"/api/{self.endpoint}" + (f" ({what})" if what else "")


FLOODS = (
    Flood("scene/read"),
    Flood("state"),
    Flood("snapshot.jpg"),
    Flood("scene"),
    Flood("ask"),
    Flood("ask", clients=100, once=True),
)
"""The endpoints flooded, each in turn: a scene file read, the state, the camera's
picture, the table as a scene, a costly question; then a burst of costly questions."""

SCENE_FIGURES = 1000


def big_scene() -> bytes:
    """A scene file of 1,000 figures (about 60 kB): the largest a club would send."""
    lines = ["ruleset: choc-base-6", "table: {width_mm: 1800, depth_mm: 1200}", "figures:"]
    for k in range(SCENE_FIGURES):
        x, y = 40 + 50 * (k % 34), 40 + 40 * (k // 34)
        side = "blue" if k % 2 else "red"
        lines.append(f"  - {{id: f{k}, side: {side}, x_mm: {x}, y_mm: {y}, type: TD}}")
    return ("\n".join(lines) + "\n").encode()


def comb(top_mm: float, bottom_mm: float) -> list[list[float]]:
    """A wood like a comb: 20 teeth 20 mm wide, 30 mm apart, from ``bottom_mm`` to
    ``top_mm``, joined below (about 2 kB of scene)."""
    points = [[100.0, bottom_mm]]
    x = 100.0
    for _ in range(20):
        points += [[x, top_mm], [x + 20.0, top_mm], [x + 20.0, bottom_mm + 1000.0]]
        x += 50.0
        points.append([x, bottom_mm + 1000.0])
    points[-1] = [x - 30.0, bottom_mm]
    return points


def costly_question() -> bytes:
    """A reach on a scene of 2 kB whose wood, a comb with teeth 2 km long, once took a
    server to gigabytes: the body of a ``POST /api/ask``."""
    scene = {
        "ruleset": "choc-base-6",
        "table": {"width_mm": 1200, "depth_mm": 900},
        "options": {"unit_mm": 100},
        "figures": [
            {"id": "a", "side": "blue", "x_mm": 590, "y_mm": 400, "attrs": {"alone": True}}
        ],
        "terrain": [{"id": "comb", "kind": "wood", "polygon_mm": comb(999_000.0, -999_000.0)}],
    }
    return json.dumps({"question": "reach", "args": ["a"], "scene": scene}).encode()


def run_flood(
    port: int, flood: Flood, ready: Event, stop: Event, results: Queue[dict[str, int]]
) -> None:
    """``flood``'s clients sending without pause until ``stop``: how many answers of
    each status."""
    if flood.endpoint == "scene/read":
        body: bytes | None = big_scene()
        headers = {"Content-Type": "text/plain"}
    elif flood.endpoint == "ask":
        body, headers = costly_question(), {"Content-Type": "application/json"}
    else:
        body, headers = None, {}

    def request(_index: int) -> urllib.request.Request:
        url = f"http://127.0.0.1:{port}/api/{flood.endpoint}"
        return urllib.request.Request(url, data=body, headers=headers)

    answers = send_until_stopped(flood.clients, request, ready, stop, polite=False, once=flood.once)
    results.put({status: len(latencies) for status, latencies in answers.items()})
