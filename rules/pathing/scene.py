"""The scene of one query.

The obstacles, circles, points and costly-zone boundaries that a path of bounded
cost can meet, with vectorised tests of points and segments against them.
"""

from __future__ import annotations

import dataclasses
import functools
import math
from dataclasses import dataclass
from typing import Any, cast

import numpy as np
import shapely

from arbitre.rules.pathing.arcs import circle_weights, cliff_points, free_runs
from arbitre.rules.pathing.kernels import (
    arc_weights,
    box_pairs,
    crossings,
    points_clear,
    segments_meet,
)
from arbitre.rules.pathing.model import TOLERANCE_MM, BoolArray, Departures, FloatArray, IntArray
from arbitre.rules.pathing.prepare import PreparedField, Zone, zone_samples
from arbitre.rules.pathing.primitives import (
    TWO_PI,
    empty_points,
)
from arbitre.rules.pathing.query import LEVEL_GROWN, LEVEL_IGNORED
from arbitre.rules.pathing.region import Region

_SKIRT_MM = 1e-3
"""How far beside a zone's edge the ground is looked at, to tell skirting from riding it."""


@dataclass(frozen=True, slots=True)
class Circles:
    """The circles a path can wrap around, one row each: grown discs and the rounded
    convex corners of polygons, those near the search's nodes with some free arc.

    A circle has a centre ``xy`` (C, 2) in table mm, a radius ``rho``, the obstacle
    that owns it and the angles of the tangents marked on it; its free runs (start
    angle and angular length of each, ``run_count`` of them, ``run_full`` when it is
    free all round); the cost per mm around it (``weight_const``, NaN where it varies
    along the circle, with knot angles and the cumulative weighted angle there); and
    the angular tolerance of a point on it.
    """

    xy: FloatArray
    rho: FloatArray
    owner: IntArray
    marks: list[FloatArray]
    run_start: FloatArray
    run_len: FloatArray
    run_count: IntArray
    run_full: BoolArray
    weight_const: FloatArray
    weight_angles: list[FloatArray]
    weight_cum: list[FloatArray]
    ang_tol: FloatArray

    def where(self, keep: BoolArray) -> Circles:
        """The circles where ``keep`` is True."""
        return Circles(
            **{
                field.name: _rows_where(getattr(self, field.name), keep)
                for field in dataclasses.fields(self)
            }
        )


def _rows_where(column: np.ndarray | list[FloatArray], keep: BoolArray) -> Any:
    """The rows of an array, or the items of a list, where ``keep`` is True."""
    if isinstance(column, np.ndarray):
        return column[keep]
    return [item for item, chosen in zip(column, keep, strict=True) if chosen]


@dataclass(frozen=True, slots=True)
class _Turns:
    """Where the kept obstacles let a path turn: circles it can wrap around (discs grown by
    a clearance, and the convex corners of polygons rounded by it) and points (the same
    with no clearance to speak of), each with the obstacle that owns it."""

    circle_xy: FloatArray  # (C, 2)
    circle_rho: FloatArray
    circle_owner: IntArray
    circle_marks: list[FloatArray]  # angles of the tangents marked on each circle
    point_xy: FloatArray  # (P, 2)
    point_owner: IntArray


class QueryScene:
    """Obstacles, circles, points and zones that matter for one query.

    Made in five steps: the obstacles near the search region are kept and broken into
    discs, edges and solids; the costly zones that reach the region give boundary
    samples; the points (start, goal, samples in free space, point-like corners) and
    the circles (with their free runs) are gathered; and the search's targets are listed.
    """

    def __init__(
        self,
        prep: PreparedField,
        radius: float,
        start: tuple[float, float],
        goal: tuple[float, float] | None,
        levels: IntArray,
        rect: tuple[float, float, float, float],
        region: Region,
        spacing: float,
        nodes: Region | None = None,
        bend_loss_mm: float | None = None,
    ) -> None:
        self.nodes = region if nodes is None else nodes
        self.prep = prep
        self.spacing = spacing
        self.radius = radius
        self.rect = rect
        self.region = region
        self.levels = levels
        clearance = np.where(levels == LEVEL_GROWN, radius, 0.0)
        self.kept = _obstacles_near(prep, levels, clearance, region, radius)
        turns = self._take_obstacles(clearance)
        boundary, boundary_info = self._take_zones(start, bend_loss_mm, turns)
        self._gather_points(start, goal, boundary, boundary_info, turns)
        self.circles = self._wrap_circles(turns)
        self._list_targets()
        self.departures: dict[tuple[int, int], Departures] = {}
        # the columns of each fan-out the search's compiled step reads, by its id
        self.packed: dict[int, tuple[FloatArray, IntArray, IntArray]] = {}

    def _take_obstacles(self, clearance: FloatArray) -> _Turns:
        """Break the kept obstacles into grown discs, edges and raw solids, and find where
        they let a path turn."""
        full_edges = self.radius > 10.0 * TOLERANCE_MM
        self.convex = np.zeros(len(self.prep.sources) + 2, dtype=bool)
        disc_xy: list[FloatArray] = []
        disc_rho: list[FloatArray] = []
        disc_owner: list[IntArray] = []
        # the discs grown by the clearance and the corners rounded by it, in turn
        turn_xy: list[FloatArray] = []
        turn_rho: list[FloatArray] = []
        turn_owner: list[IntArray] = []
        turn_marks: list[FloatArray] = []
        edge_full: list[FloatArray] = []
        edge_full_owner: list[IntArray] = []
        edge_raw: list[FloatArray] = []
        solids: list[shapely.Geometry] = []
        for index in self.kept:
            obstacle = self.prep.obstacle(int(index))
            self.convex[index] = obstacle.convex
            c = float(clearance[index])
            if obstacle.solid is not None:
                solids.append(obstacle.solid)
            if len(obstacle.disc_r):
                rho = obstacle.disc_r + c
                owner = np.full(len(rho), index, dtype=np.intp)
                disc_xy.append(obstacle.disc_xy)
                disc_rho.append(rho)
                disc_owner.append(owner)
                turn_xy.append(obstacle.disc_xy)
                turn_rho.append(rho)
                turn_owner.append(owner)
                turn_marks.extend(obstacle.disc_normals)
            if len(obstacle.corners):
                turn_xy.append(obstacle.corners)
                turn_rho.append(np.full(len(obstacle.corners), c))
                turn_owner.append(np.full(len(obstacle.corners), index, dtype=np.intp))
                turn_marks.extend(obstacle.corner_normals)
            if len(obstacle.edges):
                if self.levels[index] == LEVEL_GROWN and full_edges:
                    edge_full.append(obstacle.edges)
                    edge_full_owner.append(np.full(len(obstacle.edges), index, dtype=np.intp))
                else:
                    edge_raw.append(obstacle.edges)
        self.disc_xy = _joined_points(disc_xy)
        self.disc_rho = _joined(disc_rho, np.float64)
        self.disc_owner = _joined(disc_owner, np.intp)
        self.edges = np.concatenate(edge_full) if edge_full else np.zeros((0, 4))
        self.edge_owner = _joined(edge_full_owner, np.intp)
        self.raw_edges = np.concatenate(edge_raw) if edge_raw else np.zeros((0, 4))
        self.solids = np.empty(len(solids), dtype=object)
        self.solids[:] = solids
        self.solid_boxes = shapely.bounds(self.solids) if solids else np.zeros((0, 4))
        xy = _joined_points(turn_xy)
        rho = _joined(turn_rho, np.float64)
        owner = _joined(turn_owner, np.intp)
        # a path wraps around a circle of some size, and turns at a point otherwise
        wraps = rho > 10.0 * TOLERANCE_MM
        return _Turns(
            xy[wraps],
            rho[wraps],
            owner[wraps],
            [marks for marks, kept in zip(turn_marks, wraps, strict=True) if kept],
            xy[~wraps],
            owner[~wraps],
        )

    def _take_zones(
        self, start: tuple[float, float], bend_loss_mm: float | None, turns: _Turns
    ) -> tuple[FloatArray, FloatArray]:
        """Keep the costly zones that reach the search region, with their edges that meet
        its box, and sample their boundaries near the nodes (closer together near the
        start when ``bend_loss_mm`` is given), and where they meet the circles of ``turns``.

        Returns the samples (S, 2) and, per sample, its zone, ring, arc length along the
        ring and kind: 0 on an edge, 1 at a vertex, 2 where the edge meets an obstacle
        (S, 4).
        """
        self.zones: list[tuple[float, shapely.Geometry, FloatArray, FloatArray]] = []
        self.zone_ref: list[Zone] = []
        self.zone_edges: list[tuple[IntArray, FloatArray]] = []
        points: list[FloatArray] = []
        info: list[FloatArray] = []
        box = self.region.box()
        zones = self.prep.zones_for(box, self.radius)
        heaviest = 1.0 + sum(zone.extra for zone in zones)
        for zone in zones:
            edges = zone.edges
            if len(edges) == 0:
                continue
            lo_x = np.minimum(edges[:, 0], edges[:, 2])
            hi_x = np.maximum(edges[:, 0], edges[:, 2])
            lo_y = np.minimum(edges[:, 1], edges[:, 3])
            hi_y = np.maximum(edges[:, 1], edges[:, 3])
            near = (hi_x >= box[0]) & (lo_x <= box[2]) & (hi_y >= box[1]) & (lo_y <= box[3])
            # Paths here cross only the edges that meet the box; but the zone counts
            # wherever its inside reaches, also far from its kept edges, or with none
            # kept when the whole search region lies inside it.
            if not np.any(near) and not shapely.contains_xy(zone.inner, *start):
                continue
            edges = edges[near]
            bbox = np.array(shapely.bounds(zone.closed), dtype=np.float64)
            self.zone_edges.append((zone.edge_ring[near], zone.edge_start[near]))
            self.zones.append((zone.extra, zone.inner, edges, bbox))
            self.zone_ref.append(zone)
            if bend_loss_mm is not None:
                samples, ring_ids, params, vertex = _denser_near(
                    zone, self.spacing, start, bend_loss_mm, heaviest
                )
            else:
                samples, ring_ids, params, vertex = zone_samples(zone, self.spacing)
            keep = self.nodes.near(samples[:, 0], samples[:, 1], 0.0)
            if np.any(keep):
                points.append(samples[keep])
                info.append(
                    np.column_stack(
                        [
                            np.full(int(keep.sum()), len(self.zones) - 1, dtype=np.float64),
                            ring_ids[keep].astype(np.float64),
                            params[keep],
                            vertex[keep].astype(np.float64),
                        ]
                    )
                )
        cliffs, cliff_info = cliff_points(self, turns.circle_xy, turns.circle_rho)
        if len(cliffs):
            points.append(cliffs)
            info.append(cliff_info)
        return _joined_points(points), np.concatenate(info) if info else np.zeros((0, 4))

    def _gather_points(
        self,
        start: tuple[float, float],
        goal: tuple[float, float] | None,
        boundary: FloatArray,
        boundary_info: FloatArray,
        turns: _Turns,
    ) -> None:
        """The search's points: the start, the goal, the boundary samples in free space and
        the point-like turns near the nodes, with the owner, corner flag and freedom of each.
        """
        ends = np.array([start] if goal is None else [start, goal], dtype=np.float64)
        near = self.nodes.near(turns.point_xy[:, 0], turns.point_xy[:, 1], 0.0)
        corners, corner_owner = turns.point_xy[near], turns.point_owner[near]
        points = np.concatenate([ends, boundary, corners])
        free = self.points_free(points)
        free[0] = True
        # a boundary sample inside an obstacle is dropped; the others stay, marked
        first, end = len(ends), len(ends) + len(boundary)
        landed = free[first:end]
        if not np.all(landed):
            keep = np.ones(len(points), dtype=bool)
            keep[first:end] = landed
            points, free, boundary_info = points[keep], free[keep], boundary_info[landed]
        self.first_boundary = first
        self.end_boundary = first + len(boundary_info)
        self.boundary_info = boundary_info
        self.points = points
        self.point_free = free
        self.point_owner = np.concatenate(
            [np.full(self.end_boundary, -1, dtype=np.intp), corner_owner]
        )
        self.point_corner = np.zeros(len(points), dtype=bool)
        self.point_corner[first : self.end_boundary] = boundary_info[:, 3] != 0.0

    def _wrap_circles(self, turns: _Turns) -> Circles:
        """The circles near the nodes, with their free runs and the cost per mm around
        them; those with no free run are left out."""
        xy, rho = turns.circle_xy, turns.circle_rho
        near = self.nodes.near(xy[:, 0], xy[:, 1], rho)
        xy, rho = xy[near], rho[near]
        marks = [m for m, keep in zip(turns.circle_marks, near, strict=True) if keep]
        run_start, run_len, run_count, run_full = free_runs(self, xy, rho, marks)
        weight_const, weight_angles, weight_cum = circle_weights(self, xy, rho)
        circles = Circles(
            xy=xy,
            rho=rho,
            owner=turns.circle_owner[near],
            marks=marks,
            run_start=run_start,
            run_len=run_len,
            run_count=run_count,
            run_full=run_full,
            weight_const=weight_const,
            weight_angles=weight_angles,
            weight_cum=weight_cum,
            ang_tol=np.maximum(1e-9, 10.0 * TOLERANCE_MM / np.maximum(rho, 1e-9)),
        )
        alive = run_count > 0
        return circles if np.all(alive) else circles.where(alive)

    def _list_targets(self) -> None:
        """The search's targets: every circle with each winding, then every point."""
        xy, rho = self.circles.xy, self.circles.rho
        nc = len(rho)
        npnt = len(self.points)
        self.target_x = np.concatenate([xy[:, 0], xy[:, 0], self.points[:, 0]])
        self.target_y = np.concatenate([xy[:, 1], xy[:, 1], self.points[:, 1]])
        self.target_rho = np.concatenate([rho, rho, np.zeros(npnt)])
        self.target_wind = np.concatenate([np.ones(nc), -np.ones(nc), np.zeros(npnt)])
        self.target_circle = np.concatenate(
            [np.arange(nc), np.arange(nc), np.full(npnt, -1)]
        ).astype(np.intp)
        self.target_point = np.concatenate([np.full(2 * nc, -1), np.arange(npnt)]).astype(np.intp)

    # -- point and segment tests ------------------------------------------------

    def points_free(self, points: FloatArray) -> BoolArray:
        """Whether centres at ``points`` are in free space (touching allowed)."""
        x = np.ascontiguousarray(points[:, 0])
        y = np.ascontiguousarray(points[:, 1])
        xmin, ymin, xmax, ymax = self.rect
        free = (
            (x >= xmin - TOLERANCE_MM)
            & (x <= xmax + TOLERANCE_MM)
            & (y >= ymin - TOLERANCE_MM)
            & (y <= ymax + TOLERANCE_MM)
        )
        if len(x) == 0:
            return free
        free &= points_clear(
            x, y, self.disc_xy, self.disc_rho - TOLERANCE_MM, self.edges, self.radius - TOLERANCE_MM
        )
        if len(self.solids):
            free &= ~self.inside_solids(x, y)
        return free

    @functools.cached_property
    def table_corners(self) -> FloatArray:
        """The corners of the free table, and where the costly zones' edges cross its edge."""
        x_lo, y_lo, x_hi, y_hi = self.rect
        points = [np.array([[x_lo, y_lo], [x_hi, y_lo], [x_lo, y_hi], [x_hi, y_hi]])]
        for _, _, edges, _ in self.zones:
            if len(edges) == 0:
                continue
            for axis, value in ((0, x_lo), (0, x_hi), (1, y_lo), (1, y_hi)):
                a, b = edges[:, axis], edges[:, axis + 2]
                span = b - a
                crossing = (np.minimum(a, b) <= value) & (value <= np.maximum(a, b)) & (span != 0)
                t = (value - a[crossing]) / span[crossing]
                other = 1 - axis
                along = edges[crossing, other] + t * (
                    edges[crossing, other + 2] - edges[crossing, other]
                )
                low, high = (y_lo, y_hi) if axis == 0 else (x_lo, x_hi)
                keep = (along >= low) & (along <= high)
                found = np.zeros((int(keep.sum()), 2))
                found[:, axis] = value
                found[:, other] = along[keep]
                points.append(found)
        return np.concatenate(points)

    @functools.cached_property
    def _raw_box(self) -> tuple[FloatArray, FloatArray, FloatArray, FloatArray]:
        """One box around all raw (un-grown) edges."""
        e = self.raw_edges
        return (
            np.array([e[:, [0, 2]].min()]),
            np.array([e[:, [1, 3]].min()]),
            np.array([e[:, [0, 2]].max()]),
            np.array([e[:, [1, 3]].max()]),
        )

    def inside_solids(self, x: FloatArray, y: FloatArray) -> BoolArray:
        """Whether points lie inside the raw polygonal part of an obstacle, farther than
        `TOLERANCE_MM` from its outline: a point on the outline touches it. (A mover with a
        radius is kept that far from the outline by the grown edges anyway; a point mover,
        among obstacles its caller grew, meets the raw polygons alone, and a point on their
        outline may lie inside by the rounding of its coordinates.)"""
        out = np.zeros(len(x), dtype=bool)
        if len(self.solids) == 0 or len(x) == 0:
            return out
        b = self.solid_boxes
        i, j = box_pairs(x, y, x, y, b[:, 0], b[:, 1], b[:, 2], b[:, 3])
        if len(i):
            hit = shapely.contains_xy(self.solids[j], x[i], y[i])
            k = np.nonzero(hit)[0]
            if len(k) and self.radius <= TOLERANCE_MM:
                depth = shapely.distance(self.solid_rings[j[k]], shapely.points(x[i[k]], y[i[k]]))
                hit[k] = depth > TOLERANCE_MM
            out[i[hit]] = True
        return out

    @functools.cached_property
    def solid_rings(self) -> np.ndarray:
        """The outlines (rings) of the raw polygonal parts of the obstacles."""
        return np.asarray(shapely.boundary(self.solids))

    def segments_blocked(
        self, x0: FloatArray, y0: FloatArray, x1: FloatArray, y1: FloatArray
    ) -> BoolArray:
        """Whether segments between free points cut into an obstacle."""
        blocked = segments_meet(
            x0, y0, x1, y1, self.disc_xy, self.disc_rho, self.edges, self.radius, TOLERANCE_MM
        )
        if len(x0) and len(self.raw_edges) and len(self.solids):
            e = self.raw_edges
            lo_x, hi_x = np.minimum(x0, x1), np.maximum(x0, x1)
            lo_y, hi_y = np.minimum(y0, y1), np.maximum(y0, y1)
            i, _ = box_pairs(lo_x, lo_y, hi_x, hi_y, *self._raw_box)
            cand = i[~blocked[i]]
            if len(cand):
                dx = x1[cand] - x0[cand]
                dy = y1[cand] - y0[cand]
                rows, ta, tb = crossings(x0[cand], y0[cand], dx, dy, e)
                long = (tb - ta) * np.hypot(dx[rows], dy[rows]) > TOLERANCE_MM
                rows, ta, tb = rows[long], ta[long], tb[long]
                mid = (ta + tb) / 2.0
                inside = self.inside_solids(
                    x0[cand][rows] + mid * dx[rows], y0[cand][rows] + mid * dy[rows]
                )
                blocked[cand[rows[inside]]] = True
        return blocked

    def segments_cost(
        self, x0: FloatArray, y0: FloatArray, x1: FloatArray, y1: FloatArray, length: FloatArray
    ) -> FloatArray:
        """Weighted cost of segments through the costly zones."""
        cost = length.copy()
        if not self.zones or len(x0) == 0:
            return cost
        lo_x = np.minimum(x0, x1)
        hi_x = np.maximum(x0, x1)
        lo_y = np.minimum(y0, y1)
        hi_y = np.maximum(y0, y1)
        safe = np.maximum(length, 1e-300)
        for index, (_, _, edges, bbox) in enumerate(self.zones):
            cand = np.nonzero(
                (hi_x >= bbox[0]) & (lo_x <= bbox[2]) & (hi_y >= bbox[1]) & (lo_y <= bbox[3])
            )[0]
            if len(cand) == 0:
                continue
            dx = x1[cand] - x0[cand]
            dy = y1[cand] - y0[cand]
            rows, ta, tb = crossings(x0[cand], y0[cand], dx, dy, edges)
            mid = (ta + tb) / 2.0
            extra = self.zone_extra(
                index,
                x0[cand][rows] + mid * dx[rows],
                y0[cand][rows] + mid * dy[rows],
                dx[rows] / safe[cand][rows],
                dy[rows] / safe[cand][rows],
            )
            fraction = np.bincount(rows, weights=(tb - ta) * extra, minlength=len(cand))
            cost[cand] += fraction * length[cand]
        return cost

    def weight_at(self, x: FloatArray, y: FloatArray) -> FloatArray:
        """Cost per mm at points."""
        weight = np.ones(len(x))
        for extra, inner, _, _ in self.zones:
            weight += extra * shapely.contains_xy(inner, x, y)
        return weight

    def piece_weights(
        self, x: FloatArray, y: FloatArray, ux: FloatArray, uy: FloatArray
    ) -> FloatArray:
        """Cost per mm of straight pieces with midpoints (x, y) running along (ux, uy)."""
        weight = np.ones(len(x))
        for index in range(len(self.zones)):
            weight += self.zone_extra(index, x, y, ux, uy)
        return weight

    def zone_extra(
        self, index: int, x: FloatArray, y: FloatArray, ux: FloatArray, uy: FloatArray
    ) -> FloatArray:
        """The extra cost per mm that zone ``index`` adds to pieces (midpoints, unit directions).

        The boundary belongs to the zone: a piece inside it or on it pays. A piece on
        the boundary with free ground right beside it outside the zone is the limit of
        paths that skirt the zone, and pays nothing; where the table edge or an
        obstacle leaves no such room, a path cannot ride along the edge for free.
        """
        extra, inner, _, _ = self.zones[index]
        closed = self.zone_ref[index].closed
        inside = shapely.contains_xy(inner, x, y)
        edge = np.nonzero(~inside)[0]
        edge = edge[shapely.contains_xy(closed, x[edge], y[edge])]
        if len(edge):
            # Both sides at once; only points beside the zone need the free-space test.
            side = np.array([[1.0], [-1.0]])
            px = (x[edge] - side * _SKIRT_MM * uy[edge]).ravel()
            py = (y[edge] + side * _SKIRT_MM * ux[edge]).ravel()
            beside = np.nonzero(~shapely.contains_xy(closed, px, py))[0]
            room = np.zeros(2 * len(edge), dtype=bool)
            if len(beside):
                room[beside] = self.points_free(np.column_stack([px[beside], py[beside]]))
            inside[edge[~(room[: len(edge)] | room[len(edge) :])]] = True
        return cast(FloatArray, extra * inside)

    # -- arcs ----------------------------------------------------------------

    def arc_weight(self, circle: int, begin: FloatArray | float, delta: FloatArray) -> FloatArray:
        """Weighted angle of counter-clockwise arcs from ``begin`` over ``delta`` (``begin``
        one angle for all or one per arc)."""
        circles = self.circles
        const = circles.weight_const[circle]
        if not math.isnan(const):
            return cast(FloatArray, const * delta)
        return arc_weights(
            begin, delta, math.nan, circles.weight_angles[circle], circles.weight_cum[circle]
        ).reshape(np.shape(delta))

    def run_lookup(self, circle: IntArray, phi: FloatArray) -> tuple[IntArray, FloatArray]:
        """Free run containing each angle (-1 if none) and the offset into it."""
        if len(circle) == 0:
            return np.zeros(0, dtype=np.intp), np.zeros(0)
        circles = self.circles
        start = circles.run_start[circle]
        length = circles.run_len[circle]
        tol = circles.ang_tol[circle][:, None]
        offset = np.mod(phi[:, None] - start, TWO_PI)
        offset = np.where(offset > TWO_PI - tol, offset - TWO_PI, offset)
        inside = offset <= length + tol
        which = np.argmax(inside, axis=1)
        rows = np.arange(len(circle))
        found = inside[rows, which]
        return (
            np.where(found, which, -1).astype(np.intp),
            offset[rows, which],
        )


def _obstacles_near(
    prep: PreparedField, levels: IntArray, clearance: FloatArray, region: Region, radius: float
) -> IntArray:
    """The obstacles that block the query (grown by ``clearance``) near the search region
    and its box."""
    x, y = prep.centres[:, 0], prep.centres[:, 1]
    box = region.box()
    pad = 2.0 * radius + 1.0
    kept = (levels != LEVEL_IGNORED) & region.near(x, y, prep.bounds + clearance)
    kept &= (x + prep.bounds >= box[0] - pad) & (x - prep.bounds <= box[2] + pad)
    kept &= (y + prep.bounds >= box[1] - pad) & (y - prep.bounds <= box[3] + pad)
    return np.nonzero(kept)[0]


def _joined(parts: list[np.ndarray], dtype: type[np.generic]) -> np.ndarray:
    """The arrays end to end (an empty one of ``dtype`` when there are none)."""
    return np.concatenate(parts) if parts else np.zeros(0, dtype=dtype)


def _joined_points(parts: list[FloatArray]) -> FloatArray:
    """Point sets (N_i, 2) end to end, as one (N, 2) array."""
    return np.concatenate(parts) if parts else empty_points()


_DENSE_MM = 1.0
"""The closest spacing of boundary samples, next to the start of a reachable area."""


def _denser_near(
    zone: Zone, spacing: float, start: tuple[float, float], loss_mm: float, weight: float
) -> tuple[FloatArray, IntArray, FloatArray, BoolArray]:
    """Boundary samples of a zone, closer together near ``start``, ``spacing`` apart far off.

    Where a path refracts at a boundary, taking the nearest sample instead of the exact
    bend costs about ``(w / L) (s / 2)^2 / 2`` for a leg of length ``L`` at cost ``w``
    per mm and samples ``s`` apart. Legs from the start are the short ones: the
    spacing grows like the square root of the distance to it, ``s = k sqrt(L)``, which
    makes that loss ``w k^2 / 8``: at most ``loss_mm`` for every cost up to ``weight``
    when ``k = sqrt(8 loss_mm / weight)``.
    """
    points, ring_ids, params, vertex = zone_samples(zone, _DENSE_MM)
    if spacing <= _DENSE_MM or len(points) == 0:
        return points, ring_ids, params, vertex
    distance = np.hypot(points[:, 0] - start[0], points[:, 1] - start[1])
    step = np.clip(math.sqrt(8.0 * loss_mm / weight) * np.sqrt(distance), _DENSE_MM, spacing)
    # Count the samples in units of the local spacing along each ring; keep one a unit.
    moved = np.diff(params, prepend=params[0])
    new_ring = np.ones(len(points), dtype=bool)
    new_ring[1:] = ring_ids[1:] != ring_ids[:-1]
    units = np.floor(np.cumsum(np.where(new_ring, 0.0, moved) / step))
    first = new_ring.copy()
    first[1:] |= units[1:] != units[:-1]
    keep = first | vertex
    return points[keep], ring_ids[keep], params[keep], vertex[keep]
