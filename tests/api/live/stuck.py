"""A camera the test can make give its last picture again, or nothing."""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray

from arbitre.api.live.demo import DemoSource
from arbitre.vision.sources import FrameSource


class Stuck(FrameSource):
    """The demo camera, which can be told to give its last picture again (the same
    object: nothing new), or nothing."""

    description = "test camera"

    def __init__(self) -> None:
        self.inner = DemoSource(move_every_s=1e9)
        self.mode = "live"
        self.last: NDArray[np.uint8] | None = None

    def read(self) -> NDArray[np.uint8] | None:
        if self.mode == "nothing":
            return None
        if self.mode == "repeat" and self.last is not None:
            return self.last
        self.last = self.inner.read()
        return self.last
