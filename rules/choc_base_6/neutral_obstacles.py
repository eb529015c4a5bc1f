"""What stands between groups on a neutral surface: enemy contact, groups across a
line of fire, and the obstacles a move meets.
"""

from __future__ import annotations

import numpy as np
import shapely

from arbitre.rules import pathing
from arbitre.rules.answers import Margin, combined_sigma
from arbitre.rules.choc_base_6.book import BLOCKING_TERRAIN, COSTLY_TERRAIN, ChocBase6Options
from arbitre.rules.choc_base_6.neutral_groups import (
    Group,
    Grouping,
    figure_radius,
    footprint_discs,
    group_footprints,
    reference_of,
)
from arbitre.rules.geometry import centre_distance_mm, line_penetration_mm
from arbitre.rules.model import Figure, Scene
from arbitre.rules.terrain import terrain_regions


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
    sigma = combined_sigma(own.sigma_mm, reference_of(other).sigma_mm)
    margin = Margin(f"contact {group.name}-{other.name}", abs(d - limit), sigma)
    return d < limit, margin, unknown


def line_blockers(
    scene: Scene, grouping: Grouping, shooter: Group, target: Group, options: ChocBase6Options
) -> tuple[list[str], Margin | None]:
    """Groups whose footprint the shooter-target segment crosses, and the deciding margin."""
    p, q = reference_of(shooter).xy, reference_of(target).xy
    line_sigma = max(reference_of(shooter).sigma_mm, reference_of(target).sigma_mm)
    footprints = group_footprints(scene)
    others = [i for i, g in enumerate(grouping.groups) if g.name not in (shooter.name, target.name)]
    if not others:
        return [], None
    segment = shapely.LineString([p, q])
    hulls = footprints.hulls[others]
    crossing = shapely.intersects(segment, hulls)
    blockers: list[tuple[str, float, float]] = []
    nearest: tuple[float, float] | None = None
    for index, crosses, gap in zip(others, crossing, shapely.distance(segment, hulls), strict=True):
        group = grouping.groups[index]
        sigma = combined_sigma(line_sigma, max(f.sigma_mm for f in group.figures))
        if crosses:
            depth = line_penetration_mm(p, q, footprints.discs[index])
            blockers.append((group.name, depth, sigma))
        elif nearest is None or gap < nearest[0]:
            nearest = (float(gap), sigma)
    if blockers:
        name, depth, sigma = max(blockers, key=lambda item: item[1] - 2 * item[2])
        return [b[0] for b in blockers], Margin(f"line {name}", depth, sigma)
    if nearest is not None:
        return [], Margin("line", nearest[0], nearest[1])
    return [], None


def move_field(
    scene: Scene,
    grouping: Grouping,
    moving_ids: set[str],
    mover: Figure,
    options: ChocBase6Options,
) -> pathing.Field:
    """The obstacles a CB6 move meets: other groups, impassable ground, costly ground."""
    hulls = []
    for group in grouping.groups:
        staying = [f for f in group.figures if f.id not in moving_ids]
        if not staying:
            continue
        if len(staying) < len(group.figures):  # the group a figure splits from
            discs = np.array([[f.x_mm, f.y_mm, figure_radius(f, options)] for f in staying])
        else:
            discs = footprint_discs(group, options)
        hulls.append(pathing.DiscHull(discs, group.name))
    polygons, costly = terrain_regions(scene, BLOCKING_TERRAIN, COSTLY_TERRAIN)
    return pathing.Field(
        width_mm=scene.table.width_mm,
        depth_mm=scene.table.depth_mm,
        hulls=tuple(hulls),
        polygons=polygons,
        costly=costly,
    )
