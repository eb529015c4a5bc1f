"""What stands between groups on a neutral surface: enemy contact, groups across a
line of fire, and the obstacles a move meets.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence

import numpy as np
import shapely

from arbitre.rules import pathing
from arbitre.rules.answers import Margin
from arbitre.rules.choc_base_6.book import BLOCKING_TERRAIN
from arbitre.rules.choc_base_6.neutral_groups import (
    Group,
    Grouping,
    figure_radius,
    find_groups,
    group_footprints,
    reference_of,
)
from arbitre.rules.choc_base_6.options import ChocBase6Options, options_of
from arbitre.rules.geometry import centre_distance_mm, line_penetration_mm, segment_distances
from arbitre.rules.model import Figure, Scene, centres_mm, sigma_across_line, sigma_between
from arbitre.rules.terrain import terrain_costs, terrain_regions


def enemy_contact(
    scene: Scene, grouping: Grouping, group: Group, options: ChocBase6Options
) -> tuple[bool, Margin | None, list[str]]:
    """Whether a group touches an enemy group, with the margin of the nearest enemy.

    The group must have a reference figure. Enemy groups without one cannot be
    measured: those with a figure near enough that their reference could touch
    the group (within two contact distances of its reference) are returned by
    name, so that the answer can say it could not tell.
    """
    limit = options.contact_distance_mm
    own = reference_of(group)
    nearest: tuple[float, Group] | None = None
    unknown: list[str] = []
    for other in grouping.groups:
        if other.name == group.name or not scene.are_enemies(group.side, other.side):
            continue
        if other.reference is None:
            if min(centre_distance_mm(own.xy, f.xy) for f in other.figures) < 2 * limit:
                unknown.append(other.name)
            continue
        d = centre_distance_mm(own.xy, other.reference.xy)
        if nearest is None or d < nearest[0]:
            nearest = (d, other)
    if nearest is None:
        return False, None, unknown
    d, other = nearest
    sigma = sigma_between(own, reference_of(other))
    margin = Margin(f"contact {group.name}-{other.name}", abs(d - limit), sigma)
    return d < limit, margin, unknown


def line_blockers(
    scene: Scene, grouping: Grouping, shooter: Group, target: Group, options: ChocBase6Options
) -> tuple[list[str], Margin | None]:
    """Groups whose footprint the shooter-target segment crosses, and the deciding margin."""
    p, q = reference_of(shooter).xy, reference_of(target).xy
    shooting, shot = reference_of(shooter), reference_of(target)
    footprints = group_footprints(scene)
    others = [i for i, g in enumerate(grouping.groups) if g.name not in (shooter.name, target.name)]
    if not others:
        return [], None
    segment = shapely.LineString([p, q])
    # Each group's hull lies within the circle around its discs and comes at least as near
    # the line as its nearest disc: only groups that circle reaches can cross the line, and
    # only those whose circle is nearer than the nearest disc overall can be the nearest.
    low, high = _hull_distance_bounds(p, q, [footprints.discs[i] for i in others])
    reached = [k for k, bound in enumerate(low) if bound <= 0.0]
    apart = np.flatnonzero(low > 0.0)
    hulls = footprints.hulls([others[k] for k in reached])
    crossing = dict(zip(reached, shapely.intersects(segment, hulls), strict=True))
    gaps = dict(zip(reached, shapely.distance(segment, hulls), strict=True))
    best = min([gaps[k] for k in reached if not crossing[k]] + high[apart].tolist() + [np.inf])
    near = [int(k) for k in apart if low[k] <= best]
    near_gaps = shapely.distance(segment, footprints.hulls([others[k] for k in near]))
    gaps.update(zip(near, near_gaps, strict=True))
    blockers: list[tuple[str, float, float]] = []
    nearest: tuple[float, float] | None = None
    for k, index in enumerate(others):
        if k not in gaps:
            continue
        group = grouping.groups[index]
        # the group's figure nearest the line stands for it (its edge decides)
        to_line = segment_distances(p, q, centres_mm(group.figures))
        sigma = sigma_across_line(shooting, shot, group.figures[int(np.argmin(to_line))])
        if crossing.get(k, False):
            depth = line_penetration_mm(p, q, footprints.discs[index])
            blockers.append((group.name, depth, sigma))
        elif nearest is None or gaps[k] < nearest[0]:
            nearest = (float(gaps[k]), sigma)
    if blockers:
        name, depth, sigma = max(blockers, key=lambda item: item[1] - 2 * item[2])
        return [b[0] for b in blockers], Margin(f"line {name}", depth, sigma)
    if nearest is not None:
        return [], Margin("line", nearest[0], nearest[1])
    return [], None


def _hull_distance_bounds(
    p: np.ndarray, q: np.ndarray, groups_of_discs: Sequence[np.ndarray]
) -> tuple[np.ndarray, np.ndarray]:
    """Bounds on the distance from the segment p-q to the hull of each group of discs:
    from the circle around the group (its discs' mean centre, reaching its farthest disc's
    edge) and from its nearest disc. Both 0 when the segment meets them."""
    sizes = [len(d) for d in groups_of_discs]
    if not sizes:
        return np.zeros(0), np.zeros(0)
    discs = np.concatenate(groups_of_discs)
    owner = np.repeat(np.arange(len(sizes)), sizes)
    centres = np.array([d[:, :2].mean(axis=0) for d in groups_of_discs])
    reach = np.zeros(len(sizes))
    np.maximum.at(reach, owner, np.hypot(*(discs[:, :2] - centres[owner]).T) + discs[:, 2])
    low = np.maximum(segment_distances(p, q, centres) - reach, 0.0)
    high = np.full(len(sizes), np.inf)
    np.minimum.at(high, owner, np.maximum(segment_distances(p, q, discs[:, :2]) - discs[:, 2], 0))
    return low, high


def move_field(
    scene: Scene, moving_ids: set[str], mover: Figure, options: ChocBase6Options
) -> pathing.Field:
    """The obstacles a CB6 move meets: other groups, impassable ground, costly ground.

    ``options`` are the scene's (`options_of`).
    """
    grouping = find_groups(scene)
    whole, polygons, costly = _standing_obstacles(scene)
    hulls = []
    for group, hull in zip(grouping.groups, whole, strict=True):
        staying = [f for f in group.figures if f.id not in moving_ids]
        if not staying:
            continue
        if len(staying) < len(group.figures):  # the group a figure splits from
            discs = np.array([[f.x_mm, f.y_mm, figure_radius(f, options)] for f in staying])
            hull = pathing.DiscHull(discs, group.name)
        hulls.append(hull)
    return pathing.Field(
        width_mm=scene.table.width_mm,
        depth_mm=scene.table.depth_mm,
        hulls=tuple(hulls),
        polygons=polygons,
        costly=costly,
    )


@functools.lru_cache(maxsize=16)
def _standing_obstacles(
    scene: Scene,
) -> tuple[
    tuple[pathing.DiscHull, ...],
    tuple[pathing.BlockingPolygon, ...],
    tuple[pathing.CostlyRegion, ...],
]:
    """Every group's footprint as an obstacle (in `find_groups` order), and the terrain
    that blocks or (under the house rule ``terrain_cost: double``) costs a CB6 move, made once per
    scene."""
    groups = find_groups(scene).groups
    footprints = group_footprints(scene).discs
    hulls = tuple(
        pathing.DiscHull(discs, group.name) for group, discs in zip(groups, footprints, strict=True)
    )
    costs = terrain_costs(options_of(scene).terrain_cost)
    polygons, costly = terrain_regions(scene, BLOCKING_TERRAIN, costs)
    return hulls, polygons, costly
