"""rules/choc_base_6/grid_groups.py: one group per occupied cell."""

from __future__ import annotations

from typing import Any

import pytest

from arbitre.rules.errors import SceneError
from tests.rules.choc_base_6.scenes import fig, grid_scene


@pytest.mark.parametrize(
    ("figures", "field", "problem"),
    [
        (
            [
                fig("a", "blue", (60, 60), group="A"),
                fig("b", "blue", (70, 70), group="B"),
            ],
            "figures[1].group",
            "one group per cell",
        ),
        (
            [fig("a", "blue", (60, 60), group="A"), fig("b", "blue", (160, 60), group="A")],
            "figures[1].group",
            "a group occupies one cell",
        ),
        (
            [fig("a", "blue", (60, 60)), fig("b", "red", (70, 70))],
            "figures[1].side",
            "one side per cell",
        ),
    ],
)
def test_groups_must_agree_with_the_cells(
    figures: list[dict[str, Any]], field: str, problem: str
) -> None:
    with pytest.raises(SceneError) as caught:
        grid_scene("square", *figures)
    assert f": {field}: " in str(caught.value) and problem in str(caught.value)
