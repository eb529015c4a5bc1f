"""Smooth & Rifled's groups around their Leaders, with §3.1's worked example."""

from __future__ import annotations

from typing import Any

import pytest

from tests.rules.smooth_and_rifled.scenes import answer_json, sr_scene


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
    groups = answer_json(sr_scene(figures), "groups")["groups"]
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
    answer = answer_json(sr_scene(figures), "groups")
    assert answer["groups"] == {"G": ["L", "a"], "far": ["far"]}
    assert any("far (group G) acts alone" in w for w in answer["warnings"])


# §3.1's figure, laid out to the text's numbers (25 mm bases, gaps edge to edge):
# L (300, 300) the Leader; A, B, C, D 5 mm from him (chained); E 59.85 mm from L but 42.08 mm
# from B and C (not chained); F 116.4 mm from L and 97 mm from A and D; G 19.7 mm from F and
# 159.4 mm from L.
GROUP_EXAMPLE = [
    ("L", 300, 300),
    ("A", 270, 300),
    ("B", 330, 300),
    ("C", 300, 330),
    ("D", 300, 270),
    ("E", 360, 360),
    ("F", 200, 200),
    ("G", 160, 180),
]


def _group_example(drummer: bool, **options: Any) -> Any:
    figures = [
        {
            "id": name,
            "side": "blue",
            "unit": "line",
            "x_mm": x,
            "y_mm": y,
            "attrs": {"leader": name == "L", "musician": drummer and name == "B"},
        }
        for name, x, y in GROUP_EXAMPLE
    ]
    return sr_scene(figures, options=options)


@pytest.mark.parametrize(
    ("drummer", "members"),
    [
        # "A, B, C, D et L ... E fait partie du Groupe car il est à 6cm de L. Mais F et G ne
        # peuvent faire partie du Groupe."
        (False, ["A", "B", "C", "D", "E", "L"]),
        # "Si B était un tambour (Musicien), alors F, à moins de 12cm de L, appartiendrait au
        # Groupe. Et en conséquence, G, à moins de 3cm de F, en ferait partie aussi."
        (True, ["A", "B", "C", "D", "E", "F", "G", "L"]),
    ],
)
def test_group_membership_example_read_as_chain_or_radius(
    drummer: bool, members: list[str]
) -> None:
    # The example's own reading: chained within 3 cm, *or* within the Leader's radius, which
    # the example sets at 6 cm (12 cm with a musician).
    scene = _group_example(drummer, group_rule="chain_or_radius", leader_radius_cm=6)
    groups = answer_json(scene, "groups")["groups"]
    assert sorted(groups["line"]) == members
    assert sorted(g for g in groups if g != "line") == sorted(
        name for name, _, _ in GROUP_EXAMPLE if name not in members
    )


@pytest.mark.parametrize("drummer", [False, True])
def test_group_membership_example_under_the_text_rule(drummer: bool) -> None:
    # The default reading (§3.0's text): chained within 3 cm *and* within 10 cm of the Leader
    # (20 cm with a musician). A-D qualify; E, F and G are not chained to the group, so each
    # acts alone whatever the radius: the example's E (at 6 cm, not chained) is the case where
    # the text and the example part ways.
    groups = answer_json(_group_example(drummer), "groups")["groups"]
    assert sorted(groups["line"]) == ["A", "B", "C", "D", "L"]
    assert {name for name, ids in groups.items() if len(ids) == 1} == {"E", "F", "G"}
