"""The simulator: its images agree with its own truth, and it refuses bad scenes."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from arbitre.vision.detect import detect_markers, diagonal_intersection
from arbitre.vision.errors import VisionError
from arbitre.vision.simulate import (
    INK_BGR,
    PAPER_BGR,
    PRESETS,
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

MATRIX = np.array([[1000.0, 0.0, 319.5], [0.0, 1000.0, 239.5], [0.0, 0.0, 1.0]])


def _overhead(
    height_mm: float = 500.0, dist: tuple[float, ...] = (0.0, 0.0, 0.0, 0.0, 0.0)
) -> Camera:
    """A 640 x 480 camera straight over (100, 100): 2 px per mm on the table."""
    rvec, tvec = look_at((100.0, 100.0, height_mm), (100.0, 100.0, 0.0))
    return Camera(MATRIX, np.array(dist), (640, 480), rvec, tvec)


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
    camera = _overhead()
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


def test_a_tilted_card_has_its_corners_raised_and_lowered() -> None:
    # A 20 mm card at (100, 100, 30), upright, tipped 10 degrees about +x (the axis
    # towards 0 degrees): its top edge rises by 10 sin 10 = 1.736 mm and comes 10 (1 -
    # cos 10) = 0.152 mm closer to the centre; its bottom edge drops as much.
    card = SimMarker(0, 100.0, 100.0, 30.0, 20.0, tilt_deg=10.0, tilt_axis_deg=0.0)
    rise, shrink = 10.0 * np.sin(np.radians(10.0)), 10.0 * (1.0 - np.cos(np.radians(10.0)))
    np.testing.assert_allclose(
        card.corners_mm(),
        [
            [90.0, 110.0 - shrink, 30.0 + rise],
            [110.0, 110.0 - shrink, 30.0 + rise],
            [110.0, 90.0 + shrink, 30.0 - rise],
            [90.0, 90.0 + shrink, 30.0 - rise],
        ],
        atol=1e-9,
    )


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
    camera = _overhead()
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


def test_look_at_puts_the_target_on_the_principal_point() -> None:
    rvec, tvec = look_at((-200.0, -300.0, 700.0), (600.0, 450.0, 0.0))
    camera = Camera(MATRIX, np.zeros(5), (640, 480), rvec, tvec)
    np.testing.assert_allclose(camera.project([[600.0, 450.0, 0.0]]), [[319.5, 239.5]], atol=1e-9)
    np.testing.assert_allclose(camera.position_mm, [-200.0, -300.0, 700.0], atol=1e-9)
    with pytest.raises(VisionError, match="parallel"):
        look_at((0.0, 0.0, 100.0), (0.0, 0.0, 0.0), up=(0.0, 0.0, 1.0))


def test_table_y_points_up_in_an_overhead_image() -> None:
    camera = _overhead()
    up, right = camera.project([[100.0, 110.0, 0.0], [110.0, 100.0, 0.0]])
    np.testing.assert_allclose(up, [319.5, 219.5])  # +10 mm in y: 20 px up
    np.testing.assert_allclose(right, [339.5, 239.5])  # +10 mm in x: 20 px right


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
    camera = _overhead()
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


@pytest.mark.parametrize("name", PRESETS)
def test_presets_keep_marker_sizes_in_pixels_at_any_scale(name: str) -> None:
    full = preset(name, figures=0)
    small = preset(name, scale=0.4, figures=0)
    assert small.camera.image_size[0] == round(0.4 * full.camera.image_size[0])
    for camera, scene in ((full.camera, full.scene), (small.camera, small.scene)):
        corners = [camera.project(m.corners_mm()) for m in scene.markers]
        assert len(corners) == 4  # the anchors
        for quad in corners:
            assert np.all((quad >= 0) & (quad < camera.image_size))
    # Anchor 0, 40 mm: as wide in pixels in both images (the same focal length and distance).
    widths = [
        np.hypot(*np.diff(p.camera.project(p.scene.markers[0].corners_mm()[:2]), axis=0)[0])
        for p in (full, small)
    ]
    assert widths[1] == pytest.approx(widths[0], rel=0.15)


def test_presets_place_figures_with_ids_from_10() -> None:
    chosen = preset("tripod", scale=0.5, figures=9, seed=3)
    ids = [m.id for m in chosen.scene.markers]
    assert ids == [0, 1, 2, 3, *range(10, 19)]
    heights = {m.z_mm for m in chosen.scene.markers[4:]}
    assert heights <= {0.0, 54.0}
    assert all(m.size_mm == 25.0 for m in chosen.scene.markers[4:])


def test_bad_scenes_are_refused() -> None:
    with pytest.raises(VisionError, match="unknown simulator preset 'attic'"):
        preset("attic")
    with pytest.raises(VisionError, match="scale"):
        preset("overhead", scale=2.0)
    camera = _overhead()
    twice = (SimMarker(4, 50.0, 50.0), SimMarker(4, 150.0, 150.0))
    with pytest.raises(VisionError, match="unique"):
        render(camera, SimScene(SimTable(200.0, 200.0), twice))
    with pytest.raises(VisionError, match="not in DICT_4X4_50"):
        render(
            camera,
            SimScene(SimTable(200.0, 200.0), (SimMarker(60, 50.0, 50.0),), (), "DICT_4X4_50"),
        )
    with pytest.raises(VisionError, match="3x3"):
        Camera(np.eye(2), np.zeros(5), (640, 480), np.zeros(3), np.zeros(3))
    with pytest.raises(VisionError, match="supersample"):
        render(camera, SimScene(SimTable(200.0, 200.0)), RenderOptions(supersample=0))
