"""Confrontation's scene options and the ``partition`` option of its questions
(arbitre.rules.confrontation.options)."""

from __future__ import annotations

import re
from typing import Any

import pytest

from arbitre.rules.confrontation.options import MAX_PARTITIONS, ConfrontationOptions, options_of
from arbitre.rules.errors import SceneError
from tests.rules.small_scenes import figure_data, refusal, scene_of


def _scene(**options: Any) -> Any:
    return scene_of(
        "confrontation",
        figure_data("a", "blue", 300, 300),
        figure_data("b", "red", 325, 300),
        **options,
    )


def test_a_scene_without_options_takes_the_defaults() -> None:
    options = options_of(_scene())
    assert options == ConfrontationOptions()
    assert (options.base_mm, options.contact_tolerance_mm, options.max_partitions) == (
        25.0,
        2.0,
        200,
    )
    assert options.terrain_cost == "none"  # the book gives terrain no cost


@pytest.mark.parametrize(
    ("option", "value"),
    [
        ("max_partitions", 0),
        ("max_partitions", MAX_PARTITIONS + 1),
        ("base_mm", 0.5),  # shorter than a camera sees
        ("terrain_cost", "triple"),
    ],
)
def test_an_option_out_of_its_bounds_is_refused(option: str, value: object) -> None:
    with pytest.raises(SceneError, match=re.escape(f"<scene>: options.{option}")):
        _scene(**{option: value})


def test_a_partition_is_a_split_s_index() -> None:
    message = refusal(_scene(), "dice", ["a"], {"partition": -1})
    assert message == (
        f"a split's index, a whole number 0 to {MAX_PARTITIONS}, got -1 (option partition of dice)"
    )
