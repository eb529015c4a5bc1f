"""MBT scene checks: rectangular bases with a type, 0 to 100 figures on a base."""

from __future__ import annotations

import pytest

from arbitre.rules.errors import SceneError
from tests.rules.mbt.scenes import RECT, base, mbt_scene


def test_bases_must_be_rectangles_with_a_type() -> None:
    with pytest.raises(SceneError, match=r"figures\[0\]\.base"):
        mbt_scene(
            {
                "id": "x",
                "side": "a",
                "x_mm": 100,
                "y_mm": 100,
                "type": "infantry",
                "base": {"shape": "round", "diameter_mm": 25},
            }
        )
    with pytest.raises(SceneError, match=r"figures\[0\]\.type"):
        mbt_scene(
            {"id": "x", "side": "a", "x_mm": 100, "y_mm": 100, "type": "chariot", "base": RECT}
        )
    with pytest.raises(SceneError, match=r"figures\[0\]\.attrs\.heavy"):
        bad = base("x", "a", 100, 100, 90, "infantry", heavy="yes")
        mbt_scene(bad)


@pytest.mark.parametrize("count", [10**300, 101, -1, 2.5])
def test_a_base_carries_0_to_100_figures(count: object) -> None:
    with pytest.raises(SceneError) as error:
        mbt_scene(base("x", "a", 100, 100, 90, "infantry", figures=count))
    assert error.value.field == "figures[0].attrs.figures"
    assert error.value.problem.startswith("figure 'x': expected a count of figures 0 to 100")
