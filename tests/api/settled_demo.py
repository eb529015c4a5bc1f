"""The demo table after a second of frames, its figures settled, for the tests of pins."""

from __future__ import annotations

from typing import Any

from arbitre.api.live.demo import DemoSource, demo_config
from arbitre.api.live.table import LiveTable
from tests.api.clock import Clock

CAVALIER = 13  # the demo's cavalier carries marker 13


def settled_demo() -> tuple[LiveTable, DemoSource, Clock]:
    """The demo table 30 frames in (one second of its clock), nobody walking."""
    clock = Clock()
    source = DemoSource(move_every_s=1e9)
    live = LiveTable(demo_config(), source, clock=clock)
    for _ in range(30):
        clock.now += 1 / 30
        assert live.step()
    return live, source, clock


def figure_of(state: dict[str, Any], name: str) -> dict[str, Any]:
    """The figure ``name`` of a state or a scene."""
    found: dict[str, Any] = next(f for f in state["figures"] if f["id"] == name)
    return found
