"""undistort_points: image pixels back to where an ideal pinhole camera would have seen them."""

from __future__ import annotations

import cv2
import numpy as np

from arbitre.vision.lens import undistort_points

# A 1280 x 720 camera: f = 1000 px, principal point (640, 360).
MATRIX = np.array([[1000.0, 0.0, 640.0], [0.0, 1000.0, 360.0], [0.0, 0.0, 1.0]])


def test_a_radial_distortion_worked_by_hand_is_undone() -> None:
    # k1 = -0.2 moves the normalised point (0.5, 0) to 0.5 (1 + k1 r^2) with r^2 = 0.25:
    # 0.5 x 0.95 = 0.475, seen at u = 640 + 1000 x 0.475 = 1115. The principal point stays.
    dist = np.array([-0.2, 0.0, 0.0, 0.0, 0.0])
    points = undistort_points([[1115.0, 360.0], [640.0, 360.0]], MATRIX, dist)
    np.testing.assert_allclose(points, [[0.5, 0.0], [0.0, 0.0]], atol=1e-9)


def test_with_a_new_matrix_the_points_are_its_pixels() -> None:
    # The same point in the undistorted image of the camera's own matrix:
    # u = 640 + 1000 x 0.5 = 1140, v = 360.
    dist = np.array([-0.2, 0.0, 0.0, 0.0, 0.0])
    points = undistort_points([[1115.0, 360.0]], MATRIX, dist, new_matrix=MATRIX)
    np.testing.assert_allclose(points, [[1140.0, 360.0]], atol=1e-6)


def test_a_strong_distortion_is_undone_where_opencv_s_five_steps_fall_short() -> None:
    # k1 = -0.4 at the normalised point (0.8, 0): r^2 = 0.64, 0.8 (1 - 0.256) = 0.5952, seen
    # at u = 1235.2. Iterated to 1e-9 the point comes back; OpenCV's default five steps stop
    # short of it by more than a hundredth (over 10 px at f = 1000).
    dist = np.array([-0.4, 0.0, 0.0, 0.0, 0.0])
    precise = undistort_points([[1235.2, 360.0]], MATRIX, dist)
    np.testing.assert_allclose(precise, [[0.8, 0.0]], atol=1e-9)
    five_steps = undistort_points(
        [[1235.2, 360.0]], MATRIX, dist, criteria=(cv2.TERM_CRITERIA_COUNT, 5, 0.0)
    )
    assert abs(five_steps[0, 0] - 0.8) > 0.01


def test_any_shape_of_points_gives_n_by_2_and_none_gives_an_empty_array() -> None:
    corners = np.array([[[640.0, 360.0]], [[1640.0, 360.0]], [[640.0, 1360.0]]])  # (3, 1, 2)
    points = undistort_points(corners, MATRIX, np.zeros(5))
    # No distortion: (u - 640) / 1000, (v - 360) / 1000.
    np.testing.assert_allclose(points, [[0.0, 0.0], [1.0, 0.0], [0.0, 1.0]], atol=1e-12)
    empty = undistort_points(np.zeros((0, 2)), MATRIX, np.zeros(5))
    assert empty.shape == (0, 2)
