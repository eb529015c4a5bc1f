"""Sub-pixel sides and corners of markers, on images whose edges are known exactly."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from arbitre.vision.edges import read_cells, refine_corners
from arbitre.vision.simulate import Camera, SimMarker, SimScene, SimTable, look_at, render

MATRIX = np.array([[1000.0, 0.0, 159.5], [0.0, 1000.0, 119.5], [0.0, 0.0, 1.0]])
MARKER = SimMarker(17, 100.3, 99.6, 0.0, 12.0, 23.0)  # 24 px wide, turned 23 degrees


def _frame(blur_sigma_px: float = 0.0) -> tuple[np.ndarray, np.ndarray]:
    """A grey float32 image (240, 320) of MARKER seen from 500 mm above, and its true corners."""
    rvec, tvec = look_at((100.0, 100.0, 500.0), (100.0, 100.0, 0.0))
    camera = Camera(MATRIX, np.zeros(5), (320, 240), rvec, tvec)
    frame = render(camera, SimScene(SimTable(200.0, 200.0), (MARKER,)))
    grey = cv2.cvtColor(frame.image, cv2.COLOR_BGR2GRAY).astype(np.float32)
    if blur_sigma_px:
        grey = np.asarray(cv2.GaussianBlur(grey, (0, 0), blur_sigma_px), dtype=np.float32)
    return grey, frame.truth[MARKER.id].corners_px


@pytest.mark.parametrize(("blur_sigma_px", "tolerance_px"), [(0.0, 0.05), (0.8, 0.1)])
def test_corners_come_back_from_a_rough_start(blur_sigma_px: float, tolerance_px: float) -> None:
    image, truth = _frame(blur_sigma_px)
    start = truth + np.array([[1.2, -0.8], [-0.6, 1.0], [0.9, 0.7], [-1.1, -0.5]])
    fit = refine_corners(image, start[None], modules=6)
    assert fit.ok[0]
    np.testing.assert_allclose(fit.corners[0], truth, atol=tolerance_px)
    assert fit.residual[0] < 0.1


def test_heavy_blur_shrinks_the_square_but_keeps_its_centre() -> None:
    # A blur of 1.2 px on 4 px modules spills the next edges (the quiet zone is one module
    # wide, the table beyond it darker) into each side's profile: every side moves inwards
    # alike, so the corners close in and the centre stays.
    image, truth = _frame(1.2)
    corners = refine_corners(image, (truth + 0.5)[None], modules=6).corners[0]
    outward = truth - truth.mean(axis=0)
    outward /= np.hypot(*outward.T)[:, None]
    shift = np.sum((corners - truth) * outward, axis=1)
    assert np.all((shift < 0.0) & (shift > -0.4))
    np.testing.assert_allclose(corners.mean(axis=0), truth.mean(axis=0), atol=0.1)


def test_the_same_corners_from_any_nearby_start() -> None:
    image, truth = _frame(1.0)
    first = refine_corners(image, (truth + 0.7)[None], modules=6)
    second = refine_corners(image, first.corners, modules=6, wary=False)
    np.testing.assert_allclose(second.corners, first.corners, atol=0.02)


def test_a_blank_image_has_no_sides() -> None:
    blank = np.full((240, 320), 120.0, dtype=np.float32)
    square = np.array([[[100.0, 100.0], [130.0, 100.0], [130.0, 130.0], [100.0, 130.0]]])
    fit = refine_corners(blank, square, modules=6)
    assert not fit.ok[0]
    np.testing.assert_array_equal(fit.corners, square)
    assert np.isnan(fit.residual[0])


def test_cells_read_as_the_printed_marker() -> None:
    image, truth = _frame()
    cells, quiet = read_cells(image, truth[None], modules=6)
    dictionary = cv2.aruco.getPredefinedDictionary(cv2.aruco.DICT_4X4_250)
    printed = dictionary.generateImageMarker(MARKER.id, 6) > 127
    threshold = (quiet[0] + cells[0].min()) / 2.0
    np.testing.assert_array_equal(cells[0] > threshold, printed)
