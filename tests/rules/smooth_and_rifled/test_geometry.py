"""Smooth & Rifled's geometry: arcs, lines of fire, cover, sight, and the artillery's
muzzle, strips and templates, measured directly."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
import shapely

from arbitre.rules.smooth_and_rifled.geometry import (
    cover,
    cover_weight,
    fortified_areas,
    hits_in,
    in_arc,
    line_of_fire,
    muzzle,
    sight,
    strip_lengths_mm,
)
from arbitre.rules.smooth_and_rifled.options import options_of
from tests.rules.smooth_and_rifled.scenes import square, sr_scene


def _figure(ident: str, x: float, y: float, side: str = "blue", **more: Any) -> dict[str, Any]:
    return {"id": ident, "side": side, "x_mm": x, "y_mm": y, **more}


def _polygon(ident: str, kind: str, x0: float, y0: float, x1: float, y1: float) -> dict[str, Any]:
    return {"id": ident, "kind": kind, "polygon_mm": [[x0, y0], [x1, y0], [x1, y1], [x0, y1]]}


@pytest.mark.parametrize(
    ("y", "inside", "margin_mm"),
    [
        (95.0, True, 5.0),  # the 20 mm square spans y 85-105: 5 mm of it past y 100
        (85.0, False, 5.0),  # spans y 75-95: 5 mm short of the arc
        (110.0, True, 20.0),  # wholly inside, its far corners 20 mm in
    ],
)
def test_a_base_partly_inside_the_arc_is_in_it(y: float, inside: bool, margin_mm: float) -> None:
    # A single figure at (100, 100) facing +y sees 180 degrees: everything at y >= 100.
    scene = sr_scene([square("v", "blue", 100, 100, 90), square("t", "red", 200, y, 0)])
    viewer, target = scene.figures
    target_print = shapely.box(190, y - 10, 210, y + 10)
    assert in_arc(viewer, target_print, 180.0) == (inside, pytest.approx(margin_mm))


def test_a_figure_on_the_line_blocks_it_and_the_nearest_other_gives_the_margin() -> None:
    # s (100, 100) shoots at t (100, 400). b on the line blocks by its whole radius, 12.5 mm;
    # o, 50 mm aside, clears the line by 50 - 12.5 = 37.5 mm.
    figures = [
        _figure("s", 100, 100),
        _figure("t", 100, 400, "red"),
        _figure("b", 100, 250),
        _figure("o", 150, 250),
    ]
    scene = sr_scene(figures)
    options = options_of(scene)
    s, t, b, o = scene.figures
    blocked = line_of_fire(scene, options, s, t)
    assert blocked.blocked_by == ("b",)
    assert blocked.margin_mm == pytest.approx(12.5, abs=0.01)
    clear = line_of_fire(scene, options, s, t, friends=("b",))
    assert clear.blocked_by == ()
    assert clear.margin_mm == pytest.approx(37.5, abs=0.01)


def test_a_figure_in_contact_with_the_shooter_does_not_block() -> None:
    # §6.2.2: c touches s (1 mm apart, within the 2 mm tolerance); 3 mm apart it blocks.
    for gap_mm, blockers in ((1.0, ()), (3.0, ("c",))):
        scene = sr_scene(
            [
                _figure("s", 100, 100),
                _figure("t", 100, 400, "red"),
                _figure("c", 100, 125 + gap_mm),
            ]
        )
        s, t, _ = scene.figures
        assert line_of_fire(scene, options_of(scene), s, t).blocked_by == blockers


def test_a_building_blocks_the_line_unless_one_of_the_two_stands_in_it() -> None:
    # The house spans x 50-150 across the line x = 100: 50 mm to clear it either way.
    house = _polygon("house", "building", 50, 200, 150, 220)
    for shooter_y, blockers in ((100.0, ("house",)), (210.0, ())):
        scene = sr_scene(
            [_figure("s", 100, shooter_y), _figure("t", 100, 400, "red")], terrain=[house]
        )
        s, t = scene.figures
        line = line_of_fire(scene, options_of(scene), s, t)
        assert line.blocked_by == blockers
        if blockers:
            assert line.margin_mm == pytest.approx(50.0)


def test_a_wood_or_building_is_heavy_cover_and_the_rest_light_unless_said() -> None:
    # §6.2.7: « couvert léger (haie, barrière, mur de bois, terrain rocheux) ... couvert
    # lourd (mur de pierre, dans un bâtiment, dans un bois) ».
    scene = sr_scene(
        [],
        terrain=[
            _polygon("wood", "wood", 0, 0, 100, 100),
            _polygon("house", "building", 200, 0, 300, 100),
            _polygon("rocks", "difficult", 400, 0, 500, 100),
            {"id": "hedge", "kind": "obstacle", "line_mm": [[0, 300], [500, 300]]},
            {
                "id": "stone",
                "kind": "obstacle",
                "line_mm": [[0, 400], [500, 400]],
                "attrs": {"cover": "heavy"},
            },
        ],
    )
    assert [cover_weight(t) for t in scene.terrain] == ["heavy", "heavy", "light", "light", "heavy"]


def test_a_closed_fortified_obstacle_is_an_area_of_heavy_cover() -> None:
    # Annexe II, scenario 4: a fortified line closed on itself; an open one or one not
    # fortified is no area.
    ring = [[100, 100], [300, 100], [300, 300], [100, 300], [100, 100]]
    scene = sr_scene(
        [],
        terrain=[
            {"id": "fort", "kind": "obstacle", "line_mm": ring, "attrs": {"fortified": True}},
            {"id": "pen", "kind": "obstacle", "line_mm": ring},
            {
                "id": "half",
                "kind": "obstacle",
                "line_mm": ring[:3],
                "attrs": {"fortified": True},
            },
        ],
    )
    (fort,) = fortified_areas(scene)
    assert fort.id == "fort" and fort.geometry.area == pytest.approx(200 * 200)
    assert fort.attrs["cover"] == "heavy"


@pytest.mark.parametrize(
    ("level", "foot", "mounted"),
    [(1, "partial", "none"), (2, "total", "partial"), (3, "total", "total")],
)
def test_an_obstacle_s_level_grades_the_cover_of_foot_and_mounted(
    level: int, foot: str, mounted: str
) -> None:
    # §6.2.4: « Niveau 1. Assez pour donner un couvert partiel à un piéton, mais pas à une
    # figurine montée. Niveau 2. ... un couvert total à un piéton et un couvert partiel à une
    # figurine montée. Niveau 3. ... un couvert total à un piéton ou à une figurine montée. »
    # The wall crosses the line 100 mm from the shooter, 87.5 mm from its base.
    wall = {"id": "wall", "kind": "obstacle", "level": level, "line_mm": [[0, 200], [400, 200]]}
    for kind, grade in (("infantry", foot), ("cavalry", mounted)):
        scene = sr_scene(
            [_figure("s", 200, 100), _figure("t", 200, 300, "red", type=kind)], terrain=[wall]
        )
        s, t = scene.figures
        found = cover(scene, options_of(scene), s, t)
        assert (found.features, found.level, found.grade) == (("wall",), level, grade)
        assert found.weight == (None if grade == "none" else "light")


def test_a_target_standing_in_a_wood_has_heavy_cover_and_its_edge_the_margin() -> None:
    # The target's centre is 30 mm inside the wood (from y 270): partial cover, heavy.
    scene = sr_scene(
        [_figure("s", 200, 100), _figure("t", 200, 300, "red")],
        terrain=[_polygon("wood", "wood", 100, 270, 400, 500)],
    )
    s, t = scene.figures
    found = cover(scene, options_of(scene), s, t)
    assert (found.features, found.grade, found.weight) == (("wood",), "partial", "heavy")
    assert found.shelter_margin_mm == pytest.approx(30.0)


@pytest.mark.parametrize(
    ("viewer", "target", "visible", "margin_mm"),
    [
        # Both in the wood, 145 mm apart edge to edge: within 15 cm, 5 mm to spare.
        ((300, 300), (300, 470), True, 5.0),
        ((300, 300), (300, 480), False, 5.0),
        # The viewer outside; the target's base 40 mm inside the wood: within 5 cm.
        ((300, 100), (300, 252.5), True, 10.0),
        # ... 60 mm inside it: hidden, 1 cm too deep.
        ((300, 100), (300, 272.5), False, 10.0),
    ],
)
def test_sight_reaches_5_cm_into_a_wood_and_15_cm_across_one(
    viewer: tuple[float, float],
    target: tuple[float, float],
    visible: bool,
    margin_mm: float,
) -> None:
    # §6.3: the wood spans x 200-600, y 200-700; 25 mm round bases.
    scene = sr_scene(
        [_figure("v", *viewer), _figure("t", *target, "red")],
        terrain=[_polygon("wood", "wood", 200, 200, 600, 700)],
    )
    seen = sight(scene, options_of(scene), *scene.figures)
    assert (seen.visible, seen.margin_mm) == (visible, pytest.approx(margin_mm, abs=0.01))


@pytest.mark.parametrize(("depth_mm", "visible"), [(40.0, True), (60.0, False)])
def test_a_line_through_a_wood_holding_neither_figure_runs_at_most_5_cm_in_it(
    depth_mm: float, visible: bool
) -> None:
    # §6.3: the wood is a strip across the line from y 300, 40 or 60 mm deep: 1 cm less or
    # more than the 5 cm sight reaches through it.
    scene = sr_scene(
        [_figure("v", 300, 100), _figure("t", 300, 500, "red")],
        terrain=[_polygon("wood", "wood", 0, 300, 1200, 300 + depth_mm)],
    )
    seen = sight(scene, options_of(scene), *scene.figures)
    assert (seen.visible, seen.margin_mm) == (visible, pytest.approx(10.0))


def test_a_figure_in_a_building_is_seen_within_30_cm_until_it_fires() -> None:
    # §6.3: the target at the house's centre; the viewer 29 or 31 cm from it, edge to edge.
    house = _polygon("house", "building", 250, 550, 350, 650)
    for gap_cm, fired, visible in ((29, False, True), (31, False, False), (31, True, True)):
        y = 600 - 25 - 10 * gap_cm
        scene = sr_scene(
            [_figure("v", 300, y), _figure("t", 300, 600, "red", attrs={"fired": fired})],
            terrain=[house],
        )
        assert sight(scene, options_of(scene), *scene.figures).visible is visible


def test_a_gun_fires_from_its_muzzle_or_the_front_of_its_base() -> None:
    # A 40 mm square at (600, 150) facing +y: its front is 20 mm ahead.
    gun = {"type": "artillery", "base": {"shape": "square", "side_mm": 40}, "facing_deg": 90}
    scene = sr_scene(
        [
            _figure("g", 600, 150, **gun),
            _figure("h", 300, 150, **gun, attrs={"muzzle_mm": [310, 175]}),
        ]
    )
    g, h = scene.figures
    assert muzzle(g) == pytest.approx(np.array([600.0, 170.0]))
    assert muzzle(h) == pytest.approx(np.array([310.0, 175.0]))


def test_a_round_shot_strip_starts_behind_its_target() -> None:
    # From (100, 100) at t (100, 300): the strip, 40 mm wide, starts at t's far edge
    # (y 312.5, 212.5 mm along the line). b's near edge is at y 387.5: 75 mm of strip;
    # c (130, 400) enters the strip (x <= 120) where its circle meets x = 120,
    # y = 400 - sqrt(12.5^2 - 10^2) = 392.5: 80 mm; d (200, 400) lies beside it.
    scene = sr_scene(
        [
            _figure("g", 100, 60),
            _figure("t", 100, 300, "red"),
            _figure("b", 100, 400, "red"),
            _figure("c", 130, 400, "red"),
            _figure("d", 200, 400, "red"),
        ]
    )
    needed, unit, start = strip_lengths_mm(
        scene, np.array([100.0, 100.0]), scene.figures[1], 40.0, ("g",)
    )
    assert unit == pytest.approx(np.array([0.0, 1.0]))
    assert start == pytest.approx(212.5)
    assert needed == {"b": pytest.approx(75.0, abs=0.01), "c": pytest.approx(80.0, abs=0.1)}


def test_the_figures_in_a_template_are_those_whose_base_reaches_into_it() -> None:
    # A disc of 100 mm about (500, 500), its edge at y 600 and 400: a's base (y 590-615)
    # reaches 10 mm into it, b's (y 365-390) stops 10 mm short, c (excluded) at its centre.
    scene = sr_scene([_figure("a", 500, 602.5), _figure("b", 500, 377.5), _figure("c", 500, 500)])
    region = shapely.Point(500, 500).buffer(100, quad_segs=64)
    hits = hits_in(scene, region, ("c",))
    assert set(hits) == {"a", "b"}
    assert hits["a"] == pytest.approx(10.0, abs=0.05)
    assert hits["b"] == pytest.approx(-10.0, abs=0.05)
