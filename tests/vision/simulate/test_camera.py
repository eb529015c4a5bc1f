"""The simulator's camera: look_at aims it, project maps table mm to the image."""

from __future__ import annotations

import numpy as np
import pytest

from arbitre.vision.errors import VisionError
from arbitre.vision.simulate import Camera, look_at
from tests.vision.simulate.views import MATRIX, overhead


def test_look_at_puts_the_target_on_the_principal_point() -> None:
    rvec, tvec = look_at((-200.0, -300.0, 700.0), (600.0, 450.0, 0.0))
    camera = Camera(MATRIX, np.zeros(5), (640, 480), rvec, tvec)
    np.testing.assert_allclose(camera.project([[600.0, 450.0, 0.0]]), [[319.5, 239.5]], atol=1e-9)
    np.testing.assert_allclose(camera.position_mm, [-200.0, -300.0, 700.0], atol=1e-9)
    with pytest.raises(VisionError, match="parallel"):
        look_at((0.0, 0.0, 100.0), (0.0, 0.0, 0.0), up=(0.0, 0.0, 1.0))


def test_table_y_points_up_in_an_overhead_image() -> None:
    camera = overhead()
    up, right = camera.project([[100.0, 110.0, 0.0], [110.0, 100.0, 0.0]])
    np.testing.assert_allclose(up, [319.5, 219.5])  # +10 mm in y: 20 px up
    np.testing.assert_allclose(right, [339.5, 239.5])  # +10 mm in x: 20 px right


def test_a_camera_matrix_that_is_not_3x3_is_refused() -> None:
    with pytest.raises(VisionError, match="3x3"):
        Camera(np.eye(2), np.zeros(5), (640, 480), np.zeros(3), np.zeros(3))
