"""What a query starts from: obstacles grown and drawn (arbitre.rules.pathing.query)."""

from __future__ import annotations

import numpy as np
import shapely
from hypothesis import given, settings
from hypothesis import strategies as st

from arbitre.rules.pathing import BlockingPolygon, Field, query, reachable_area
from arbitre.rules.pathing.prepare import prepare_field
from arbitre.rules.pathing.query import grown_block
from tests.rules.pathing.fields import R_MOVER, TABLE, disc


def test_obstacles_drawn_for_one_allowance_serve_the_allowances_near_it() -> None:
    # The free space an area is cut to draws obstacles to a fraction of the area's error,
    # which grows with the allowance (a fortieth of 0.5 % of it); rounded down to a power
    # of two, 1/64 mm from 200 to 255 mm of allowance, they share one drawing of each
    # obstacle instead of drawing them all again.
    field = Field(
        *TABLE, hulls=tuple(disc(200.0 + 80.0 * k, 450.0, 20.0, f"r{k}") for k in range(8))
    )
    query.GROWN_BLOCKS.clear()
    for budget in (200.0, 210.0, 225.0, 240.0, 249.0):
        reachable_area(field, (500.0, 300.0), R_MOVER, budget)
    drawn = [obstacle.ident for obstacle, _, _ in query.GROWN_BLOCKS]
    assert len(drawn) >= 4 and len(drawn) == len(set(drawn)), drawn  # each drawn once


SEEDS = settings(max_examples=30, deadline=None, derandomize=True)


@SEEDS
@given(st.integers(0, 10**6), st.sampled_from([5e-4, 0.01, 0.05, 0.5]))
def test_obstacles_drawn_large_hold_the_exact_shape_within_the_slack(
    seed: int, slack: float
) -> None:
    # A polygon grown by a base's radius, drawn as a polygon: it must hold the exact
    # grown shape (GEOS rounds a corner's arc to whole steps, up to 1.5 of the asked
    # size) and reach no more than ``slack`` beyond it.
    rng = np.random.default_rng(seed)
    corners = rng.uniform(0.0, 100.0, (int(rng.integers(3, 9)), 2))
    rock = shapely.convex_hull(shapely.multipoints(corners)).buffer(0)
    if rock.area < 1.0:
        return
    radius = float(rng.uniform(1.0, 40.0))
    field = Field(200.0, 200.0, polygons=(BlockingPolygon(rock, "rock"),))
    block = grown_block(prepare_field(field).obstacle(0), radius, slack)
    assert block is not None
    exact = rock.buffer(radius, quad_segs=512)
    assert exact.buffer(-1e-5).difference(block).area == 0.0
    assert block.hausdorff_distance(exact) <= slack + 1e-4
