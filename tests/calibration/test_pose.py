"""Table pose from anchors, on synthetic projections: a tilted camera with a wide-angle lens
(k1 = -0.25) over a 1200 x 900 mm table with an anchor in each corner."""

from __future__ import annotations

import numpy as np
import pytest
from numpy.typing import NDArray

from arbitre.calibration.errors import CalibrationError
from arbitre.calibration.pose import PoseFailure, TablePose, estimate_table_pose
from arbitre.calibration.table import Anchor, Table
from tests.calibration.scenes import CAMERA, CAMERA_CENTRE_MM, look_at

# The tripod of scenes.py, over a table whose anchor 2 is turned a quarter turn.
TABLE = Table(
    1200,
    900,
    "DICT_4X4_250",
    (
        Anchor(0, 35, 35, 40),
        Anchor(1, 1165, 35, 40),
        Anchor(2, 1165, 865, 40, rotation_deg=90),
        Anchor(3, 35, 865, 40),
    ),
)
TRUE_POSE = look_at(CAMERA_CENTRE_MM, (600.0, 450.0, 0.0))


def detections(pose: TablePose = TRUE_POSE) -> dict[int, NDArray[np.float64]]:
    """The anchors' corners as the camera sees them, exactly."""
    return {a.id: pose.project(a.corners_mm(), CAMERA) for a in TABLE.anchors}


def test_the_camera_is_tilted_and_sees_the_whole_table() -> None:
    tilt_deg = np.degrees(np.arccos(-TRUE_POSE.rotation[2, 2]))  # optical axis vs straight down
    assert 30 < tilt_deg < 35
    corners = np.array([[0, 0, 0], [1200, 0, 0], [1200, 900, 0], [0, 900, 0]], dtype=float)
    pixels = TRUE_POSE.project(corners, CAMERA)
    assert np.all((pixels > 0) & (pixels < [1920, 1080]))


def test_the_pose_is_recovered_from_the_anchor_corners() -> None:
    pose = estimate_table_pose(detections(), CAMERA, TABLE)
    assert isinstance(pose, TablePose)
    assert np.allclose(pose.rvec, TRUE_POSE.rvec, atol=1e-9)
    assert np.allclose(pose.tvec, TRUE_POSE.tvec, atol=1e-6)
    assert np.allclose(pose.camera_centre_mm, CAMERA_CENTRE_MM, atol=1e-6)
    assert pose.anchors_seen == pose.anchors_used == (0, 1, 2, 3)
    assert pose.anchors_rejected == ()
    assert pose.reprojection_px < 1e-6


def test_the_corner_order_matters() -> None:
    """Corners given in another order (the marker turned a quarter) do not fit the table."""
    turned = {i: np.roll(c, 1, axis=0) for i, c in detections().items()}
    pose = estimate_table_pose(turned, CAMERA, TABLE)
    assert isinstance(pose, PoseFailure) or pose.reprojection_px > 3.0


def test_opencv_corner_shapes_are_accepted() -> None:
    shaped = {i: c.reshape(1, 4, 2).astype(np.float32) for i, c in detections().items()}
    pose = estimate_table_pose(shaped, CAMERA, TABLE)
    assert isinstance(pose, TablePose)
    assert np.allclose(pose.camera_centre_mm, CAMERA_CENTRE_MM, atol=0.01)


def test_an_anchor_with_wrong_corners_is_rejected() -> None:
    seen = detections()
    moved = Anchor(2, 1165 - 60, 865 - 30, 40, rotation_deg=90)  # glued elsewhere
    seen[2] = TRUE_POSE.project(moved.corners_mm(), CAMERA)
    seen[7] = seen[0] + 100  # a figure marker: ignored by the pose
    pose = estimate_table_pose(seen, CAMERA, TABLE)
    assert isinstance(pose, TablePose)
    assert pose.anchors_used == (0, 1, 3)
    assert [r.id for r in pose.anchors_rejected] == [2]
    assert "px from the pose of the other anchors" in pose.anchors_rejected[0].reason
    assert np.allclose(pose.camera_centre_mm, CAMERA_CENTRE_MM, atol=1e-6)


def test_noisy_corners_still_give_the_pose() -> None:
    rng = np.random.default_rng(3)
    noisy = {i: c + rng.normal(0, 0.3, c.shape) for i, c in detections().items()}
    pose = estimate_table_pose(noisy, CAMERA, TABLE)
    assert isinstance(pose, TablePose)
    assert pose.anchors_used == (0, 1, 2, 3)
    assert 0.1 < pose.reprojection_px < 0.6
    assert np.linalg.norm(pose.camera_centre_mm - CAMERA_CENTRE_MM) < 10.0


def test_too_few_anchors_is_a_failure_naming_those_seen() -> None:
    only_one = {1: detections()[1]}
    failure = estimate_table_pose(only_one, CAMERA, TABLE)
    assert isinstance(failure, PoseFailure)
    assert failure.message == (
        "anchors seen: 1; the table pose needs at least 2 of the table's anchors (0, 1, 2, 3)"
    )
    assert failure.anchors_seen == (1,)
    none = estimate_table_pose({}, CAMERA, TABLE)
    assert isinstance(none, PoseFailure) and none.message.startswith("anchors seen: none;")


def test_two_anchors_that_disagree_give_no_pose() -> None:
    seen = detections()
    two = {0: seen[0], 1: seen[2]}  # anchor 2 read as anchor 1
    failure = estimate_table_pose(two, CAMERA, TABLE)
    assert isinstance(failure, PoseFailure)
    assert failure.message.startswith("anchors seen: 0, 1; no 2 of them agree on one table pose")


def test_one_anchor_is_enough_when_asked() -> None:
    pose = estimate_table_pose({0: detections()[0]}, CAMERA, TABLE, min_anchors=1)
    assert isinstance(pose, TablePose)
    assert np.allclose(pose.camera_centre_mm, CAMERA_CENTRE_MM, atol=1e-3)


def test_malformed_corners_are_an_error() -> None:
    with pytest.raises(CalibrationError, match=r"marker 0: expected 4 corners"):
        estimate_table_pose({0: [[1.0, 2.0]] * 3, 1: detections()[1]}, CAMERA, TABLE)


def test_a_camera_looking_straight_down_gets_one_rotation_vector_frame_after_frame() -> None:
    # Straight down, image right = +x, the camera is half a turn (about x) from the table:
    # the solver may write that rotation as (pi, 0, 0) or (-pi, 0, 0), and every error
    # moved along the pose's parameters flips sign with it. Solved from 30 noisy frames,
    # the rotation vectors stay together (their largest component positive).
    overhead = look_at(np.array([600.0, 450.0, 1200.0]), (600.0, 450.1, 0.0))
    rng = np.random.default_rng(8)
    vectors = []
    for _ in range(30):
        noisy = {i: c + rng.normal(0, 0.2, c.shape) for i, c in detections(overhead).items()}
        pose = estimate_table_pose(noisy, CAMERA, TABLE)
        assert isinstance(pose, TablePose)
        vectors.append(pose.rvec)
    rotations = np.array(vectors)
    assert np.abs(np.abs(rotations[:, 0]) - np.pi).max() < 0.1  # half a turn about x
    assert np.ptp(rotations, axis=0).max() < 0.2  # written the other way: 2 pi apart
    assert np.all(rotations[:, 0] > 0)
