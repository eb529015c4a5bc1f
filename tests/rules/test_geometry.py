"""Base-to-base gaps: measured in blocks, the same numbers as outline to outline."""

from __future__ import annotations

import numpy as np
import pytest
import shapely
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from arbitre.rules.geometry import base_gaps_mm, overlap_centres, swept_hulls
from arbitre.rules.model import Base, BaseShape

# A base: round (diameter) or rectangular (width, depth, facing), somewhere on 300 mm.
BASES = st.lists(
    st.tuples(
        st.floats(0, 300),
        st.floats(0, 300),
        st.sampled_from([BaseShape.ROUND, BaseShape.RECT]),
        st.floats(10, 60),
        st.floats(10, 60),
        st.floats(0, 360),
    ),
    min_size=1,
    max_size=12,
)


def _bases(
    drawn: list[tuple[float, float, BaseShape, float, float, float]],
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    xy = np.array([[x, y] for x, y, *_ in drawn])
    made = [
        Base.round(w) if shape is BaseShape.ROUND else Base(shape, w, d)
        for _, _, shape, w, d, _ in drawn
    ]
    radii = np.array([b.width_mm / 2 if b.shape is BaseShape.ROUND else np.nan for b in made])
    outlines = np.array(
        [b.footprint(x, y, facing) for b, (x, y, _, _, _, facing) in zip(made, drawn, strict=True)]
        + [None],
        dtype=object,
    )[:-1]
    return xy, radii, outlines


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(BASES, st.data())
def test_gaps_are_those_of_the_outlines_and_any_block_is_the_whole_table_s(
    drawn: list[tuple[float, float, BaseShape, float, float, float]], data: st.DataObject
) -> None:
    xy, radii, outlines = _bases(drawn)
    gaps = base_gaps_mm(xy, radii, outlines)
    # Against shapely outline to outline (a disc's 128 sides lie within 0.01 mm of its circle).
    exact = shapely.distance(outlines[:, None], outlines[None, :])
    assert np.allclose(gaps, exact, atol=0.02)
    assert np.allclose(gaps, gaps.T, atol=1e-9)
    n = len(drawn)
    rows = data.draw(st.lists(st.integers(0, n - 1), min_size=1, max_size=6))
    cols = data.draw(st.lists(st.integers(0, n - 1), min_size=1, max_size=6))
    block = base_gaps_mm(xy, radii, outlines, rows, cols)
    assert np.array_equal(block, gaps[np.ix_(rows, cols)])  # the very same numbers


def test_the_centres_where_a_base_overlaps_an_l_shaped_wood() -> None:
    # The L is the union of two boxes, and growing distributes over a union: with a
    # 4 x 2 mm base, box(0, 0, 20, 10) grows to box(-2, -1, 22, 11) (24 x 12 = 288 mm2)
    # and box(0, 0, 10, 20) to box(-2, -1, 12, 21) (14 x 22 = 308 mm2), which share
    # box(-2, -1, 12, 11) (14 x 12 = 168 mm2): 428 mm2, not the L's convex hull grown.
    wood = shapely.union_all([shapely.box(0, 0, 20, 10), shapely.box(0, 0, 10, 20)])
    base = np.array([[2.0, 1.0], [-2.0, 1.0], [-2.0, -1.0], [2.0, -1.0]])
    grown = overlap_centres(wood, base)
    assert grown.area == pytest.approx(428.0)
    assert grown.equals(
        shapely.union_all([shapely.box(-2, -1, 22, 11), shapely.box(-2, -1, 12, 21)])
    )


def test_a_convex_wood_grows_by_a_turned_base_as_its_edges_do() -> None:
    # A convex wood takes the short way (the hull of its corners moved by the base's);
    # the same as sliding the base, turned half round, along its edges.
    angles = np.radians([0, 50, 130, 200, 290])
    wood = shapely.Polygon(np.column_stack([40 * np.cos(angles), 30 * np.sin(angles)]))
    turn = np.radians(30)
    half = np.array([[10, 5], [-10, 5], [-10, -5], [10, -5]], dtype=float)
    base = half @ np.array([[np.cos(turn), np.sin(turn)], [-np.sin(turn), np.cos(turn)]]) + [3, 1]
    edges = np.asarray(wood.exterior.coords)
    slid = shapely.union_all([wood, *swept_hulls(edges[:-1], edges[1:], -base)])
    assert overlap_centres(wood, base).symmetric_difference(slid).area < 1e-6


def test_an_area_answer_reads_back_as_valid_separate_polygons() -> None:
    # Two squares 0.4 micrometre apart, and a third whose corner pokes 0.3 micrometre
    # into the second: written to the micrometre one by one, the first two would share
    # an edge and the third would cross the second. Snapped first, they are one valid
    # polygon of 3 x 1 mm^2 (less the 0.3 micrometre overlap, nothing at this precision).
    from arbitre.rules.geometry import area_answer

    pieces = shapely.MultiPolygon(
        [
            shapely.box(0, 0, 1, 1),
            shapely.box(1.0000004, 0, 2, 1),
            shapely.box(1.9999997, 0.5, 3, 1.5),
        ]
    )
    found = area_answer(pieces)
    rounded = [
        shapely.Polygon(
            [(round(x, 3), round(y, 3)) for x, y in shell],
            [[(round(x, 3), round(y, 3)) for x, y in hole] for hole in holes],
        )
        for shell, holes in zip(found.polygons_mm, found.holes_mm, strict=True)
    ]
    assert all(p.is_valid for p in rounded)
    assert shapely.MultiPolygon(rounded).is_valid
    assert found.area_mm2 == pytest.approx(3.0, abs=1e-6)
