"""The club demo's table watched by its two cameras, each of which the test can unplug,
and the table's clock moved a round of frames at a time."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

import numpy as np
from numpy.typing import NDArray

from arbitre.api.live.demo_club import ClubTable, club_sources, demo_club_config
from arbitre.api.live.table import LiveTable
from arbitre.vision.sources import FrameSource
from tests.api.clock import Clock

FRAME_S = 1 / 15  # the table's clock moves this much between two rounds of frames


class Unpluggable(FrameSource):
    """A camera that can be unplugged: then it gives no frame."""

    def __init__(self, inner: FrameSource) -> None:
        self.inner = inner
        self.description = inner.description
        self.unplugged = False

    def read(self) -> NDArray[np.uint8] | None:
        if self.unplugged:
            return None
        image = self.inner.read()
        self.again = self.inner.again
        return image

    def no_frame(self) -> str:
        return f"{self.description}: unplugged"


@contextmanager
def watched(club: ClubTable) -> Iterator[tuple[LiveTable, list[Unpluggable], Clock]]:
    """The live table of ``club``'s two cameras, its clock and its unpluggable cameras;
    the arm leaves the table afterwards."""
    clock = Clock()
    sources = [Unpluggable(source) for source in club_sources(club)]
    live = LiveTable(demo_club_config(), sources, clock=clock, max_fps=None)
    yield live, sources, clock
    club.reach_over(0, [], 0.0)  # the arm leaves


def run(live: LiveTable, clock: Clock, rounds: int) -> None:
    """``rounds`` rounds of frames, the clock moved `FRAME_S` after each."""
    for _ in range(rounds):
        live.step()
        clock.now += FRAME_S
