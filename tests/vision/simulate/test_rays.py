"""Rays from pixels into the table frame: the undistorted grid, its sub-pixel samples, and
where a ray meets a level plane."""

from __future__ import annotations

import numpy as np
import pytest

from arbitre.vision.simulate.rays import (
    Rays,
    subpixel_offsets,
    undistorted_grid,
    undistorted_samples,
)
from tests.vision.simulate.views import overhead

# A 3 x 2 image with f = 100 px and its principal point at (1, 0.5), no distortion: the
# pixel (u, v) is the normalised point ((u - 1) / 100, (v - 0.5) / 100).
MATRIX = np.array([[100.0, 0.0, 1.0], [0.0, 100.0, 0.5], [0.0, 0.0, 1.0]])

# The rays of `overhead`, a camera 500 mm straight over (100, 100) with the table's +y up in
# the image: the ray of the normalised point (nx, ny) runs along (nx, -ny, -1) and meets the
# table at (100 + 500 nx, 100 - 500 ny).


def _grid() -> np.ndarray:
    return undistorted_grid(MATRIX.tobytes(), np.zeros(5).tobytes(), 3, 2)


def test_the_grid_holds_every_pixel_centre_undistorted_and_cannot_be_changed() -> None:
    grid = _grid()
    assert grid.shape == (2, 3, 2)
    # (u, v) = (2, 1): ((2 - 1) / 100, (1 - 0.5) / 100) = (0.01, 0.005); (0, 0): (-0.01, -0.005).
    np.testing.assert_allclose(grid[1, 2], [0.01, 0.005], rtol=1e-6)
    np.testing.assert_allclose(grid[0, 0], [-0.01, -0.005], rtol=1e-6)
    with pytest.raises(ValueError):
        grid[0, 0] = 0.0


def test_sub_pixel_offsets_put_one_sample_in_every_row_and_column() -> None:
    # s = 2, k = 0..3, (i, j) = divmod(k, 2) = (0, 0), (0, 1), (1, 0), (1, 1):
    # x = (k + 0.5) / 4 - 0.5; y = (2 j + i + 0.5) / 4 - 0.5 = y of 0.5, 2.5, 1.5, 3.5 quarters.
    ox, oy = subpixel_offsets(2)
    np.testing.assert_allclose(ox, [-0.375, -0.125, 0.125, 0.375])
    np.testing.assert_allclose(oy, [-0.375, 0.125, -0.125, 0.375])
    ox, oy = subpixel_offsets(4)
    assert len(set(ox)) == len(set(oy)) == 16  # 16 samples, 16 rows, 16 columns


def test_samples_of_a_pixel_are_its_centre_moved_by_their_offsets() -> None:
    # Pixel (u, v) = (2, 1), no lens: each sample is ((2 + ox - 1) / 100, (1 + oy - 0.5) / 100);
    # the first, (-0.375, -0.375), is (0.00625, 0.00125).
    ox, oy = subpixel_offsets(2)
    samples = undistorted_samples(_grid(), np.array([1]), np.array([2]), ox, oy)
    expected = np.column_stack([(1.0 + ox) / 100.0, (0.5 + oy) / 100.0])
    np.testing.assert_allclose(samples, expected, rtol=1e-6)
    np.testing.assert_allclose(samples[0], [0.00625, 0.00125], rtol=1e-6)


def test_rays_meet_a_level_plane_below_the_camera_and_miss_one_above() -> None:
    # The ray of (0.1, 0.2) runs along (0.1, -0.2, -1): 500 mm down to the table at
    # (100 + 50, 100 - 100) = (150, 0); 480 mm down to z = 20 at (148, 4).
    rays = Rays(overhead(), np.array([[0.0, 0.0], [0.1, 0.2]]))
    np.testing.assert_allclose(rays.directions, [[0.0, 0.0, -1.0], [0.1, -0.2, -1.0]], atol=1e-12)
    lam, xy = rays.plane_hits(0.0)
    np.testing.assert_allclose(lam, [500.0, 500.0])
    np.testing.assert_allclose(xy, [[100.0, 100.0], [150.0, 0.0]], atol=1e-9)
    lam, xy = rays.plane_hits(20.0)
    np.testing.assert_allclose(xy, [[100.0, 100.0], [148.0, 4.0]], atol=1e-9)
    above, _ = rays.plane_hits(600.0)
    assert np.all(np.isinf(above))


def test_a_subset_keeps_the_origin_and_the_chosen_rays() -> None:
    rays = Rays(overhead(), np.array([[0.0, 0.0], [0.1, 0.2], [-0.1, 0.0]]))
    chosen = rays.subset(np.array([2, 0]))
    np.testing.assert_allclose(chosen.origin, [100.0, 100.0, 500.0], atol=1e-9)
    _, xy = chosen.plane_hits(0.0)
    np.testing.assert_allclose(xy, [[50.0, 100.0], [100.0, 100.0]], atol=1e-9)
