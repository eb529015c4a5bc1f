"""Rays from image pixels into the table frame: the undistorted pixel grid and its samples."""

from __future__ import annotations

import functools

import numpy as np
from numpy.typing import NDArray

from arbitre.vision.lens import undistort_points
from arbitre.vision.simulate.camera import Camera, FloatArray


@functools.lru_cache(maxsize=2)
def undistorted_grid(
    matrix_bytes: bytes, dist_bytes: bytes, width: int, height: int
) -> NDArray[np.float32]:
    """Normalised undistorted coordinates (H, W, 2) of every pixel centre."""
    matrix = np.frombuffer(matrix_bytes, dtype=np.float64).reshape(3, 3)
    dist = np.frombuffer(dist_bytes, dtype=np.float64)
    u, v = np.meshgrid(np.arange(width, dtype=np.float64), np.arange(height, dtype=np.float64))
    normalised = undistort_points(np.column_stack([u.ravel(), v.ravel()]), matrix, dist)
    grid = normalised.astype(np.float32).reshape(height, width, 2)
    grid.setflags(write=False)
    return grid


def undistorted_samples(
    grid: NDArray[np.float32],
    rows: NDArray[np.intp],
    cols: NDArray[np.intp],
    ox: FloatArray,
    oy: FloatArray,
) -> FloatArray:
    """Normalised coordinates (N * S, 2) of S sub-pixel samples in each of N pixels.

    The undistortion map is smooth: at a pixel centre plus its derivative (central
    differences of the exact map) times the offset, it is off by under 1e-3 px
    for any offset within the pixel, even with a wide-angle lens.
    """
    height, width = grid.shape[:2]
    left, right = np.maximum(cols - 1, 0), np.minimum(cols + 1, width - 1)
    up, down = np.maximum(rows - 1, 0), np.minimum(rows + 1, height - 1)
    centre = grid[rows, cols].astype(np.float64)
    du = (grid[rows, right] - grid[rows, left]).astype(np.float64) / (right - left)[:, None]
    dv = (grid[down, cols] - grid[up, cols]).astype(np.float64) / (down - up)[:, None]
    samples = (
        centre[:, None, :] + ox[None, :, None] * du[:, None, :] + oy[None, :, None] * dv[:, None, :]
    )
    return np.asarray(samples.reshape(-1, 2), dtype=np.float64)


class Rays:
    """Rays through a set of image points, in the table frame: origin + lam * directions."""

    def __init__(self, camera: Camera, normalised: NDArray[np.floating]) -> None:
        rotation = camera.rotation
        self.origin = camera.position_mm
        n = normalised.reshape(-1, 2).astype(np.float64)
        self.directions = n[:, :1] * rotation[0] + n[:, 1:] * rotation[1] + rotation[2]

    def plane_hits(self, z_mm: float) -> tuple[FloatArray, FloatArray]:
        """Ray parameter (N,) at the plane z = z_mm (inf when missed) and hit points (N, 2)."""
        dz = self.directions[:, 2]
        with np.errstate(divide="ignore", invalid="ignore"):
            lam = np.where(dz < 0.0, (z_mm - self.origin[2]) / dz, np.inf)
        lam = np.where(lam > 0.0, lam, np.inf)
        finite = np.where(np.isfinite(lam), lam, 0.0)
        xy = self.origin[:2] + finite[:, None] * self.directions[:, :2]
        return lam, xy

    def subset(self, index: NDArray[np.intp]) -> Rays:
        """The rays at the given indices."""
        rays = object.__new__(Rays)
        rays.origin = self.origin
        rays.directions = self.directions[index]
        return rays


def subpixel_offsets(s: int) -> tuple[FloatArray, FloatArray]:
    """Sub-pixel offsets (s*s,) x and y on a rotated grid: s x s strata, s*s distinct rows, columns.

    Every column and every row of the fine grid holds one sample, so an edge along
    either image axis is measured to 1/(2 s^2) px, not 1/(2 s).
    """
    k = np.arange(s * s)
    i, j = np.divmod(k, s)
    return (k + 0.5) / (s * s) - 0.5, (j * s + i + 0.5) / (s * s) - 0.5
