"""Undoing the lens: image pixels -> where an ideal pinhole camera would have seen them."""

from __future__ import annotations

import cv2
import numpy as np
from numpy.typing import ArrayLike, NDArray

FloatArray = NDArray[np.float64]

PRECISE = (cv2.TERM_CRITERIA_COUNT | cv2.TERM_CRITERIA_EPS, 100, 1e-9)
"""Iterate until a point moves less than 1e-9 (normalised units), at most 100 times
(OpenCV's default stops after 5, short of that under a strong distortion)."""


def undistort_points(
    pixels: ArrayLike,
    matrix: ArrayLike,
    dist: ArrayLike,
    *,
    new_matrix: ArrayLike | None = None,
    criteria: tuple[int, int, float] = PRECISE,
) -> FloatArray:
    """Image px (..., 2) -> undistorted points (N, 2), iterated to ``criteria``.

    The points are normalised pinhole coordinates, or pixels of ``new_matrix`` when given
    (the camera's own matrix gives the undistorted image).

    >>> camera = np.array([[1000.0, 0, 640], [0, 1000.0, 360], [0, 0, 1]])
    >>> undistort_points([[1640.0, 360.0]], camera, np.zeros(5)).round(9)
    array([[1., 0.]])
    """
    flat = np.asarray(pixels, dtype=np.float64).reshape(-1, 1, 2)
    if len(flat) == 0:
        return np.zeros((0, 2))
    matrix = np.asarray(matrix, dtype=np.float64)
    dist = np.asarray(dist, dtype=np.float64)
    target = None if new_matrix is None else np.asarray(new_matrix, dtype=np.float64)
    points = cv2.undistortPoints(flat, matrix, dist, P=target, criteria=criteria)
    return np.asarray(points, dtype=np.float64).reshape(-1, 2)
