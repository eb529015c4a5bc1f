"""M.U.S.G. fire: range bands, cover and its rolls, domination (the ``fire`` question)."""

from __future__ import annotations

import pytest

from arbitre.rules.errors import QuestionError
from arbitre.rules.musg import dice_passing
from arbitre.rules.questions import ask
from tests.rules.musg.scenes import inch_paces_scene, musg_scene


def test_cover_roll_example_chief_orc_and_human_subchief() -> None:
    # "Julien tir avec son chef orque sur un sous-chef humain de Marc qui se trouve derrière
    # une barrière. ... Le sous-chef et la barrière se trouvent à portée moyenne. Le chef
    # orque tire avec un pistolet mitrailleur, sa CT est de 4+."
    # The machine pistol's bands here: short <= 4, medium <= 8, long <= 12 pas (25 mm).
    # Chief orc at (100, 450); subchief at (320, 450), edge to edge 220 - 25 = 195 mm
    # = 7.8 pas: medium. The fence runs across the line at x = 300 (y 400..500): its
    # shadow covers the whole subchief (>50 %: cover); from the orc's base edge it is
    # 300 - 112.5 = 187.5 mm = 7.5 pas: medium, a cover roll of 4+.
    scene = musg_scene(
        [
            {
                "id": "orc",
                "side": "Julien",
                "x_mm": 100,
                "y_mm": 450,
                "attrs": {
                    "rank": "chief",
                    "move_pas": 4,
                    "weapon": {
                        "kind": "machine-pistol",
                        "short_pas": 4,
                        "medium_pas": 8,
                        "long_pas": 12,
                    },
                },
            },
            {
                "id": "human",
                "side": "Marc",
                "x_mm": 320,
                "y_mm": 450,
                "attrs": {"rank": "subchief", "move_pas": 4},
            },
        ],
        [{"id": "barriere", "kind": "obstacle", "line_mm": [[300, 400], [300, 500]]}],
    )
    answer = ask(scene, "fire", ["orc", "human"]).to_json()
    assert answer["allowed"] is True
    assert answer["band"] == "medium"
    assert answer["distance_units"] == pytest.approx(7.8)
    assert answer["hidden_fraction"] == pytest.approx(1.0)
    assert answer["cover"] == ["barriere"]
    # The cover verdict's margin is half the target hidden (all of it is: half its width
    # from the threshold), named as M.U.S.G.'s own, not S&R's 3 cm round the shooter.
    whats = [m["what"] for m in answer["margins"]]
    assert "half-hidden" in whats and "cover" not in whats
    assert answer["cover_rolls"] == [
        {
            "obstacle": "barriere",
            "distance_mm": 187.5,
            "distance_units": 7.5,
            "unit": "pas",
            "band": "medium",
            "needed": 4,
        }
    ]
    # "Il fait 3, 4 et 5. Comme la barrière se trouve à portée moyenne, seuls deux tirs
    # n'heurtent pas cette barrière. Il relance ensuite les dés restant (2) et fait un 3
    # et un 4. Il n'y a qu'un seul tir qui atteint la cible."
    past_fence = dice_passing([3, 4, 5], answer["cover_rolls"][0]["needed"])
    assert past_fence == 2
    assert dice_passing([3, 4], 4) == 1  # CT 4+
    # "la force de l'arme (3) à la résistance de la cible (3) ... 4 ou plus (4+) ...
    # Julien fait 5 donc le sous-chef perd un point de vie."
    damage = ask(scene, "damage", ["3", "3"], {"die": 5}).to_json()
    assert damage["needed"] == 4 and damage["damage"] is True


def test_hidden_fraction_of_a_half_wall() -> None:
    # Shooter at (100, 400), target at (400, 400), both 25 mm bases. The target spans
    # +-asin(12.5/300) = +-2.3880 deg at the eye. A wall x 300..310, y 395..450 hides it
    # from its own lower corner (300, 395), at -atan(5/200) = -1.4321 deg, upwards:
    # hidden (2.3880 + 1.4321) / (2 x 2.3880) = 0.79985 > 0.5 -> cover.
    scene = musg_scene(
        [
            {
                "id": "s",
                "side": "a",
                "x_mm": 100,
                "y_mm": 400,
                "attrs": {"weapon": {"range_pas": 24}},
            },
            {"id": "t", "side": "b", "x_mm": 400, "y_mm": 400},
        ],
        [
            {
                "id": "wall",
                "kind": "obstacle",
                "polygon_mm": [[300, 395], [310, 395], [310, 450], [300, 450]],
            }
        ],
    )
    answer = ask(scene, "fire", ["s", "t"]).to_json()
    # (to_json rounds to 1e-3)
    assert answer["hidden_fraction"] == pytest.approx(0.79985, abs=1e-3)
    assert answer["hidden_by"] == {"wall": pytest.approx(0.79985, abs=1e-3)}
    assert answer["margin_mm"] == pytest.approx((0.79985 - 0.5) * 25.0217, abs=1e-2)
    assert answer["cover"] == ["wall"]


@pytest.mark.parametrize(
    ("shooter_mm", "target_mm", "dominates"),
    [(60.0, 0.0, "archer"), (0.0, 40.0, "orc"), (20.0, 20.5, None)],
)
def test_fire_says_who_dominates(
    shooter_mm: float, target_mm: float, dominates: str | None
) -> None:
    # Introduction: "le placement et la domination d'un personnage par un autre est un
    # facteur utilisé dans la résolution des tirs" -- the book gives no modifier, so the
    # answer names who stands higher (attrs.elevation_mm, scenery climbed) and says so.
    scene = musg_scene(
        [
            {
                "id": "archer",
                "side": "a",
                "x_mm": 100,
                "y_mm": 100,
                "attrs": {"weapon": {"range_pas": 24}, "elevation_mm": shooter_mm},
            },
            {
                "id": "orc",
                "side": "b",
                "x_mm": 300,
                "y_mm": 100,
                "attrs": {"elevation_mm": target_mm},
            },
        ]
    )
    answer = ask(scene, "fire", ["archer", "orc"]).to_json()
    assert answer["elevation_mm"] == {"archer": shooter_mm, "orc": target_mm}
    assert answer["dominates"] == dominates
    assert any("domination" in w for w in answer["warnings"]) == (dominates is not None)


def test_a_bad_elevation_is_refused_in_one_line() -> None:
    scene = musg_scene(
        [
            {
                "id": "archer",
                "side": "a",
                "x_mm": 100,
                "y_mm": 100,
                "attrs": {"weapon": {"range_pas": 24}, "elevation_mm": "high"},
            },
            {"id": "orc", "side": "b", "x_mm": 300, "y_mm": 100},
        ]
    )
    with pytest.raises(QuestionError, match="elevation_mm must be a number"):
        ask(scene, "fire", ["archer", "orc"])


def test_a_target_exactly_at_long_range_in_inch_paces_is_within_it() -> None:
    # The gunman and its target stand 18 pas (457.2 mm) apart, the musket's 18 pas: at
    # long range, in range ("la cible doit être à portée de l'arme").
    scene = inch_paces_scene()
    fire = ask(scene, "fire", ["gun", "t18"]).to_json()
    assert fire["allowed"] is True and fire["band"] == "long"
