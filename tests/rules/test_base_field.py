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


def _reach_area(scene: Any, mover: str) -> shapely.Geometry:
    """The area of a reach answer, from its rings."""
    reach = _json(scene, "reach", mover)
    rings = zip(reach["polygons_mm"], reach["holes_mm"], strict=True)
    return shapely.union_all([shapely.Polygon(shell, holes) for shell, holes in rings])


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
    area = _reach_area(scene, "s")
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
    # other's grown outline, which blocks it only where it would get deeper than 2 mm.
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


def _mbt_base(
    ident: str, side: str, x: float, y: float, kind: str, facing: float = 90
) -> dict[str, Any]:
    rect = {"shape": "rect", "width_mm": 40, "depth_mm": 20}
    place = {"id": ident, "side": side, "x_mm": x, "y_mm": y, "facing_deg": facing}
    return place | {"type": kind, "base": rect}


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
    area = _reach_area(scene, "b")
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


def _mbt(figures: list[dict[str, Any]], terrain: list[dict[str, Any]] | None = None) -> Any:
    return parse_scene(
        {
            "ruleset": "mbt",
            "table": {"width_mm": 600, "depth_mm": 400},
            "figures": figures,
            "terrain": terrain or [],
        }
    )


def test_a_way_round_a_tilted_rock_runs_along_its_grown_outline() -> None:
    # A 40 x 20 mm base facing north (x +-20, y +-10 about its centre) passes a 12 mm
    # rock square turned 24 deg, corners A (157.922, 146.959), B (153.041, 157.922),
    # C (142.078, 153.041), D (146.959, 142.078). Grown by the base, the rock's top is
    # B + (-20, 10) = (133.041, 167.922) to B + (20, 10) = (173.041, 167.922), with
    # C + (-20, 10) = (122.078, 163.041) before it; its bottom D + (-20, -10) to
    # D + (20, -10), y 132.078, with A + (20, -10) = (177.922, 136.959) after it.
    # From (100, 150) to (200, 152), over it:
    #   hypot(22.078, 13.041) + hypot(10.963, 4.881) + 40 + hypot(26.959, 15.922)
    #   = 25.642 + 12.000 + 40 + 31.310 = 108.952 mm of 5 graduations (125 mm);
    # under it: hypot(26.959, 17.922) + 40 + 12.000 + hypot(22.078, 15.041)
    #   = 32.373 + 40 + 12 + 26.714 = 111.087 mm.
    # The legs run along the grown outline's edges: touching them is no blocking.
    scene = _mbt(
        [_mbt_base("m", "blue", 100, 150, "cavalry")],
        [
            {
                "id": "rock",
                "kind": "impassable",
                "polygon_mm": [
                    [157.922, 146.959],
                    [153.041, 157.922],
                    [142.078, 153.041],
                    [146.959, 142.078],
                ],
            }
        ],
    )
    answer = _json(scene, "move", "m", 200, 152)
    assert answer["legal"], answer
    assert math.isclose(answer["cost_mm"], 108.952, abs_tol=1e-3)
    assert answer["path_mm"][1:4] == [[122.078, 163.041], [133.041, 167.922], [173.041, 167.922]]


def test_a_move_into_exact_contact_at_any_facing_is_legal() -> None:
    # m faces 37 deg and goes straight 100 mm along its facing, to where its front edge
    # lies on e's front edge (e faces 217 deg, 100 mm further on less their depths): the
    # goal is on e's grown outline, to the rounding of its coordinates.
    scene = _mbt(
        [
            _mbt_base("m", "blue", 204.16373879432484, 127.7821972217542, "cavalry", 37),
            _mbt_base("e", "red", 300, 200, "infantry", 217),
        ]
    )
    answer = _json(scene, "move", "m", 284.02728979905413, 187.96369953695904)
    assert answer["legal"], answer
    assert math.isclose(answer["cost_mm"], 100.0, abs_tol=1e-6)


def test_a_base_overhanging_the_table_edge_may_move_away_from_it() -> None:
    # Facing 37 deg, a 40 x 20 mm base reaches cos 37 x 10 + sin 37 x 20 = 20.0227 mm
    # along x from its centre: at x 20.0226 it overhangs the edge by 0.1 micrometre. It
    # moves straight to x 100 (79.9774 mm) and has somewhere to go.
    scene = _mbt([_mbt_base("m", "blue", 20.0226, 200, "cavalry", 37)])
    answer = _json(scene, "move", "m", 100, 200)
    assert answer["legal"], answer
    assert math.isclose(answer["cost_mm"], 79.9774, abs_tol=1e-3)
    assert _json(scene, "reach", "m")["area_mm2"] > 20_000.0


def test_a_base_overlapping_another_may_not_go_deeper_into_it() -> None:
    # m (x 180-220, y 190-210) overlaps o (x 219-259) by 1 mm. o grown by m is x 199-279,
    # y 180-220; m's centre is 1 mm deep in it, so that outline shrunk by 1 mm blocks:
    # x 200-278, y 181-219. To (239, 225): up its side to (200, 219), then across:
    #   19 + hypot(39, 6) = 19 + 39.459 = 58.459 mm, legal. Its reach leaves out
    # (260, 199.3), where m would be 19 mm into o.
    scene = _mbt(
        [
            _mbt_base("m", "blue", 200, 200, "cavalry"),
            _mbt_base("o", "red", 239, 200, "infantry"),
        ]
    )
    answer = _json(scene, "move", "m", 239, 225)
    assert answer["legal"], answer
    assert math.isclose(answer["cost_mm"], 58.459, abs_tol=1e-3)
    assert answer["path_mm"] == [[200.0, 200.0], [200.0, 219.0], [239.0, 225.0]]
    area = _reach_area(scene, "m")
    assert not area.contains(shapely.Point(260, 199.3))
    assert area.contains(shapely.Point(200, 230))


def test_a_square_deep_in_a_round_base_leaves_it_no_deeper() -> None:
    # A 20 mm square at (200, 200) and a 25 mm round base at (209, 200): the round base's
    # centre is 1 mm inside the square, 12.5 + 1 = 13.5 mm deep. The square may not get
    # deeper: the round base blocks as the centres where it is deeper than that, the
    # square of the round base's centre grown by the square ([199, 219] x [190, 210])
    # shrunk by 1: [200, 218] x [191, 209]. Round it to (260, 200):
    #   9 + 18 + hypot(42, 9) = 9 + 18 + 42.953 = 69.953 mm (not 60 straight through).
    scene = _sr(
        [
            {"id": "m", "side": "b", "x_mm": 200, "y_mm": 200, "facing_deg": 0, "base": SQUARE_20},
            {"id": "o", "side": "r", "x_mm": 209, "y_mm": 200},
        ],
        [],
    )
    answer = _json(scene, "move", "m", 260, 200)
    assert answer["legal"], answer
    assert math.isclose(answer["cost_mm"], 69.953, abs_tol=1e-3)
    area = _reach_area(scene, "m")
    assert not area.contains(shapely.Point(214, 200))  # 17.5 mm deep
    assert area.contains(shapely.Point(200, 180))


def test_a_base_overlapping_an_inner_corner_is_not_trapped() -> None:
    # A 20 mm square at (148, 148.5) overlaps an L of rock whose inner corner, grown by
    # the square, is at (150, 150): it is hypot(2, 1.5) = 2.5 mm deep, nearest the
    # corner. The outline shrunk by 2.5 mm rounds that corner with an arc, drawn with
    # chords: were they to cut in, the start would be inside it. Straight out to
    # (200, 200): hypot(52, 51.5) = 73.186 mm.
    rock = {
        "id": "rock",
        "kind": "impassable",
        "polygon_mm": [[100, 100], [200, 100], [200, 140], [140, 140], [140, 200], [100, 200]],
    }
    scene = _sr(
        [{"id": "m", "side": "b", "x_mm": 148, "y_mm": 148.5, "facing_deg": 90, "base": SQUARE_20}],
        [rock],
    )
    answer = _json(scene, "move", "m", 200, 200)
    assert answer["legal"], answer
    assert math.isclose(answer["cost_mm"], 73.186, abs_tol=1e-3)
    assert _json(scene, "reach", "m")["area_mm2"] > 10_000.0


def test_an_mbt_base_overlapping_beyond_the_tolerance_may_leave() -> None:
    # m (x 180-220) overlaps o (x 217-257) by 3 mm, more than the 2 mm contact
    # tolerance, or a rock from x 219 by 1 mm: moving straight away, 50 mm west or 60 mm
    # north, takes it no deeper, and is legal.
    m = _mbt_base("m", "blue", 200, 200, "cavalry")
    o = _mbt_base("o", "red", 237, 200, "infantry")
    rock = {
        "id": "rock",
        "kind": "impassable",
        "polygon_mm": [[219, 150], [260, 150], [260, 250], [219, 250]],
    }
    for scene in (_mbt([m, o]), _mbt([m], [rock])):
        for goal, cost in (((150, 200), 50.0), ((200, 260), 60.0)):
            answer = _json(scene, "move", "m", *goal)
            assert answer["legal"], answer
            assert math.isclose(answer["cost_mm"], cost, abs_tol=1e-6)


def test_a_base_pressed_into_a_hedge_corner_moves_away_from_it() -> None:
    # A bent hedge (x 200-300 at y 300, then up x 300 to y 400) is a 1 mm band; a 20 mm
    # square at (289.8, 310.1) overlaps it by 0.3 mm on one arm and 0.4 on the other,
    # the noise of a camera placing a figure tucked into the corner. It moves straight
    # on within the corner, to (250, 360): hypot(39.8, 49.9) = 63.828 mm, no crossing.
    hedge = {
        "id": "hedge",
        "kind": "obstacle",
        "level": 1,
        "line_mm": [[200, 300], [300, 300], [300, 400]],
    }
    scene = _sr(
        [
            {
                "id": "s",
                "side": "b",
                "x_mm": 289.8,
                "y_mm": 310.1,
                "facing_deg": 180,
                "base": SQUARE_20,
            }
        ],
        [hedge],
    )
    answer = _json(scene, "move", "s", 250, 360)
    assert answer["legal"] and answer["reasons"] == [], answer
    assert math.isclose(answer["cost_mm"], 63.828, abs_tol=1e-3)
