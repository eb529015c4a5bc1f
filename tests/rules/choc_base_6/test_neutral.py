"""rules/choc_base_6/neutral.py: Choc Base 6's answers on a neutral surface, measured in M
from the reference figures; groups without a reference (golden scene cb6-no-reference);
the invariants of its answers on random tables (hypothesis)."""

from __future__ import annotations

from typing import Any

import pytest
import shapely
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from arbitre.rules.errors import QuestionError
from arbitre.rules.questions import ask
from arbitre.rules.scene import parse_scene
from tests.rules.choc_base_6.scenes import HEADLESS, PROFILE, neutral_scene


@pytest.mark.parametrize(
    ("question", "args"),
    [
        ("distance", ["x1", "r1"]),
        ("contact", ["x1", "r1"]),
        ("contact", ["r1", "x1"]),
        ("reach", ["x1"]),
    ],
)
def test_questions_without_reasons_refuse_with_the_code(question: str, args: list[str]) -> None:
    with pytest.raises(QuestionError, match=r"group 'x1' has no reference figure.*no_reference"):
        ask(neutral_scene(*HEADLESS), question, args)


def test_a_figure_of_a_headless_group_is_still_measured_from_its_head() -> None:
    # x2 is named as a figure: 330 - 300 = 30 mm across, 200 mm down -> hypot = 202.24 mm.
    answer = ask(neutral_scene(*HEADLESS), "distance", ["x2", "r1"]).to_json()
    assert answer["mode"] == "head"
    assert answer["distance_mm"] == pytest.approx(202.237, abs=1e-3)
    # and the other groups answer as usual: r1 -> b1 is 300 mm = 3 M, in range.
    assert ask(neutral_scene(*HEADLESS), "fire", ["b1", "r1"]).to_json()["allowed"] is True


def _reference(
    ident: str, side: str, group: str, x: float, y: float, kind: str, **more: Any
) -> dict[str, Any]:
    """A group's reference figure."""
    return {
        "id": ident, "side": side, "group": group, "reference": True,
        "x_mm": x, "y_mm": y, "type": kind, **more,
    }  # fmt: skip


def test_a_shot_out_of_range_gives_the_range_s_margin_not_the_line_s() -> None:
    # A at (100, 100) shoots at T at (500, 100): 4 M, 1 M beyond the 3 M range; P stands
    # 40 mm beside the line. The refusal rests on the range: margin 100 mm (the page
    # said "margin from the figure nearest the line of fire" beside "out of range").
    scene = neutral_scene(
        _reference("a", "blue", "A", 100, 100, "TD"),
        _reference("t", "red", "T", 500, 100, "CR"),
        _reference("p", "green", "P", 300, 140, "CR"),
    )
    fire = ask(scene, "fire", ["A", "T"]).to_json()
    assert fire["reasons"] == ["out_of_range"]
    assert [m["what"] for m in fire["margins"]] == ["range"]
    assert fire["margin_mm"] == pytest.approx(100.0)


def test_a_shot_at_a_friend_is_refused_for_certain_however_near_the_range() -> None:
    # B is a friend (same side) 0.5 mm beyond the 3 M range, both measured to 0.5 mm:
    # the shot is refused because B is no enemy, which no measure can change; it said
    # "too close to call (range within 0.5 mm)".
    scene = neutral_scene(
        _reference("a", "blue", "A", 100, 100, "TD", sigma_mm=0.5),
        _reference("b", "blue", "B", 400.5, 100, "CR", sigma_mm=0.5),
    )
    fire = ask(scene, "fire", ["A", "B"]).to_json()
    assert "target_not_enemy" in fire["reasons"] and "out_of_range" in fire["reasons"]
    assert fire["margins"] == [] and fire["certain"] is True
    assert not fire["message"].startswith("too close to call")


# --- invariants on random tables -----------------------------------------------------------


coordinate_x = st.floats(40, 760)


coordinate_y = st.floats(40, 560)


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
