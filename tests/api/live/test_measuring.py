"""A camera's frames measured in a process of its own (arbitre.api.live.measuring): the same
answers as in the server's process, a dead process replaced, nothing left once closed."""

from __future__ import annotations

import os
import signal
from collections.abc import Iterator
from pathlib import Path

import cv2
import numpy as np
import pytest

from arbitre.api.live.measuring import MeasuringProcess
from arbitre.calibration.anchors import AnchorMemory
from arbitre.calibration.frame import locate_frame
from arbitre.calibration.locate import LocateResult
from arbitre.calibration.simulated import setup_of
from arbitre.vision.detect import MarkerTracker
from arbitre.vision.errors import VisionError
from arbitre.vision.simulate import Render, preset


@pytest.fixture(scope="module")
def overhead() -> tuple[object, Render]:
    scene = preset("overhead", scale=0.4, seed=5)
    return scene, scene.render()


@pytest.fixture()
def measuring(overhead: tuple[object, Render]) -> Iterator[MeasuringProcess]:
    scene, _ = overhead
    process = MeasuringProcess(*setup_of(scene))  # type: ignore[arg-type]
    yield process
    process.close()


def _places(located: object) -> dict[int, tuple[float, float]]:
    assert isinstance(located, LocateResult)
    return {m.id: (m.x_mm, m.y_mm) for m in located.markers}


def test_a_frame_measured_apart_is_measured_as_here(
    overhead: tuple[object, Render], measuring: MeasuringProcess
) -> None:
    scene, picture = overhead
    camera, table, roster = setup_of(scene)  # type: ignore[arg-type]
    tracker = MarkerTracker(
        table.dictionary, camera_matrix=camera.camera_matrix, dist_coeffs=camera.dist_coeffs
    )
    anchors = AnchorMemory(table.anchor_ids)
    for _ in range(3):  # the process keeps its tracker and pose memory from frame to frame
        here = locate_frame(picture.image, camera, table, roster, tracker=tracker, anchors=anchors)
        apart = measuring.locate(picture.image)
        assert _places(apart.located) == _places(here.located)
    first_frame = here
    # a larger frame: a new block of shared memory, and still the answer given here
    first = measuring._memory  # noqa: SLF001 - which block the frames went through
    double = cv2.resize(picture.image, None, fx=2.0, fy=2.0, interpolation=cv2.INTER_CUBIC)
    apart = measuring.locate(double)
    assert measuring._memory is not first  # noqa: SLF001
    here = locate_frame(double, camera, table, roster, tracker=tracker, anchors=anchors)
    assert _places(apart.located) == _places(here.located)
    # posed afresh from the larger frame's own anchors: every marker where it was
    assert apart.camera_moved
    for marker, (x, y) in _places(first_frame.located).items():
        larger = _places(apart.located)[marker]
        assert np.hypot(larger[0] - x, larger[1] - y) < 0.5


def test_a_process_that_dies_is_replaced_at_the_next_frame(
    overhead: tuple[object, Render], measuring: MeasuringProcess
) -> None:
    _, picture = overhead
    measuring.locate(picture.image)
    process = measuring._process  # noqa: SLF001 - the test kills it as the kernel would
    os.kill(process.pid, signal.SIGKILL)
    process.join(timeout=5)
    with pytest.raises(VisionError, match="the measuring process stopped"):
        measuring.locate(picture.image)
    assert measuring.restarts == 1
    assert _places(measuring.locate(picture.image).located)


def test_once_closed_nothing_is_left_and_no_frame_is_measured(
    overhead: tuple[object, Render], measuring: MeasuringProcess
) -> None:
    _, picture = overhead
    measuring.locate(picture.image)
    memory = measuring._memory  # noqa: SLF001
    assert memory is not None
    name = memory.name
    measuring.close()
    assert not Path(f"/dev/shm/{name}").exists()
    with pytest.raises(VisionError, match="stopped"):
        measuring.locate(picture.image)
    assert measuring._process is None  # noqa: SLF001 - no new process was started
