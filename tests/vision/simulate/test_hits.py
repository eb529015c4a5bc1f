"""Where rays meet a marker card, a body, a terrain piece or the table, and the colour each
hit shows."""

from __future__ import annotations

import numpy as np
import pytest

from arbitre.vision.errors import VisionError
from arbitre.vision.simulate import (
    INK_BGR,
    PAPER_BGR,
    SURROUND_BGR,
    Camera,
    SimArea,
    SimBody,
    SimMarker,
    SimTable,
    look_at,
)
from arbitre.vision.simulate.hits import hit_area, hit_body, hit_card, table_colours
from arbitre.vision.simulate.rays import Rays
from arbitre.vision.simulate.scene import marker_card
from tests.vision.simulate.views import overhead

# Marker 0 of DICT_4X4_250 on its card, True where white: 8 modules a side, the outer ring
# the quiet zone, the next the black border. A 40 mm marker's card is 40 x 8/6 = 53.3 mm
# wide, each module 6.67 mm: the quiet zone spans 20 to 26.7 mm from the centre, the border
# 13.3 to 20 mm.
CARD = marker_card("DICT_4X4_250", 0)
ROW_2 = [True, False, True, False, True, True, False, True]


def _down_to(*points_xy: tuple[float, float]) -> Rays:
    """The rays of the camera 500 mm over (100, 100) through table points: the normalised
    point ((x - 100) / 500, -(y - 100) / 500) looks at (x, y)."""
    normalised = [((x - 100.0) / 500.0, -(y - 100.0) / 500.0) for x, y in points_xy]
    return Rays(overhead(), np.array(normalised))


def _level() -> Rays:
    """One ray 15 mm above the table from (0, 100) along +x."""
    rvec, tvec = look_at((0.0, 100.0, 15.0), (100.0, 100.0, 15.0))
    return Rays(Camera(np.eye(3), np.zeros(5), (640, 480), rvec, tvec), np.zeros((1, 2)))


def test_the_card_is_drawn_module_by_module_with_its_top_to_plus_y() -> None:
    # A flat 40 mm card at (100, 100): 17.5 mm left of its centre lies the black border;
    # 23 mm left, the quiet zone; 30 mm left, nothing. Module row 2 (6.7 to 13.3 mm above
    # the centre) reads white, black, white, ...: (90, 110) is in its column 2 (white),
    # (97, 110) in its column 3 (black); (90, 103) is a row lower, row 3 column 2 (black).
    assert CARD[2].tolist() == ROW_2 and not CARD[3, 2]
    card = SimMarker(0, 100.0, 100.0, 0.0, 40.0)
    lam, colours = hit_card(_down_to((82.5, 100), (77, 100), (70, 100)), card, CARD)
    np.testing.assert_allclose(lam, [500.0, 500.0, np.inf])
    np.testing.assert_array_equal(colours[:2], [INK_BGR, PAPER_BGR])
    lam, colours = hit_card(_down_to((90, 110), (97, 110), (90, 103)), card, CARD)
    np.testing.assert_array_equal(colours, [PAPER_BGR, INK_BGR, INK_BGR])


def test_a_turned_card_turns_its_modules_and_a_raised_one_is_nearer() -> None:
    # Turned 90 degrees counter-clockwise, the card's (-10, 10) lands on the table at
    # (100 - 10, 100 - 10): row 2 column 2, white; unturned, (90, 90) is its (-10, -10),
    # row 5 column 2, black. A card 30 mm up is met 500 - 30 = 470 mm down the ray.
    assert CARD[2, 2] and not CARD[5, 2]
    ray = _down_to((90, 90))
    _, flat = hit_card(ray, SimMarker(0, 100.0, 100.0, 0.0, 40.0), CARD)
    _, turned = hit_card(ray, SimMarker(0, 100.0, 100.0, 0.0, 40.0, 90.0), CARD)
    np.testing.assert_array_equal([flat[0], turned[0]], [INK_BGR, PAPER_BGR])
    lam, _ = hit_card(_down_to((82.5, 100)), SimMarker(0, 100.0, 100.0, 30.0, 40.0), CARD)
    np.testing.assert_allclose(lam, [470.0])


def test_a_body_s_top_is_lit_from_above_and_its_side_from_aside() -> None:
    # The light comes from (0.35, -0.45, 0.82) / 0.9987. A top (normal +z) takes
    # 0.55 + 0.45 x 0.82 / 0.9987 = 0.9195 of its colour; a side facing -x takes
    # 0.55 + 0.45 x max(0, -0.35 / 0.9987) = 0.55.
    grey = (90.0, 90.0, 95.0)
    cylinder = SimBody("cylinder", 100.0, 100.0, 20.0, 30.0, colour_bgr=grey)
    lam, colours = hit_body(_down_to((100, 100), (115, 100)), cylinder)
    np.testing.assert_allclose(lam, [470.0, np.inf])  # its top 30 mm up; 15 mm off: missed
    np.testing.assert_allclose(colours[0], np.multiply(grey, 0.9195), rtol=1e-4)
    # From (0, 100, 15) along +x: the 20 mm cylinder's side at x = 90.
    lam, colours = hit_body(_level(), cylinder)
    np.testing.assert_allclose(lam, [90.0])
    np.testing.assert_allclose(colours[0], np.multiply(grey, 0.55), rtol=1e-6)
    # A 20 x 10 mm box: its face at x = 90; turned 90 degrees, its 10 mm side faces -x, at 95.
    box = SimBody("box", 100.0, 100.0, 20.0, 30.0, depth_mm=10.0)
    np.testing.assert_allclose(hit_body(_level(), box)[0], [90.0])
    turned = SimBody("box", 100.0, 100.0, 20.0, 30.0, depth_mm=10.0, rotation_deg=90.0)
    np.testing.assert_allclose(hit_body(_level(), turned)[0], [95.0])
    # A body 10 mm high is passed over by the ray 15 mm up.
    low = SimBody("cylinder", 100.0, 100.0, 20.0, 10.0)
    assert np.isinf(hit_body(_level(), low)[0]).all()


def test_a_body_of_another_shape_is_refused() -> None:
    with pytest.raises(VisionError, match="'cylinder' or 'box', got 'cone'"):
        hit_body(_level(), SimBody("cone", 100.0, 100.0, 20.0, 30.0))  # type: ignore[arg-type]


def test_ground_is_flecked_and_a_hill_has_a_top_and_darker_sides() -> None:
    # A wood at x 60-90 and a 40 mm hill at x 110-140, both y 80-120. Straight down at
    # (75, 100) the wood is met at 500 mm, its colour 0.82 to 1 of its own (the flecks).
    wood = SimArea(((60.0, 80.0), (90.0, 80.0), (90.0, 120.0), (60.0, 120.0)))
    lam, colours = hit_area(_down_to((75, 100), (50, 100)), wood)
    np.testing.assert_allclose(lam, [500.0, np.inf])
    share = colours[0] / np.asarray(wood.colour_bgr)
    assert np.all((share >= 0.82 - 1e-6) & (share <= 1.0 + 1e-6))
    # The ray of (0.05, 0) reaches z = 40 at x = 100 + 0.05 x 460 = 123: the hill's top, at
    # 460 mm. That of (0.021, 0) passes z = 40 at 109.7, short of the top, and the table at
    # 110.5, inside the hill: its upright side, 0.6 of its colour, ordered at 500 mm.
    hill = SimArea(((110.0, 80.0), (140.0, 80.0), (140.0, 120.0), (110.0, 120.0)), 40.0)
    rays = Rays(overhead(), np.array([[0.05, 0.0], [0.021, 0.0]]))
    lam, colours = hit_area(rays, hill)
    np.testing.assert_allclose(lam, [460.0, 500.0])
    np.testing.assert_allclose(colours[1], np.multiply(hill.colour_bgr, 0.6), rtol=1e-6)


def test_the_table_and_what_lies_beyond_it() -> None:
    # A 200 x 150 mm table: (100, 100) is on it, 500 mm down; (100, 160) is beyond its far
    # edge, where the surround shows and nothing is met.
    table = SimTable(200.0, 150.0)
    lam, colours, on_table = table_colours(_down_to((100, 100), (100, 160)), table)
    np.testing.assert_allclose(lam, [500.0, np.inf])
    np.testing.assert_array_equal(colours, [table.colour_bgr, SURROUND_BGR])
    assert on_table.tolist() == [True, False]
