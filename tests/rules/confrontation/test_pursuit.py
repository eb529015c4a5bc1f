"""rules/confrontation/pursuit.py: where a figure may pursue, half its MOU rounded up."""

from __future__ import annotations

import math

import pytest

from arbitre.rules.confrontation import pursuit_distance_cm
from arbitre.rules.errors import QuestionError
from arbitre.rules.questions import ask
from arbitre.rules.scene import parse_scene
from tests.rules.confrontation.scenes import GARDE, fig, scene_of


def test_pursuit_is_half_the_mou_rounded_up() -> None:
    assert [pursuit_distance_cm(m) for m in (10, 11, 15, 7.5)] == [5, 6, 8, 4]
    # A lone figure, MOU 15: pursuit 8 cm = 80 mm; an open table -> a disc of radius 80 mm.
    scene = scene_of(fig("loup", "wolfen", 600, 450, attrs={"mou_cm": 15}))
    answer = ask(scene, "pursuit", ["loup"]).to_json()
    assert (answer["pursuit_cm"], answer["pursuit_mm"], answer["allowance_units"]) == (8, 80, 8)
    assert answer["unit"] == "cm"
    assert answer["area_mm2"] == pytest.approx(math.pi * 80**2, rel=2e-3)
    assert answer["engaged"] == []


def test_pursuit_needs_the_mou() -> None:
    with pytest.raises(QuestionError, match="attrs.mou_cm"):
        ask(scene_of(*GARDE), "pursuit", ["clone1"])


def test_the_smallest_and_largest_mou_pursue() -> None:
    # MOU 1 cm: half is 0.5, rounded up 1 cm; MOU 10,000 cm: 5,000 cm.
    for mou, pursuit in ((1, 1), (10_000, 5_000)):
        scene = scene_of(fig("a", "red", 600, 450, attrs={"mou_cm": mou, "ini": 100}))
        assert ask(scene, "pursuit", ["a"]).to_json()["pursuit_cm"] == pursuit


@pytest.mark.parametrize("terrain_cost", ["none", "double"])
def test_a_pursuit_through_a_wood_costs_nothing_more_but_under_the_house_rule(
    terrain_cost: str,
) -> None:
    # A lone figure of MOU 10 pursues 5 cm = 50 mm, standing in a wood that covers the
    # whole table. The book gives terrain no cost: its reach is a disc of 50 mm around it,
    # pi 50^2 = 7854 mm^2 (less the few mm^2 its polygon cuts off). Under the house rule
    # every mm costs two: a disc of 25 mm, a quarter of the area.
    data = {
        "ruleset": "confrontation",
        "options": {"terrain_cost": terrain_cost},
        "table": {"width_mm": 1200, "depth_mm": 900},
        "figures": [fig("a", "red", 600, 450, attrs={"mou_cm": 10})],
        "terrain": [
            {"id": "wood", "kind": "wood", "polygon_mm": [[0, 0], [1200, 0], [1200, 900], [0, 900]]}
        ],
    }
    answer = ask(parse_scene(data), "pursuit", ["a"]).to_json()
    disc_mm2 = math.pi * 50.0**2
    if terrain_cost == "none":
        assert answer["area_mm2"] == pytest.approx(disc_mm2, rel=0.01)
        assert answer["warnings"] == []
    else:
        assert answer["area_mm2"] == pytest.approx(disc_mm2 / 4, rel=0.01)
        assert [c["code"] for c in answer["warning_codes"]] == ["house_rule_terrain_cost"]
    assert answer["pursuit_mm"] == 50.0


@pytest.mark.parametrize(
    ("x_b", "doubtful", "engaged"),
    [(127.5, True, []), (127.0, True, ["b"]), (129.5, False, []), (125.0, False, ["b"])],
)
def test_a_pursuit_warns_when_whether_it_still_touches_an_enemy_is_too_close_to_call(
    x_b: float, doubtful: bool, engaged: list[str]
) -> None:
    # « Si le combattant est déjà au contact d'une ou plusieurs figurines adverses [...] » or
    # « libre de tout adversaire »: two cases, so a doubtful contact must be said. 25 mm
    # bases, contact up to a 2 mm gap, each position +- 0.5 mm: the gap +- hypot(0.5, 0.5)
    # = 0.707 mm, too close to call within 1.414 mm of 2 mm. b at x 127.5: gap 2.5 mm, 0.5
    # off (free, doubtful); at 127: gap 2, 0 off (touching, doubtful); at 129.5: gap 4.5,
    # 2.5 off (free); at 125: gap 0, 2 off (touching).
    scene = scene_of(
        fig("a", "blue", 100, 100, sigma_mm=0.5, attrs={"mou_cm": 10}),
        fig("b", "red", x_b, 100, sigma_mm=0.5),
    )
    answer = ask(scene, "pursuit", ["a"])
    assert list(answer.to_json()["engaged"]) == engaged
    said = [w for w in answer.warnings if w.startswith("too close to call whether a-b touch")]
    assert len(said) == int(doubtful)
    for warning in said:  # in the text too
        assert f"\nwarning: {warning}" in answer.message
