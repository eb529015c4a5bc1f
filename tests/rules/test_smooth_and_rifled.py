"""Smooth & Rifled: options, bad input, contact, loose order and invariants."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml
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


@pytest.mark.parametrize(
    ("attrs", "field", "problem"),
    [
        # R from 1 cm to 30 m (3R = 90 m, within the largest table).
        (
            {"weapon": {"medium_range_cm": 1e300}},
            "weapon",
            "medium_range_cm must be a number of cm, 1 to 3000, got 1e+300",
        ),
        ({"weapon": {"medium_range_cm": 1e-300}}, "weapon", "got 1e-300"),
        ({"weapon": {"medium_range_cm": 3001}}, "weapon", "got 3001"),
        # the muzzle is a point within 1 km of the table's corner.
        ({"muzzle_mm": [1e300, 100]}, "muzzle_mm", "within 1,000,000 mm"),
        ({"muzzle_mm": [100, float("nan")]}, "muzzle_mm", "got [100, nan]"),
        ({"muzzle_mm": [100]}, "muzzle_mm", "expected [x, y]"),
        # the VA's last number is a die's face.
        ({"va": "1/2/9"}, "va", "its last number a die's face 1 to 6, got '1/2/9'"),
        ({"va": [1, 2, 10**300]}, "va", "got [1, 2, "),
        ({"va": 3}, "va", "got 3"),
    ],
)
def test_attributes_out_of_bounds_are_scene_errors(
    attrs: dict[str, Any], field: str, problem: str
) -> None:
    with pytest.raises(SceneError) as error:
        _scene([{"id": "g", "side": "b", "x_mm": 100, "y_mm": 100, "attrs": attrs}])
    assert error.value.field == f"figures[0].attrs.{field}"
    assert error.value.problem.startswith("figure 'g': ")
    assert problem in error.value.problem


def test_bad_questions_raise() -> None:
    scene = _scene(
        [
            {"id": "a", "side": "b", "x_mm": 100, "y_mm": 100},
            {"id": "e", "side": "r", "x_mm": 126, "y_mm": 100},
        ]
    )
    with pytest.raises(QuestionError, match="unknown figure"):
        ask(scene, "distance", ["a", "ghost"])
    with pytest.raises(QuestionError, match="action_index"):
        ask(scene, "move", ["a", "150", "100"], {"action_index": 4})
    with pytest.raises(QuestionError, match="mode"):
        ask(scene, "move", ["a", "150", "100"], {"mode": "gallop"})
    with pytest.raises(QuestionError, match="attrs.combat"):
        ask(scene, "melee", ["a", "e"])


# u1, u2 of the union, c1, c2 of the confederates; none has a C, so a melee that got
# past the check of who fights whom would stop on "attrs.combat" instead.
SIDES = [
    {"id": "u1", "side": "union", "x_mm": 100, "y_mm": 100},
    {"id": "u2", "side": "union", "x_mm": 100, "y_mm": 130},
    {"id": "c1", "side": "csa", "x_mm": 126, "y_mm": 100},
    {"id": "c2", "side": "csa", "x_mm": 126, "y_mm": 130},
]


@pytest.mark.parametrize(
    ("a", "b", "problem"),
    [
        ("u1,u1", "c1", "^'u1' is named twice: a figure fights once, on one side$"),
        ("u1", "u1", "^'u1' is named twice"),
        ("u1", "c1,u1", "^'u1' is named twice"),
        ("u1", "u2", "^'u2' is not an enemy of 'u1'$"),
        ("u1,u2", "u2", "^'u2' is named twice"),
        ("u1,c1", "c2", "^'u1' and 'c1' are enemies: they cannot fight on one side$"),
        ("c1", "u1,c2", "^'u1' and 'c2' are enemies"),
        ("u1,u2", "c1,c2", "^a melee is one against one, or two against one$"),
    ],
)
def test_melee_refuses_figures_on_the_wrong_side(a: str, b: str, problem: str) -> None:
    with pytest.raises(QuestionError, match=problem):
        ask(_scene(SIDES), "melee", [a, b])


def test_melee_between_allies_is_refused() -> None:
    # union and france are allies: friends, not enemies.
    scene = _scene(
        [*SIDES, {"id": "f1", "side": "france", "x_mm": 200, "y_mm": 100}],
        allies=[["union", "france"]],
    )
    with pytest.raises(QuestionError, match="^'f1' is not an enemy of 'u1'$"):
        ask(scene, "melee", ["u1", "f1"])


def test_damage_is_a_hit_on_an_enemy() -> None:
    scene = _scene(SIDES)
    with pytest.raises(QuestionError, match="^'u2' is not an enemy of 'u1'$"):
        ask(scene, "damage", ["u1", "u2"])
    with pytest.raises(QuestionError, match="^'u1' is not an enemy of 'u1'$"):
        ask(scene, "damage", ["u1", "u1"])
    # In the open, not aimed: modifier 0, so 1-3 shaken and 4-6 out, 50 % each.
    assert _json(scene, "damage", "u1", "c1")["distribution"] == {"shaken": 0.5, "out": 0.5}


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


def test_fifteen_mm_uses_the_books_own_numbers_where_it_gives_them() -> None:
    # Scenario 1: "aucune figurine ennemie à moins de 25cm (15cm en 15mm)" — not 12.5 cm.
    # An enemy whose base is 140 mm from the objective: near in 15 mm (< 150), not at 28 mm
    # (< 250 too). At 200 mm: near at 28 mm only.
    def objective(scale: str, enemy_y: float) -> dict[str, Any]:
        figures = [
            {"id": "f", "side": "blue", "x_mm": 600, "y_mm": 462.5},
            {"id": "e", "side": "red", "x_mm": 600, "y_mm": enemy_y},
        ]
        scene = _scene(figures, options={"scale": scale})
        return _json(scene, "objective", "blue", 600, 450, turn=3)

    # f touches the point (gap 0); e at y = 450 + 200 + 12.5 is 200 mm from it.
    assert objective("15mm", 662.5)["held"] is True
    assert objective("15mm", 662.5)["enemy_radius_mm"] == 150
    assert objective("28mm", 662.5)["reasons"] == ["enemy_near"]
    assert objective("15mm", 602.5)["reasons"] == ["enemy_near"]  # 140 mm < 150
    # Annexe I: scouts deploy to "40cm (25cm en 15mm)"; others to 30 cm, halved to 15 cm.
    figures = [
        {"id": "s", "side": "blue", "x_mm": 600, "y_mm": 230, "attrs": {"scout": True}},
        {"id": "p", "side": "blue", "x_mm": 500, "y_mm": 130},
    ]
    small = _json(_scene(figures, options={"scale": "15mm"}), "deployment", "blue", edge="y0")
    # s reaches y 242.5 <= 250; p reaches 142.5 <= 150.
    assert (small["scout_zone_mm"], small["zone_mm"], small["legal"]) == (250, 150, True)
    assert small["margin_mm"] == pytest.approx(7.5)


def test_halved_radii_at_15_mm() -> None:
    # §2.0: "En 15mm, vous pouvez diviser toutes les mesures par 2": the save's 5 cm is 25 mm.
    figures = [
        {"id": "L", "side": "blue", "x_mm": 100, "y_mm": 100, "attrs": {"leader": True}},
        {"id": "s", "side": "blue", "x_mm": 100, "y_mm": 155},  # 55 - 25 = 30 mm
    ]
    assert _json(_scene(figures), "save", "L")["substitute"] == "s"
    small = _json(_scene(figures, options={"scale": "15mm"}), "save", "L")
    assert (small["radius_mm"], small["substitute"]) == (25, None)


def test_a_threshold_within_the_uncertainty_is_too_close_to_call() -> None:
    # The hero is 199 mm from the shaken figure (rally radius 200): margin 1 mm; with
    # sigma 0.5 mm on each figure the gap's sigma is 0.707 mm and 1 < 2 x 0.707.
    figures = [
        {
            "id": "x",
            "side": "blue",
            "x_mm": 100,
            "y_mm": 100,
            "sigma_mm": 0.5,
            "attrs": {"shaken": True},
        },
        {
            "id": "h",
            "side": "blue",
            "x_mm": 100,
            "y_mm": 324,
            "sigma_mm": 0.5,
            "attrs": {"hero": True},
        },
    ]
    answer = ask(_scene(figures), "rally", ["x"], {})
    data = answer.to_json()
    assert (data["actions"], data["certain"]) == (1, False)
    assert data["margin_mm"] == pytest.approx(1.0, abs=0.01)
    assert answer.message.startswith("too close to call")


@pytest.mark.parametrize(
    ("question", "args", "extras", "fragment"),
    [
        ("save", ["L"], {"die": 7}, r"a die shows 1 to 6, got 7 \(option die of save\)"),
        ("save", ["L"], {"die": "four"}, r"a die shows 1 to 6, got 'four' \(option die of save\)"),
        ("save", ["nobody"], {}, "unknown figure"),
        ("deployment", ["blue"], {}, "deployment needs the side's edge"),
        (
            "deployment",
            ["blue"],
            {"edge": "north"},
            r"one of x0, x_max, y0, y_max, got 'north' \(option edge",
        ),
        ("deployment", ["purple"], {"edge": "y0"}, "no figure of side 'purple'"),
        ("standard", ["L"], {}, "not a standard-bearer"),
        ("gun", ["L"], {}, "not a gun"),
        ("spot", ["L", "m"], {"die": 4}, "--with va=N"),
        ("spot", ["L", "m"], {"va": 2, "die": 1, "reroll": 5}, "only scouts re-roll"),
        ("objective", ["blue", "600", "x"], {}, "Y must be a number"),
        (
            "objective",
            ["blue", "600", "450"],
            {"turn": 0},
            r"a turn's number, a whole number 1 to 1000, got 0 \(option turn",
        ),
        ("withdrawal", ["L", "m"], {"test_die": 3}, "takes no morale test"),
        (
            "move",
            ["L", "100", "200"],
            {"facing_deg": "up"},
            r"an angle in degrees.*, got 'up' \(option facing_deg of move\)",
        ),
    ],
)
def test_bad_input_to_the_new_questions_is_a_question_error(
    question: str, args: list[str], extras: dict[str, Any], fragment: str
) -> None:
    figures = [
        {"id": "L", "side": "blue", "x_mm": 100, "y_mm": 100, "attrs": {"leader": True}},
        {"id": "m", "side": "red", "x_mm": 100, "y_mm": 300, "attrs": {"ambush": True}},
    ]
    with pytest.raises(QuestionError, match=fragment):
        ask(_scene(figures), question, args, extras)


def test_a_target_at_the_edge_of_a_marsh_is_too_close_to_call_for_cover() -> None:
    # S&R §6.2.3: "Une figurine est également à couvert si elle se trouve en terrain
    # difficile". t stands 0.5 mm inside a marsh (x 300-400), placed within 1 mm (its
    # sigma): whether it has cover, and so whether the 5s and 6s are re-rolled, is in
    # doubt. 5 mm further in (margin 5.5 > 2 x 1) it is in cover for certain.
    marsh = {
        "id": "marsh",
        "kind": "difficult",
        "polygon_mm": [[300, 300], [400, 300], [400, 400], [300, 400]],
    }
    shooter = {
        "id": "s",
        "side": "b",
        "x_mm": 100,
        "y_mm": 350,
        "facing_deg": 0,
        "attrs": {"weapon": {"medium_range_cm": 30}},
    }
    for x, doubt in ((300.5, True), (305.5, False)):
        target = {"id": "t", "side": "r", "x_mm": x, "y_mm": 350, "sigma_mm": 1.0}
        answer = _json(_scene([shooter, target], terrain=[marsh]), "fire", "s", "t")
        assert answer["cover"] == ["marsh"] and answer["cover_weight"] == "light"
        cover = [m for m in answer["margins"] if m["what"] == "shelter"]
        assert [m["margin_mm"] for m in cover] == [pytest.approx(x - 300.0)]
        assert answer["message"].startswith("too close to call") is doubt, answer["message"]


@pytest.mark.parametrize(
    "base", [{"shape": "round", "diameter_mm": 25}, {"shape": "square", "side_mm": 20}]
)
def test_a_move_ending_astride_a_hedge_crosses_it(base: dict[str, Any]) -> None:
    # §6.1.2: infantry stops at a linear obstacle and spends an action to cross it. A
    # hedge runs along y 500 to x 600, then up x 600. From (620, 540), east of its
    # upright arm, to (560, 500), its centre on the hedge's line: the base would end
    # astride it, so the move crosses it (the straight 72.111 mm), whatever the path
    # finder lets a goal overlap. Stopping 13 mm above the line, west of the upright arm
    # (the round base just touching the hedge's 1 mm band), is a plain 47 mm move.
    hedge = {
        "id": "hedge",
        "kind": "obstacle",
        "level": 1,
        "line_mm": [[0, 500], [600, 500], [600, 900]],
    }
    walker = {"id": "s", "side": "b", "x_mm": 620, "y_mm": 540, "facing_deg": 225, "base": base}
    astride = _json(_scene([walker], terrain=[hedge]), "move", "s", 560, 500)
    assert astride["reasons"] == ["obstacle_crossing"] and astride["blocked_by"] == ["hedge"]
    walker = {**walker, "x_mm": 300, "y_mm": 560, "facing_deg": 270}
    touching = _json(_scene([walker], terrain=[hedge]), "move", "s", 300, 513)
    assert touching["legal"] and touching["cost_mm"] == pytest.approx(47.0), touching


def _skirmish_charge(**traits: bool) -> Any:
    # Skirmishers P (p0, p1 35 mm apart, loose order) 55 mm from the close-order group Q.
    return _scene(
        [
            {
                "id": "p0",
                "side": "blue",
                "unit": "pu",
                "group": "P",
                "x_mm": 200,
                "y_mm": 500,
                "attrs": {"leader": True, "skirmisher": True, "combat": 4, **traits},
            },
            {
                "id": "p1",
                "side": "blue",
                "unit": "pu",
                "x_mm": 260,
                "y_mm": 500,
                "attrs": {"skirmisher": True, "combat": 4, **traits},
            },
            {
                "id": "q0",
                "side": "red",
                "unit": "qu",
                "group": "Q",
                "x_mm": 215,
                "y_mm": 420,
                "attrs": {"leader": True, "combat": 4},
            },
            {
                "id": "q1",
                "side": "red",
                "unit": "qu",
                "x_mm": 245,
                "y_mm": 420,
                "attrs": {"combat": 4},
            },
        ]
    )


def test_skirmishers_are_never_told_to_close_order() -> None:
    # §3.2: skirmishers « ne peuvent passer en Ordre Serré »: charged, they escape; charging,
    # they never charge as a group. Neither answer suggests closing order.
    scene = _skirmish_charge()
    charged = _json(scene, "withdrawal", "P", "Q")
    charging = _json(scene, "charge", "P", "Q")
    assert charged["kind"] == "escape"
    assert charging["reasons"] == ["skirmishers_no_group_charge"]
    for answer in (charged, charging):
        assert not any("close order" in w for w in answer["warnings"]), answer["warnings"]


def test_skirmishers_hold_only_when_impetuous_ferocious_or_fanatic() -> None:
    with pytest.raises(QuestionError, match="they cannot hold, they escape"):
        ask(_skirmish_charge(), "withdrawal", ["P", "Q"], {"hold": True})
    for trait in ("impetuous", "ferocious", "fanatic"):
        held = _json(_skirmish_charge(**{trait: True}), "withdrawal", "P", "Q", hold=True)
        assert held["kind"] == "test"


@pytest.mark.parametrize(
    ("kind", "says"),
    [("cavalry", "cavalry jumps linear obstacles"), ("artillery", "artillery has no cross move")],
)
def test_only_infantry_crosses_an_obstacle_as_an_action(kind: str, says: str) -> None:
    # §6.1.2: « L'infanterie peut les traverser en dépensant une Action ... La Cavalerie peut
    # sauter par-dessus un obstacle sans pénalité ».
    scene = _scene(
        [{"id": "x", "side": "blue", "x_mm": 100, "y_mm": 187.5, "type": kind}],
        terrain=[{"id": "hedge", "kind": "obstacle", "line_mm": [[0, 200], [600, 200]]}],
    )
    with pytest.raises(QuestionError, match=says):
        ask(scene, "move", ["x", "100", "212.5"], {"mode": "cross"})
    with pytest.raises(QuestionError, match="option mode of reach"):
        ask(scene, "reach", ["x"], {"mode": "cross"})


def _golden_scene(name: str, **options: Any) -> Any:
    path = Path(__file__).parent / "golden" / f"smooth-and-rifled-{name}.yaml"
    data = yaml.safe_load(path.read_text(encoding="utf-8"))["scene"]
    data["options"] = {**data.get("options", {}), **options}
    return parse_scene(data)


def test_the_other_reading_of_a_triple_5_or_6_counts_fives_and_sixes_together() -> None:
    # leader_triple: five_or_six reads « un triple 5 ou 6 » as three dice each a 5 or a 6:
    # on 4 dice, 4 x (1/3)^3 x 2/3 + (1/3)^4 = 9/81 = 1/9; [5, 6, 6, 1] shows one.
    scene = _golden_scene("volley-leader", leader_triple="five_or_six")
    assert _json(scene, "volley", "B", "R")["leader_exposed_probability"] == pytest.approx(
        1 / 9, abs=1e-3
    )
    assert _json(scene, "volley", "B", "R", rolls=[5, 6, 6, 1])["leader_exposed"] is True


def test_a_volley_s_dice_and_hits_must_agree() -> None:
    scene = _golden_scene("volley-leader")
    with pytest.raises(QuestionError, match="hits 3 contradicts the dice given"):
        ask(scene, "volley", ["B", "R"], {"rolls": [5, 5, 5, 2], "hits": 3})
    with pytest.raises(QuestionError, match="roll 4 dice for the volley of B, got 3"):
        ask(scene, "volley", ["B", "R"], {"rolls": [5, 5, 5]})


@pytest.mark.parametrize(
    ("diver", "rider", "says"),
    [
        ("cavalry", "cavalry", "is not on foot"),
        ("infantry", "infantry", "is not cavalry"),
    ],
)
def test_only_a_foot_figure_dives_and_only_under_a_horseman(
    diver: str, rider: str, says: str
) -> None:
    scene = _scene(
        [
            {"id": "d", "side": "red", "x_mm": 300, "y_mm": 200, "type": diver},
            {"id": "r", "side": "blue", "x_mm": 300, "y_mm": 100, "type": rider},
        ]
    )
    with pytest.raises(QuestionError, match=says):
        ask(scene, "dive", ["d", "r"], {})


@pytest.mark.parametrize(
    ("mover", "goal", "says"),
    [
        ("h", ["250", "250"], "cavalry has no building move"),
        ("b", ["100", "150"], "the move must start or end in a building"),
        ("G", ["250", "250"], "figure by figure"),
    ],
)
def test_a_building_move_is_a_foot_figure_s_into_out_of_or_inside_one(
    mover: str, goal: list[str], says: str
) -> None:
    # b stands outside the house, h is cavalry, G a group of two.
    scene = _scene(
        [
            {"id": "b", "side": "blue", "type": "infantry", "x_mm": 100, "y_mm": 100},
            {"id": "h", "side": "blue", "type": "cavalry", "x_mm": 250, "y_mm": 180},
            {
                "id": "L",
                "side": "blue",
                "unit": "u",
                "group": "G",
                "x_mm": 500,
                "y_mm": 500,
                "attrs": {"leader": True},
            },
            {"id": "m", "side": "blue", "unit": "u", "x_mm": 530, "y_mm": 500},
        ],
        terrain=[
            {
                "id": "house",
                "kind": "building",
                "polygon_mm": [[200, 200], [300, 200], [300, 300], [200, 300]],
            }
        ],
    )
    with pytest.raises(QuestionError, match=says):
        ask(scene, "move", [mover, *goal], {"mode": "building"})


def test_only_a_shooter_that_kept_an_order_to_aim_re_rolls_the_opportunity_test() -> None:
    scene = _golden_scene("opportunity")
    with pytest.raises(QuestionError, match="only a shooter that kept an order to aim"):
        ask(scene, "opportunity", ["s", "t"], {"die": 2, "reroll": 5})
    unknown = _scene(
        [
            {
                "id": "s",
                "side": "blue",
                "x_mm": 300,
                "y_mm": 100,
                "facing_deg": 90,
                "attrs": {"weapon": {"medium_range_cm": 30}},
            },
            {"id": "t", "side": "red", "x_mm": 300, "y_mm": 300},
        ]
    )
    with pytest.raises(QuestionError, match="va=N"):
        ask(unknown, "opportunity", ["s", "t"], {"die": 2})
    # With va given, the test is known; the PA it costs is not (no attrs.va).
    answer = _json(unknown, "opportunity", "s", "t", va=4)
    assert answer["test_probability"] == pytest.approx(2 / 6, abs=1e-3)
    assert answer["action_points"] is None
