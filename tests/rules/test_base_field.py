"""Square and rectangular bases move as their own outline, not as the disc round it."""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import shapely

from arbitre.rules import pathing
from arbitre.rules.base_field import base_field
from arbitre.rules.questions import ask
from arbitre.rules.scene import parse_scene

SQUARE_20 = {"shape": "square", "side_mm": 20}


def _sr(figures: list[dict[str, Any]], terrain: list[dict[str, Any]]) -> Any:
    return parse_scene(
        {
            "ruleset": "smooth-and-rifled",
            "table": {"width_mm": 1200, "depth_mm": 900},
            "figures": figures,
            "terrain": terrain,
        }
    )


def _building(ident: str, x0: float, y0: float, x1: float, y1: float) -> dict[str, Any]:
    corners = [[x0, y0], [x1, y0], [x1, y1], [x0, y1]]
    return {"id": ident, "kind": "building", "polygon_mm": corners}


def _json(scene: Any, question: str, *args: object, **extras: Any) -> dict[str, Any]:
    return ask(scene, question, [str(a) for a in args], extras).to_json()


# Two buildings across the whole table, x 300-350, leave a gap at y 440-465: 25 mm.
GAP_25 = [_building("north", 300, 465, 350, 900), _building("south", 300, 0, 350, 440)]


def test_a_square_base_goes_through_a_gap_wider_than_its_side() -> None:
    # A 20 mm square (the disc round it is 28.3 mm wide, more than the gap) at x 285,
    # its base 275-295, goes straight through to x 365 (base 355-375): 80 mm, 8.0 cm of
    # a single infantryman's 12 cm. There is no way round: the buildings close the table.
    scene = _sr(
        [{"id": "s", "side": "b", "x_mm": 285, "y_mm": 452.5, "facing_deg": 0, "base": SQUARE_20}],
        GAP_25,
    )
    answer = _json(scene, "move", "s", 365, 452.5)
    assert answer["legal"], answer
    assert math.isclose(answer["cost_mm"], 80.0, abs_tol=1e-6)
    assert answer["path_mm"] == [[285.0, 452.5], [365.0, 452.5]]
    # Its reachable area runs through the gap: beyond the buildings, up to 120 - 80 =
    # 40 mm past the goal along the gap's axis.
    reach = _json(scene, "reach", "s")
    area = shapely.Polygon(reach["polygons_mm"][0], reach["holes_mm"][0])
    assert area.contains(shapely.Point(365, 452.5))
    assert 403.0 < area.bounds[2] <= 405.0 + 1e-6  # 285 + 120, within the outline's 1 mm


def test_a_round_base_of_the_same_width_keeps_to_its_disc() -> None:
    # A 30 mm round base does not fit the 25 mm gap: blocked, no way round.
    scene = _sr(
        [
            {
                "id": "r",
                "side": "b",
                "x_mm": 280,
                "y_mm": 452.5,
                "base": {"shape": "round", "diameter_mm": 30},
            }
        ],
        GAP_25,
    )
    answer = _json(scene, "move", "r", 370, 452.5)
    assert not answer["legal"] and answer["reasons"] == ["path_blocked"], answer


def test_a_rectangle_goes_through_a_gap_side_on_but_not_front_on() -> None:
    # Buildings across the table, y 400-450, leave a gap at x 500-545 (45 mm). A 60 x
    # 30 mm base facing east (0 deg) is 30 mm across in x, 60 along y: from y 365 (base
    # y 335-395) to y 482 (base 452-512) it slides through, 117 mm of 120. Facing north
    # it is 60 mm across in x and cannot.
    rect = {"shape": "rect", "width_mm": 60, "depth_mm": 30}
    terrain = [_building("west", 0, 400, 500, 450), _building("east", 545, 400, 1200, 450)]
    for facing, legal in ((0, True), (90, False)):
        scene = _sr(
            [
                {
                    "id": "g",
                    "side": "b",
                    "x_mm": 522.5,
                    "y_mm": 365,
                    "facing_deg": facing,
                    "base": rect,
                }
            ],
            terrain,
        )
        answer = _json(scene, "move", "g", 522.5, 482)
        assert answer["legal"] is legal, (facing, answer)
        if legal:
            assert math.isclose(answer["cost_mm"], 117.0, abs_tol=1e-6)


def test_a_base_overlapping_another_at_its_start_moves_away() -> None:
    # Two 20 mm squares overlap by 2 mm (centres 18 mm apart). The mover goes 60 mm
    # ahead (north), beside the other and away from it: it is not trapped by the
    # other's grown outline, whose own square (x 108-128) still keeps its centre out.
    scene = _sr(
        [
            {"id": "m", "side": "b", "x_mm": 100, "y_mm": 100, "facing_deg": 90, "base": SQUARE_20},
            {"id": "o", "side": "r", "x_mm": 118, "y_mm": 100, "facing_deg": 90, "base": SQUARE_20},
        ],
        [],
    )
    answer = _json(scene, "move", "m", 100, 160)
    assert answer["legal"], answer
    assert math.isclose(answer["cost_mm"], 60.0, abs_tol=1e-6)


def test_the_field_of_a_base_is_the_centres_where_it_stays_clear() -> None:
    # A 40 x 20 mm base (corners about its centre) on a 300 x 230 mm table: its centre
    # keeps 20 mm from the table's sides in x, 10 in y; a round base of radius 5 next to
    # it takes the hull of four 5 mm discs at the base's corners round its centre.
    base = np.array([[20.0, 10], [-20, 10], [-20, -10], [20, -10]])
    disc = pathing.DiscHull(np.array([[150.0, 115.0, 5.0]]), "d")
    ground = base_field(300, 230, base, hulls=[disc])
    assert (ground.field.width_mm, ground.field.depth_mm) == (260.0, 210.0)
    (grown,) = ground.field.hulls
    corners = grown.discs[:, :2] - ground.shift_mm
    assert sorted(map(tuple, corners.tolist())) == [
        (130.0, 105.0),
        (130.0, 125.0),
        (170.0, 105.0),
        (170.0, 125.0),
    ]
    assert np.all(grown.discs[:, 2] == 5.0)
    # From (100, 115) to (200, 115) the base must pass the disc above or below: the
    # centre goes round the grown hull, whose top is 125 + 5 = 130 in y.
    way = ground.shortest_path(np.array([100.0, 115.0]), np.array([200.0, 115.0]))
    assert way.found and way.cost_mm > 100.0
    assert np.max(np.abs(way.points_mm[:, 1] - 115.0)) >= 15.0 - 1e-6


def _mbt_base(ident: str, side: str, x: float, y: float, kind: str) -> dict[str, Any]:
    rect = {"shape": "rect", "width_mm": 40, "depth_mm": 20}
    return {
        "id": ident,
        "side": side,
        "x_mm": x,
        "y_mm": y,
        "facing_deg": 90,
        "type": kind,
        "base": rect,
    }


def test_an_mbt_base_goes_face_first_through_a_gap_and_up_to_contact() -> None:
    # Red bases at x 459-499 and 541-581 (y 390-410) leave 42 mm between them. A blue
    # light cavalry base facing north, 40 mm across, at (520, 330) goes straight to
    # (520, 450): 120 mm = 4.8 of 5 graduations, 1 mm clear of each side. (The disc
    # round it, 44.7 mm across, would not fit.)
    scene = parse_scene(
        {
            "ruleset": "mbt",
            "table": {"width_mm": 1000, "depth_mm": 800},
            "figures": [
                _mbt_base("r1", "red", 479, 400, "infantry"),
                _mbt_base("r2", "red", 561, 400, "infantry"),
                _mbt_base("b", "blue", 520, 330, "cavalry"),
            ],
        }
    )
    answer = _json(scene, "move", "b", 520, 450)
    assert answer["legal"], answer
    assert math.isclose(answer["cost_mm"], 120.0, abs_tol=1e-6)
    # Where it may go reaches up to r1's front: at (479, 380) its front edge (y 390)
    # touches r1's; 2 mm short of that is inside the area.
    reach = _json(scene, "reach", "b")
    area = shapely.union_all(
        [
            shapely.Polygon(shell, holes)
            for shell, holes in zip(reach["polygons_mm"], reach["holes_mm"], strict=True)
        ]
    )
    assert area.contains(shapely.Point(479, 378))
    assert not area.contains(shapely.Point(479, 381))


def test_a_base_that_turns_at_the_end_needs_room_at_both_facings() -> None:
    # A 60 x 30 mm base facing north (60 mm across in x) goes 50 mm ahead to (500, 350):
    # there it spans y 335-365, clear of a 25 mm round base at (500, 390) (y 377.5-402.5).
    # Turned to face east it would span y 320-380: 2.5 mm into the other, so that end
    # is refused, while keeping its facing is a legal 5.0 cm move.
    rect = {"shape": "rect", "width_mm": 60, "depth_mm": 30}
    scene = _sr(
        [
            {"id": "g", "side": "b", "x_mm": 500, "y_mm": 300, "facing_deg": 90, "base": rect},
            {"id": "o", "side": "r", "x_mm": 500, "y_mm": 390},
        ],
        [],
    )
    kept = _json(scene, "move", "g", 500, 350)
    assert kept["legal"] and math.isclose(kept["cost_mm"], 50.0, abs_tol=1e-6), kept
    turned = _json(scene, "move", "g", 500, 350, facing_deg=0)
    assert turned["reasons"] == ["destination_occupied"] and turned["blocked_by"] == ["o"]
