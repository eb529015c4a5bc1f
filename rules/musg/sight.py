"""Line of sight and cover: the shadows cast on a target from the shooter's eye."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import shapely

from arbitre.rules.answers import Margin
from arbitre.rules.model import DISC_QUAD_SEGMENTS, BaseShape, Figure, Scene, disc
from arbitre.rules.musg.bases import base_of, scene_footprints
from arbitre.rules.musg.book import COVER_TERRAIN, NUMBERS
from arbitre.rules.musg.options import MusgOptions

_INSCRIBED = math.cos(math.pi / (4 * DISC_QUAD_SEGMENTS))  # apothem / radius of a disc polygon


@dataclass(frozen=True, slots=True)
class Sight:
    """What hides a target from a shooter's eye.

    ``hidden_fraction`` is the part of the angle the target's base spans at the eye
    covered by shadows; ``hidden_by`` gives each occluder's own share;
    ``obstacle_distances_mm`` the distance from the shooter to each occluder, nearest
    first; ``blocked`` whether sight-blocking terrain alone hides it whole.
    """

    hidden_fraction: float
    hidden_by: dict[str, float]
    obstacle_distances_mm: dict[str, float]
    blocked: bool
    blockers: tuple[str, ...]
    width_mm: float
    blocker_overlap_mm: float

    def margin(self, sigma_mm: float) -> Margin:
        """Margin of the cover verdict (half the target hidden), or of the sight verdict when
        buildings hide it whole, mm at the target."""
        if self.blocked:
            return Margin("hidden whole", self.blocker_overlap_mm, sigma_mm)
        hidden_mm = self.hidden_fraction * self.width_mm
        half_mm = NUMBERS.cover_fraction * self.width_mm
        return Margin("half-hidden", abs(hidden_mm - half_mm), sigma_mm)


def angular_interval(
    eye: np.ndarray, ahead: np.ndarray, geometry: shapely.Geometry
) -> tuple[float, float]:
    """Angles (radians) of a geometry's extreme points seen from ``eye``, from direction ``ahead``.

    Parameters
    ----------
    eye : (2,) table mm
    ahead : (2,) unit vector of the sight line
    geometry : a geometry lying ahead of the eye (within 90 degrees of ``ahead``)

    >>> low, high = angular_interval(np.zeros(2), np.array([1.0, 0.0]),
    ...                              shapely.box(10, -10, 20, 10))
    >>> round(math.degrees(low), 1), round(math.degrees(high), 1)
    (-45.0, 45.0)
    """
    points = shapely.get_coordinates(geometry) - eye
    along = points @ ahead
    across = points @ np.array([-ahead[1], ahead[0]])
    angles = np.arctan2(across, along)
    return float(angles.min()), float(angles.max())


def _union_length(intervals: Sequence[tuple[float, float]]) -> float:
    """Total length of a union of intervals.

    >>> _union_length([(0.0, 2.0), (1.0, 3.0), (5.0, 6.0)])
    4.0
    """
    total = 0.0
    end = -math.inf
    for low, high in sorted(intervals):
        if high <= end:
            continue
        total += high - max(low, end)
        end = high
    return total


def _merged(intervals: Sequence[tuple[float, float]]) -> list[tuple[float, float]]:
    """A union of intervals as disjoint sorted intervals.

    >>> _merged([(0.0, 2.0), (1.0, 3.0), (5.0, 6.0)])
    [(0.0, 3.0), (5.0, 6.0)]
    """
    merged: list[tuple[float, float]] = []
    for low, high in sorted(intervals):
        if merged and low <= merged[-1][1]:
            merged[-1] = (merged[-1][0], max(merged[-1][1], high))
        else:
            merged.append((low, high))
    return merged


def line_of_sight(scene: Scene, shooter: Figure, target: Figure, options: MusgOptions) -> Sight:
    """Shadows cast on the target from the shooter's eye (its centre), in plan: the book
    gives no rule for sight from high ground (``attrs.elevation_mm`` plays no part)."""
    eye = shooter.xy
    shapes = scene_footprints(scene, options)
    target_shape = shapes.of(target, options)
    shooter_shape = shapes.of(shooter, options)
    offset = target.xy - eye
    length = float(np.hypot(*offset))
    empty = Sight(0.0, {}, {}, False, (), 0.0, 0.0)
    if length <= 0.0 or target_shape.contains(shapely.Point(eye)):
        return empty
    ahead = offset / length
    target_base = base_of(target, options)
    if target_base.shape is BaseShape.ROUND:  # exact tangents, not the polygon's corners
        half = math.asin(min(1.0, target_base.radius_mm / length))
        t_low, t_high = -half, half
    else:
        t_low, t_high = angular_interval(eye, ahead, target_shape)
    span = t_high - t_low
    # The sight cone reaches the target's exact tangents: a round base is widened to the
    # polygon circumscribing its circle.
    seen_shape = target_shape
    if target_base.shape is BaseShape.ROUND:
        seen_shape = disc(target.x_mm, target.y_mm, target_base.radius_mm / _INSCRIBED)
    cone = (
        shapely.convex_hull(shapely.union(shapely.Point(eye), seen_shape))
        .difference(target_shape)
        .difference(shooter_shape)
    )
    occluders: list[tuple[str, shapely.Geometry, bool]] = []
    for feature in scene.terrain_of(COVER_TERRAIN):
        if feature.geometry.intersects(shooter_shape):
            continue  # a shooter looks over what it stands at
        occluders.append((feature.id, feature.geometry, feature.kind in options.sight_blockers))
    if options.figures_give_cover:
        near = shapes.near(cone.bounds)  # only figures the cone reaches cast a shadow
        near[near] = shapely.intersects(cone, shapes.polygons[near])
        occluders.extend(
            (f.id, shape, False)
            for f, shape, close in zip(shapes.figures, shapes.polygons, near, strict=True)
            if close and f.id not in (shooter.id, target.id)
        )
    shadows: dict[str, tuple[float, float]] = {}
    distances: dict[str, float] = {}
    blocking: list[tuple[float, float]] = []
    blockers: list[str] = []
    for ident, geometry, blocks in occluders:
        part = geometry.intersection(cone)
        if part.is_empty:
            continue
        low, high = angular_interval(eye, ahead, part)
        low, high = max(low, t_low), min(high, t_high)
        if high - low <= 1e-12:
            continue
        shadows[ident] = (low, high)
        if options.measure == "edge":
            distances[ident] = float(shapely.distance(shooter_shape, part))
        else:
            distances[ident] = float(shapely.distance(shapely.Point(eye), part))
        if blocks:
            blocking.append((low, high))
            blockers.append(ident)
    hidden = _union_length(list(shadows.values())) / span if span > 0 else 0.0
    blocked = bool(blocking) and _union_length(blocking) >= span * (1.0 - 1e-9)
    width_mm = 2.0 * length * math.tan(span / 2.0)
    overlap_mm = 0.0
    if blocked:
        # How far the blockers' shadow reaches past the target's sides, seen in a wedge
        # one target-width wider on each side (mm across the line at the target).
        wide = shapely.convex_hull(
            shapely.union(shapely.Point(eye), target_shape.buffer(width_mm))
        ).difference(target_shape)
        spans = []
        for ident, geometry, blocks in occluders:
            if blocks and ident in blockers:
                spans.append(angular_interval(eye, ahead, geometry.intersection(wide)))
        covering = _merged(spans)
        beyond = [
            min(t_low - low, high - t_high)
            for low, high in covering
            if low <= t_low + 1e-12 and high >= t_high - 1e-12
        ]
        overlap_mm = length * math.tan(max(beyond, default=0.0))
    order = sorted(distances, key=lambda k: distances[k])
    return Sight(
        hidden_fraction=min(1.0, hidden),
        hidden_by={k: (shadows[k][1] - shadows[k][0]) / span for k in order},
        obstacle_distances_mm={k: distances[k] for k in order},
        blocked=blocked,
        blockers=tuple(blockers),
        width_mm=width_mm,
        blocker_overlap_mm=overlap_mm,
    )


def figures_on_line(
    scene: Scene, shooter: Figure, target: Figure, options: MusgOptions
) -> tuple[str, ...]:
    """Figures whose base the line shooter -> target crosses before the target, nearest first."""
    line = shapely.LineString([shooter.xy, target.xy])
    shapes = scene_footprints(scene, options)
    hits = shapely.intersects(line, shapes.polygons)
    crossed: list[tuple[float, str]] = []
    for figure, shape, hit in zip(shapes.figures, shapes.polygons, hits, strict=True):
        if not hit or figure.id in (shooter.id, target.id):
            continue
        crossed.append((float(line.project(shape.centroid)), figure.id))
    return tuple(ident for _, ident in sorted(crossed))
