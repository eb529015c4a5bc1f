"""rules/choc_base_6/book.py: the worked examples of the Choc Base 6 rule book, with the
book's numbers (potentials and impacts, on any surface)."""

from __future__ import annotations

from typing import Any

import pytest

from arbitre.rules.choc_base_6 import figure_pa, impact, impact_distribution
from arbitre.rules.model import Figure
from arbitre.rules.questions import ask
from tests.rules.choc_base_6.scenes import HEADLESS, neutral_scene


def _crew(group: str, side: str, x: float, kinds: list[tuple[str, bool]]) -> list[dict[str, Any]]:
    """Figures of one group in a column 30 mm apart (chained), the first one the reference."""
    return [
        {
            "id": f"{group}{k}",
            "side": side,
            "group": group,
            "reference": k == 0,
            "x_mm": x,
            "y_mm": 100 + 30 * k,
            "type": kind,
            "wounded": wounded,
        }
        for k, (kind, wounded) in enumerate(kinds)
    ]


@pytest.mark.parametrize(
    ("die", "expected"),
    # "1 TD valide et un TD blessé. Le PI total donne 3 (2+1). Si le dé sort 1, 2 ou 3 ...
    # l'impact sera donc respectivement de 2, 1 ou 0. Si le dé donne 4, 5 ou 6 ... 3."
    [(1, 2), (2, 1), (3, 0), (4, 3), (5, 3), (6, 3)],
)
def test_shot_of_one_healthy_and_one_wounded_td(die: int, expected: int) -> None:
    scene = neutral_scene(
        *_crew("tir", "blue", 100, [("TD", False), ("TD", True), ("CR", False)]),
        *_crew("cible", "red", 300, [("CR", False)]),
    )
    answer = ask(scene, "impact", ["tir", "cible"], {"action": "fire", "die": die})
    assert answer.to_json()["pi"] == 3  # 2 + 1; the CR does not shoot
    assert answer.to_json()["impact"] == expected


def test_four_td_guarantee_an_impact_of_two() -> None:
    # "Si un groupe compte 4 TD, soit un PI de 8, le tir aura ... un impact minimum de 2."
    spread = impact_distribution(8)
    assert min(spread) == 2
    assert sum(spread.values()) == 6
    scene = neutral_scene(
        *_crew("tir", "blue", 100, [("TD", False)] * 4),
        *_crew("cible", "red", 300, [("CR", False)]),
    )
    answer = ask(scene, "impact", ["tir", "cible"], {"action": "fire"}).to_json()
    assert answer["pi"] == 8
    assert answer["distribution"] == {"2": 1, "3": 1, "4": 1, "5": 1, "6": 1, "7": 1}


def test_alpine_hunters_against_the_greens() -> None:
    # Whites: 3 CR (one wounded) and 1 TD -> close-combat PI 2 + 2 + 1 = 5; die 2 -> 5 - 2 = 3.
    # Greens: 2 CR and 2 TD -> PI 2 + 2 = 4; die 6 > 4 counts 0 -> 4 - 0 = 4.
    whites = _crew(
        "blancs", "white", 300, [("CR", False), ("CR", False), ("CR", True), ("TD", False)]
    )
    greens = _crew(
        "verts", "green", 340, [("CR", False), ("CR", False), ("TD", False), ("TD", False)]
    )
    scene = neutral_scene(*whites, *greens)  # references 40 mm apart: in contact
    on_greens = ask(scene, "impact", ["blancs", "verts"], {"action": "close", "die": 2})
    on_whites = ask(scene, "impact", ["verts", "blancs"], {"action": "close", "die": 6})
    assert (on_greens.to_json()["pi"], on_greens.to_json()["impact"]) == (5, 3)
    assert (on_whites.to_json()["pi"], on_whites.to_json()["impact"]) == (4, 4)
    assert on_greens.to_json()["warnings"] == []


def test_cow_boys_against_the_indians() -> None:
    # Cow-boys: 2 CR, 2 TD -> PI 4; die 4 -> 4 - 4 = 0.
    # Indians: 2 CR (one wounded), 2 TD -> PI 2 + 1 = 3; die 1 -> 3 - 1 = 2.
    cowboys = _crew(
        "cowboys", "blue", 300, [("CR", False), ("CR", False), ("TD", False), ("TD", False)]
    )
    indians = _crew(
        "indiens", "red", 340, [("CR", False), ("CR", True), ("TD", False), ("TD", False)]
    )
    scene = neutral_scene(*cowboys, *indians)
    assert (
        ask(scene, "impact", ["cowboys", "indiens"], {"action": "close", "die": 4}).to_json()[
            "impact"
        ]
        == 0
    )
    assert (
        ask(scene, "impact", ["indiens", "cowboys"], {"action": "close", "die": 1}).to_json()[
            "impact"
        ]
        == 2
    )


def test_close_combat_out_of_contact_is_computed_with_a_warning() -> None:
    scene = neutral_scene(
        *_crew("a", "blue", 100, [("CR", False)]), *_crew("b", "red", 400, [("CR", False)])
    )
    answer = ask(scene, "impact", ["a", "b"], {"action": "close", "die": 1}).to_json()
    assert answer["impact"] == 1
    assert answer["warnings"] == ["a is not in contact with b"]


def test_group_potentials_of_the_book() -> None:
    # "un total de 10 PJ (2 valides 4x2PJ + 2 blessés 2x1PJ)" -- four healthy, two wounded;
    # PA 1 (a wounded figure); shooting PI 6 (4 TD, 2 of them wounded: 2+2+1+1);
    # close-combat PI 4 (2 healthy CR).
    group = _crew(
        "g",
        "blue",
        100,
        [("TD", False), ("TD", False), ("TD", True), ("TD", True), ("CR", False), ("CR", False)],
    )
    answer = ask(neutral_scene(*group), "potentials", ["g"]).to_json()
    assert (answer["pj"], answer["pa"], answer["pi_fire"], answer["pi_close"]) == (10, 1, 6, 4)
    assert answer["pa_mm"] == 100.0


def test_wounded_rider_keeps_his_bonus() -> None:
    # ANNEXE 1: "Un cavalier avec un bonus PA de +2, blessé aurait un PA3 : 1 + 2."
    rider = Figure("cavalier", "blue", 0, 0, wounded=True, attrs={"pa_bonus": 2})
    assert figure_pa(rider) == 3
    # "un groupe avec le cavalier ci-dessus (PA4) et un blessé (PA1) n'avancera donc que de 1"
    healthy_rider = Figure("cavalier", "blue", 0, 0, attrs={"pa_bonus": 2})
    wounded = Figure("blesse", "blue", 0, 0, wounded=True)
    assert min(figure_pa(healthy_rider), figure_pa(wounded)) == 1


@pytest.mark.parametrize("die", [0, 7, -1])
def test_a_die_shows_one_to_six(die: int) -> None:
    with pytest.raises(ValueError, match="a die shows 1 to 6"):
        impact(3, die)


def test_impact_of_a_close_combat_says_contact_cannot_be_measured() -> None:
    answer = ask(neutral_scene(*HEADLESS), "impact", ["x1", "r1"], {"action": "close", "die": 1})
    assert any("cannot be measured" in w for w in answer.to_json()["warnings"])


def test_potentials_need_no_reference() -> None:
    assert ask(neutral_scene(*HEADLESS), "potentials", ["x1"]).to_json()["pj"] == 4
