"""M.U.S.G. line of sight: the shadows cast on a target from the shooter's eye."""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import pytest
import shapely

from arbitre.rules.model import Scene
from arbitre.rules.musg import angular_interval, figures_on_line, line_of_sight
from arbitre.rules.musg.options import options_of
from arbitre.rules.scene import parse_scene
from tests.rules.musg.scenes import musg_scene

SHOOTER = {"id": "s", "side": "a", "x_mm": 100, "y_mm": 400}
TARGET = {"id": "t", "side": "b", "x_mm": 400, "y_mm": 400}


def _sight(scene: Scene) -> Any:
    """What hides t from s."""
    return line_of_sight(scene, scene.figure("s"), scene.figure("t"), options_of(scene))


def _rect(ident: str, kind: str, x0: float, x1: float, y0: float, y1: float) -> dict[str, Any]:
    polygon = [[x0, y0], [x1, y0], [x1, y1], [x0, y1]]
    return {"id": ident, "kind": kind, "polygon_mm": polygon}


def test_the_angle_a_shape_spans_is_signed_left_of_the_sight_line() -> None:
    # Looking up (+y) from the origin, the box x 10..20, y 10..20 lies to the right:
    # its corners at -atan(20 / 10) = -63.43 deg and -atan(10 / 20) = -26.57 deg.
    low, high = angular_interval(np.zeros(2), np.array([0.0, 1.0]), shapely.box(10, 10, 20, 20))
    assert math.degrees(low) == pytest.approx(-63.435, abs=1e-3)
    assert math.degrees(high) == pytest.approx(-26.565, abs=1e-3)


def test_a_building_hides_the_target_whole() -> None:
    # Target t 300 mm away spans +-asin(12.5 / 300) = +-2.39 deg; the house x 250..270,
    # y 350..450 spans +-atan(50 / 150) = +-18.4 deg at the eye: all of t is hidden, by a
    # sight blocker. Its nearest point on the sight line, (250, 400), is 150 - 12.5 =
    # 137.5 mm from s's base edge.
    sight = _sight(musg_scene([SHOOTER, TARGET], [_rect("house", "building", 250, 270, 350, 450)]))
    assert sight.hidden_fraction == 1.0 and sight.blocked is True
    assert sight.blockers == ("house",) and sight.hidden_by == {"house": 1.0}
    assert sight.obstacle_distances_mm["house"] == pytest.approx(137.5, abs=1e-6)
    assert sight.margin(1.0).what == "hidden whole"


@pytest.mark.parametrize(("x0", "hidden"), [(200.0, 1.0), (105.0, 0.0)])
def test_a_wall_under_the_shooters_own_base_is_looked_over(x0: float, hidden: float) -> None:
    # A wall x0..x0 + 10, y 380..420: at x 200 it spans +-atan(20 / 100) = +-11.3 deg,
    # hiding t whole (in cover, not out of sight: a wall blocks no sight); at x 105 it
    # runs under s's base (radius 12.5) and s looks over it.
    wall = _rect("wall", "obstacle", x0, x0 + 10, 380, 420)
    sight = _sight(musg_scene([SHOOTER, TARGET], [wall]))
    assert sight.hidden_fraction == hidden and sight.blocked is False


@pytest.mark.parametrize(("give_cover", "hidden_by"), [(True, {"f": 1.0}), (False, {})])
def test_a_figure_between_gives_cover_when_the_scene_says_so(
    give_cover: bool, hidden_by: dict[str, float]
) -> None:
    # f at (250, 400), 150 mm from the eye, spans +-asin(12.5 / 150) = +-4.78 deg, more
    # than t's +-2.39: it hides t whole; its base is 150 - 25 = 125 mm from s's.
    scene = parse_scene(
        {
            "ruleset": "musg",
            "options": {"pace_mm": 25, "figures_give_cover": give_cover},
            "table": {"width_mm": 1200, "depth_mm": 900},
            "figures": [SHOOTER, TARGET, {"id": "f", "side": "a", "x_mm": 250, "y_mm": 400}],
        }
    )
    sight = _sight(scene)
    assert sight.hidden_by == hidden_by and sight.blocked is False
    assert sight.hidden_fraction == (1.0 if give_cover else 0.0)
    if give_cover:
        assert sight.obstacle_distances_mm["f"] == pytest.approx(125.0, abs=1e-6)


def test_the_figures_on_the_line_nearest_first() -> None:
    # The line s (100, 400) -> t (400, 400): m2 at (180, 405) and m1 at (250, 400) lie on
    # it (25 mm discs: 5 < 12.5 mm off); o at (250, 450) lies 50 mm off it; b at
    # (450, 400) stands beyond the target.
    scene = musg_scene(
        [
            SHOOTER,
            TARGET,
            {"id": "m1", "side": "b", "x_mm": 250, "y_mm": 400},
            {"id": "m2", "side": "a", "x_mm": 180, "y_mm": 405},
            {"id": "o", "side": "b", "x_mm": 250, "y_mm": 450},
            {"id": "b", "side": "b", "x_mm": 450, "y_mm": 400},
        ]
    )
    found = figures_on_line(scene, scene.figure("s"), scene.figure("t"), options_of(scene))
    assert found == ("m2", "m1")
