"""Choc Base 6 on hex and square grids (rules digest §1; rule book §2-§4 and ANNEXE 2).

A grid is laid on the table by the scene's options: the cell size (``hex_mm`` or
``square_mm``, flat side to flat side), the centre of cell (0, 0)
(``grid_origin_mm``, default half a cell from the table corner on both axes), a
rotation (``grid_rotation_deg``, counter-clockwise) and, for hexes, the
orientation (``hex_orientation: pointy|flat``). Hexes are named by axial
coordinates ``q, r``, squares by ``col, row``; every figure snaps to the cell
that holds it. The grid covers the cells whose centre lies on the table.

Readings chosen where the book is silent:

* the figures in one cell form one group (a group occupies one cell); declared
  groups must agree with the cells (else the scene is refused);
* a figure outside the grid still names its cell, but a shot or a move that
  involves it, or a move to a cell outside the grid, is refused with
  ``not_in_grid``;
* hex line of fire: the cells crossed by the segment between the two cells'
  centres, all of them empty (a segment running along a side between two
  cells is clear when either side is);
* square line of fire: the shot is counted in orthogonal steps through empty
  squares (ANNEXE 2), so it may bend round an occupied square if the count
  stays within range;
* moves: orthogonal steps on squares, steps to a neighbouring hex on hexes,
  through empty cells on the grid; impassable ground and buildings (the cell's
  centre inside) block, difficult ground and woods cost 2 steps to enter.
"""

from __future__ import annotations

import functools
import heapq
import math
from collections import defaultdict, deque
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field

import numpy as np
import shapely

from rules.answers import (
    ContactAnswer,
    DistanceAnswer,
    FireAnswer,
    GroupsAnswer,
    ImpactAnswer,
    Margin,
    MoveAnswer,
    PotentialsAnswer,
    ReachAnswer,
    Reason,
    Unit,
    with_certainty,
)
from rules.choc_base_6 import (
    BLOCKING_TERRAIN,
    COSTLY_TERRAIN,
    NUMBERS,
    SHOOTER_TYPE,
    _options,
    figure_pa,
    figure_pi,
    impact_answer,
    is_sniper,
    potentials_answer,
)
from rules.errors import QuestionError, SceneError
from rules.model import Figure, Scene
from rules.ruleset import Question, Ruleset, coordinate_mm

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

    def _table(self, u_mm: float, v_mm: float) -> tuple[float, float]:
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
        a, b = cell
        w = self.cell_mm
        if self.kind == "square":
            u, v = a * w, b * w
        elif self.pointy:
            u, v = w * (a + b / 2), w * _SQRT3 / 2 * b
        else:
            u, v = w * _SQRT3 / 2 * a, w * (b + a / 2)
        return self._table(u, v)

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


def grid_of(scene: Scene) -> Grid:
    """The grid of a CB6 scene on a hex or square surface."""
    options = _options(scene)
    size = options.hex_mm if options.surface == "hex" else options.square_mm
    if size is None:
        name = "hex_mm" if options.surface == "hex" else "square_mm"
        raise SceneError(
            scene.source,
            f"options.{name}",
            f"required when surface is {options.surface!r} (the cell size, flat to flat, mm)",
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


# --- groups ----------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class CellGroup:
    """The group standing in one cell."""

    name: str
    side: str
    cell: Cell
    figures: tuple[Figure, ...]
    reference: Figure
    in_grid: bool
    margin: Margin  # how sure the cell is: the figure nearest a side of it

    @property
    def ids(self) -> tuple[str, ...]:
        return tuple(f.id for f in self.figures)


@dataclass(frozen=True, slots=True)
class CellGrouping:
    grid: Grid
    groups: tuple[CellGroup, ...]
    by_cell: Mapping[Cell, CellGroup]
    warnings: tuple[str, ...]

    def by_name(self, name: str) -> CellGroup | None:
        return next((g for g in self.groups if g.name == name), None)

    def of_figure(self, figure_id: str) -> CellGroup:
        return next(g for g in self.groups if figure_id in g.ids)


@functools.lru_cache(maxsize=16)
def cell_groups(scene: Scene) -> CellGrouping:
    """One group per occupied cell; declared groups must match the cells."""
    grid = grid_of(scene)
    index_of = {f.id: k for k, f in enumerate(scene.figures)}
    crews: dict[Cell, list[Figure]] = defaultdict(list)
    for figure in scene.figures:
        crews[grid.cell_of(figure.x_mm, figure.y_mm)].append(figure)
    declared_cell: dict[str, Cell] = {}
    groups: list[CellGroup] = []
    warnings: list[str] = []
    names_used: set[str] = set()
    for cell, crew in crews.items():
        first = crew[0]
        for figure in crew[1:]:
            if figure.side != first.side:
                raise SceneError(
                    scene.source,
                    f"figures[{index_of[figure.id]}].side",
                    f"{figure.id} ({figure.side}) shares cell {_cell_text(cell)} with "
                    f"{first.id} ({first.side}): one group, one side per cell",
                )
        names = {f.group for f in crew if f.group is not None}
        if len(names) > 1:
            other = next(f for f in crew if f.group is not None and f.group != min(names))
            raise SceneError(
                scene.source,
                f"figures[{index_of[other.id]}].group",
                f"cell {_cell_text(cell)} holds figures of groups {', '.join(sorted(names))}: "
                "one group per cell",
            )
        for name in names:
            if name in declared_cell:
                figure = next(f for f in crew if f.group == name)
                raise SceneError(
                    scene.source,
                    f"figures[{index_of[figure.id]}].group",
                    f"group {name!r} stands in cells {_cell_text(declared_cell[name])} and "
                    f"{_cell_text(cell)}: a group occupies one cell",
                )
            declared_cell[name] = cell
        references = [f for f in crew if f.reference]
        reference = references[0] if references else first
        name = next(iter(names)) if names else reference.id
        if name in names_used:
            raise SceneError(
                scene.source,
                f"figures[{index_of[reference.id]}].id",
                f"group name {name!r} is used by two cells",
            )
        names_used.add(name)
        nearest = min(crew, key=lambda f: grid.boundary_margin_mm(f.x_mm, f.y_mm))
        margin = Margin(
            f"cell of {name}",
            grid.boundary_margin_mm(nearest.x_mm, nearest.y_mm),
            nearest.sigma_mm,
        )
        inside = grid.in_grid(cell)
        if not inside:
            warnings.append(f"group {name} in cell {_cell_text(cell)} is outside the grid")
        if len(crew) > NUMBERS.max_group_size:
            warnings.append(
                f"group {name} has {len(crew)} figures (at most {NUMBERS.max_group_size})"
            )
        groups.append(CellGroup(name, first.side, cell, tuple(crew), reference, inside, margin))
    return CellGrouping(grid, tuple(groups), {g.cell: g for g in groups}, tuple(warnings))


def validate_grid(scene: Scene) -> None:
    """Check a grid scene: the cell size is given and groups agree with the cells."""
    cell_groups(scene)


# --- answers ---------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class GridDistanceAnswer(DistanceAnswer):
    cell_a: Cell = (0, 0)
    cell_b: Cell = (0, 0)
    coordinates: str = ""


@dataclass(frozen=True, slots=True)
class GridContactAnswer(ContactAnswer):
    cell_a: Cell = (0, 0)
    cell_b: Cell = (0, 0)
    steps: int = 0


@dataclass(frozen=True, slots=True)
class GridFireAnswer(FireAnswer):
    cell_shooter: Cell = (0, 0)
    cell_target: Cell = (0, 0)
    line_cells: tuple[Cell, ...] = ()


@dataclass(frozen=True, slots=True)
class GridMoveAnswer(MoveAnswer):
    cell_from: Cell = (0, 0)
    cell_to: Cell = (0, 0)
    path_cells: tuple[Cell, ...] = ()


@dataclass(frozen=True, slots=True)
class GridReachAnswer(ReachAnswer):
    cell_from: Cell = (0, 0)
    cells: tuple[Cell, ...] = ()
    cell_steps: tuple[int, ...] = ()


@dataclass(frozen=True, slots=True)
class GridGroupsAnswer(GroupsAnswer):
    cells: dict[str, Cell] = field(default_factory=dict)
    coordinates: str = ""


# --- the questions ---------------------------------------------------------------------


class ChocBase6Grid(Ruleset):
    """CB6 on a hex or square grid; `rules.choc_base_6.ChocBase6` hands grid scenes here."""

    name = "choc-base-6"

    def unit(self, scene: Scene) -> Unit:
        return grid_of(scene).unit

    def questions(self) -> Mapping[str, Question]:
        return {
            "distance": Question("distance", ("A", "B"), "cells between two groups", self.distance),
            "contact": Question("contact", ("A", "B"), "are two groups neighbours", self.contact),
            "fire": Question("fire", ("A", "B"), "may group A shoot at group B", self.fire),
            "move": Question(
                "move", ("A", "X", "Y"), "may A move to the cell of (X, Y)", self.move
            ),
            "reach": Question("reach", ("A",), "the cells A may move to", self.reach),
            "groups": Question("groups", (), "the groups on the grid", self.groups),
            "impact": Question("impact", ("A", "B"), "the impact of A on B", self.impact),
            "potentials": Question(
                "potentials", ("A",), "PJ, PA and PI of a group", self.potentials
            ),
        }

    def distance(self, scene: Scene, a: str, b: str) -> GridDistanceAnswer:
        grouping = cell_groups(scene)
        grid = grouping.grid
        first, second = _group(scene, grouping, a), _group(scene, grouping, b)
        steps = grid.steps(first.cell, second.cell)
        unit = grid.unit
        return GridDistanceAnswer(
            question="distance",
            message=f"{a} ({_cell_text(first.cell)}) to {b} ({_cell_text(second.cell)}): "
            f"{steps} {unit.name}",
            a=a,
            b=b,
            distance_mm=unit.to_mm(steps),
            distance_units=float(steps),
            unit=unit.name,
            mode="cells",
            cell_a=first.cell,
            cell_b=second.cell,
            coordinates=grid.coordinates,
        )

    def contact(self, scene: Scene, a: str, b: str) -> GridContactAnswer:
        grouping = cell_groups(scene)
        grid = grouping.grid
        first, second = _group(scene, grouping, a), _group(scene, grouping, b)
        if first.name == second.name:
            raise QuestionError(f"{a!r} and {b!r} are the same group {first.name!r}")
        steps = grid.steps(first.cell, second.cell)
        touching = steps == 1
        margins = (first.margin, second.margin)
        side = "a side" if grid.kind == "square" else "neighbouring hexes"
        verdict = f"in contact ({side})" if touching else f"not in contact ({steps} cells apart)"
        return GridContactAnswer(
            question="contact",
            message=with_certainty(
                f"{first.name} ({_cell_text(first.cell)}) and {second.name} "
                f"({_cell_text(second.cell)}) are {verdict}",
                *margins,
            ),
            margins=margins,
            a=a,
            b=b,
            contact=touching,
            gap_mm=grid.unit.to_mm(max(steps - 1, 0)),
            threshold_mm=0.0,
            cell_a=first.cell,
            cell_b=second.cell,
            steps=steps,
        )

    def fire(self, scene: Scene, a: str, b: str) -> GridFireAnswer:
        grouping = cell_groups(scene)
        grid = grouping.grid
        unit = grid.unit
        shooter, target = _group(scene, grouping, a), _group(scene, grouping, b)
        if shooter.name == target.name:
            raise QuestionError(f"{a!r} and {b!r} are the same group {shooter.name!r}")
        reasons: list[Reason] = []
        warnings: list[str] = []
        if not (shooter.in_grid and target.in_grid):
            reasons.append(Reason.NOT_IN_GRID)
        if not scene.are_enemies(shooter.side, target.side):
            reasons.append(Reason.TARGET_NOT_ENEMY)
        shooters = [f for f in shooter.figures if f.type == SHOOTER_TYPE]
        if not shooters:
            reasons.append(Reason.NO_SHOOTERS)
        if _touches_enemy(scene, grouping, shooter):
            reasons.append(Reason.IN_CONTACT_WITH_ENEMY)
        if _touches_enemy(scene, grouping, target):
            reasons.append(Reason.TARGET_IN_CONTACT)

        snipers = [f for f in shooters if is_sniper(f)]
        reach = NUMBERS.sniper_range_units if snipers else NUMBERS.range_units
        steps = grid.steps(shooter.cell, target.cell)
        occupied = {cell for cell in grouping.by_cell if cell not in (shooter.cell, target.cell)}
        line: list[Cell]
        blocked_by: list[str] = []
        count = steps
        if grid.kind == "hex":
            first, second = grid.hex_lines(shooter.cell, target.cell)
            first_blockers = [c for c in first[1:-1] if c in occupied]
            second_blockers = [c for c in second[1:-1] if c in occupied]
            line = second if first_blockers and not second_blockers else first
            if first_blockers and second_blockers:
                blocked_by = _names(grouping, [*first_blockers, *second_blockers])
        else:
            route = _square_shot(grid, shooter.cell, target.cell, occupied, int(reach))
            if route is None:
                line = []
                if steps <= reach:
                    box = _box_cells(shooter.cell, target.cell)
                    blocked_by = _names(grouping, [c for c in box if c in occupied])
            else:
                line, count = route, len(route) - 1
        if steps > reach:
            reasons.append(Reason.OUT_OF_RANGE)
        elif blocked_by or (grid.kind == "square" and not line):
            reasons.append(Reason.LINE_BLOCKED)

        counted = shooters
        band: str | None = None
        if Reason.OUT_OF_RANGE not in reasons:
            band = "normal" if count <= NUMBERS.range_units else "sniper"
            if band == "sniper":
                counted = snipers
                warnings.append(
                    f"beyond {NUMBERS.range_units:g} {unit.name} only the snipers' PI counts"
                )
        pi_total = sum(figure_pi(f) for f in counted)
        allowed = not reasons
        margins = (shooter.margin, target.margin)
        if allowed:
            text = (
                f"{shooter.name} may shoot at {target.name} at {count} {unit.name} "
                f"({_cells_text(line)}), PI {pi_total}"
            )
        else:
            why = ", ".join(reasons)
            extra = f" (blocked by {', '.join(blocked_by)})" if blocked_by else ""
            text = (
                f"{shooter.name} may not shoot at {target.name} ({steps} {unit.name}): {why}{extra}"
            )
        return GridFireAnswer(
            question="fire",
            message=with_certainty(text, *margins),
            margins=margins,
            shooter=shooter.name,
            target=target.name,
            allowed=allowed,
            reasons=tuple(reasons),
            distance_mm=unit.to_mm(count),
            distance_units=float(count),
            unit=unit.name,
            band=band,
            blocked_by=tuple(blocked_by),
            warnings=tuple(warnings),
            shooters=tuple(f.id for f in counted),
            pi=pi_total if allowed else 0,
            cell_shooter=shooter.cell,
            cell_target=target.cell,
            line_cells=tuple(line),
        )

    def move(self, scene: Scene, a: str, x: str, y: str) -> GridMoveAnswer:
        grouping = cell_groups(scene)
        grid = grouping.grid
        unit = grid.unit
        goal_x, goal_y = coordinate_mm(x, "X"), coordinate_mm(y, "Y")
        goal = grid.cell_of(goal_x, goal_y)
        group, movers = _movers(scene, grouping, a)
        allowance = min(figure_pa(f) for f in movers)
        staying = len(movers) < len(group.figures)
        ground = _Ground.of(scene, grouping, group, staying)
        reasons: list[Reason] = []
        occupant = grouping.by_cell.get(goal)
        if not group.in_grid or not grid.in_grid(goal):
            reasons.append(Reason.NOT_IN_GRID)
        elif goal in ground.blocked:
            reasons.append(Reason.IMPASSABLE)
        if occupant is not None and (occupant.name != group.name or staying):
            reasons.append(Reason.DESTINATION_OCCUPIED)
        path: list[Cell] = []
        cost = math.inf
        blocked_by: list[str] = []
        if not reasons:
            costs, previous = ground.search(group.cell, with_groups=True)
            if goal in costs:
                cost = costs[goal]
                path = _walk_back(previous, goal)
            if cost > allowance:
                free_costs, free_previous = ground.search(group.cell, with_groups=False)
                if free_costs.get(goal, math.inf) <= allowance:
                    # Groups in the way make the only way round too long.
                    reasons.append(Reason.PATH_BLOCKED)
                    free_path = _walk_back(free_previous, goal)
                    blocked_by = _names(grouping, [c for c in free_path if c in ground.groups])
                elif math.isinf(cost):  # no way there at all, as on the neutral surface
                    reasons.append(Reason.PATH_BLOCKED)
                else:
                    reasons.append(Reason.OVER_ALLOWANCE)
        legal = not reasons
        margins = (
            group.margin,
            Margin("cell of the destination", grid.boundary_margin_mm(goal_x, goal_y), 0.0),
        )
        cost_units = float(cost) if math.isfinite(cost) else math.inf
        if legal:
            text = (
                f"{a} may move from {_cell_text(group.cell)} to {_cell_text(goal)}: "
                f"{cost} {unit.name} ({_cells_text(path)}), allowance {allowance} {unit.name}"
            )
        else:
            extra = f" (by {', '.join(blocked_by)})" if blocked_by else ""
            shown = f"{cost} {unit.name}" if math.isfinite(cost) else "no way"
            text = (
                f"{a} may not move from {_cell_text(group.cell)} to {_cell_text(goal)}: "
                f"{', '.join(reasons)}{extra} ({shown}, allowance {allowance} {unit.name})"
            )
        return GridMoveAnswer(
            question="move",
            message=with_certainty(text, *margins),
            margins=margins,
            mover=a,
            legal=legal,
            reasons=tuple(reasons),
            cost_mm=unit.to_mm(cost_units),
            cost_units=cost_units,
            allowance_mm=unit.to_mm(allowance),
            allowance_units=float(allowance),
            unit=unit.name,
            path_mm=tuple(grid.centre(c) for c in path),
            blocked_by=tuple(blocked_by),
            cell_from=group.cell,
            cell_to=goal,
            path_cells=tuple(path),
        )

    def reach(self, scene: Scene, a: str) -> GridReachAnswer:
        grouping = cell_groups(scene)
        grid = grouping.grid
        unit = grid.unit
        group, movers = _movers(scene, grouping, a)
        allowance = min(figure_pa(f) for f in movers)
        ground = _Ground.of(scene, grouping, group, len(movers) < len(group.figures))
        cells: list[tuple[int, Cell]] = []
        if group.in_grid:
            costs, _ = ground.search(group.cell, with_groups=True, limit=allowance)
            cells = sorted(
                (cost, cell)
                for cell, cost in costs.items()
                if cell != group.cell and cost <= allowance
            )
        polygons = tuple(grid.corners(cell) for _, cell in cells)
        return GridReachAnswer(
            question="reach",
            message=f"{a} may move to {len(cells)} cell(s) within {allowance} {unit.name}"
            + (f": {', '.join(_cell_text(c) for _, c in cells)}" if cells else ""),
            mover=a,
            area_mm2=len(cells) * grid.cell_area_mm2,
            polygons_mm=polygons,
            holes_mm=tuple(() for _ in polygons),
            allowance_mm=unit.to_mm(allowance),
            allowance_units=float(allowance),
            unit=unit.name,
            cell_from=group.cell,
            cells=tuple(cell for _, cell in cells),
            cell_steps=tuple(cost for cost, _ in cells),
        )

    def groups(self, scene: Scene) -> GridGroupsAnswer:
        grouping = cell_groups(scene)
        listing = ", ".join(
            f"{g.name} {_cell_text(g.cell)} ({len(g.figures)})" for g in grouping.groups
        )
        return GridGroupsAnswer(
            question="groups",
            message=f"{len(grouping.groups)} groups: {listing}"
            + "".join(f"\nwarning: {w}" for w in grouping.warnings),
            groups={g.name: list(g.ids) for g in grouping.groups},
            references={g.name: g.reference.id for g in grouping.groups},
            sides={g.name: g.side for g in grouping.groups},
            warnings=grouping.warnings,
            cells={g.name: g.cell for g in grouping.groups},
            coordinates=grouping.grid.coordinates,
        )

    def impact(
        self,
        scene: Scene,
        a: str,
        b: str,
        action: str = "fire",
        die: int | None = None,
        bonus: int = 0,
    ) -> ImpactAnswer:
        grouping = cell_groups(scene)
        attacker, target = _group(scene, grouping, a), _group(scene, grouping, b)
        return impact_answer(
            attacker,
            target,
            action,
            die,
            bonus,
            fire=lambda: self.fire(scene, a, b),
            in_contact=lambda: self.contact(scene, a, b).contact,
        )

    def potentials(self, scene: Scene, a: str) -> PotentialsAnswer:
        grouping = cell_groups(scene)
        group = _group(scene, grouping, a)
        return potentials_answer(group, grouping.grid.unit, f" ({_cell_text(group.cell)})")


GRID = ChocBase6Grid()


# --- moves and shots on cells ----------------------------------------------------------


@dataclass(frozen=True, slots=True)
class _Ground:
    """What a move meets on the grid: other groups' cells, blocked and costly cells."""

    grid: Grid
    groups: frozenset[Cell]
    blocked: frozenset[Cell]
    costly: Mapping[Cell, float]

    @classmethod
    def of(cls, scene: Scene, grouping: CellGrouping, mover: CellGroup, split: bool) -> _Ground:
        grid = grouping.grid
        groups = {cell for cell, g in grouping.by_cell.items() if g.name != mover.name}
        if split:  # the figures left behind stay in the start cell
            groups.add(mover.cell)
        blocked: set[Cell] = set()
        costly: dict[Cell, float] = {}
        features = [
            (t, t.kind in BLOCKING_TERRAIN)
            for t in scene.terrain
            if t.kind in BLOCKING_TERRAIN or t.kind in COSTLY_TERRAIN
        ]
        if features:
            for cell in _grid_cells(grid):
                point = shapely.Point(grid.centre(cell))
                for feature, blocks in features:
                    if not isinstance(feature.geometry, shapely.Polygon):
                        continue
                    if feature.geometry.covers(point):
                        if blocks:
                            blocked.add(cell)
                        else:
                            costly[cell] = max(costly.get(cell, 1.0), COSTLY_TERRAIN[feature.kind])
        return cls(grid, frozenset(groups), frozenset(blocked), costly)

    def search(
        self, start: Cell, with_groups: bool, limit: float = math.inf
    ) -> tuple[dict[Cell, int], dict[Cell, Cell]]:
        """Steps from ``start`` to every cell of the grid reachable through empty cells.

        Entering a cell costs 1 (2 on difficult ground); other groups' cells (when
        ``with_groups``), blocked cells and cells off the grid are never entered.
        """
        costs: dict[Cell, int] = {start: 0}
        previous: dict[Cell, Cell] = {}
        queue: list[tuple[int, Cell]] = [(0, start)]
        while queue:
            cost, cell = heapq.heappop(queue)
            if cost > costs.get(cell, math.inf) or cost >= limit:
                continue
            for nxt in self.grid.neighbours(cell):
                if nxt in self.blocked or (with_groups and nxt in self.groups):
                    continue
                if not self.grid.in_grid(nxt):
                    continue
                step = int(self.costly.get(nxt, 1.0))
                total = cost + step
                if total < costs.get(nxt, math.inf):
                    costs[nxt] = total
                    previous[nxt] = cell
                    heapq.heappush(queue, (total, nxt))
        return costs, previous


def _grid_cells(grid: Grid) -> Iterable[Cell]:
    """Every cell of the grid (centre on the table)."""
    corners = [
        (0.0, 0.0),
        (grid.width_mm, 0.0),
        (0.0, grid.depth_mm),
        (grid.width_mm, grid.depth_mm),
    ]
    fractions = np.array([grid._fractional(x, y) for x, y in corners])
    low = np.floor(fractions.min(axis=0)).astype(int) - 2
    high = np.ceil(fractions.max(axis=0)).astype(int) + 2
    for a in range(int(low[0]), int(high[0]) + 1):
        for b in range(int(low[1]), int(high[1]) + 1):
            if grid.in_grid((a, b)):
                yield a, b


def _walk_back(previous: Mapping[Cell, Cell], goal: Cell) -> list[Cell]:
    path = [goal]
    while path[-1] in previous:
        path.append(previous[path[-1]])
    return path[::-1]


def _square_shot(
    grid: Grid, start: Cell, goal: Cell, occupied: set[Cell], reach: int
) -> list[Cell] | None:
    """The shortest orthogonal count from shooter to target through empty squares on the
    grid, if it is at most ``reach`` squares (breadth-first search)."""
    previous: dict[Cell, Cell] = {}
    depth = {start: 0}
    queue = deque([start])
    while queue:
        cell = queue.popleft()
        if cell == goal:
            return _walk_back(previous, goal)
        if depth[cell] >= reach:
            continue
        for nxt in grid.neighbours(cell):
            if nxt in depth or (nxt != goal and (nxt in occupied or not grid.in_grid(nxt))):
                continue
            depth[nxt] = depth[cell] + 1
            previous[nxt] = cell
            queue.append(nxt)
    return None


def _box_cells(a: Cell, b: Cell) -> list[Cell]:
    """The squares between two squares (on some shortest orthogonal count)."""
    cols = range(min(a[0], b[0]), max(a[0], b[0]) + 1)
    rows = range(min(a[1], b[1]), max(a[1], b[1]) + 1)
    return [(c, r) for c in cols for r in rows if (c, r) not in (a, b)]


def _touches_enemy(scene: Scene, grouping: CellGrouping, group: CellGroup) -> bool:
    for cell in grouping.grid.neighbours(group.cell):
        other = grouping.by_cell.get(cell)
        if other is not None and scene.are_enemies(group.side, other.side):
            return True
    return False


def _names(grouping: CellGrouping, cells: Sequence[Cell]) -> list[str]:
    seen: list[str] = []
    for cell in cells:
        name = grouping.by_cell[cell].name
        if name not in seen:
            seen.append(name)
    return seen


# --- helpers ---------------------------------------------------------------------------


def _group(scene: Scene, grouping: CellGrouping, name: str) -> CellGroup:
    group = grouping.by_name(name)
    if group is not None:
        return group
    if scene.figure(name) is not None:
        return grouping.of_figure(name)
    raise QuestionError(f"unknown figure or group {name!r}")


def _movers(scene: Scene, grouping: CellGrouping, name: str) -> tuple[CellGroup, list[Figure]]:
    """The group a move starts from and the figures that move: a group (or its reference
    figure) moves whole; another figure named alone splits off."""
    group = grouping.by_name(name)
    if group is not None:
        return group, list(group.figures)
    figure = scene.figure(name)
    if figure is None:
        raise QuestionError(f"unknown figure or group {name!r}")
    group = grouping.of_figure(name)
    if figure.id == group.reference.id or len(group.figures) == 1:
        return group, list(group.figures)
    return group, [figure]


def _cell_text(cell: Cell) -> str:
    return f"{cell[0]},{cell[1]}"


def _cells_text(cells: Sequence[Cell]) -> str:
    return " -> ".join(_cell_text(c) for c in cells)
