"""Bends on costly-region boundaries slid to the cheapest crossing
(arbitre.rules.pathing.refraction), seen through the paths and areas they shape."""

from __future__ import annotations

import math

import numpy as np
import pytest
import shapely
from scipy.optimize import minimize_scalar

from arbitre.rules.pathing import CostlyRegion, Field, reachable_area, shortest_path
from tests.rules.pathing.fields import R_MOVER, TABLE


def test_refraction_matches_brute_force() -> None:
    # Difficult ground x >= 500; from (300, 200) outside to (700, 600) inside. A base of
    # radius 10 is in it from x = 490: the path crosses x = 490 at some y,
    # cost(y) = |(190, y - 200)| + 2 |(210, 600 - y)|.
    # Brute force: scan y on a fine grid, then polish the best cell.
    ground = CostlyRegion(shapely.box(500.0, 0.0, 1200.0, 900.0), 2.0, "ground")

    def cost(y: float) -> float:
        return math.hypot(190.0, y - 200.0) + 2.0 * math.hypot(210.0, 600.0 - y)

    grid = np.linspace(200.0, 600.0, 40001)
    values = np.hypot(190.0, grid - 200.0) + 2.0 * np.hypot(210.0, 600.0 - grid)
    best = float(grid[np.argmin(values)])
    fine = minimize_scalar(
        cost, bounds=(best - 0.02, best + 0.02), method="bounded", options={"xatol": 1e-9}
    )
    expected = float(fine.fun)
    assert expected < math.hypot(400.0, 400.0) * 1.5  # bending pays off
    path = shortest_path(Field(*TABLE, costly=(ground,)), (300.0, 200.0), (700.0, 600.0), 10.0)
    assert path.cost_mm == pytest.approx(expected, abs=1e-3)
    crossing = path.points_mm[np.argmin(np.abs(path.points_mm[:, 0] - 490.0))]
    assert crossing[0] == pytest.approx(490.0, abs=1e-9)
    assert crossing[1] == pytest.approx(float(fine.x), abs=0.05)


def test_a_bend_slid_along_a_wood_stays_on_the_table() -> None:
    # The wood's left edge, grown by the base's radius, runs down to x = 14.5 and its
    # line goes on off the table (x < 12.5, where the base hangs over the edge). The
    # cheapest path skirts the wood down that line; its bend must stop at the edge.
    wood = CostlyRegion(
        shapely.Polygon([(27, 371), (37, 428), (87, 442), (124, 420), (75, 379)]), 2.0, "wood"
    )
    field = Field(*TABLE, costly=(wood,))
    start, goal = (61.74, 458.45), (12.56, 285.76)
    path = shortest_path(field, start, goal, R_MOVER)
    assert path.found
    assert path.points_mm[:, 0].min() >= R_MOVER - 1e-6
    # The reachable area agrees with the path to within its error (1 mm at this budget).
    assert shapely.contains_xy(reachable_area(field, start, R_MOVER, path.cost_mm + 1.5), *goal)
    assert not shapely.contains_xy(reachable_area(field, start, R_MOVER, path.cost_mm - 0.5), *goal)
