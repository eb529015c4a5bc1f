"""The cameras the simulator's tests share."""

from __future__ import annotations

import numpy as np

from arbitre.vision.simulate import Camera, look_at

MATRIX = np.array([[1000.0, 0.0, 319.5], [0.0, 1000.0, 239.5], [0.0, 0.0, 1.0]])


def overhead(
    height_mm: float = 500.0, dist: tuple[float, ...] = (0.0, 0.0, 0.0, 0.0, 0.0)
) -> Camera:
    """A 640 x 480 camera straight over (100, 100): 2 px per mm on the table."""
    rvec, tvec = look_at((100.0, 100.0, height_mm), (100.0, 100.0, 0.0))
    return Camera(MATRIX, np.array(dist), (640, 480), rvec, tvec)
