"""Rays cast through a scene (arbitre.rules.pathing.cast)."""

from __future__ import annotations

import math

import numpy as np
import pytest
import shapely

from arbitre.rules.pathing import BlockingPolygon, CostlyRegion, Field
from arbitre.rules.pathing.cast import cast_rays
from arbitre.rules.pathing.model import TOLERANCE_MM
from arbitre.rules.pathing.scene import QueryScene
from tests.rules.pathing.fields import TABLE, disc, query_scene

# A square block x 500-600, y 400-500 on the 1200 x 900 table; the mover's radius is 12.5.
BLOCK = Field(*TABLE, polygons=(BlockingPolygon(shapely.box(500.0, 400.0, 600.0, 500.0), "b"),))


def cast(
    scene: QueryScene, origins: list[tuple[float, float]], angles_deg: list[float], budget: float
) -> tuple[np.ndarray, ...]:
    """`cast_rays` from ``origins`` at ``angles_deg``, each with the same budget."""
    o = np.array(origins)
    a = np.radians(angles_deg)
    return cast_rays(scene, o[:, 0], o[:, 1], np.cos(a), np.sin(a), np.full(len(a), budget))


def test_a_ray_stops_at_the_face_of_a_square_block() -> None:
    # From (300, 450) towards +x: the block grown by 12.5 starts at x = 487.5, so the ray
    # goes 187.5 mm (the obstacle's outline is held TOLERANCE_MM closer) and is cut by
    # obstacle 0, whose outward normal there is (-1, 0).
    scene = query_scene(BLOCK, (300.0, 450.0))
    length, obstacle, owner, normal, piece = cast(scene, [(300.0, 450.0)], [0.0], 1000.0)
    assert length[0] == pytest.approx(187.5, abs=10 * TOLERANCE_MM)
    assert obstacle[0] and owner[0] == 0 and piece[0] >= 0
    np.testing.assert_allclose(normal[0], [-1.0, 0.0], atol=1e-12)


def test_a_ray_stops_at_the_table_edge_or_its_budget() -> None:
    # Towards -x from (300, 450): the centre keeps 12.5 mm from the edge, 287.5 mm away.
    # Towards +y with a budget of 100: 100 mm (the edge, at y = 887.5, is farther).
    # Neither is cut by an obstacle.
    scene = query_scene(BLOCK, (300.0, 450.0))
    length, obstacle, owner, _, piece = cast(
        scene, [(300.0, 450.0), (300.0, 450.0)], [180.0, 90.0], 100.0
    )
    assert length[1] == pytest.approx(100.0)
    assert not obstacle.any() and list(owner) == [-1, -1] and list(piece) == [-1, -1]
    length, _, _, _, _ = cast(scene, [(300.0, 450.0)], [180.0], 1000.0)
    assert length[0] == pytest.approx(287.5)


def test_a_ray_meets_a_grown_disc_where_the_circle_crosses_it() -> None:
    # A rock R = 20 at (600, 450), grown to 32.5. Along y = 450 from x = 400 the ray meets
    # it at x = 600 - 32.5: 167.5 mm. Along y = 470 (20 mm off the centre) it meets it at
    # x = 600 - sqrt(32.5^2 - 20^2) = 600 - 25.617 = 574.383, 174.383 mm; the normal
    # there points from the centre to the hit: (-25.617, 20) / 32.5.
    scene = query_scene(Field(*TABLE, hulls=(disc(600.0, 450.0, 20.0, "rock"),)), (400.0, 450.0))
    length, obstacle, owner, normal, _ = cast(scene, [(400.0, 450.0), (400.0, 470.0)], [0, 0], 1e3)
    across = math.sqrt(32.5**2 - 20.0**2)
    np.testing.assert_allclose(length, [167.5, 200.0 - across], atol=10 * TOLERANCE_MM)
    assert obstacle.all() and list(owner) == [0, 0]
    np.testing.assert_allclose(normal, [[-1.0, 0.0], [-across / 32.5, 20.0 / 32.5]], atol=1e-6)


def test_costly_ground_spends_the_budget_faster() -> None:
    # Factor 2 from x = 600 on. From (500, 450) towards +x with a budget of 300: the
    # first 100 mm cost 100, the 200 left buy 200 / 2 = 100 mm more: the ray ends at
    # 200 mm, stopped by its budget, not by an obstacle.
    wood = CostlyRegion(shapely.box(600.0, 0.0, 1200.0, 900.0), 2.0, "wood", grown=True)
    scene = query_scene(Field(*TABLE, costly=(wood,)), (500.0, 450.0))
    length, obstacle, owner, _, _ = cast(scene, [(500.0, 450.0)], [0.0], 300.0)
    assert length[0] == pytest.approx(200.0)
    assert not obstacle[0] and owner[0] == -1
