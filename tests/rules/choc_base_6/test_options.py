"""Choc Base 6's own options and the figure attributes its scenes check: bounded,
strict, the same on a grid as on the neutral surface."""

from __future__ import annotations

import re
from typing import Any

import pytest

from arbitre.rules.choc_base_6.grid_questions import GRID
from arbitre.rules.errors import SceneError
from arbitre.rules.options import question_options
from arbitre.rules.questions import ask
from arbitre.rules.registry import find_ruleset
from tests.rules.small_scenes import figure_data, scene_of


@pytest.mark.parametrize("option", ["unit_mm", "thickness_mm", "contact_tolerance_mm"])
def test_scene_options_never_read_a_boolean_or_an_absurd_length(option: str) -> None:
    for value in (True, 1e308):
        with pytest.raises(SceneError, match=re.escape(f"<scene>: options.{option}: ")):
            scene_of("cb6", figure_data("a", "blue", 100, 100), **{option: value})


def test_cb6_bonuses_are_bounded_and_a_malus_stops_at_0() -> None:
    bounded = r"attrs\.pa_bonus: figure 'a': expected an integer from -10 to 10"
    with pytest.raises(SceneError, match=bounded):
        scene_of(
            "cb6",
            figure_data("a", "blue", 300, 300, group="A", reference=True, attrs={"pa_bonus": -100}),
        )
    # PA 2 - 5 stops at 0: A cannot move at all, and reach is a point of no area.
    slow = scene_of(
        "cb6",
        figure_data("a", "blue", 300, 300, group="A", reference=True, attrs={"pa_bonus": -5}),
    )
    assert ask(slow, "potentials", ["A"]).to_json()["pa"] == 0
    assert ask(slow, "reach", ["A"]).to_json()["area_mm2"] == 0.0
    move = ask(slow, "move", ["A", "400", "300"]).to_json()
    assert (move["legal"], move["reasons"]) == (False, ["over_allowance"])


@pytest.mark.parametrize("value", ["no", "false", 0, 1, None])
def test_a_cb6_sniper_is_true_or_false_never_a_word_read_as_yes(value: Any) -> None:
    # bool("no") is True: a figure marked sniper "no" shot at 4 H as a sniper.
    with pytest.raises(SceneError, match=r"attrs\.sniper: figure 'a': expected true or false"):
        scene_of(
            "cb6",
            figure_data("a", "blue", 300, 300, group="A", reference=True, attrs={"sniper": value}),
        )


def test_a_grid_takes_the_same_options_as_the_neutral_surface() -> None:
    neutral = find_ruleset("cb6").questions()
    for name, question in GRID.questions().items():
        grid_options = question_options(question.handler)
        neutral_options = question_options(neutral[name].handler)
        assert {k: v.takes for k, v in grid_options.items()} == {
            k: v.takes for k, v in neutral_options.items()
        }
