"""render: the simulator's images agree with its own truth, and it refuses bad scenes."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from arbitre.vision.detect import detect_markers, diagonal_intersection
from arbitre.vision.errors import VisionError
from arbitre.vision.simulate import (
    INK_BGR,
    PAPER_BGR,
    Camera,
    RenderOptions,
    SimArea,
    SimBody,
    SimMarker,
    SimScene,
    SimTable,
    figure,
    look_at,
    preset,
    render,
)
from tests.vision.simulate.views import MATRIX, overhead


def _left_edge_positions(image: np.ndarray, marker: SimMarker, camera: Camera) -> np.ndarray:
    """Where the black square's left edge lies on each row through its middle, px.

    Across the edge, paper turns to ink; the share of paper in each pixel, summed over a
    window that starts on paper and ends on ink, is the distance from the window's start
    to the edge (pixels average what they cover), with no model of the edge's profile.
    """
    grey = image[:, :, 0].astype(float)
    paper, ink = PAPER_BGR[0], INK_BGR[0]
    corners = camera.project(marker.corners_mm())
    left = int(round(corners[0, 0]))
    rows = range(int(corners[0, 1]) + 6, int(corners[3, 1]) - 6)
    return np.array(
        [left - 4.5 + ((grey[v, left - 4 : left + 4] - ink) / (paper - ink)).sum() for v in rows]
    )


@pytest.mark.parametrize("x_mm", [103.3, 103.37, 103.5])
def test_a_marker_edge_is_drawn_where_it_projects(x_mm: float) -> None:
    camera = overhead()
    marker = SimMarker(0, x_mm, 101.7, 0.0, 40.0)
    scene = SimScene(SimTable(200.0, 200.0), (marker,))
    image = render(camera, scene).image
    truth = camera.project(marker.corners_mm())[0, 0]
    np.testing.assert_allclose(_left_edge_positions(image, marker, camera), truth, atol=0.03)


def test_truth_centre_is_the_diagonals_intersection_in_the_pinhole_image() -> None:
    chosen = preset("tripod", scale=0.3, figures=6, seed=2)
    frame = chosen.render()
    for truth in frame.truth.values():
        np.testing.assert_allclose(
            diagonal_intersection(truth.corners_undistorted_px),
            truth.centre_undistorted_px,
            atol=1e-9,
        )
        np.testing.assert_allclose(chosen.camera.project(truth.corners_mm), truth.corners_px)


def test_a_tilted_card_is_drawn_where_it_projects() -> None:
    # Seen from the side (camera over (0, 100)), a card tipped 8 degrees: the
    # detector's corners land on the projected truth, as for a flat card.
    rvec, tvec = look_at((-150.0, 100.0, 400.0), (100.0, 100.0, 0.0))
    camera = Camera(MATRIX, np.zeros(5), (640, 480), rvec, tvec)
    card = SimMarker(7, 100.0, 100.0, 20.0, 30.0, rotation_deg=25.0, tilt_deg=8.0, tilt_axis_deg=60)
    frame = render(camera, SimScene(SimTable(200.0, 200.0), (card,), figure(card)))
    assert frame.truth[7].visible
    found = detect_markers(frame.image, "DICT_4X4_250")
    (marker,) = found.markers
    np.testing.assert_allclose(marker.corners_px, frame.truth[7].corners_px, atol=0.15)
    flat_card = dataclasses.replace(card, tilt_deg=0.0)
    flat = render(camera, SimScene(SimTable(200.0, 200.0), (flat_card,)))
    assert np.abs(flat.truth[7].corners_px - frame.truth[7].corners_px).max() > 2.0


def test_a_terrain_area_is_textured_ground_and_a_hill_stands_up() -> None:
    # Overhead, 2 px per mm around (100, 100): a flat wood at x 60-90 and a 40 mm hill
    # at x 110-140, both y 80-120. The wood's pixels take its colour (flecked by up to
    # 18 %); the hill's top, 40 mm nearer a camera 500 mm up, is drawn 500/460 larger:
    # its right edge at x = 140 shows at 319.5 + 2 * 40 * 500/460 = 406.5 px, not 399.5.
    camera = overhead()
    wood = SimArea(((60.0, 80.0), (90.0, 80.0), (90.0, 120.0), (60.0, 120.0)))
    hill = SimArea(((110.0, 80.0), (140.0, 80.0), (140.0, 120.0), (110.0, 120.0)), 40.0)
    table = SimTable(200.0, 200.0)
    frame = render(camera, SimScene(table, areas=(wood, hill)), RenderOptions(supersample=2))
    grey = frame.image[:, :, 1].astype(float)
    wood_px = grey[200:280, 259:299]  # x 70-90 mm, y 80-120 mm (rows 280-200)
    assert np.all((wood_px >= 0.82 * wood.colour_bgr[1] - 1) & (wood_px <= wood.colour_bgr[1] + 1))
    assert wood_px.std() > 2.0  # flecked, not flat
    assert abs(grey[240, 340] - table.colour_bgr[1]) > 15  # the hill's top over x = 110
    row = grey[240]
    assert abs(row[404] - row[350]) < 0.25 * hill.colour_bgr[1]  # still the hill's top
    assert abs(row[409] - table.colour_bgr[1]) < 1.0  # the table beyond


def test_a_body_in_front_hides_a_marker() -> None:
    # From (100, 40, 200), the line of sight to the card's near edge (y = 150; a 15 mm
    # marker has a 20 mm card) meets the box's front face (y = 135) at 200 * (1 - 95/110)
    # = 27 mm, under its 45 mm top; the one to the far edge (y = 170) comes down through
    # z = 45 at y = 40 + 130 * (1 - 45/200) = 141, on the box's top (y 135-145).
    rvec, tvec = look_at((100.0, 40.0, 200.0), (100.0, 160.0, 0.0))
    camera = Camera(MATRIX, np.zeros(5), (640, 480), rvec, tvec)
    marker = SimMarker(5, 100.0, 160.0, 0.0, 15.0)
    box = SimBody("box", 100.0, 140.0, 40.0, 45.0, depth_mm=10.0)
    table = SimTable(200.0, 200.0)
    options = RenderOptions(supersample=2)
    frame = render(camera, SimScene(table, (marker,), (box,)), options)
    assert frame.truth[5].in_image
    assert frame.truth[5].visible_fraction == 0.0
    assert not frame.truth[5].visible
    lower = SimBody("box", 100.0, 140.0, 40.0, 20.0, depth_mm=10.0)
    partly = render(camera, SimScene(table, (marker,), (lower,)), options)
    assert 0.0 < partly.truth[5].visible_fraction < 1.0
    open_view = render(camera, SimScene(table, (marker,)), options)
    assert open_view.truth[5].visible


def test_a_marker_outside_the_image_is_not_visible() -> None:
    camera = overhead()
    inside = SimMarker(1, 100.0, 100.0, 0.0, 20.0)
    edge = SimMarker(2, 100.0 + 158.0, 100.0, 0.0, 20.0)  # 316 px right of centre: half out
    frame = render(camera, SimScene(SimTable(400.0, 400.0), (inside, edge)))
    assert frame.visible_ids() == {1}
    assert not frame.truth[2].in_image
    assert 2 in frame.seen_ids()


def test_renders_are_reproducible_and_seeded() -> None:
    chosen = preset("harsh", scale=0.25, figures=4, seed=1)
    assert np.array_equal(chosen.render().image, chosen.render().image)
    other = dataclasses.replace(chosen.options, seed=2)
    assert not np.array_equal(chosen.render().image, chosen.render(other).image)
    assert preset("harsh", scale=0.25, figures=4, seed=1).scene == chosen.scene
    assert preset("harsh", scale=0.25, figures=4, seed=2).scene != chosen.scene


def test_bad_scenes_are_refused() -> None:
    camera = overhead()
    twice = (SimMarker(4, 50.0, 50.0), SimMarker(4, 150.0, 150.0))
    with pytest.raises(VisionError, match="unique"):
        render(camera, SimScene(SimTable(200.0, 200.0), twice))
    with pytest.raises(VisionError, match="not in DICT_4X4_50"):
        render(
            camera,
            SimScene(SimTable(200.0, 200.0), (SimMarker(60, 50.0, 50.0),), (), "DICT_4X4_50"),
        )
    with pytest.raises(VisionError, match="supersample"):
        render(camera, SimScene(SimTable(200.0, 200.0)), RenderOptions(supersample=0))
