"""Hex and square grids laid on the table (rule book ANNEXE 2).

A grid is laid on the table by the scene's options: the cell size (``hex_mm`` or
``square_mm``, flat side to flat side), the centre of cell (0, 0)
(``grid_origin_mm``, default half a cell from the table corner on both axes), a
rotation (``grid_rotation_deg``, counter-clockwise) and, for hexes, the
orientation (``hex_orientation: pointy|flat``). Hexes are named by axial
coordinates ``q, r``, squares by ``col, row``; every figure snaps to the cell
that holds it. The grid covers the cells whose centre lies on the table.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np
import shapely

from arbitre.rules.answers import Unit
from arbitre.rules.choc_base_6.options import options_of
from arbitre.rules.errors import SceneError
from arbitre.rules.model import Scene

Cell = tuple[int, int]

HEX_STEPS: tuple[Cell, ...] = ((1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1))
SQUARE_STEPS: tuple[Cell, ...] = ((1, 0), (0, 1), (-1, 0), (0, -1))
_SQRT3 = math.sqrt(3.0)
_NUDGE = 1e-6


@dataclass(frozen=True, slots=True)
class Grid:
    """A hex or square grid laid on the table.

    ``cell_mm`` is the distance between two neighbouring cells' centres (flat side
    to flat side); ``origin_mm`` the centre of cell (0, 0); the grid is turned by
    ``rotation_deg`` counter-clockwise about it. Pointy hexes have neighbours
    along the grid's x axis, flat hexes along its y axis.
    """

    kind: str  # "hex" or "square"
    cell_mm: float
    origin_mm: tuple[float, float]
    rotation_deg: float = 0.0
    pointy: bool = True
    width_mm: float = math.inf
    depth_mm: float = math.inf

    @property
    def unit(self) -> Unit:
        return Unit("H" if self.kind == "hex" else "C", self.cell_mm)

    @property
    def coordinates(self) -> str:
        return "q,r (axial)" if self.kind == "hex" else "col,row"

    def _local(self, x_mm: float, y_mm: float) -> tuple[float, float]:
        """Table mm to grid-aligned mm relative to the origin."""
        dx, dy = x_mm - self.origin_mm[0], y_mm - self.origin_mm[1]
        turn = math.radians(self.rotation_deg)
        c, s = math.cos(turn), math.sin(turn)
        return c * dx + s * dy, -s * dx + c * dy

    def _table(self, u_mm: Any, v_mm: Any) -> tuple[Any, Any]:
        """Grid-aligned mm to table mm (numbers, or numpy arrays of them)."""
        turn = math.radians(self.rotation_deg)
        c, s = math.cos(turn), math.sin(turn)
        return self.origin_mm[0] + c * u_mm - s * v_mm, self.origin_mm[1] + s * u_mm + c * v_mm

    def _fractional(self, x_mm: float, y_mm: float) -> tuple[float, float]:
        u, v = self._local(x_mm, y_mm)
        w = self.cell_mm
        if self.kind == "square":
            return u / w, v / w
        if self.pointy:
            r = v / (w * _SQRT3 / 2)
            return u / w - r / 2, r
        q = u / (w * _SQRT3 / 2)
        return q, v / w - q / 2

    def cell_of(self, x_mm: float, y_mm: float) -> Cell:
        """The cell holding a table point.

        >>> g = Grid("hex", 50.0, (0.0, 0.0))
        >>> g.cell_of(0, 0), g.cell_of(50, 0), g.cell_of(25, 43.3), g.cell_of(-24, 0)
        ((0, 0), (1, 0), (0, 1), (0, 0))
        >>> Grid("square", 50.0, (25.0, 25.0)).cell_of(130, 10)
        (2, 0)
        """
        a, b = self._fractional(x_mm, y_mm)
        if self.kind == "square":
            return round(a), round(b)
        return _cube_round(a, b)

    def centre(self, cell: Cell) -> tuple[float, float]:
        """A cell's centre, table mm.

        >>> Grid("hex", 50.0, (100.0, 100.0), pointy=False).centre((1, 0))
        (143.30127018922192, 125.0)
        """
        x, y = self._centre_xy(*cell)
        return float(x), float(y)

    def _centre_xy(self, a: Any, b: Any) -> tuple[Any, Any]:
        """Centres of cells (a, b) in table mm: numbers, or numpy arrays of them."""
        w = self.cell_mm
        if self.kind == "square":
            u, v = a * w, b * w
        elif self.pointy:
            u, v = w * (a + b / 2), w * _SQRT3 / 2 * b
        else:
            u, v = w * _SQRT3 / 2 * a, w * (b + a / 2)
        return self._table(u, v)

    def cells_and_centres(self) -> tuple[np.ndarray, np.ndarray]:
        """Every cell of the grid (its centre on the table) as (K, 2) integers, and their
        centres (K, 2) table mm.

        >>> grid = Grid("square", 50, (25, 25), width_mm=100, depth_mm=50)
        >>> cells, centres = grid.cells_and_centres()
        >>> cells.tolist(), centres.tolist()
        ([[0, 0], [1, 0]], [[25.0, 25.0], [75.0, 25.0]])
        """
        corners = [
            (0.0, 0.0),
            (self.width_mm, 0.0),
            (0.0, self.depth_mm),
            (self.width_mm, self.depth_mm),
        ]
        fractions = np.array([self._fractional(x, y) for x, y in corners])
        low = np.floor(fractions.min(axis=0)).astype(int) - 2
        high = np.ceil(fractions.max(axis=0)).astype(int) + 2
        grid_a, grid_b = np.meshgrid(
            np.arange(low[0], high[0] + 1), np.arange(low[1], high[1] + 1), indexing="ij"
        )
        a, b = grid_a.ravel(), grid_b.ravel()
        x, y = self._centre_xy(a.astype(np.float64), b.astype(np.float64))
        eps = 1e-9 * self.cell_mm  # as in_grid
        on = (x >= -eps) & (x <= self.width_mm + eps) & (y >= -eps) & (y <= self.depth_mm + eps)
        return np.column_stack([a[on], b[on]]), np.column_stack([x[on], y[on]])

    def corners(self, cell: Cell) -> tuple[tuple[float, float], ...]:
        """A cell's outline, table mm, counter-clockwise."""
        cx, cy = self.centre(cell)
        cu, cv = self._local(cx, cy)
        if self.kind == "square":
            h = self.cell_mm / 2
            local = [(cu - h, cv - h), (cu + h, cv - h), (cu + h, cv + h), (cu - h, cv + h)]
        else:
            radius = self.cell_mm / _SQRT3
            start = 30.0 if self.pointy else 0.0
            local = [
                (
                    cu + radius * math.cos(math.radians(start + 60 * k)),
                    cv + radius * math.sin(math.radians(start + 60 * k)),
                )
                for k in range(6)
            ]
        return tuple(self._table(u, v) for u, v in local)

    def polygon(self, cell: Cell) -> shapely.Polygon:
        return shapely.Polygon(self.corners(cell))

    @property
    def cell_area_mm2(self) -> float:
        w = self.cell_mm
        return w * w if self.kind == "square" else _SQRT3 / 2 * w * w

    def steps(self, a: Cell, b: Cell) -> int:
        """Cells counted from a to b: hex steps, or orthogonal steps on squares.

        >>> Grid("hex", 50, (0, 0)).steps((0, 0), (2, -1)), Grid("square", 50, (0, 0)).steps(
        ...     (0, 0), (2, -1))
        (2, 3)
        """
        dq, dr = b[0] - a[0], b[1] - a[1]
        if self.kind == "square":
            return abs(dq) + abs(dr)
        return (abs(dq) + abs(dr) + abs(dq + dr)) // 2

    def neighbours(self, cell: Cell) -> list[Cell]:
        """Cells sharing a side with ``cell`` (never a corner only)."""
        moves = HEX_STEPS if self.kind == "hex" else SQUARE_STEPS
        return [(cell[0] + dq, cell[1] + dr) for dq, dr in moves]

    def in_grid(self, cell: Cell) -> bool:
        """Whether the cell is part of the grid: its centre lies on the table."""
        x, y = self.centre(cell)
        eps = 1e-9 * self.cell_mm
        return -eps <= x <= self.width_mm + eps and -eps <= y <= self.depth_mm + eps

    def boundary_margin_mm(self, x_mm: float, y_mm: float) -> float:
        """How far a point lies inside its cell (0 on a side): how sure its cell is.

        >>> Grid("square", 50, (25, 25)).boundary_margin_mm(30, 40)  # 25 - |40 - 25|
        10.0
        """
        cx, cy = self.centre(self.cell_of(x_mm, y_mm))
        u, v = self._local(x_mm, y_mm)
        cu, cv = self._local(cx, cy)
        du, dv = u - cu, v - cv
        half = self.cell_mm / 2
        if self.kind == "square":
            return half - max(abs(du), abs(dv))
        start = 0.0 if self.pointy else 30.0
        reach = max(
            abs(
                du * math.cos(math.radians(start + 60 * k))
                + dv * math.sin(math.radians(start + 60 * k))
            )
            for k in range(3)
        )
        return half - reach

    def hex_lines(self, a: Cell, b: Cell) -> tuple[list[Cell], list[Cell]]:
        """The cells crossed by the segment between two hexes' centres, nudged to either
        side (the two lists differ only where the segment runs along a side).

        >>> Grid("hex", 50, (0, 0)).hex_lines((0, 0), (3, 0))[0]
        [(0, 0), (1, 0), (2, 0), (3, 0)]
        >>> sorted(set(sum(Grid("hex", 50, (0, 0)).hex_lines((0, 0), (1, 1)), [])))
        [(0, 0), (0, 1), (1, 0), (1, 1)]
        """
        n = self.steps(a, b)
        lines: list[list[Cell]] = []
        for sign in (1.0, -1.0):
            nudge = sign * _NUDGE
            aq, ar = a[0] + nudge, a[1] + nudge
            bq, br = b[0] + nudge, b[1] + nudge
            line = [
                _cube_round(aq + (bq - aq) * i / n, ar + (br - ar) * i / n) if n else a
                for i in range(n + 1)
            ]
            lines.append(line)
        return lines[0], lines[1]

    def hex_shot_cells(self, a: Cell, b: Cell) -> tuple[list[Cell], list[Cell], list[Cell]]:
        """The hexes between ``a`` and ``b`` that the segment between their centres goes
        through, and those it runs along a side of, on either side.

        Returns the hexes it crosses (a stretch of it inside), then the hexes along whose
        sides it runs as nudged to one side and to the other: a shot is clear when
        the first are empty and, of the others, those of one side are. The segment from
        hex 0,0 to hex 1,1 runs between hexes 0,1 and 1,0; the one from 0,0 to 3,1
        crosses the side between hexes 1,1 and 2,0 at its middle, through both:

        >>> g = Grid("hex", 50, (0, 0))
        >>> g.hex_shot_cells((0, 0), (1, 1))
        ([], [(1, 0)], [(0, 1)])
        >>> sorted(g.hex_shot_cells((0, 0), (3, 1))[0])
        [(1, 0), (1, 1), (2, 0), (2, 1)]
        """
        first, second = self.hex_lines(a, b)
        segment = shapely.LineString([self.centre(a), self.centre(b)])
        tiny = 1e-6 * self.cell_mm
        near = {
            (q + dq, r + dr) for q, r in (*first, *second) for dq, dr in ((0, 0), *HEX_STEPS)
        } - {a, b}
        through: list[Cell] = []
        along: set[Cell] = set()
        for cell in sorted(near):
            outline = self.polygon(cell)
            if segment.intersection(outline.buffer(-tiny)).length > tiny:
                through.append(cell)
            elif segment.intersection(outline).length > tiny:
                along.add(cell)
        return (
            through,
            [c for c in first[1:-1] if c in along],
            [c for c in second[1:-1] if c in along],
        )


def _cube_round(q: float, r: float) -> Cell:
    """Round fractional axial coordinates to the hex holding them."""
    s = -q - r
    rq, rr, rs = round(q), round(r), round(s)
    dq, dr, ds = abs(rq - q), abs(rr - r), abs(rs - s)
    if dq > dr and dq > ds:
        rq = -rr - rs
    elif dr > ds:
        rr = -rq - rs
    return int(rq), int(rr)


MIN_CELL_MM = 10.0
"""The smallest grid cell (a hex or square flat to flat), mm: CB6 cells are a few cm."""

MAX_CELLS = 40_000
"""The most cells a table may hold (200 x 200): paths and reach search over the cells."""


def grid_of(scene: Scene) -> Grid:
    """The grid of a CB6 scene on a hex or square surface."""
    options = options_of(scene)
    size = options.hex_mm if options.surface == "hex" else options.square_mm
    if size is None:
        name = "hex_mm" if options.surface == "hex" else "square_mm"
        raise SceneError(
            scene.source,
            f"options.{name}",
            f"required when surface is {options.surface!r} (the cell size, flat to flat, mm)",
        )
    name = "hex_mm" if options.surface == "hex" else "square_mm"
    cells = scene.table.width_mm * scene.table.depth_mm / (size * size)
    if size < MIN_CELL_MM or cells > MAX_CELLS:
        raise SceneError(
            scene.source,
            f"options.{name}",
            f"cells must be at least {MIN_CELL_MM:g} mm and at most {MAX_CELLS:,} on the "
            f"table; {size:g} mm cells make {cells:,.0f}",
        )
    origin = options.grid_origin_mm if options.grid_origin_mm is not None else (size / 2, size / 2)
    return Grid(
        kind=options.surface,
        cell_mm=size,
        origin_mm=(float(origin[0]), float(origin[1])),
        rotation_deg=options.grid_rotation_deg,
        pointy=options.hex_orientation == "pointy",
        width_mm=scene.table.width_mm,
        depth_mm=scene.table.depth_mm,
    )


def grid_unit(scene: Scene) -> Unit:
    return grid_of(scene).unit
