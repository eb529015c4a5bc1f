"""The inputs of the pathing queries and the checks that reject malformed input
(arbitre.rules.pathing.model)."""

from __future__ import annotations

import math

import numpy as np
import pytest
import shapely

from arbitre.rules.pathing import (
    BlockingPolygon,
    CostlyRegion,
    DiscHull,
    Field,
    reachable_area,
    shortest_path,
)


@pytest.mark.parametrize(
    "call",
    [
        lambda f: shortest_path(f, (0.0, 0.0), (1.0, 1.0), -1.0),
        lambda f: shortest_path(f, (math.nan, 0.0), (1.0, 1.0), 1.0),
        lambda f: shortest_path(f, (0.0, 0.0), (math.inf, 1.0), 1.0),
        lambda f: shortest_path(f, (0.0, 0.0, 0.0), (1.0, 1.0), 1.0),
        lambda f: shortest_path(f, (0.0, 0.0), (1.0, 1.0), 1.0, max_cost_mm=-5.0),
        lambda f: reachable_area(f, (0.0, 0.0), 1.0, math.nan),
        lambda f: reachable_area(f, (0.0, 0.0), math.nan, 10.0),
        lambda f: DiscHull(np.array([[0.0, 0.0]]), "bad"),
        lambda f: DiscHull(np.array([[0.0, 0.0, -1.0]]), "bad"),
        lambda f: CostlyRegion(shapely.box(0, 0, 1, 1), 0.5, "bad"),
        lambda f: BlockingPolygon(shapely.Polygon(), "bad"),
        lambda f: Field(-1.0, 10.0),
    ],
)
def test_malformed_input_is_refused(call: object) -> None:
    with pytest.raises(ValueError):
        call(Field(100.0, 100.0))  # type: ignore[operator]
