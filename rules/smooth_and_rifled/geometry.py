"""Smooth & Rifled geometry: fire arcs, lines of fire, cover, sight in woods, templates.

Table millimetres throughout; points are float64 arrays of shape (2,). Footprints
are the shapely polygons of `arbitre.rules.smooth_and_rifled.bases.footprint`.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

import numpy as np
import shapely

from arbitre.rules.answers import at_most
from arbitre.rules.geometry import segment_distances
from arbitre.rules.model import Figure, Scene, TerrainFeature, TerrainKind, sigma_across_line
from arbitre.rules.smooth_and_rifled.bases import base_of, footprints, gaps_of, index_of
from arbitre.rules.smooth_and_rifled.book import NUMBERS
from arbitre.rules.smooth_and_rifled.groups import is_mounted
from arbitre.rules.smooth_and_rifled.options import SmoothAndRifledOptions

FAR_MM = 1e5
"""Radius of the sectors that stand for unbounded arcs."""
ARC_STEP_DEG = 1.0


def sector(
    apex: np.ndarray, facing_deg: float, arc_deg: float, radius_mm: float
) -> shapely.Polygon:
    """The sector of a disc around ``apex``: ``arc_deg`` wide, centred on ``facing_deg``.

    >>> half = sector(np.zeros(2), 90.0, 180.0, 10.0)
    >>> round(half.area / (math.pi * 100 / 2), 3), half.bounds[1]
    (1.0, 0.0)
    """
    steps = max(2, math.ceil(arc_deg / ARC_STEP_DEG))
    angles = np.radians(np.linspace(facing_deg - arc_deg / 2, facing_deg + arc_deg / 2, steps + 1))
    rim = np.column_stack([np.cos(angles), np.sin(angles)]) * radius_mm + apex
    return shapely.Polygon(np.vstack([apex[None, :], rim]))


def overlap_margin_mm(shape: shapely.Geometry, region: shapely.Geometry) -> float:
    """Signed margin of "``shape`` is at least partly inside ``region``".

    Outside: minus the gap between them. Inside: how deep the shape's deepest
    vertex lies inside the region (the shift that would take the shape out).

    >>> square = shapely.box(0, 0, 10, 10)
    >>> overlap_margin_mm(shapely.box(8, 0, 12, 4), square)
    2.0
    >>> overlap_margin_mm(shapely.box(13, 0, 14, 1), square)
    -3.0
    """
    if not shape.intersects(region):
        return -float(shape.distance(region))
    points = shapely.points(shapely.get_coordinates(shape))
    inside = points[shapely.contains(region, points) | shapely.touches(region, points)]
    if len(inside) == 0:
        return 0.0
    return float(np.max(shapely.distance(region.boundary, inside)))


def in_arc(viewer: Figure, target_print: shapely.Geometry, arc_deg: float) -> tuple[bool, float]:
    """Whether a footprint lies at least partly inside a figure's arc, and the margin (mm)."""
    wedge = sector(viewer.xy, viewer.facing_deg, arc_deg, FAR_MM)
    margin = overlap_margin_mm(target_print, wedge)
    return at_most(0.0, margin), abs(margin)


def penetration_mm(p: np.ndarray, q: np.ndarray, shape: shapely.Geometry) -> float:
    """How far a shape crossing the line p-q must shift sideways to clear it.

    >>> penetration_mm(np.zeros(2), np.array([100.0, 0.0]), shapely.box(40, -2, 60, 6))
    2.0
    """
    direction = q - p
    normal = np.array([-direction[1], direction[0]]) / float(np.hypot(*direction))
    side = (shapely.get_coordinates(shape) - p) @ normal
    return float(min(np.max(side), np.max(-side)))


@dataclass(frozen=True, slots=True)
class LineOfFire:
    """What stands on the line between two figures' centres."""

    blocked_by: tuple[str, ...]
    margin_mm: float
    """Depth of the worst blocker, or clearance of the nearest figure when clear."""
    sigma_mm: float


def line_of_fire(
    scene: Scene,
    options: SmoothAndRifledOptions,
    shooter: Figure,
    target: Figure,
    friends: Iterable[str] = (),
) -> LineOfFire:
    """Figures and buildings between shooter and target (centre to centre).

    A figure in contact with the shooter does not block, nor do the ``friends``
    (the members of a group firing together); a building blocks unless one of the
    two stands in it. Under ``cavalry_behind_foot: over_foot`` figures on foot do not
    block the line to a mounted target.
    """
    p, q = shooter.xy, target.xy
    prints = footprints(scene)
    gaps = gaps_of(scene).row(index_of(scene, shooter.id))
    # a gun shelters its gunners rather than hiding them (Artillerie: « le canon fournit un
    # couvert léger »): it does not block the line to those at their post
    served = served_gun(scene, target)
    if served is not None and not at_most(
        crew_gap_mm(scene, target, served), options.mm(NUMBERS.crew_cm)
    ):
        served = None
    skip = {shooter.id, target.id, *friends, *([served.id] if served else [])}
    over_foot = options.cavalry_behind_foot == "over_foot" and is_mounted(target)
    others = [
        i
        for i, f in enumerate(scene.figures)
        if f.id not in skip
        and gaps[i] > options.contact_tolerance_mm
        and not (over_foot and not is_mounted(f))
    ]
    # A base comes no nearer the line than its centre less its reach, and no farther than
    # its centre: only those that might cross it or be the nearest are measured.
    if others:
        centres = np.array([scene.figures[i].xy for i in others])
        reaches = np.array([base_of(scene.figures[i]).radius_mm for i in others])
        to_centres = segment_distances(p, q, centres)
        keep = to_centres - reaches <= to_centres.min()
        others = [i for i, kept in zip(others, keep, strict=True) if kept]
    blockers: list[tuple[str, float, float]] = []
    nearest: tuple[float, float] | None = None
    if float(np.hypot(*(q - p))) > 0.0:
        segment = shapely.LineString([p, q])
        if others:
            shapes = prints[others]
            crossing = shapely.intersects(segment, shapes)
            distances = shapely.distance(segment, shapes)
            for i, crosses, gap in zip(others, crossing, distances, strict=True):
                figure = scene.figures[i]
                sigma = sigma_across_line(shooter, target, figure)
                if crosses:
                    blockers.append((figure.id, penetration_mm(p, q, prints[i]), sigma))
                elif nearest is None or gap < nearest[0]:
                    nearest = (float(gap), sigma)
        for feature in scene.terrain_of([TerrainKind.BUILDING]):
            inside = shapely.contains_xy(feature.geometry, [p[0], q[0]], [p[1], q[1]])
            if not inside.any() and segment.intersects(feature.geometry):
                blockers.append((feature.id, penetration_mm(p, q, feature.geometry), 0.0))
    if blockers:
        name, depth, sigma = max(blockers, key=lambda b: b[1] - 2 * b[2])
        return LineOfFire(tuple(b[0] for b in blockers), depth, sigma)
    if nearest is not None:
        return LineOfFire((), nearest[0], nearest[1])
    return LineOfFire((), math.inf, 0.0)


@dataclass(frozen=True, slots=True)
class Cover:
    """The target's cover: features giving it, best obstacle level, grade and weight."""

    features: tuple[str, ...]
    level: int | None
    grade: str
    """``none``, ``partial`` or ``total`` (obstacle levels: §6.2.4)."""
    weight: str | None
    """``light`` or ``heavy``: the damage roll's modifier (§6.2.7)."""
    margin_mm: float | None = None
    """How far the nearest obstacle whose counting decides the cover is from the 3 cm
    about the shooter within which it does not count (None when none decides it)."""
    shelter_margin_mm: float | None = None
    """How far the target's centre is from the edge of the nearest wood, building or
    difficult ground whose holding it or not decides the cover (None when none does)."""
    crew_margin_mm: float | None = None
    """A gunner's: how far its gap to the gun it serves is from the 3 cm within which the gun
    covers it, when that decides the cover (None otherwise)."""


SHELTERING = (TerrainKind.WOOD, TerrainKind.BUILDING, TerrainKind.DIFFICULT)
"""Ground that gives a target standing in it cover (§6.2.3)."""


def fortified_areas(scene: Scene) -> list[TerrainFeature]:
    """Scenario 4's fortified positions as areas (Annexe II): a closed linear obstacle
    marked ``attrs.fortified``, its inside the polygon its line closes; « Toutes les
    figurines à l'intérieur de la position fortifiée sont considérées en couvert lourd »."""
    return [
        dataclasses.replace(
            feature,
            geometry=shapely.Polygon(feature.geometry.coords),
            attrs={**feature.attrs, "cover": "heavy"},
        )
        for feature in scene.terrain_of([TerrainKind.OBSTACLE])
        if feature.attrs.get("fortified", False)
        and isinstance(feature.geometry, shapely.LineString)
        and feature.geometry.is_ring
    ]


def cover_weight(feature: TerrainFeature) -> str:
    """The weight of the cover a feature gives: ``attrs.cover``, else heavy for woods and
    buildings, light for the rest."""
    declared = feature.attrs.get("cover")
    if declared in ("light", "heavy"):
        return str(declared)
    return "heavy" if feature.kind in (TerrainKind.WOOD, TerrainKind.BUILDING) else "light"


def cover(scene: Scene, options: SmoothAndRifledOptions, shooter: Figure, target: Figure) -> Cover:
    """Cover of ``target`` against ``shooter`` (§6.2.3).

    Obstacles crossed by the line between the two, except those within 3 cm of the
    shooter unless even closer to the target; or the target standing in difficult
    ground, "terrain difficile (bois, bâtiment)": a wood, a building, or other difficult
    ground such as a marsh or rocks (even when the shooter is in it too), or inside a
    fortified position (scenario 4, heavy cover). The margin is
    that of the obstacles whose counting or not changes the cover's grade or weight (an
    obstacle at 3 cm behind a higher wall is no doubt); the shelter margin, that of the
    ground whose holding the target or not changes them.
    """
    prints = footprints(scene)
    shooter_print = prints[index_of(scene, shooter.id)]
    target_print = prints[index_of(scene, target.id)]
    segment = shapely.LineString([shooter.xy, target.xy])
    ignore_mm = options.mm(NUMBERS.cover_ignore_cm)
    crossed: list[tuple[TerrainFeature, bool, float | None]] = []  # counted, edge margin
    for feature in scene.terrain_of([TerrainKind.OBSTACLE]):
        if not segment.intersects(feature.geometry):
            continue
        to_shooter = float(feature.geometry.distance(shooter_print))
        to_target = float(feature.geometry.distance(target_print))
        if to_target < to_shooter:
            crossed.append((feature, True, None))
        else:
            # "les obstacles à moins de 3cm du tireur ne comptent pas": 3 cm counts
            crossed.append((feature, at_most(ignore_mm, to_shooter), abs(to_shooter - ignore_mm)))
    centre = shapely.Point(target.x_mm, target.y_mm)
    grounds = [
        (feature, bool(feature.geometry.contains(centre)))
        for feature in [*scene.terrain_of(SHELTERING), *fortified_areas(scene)]
        if isinstance(feature.geometry, shapely.Polygon)
    ]
    sheltering = [feature for feature, holds in grounds if holds]

    def verdict(
        counted: list[TerrainFeature], shelter: list[TerrainFeature] = sheltering
    ) -> tuple[int | None, str, str | None]:
        level = max((f.level or 1 for f in counted), default=None)
        weights = [cover_weight(f) for f in (*counted, *shelter)]
        grade = "none"
        if level is not None:
            total_from = 3 if is_mounted(target) else 2
            partial_from = 2 if is_mounted(target) else 1
            grade = (
                "total" if level >= total_from else "partial" if level >= partial_from else "none"
            )
        if shelter and grade == "none":
            grade = "partial"
        weight = "heavy" if "heavy" in weights else "light" if weights and grade != "none" else None
        return level, grade, weight

    counted = [feature for feature, counts, _ in crossed if counts]
    level, grade, weight = verdict(counted)
    margin: float | None = None
    for feature, counts, edge in crossed:
        if edge is None:
            continue
        flipped = [f for f in counted if f is not feature] if counts else [*counted, feature]
        if verdict(flipped)[1:] != (grade, weight):
            margin = edge if margin is None else min(margin, edge)
    shelter_margin: float | None = None
    for feature, holds in grounds:
        others = [f for f in sheltering if f is not feature]
        if verdict(counted, others if holds else [*others, feature])[1:] != (grade, weight):
            edge = float(feature.geometry.boundary.distance(centre))
            shelter_margin = edge if shelter_margin is None else min(shelter_margin, edge)
    names = dict.fromkeys([f.id for f in counted] + [f.id for f in sheltering])
    served = served_gun(scene, target)
    crew_margin: float | None = None
    if served is not None and shooter.type != "artillery":
        # Artillerie: « Quand les artilleurs sont pris pour cible par des armes à feu, le
        # canon fournit un couvert léger ou, s'il est équipé d'une protection (+5 points), un
        # couvert lourd. » A gunner serves its gun from within 3 cm of it: further off, the
        # gun covers it no more than any figure.
        shield = "heavy" if served.attrs.get("shield", False) else "light"
        covered = (
            "partial" if grade == "none" else grade,
            "heavy" if "heavy" in (weight, shield) else "light",
        )
        crew_mm = options.mm(NUMBERS.crew_cm)
        gap_mm = crew_gap_mm(scene, target, served)
        if covered != (grade, weight):
            crew_margin = abs(crew_mm - gap_mm)
        if at_most(gap_mm, crew_mm):
            names[served.id] = None
            grade, weight = covered
    return Cover(tuple(names), level, grade, weight, margin, shelter_margin, crew_margin)


def crew_gap_mm(scene: Scene, gunner: Figure, gun: Figure) -> float:
    """The gap between a gunner's base and its gun's (mm): within 3 cm it is at its post
    (« Les artilleurs doivent être placés à 3cm ou moins de leur pièce »)."""
    return float(gaps_of(scene).row(index_of(scene, gunner.id))[index_of(scene, gun.id)])


def served_gun(scene: Scene, figure: Figure) -> Figure | None:
    """The gun a gunner serves (``attrs.crew_of`` names it), or None for other figures."""
    name = figure.attrs.get("crew_of")
    gun = scene.figure(str(name)) if name is not None else None
    return gun if gun is not None and gun.type == "artillery" else None


@dataclass(frozen=True, slots=True)
class Sight:
    """Whether a figure sees another (§6.3), with the deciding margin (mm)."""

    visible: bool
    margin_mm: float | None
    why: str


def sight(scene: Scene, options: SmoothAndRifledOptions, viewer: Figure, target: Figure) -> Sight:
    """Sight through woods and into buildings.

    Two figures in the same wood see each other up to 15 cm apart. Otherwise a figure
    inside a wood sees and is seen only within 5 cm of its edge, and a wood holding
    neither figure blocks sight where the line runs more than 5 cm inside it. A figure
    in a building that has not fired (``attrs.fired``) is seen only within 30 cm.
    """
    gap = gaps_of(scene).pair(index_of(scene, viewer.id), index_of(scene, target.id))
    prints = footprints(scene)
    segment = shapely.LineString([viewer.xy, target.xy])
    edge_mm = options.mm(NUMBERS.wood_sight_cm)
    margins: list[float] = []
    for wood in scene.terrain_of([TerrainKind.WOOD]):
        holds = [
            f for f in (viewer, target) if wood.geometry.contains(shapely.Point(f.x_mm, f.y_mm))
        ]
        if len(holds) == 2:
            limit = options.mm(NUMBERS.same_wood_sight_cm)
            if gap > limit:
                return Sight(False, gap - limit, f"both in {wood.id}, {gap / 10:.1f} cm apart")
            margins.append(limit - gap)
            continue
        for figure in holds:
            depth = float(wood.geometry.exterior.distance(prints[index_of(scene, figure.id)]))
            inside_print = wood.geometry.contains(prints[index_of(scene, figure.id)])
            depth = depth if inside_print else 0.0
            if depth > edge_mm:
                return Sight(
                    False, depth - edge_mm, f"{figure.id} is {depth / 10:.1f} cm inside {wood.id}"
                )
            margins.append(edge_mm - depth)
        if not holds and segment.intersects(wood.geometry):
            run = float(segment.intersection(wood.geometry).length)
            if run > edge_mm:
                return Sight(False, run - edge_mm, f"the line runs {run / 10:.1f} cm in {wood.id}")
            margins.append(edge_mm - run)
    window_mm = options.mm(NUMBERS.window_sight_cm)
    for building in scene.terrain_of([TerrainKind.BUILDING]):
        if building.geometry.contains(shapely.Point(target.x_mm, target.y_mm)) and not bool(
            target.attrs.get("fired", False)
        ):
            if gap > window_mm:
                return Sight(False, gap - window_mm, f"{target.id} is hidden in {building.id}")
            margins.append(window_mm - gap)
    return Sight(True, min(margins) if margins else None, "")


# --- artillery templates ---------------------------------------------------------------


def muzzle(gun: Figure) -> np.ndarray:
    """Where a gun's shots are measured from: ``attrs.muzzle_mm``, else its base's front."""
    given = gun.attrs.get("muzzle_mm")
    if given is not None:
        return np.asarray(given, dtype=np.float64).reshape(2)
    ahead = base_of(gun).depth_mm / 2
    angle = math.radians(gun.facing_deg)
    return gun.xy + ahead * np.array([math.cos(angle), math.sin(angle)])


def strip_lengths_mm(
    scene: Scene, origin: np.ndarray, target: Figure, width_mm: float, exclude: Sequence[str]
) -> tuple[dict[str, float], np.ndarray, float]:
    """Length of round-shot strip needed to reach each figure behind the target.

    The strip, ``width_mm`` wide, runs along the line origin -> target centre from the
    far side of the target's base. Returns {figure id: least strip length touching
    it}, the unit direction, and where the strip starts (mm along the line).
    """
    prints = footprints(scene)
    direction = target.xy - origin
    length = float(np.hypot(*direction))
    if length == 0.0:
        raise ValueError("the target stands on the muzzle")
    unit = direction / length
    normal = np.array([-unit[1], unit[0]])
    target_coords = shapely.get_coordinates(prints[index_of(scene, target.id)]) - origin
    start = float(np.max(target_coords @ unit))
    half = width_mm / 2
    corridor = shapely.Polygon(
        [
            origin + start * unit + s * half * normal + t * unit
            for s, t in ((-1, 0.0), (1, 0.0), (1, FAR_MM), (-1, FAR_MM))
        ]
    )
    needed: dict[str, float] = {}
    for i, figure in enumerate(scene.figures):
        if figure.id in exclude or figure.id == target.id:
            continue
        part = prints[i].intersection(corridor)
        if part.is_empty:
            continue
        along = (shapely.get_coordinates(part) - origin) @ unit
        needed[figure.id] = max(0.0, float(np.min(along)) - start)
    return needed, unit, start


def hits_in(scene: Scene, region: shapely.Geometry, exclude: Sequence[str]) -> dict[str, float]:
    """Figures whose base lies at least partly in ``region``, with each one's margin (mm).

    Figures outside are listed too, with a negative margin (their gap to the region).
    """
    prints = footprints(scene)
    return {
        figure.id: overlap_margin_mm(prints[i], region)
        for i, figure in enumerate(scene.figures)
        if figure.id not in exclude
    }
