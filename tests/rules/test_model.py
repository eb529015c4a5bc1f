"""The table state: bases, figures and their uncertainties, terrain, scenes
(arbitre.rules.model)."""

from __future__ import annotations

import math

import numpy as np
import pytest
import shapely

from arbitre.rules.model import (
    Base,
    BaseShape,
    Figure,
    KeptByIdentity,
    Scene,
    Table,
    TerrainFeature,
    TerrainKind,
    centres_mm,
    disc,
    forget_kept,
    sigma_across_line,
    sigma_between,
    sigma_of,
)


def test_a_base_s_radius_holds_the_whole_base() -> None:
    # round: half its diameter; square and rect: half their diagonal.
    assert Base.round(25).radius_mm == 12.5
    assert Base(BaseShape.SQUARE, 30, 30).radius_mm == pytest.approx(15 * math.sqrt(2))
    assert Base(BaseShape.RECT, 60, 30).radius_mm == pytest.approx(math.hypot(60, 30) / 2)


def test_a_rectangular_base_faces_along_its_depth() -> None:
    # Facing +x (0 degrees): the depth 30 runs along x, the front's width 60 along y.
    assert Base(BaseShape.RECT, 60, 30).footprint(0, 0, 0).bounds == (-15.0, -30.0, 15.0, 30.0)
    # Turned 45 degrees, a 40 mm square reaches 20 sqrt(2) from its centre along x and y.
    turned = Base(BaseShape.SQUARE, 40, 40).footprint(100, 50, 45)
    assert turned.bounds == pytest.approx(
        (100 - 20 * 2**0.5, 50 - 20 * 2**0.5, 100 + 20 * 2**0.5, 50 + 20 * 2**0.5)
    )
    assert turned.area == pytest.approx(1600.0)


def test_a_disc_is_within_five_ten_thousandths_of_the_circle() -> None:
    area = disc(10.0, 20.0, 50.0).area
    assert math.pi * 50.0**2 * (1 - 5e-4) < area < math.pi * 50.0**2
    assert disc(10.0, 20.0, 50.0).centroid.coords[0] == pytest.approx((10.0, 20.0))


def test_a_figure_s_own_covariance_given_or_made_from_its_sigma() -> None:
    given = Figure("a", "x", 0, 0, own_cov_mm2=((0.04, 0.01), (0.01, 0.09)))
    assert given.own_covariance.tolist() == [[0.04, 0.01], [0.01, 0.09]]
    # sigma 0.2 with a shared part of trace 2 x 0.3² = 0.18: 0.04 - 0.09 < 0, so nothing
    # of its own is left (never a negative variance).
    shared = Figure("b", "x", 0, 0, sigma_mm=0.2, shared_mm=((0.3, 0.0), (0.0, 0.3)))
    assert shared.own_covariance.tolist() == [[0.0, 0.0], [0.0, 0.0]]
    assert Figure("c", "x", 1.5, -2.0).xy.tolist() == [1.5, -2.0]


def test_independent_figures_add_their_errors_in_squares() -> None:
    # 0.3 and 0.4 mm, independent: sqrt(0.09 + 0.16) = 0.5 mm, whatever the direction.
    a, b = Figure("a", "x", 0, 0, sigma_mm=0.3), Figure("b", "x", 10, 0, sigma_mm=0.4)
    assert sigma_between(a, b) == pytest.approx(0.5)
    assert sigma_between(a, b, along=(0.0, 1.0)) == pytest.approx(0.5)


def test_an_error_shared_alike_cancels_in_a_difference() -> None:
    # Both wholly the same error (all shared, nothing own): their distance is exact.
    s = ((0.5, 0.0), (0.0, 0.5))
    a = Figure("a", "x", 0, 0, sigma_mm=0.5, shared_mm=s)
    b = Figure("b", "x", 30, 40, sigma_mm=0.5, shared_mm=s)
    assert sigma_between(a, b) == pytest.approx(0.0, abs=1e-12)


def test_with_no_direction_the_worst_direction_counts() -> None:
    # Own covariance diag(0.04, 0.09): 0.2 mm along x, 0.3 along y, 0.3 at worst.
    figure = Figure("a", "x", 0, 0, shared_mm=((0.0, 0.0),), own_cov_mm2=((0.04, 0), (0, 0.09)))
    assert sigma_of([(figure, 1.0)], (1.0, 0.0)) == pytest.approx(0.2)
    assert sigma_of([(figure, 1.0)], (0.0, 2.0)) == pytest.approx(0.3)
    assert sigma_of([(figure, 1.0)], (0.0, 0.0)) == pytest.approx(0.3)


def test_beyond_a_line_s_end_the_distance_is_to_that_end() -> None:
    p, q = Figure("p", "x", 0, 0, sigma_mm=0.3), Figure("q", "x", 100, 0, sigma_mm=0.4)
    past_q = Figure("r", "x", 150, 10, sigma_mm=0.0)
    assert sigma_across_line(p, q, past_q) == pytest.approx(sigma_between(q, past_q))
    assert sigma_across_line(p, q, past_q) == pytest.approx(0.4)
    # a line of no length is its point
    assert sigma_across_line(p, p, past_q) == pytest.approx(0.3)


def test_centres_are_an_n_by_2_array_even_when_empty() -> None:
    assert centres_mm([]).shape == (0, 2)
    assert centres_mm([Figure("a", "x", 1, 2)]).dtype == np.float64


def test_values_are_kept_for_the_very_same_objects_only() -> None:
    kept: KeptByIdentity[str] = KeptByIdentity(2)
    one, two, three = Figure("a", "x", 0, 0), Figure("b", "x", 0, 0), Figure("c", "x", 0, 0)
    kept.keep((one,), "one")
    assert kept.get((one,)) == "one"
    assert kept.get((Figure("a", "x", 0, 0),)) is None  # equal, but another object
    kept.keep((two,), "two")
    kept.keep((three,), "three")  # a third: the oldest leaves
    assert (kept.get((one,)), kept.get((two,)), kept.get((three,))) == (None, "two", "three")
    forget_kept()
    assert kept.get((three,)) is None


def test_a_table_holds_its_edges() -> None:
    table = Table(1200.0, 900.0)
    assert table.contains(0.0, 0.0) and table.contains(1200.0, 900.0)
    assert not table.contains(-0.1, 450.0) and not table.contains(600.0, 900.1)


def test_a_scene_finds_figures_enemies_and_terrain() -> None:
    wood = TerrainFeature("w", TerrainKind.WOOD, shapely.box(0, 0, 10, 10))
    rock = TerrainFeature("r", TerrainKind.IMPASSABLE, shapely.box(20, 0, 30, 10))
    scene = Scene(
        "test",
        None,
        Table(100.0, 100.0),
        (Figure("a", "blue", 1, 1), Figure("b", "red", 2, 2)),
        terrain=(wood, rock),
        allies=frozenset({frozenset({"blue", "green"})}),
    )
    assert scene.figure("b") is scene.figures[1] and scene.figure("c") is None
    assert scene.are_enemies("blue", "red") and scene.are_enemies("red", "green")
    assert not scene.are_enemies("blue", "green") and not scene.are_enemies("green", "blue")
    assert not scene.are_enemies("red", "red")
    assert scene.terrain_of([TerrainKind.IMPASSABLE, TerrainKind.BUILDING]) == (rock,)
    # scenes compare by identity: two alike are not equal
    twin = Scene("test", None, Table(100.0, 100.0), scene.figures)
    assert twin != Scene("test", None, Table(100.0, 100.0), scene.figures)
