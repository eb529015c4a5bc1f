"""The typed layer of question options: every option declared, checked strictly, one line."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from arbitre.rules.choc_base_6.grid_questions import GRID
from arbitre.rules.errors import QuestionError, SceneError
from arbitre.rules.options import options_table, question_options, shown
from arbitre.rules.questions import ask
from arbitre.rules.registry import find_ruleset, ruleset_names
from arbitre.rules.ruleset import coordinate_mm, whole_number
from arbitre.rules.scene import parse_scene

DOCS = Path(__file__).resolve().parents[2] / "docs" / "rules"
DOC_PAGES = {
    "choc-base-6": "choc-base-6.md",
    "confrontation": "confrontation.md",
    "mbt": "mbt.md",
    "musg": "musg.md",
    "smooth-and-rifled": "smooth-and-rifled.md",
}


def _figure(ident: str, side: str, x: float, y: float, **fields: Any) -> dict[str, Any]:
    return {"id": ident, "side": side, "x_mm": x, "y_mm": y, **fields}


def _scene(ruleset: str, *figures: dict[str, Any], **options: Any) -> Any:
    return parse_scene(
        {
            "ruleset": ruleset,
            "options": options,
            "table": {"width_mm": 1200, "depth_mm": 900},
            "figures": list(figures),
        }
    )


CB6 = _scene(
    "cb6",
    _figure("a1", "blue", 300, 300, group="A", reference=True, type="TD"),
    _figure("b1", "red", 500, 300, group="B", reference=True),
)
MUSG = _scene(
    "musg",
    _figure("m", "blue", 300, 300, attrs={"move_pas": 4, "rank": "henchman"}),
    _figure("n", "red", 600, 300, attrs={"move_pas": 4}),
)
SR = _scene(
    "sr",
    _figure("a", "blue", 300, 300, attrs={"combat": 4}),
    _figure("b", "red", 300, 320, attrs={"combat": 3}),
)


def _refusal(scene: Any, question: str, args: list[str], extras: dict[str, Any]) -> str:
    with pytest.raises(QuestionError) as caught:
        ask(scene, question, args, extras)
    message = str(caught.value)
    assert "\n" not in message and len(message) < 300
    return message


# --- the examples ---------------------------------------------------------------


@pytest.mark.parametrize(
    ("value", "said"),
    [
        ("abc", "'abc'"),
        (3.5, "3.5"),
        (3.0, "3.0"),  # a die is a whole number: 3.0 is refused like 3.5
        (True, "true"),  # shown as the user wrote it
        (0, "0"),
        (7, "7"),
        ([1], "[1]"),
        pytest.param(10**5000, "an integer of about 5001 digits", id="10**5000"),
    ],
)
def test_a_die_is_an_integer_from_1_to_6(value: Any, said: str) -> None:
    message = _refusal(CB6, "impact", ["A", "B"], {"die": value})
    assert message == f"a die shows 1 to 6, got {said} (option die of impact)"


def test_a_good_die_still_answers() -> None:
    # A shoots B at 2 M (200 mm, unit 100 mm): a1 is TD, PI 2; die 1 -> impact 2 - 1 = 1.
    answer = ask(CB6, "impact", ["A", "B"], {"die": 1}).to_json()
    assert (answer["pi"], answer["impact"]) == (2, 1)


def test_a_bonus_of_nan_is_refused() -> None:
    message = _refusal(CB6, "impact", ["A", "B"], {"bonus": float("nan")})
    assert message == "a whole number -100 to 100, got nan (option bonus of impact)"


def test_musg_henchmen_is_a_count_per_side() -> None:
    message = _refusal(MUSG, "initiative", [], {"henchmen": 7})
    assert message.endswith(", got 7 (option henchmen of initiative)")
    assert message.startswith("a count per side, each 0 to 1000")
    # blue has one henchman (m) counted from the ranks; henchmen: {red: 3} overrides red's 0.
    answer = ask(MUSG, "initiative", [], {"henchmen": {"red": 3}}).to_json()
    assert answer["henchmen"] == {"blue": 1, "red": 3}


def test_musg_damage_refuses_a_die_of_0() -> None:
    assert _refusal(MUSG, "damage", ["3", "3"], {"die": 0}) == (
        "a die shows 1 to 6, got 0 (option die of damage)"
    )
    # strength 3 against resistance 3 needs 4+ (the book's table): a 4 damages, a 3 does not.
    assert ask(MUSG, "damage", ["3", "3"], {"die": 4}).to_json()["damage"] is True
    assert ask(MUSG, "damage", ["3", "3"], {"die": 3}).to_json()["damage"] is False


@pytest.mark.parametrize("text", ["1_2", "3.0", " ", "0x3", "٣"])
def test_musg_damage_reads_plain_whole_numbers_only(text: str) -> None:
    assert "F must be a whole number" in _refusal(MUSG, "damage", [text, "3"], {})


@pytest.mark.parametrize(("given", "missing"), [("rolls_a", "rolls_b"), ("rolls_b", "rolls_a")])
def test_sr_melee_needs_both_sides_rolls(given: str, missing: str) -> None:
    message = _refusal(SR, "melee", ["a", "b"], {given: [3, 4, 5]})
    assert message == f"{given} was given without {missing}: give both sides' dice, or neither"


def test_sr_melee_counts_both_sides_rolls() -> None:
    # a (C 4) and b (C 3) roll 3d6 each: a hits on b's C, 3+; b hits on a's C, 4+.
    # a: 3, 4, 1 -> 2 hits; b: 4, 4, 6 -> 3 hits; b beats a. Text "3,4,1" reads as a list.
    answer = ask(SR, "melee", ["a", "b"], {"rolls_a": "3,4,1", "rolls_b": [4, 4, 6]}).to_json()
    assert (answer["attacker_hits"], answer["defender_hits"]) == (2, 3)
    assert answer["outcome"] == ["b beats a"]
    message = _refusal(SR, "melee", ["a", "b"], {"rolls_a": [3, 4, 7], "rolls_b": [1, 1, 1]})
    assert message.startswith("dice show 1 to 6") and "(option rolls_a of melee)" in message


@pytest.mark.parametrize(
    ("value", "said"),
    [(1, "1"), (0, "0"), ("yes", "'yes'"), ("true", "'true'"), (None, "null"), ([True], "[True]")],
)
def test_a_flag_is_true_or_false_only(value: Any, said: str) -> None:
    mbt = _scene(
        "mbt",
        _figure("G1", "blue", 300, 300, type="infantry", base=_rect()),
        _figure("R1", "red", 800, 600, type="infantry", base=_rect()),
    )
    message = _refusal(mbt, "move", ["G1", "300", "330"], {"as_group": value})
    assert message == f"only true or false, got {said} (option as_group of move)"


def _rect() -> dict[str, Any]:
    return {"shape": "rect", "width_mm": 40, "depth_mm": 20}


def test_a_choice_names_its_choices() -> None:
    message = _refusal(CB6, "impact", ["A", "B"], {"action": "charge"})
    assert message == "one of fire, close, got 'charge' (option action of impact)"


def test_an_unknown_option_names_the_ones_taken() -> None:
    message = _refusal(CB6, "impact", ["A", "B"], {"colour": "red"})
    assert message == "impact does not take colour (it takes: action, die, bonus)"
    assert _refusal(CB6, "groups", [], {"die": 3}) == (
        "groups does not take die (it takes no options)"
    )


@pytest.mark.parametrize(
    ("question", "args", "extras", "says"),
    [
        (3, [], None, "a question is a name, got 3"),
        (["fire"], [], None, "a question is a name, got ['fire']"),
        ("distance", "A B", None, "distance's arguments are words, got 'A B'"),
        ("distance", ["A", 3], None, "distance's arguments are words, got ['A', 3]"),
        ("distance", ["A", "B" * 1000], None, "B is 1,000 characters long"),
        ("groups", [], [("die", 3)], "a question's options are KEY: VALUE pairs"),
        ("groups", [], {3: 3}, "groups does not take 3"),
    ],
)
def test_malformed_questions_are_one_line(question: Any, args: Any, extras: Any, says: str) -> None:
    assert _refusal(CB6, question, args, extras).startswith(says)


# --- arguments --------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "mm"), [("500", 500.0), ("12.5", 12.5), ("-3", -3.0), (".5", 0.5)]
)
def test_coordinates_are_plain_decimals(text: str, mm: float) -> None:
    assert coordinate_mm(text, "X") == mm


@pytest.mark.parametrize("text", ["5_00", "1e3", "nan", "inf", "0x10", "", "1" * 50, "½", "١٢"])
def test_other_spellings_of_numbers_are_refused(text: str) -> None:
    with pytest.raises(QuestionError, match=r"^X must be a number of millimetres, got "):
        coordinate_mm(text, "X")


def test_move_reads_5_00_as_an_error_not_500() -> None:
    message = _refusal(CB6, "move", ["A", "5_00", "300"], {})
    assert message == "X must be a number of millimetres, got '5_00' (plain digits: 12.5)"


def test_a_coordinate_far_off_the_table_is_refused() -> None:
    with pytest.raises(QuestionError, match="within 1,000,000 mm"):
        coordinate_mm("2000000", "Y")


def test_whole_numbers() -> None:
    assert whole_number("+12", "F") == 12
    with pytest.raises(QuestionError, match="F must be a whole number like 3, got '1_2'"):
        whole_number("1_2", "F")


# --- scenes: booleans are not numbers ---------------------------------------------------


@pytest.mark.parametrize(
    ("figure", "field"),
    [
        (_figure("a", "blue", True, 100), "figures[0].x_mm"),
        (_figure("a", "blue", 100, 100, facing_deg=False), "figures[0].facing_deg"),
        (_figure("a", "blue", 100, 100, sigma_mm=True), "figures[0].sigma_mm"),
        (_figure("a", "blue", 100, 100, reference=1), "figures[0].reference"),
        (_figure("a", "blue", 100, 100, x_mm="100"), "figures[0].x_mm"),
    ],
)
def test_a_scene_never_reads_a_boolean_as_a_number(figure: dict[str, Any], field: str) -> None:
    with pytest.raises(SceneError, match=re.escape(f"<scene>: {field}: ")):
        _scene("cb6", figure)


@pytest.mark.parametrize("option", ["unit_mm", "thickness_mm", "contact_tolerance_mm"])
def test_scene_options_never_read_a_boolean_or_an_absurd_length(option: str) -> None:
    for value in (True, 1e308):
        with pytest.raises(SceneError, match=re.escape(f"<scene>: options.{option}: ")):
            _scene("cb6", _figure("a", "blue", 100, 100), **{option: value})


def test_cb6_bonuses_are_bounded_and_a_malus_stops_at_0() -> None:
    bounded = r"attrs\.pa_bonus: figure 'a': expected an integer from -10 to 10"
    with pytest.raises(SceneError, match=bounded):
        _scene(
            "cb6",
            _figure("a", "blue", 300, 300, group="A", reference=True, attrs={"pa_bonus": -100}),
        )
    # PA 2 - 5 stops at 0: A cannot move at all, and reach is a point of no area.
    slow = _scene(
        "cb6",
        _figure("a", "blue", 300, 300, group="A", reference=True, attrs={"pa_bonus": -5}),
    )
    assert ask(slow, "potentials", ["A"]).to_json()["pa"] == 0
    assert ask(slow, "reach", ["A"]).to_json()["area_mm2"] == 0.0
    move = ask(slow, "move", ["A", "400", "300"]).to_json()
    assert (move["legal"], move["reasons"]) == (False, ["over_allowance"])


@pytest.mark.parametrize("value", ["no", "false", 0, 1, None])
def test_a_cb6_sniper_is_true_or_false_never_a_word_read_as_yes(value: Any) -> None:
    # bool("no") is True: a figure marked sniper "no" shot at 4 H as a sniper.
    with pytest.raises(SceneError, match=r"attrs\.sniper: figure 'a': expected true or false"):
        _scene(
            "cb6",
            _figure("a", "blue", 300, 300, group="A", reference=True, attrs={"sniper": value}),
        )


@pytest.mark.parametrize(
    ("attrs", "field"),
    [
        ({"leader": "no"}, "attrs.leader"),  # led a group
        ({"leader": None}, "attrs.leader"),  # null is no answer (as MBT and CB6 say)
        ({"sniper": "false", "weapon": {"medium_range_cm": 30}}, "attrs.sniper"),  # 3d6
        ({"sniper": 1}, "attrs.sniper"),
        ({"weapon": {"medium_range_cm": 30, "rifled": 2}}, "attrs.weapon.rifled"),
        ({"weapon": {"medium_range_cm": 30, "reload": -3}}, "attrs.weapon.reload"),
    ],
)
def test_smooth_and_rifled_flags_are_true_or_false(attrs: dict[str, Any], field: str) -> None:
    with pytest.raises(SceneError, match=re.escape(f"figures[0].{field}: figure 'a': expected")):
        _scene("sr", _figure("a", "blue", 300, 300, attrs=attrs))


@pytest.mark.parametrize("facing", [1e300, -400.0, 361.0])
def test_a_facing_is_an_angle_of_at_most_a_turn(facing: float) -> None:
    # fmod(1e300, 360) is 0: such a figure faced east without a word.
    with pytest.raises(SceneError, match=re.escape("figures[0].facing_deg: ")):
        _scene("sr", _figure("a", "blue", 300, 300, facing_deg=facing))


def test_a_musg_weapon_takes_range_pas_or_the_bands_not_both() -> None:
    # {range_pas: 12, long_pas: 20} kept 12 and dropped the 20 without a word.
    weapon = {"kind": "bow", "range_pas": 12, "long_pas": 20}
    with pytest.raises(SceneError, match=r"attrs\.weapon: give range_pas or the bands"):
        _scene("musg", _figure("a", "blue", 300, 300, attrs={"move_pas": 4, "weapon": weapon}))


# --- every option is declared, and documented -------------------------------------------


def _rulesets() -> list[Any]:
    return [find_ruleset(name) for name in ruleset_names()] + [GRID]


def test_every_question_declares_its_options_with_a_type() -> None:
    for ruleset in _rulesets():
        for question in ruleset.questions().values():
            question_options(question.handler)  # raises TypeError on an untyped option


def test_a_grid_takes_the_same_options_as_the_neutral_surface() -> None:
    neutral = find_ruleset("cb6").questions()
    for name, question in GRID.questions().items():
        grid_options = question_options(question.handler)
        neutral_options = question_options(neutral[name].handler)
        assert {k: v.takes for k, v in grid_options.items()} == {
            k: v.takes for k, v in neutral_options.items()
        }


@pytest.mark.parametrize("ruleset", sorted(DOC_PAGES))
def test_each_rule_systems_page_lists_its_question_options(ruleset: str) -> None:
    questions = find_ruleset(ruleset).questions()
    table = options_table((name, q.handler) for name, q in sorted(questions.items()))
    page = (DOCS / DOC_PAGES[ruleset]).read_text(encoding="utf-8")
    assert table in page, f"docs/rules/{DOC_PAGES[ruleset]} lacks:\n{table}"


def test_a_bad_value_is_shown_short() -> None:
    assert shown("x" * 10_000).startswith("'xxx") and len(shown("x" * 10_000)) < 50
    assert len(shown([[[[[1] * 1000]]]] * 1000)) < 80
    assert shown(float("inf")) == "inf"


@pytest.mark.parametrize("key", ["\n", "a\u0085b", "x" * 300])
def test_an_odd_option_name_is_quoted_on_one_line(key: str) -> None:
    # Found by the fuzzing: options: {"\n": null} made a two-line message.
    with pytest.raises(SceneError) as refused:
        _scene("cb6", _figure("a", "blue", 300, 300), **{key: None})
    message = str(refused.value)
    assert "unknown key (a typo?)" in message and len(message.splitlines()) == 1
    assert len(message) < 200


def test_a_base_larger_than_the_table_is_refused() -> None:
    # A 99,999 mm square on a 1,200 x 900 mm table fired at "0.0 cm, short range".
    huge = {"shape": "square", "side_mm": 99_999}
    with pytest.raises(SceneError, match=re.escape("figures[0].base: a base of 99999 x 99999 mm")):
        _scene("sr", _figure("a", "blue", 300, 300, base=huge))
    _scene("sr", _figure("a", "blue", 300, 300, base={"shape": "square", "side_mm": 1200}))
