"""Invariants of CB6 answers on random tables (hypothesis)."""

from __future__ import annotations

from typing import Any

import shapely
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from arbitre.rules.questions import ask
from arbitre.rules.scene import parse_scene

coordinate_x = st.floats(40, 760)
coordinate_y = st.floats(40, 560)
PROFILE = settings(
    max_examples=40,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
)


@st.composite
def tables(draw: st.DrawFn, terrain: bool = True) -> dict[str, Any]:
    """A 800 x 600 table: the mover M at the centre and up to four lone figures around."""
    figures = [
        {
            "id": "m",
            "side": "blue",
            "group": "M",
            "reference": True,
            "x_mm": 400,
            "y_mm": 300,
            "type": "TD",
            "attrs": {"alone": True},
        }
    ]
    for k in range(draw(st.integers(0, 4))):
        x, y = draw(coordinate_x), draw(coordinate_y)
        if (x - 400) ** 2 + (y - 300) ** 2 < 60**2:
            continue
        if any((x - f["x_mm"]) ** 2 + (y - f["y_mm"]) ** 2 < 60**2 for f in figures):
            continue
        figures.append(
            {
                "id": f"o{k}",
                "side": draw(st.sampled_from(["blue", "red"])),
                "group": f"O{k}",
                "reference": True,
                "x_mm": x,
                "y_mm": y,
                "type": "TD",
                "attrs": {"alone": True},
            }
        )
    features = []
    if terrain and draw(st.booleans()):
        x, y = draw(st.floats(100, 600)), draw(st.floats(100, 450))
        kind = draw(st.sampled_from(["wood", "impassable"]))
        box = shapely.box(x, y, x + 80, y + 50)
        if not box.buffer(15).contains(shapely.Point(400, 300)):
            features.append(
                {"id": "t", "kind": kind, "polygon_mm": [list(p) for p in box.exterior.coords[:-1]]}
            )
    return {
        "ruleset": "cb6",
        "options": {"unit_mm": 100},
        "table": {"width_mm": 800, "depth_mm": 600},
        "figures": figures,
        "terrain": features,
    }


def _with_unit(data: dict[str, Any], unit_mm: float) -> Any:
    return parse_scene({**data, "options": {"unit_mm": unit_mm}})


@PROFILE
@given(tables(terrain=False), st.data())
def test_distance_is_symmetric(data: dict[str, Any], choice: st.DataObject) -> None:
    scene = _with_unit(data, 100)
    ids = [f.id for f in scene.figures]
    a, b = choice.draw(st.sampled_from(ids)), choice.draw(st.sampled_from(ids))
    there = ask(scene, "distance", [a, b]).to_json()
    back = ask(scene, "distance", [b, a]).to_json()
    assert there["distance_mm"] == back["distance_mm"]


@PROFILE
@given(tables(), coordinate_x, coordinate_y)
def test_a_path_is_never_shorter_than_the_straight_line(
    data: dict[str, Any], x: float, y: float
) -> None:
    answer = ask(_with_unit(data, 100), "move", ["M", f"{x}", f"{y}"]).to_json()
    straight = ((x - 400) ** 2 + (y - 300) ** 2) ** 0.5
    if answer["cost_mm"] is not None:  # None: no way there at all
        assert answer["cost_mm"] >= straight - 5e-4  # JSON rounds to the micrometre


@PROFILE
@given(tables(), coordinate_x, coordinate_y, st.floats(50, 200), st.floats(1, 100))
def test_more_allowance_never_makes_a_legal_move_illegal(
    data: dict[str, Any], x: float, y: float, unit_a: float, extra: float
) -> None:
    before = ask(_with_unit(data, unit_a), "move", ["M", f"{x}", f"{y}"]).to_json()
    after = ask(_with_unit(data, unit_a + extra), "move", ["M", f"{x}", f"{y}"]).to_json()
    assert after["allowance_mm"] > before["allowance_mm"]
    if before["legal"]:
        assert after["legal"]


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(tables(), st.lists(st.tuples(coordinate_x, coordinate_y), min_size=8, max_size=8))
def test_reach_contains_every_legal_destination(
    data: dict[str, Any], goals: list[tuple[float, float]]
) -> None:
    scene = _with_unit(data, 100)
    reach = ask(scene, "reach", ["M"]).to_json()
    area = shapely.MultiPolygon(
        [
            (shell, holes)
            for shell, holes in zip(reach["polygons_mm"], reach["holes_mm"], strict=True)
        ]
    )
    for x, y in goals:
        answer = ask(scene, "move", ["M", f"{x}", f"{y}"]).to_json()
        if answer["legal"] and answer["margin_mm"] > 1.0:
            assert area.buffer(1e-6).contains(shapely.Point(x, y)), (x, y, answer["cost_mm"])


@st.composite
def crowds(draw: st.DrawFn) -> dict[str, Any]:
    """Up to ten figures of three sides, some marked reference, on a 400 x 300 table."""
    figures = []
    for k in range(draw(st.integers(2, 10))):
        figures.append(
            {
                "id": f"f{k}",
                "side": draw(st.sampled_from(["blue", "red", "green"])),
                "reference": draw(st.booleans()),
                "x_mm": draw(st.floats(20, 380)),
                "y_mm": draw(st.floats(20, 280)),
            }
        )
    return {
        "ruleset": "cb6",
        "options": {"unit_mm": 100},
        "table": {"width_mm": 400, "depth_mm": 300},
        "figures": figures,
        "allies": [["blue", "green"]],
    }


@PROFILE
@given(crowds())
def test_groups_partition_the_table_and_regroup_is_symmetric(document: dict[str, Any]) -> None:
    scene = parse_scene(document)  # with or without reference figures, the scene loads
    groups = ask(scene, "groups", []).to_json()
    ids = sorted(i for members in groups["groups"].values() for i in members)
    assert ids == sorted(f["id"] for f in document["figures"])  # every figure exactly once
    names = sorted(groups["groups"])
    for a in names:
        for b in names:
            if a < b:
                ab = ask(scene, "regroup", [a, b]).to_json()
                ba = ask(scene, "regroup", [b, a]).to_json()
                assert (ab["allowed"], ab["transfer"], sorted(ab["reasons"])) == (
                    ba["allowed"],
                    ba["transfer"],
                    sorted(ba["reasons"]),
                )
    order = ask(scene, "turn-order", []).to_json()
    counts = order["counts"]
    assert sum(counts.values()) == len(names)
    assert [counts[s] for s in order["order"]] == sorted(counts.values(), reverse=True)


@PROFILE
@given(
    st.lists(
        st.tuples(st.integers(0, 11), st.integers(0, 7), st.sampled_from(["A", "B"])),
        min_size=2,
        max_size=14,
        unique_by=lambda cell: cell[:2],
    )
)
def test_a_declared_group_is_together_when_its_figures_chain_within_two_thicknesses(
    cells: list[tuple[int, int, str]],
) -> None:
    # Figures of two declared groups on a 40 mm lattice: neighbours (40 mm apart) chain,
    # figures two steps apart (80 mm, or 56.6 mm across a diagonal) do not, since a chain's
    # links are shorter than two thicknesses (50 mm). A group is "not together" exactly
    # when its figures do not make one chain among themselves.
    figures = [
        {
            "id": f"f{k}",
            "side": "blue",
            "group": group,
            "reference": k == min(j for j, c in enumerate(cells) if c[2] == group),
            "x_mm": 100 + 40 * i,
            "y_mm": 100 + 40 * j,
            "type": "TD",
        }
        for k, (i, j, group) in enumerate(cells)
    ]
    scene = parse_scene(
        {"ruleset": "cb6", "table": {"width_mm": 800, "depth_mm": 600}, "figures": figures}
    )
    warnings = ask(scene, "groups", []).to_json()["warnings"]
    for group in ("A", "B"):
        places = {(i, j) for i, j, g in cells if g == group}
        if len(places) < 2:
            continue
        reached, stack = {min(places)}, [min(places)]
        while stack:
            i, j = stack.pop()
            for step in ((i + 1, j), (i - 1, j), (i, j + 1), (i, j - 1)):
                if step in places and step not in reached:
                    reached.add(step)
                    stack.append(step)
        apart = any(w.startswith(f"group {group} is not together") for w in warnings)
        assert apart == (reached != places)
