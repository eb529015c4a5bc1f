"""The demo table served to a test client, frame by frame, behind a camera the test can
unplug (FastAPI's TestClient)."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

import numpy as np
from fastapi.testclient import TestClient
from numpy.typing import NDArray

from arbitre.api.hosts import LOOPBACK
from arbitre.api.live.demo import DemoSource, demo_config
from arbitre.api.live.table import LiveTable
from arbitre.api.main import create_app
from arbitre.vision.sources import FrameSource

TOKEN = "secret-token"
AUTH = {"X-Arbitre-Token": TOKEN}
# TestClient sends "Host: testserver": the name this server is started to answer to.
TEST_HOSTS = [*LOOPBACK, "testserver"]


class Unplugged(FrameSource):
    """A camera that gives frames, then none (unplugged), then frames again."""

    description = "test camera"

    def __init__(self, inner: FrameSource) -> None:
        self.inner = inner
        self.plugged = True

    def read(self) -> NDArray[np.uint8] | None:
        return self.inner.read() if self.plugged else None


@contextmanager
def served_demo() -> Iterator[tuple[TestClient, LiveTable, DemoSource]]:
    """A client of the demo table's API (token `TOKEN`), the live table three frames in
    behind an `Unplugged` camera, and the demo source."""
    source = DemoSource(move_every_s=1e9)  # nobody walks during the tests
    live = LiveTable(
        demo_config(),
        Unplugged(source),
    )
    for _ in range(3):
        assert live.step()
    with TestClient(create_app(live, token=TOKEN, run_loop=False, hosts=TEST_HOSTS)) as client:
        yield client, live, source
