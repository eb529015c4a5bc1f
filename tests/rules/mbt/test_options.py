"""MBT's scene options and its unit, the graduation (arbitre.rules.mbt.options)."""

from __future__ import annotations

import re
from typing import Any

import pytest

from arbitre.rules.errors import SceneError
from arbitre.rules.mbt.options import MbtOptions, options_of, unit_of
from tests.rules.small_scenes import figure_data, scene_of

RECT = {"shape": "rect", "width_mm": 40, "depth_mm": 20}


def _mbt(**options: Any) -> Any:
    return scene_of(
        "mbt", figure_data("G1", "blue", 300, 300, type="infantry", base=RECT), **options
    )


def test_a_scene_without_options_takes_the_book_s_defaults() -> None:
    options = options_of(_mbt())
    assert options == MbtOptions()
    assert (options.graduation_mm, options.contact_tolerance_mm, options.arc) == (
        25.0,
        2.0,
        "front",
    )
    assert (options.woods_for_cavalry, options.woods_for_infantry) == ("impassable", "difficult")


def test_the_unit_is_the_graduation_as_long_as_the_scene_says() -> None:
    # 2 graduations of 30 mm are 60 mm; 75 mm is 2.5 of them.
    unit = unit_of(_mbt(graduation_mm=30))
    assert unit.name == "graduation" and unit.to_mm(2) == 60.0 and unit.from_mm(75.0) == 2.5


@pytest.mark.parametrize(
    ("option", "value"),
    [
        ("align_tolerance_deg", 46),  # at most 45 degrees
        ("difficult_factor", 0.5),  # difficult ground never costs less than open
        ("arc", "180"),
        ("bases_per_side", 0),
        ("bases_per_side", True),  # strict: a flag is not a number
        ("objectives", [{"id": "hill", "x_mm": 10, "y_mm": 10, "colour": "red"}]),
    ],
)
def test_an_option_out_of_its_bounds_is_refused(option: str, value: object) -> None:
    with pytest.raises(SceneError, match=re.escape(f"<scene>: options.{option}")):
        _mbt(**{option: value})


def test_an_objective_is_worth_one_loss_unless_the_scene_says() -> None:
    hill = {"id": "hill", "x_mm": 600, "y_mm": 450}
    (objective,) = options_of(_mbt(objectives=[hill])).objectives
    assert (objective.id, objective.x_mm, objective.worth) == ("hill", 600.0, 1)


@pytest.mark.parametrize(("worth", "taken"), [(0, False), (1, True), (3, True), (4, False)])
def test_an_objective_is_worth_one_to_three_losses_as_the_book_says(
    worth: int, taken: bool
) -> None:
    # Mouvements: an objective is worth "1, 2 ou 3 pertes"; any other worth is refused.
    hill = {"id": "hill", "x_mm": 500, "y_mm": 400, "worth": worth}
    if taken:
        (objective,) = options_of(_mbt(objectives=[hill])).objectives
        assert objective.worth == worth
    else:
        with pytest.raises(SceneError, match="worth"):
            _mbt(objectives=[hill])
