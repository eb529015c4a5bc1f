"""The scene of one query.

The obstacles, circles, points and costly-zone boundaries that a path of bounded
cost can meet, with vectorised tests of points and segments against them.
"""

from __future__ import annotations

import functools
import math
from typing import cast

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


class QueryScene:
    """Obstacles, circles, points and zones that matter for one query."""

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
        nodes = region if nodes is None else nodes
        self.nodes = nodes
        self.prep = prep
        self.spacing = spacing
        self.radius = radius
        self.rect = rect
        self.region = region
        self.levels = levels
        clearance = np.where(levels == LEVEL_GROWN, radius, 0.0)
        box = region.box()
        pad = 2.0 * radius + 1.0
        kept = (levels != LEVEL_IGNORED) & region.near(
            prep.centres[:, 0], prep.centres[:, 1], prep.bounds + clearance
        )
        kept &= (prep.centres[:, 0] + prep.bounds >= box[0] - pad) & (
            prep.centres[:, 0] - prep.bounds <= box[2] + pad
        )
        kept &= (prep.centres[:, 1] + prep.bounds >= box[1] - pad) & (
            prep.centres[:, 1] - prep.bounds <= box[3] + pad
        )
        self.kept = np.nonzero(kept)[0]
        self.convex = np.zeros(len(prep.sources) + 2, dtype=bool)
        full_edges = radius > 10.0 * TOLERANCE_MM

        disc_xy: list[FloatArray] = []
        disc_rho: list[FloatArray] = []
        disc_owner: list[IntArray] = []
        circ_xy: list[FloatArray] = []
        circ_rho: list[FloatArray] = []
        circ_owner: list[IntArray] = []
        circ_marks: list[FloatArray] = []
        point_xy: list[FloatArray] = []
        point_owner: list[int] = []
        edge_full: list[FloatArray] = []
        edge_full_owner: list[IntArray] = []
        edge_raw: list[FloatArray] = []
        solids: list[shapely.Geometry] = []
        for index in self.kept:
            obstacle = prep.obstacle(int(index))
            self.convex[index] = obstacle.convex
            c = float(clearance[index])
            if obstacle.solid is not None:
                solids.append(obstacle.solid)
            if len(obstacle.disc_r):
                rho = obstacle.disc_r + c
                disc_xy.append(obstacle.disc_xy)
                disc_rho.append(rho)
                disc_owner.append(np.full(len(rho), index, dtype=np.intp))
                for k in range(len(rho)):
                    if rho[k] > 10.0 * TOLERANCE_MM:
                        circ_xy.append(obstacle.disc_xy[k])
                        circ_rho.append(np.array([rho[k]]))
                        circ_owner.append(np.array([index], dtype=np.intp))
                        circ_marks.append(obstacle.disc_normals[k])
                    else:
                        point_xy.append(obstacle.disc_xy[k])
                        point_owner.append(int(index))
            if len(obstacle.corners):
                if c > 10.0 * TOLERANCE_MM:
                    for k in range(len(obstacle.corners)):
                        circ_xy.append(obstacle.corners[k])
                        circ_rho.append(np.array([c]))
                        circ_owner.append(np.array([index], dtype=np.intp))
                        circ_marks.append(obstacle.corner_normals[k])
                else:
                    for k in range(len(obstacle.corners)):
                        point_xy.append(obstacle.corners[k])
                        point_owner.append(int(index))
            if len(obstacle.edges):
                if levels[index] == LEVEL_GROWN and full_edges:
                    edge_full.append(obstacle.edges)
                    edge_full_owner.append(np.full(len(obstacle.edges), index, dtype=np.intp))
                else:
                    edge_raw.append(obstacle.edges)

        self.disc_xy = np.concatenate(disc_xy) if disc_xy else empty_points()
        self.disc_rho = np.concatenate(disc_rho) if disc_rho else np.zeros(0)
        self.disc_owner = np.concatenate(disc_owner) if disc_owner else np.zeros(0, dtype=np.intp)
        self.edges = np.concatenate(edge_full) if edge_full else np.zeros((0, 4))
        self.edge_owner = (
            np.concatenate(edge_full_owner) if edge_full_owner else np.zeros(0, dtype=np.intp)
        )
        self.raw_edges = np.concatenate(edge_raw) if edge_raw else np.zeros((0, 4))
        self.solids = np.empty(len(solids), dtype=object)
        self.solids[:] = solids
        self.solid_boxes = shapely.bounds(self.solids) if solids else np.zeros((0, 4))

        # zones and their boundary points
        self.zones: list[tuple[float, shapely.Geometry, FloatArray, FloatArray]] = []
        self.zone_ref: list[Zone] = []
        self.zone_edges: list[tuple[IntArray, FloatArray]] = []
        bpoints: list[FloatArray] = []
        binfo: list[FloatArray] = []
        region_point = (start[0], start[1])
        zones = prep.zones_for(box, radius)
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
            if not np.any(near) and not shapely.contains_xy(zone.inner, *region_point):
                continue
            edges = edges[near]
            bbox = np.array(shapely.bounds(zone.closed), dtype=np.float64)
            self.zone_edges.append((zone.edge_ring[near], zone.edge_start[near]))
            self.zones.append((zone.extra, zone.inner, edges, bbox))
            self.zone_ref.append(zone)
            if bend_loss_mm is not None:
                samples, ring_ids, params, vertex = _denser_near(
                    zone, spacing, start, bend_loss_mm, heaviest
                )
            else:
                samples, ring_ids, params, vertex = zone_samples(zone, spacing)
            keep = nodes.near(samples[:, 0], samples[:, 1], 0.0)
            if np.any(keep):
                bpoints.append(samples[keep])
                binfo.append(
                    np.column_stack(
                        [
                            np.full(int(keep.sum()), len(self.zones) - 1, dtype=np.float64),
                            ring_ids[keep].astype(np.float64),
                            params[keep],
                            vertex[keep].astype(np.float64),
                        ]
                    )
                )

        cliffs = cliff_points(self, circ_xy, circ_rho)
        if len(cliffs[0]):
            bpoints.append(cliffs[0])
            binfo.append(cliffs[1])

        # points: start, goal, boundary samples, point-like obstacle nodes
        head = [np.array([start])]
        if goal is not None:
            head.append(np.array([goal]))
        self.first_boundary = len(head)
        boundary = np.concatenate(bpoints) if bpoints else empty_points()
        self.boundary_info = np.concatenate(binfo) if binfo else np.zeros((0, 4))
        obstacle_points = np.array(point_xy, dtype=np.float64).reshape(-1, 2)
        keep_points = nodes.near(obstacle_points[:, 0], obstacle_points[:, 1], 0.0)
        obstacle_points = obstacle_points[keep_points]
        obstacle_point_owner = np.array(point_owner, dtype=np.intp)[keep_points]
        self.points = np.concatenate(head + [boundary, obstacle_points])
        self.end_boundary = self.first_boundary + len(boundary)
        self.point_owner = np.concatenate(
            [np.full(self.end_boundary, -1, dtype=np.intp), obstacle_point_owner]
        )
        self.point_corner = np.zeros(len(self.points), dtype=bool)
        self.point_corner[self.first_boundary : self.end_boundary] = self.boundary_info[:, 3] != 0.0
        self.point_free = self.points_free(self.points)
        self.point_free[0] = True
        if not np.all(self.point_free[self.first_boundary : self.end_boundary]):
            good = np.concatenate(
                [
                    np.ones(self.first_boundary, dtype=bool),
                    self.point_free[self.first_boundary : self.end_boundary],
                    np.ones(len(obstacle_points), dtype=bool),
                ]
            )
            self.points = self.points[good]
            self.point_owner = self.point_owner[good]
            self.point_corner = self.point_corner[good]
            self.boundary_info = self.boundary_info[
                self.point_free[self.first_boundary : self.end_boundary]
            ]
            self.end_boundary = self.first_boundary + len(self.boundary_info)
            self.point_free = self.point_free[good]

        # circles
        cxy = np.array(circ_xy, dtype=np.float64).reshape(-1, 2)
        crho = np.concatenate(circ_rho) if circ_rho else np.zeros(0)
        cowner = np.concatenate(circ_owner) if circ_owner else np.zeros(0, dtype=np.intp)
        near_c = nodes.near(cxy[:, 0], cxy[:, 1], crho)
        self.circ_xy = cxy[near_c]
        self.circ_rho = crho[near_c]
        self.circ_owner = cowner[near_c]
        self.circ_marks = [m for m, keep in zip(circ_marks, near_c, strict=True) if keep]
        self.run_start, self.run_len, self.run_count, self.run_full = free_runs(self)
        self.weight_const, self.weight_angles, self.weight_cum = circle_weights(self)
        alive = self.run_count > 0
        if not np.all(alive):
            self.circ_xy = self.circ_xy[alive]
            self.circ_rho = self.circ_rho[alive]
            self.circ_owner = self.circ_owner[alive]
            self.circ_marks = [m for m, keep in zip(self.circ_marks, alive, strict=True) if keep]
            self.run_start = self.run_start[alive]
            self.run_len = self.run_len[alive]
            self.run_count = self.run_count[alive]
            self.run_full = self.run_full[alive]
            self.weight_const = self.weight_const[alive]
            self.weight_angles = [
                w for w, keep in zip(self.weight_angles, alive, strict=True) if keep
            ]
            self.weight_cum = [w for w, keep in zip(self.weight_cum, alive, strict=True) if keep]
        self.ang_tol = np.maximum(1e-9, 10.0 * TOLERANCE_MM / np.maximum(self.circ_rho, 1e-9))

        # search targets: circles with both windings, then points
        nc = len(self.circ_rho)
        npnt = len(self.points)
        self.target_x = np.concatenate([self.circ_xy[:, 0], self.circ_xy[:, 0], self.points[:, 0]])
        self.target_y = np.concatenate([self.circ_xy[:, 1], self.circ_xy[:, 1], self.points[:, 1]])
        self.target_rho = np.concatenate([self.circ_rho, self.circ_rho, np.zeros(npnt)])
        self.target_wind = np.concatenate([np.ones(nc), -np.ones(nc), np.zeros(npnt)])
        self.target_circle = np.concatenate(
            [np.arange(nc), np.arange(nc), np.full(npnt, -1)]
        ).astype(np.intp)
        self.target_point = np.concatenate([np.full(2 * nc, -1), np.arange(npnt)]).astype(np.intp)
        self.departures: dict[tuple[int, int], Departures] = {}
        # the columns of each fan-out the search's compiled step reads, by its id
        self.packed: dict[int, tuple[FloatArray, IntArray, IntArray]] = {}

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
        const = self.weight_const[circle]
        if not math.isnan(const):
            return cast(FloatArray, const * delta)
        return arc_weights(
            begin, delta, math.nan, self.weight_angles[circle], self.weight_cum[circle]
        ).reshape(np.shape(delta))

    def run_lookup(self, circle: IntArray, phi: FloatArray) -> tuple[IntArray, FloatArray]:
        """Free run containing each angle (-1 if none) and the offset into it."""
        if len(circle) == 0:
            return np.zeros(0, dtype=np.intp), np.zeros(0)
        start = self.run_start[circle]
        length = self.run_len[circle]
        tol = self.ang_tol[circle][:, None]
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
