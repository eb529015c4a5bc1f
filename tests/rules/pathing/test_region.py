"""Where a bounded path can go (arbitre.rules.pathing.region)."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from arbitre.rules.pathing.kernels import point_segment_dist2
from arbitre.rules.pathing.region import Region, RegionKind

SEEDS = settings(max_examples=30, deadline=None, derandomize=True)


@SEEDS
@given(st.integers(0, 10**6), st.floats(0.0, 40.0))
def test_a_band_round_a_line_holds_the_points_within_its_width(seed: int, width: float) -> None:
    rng = np.random.default_rng(seed)
    line = np.cumsum(rng.uniform(-60.0, 60.0, (int(rng.integers(2, 30)), 2)), axis=0) + 600.0
    band = Region(RegionKind.BAND, 0.0, 0.0, 0.0, 0.0, width, line)
    # Random points, and points about the band's width off the line's vertices.
    beside = line + rng.normal(0.0, width, (len(line), 2))
    points = np.vstack([rng.uniform(300.0, 900.0, (2000, 2)), beside])
    pad = rng.uniform(0.0, 20.0, len(points))
    d2 = point_segment_dist2(
        points[:, :1],
        points[:, 1:],
        line[None, :-1, 0],
        line[None, :-1, 1],
        line[None, 1:, 0],
        line[None, 1:, 1],
    ).min(axis=1)
    expected = d2 <= (width + pad + 1e-6) ** 2
    np.testing.assert_array_equal(band.near(points[:, 0], points[:, 1], pad), expected)
    np.testing.assert_array_equal(
        band.near(points[:, 0], points[:, 1], 0.0), d2 <= (width + 1e-6) ** 2
    )
