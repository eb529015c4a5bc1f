"""Smooth & Rifled: options, bad input, contact, loose order and invariants."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from arbitre.rules.errors import QuestionError, SceneError
from arbitre.rules.questions import ask
from arbitre.rules.scene import load_scene, parse_scene

EXAMPLES = Path(__file__).parents[2] / "examples"


def _scene(figures: list[dict[str, Any]], **extra: Any) -> Any:
    return parse_scene(
        {
            "ruleset": "smooth-and-rifled",
            "table": {"width_mm": 1200, "depth_mm": 900},
            "figures": figures,
            **extra,
        }
    )


def _json(scene: Any, question: str, *args: object, **extras: Any) -> dict[str, Any]:
    return ask(scene, question, [str(a) for a in args], extras).to_json()


def test_aliases_find_the_ruleset() -> None:
    for name in ("sr", "S&R", "smooth-and-rifled"):
        scene = parse_scene(
            {"ruleset": name, "table": {"width_mm": 100, "depth_mm": 100}, "figures": []}
        )
        assert scene.ruleset == "smooth-and-rifled"


@pytest.mark.parametrize(
    ("change", "field"),
    [
        ({"options": {"scale": "20mm"}}, "options.scale"),
        ({"options": {"sacle": "15mm"}}, "options.sacle"),
        (
            {"figures": [{"id": "a", "side": "b", "x_mm": 1, "y_mm": 1, "type": "TD"}]},
            "figures[0].type",
        ),
        (
            {
                "figures": [
                    {
                        "id": "a",
                        "side": "b",
                        "x_mm": 1,
                        "y_mm": 1,
                        "attrs": {"weapon": {"reload": 2}},
                    }
                ]
            },
            "figures[0].attrs.weapon",
        ),
        (
            {"figures": [{"id": "a", "side": "b", "x_mm": 1, "y_mm": 1, "attrs": {"combat": 9}}]},
            "figures[0].attrs.combat",
        ),
    ],
)
def test_bad_scenes_name_the_field(change: dict[str, Any], field: str) -> None:
    data = {"ruleset": "sr", "table": {"width_mm": 100, "depth_mm": 100}, "figures": []}
    with pytest.raises(SceneError) as error:
        parse_scene({**data, **change})
    assert error.value.field == field


def test_bad_questions_raise() -> None:
    scene = _scene([{"id": "a", "side": "b", "x_mm": 100, "y_mm": 100}])
    with pytest.raises(QuestionError, match="unknown figure"):
        ask(scene, "distance", ["a", "ghost"])
    with pytest.raises(QuestionError, match="action_index"):
        ask(scene, "move", ["a", "150", "100"], {"action_index": 4})
    with pytest.raises(QuestionError, match="mode"):
        ask(scene, "move", ["a", "150", "100"], {"mode": "gallop"})
    with pytest.raises(QuestionError, match="attrs.combat"):
        ask(scene, "melee", ["a", "a"])


def test_15mm_scale_halves_every_distance() -> None:
    # A single infantry figure moves 12 cm in its first action: 6 cm at 15 mm.
    figures = [{"id": "a", "side": "b", "x_mm": 100, "y_mm": 100, "type": "infantry"}]
    small = _scene(figures, options={"scale": "15mm"})
    assert _json(small, "move", "a", 100, 170)["allowance_mm"] == 60
    assert _json(small, "move", "a", 100, 170)["reasons"] == ["over_allowance"]
    assert _json(_scene(figures), "move", "a", 100, 170)["legal"] is True


def test_contact_allows_the_camera_tolerance() -> None:
    # Centres 26.5 mm apart: a gap of 1.5 mm <= 2 mm: contact, margin 0.5.
    scene = _scene(
        [
            {"id": "a", "side": "b", "x_mm": 100, "y_mm": 100},
            {"id": "c", "side": "r", "x_mm": 126.5, "y_mm": 100},
        ]
    )
    answer = _json(scene, "contact", "a", "c")
    assert answer["contact"] is True
    assert answer["gap_mm"] == pytest.approx(1.5, abs=1e-3)
    assert answer["margin_mm"] == pytest.approx(0.5, abs=1e-3)


def test_square_bases_measure_edge_to_edge() -> None:
    # Two 2x2 cm squares side by side, centres 50 mm apart: 30 mm edge to edge.
    square = {"shape": "square", "side_mm": 20}
    scene = _scene(
        [
            {"id": "a", "side": "b", "x_mm": 100, "y_mm": 100, "facing_deg": 90, "base": square},
            {"id": "c", "side": "r", "x_mm": 150, "y_mm": 100, "facing_deg": 90, "base": square},
        ]
    )
    assert _json(scene, "distance", "a", "c")["distance_mm"] == pytest.approx(30.0)


@pytest.mark.parametrize(("loose", "members"), [(False, ["L", "a"]), (True, ["L", "a", "b"])])
def test_light_troops_in_loose_order_chain_at_8_cm(loose: bool, members: list[str]) -> None:
    # b stands 50 mm from a (edge to edge): too far at 3 cm, close enough at 8 cm; and 80 mm
    # from the Leader, within his 10 cm.
    figures = [
        {
            "id": "L",
            "side": "b",
            "unit": "u",
            "x_mm": 100,
            "y_mm": 100,
            "attrs": {"leader": True, "light": True, "loose_order": loose},
        },
        {"id": "a", "side": "b", "unit": "u", "x_mm": 130, "y_mm": 100, "attrs": {"light": True}},
        {"id": "b", "side": "b", "unit": "u", "x_mm": 205, "y_mm": 100, "attrs": {"light": True}},
    ]
    groups = _json(_scene(figures), "groups")["groups"]
    assert sorted(groups["u"]) == members
    assert sum(len(ids) for ids in groups.values()) == 3  # every figure exactly once


def test_a_declared_member_left_behind_is_warned_about() -> None:
    figures = [
        {
            "id": "L",
            "side": "b",
            "unit": "u",
            "group": "G",
            "x_mm": 100,
            "y_mm": 100,
            "attrs": {"leader": True},
        },
        {"id": "a", "side": "b", "unit": "u", "group": "G", "x_mm": 130, "y_mm": 100},
        {"id": "far", "side": "b", "unit": "u", "group": "G", "x_mm": 400, "y_mm": 100},
    ]
    answer = _json(_scene(figures), "groups")
    assert answer["groups"] == {"G": ["L", "a"], "far": ["far"]}
    assert any("far (group G) acts alone" in w for w in answer["warnings"])


def test_shoot_the_nearest_target_first_is_a_warning() -> None:
    # n is nearer than t and in sight: a warning; a cavalry target behind infantry is the
    # book's exception.
    figures = [
        {
            "id": "s",
            "side": "b",
            "x_mm": 100,
            "y_mm": 100,
            "facing_deg": 90,
            "attrs": {"weapon": {"medium_range_cm": 30}},
        },
        {"id": "n", "side": "r", "x_mm": 200, "y_mm": 200, "type": "infantry"},
        {"id": "t", "side": "r", "x_mm": 100, "y_mm": 400, "type": "infantry"},
        {"id": "horse", "side": "r", "x_mm": 0 + 20, "y_mm": 420, "type": "cavalry"},
    ]
    scene = _scene(figures)
    first = _json(scene, "fire", "s", "t")
    assert first["allowed"] is True
    assert any("nearest target" in w and "n (" in w for w in first["warnings"])
    assert not any("nearest target" in w for w in _json(scene, "fire", "s", "horse")["warnings"])


def test_the_example_scene_answers_at_once() -> None:
    scene = load_scene(EXAMPLES / "smooth-and-rifled-skirmish.yaml")
    groups = _json(scene, "groups")["groups"]
    assert sorted(groups["line"]) == ["drum", "sgt", "u1", "u2", "u3"]
    assert _json(scene, "fire", "u3", "c1")["band"] == "long"
    assert "obstacle_crossing" in _json(scene, "move", "u1", 250, 420)["reasons"]


@settings(max_examples=25, deadline=None)
@given(
    st.floats(30, 1170),
    st.floats(30, 870),
    st.floats(30, 1170),
    st.floats(30, 870),
)
def test_distance_is_symmetric_and_edge_to_edge(x1: float, y1: float, x2: float, y2: float) -> None:
    scene = _scene(
        [
            {"id": "a", "side": "b", "x_mm": x1, "y_mm": y1},
            {"id": "c", "side": "r", "x_mm": x2, "y_mm": y2},
        ]
    )
    ab = _json(scene, "distance", "a", "c")["distance_mm"]
    assert ab == _json(scene, "distance", "c", "a")["distance_mm"]
    centres = ((x1 - x2) ** 2 + (y1 - y2) ** 2) ** 0.5
    assert ab == pytest.approx(max(0.0, centres - 25.0), abs=0.01)
