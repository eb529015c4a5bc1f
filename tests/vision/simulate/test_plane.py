"""render_plane: a flat sheet seen through a camera, exact enough to calibrate from."""

from __future__ import annotations

import numpy as np
import pytest

from arbitre.calibration.board import Board
from arbitre.calibration.intrinsics import CalibrationResult, calibrate_camera
from arbitre.vision.simulate import Camera, look_at, render_plane


def test_intrinsics_come_back_from_rendered_charuco_views() -> None:
    # A 960 x 540 wide-angle camera (fx = fy = 700 px, k1 = -0.25) and 12 views of a
    # 7 x 5 ChArUco board with 30 mm squares from 25-40 cm away.
    board = Board(
        "charuco",
        squares_x=7,
        squares_y=5,
        square_mm=30.0,
        marker_mm=22.0,
        dictionary="DICT_5X5_100",
    )
    sheet = board.charuco_board().generateImage((7 * 30 * 8, 5 * 30 * 8), marginSize=0)
    matrix = np.array([[700.0, 0.0, 479.5], [0.0, 700.0, 269.5], [0.0, 0.0, 1.0]])
    dist = np.array([-0.25, 0.08, 0.0, 0.0, 0.0])
    rng = np.random.default_rng(1)
    views = []
    for index in range(12):
        eye = (105 + rng.uniform(-120, 120), 75 + rng.uniform(-90, 90), -rng.uniform(250, 400))
        rvec, tvec = look_at(eye, (105, 75, 0), up=(rng.uniform(-0.4, 0.4), -1.0, 0.0))
        views.append(
            (f"v{index}", render_plane(Camera(matrix, dist, (960, 540), rvec, tvec), sheet, 1 / 8))
        )
    result = calibrate_camera(views, board)
    assert isinstance(result, CalibrationResult), result
    found = result.intrinsics.camera_matrix
    # The targets: focal lengths within 0.5 %, principal point within 4 px.
    assert found[0, 0] == pytest.approx(700.0, rel=0.005)
    assert found[1, 1] == pytest.approx(700.0, rel=0.005)
    assert np.hypot(found[0, 2] - 479.5, found[1, 2] - 269.5) < 4.0
    assert result.rms_px < 0.2


def test_the_sheet_lands_where_the_camera_projects_it() -> None:
    # A white sheet with one black 10 mm square at (50..60, 20..30) mm, seen straight on.
    sheet = np.full((400, 800), 255, np.uint8)
    sheet[200:300, 500:600] = 0  # 10 px per mm
    matrix = np.array([[500.0, 0.0, 319.5], [0.0, 500.0, 239.5], [0.0, 0.0, 1.0]])
    rvec, tvec = look_at((40, 20, -200), (40, 20, 0), up=(0, -1, 0))
    camera = Camera(matrix, np.zeros(5), (640, 480), rvec, tvec)
    image = render_plane(camera, sheet, 0.1)
    corners = camera.project(np.array([[50.0, 20.0, 0.0], [60.0, 30.0, 0.0]]))
    (u0, v0), (u1, v1) = np.sort(corners, axis=0)
    inside = image[int(v0) + 2 : int(v1) - 1, int(u0) + 2 : int(u1) - 1]
    assert inside.max() < 20
    assert image[int(v0) - 3, int(u0) - 3] > 235
