"""`render_plane`: what a camera sees of a flat printed sheet lying on the table plane."""

from __future__ import annotations

import functools

import cv2
import numpy as np
from numpy.typing import NDArray

from arbitre.vision.lens import undistort_points
from arbitre.vision.simulate.camera import Camera, FloatArray


def render_plane(
    camera: Camera, texture: NDArray[np.uint8], mm_per_px: float, *, supersample: int = 2
) -> NDArray[np.uint8]:
    """What ``camera`` sees of a flat printed sheet lying on the plane z = 0.

    The sheet's pixel (u, v) covers the plane's point (u, v) x ``mm_per_px``, so an
    image made by OpenCV's ``generateImage`` of a board is the board laid with its
    object points where OpenCV puts them. Around the sheet the plane is mid-grey.
    Each output pixel is the mean of ``supersample``² rays through it, each traced
    back through the lens model and onto the plane.

    Parameters
    ----------
    camera : the camera; its pose is the plane -> camera transform
    texture : (H, W) uint8 grey sheet
    mm_per_px : size of one sheet pixel on the plane

    Returns
    -------
    (height, width) uint8 grey image
    """
    width, height = camera.image_size
    s = max(int(supersample), 1)
    rays = _pixel_rays(
        camera.camera_matrix.tobytes(), camera.dist_coeffs.tobytes(), (width, height), s
    )
    rotation_t = camera.rotation.T
    centre = camera.position_mm
    directions = np.column_stack([rays, np.ones(len(rays))]) @ rotation_t.T
    with np.errstate(divide="ignore", invalid="ignore"):
        depth = -centre[2] / directions[:, 2]
    points = centre[None, :2] + depth[:, None] * directions[:, :2]
    behind = ~(depth > 0)
    map_x = (points[:, 0] / mm_per_px).astype(np.float32)
    map_y = (points[:, 1] / mm_per_px).astype(np.float32)
    map_x[behind] = -1e6
    fine = cv2.remap(
        texture,
        map_x.reshape(height * s, width * s),
        map_y.reshape(height * s, width * s),
        cv2.INTER_LINEAR,
        borderMode=cv2.BORDER_CONSTANT,
        borderValue=128,
    )
    return np.asarray(
        cv2.resize(fine, (width, height), interpolation=cv2.INTER_AREA), dtype=np.uint8
    )


@functools.lru_cache(maxsize=4)
def _pixel_rays(
    matrix_bytes: bytes, dist_bytes: bytes, size: tuple[int, int], supersample: int
) -> FloatArray:
    """Normalised rays (H*s*W*s, 2) through a grid of sub-pixel centres, for one camera."""
    width, height = size
    matrix = np.frombuffer(matrix_bytes).reshape(3, 3)
    dist = np.frombuffer(dist_bytes)
    u, v = np.meshgrid(
        (np.arange(width * supersample) + 0.5) / supersample - 0.5,
        (np.arange(height * supersample) + 0.5) / supersample - 0.5,
    )
    pixels = np.stack([u.ravel(), v.ravel()], axis=1)
    criteria = (cv2.TERM_CRITERIA_COUNT | cv2.TERM_CRITERIA_EPS, 40, 1e-10)
    return undistort_points(pixels, matrix, dist, criteria=criteria)
