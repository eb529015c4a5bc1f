"""Smooth & Rifled's bases and the gaps between them, edge to edge."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from arbitre.rules.answers import Reason
from arbitre.rules.errors import UnknownName
from arbitre.rules.model import BaseShape, TerrainKind
from arbitre.rules.smooth_and_rifled.bases import (
    base_of,
    figure_gap_mm,
    footprint,
    gaps_of,
    index_of,
    place_refusals,
)
from tests.rules.smooth_and_rifled.scenes import answer_json, sr_scene

SQUARE = {"shape": "square", "side_mm": 20}


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


def test_a_figure_without_a_base_stands_on_a_25_mm_round_one() -> None:
    scene = sr_scene(
        [
            {"id": "a", "side": "b", "x_mm": 100, "y_mm": 100},
            {"id": "s", "side": "b", "x_mm": 200, "y_mm": 100, "base": SQUARE},
        ]
    )
    plain, squared = scene.figures
    assert (base_of(plain).shape, base_of(plain).width_mm) == (BaseShape.ROUND, 25.0)
    assert base_of(squared) is squared.base
    # pi x 12.5^2 = 490.9 mm², drawn as a polygon just inside the circle.
    assert footprint(plain).area == pytest.approx(math.pi * 12.5**2, rel=0.01)
    assert footprint(squared).bounds == pytest.approx((190, 90, 210, 110))


def test_the_gaps_are_measured_edge_to_edge_whatever_is_asked() -> None:
    # a and c round, 100 mm apart centre to centre: 75 mm; a to the 20 mm square s, 100 mm
    # away: 100 - 12.5 - 10 = 77.5 mm; c to s, 141.42 mm apart on the diagonal: the
    # square's corner is 14.14 mm from its centre, so 141.42 - 12.5 - 14.14 = 114.78 mm.
    scene = sr_scene(
        [
            {"id": "a", "side": "b", "x_mm": 100, "y_mm": 100},
            {"id": "c", "side": "r", "x_mm": 100, "y_mm": 200},
            {"id": "s", "side": "r", "x_mm": 200, "y_mm": 100, "base": SQUARE},
        ]
    )
    gaps = gaps_of(scene)
    a, c, s = (index_of(scene, name) for name in ("a", "c", "s"))
    assert gaps.pair(a, c) == pytest.approx(75.0)
    assert gaps.row(a) == pytest.approx([0.0, 75.0, 77.5], abs=1e-6)
    assert gaps.pair(c, s) == pytest.approx(100 * 2**0.5 - 12.5 - 10 * 2**0.5, abs=0.01)
    (block,) = gaps.blocks([[a, s]])
    assert block == pytest.approx(np.array([[0.0, 77.5], [77.5, 0.0]]), abs=1e-6)
    assert gaps.block([c], [a, s]) == pytest.approx(np.array([[75.0, gaps.pair(c, s)]]))
    assert figure_gap_mm(scene, scene.figures[0], scene.figures[2]) == pytest.approx(77.5)


def test_an_unknown_figure_is_named_with_the_nearest_names() -> None:
    scene = sr_scene([{"id": "alpins", "side": "b", "x_mm": 100, "y_mm": 100}])
    assert index_of(scene, "alpins") == 0
    with pytest.raises(UnknownName, match="unknown figure 'alpin' \\(did you mean 'alpins'\\?\\)"):
        index_of(scene, "alpin")


@pytest.mark.parametrize(
    ("xy", "away", "refusals"),
    [
        ((300.0, 300.0), (), []),
        ((10.0, 300.0), (), [Reason.OFF_TABLE]),  # the base reaches x -2.5
        ((1190.0, 895.0), (), [Reason.OFF_TABLE]),
        ((510.0, 300.0), (), [Reason.IMPASSABLE]),  # 2.5 mm into the rocks
        ((300.0, 505.0), (), [Reason.DESTINATION_OCCUPIED]),  # 5 mm onto b
        ((300.0, 505.0), ("b",), []),  # b leaves
        ((300.0, 475.0), (), []),  # 25 mm from b's centre: the two bases only touch
        ((10.0, 505.0), (), [Reason.OFF_TABLE]),
    ],
)
def test_a_base_may_not_stand_off_the_table_on_blocking_ground_or_on_a_figure(
    xy: tuple[float, float], away: tuple[str, ...], refusals: list[Reason]
) -> None:
    # a's 25 mm base at xy; rocks from x 520; b at (300, 500).
    scene = sr_scene(
        [
            {"id": "a", "side": "b", "x_mm": 100, "y_mm": 100},
            {"id": "b", "side": "b", "x_mm": 300, "y_mm": 500},
        ],
        terrain=[
            {
                "id": "rocks",
                "kind": "impassable",
                "polygon_mm": [[520, 200], [700, 200], [700, 400], [520, 400]],
            }
        ],
    )
    blocking = [TerrainKind.IMPASSABLE]
    assert place_refusals(scene, scene.figures[0], np.array(xy), away, blocking) == refusals
    # The ground blocks only when its kind is said to.
    assert Reason.IMPASSABLE not in place_refusals(scene, scene.figures[0], np.array(xy), away, [])
