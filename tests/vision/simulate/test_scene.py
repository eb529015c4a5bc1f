"""The simulator's scene items: where a marker card's corners are."""

from __future__ import annotations

import numpy as np

from arbitre.vision.simulate import SimMarker


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
