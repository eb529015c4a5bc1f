"""Smooth & Rifled's bases and the gaps between them, edge to edge."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.rules.smooth_and_rifled.scenes import answer_json, sr_scene


def test_square_bases_measure_edge_to_edge() -> None:
    # Two 2x2 cm squares side by side, centres 50 mm apart: 30 mm edge to edge.
    square = {"shape": "square", "side_mm": 20}
    scene = sr_scene(
        [
            {"id": "a", "side": "b", "x_mm": 100, "y_mm": 100, "facing_deg": 90, "base": square},
            {"id": "c", "side": "r", "x_mm": 150, "y_mm": 100, "facing_deg": 90, "base": square},
        ]
    )
    assert answer_json(scene, "distance", "a", "c")["distance_mm"] == pytest.approx(30.0)


@settings(max_examples=25, deadline=None)
@given(
    st.floats(30, 1170),
    st.floats(30, 870),
    st.floats(30, 1170),
    st.floats(30, 870),
)
def test_distance_is_symmetric_and_edge_to_edge(x1: float, y1: float, x2: float, y2: float) -> None:
    scene = sr_scene(
        [
            {"id": "a", "side": "b", "x_mm": x1, "y_mm": y1},
            {"id": "c", "side": "r", "x_mm": x2, "y_mm": y2},
        ]
    )
    ab = answer_json(scene, "distance", "a", "c")["distance_mm"]
    assert ab == answer_json(scene, "distance", "c", "a")["distance_mm"]
    centres = ((x1 - x2) ** 2 + (y1 - y2) ** 2) ** 0.5
    assert ab == pytest.approx(max(0.0, centres - 25.0), abs=0.01)
