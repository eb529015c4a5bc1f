"""The answers' English: M.U.S.G.'s "pas" are paces, and a count takes its plural only
when it is not one (no "area(s)")."""

from __future__ import annotations

from pathlib import Path

from arbitre.rules.questions import ask
from arbitre.rules.scene import load_scene

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


def test_musg_distances_are_in_paces() -> None:
    # goblin1 (400, 430) and guard (620, 480), 25 mm round bases: centres
    # sqrt(220² + 50²) = 225.6 mm apart, edges 225.6 - 2 x 12.5 = 200.6 mm = 7.90 paces
    # of 25.4 mm. The JSON keeps the book's name of the unit.
    answer = ask(load_scene(EXAMPLES / "musg-skirmish.yaml"), "distance", ["goblin1", "guard"])
    assert answer.message.startswith("goblin1 to guard: 7.90 paces (200.6 mm")
    assert answer.to_json()["unit"] == "pas"


def test_one_area_is_an_area() -> None:
    answer = ask(load_scene(EXAMPLES / "musg-skirmish.yaml"), "reach", ["goblin1"])
    assert " anywhere in 1 area of " in answer.message
    assert answer.message.endswith("within 5 paces")  # goblin1's move_pas: 5


def test_figures_acting_alone_are_counted_in_words() -> None:
    answer = ask(load_scene(EXAMPLES / "smooth-and-rifled-skirmish.yaml"), "groups", [])
    # line (5), battery (2), skirmishers (3), and u4, box, c3, rider, amb alone
    assert answer.message.startswith(
        "3 groups: line (5), battery (2), skirmishers (3); 5 figures acting alone"
    )
