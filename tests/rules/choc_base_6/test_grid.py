"""rules/choc_base_6/grid.py: laying hex and square grids on the table, cells and steps."""

from __future__ import annotations

import math

import pytest

from arbitre.rules.choc_base_6.grid import Grid
from arbitre.rules.errors import SceneError
from arbitre.rules.questions import ask
from arbitre.rules.scene import parse_scene
from tests.rules.choc_base_6.scenes import fig, grid_scene, hex_centre


def test_hex_cells_and_distances_by_hand() -> None:
    g = Grid("hex", 50, (300, 300))
    assert g.cell_of(*hex_centre(2, -1)) == (2, -1)
    assert g.cell_of(300 + 24, 300) == (0, 0) and g.cell_of(300 + 26, 300) == (1, 0)
    # (0,0) -> (3,-1): dq 3, dr -1, ds -2: (3 + 1 + 2) / 2 = 3 hexes.
    assert g.steps((0, 0), (3, -1)) == 3
    # (0,0) -> (-2,3): (2 + 3 + 1) / 2 = 3.
    assert g.steps((0, 0), (-2, 3)) == 3
    assert sorted(g.neighbours((0, 0))) == [(-1, 0), (-1, 1), (0, -1), (0, 1), (1, -1), (1, 0)]
    flat = Grid("hex", 50, (300, 300), pointy=False)
    assert flat.centre((0, 1)) == pytest.approx((300, 350))  # flat hexes: neighbours along y
    assert flat.cell_of(300, 326) == (0, 1)


def test_a_turned_grid() -> None:
    # A square grid turned 90 degrees about (300, 300): the grid's x axis runs along the
    # table's +y, so a figure 50 mm above the origin is in column 1, row 0.
    scene = grid_scene(
        "square",
        fig("o", "blue", (300, 300)),
        fig("up", "red", (300, 350)),
        grid_origin_mm=[300, 300],
        grid_rotation_deg=90,
    )
    assert ask(scene, "groups", []).to_json()["cells"] == {"o": [0, 0], "up": [1, 0]}


def test_the_cell_size_is_required() -> None:
    with pytest.raises(SceneError, match=r"options.hex_mm: required"):
        parse_scene(
            {
                "ruleset": "cb6",
                "options": {"surface": "hex"},
                "table": {"width_mm": 600, "depth_mm": 400},
                "figures": [fig("a", "blue", (60, 60))],
            }
        )


@pytest.mark.parametrize(
    ("surface", "size", "table", "made"),
    [
        # 600 x 400 mm in 1 mm squares: 240,000 cells, and a cell under 10 mm anyway.
        ("square", 1.0, (600, 400), "240,000"),
        # 5 mm hexes are under 10 mm, though 600 x 400 / 25 = 9,600 cells would do.
        ("hex", 5.0, (600, 400), "9,600"),
        # 10 mm squares on a 3 x 2 m table: 3000 x 2000 / 100 = 60,000 cells, over 40,000.
        ("square", 10.0, (3000, 2000), "60,000"),
    ],
)
def test_grids_of_absurdly_many_or_tiny_cells_are_refused(
    surface: str, size: float, table: tuple[float, float], made: str
) -> None:
    # Paths and reach search over the cells: a grid of a million 0.1 mm cells would never
    # finish, so a scene must keep to cells of 10 mm or more, 40,000 at most.
    with pytest.raises(SceneError, match=rf"options.{surface}_mm: cells must be .* make {made}"):
        grid_scene(surface, fig("a", "blue", (60, 60)), table=table, **{f"{surface}_mm": size})


@pytest.mark.parametrize("pointy", [True, False])
def test_the_grid_s_cells_are_those_whose_centre_is_on_the_table(pointy: bool) -> None:
    # Every cell found at once (with its centre) is one `in_grid` counts, and every cell
    # `in_grid` counts within a wide window is found: a hex grid turned 33 deg, its
    # origin off the table's corner.
    grid = Grid("hex", 40.0, (-17.0, 230.0), 33.0, pointy, width_mm=600.0, depth_mm=400.0)
    cells, centres = grid.cells_and_centres()
    found = {(int(a), int(b)) for a, b in cells}
    window = {(a, b) for a in range(-40, 41) for b in range(-40, 41) if grid.in_grid((a, b))}
    assert found == window and len(found) > 100
    for (a, b), (x, y) in zip(cells.tolist(), centres.tolist(), strict=True):
        assert (x, y) == pytest.approx(grid.centre((a, b)))


def test_square_cells_steps_and_outlines_by_hand() -> None:
    g = Grid("square", 50, (25, 25), width_mm=300, depth_mm=200)
    # x = 130 lies in column 2 (100-150), y = 10 in row 0.
    assert g.cell_of(130, 10) == (2, 0) and g.centre((2, 0)) == (125, 25)
    # 0,0 -> 3,-2: 3 across and 2 up, counted orthogonally: 5 squares.
    assert g.steps((0, 0), (3, -2)) == 5
    assert sorted(g.neighbours((1, 1))) == [(0, 1), (1, 0), (1, 2), (2, 1)]
    assert (g.unit.name, g.unit.mm, g.coordinates) == ("C", 50, "col,row")
    # Square 1,1 runs from (50, 50) to (100, 100): 2500 mm^2, its sides 25 mm from its centre.
    assert g.polygon((1, 1)).bounds == pytest.approx((50, 50, 100, 100))
    assert g.polygon((1, 1)).area == pytest.approx(g.cell_area_mm2) and g.cell_area_mm2 == 2500
    assert g.boundary_margin_mm(70, 60) == pytest.approx(10)  # 25 - |60 - 75|
    # Column 5 is centred on x = 275, on the 300 mm table; column 6 (x = 325) is not.
    assert g.in_grid((5, 3)) and not g.in_grid((6, 0)) and not g.in_grid((0, -1))


def test_a_hex_s_outline_has_six_corners_a_cell_apart_across() -> None:
    # A pointy hex of 50 mm flat to flat: corners 50 / sqrt(3) = 28.87 mm from the centre,
    # one straight above it; its area sqrt(3) / 2 x 50^2 = 2165.06 mm^2.
    g = Grid("hex", 50, (300, 300))
    corners = g.corners((0, 0))
    assert len(corners) == 6
    for x, y in corners:
        assert math.hypot(x - 300, y - 300) == pytest.approx(50 / math.sqrt(3))
    assert any(c == pytest.approx((300, 300 + 50 / math.sqrt(3))) for c in corners)
    assert g.polygon((0, 0)).area == pytest.approx(math.sqrt(3) / 2 * 2500)
    assert (g.unit.name, g.coordinates) == ("H", "q,r (axial)")
