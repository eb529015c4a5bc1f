"""MBT victory: losses, objectives and generals (``victory``)."""

from __future__ import annotations

from arbitre.rules.questions import ask
from tests.rules.mbt.scenes import base, mbt_scene


def test_an_objective_both_sides_stand_on_is_held_by_none() -> None:
    # hill (worth 3) at (500, 400): B1 (blue) at (500, 410) facing 90 covers y 400..420,
    # R1 (red) at (500, 390) facing 270 covers y 380..400: both touch the point (gap 0),
    # so neither holds it and no one loses by it. Without bases_per_side the bases lost
    # are not counted: no side has won, and the answer says what to give.
    scene = mbt_scene(
        base("B1", "blue", 500, 410, 90, "infantry"),
        base("R1", "red", 500, 390, 270, "infantry"),
        options={"objectives": [{"id": "hill", "x_mm": 500, "y_mm": 400, "worth": 3}]},
    )
    answer = ask(scene, "victory", []).to_json()
    assert answer["objectives"] == {"hill": None}
    assert answer["losses"] == {"blue": 0, "red": 0} and answer["winner"] is None
    assert any("bases_per_side" in w for w in answer["warnings"])


def test_when_every_side_has_lost_none_is_named_the_winner() -> None:
    # bases_per_side 3; each side has 2 bases left, none of them a general: each has lost
    # 1 base and its general, so each is beaten; the book's winner is "le premier", whom
    # the table cannot tell.
    scene = mbt_scene(
        base("B1", "blue", 100, 100, 90, "infantry"),
        base("B2", "blue", 200, 100, 90, "infantry"),
        base("R1", "red", 100, 700, 270, "infantry"),
        base("R2", "red", 200, 700, 270, "infantry"),
        options={"bases_per_side": 3},
    )
    answer = ask(scene, "victory", []).to_json()
    assert answer["bases_lost"] == {"blue": 1, "red": 1}
    assert answer["general_taken"] == {"blue": True, "red": True}
    assert answer["winner"] is None
    assert any("every side has lost" in w for w in answer["warnings"])


def test_three_losses_win() -> None:
    # bases_per_side 5, each side keeps its general: red has 2 bases (3 lost, the book's
    # 3 that win), blue has 4 (1 lost): blue has won.
    blue = [base(f"B{k}", "blue", 100 + 100 * k, 100, 90, "infantry") for k in range(4)]
    red = [base(f"R{k}", "red", 100 + 100 * k, 700, 270, "infantry") for k in range(2)]
    blue[0]["attrs"] = red[0]["attrs"] = {"general": True}
    answer = ask(mbt_scene(*blue, *red, options={"bases_per_side": 5}), "victory", []).to_json()
    assert answer["losses"] == {"blue": 1, "red": 3} and answer["losses_to_win"] == 3
    assert answer["winner"] == "blue" and answer["warnings"] == []


def test_a_side_with_no_base_left_counts_once_the_scene_names_the_sides() -> None:
    # bases_per_side 3: blue has G (its general) and B1 on the table, red none. Without
    # ``sides`` the table shows one side only: no winner can be told, and the answer says
    # to give the sides. With sides [blue, red], red has lost its 3 bases and its general:
    # "ayant infligé 3 pertes à son adversaire" -> blue has won.
    figures = (
        base("G", "blue", 100, 100, 90, "cavalry", general=True),
        base("B1", "blue", 200, 100, 90, "infantry"),
    )
    alone = ask(mbt_scene(*figures, options={"bases_per_side": 3}), "victory", []).to_json()
    assert alone["winner"] is None and alone["losses"] == {"blue": 1}
    assert [c["code"] for c in alone["warning_codes"]] == ["victory_give_sides"]
    named = mbt_scene(*figures, options={"bases_per_side": 3, "sides": ["blue", "red"]})
    answer = ask(named, "victory", []).to_json()
    assert answer["winner"] == "blue" and answer["losses"] == {"blue": 1, "red": 3}
    assert answer["general_taken"] == {"blue": False, "red": True}
    assert answer["warnings"] == []


def test_a_side_in_sides_like_one_on_the_table_is_said_a_slip() -> None:
    # bases_per_side 3, sides [bleu, red] but blue on the table (G its general and B1):
    # 'bleu' has no base, so it counts as a side with none left (3 lost, general taken),
    # red too: blue has won against a phantom; the answer says 'bleu' is likely 'blue',
    # and does not also say blue is missing from sides.
    figures = (
        base("G", "blue", 100, 100, 90, "cavalry", general=True),
        base("B1", "blue", 200, 100, 90, "infantry"),
    )
    options = {"bases_per_side": 3, "sides": ["bleu", "red"]}
    answer = ask(mbt_scene(*figures, options=options), "victory", []).to_json()
    assert answer["losses"] == {"bleu": 3, "blue": 1, "red": 3}
    assert answer["warnings"] == [
        "no base is of the side 'bleu' named in sides (did you mean 'blue'?): it counts as "
        "a side with no base left"
    ]


def test_a_side_on_the_table_missing_from_sides_is_said() -> None:
    # sides [blue, red], and a green base on the table besides: green is counted (the
    # table shows it) and the answer says it is not among sides; red, with no base, is
    # no slip for anything on the table (nothing alike), so nothing is said of it.
    figures = (
        base("B1", "blue", 100, 100, 90, "infantry", general=True),
        base("V1", "green", 600, 600, 90, "infantry"),
    )
    options = {"bases_per_side": 1, "sides": ["blue", "red"]}
    answer = ask(mbt_scene(*figures, options=options), "victory", []).to_json()
    assert sorted(answer["losses"]) == ["blue", "green", "red"]
    assert answer["warnings"] == ["green has bases on the table but is not among sides (blue, red)"]


def test_with_three_sides_a_beaten_side_is_named() -> None:
    # bases_per_side 3: blue keeps its 3 (general G among them), green its 3 (general V1),
    # red 1 base, no general: red has lost 2 bases and its general, beaten; blue and green
    # are not, so no side has won, but the answer says red is beaten.
    figures = (
        base("G", "blue", 100, 100, 90, "cavalry", general=True),
        base("B1", "blue", 200, 100, 90, "infantry"),
        base("B2", "blue", 300, 200, 90, "infantry"),
        base("R1", "red", 600, 600, 90, "infantry"),
        base("V1", "green", 800, 600, 90, "infantry", general=True),
        base("V2", "green", 800, 300, 90, "infantry"),
        base("V3", "green", 800, 200, 90, "infantry"),
    )
    options = {"bases_per_side": 3, "sides": ["blue", "red", "green"]}
    answer = ask(mbt_scene(*figures, options=options), "victory", []).to_json()
    assert answer["winner"] is None and answer["general_taken"]["red"] is True
    assert answer["message"].startswith("red is beaten, but no side has won yet")
    assert answer["warnings"] == []
