"""The live table on the demo: an arm over the anchors changes nothing; a knocked camera
is posed afresh within a second, and the state (and so the page) says so for 3 s."""

from __future__ import annotations

import math

import numpy as np
import pytest
from numpy.typing import NDArray

from arbitre.api.live.demo import DemoSource, demo_config
from arbitre.api.live.table import MOVED_SHOWN_S, LiveTable
from arbitre.calibration.anchors import MOVED_FRAMES
from arbitre.vision.simulate import arm_over
from tests.api.clock import Clock

FPS = 30


class Covered(DemoSource):
    """The demo's frames with grey arms over some anchors."""

    hidden: tuple[int, ...] = ()

    def read(self) -> NDArray[np.uint8] | None:
        image = super().read()
        assert image is not None
        hidden = [m for m in self._scene().markers if m.id in self.hidden]
        return arm_over(image, self.camera, hidden)


def _run(live: LiveTable, clock: Clock, frames: int) -> None:
    for _ in range(frames):
        clock.now += 1 / FPS
        assert live.step()


def _places(live: LiveTable) -> dict[str, tuple[float, float, float, bool]]:
    return {
        f["id"]: (f["x_mm"], f["y_mm"], f["sigma_mm"], f["stale"]) for f in live.state()["figures"]
    }


@pytest.fixture()
def demo() -> tuple[LiveTable, Covered, Clock]:
    clock, source = Clock(), Covered(move_every_s=1e9)
    live = LiveTable(demo_config(), source, clock=clock)
    _run(live, clock, FPS)
    return live, source, clock


def test_every_anchor_under_arms_for_five_seconds_changes_nothing(
    demo: tuple[LiveTable, Covered, Clock],
) -> None:
    live, source, clock = demo
    before = _places(live)
    assert before and not any(stale for *_, stale in before.values())
    source.hidden = (0, 1, 2, 3)
    _run(live, clock, 5 * FPS)
    state = live.state()
    assert state["anchors_seen"] == [] and state["anchors_held"] == [0, 1, 2, 3]
    assert not state["camera_moved"]
    after = _places(live)
    assert sorted(after) == sorted(before)
    for figure, (x, y, sigma, stale) in after.items():
        x0, y0, sigma0, _ = before[figure]
        assert not stale
        assert math.hypot(x - x0, y - y0) <= 0.5
        assert sigma <= 1.25 * sigma0


def test_a_knocked_camera_is_posed_afresh_within_a_second_and_the_state_says_so(
    demo: tuple[LiveTable, Covered, Clock],
) -> None:
    live, source, clock = demo
    before = _places(live)
    source.move_camera(source.camera.turned(1.0))
    noticed_after = None
    for frame in range(1, FPS + 1):  # within a second
        _run(live, clock, 1)
        if live.state()["camera_moved"]:
            noticed_after = frame
            break
    # The third frame in a row whose anchors all moved (MOVED_FRAMES), once the tracker
    # has found the anchors where the knock put them.
    assert noticed_after is not None and MOVED_FRAMES <= noticed_after <= MOVED_FRAMES + 2
    _run(live, clock, FPS)  # the tracks settle on the new pose
    state = live.state()
    assert state["camera_moved"]  # for 3 s
    after = _places(live)
    assert sorted(after) == sorted(before)
    for figure, (x, y, _, stale) in after.items():
        x0, y0, *_ = before[figure]
        assert not stale and math.hypot(x - x0, y - y0) <= 0.5, figure
    clock.now += MOVED_SHOWN_S
    assert not live.state()["camera_moved"]
