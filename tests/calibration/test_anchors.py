"""A live camera's table pose outlives a hand over the anchors, and follows a bumped camera.

A small rendered table (preset "overhead" at 0.35 scale: four anchors at the corners, four
figures), located frame after frame with one `AnchorMemory`, as the live table does.
An arm is a grey band painted over an anchor's image.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Iterable

import numpy as np
import pytest
from numpy.typing import NDArray

from arbitre.calibration.anchors import TAKEN_IN_FRAMES, AnchorMemory
from arbitre.calibration.frame import Frame, locate_frame
from arbitre.calibration.locate import LocateResult
from arbitre.calibration.pose import PoseFailure
from arbitre.calibration.simulated import setup_of
from arbitre.vision.simulate import Camera, arm_over, preset, render

SCENE = preset("overhead", scale=0.35, seed=1)
INTRINSICS, TABLE, ROSTER = setup_of(SCENE)
ANCHORS = sorted(TABLE.anchor_ids)
FIGURES = {m.id: m for m in SCENE.scene.markers if m.id >= 10}


def _picture(camera: Camera, seed: int) -> NDArray[np.uint8]:
    options = dataclasses.replace(SCENE.options, noise_sigma=2.0, seed=seed)
    return render(camera, SCENE.scene, options).image


def _hide(image: NDArray[np.uint8], camera: Camera, anchors: Iterable[int]) -> NDArray[np.uint8]:
    return arm_over(image, camera, [m for m in SCENE.scene.markers if m.id in set(anchors)])


def _locate(image: NDArray[np.uint8], memory: AnchorMemory | None) -> Frame:
    return locate_frame(image, INTRINSICS, TABLE, ROSTER, anchors=memory)


def _placed(frame: Frame) -> dict[int, tuple[float, float, float]]:
    located = frame.located
    assert isinstance(located, LocateResult), located
    return {m.id: (m.x_mm, m.y_mm, m.sigma_mm) for m in located.markers}


CLEAR = [_picture(SCENE.camera, seed) for seed in (1, 2)]


@pytest.fixture(scope="module")
def clear_view() -> dict[int, tuple[float, float, float]]:
    """Where a clear frame, posed from its own four anchors, puts each figure, and its σ."""
    return _placed(_locate(CLEAR[0], None))


@pytest.mark.parametrize("hidden", [[0], [0, 1], [1, 3], ANCHORS])
def test_an_arm_over_the_anchors_moves_no_figure_and_adds_no_doubt(
    hidden: list[int], clear_view: dict[int, tuple[float, float, float]]
) -> None:
    """Anchors under an arm for several seconds (here 60 frames after 10 clear ones): every
    figure stays within 0.5 mm of its clear-view place, its σ within 1.25 times."""
    memory = AnchorMemory(TABLE.anchor_ids)
    for k in range(10):
        _placed(_locate(CLEAR[k % 2], memory))
    covered = [_hide(image, SCENE.camera, hidden) for image in CLEAR]
    for k in range(60):
        frame = _locate(covered[k % 2], memory)
        if k == 0:  # the arm is real: those anchors are not seen
            seen = {m.id for m in frame.detections.markers}
            assert not seen & set(hidden) and set(FIGURES) <= seen
        assert not frame.camera_moved
        placed = _placed(frame)
        assert sorted(placed) == sorted(FIGURES)
        for marker, (x, y, sigma) in placed.items():
            x0, y0, sigma0 = clear_view[marker]
            assert math.hypot(x - x0, y - y0) <= 0.5
            assert sigma <= 1.25 * sigma0


def test_without_the_memory_every_anchor_hidden_loses_the_frame() -> None:
    covered = _hide(CLEAR[0], SCENE.camera, ANCHORS)
    assert isinstance(_locate(covered, None).located, PoseFailure)
    assert isinstance(_locate(covered, AnchorMemory(TABLE.anchor_ids)).located, PoseFailure)


def test_a_camera_bumped_by_two_degrees_is_posed_afresh_within_three_frames() -> None:
    """30 frames before a 2° bump; after it, the third frame in a row whose anchors all
    moved starts the memory again (a tenth of a second at 30 fps), and from then on the
    figures are where they are on the table: within 0.5 mm of the truth."""
    memory = AnchorMemory(TABLE.anchor_ids)
    for k in range(30):
        assert not _locate(CLEAR[k % 2], memory).camera_moved
    bumped = SCENE.camera.turned(2.0)
    after = [_picture(bumped, seed) for seed in (3, 4)]
    frames = [_locate(after[k % 2], memory) for k in range(3)]
    assert [frame.camera_moved for frame in frames] == [False, False, True]
    assert [frame.pose_doubtful for frame in frames] == [True, True, False]
    for k in range(10):
        frame = _locate(after[k % 2], memory)
        assert not frame.camera_moved and not frame.pose_doubtful
        placed = _placed(frame)
        assert sorted(placed) == sorted(FIGURES)
        for marker, (x, y, _) in placed.items():
            truth = FIGURES[marker]
            assert math.hypot(x - truth.x_mm, y - truth.y_mm) <= 0.5


def _square(offset: float) -> NDArray[np.float64]:
    return np.array([[0.0, 0.0], [40.0, 0.0], [40.0, 40.0], [0.0, 40.0]]) + offset


def test_one_anchor_that_moves_alone_is_not_a_bumped_camera() -> None:
    """A hand's edge over one anchor shifts its corners by 5 px; the other three stay: the
    camera did not move, and that anchor's held corners are kept, not the shifted ones."""
    memory = AnchorMemory({0, 1, 2, 3})
    seen = {anchor: _square(100.0 * anchor) for anchor in range(4)}
    memory.pose_from(seen, {})
    for _ in range(10):
        posing = memory.pose_from({**seen, 2: _square(205.0)}, {})
        assert not posing.moved
        assert np.array_equal(posing.corners[2], _square(200.0))


def test_one_anchor_moved_alone_for_a_second_is_taken_in_where_it_is() -> None:
    """A small bump that moved anchor 2 by 3 px and the others by under 2 px: the others
    are followed, and anchor 2, moved alone, is held where it is now after 30 frames."""
    memory = AnchorMemory({0, 1, 2, 3})
    seen = {anchor: _square(100.0 * anchor) for anchor in range(4)}
    memory.pose_from(seen, {})
    nudged = {0: _square(1.0), 1: _square(101.0), 2: _square(203.0), 3: _square(301.0)}
    for frame in range(1, TAKEN_IN_FRAMES + 1):
        posing = memory.pose_from(nudged, {})
        assert not posing.moved and not posing.doubtful
        expected = _square(203.0 if frame == TAKEN_IN_FRAMES else 200.0)
        assert np.array_equal(posing.corners[2], expected), frame


def test_a_bump_seen_through_one_anchor_is_doubtful_until_two_confirm_it() -> None:
    """Arms over three anchors, then the camera knocked: the one anchor in view moved, and
    nothing says whether the camera or the anchor did: the frame is doubtful, not moved. A
    frame without any anchor changes nothing; once two anchors in view agree on the move,
    for three frames, the camera is posed afresh."""
    memory = AnchorMemory({0, 1, 2, 3})
    memory.pose_from({anchor: _square(100.0 * anchor) for anchor in range(4)}, {})
    knocked = {anchor: _square(100.0 * anchor + 12.0) for anchor in range(4)}
    posing = memory.pose_from({0: knocked[0]}, {})
    assert posing.doubtful and not posing.moved
    assert np.array_equal(posing.corners[0], _square(0.0))  # not taken in
    assert not memory.pose_from({}, {}).doubtful
    moved = [memory.pose_from({0: knocked[0], 1: knocked[1]}, {}).moved for _ in range(3)]
    assert moved == [False, False, True]


def test_a_slow_drift_is_followed() -> None:
    """A tripod settling by 0.05 px a frame, 200 frames: the held corners follow to within
    the drift of the last frames (the mean lags by (1 - 0.1) / 0.1 frames = 0.45 px)."""
    memory = AnchorMemory({0, 1})
    for k in range(200):
        posing = memory.pose_from({0: _square(0.05 * k), 1: _square(100 + 0.05 * k)}, {})
        assert not posing.moved
    assert np.allclose(posing.corners[0], _square(0.05 * 199), atol=0.46)
    assert not np.allclose(posing.corners[0], _square(0.05 * 199), atol=0.4)


def test_a_frame_of_another_size_starts_the_memory_again() -> None:
    # The same anchors in a frame twice as large: their pixels are not the old ones, so
    # the held corners are dropped and the frame is posed from its own, as after a move.
    memory = AnchorMemory({0, 1})
    square = np.array([[0.0, 0.0], [10.0, 0.0], [10.0, 10.0], [0.0, 10.0]])
    first = memory.pose_from({0: square, 1: square + 100}, {}, (640, 480))
    assert not first.moved
    larger = memory.pose_from({0: 2 * square, 1: 2 * (square + 100)}, {}, (1280, 960))
    assert larger.moved and not larger.doubtful
    assert np.array_equal(larger.corners[1], 2 * (square + 100))
    again = memory.pose_from({0: 2 * square}, {}, (1280, 960))  # the same size: held
    assert not again.moved and np.array_equal(again.corners[1], 2 * (square + 100))
