"""Moves, reach and groups: allowances, the ground a move meets, the way round."""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass

import numpy as np
import shapely

from arbitre.rules import pathing
from arbitre.rules.answer_kinds import reach_answer_of
from arbitre.rules.answers import (
    GroupsAnswer,
    Margin,
    Reason,
    Said,
    allowance_verdict,
    at_most,
    in_units,
    with_certainty,
)
from arbitre.rules.base_field import BaseField, base_field
from arbitre.rules.errors import QuestionError
from arbitre.rules.geometry import swept_hulls
from arbitre.rules.links import Links
from arbitre.rules.mbt.answers import MbtMoveAnswer, MbtReachAnswer
from arbitre.rules.mbt.book import NUMBERS, TOUCH_MM2
from arbitre.rules.mbt.options import MbtOptions, options_of, unit_of
from arbitre.rules.mbt.plates import (
    Plate,
    aligned_friends,
    group_of,
    kinds_barred_to,
    near_pairs,
    penetration_mm,
    plate_named,
    plates_of,
    terrain_barred_to,
    woods_for,
)
from arbitre.rules.mbt.reasons import reason_words
from arbitre.rules.model import Figure, Scene, TerrainKind, sigma_between
from arbitre.rules.options import Degrees, Flag
from arbitre.rules.ruleset import coordinate_mm
from arbitre.rules.terrain import terrain_regions


def move_allowance(figure: Figure) -> int:
    """Graduations a base may move: light cavalry 5, light infantry 3, heavy one less.

    >>> move_allowance(Figure("a", "x", 0, 0, type="cavalry", attrs={"heavy": True}))
    4
    """
    kind = figure.type
    if kind is None or kind not in NUMBERS.move_units:
        raise QuestionError(f"base {figure.id!r}: type must be cavalry or infantry")
    heavy = bool(figure.attrs.get("heavy", False))
    return NUMBERS.move_units[kind] - (NUMBERS.heavy_move_penalty if heavy else 0)


def _difficulty(kind: TerrainKind, figure: Figure, options: MbtOptions) -> float:
    if kind is TerrainKind.DIFFICULT or (
        kind is TerrainKind.WOOD and woods_for(figure, options) == "difficult"
    ):
        return options.difficult_factor
    return 1.0


@dataclass(frozen=True, slots=True)
class Mover:
    """What moves: one base, or a group moving as one (the rectangle holding its bases).

    ``plate`` is the moving rectangle; ``offset_mm`` (2,) runs from the named base's
    centre to that rectangle's centre, so a goal for the named base is a goal for the
    rectangle once shifted by it.
    """

    plate: Plate
    members: tuple[Plate, ...]
    offset_mm: np.ndarray
    allowance_units: float


def _mover(scene: Scene, a: str, as_group: bool, options: MbtOptions) -> Mover:
    """The base named, alone at its own pace, or its group as one at the slowest pace.

    "Les plaquettes se déplacent individuellement [...] Un groupe peut se déplacer comme
    s'il s'agissait d'une simple et même plaquette, à la vitesse de la plaquette la plus
    lente." (Mouvements)
    """
    named = plate_named(scene, a)
    if not as_group:
        return Mover(named, (named,), np.zeros(2), float(move_allowance(named.figure)))
    group = tuple(group_of(scene, named, options))
    corners = np.array(
        [p.corner(x, y) for p in group for x, y in ((1, -1), (1, 1), (-1, 1), (-1, -1))]
    )
    along = (corners - named.centre) @ named.u
    across = (corners - named.centre) @ named.n
    middle = (along.max() + along.min()) / 2 * named.u + (across.max() + across.min()) / 2 * named.n
    plate = Plate(
        named.figure,
        named.centre + middle,
        named.u,
        named.n,
        float(across.max() - across.min()),
        float(along.max() - along.min()),
    )
    slowest = float(min(move_allowance(p.figure) for p in group))
    return Mover(plate, group, np.asarray(middle, dtype=np.float64), slowest)


@dataclass(frozen=True, slots=True, eq=False)
class Ground:
    """What a base's move meets, as the path finder sees it.

    The base keeps its facing along the move: the path finder moves its centre among
    the other bases, impassable and difficult ground grown by the rectangle itself at
    that facing (`base_field`), so a base goes through any gap it fits. ``radius_mm``
    is half the rectangle's diagonal, how far from its centre the base reaches.
    """

    field: BaseField
    radius_mm: float
    blocking: tuple[tuple[str, shapely.Geometry], ...]
    others: tuple[Plate, ...]


def _ground(
    scene: Scene,
    mover: Plate,
    members: set[str],
    options: MbtOptions,
    goal: np.ndarray | None = None,
) -> Ground:
    """Other bases (not of the mover's group), impassable and difficult ground, for a move
    from the mover's centre (to ``goal``: the base goes no deeper into what it overlaps
    at either end)."""
    radius = math.hypot(mover.width_mm, mover.depth_mm) / 2.0
    others = tuple(p for p in plates_of(scene) if p.figure.id not in members)
    blocking_kinds = kinds_barred_to(mover.figure, options)
    factors = {kind: _difficulty(kind, mover.figure, options) for kind in TerrainKind}
    costly = {
        kind: factor
        for kind, factor in factors.items()
        if factor > 1.0 and kind not in blocking_kinds
    }
    blocking = terrain_barred_to(scene, mover.figure, options)
    terrain, regions = terrain_regions(scene, blocking_kinds, costly)

    field = base_field(
        scene.table.width_mm,
        scene.table.depth_mm,
        _corners(mover),
        polygons=[pathing.BlockingPolygon(p.polygon(), p.figure.id) for p in others]
        + [pathing.BlockingPolygon(t.polygon, t.ident) for t in terrain],
        costly=regions,
        free_at=[mover.centre] if goal is None else [mover.centre, goal],
    )
    return Ground(field, radius, tuple(blocking), others)


def _corners(plate: Plate) -> np.ndarray:
    """The corners of a base (4, 2) about its centre, at its facing."""
    return np.array(
        [plate.corner(a, b) - plate.centre for a, b in ((1, -1), (1, 1), (-1, 1), (-1, -1))]
    )


def _swept_through(
    scene: Scene, mover: Plate, points: np.ndarray, ground: Ground, options: MbtOptions
) -> tuple[str, ...]:
    """Bases and impassable ground that the mover's rectangle, slid along the polyline
    ``points`` (K, 2) table mm, runs into (beyond the contact tolerance for bases).

    Those it already overlaps where it starts are left out: the way found takes it no
    deeper into them (`base_field`), and it must be free to leave them."""
    if len(points) < 2:
        return ()
    hulls = swept_hulls(points[:-1], points[1:], _corners(mover))
    start = mover.polygon()
    line = shapely.LineString(points)
    reach_mm = ground.radius_mm + options.contact_tolerance_mm
    found: list[str] = []
    for other in ground.others:
        shape = other.polygon()
        if float(shapely.distance(line, shape)) > reach_mm:
            continue
        if penetration_mm(start, shape) > options.contact_tolerance_mm:
            continue
        touching = np.asarray(shapely.intersects(hulls, shape))
        if any(
            penetration_mm(hull, shape) > options.contact_tolerance_mm for hull in hulls[touching]
        ):
            found.append(other.figure.id)
    for ident, geometry in ground.blocking:
        if float(shapely.distance(line, geometry)) > reach_mm:
            continue
        if start.intersection(geometry).area > TOUCH_MM2:
            continue
        if any(hull.intersection(geometry).area > TOUCH_MM2 for hull in hulls):
            found.append(ident)
    return tuple(found)


TURN_STEP_DEG = 2.0
"""The step of the rectangles laid along a turn to sweep it (a corner 50 mm out strays
50 (1 - cos 1°) < 0.01 mm from the arc between two of them)."""


def _rotation(turn_deg: float) -> np.ndarray:
    """The (2, 2) matrix turning a vector by ``turn_deg``, counter-clockwise."""
    angle = math.radians(turn_deg)
    return np.array([[math.cos(angle), -math.sin(angle)], [math.sin(angle), math.cos(angle)]])


def turned(plate: Plate, turn_deg: float) -> Plate:
    """The rectangle turned by ``turn_deg`` (counter-clockwise) on its centre."""
    rotation = _rotation(turn_deg)
    return Plate(
        plate.figure,
        plate.centre,
        rotation @ plate.u,
        rotation @ plate.n,
        plate.width_mm,
        plate.depth_mm,
    )


def _turn_deg(plate: Plate, facing_deg: float) -> float:
    """The shorter turn from the plate's facing to ``facing_deg``, in (-180, 180]."""
    now = math.degrees(math.atan2(plate.u[1], plate.u[0]))
    turn = (facing_deg - now) % 360.0
    return turn - 360.0 if turn > 180.0 else turn


@dataclass(frozen=True, slots=True)
class TurnHits:
    """What a turn sweeps into (``names``), and how much room it has to spare
    (``room_mm``, with its 1-sigma ``sigma_mm``): what it keeps from the nearest base,
    impassable ground or the table's edge, negative by how much more than it may it
    enters the one it goes deepest into."""

    names: tuple[str, ...]
    room_mm: float
    sigma_mm: float


def _depth_mm(shape: shapely.Geometry, ground: shapely.Geometry) -> float:
    """How deep two areas overlap at their deepest corner (a corner of either inside the
    other, how far from the other's edge); 0 when apart.

    >>> _depth_mm(shapely.box(0, 0, 10, 10), shapely.box(9.5, -5, 20, 5))
    0.5
    """
    overlap = shape.intersection(ground)
    if overlap.is_empty:
        return 0.0
    points = shapely.points(shapely.get_coordinates(overlap))
    depths = np.maximum(
        shapely.distance(points, shape.boundary), shapely.distance(points, ground.boundary)
    )
    return float(depths.max())


def _turn_hits(
    scene: Scene,
    plate: Plate,
    turn_deg: float,
    members: set[str],
    options: MbtOptions,
    standing: bool,
) -> TurnHits:
    """What a base turning by ``turn_deg`` on its centre sweeps into: bases (beyond the
    contact tolerance; where it ``standing``, those it already overlaps as much left out),
    impassable ground and the table's edge (``table edge``); and its room to spare, the
    nearest of them deciding (the pair's sigma for a base, the mover's for the ground and
    the table's edge). Where it is not standing, at a goal, nothing it would overlap there
    before turning is allowed: it would not be there to turn."""
    steps = max(1, math.ceil(abs(turn_deg) / TURN_STEP_DEG))
    shapes = [turned(plate, turn_deg * k / steps).polygon() for k in range(steps + 1)]
    swept = shapely.union_all(
        [shapely.convex_hull(shapely.union(p, q)) for p, q in itertools.pairwise(shapes)]
    )
    laid = np.array(shapes)  # the room is measured from these (the hulls joining them
    # stray up to 0.7 mm beyond a 40 mm base's long edge mid-turn)
    start = plate.polygon() if standing else shapely.Polygon()
    found: list[str] = []
    rooms: list[tuple[float, float]] = []  # room to spare, its sigma
    for other in plates_of(scene):
        if other.figure.id in members:
            continue
        shape = other.polygon()
        already = penetration_mm(start, shape) if standing else 0.0
        allowed = max(options.contact_tolerance_mm, already)
        apart_mm = float(shapely.distance(laid, shape).min())
        deepest = max(penetration_mm(p, shape) for p in shapes) if apart_mm == 0 else 0.0
        if deepest > allowed:
            found.append(other.figure.id)
        sigma = sigma_between(plate.figure, other.figure)
        rooms.append((allowed - deepest + apart_mm, sigma))
    for ident, geometry in terrain_barred_to(scene, plate.figure, options):
        inside = start.intersection(geometry).area
        apart_mm = float(shapely.distance(laid, geometry).min())
        deeper_mm = max(_depth_mm(p, geometry) for p in shapes) - _depth_mm(start, geometry)
        room_mm = apart_mm if apart_mm > 0 else -deeper_mm
        hit = swept.intersection(geometry).area > inside + TOUCH_MM2
        if hit:
            found.append(ident)
        # the area decides; the room, measured from the laid rectangles, keeps to its side
        rooms.append((min(room_mm, 0.0) if hit else max(room_mm, 0.0), plate.figure.sigma_mm))
    minx, miny, maxx, maxy = swept.bounds
    over = max(-minx, -miny, maxx - scene.table.width_mm, maxy - scene.table.depth_mm)
    if over > 0:
        found.append("table edge")
    rooms.append((-over, plate.figure.sigma_mm))
    room_mm, sigma_mm = min(rooms, key=lambda r: r[0] - 2.0 * r[1])
    if found:  # refused: it has room only once the deepest of them is left
        room_mm, sigma_mm = min(rooms)
    return TurnHits(tuple(found), room_mm, sigma_mm)


@dataclass(frozen=True, slots=True)
class Turn:
    """Where a base turns during its move: ``where`` (start or end), the turn in degrees
    (counter-clockwise), what the turn would sweep into where it may not turn, and the
    margins of the room it has (or lacks) where it turns and, turning at its start, at its
    end."""

    turn_deg: float
    where: str | None
    hits: tuple[str, ...]
    margins: tuple[Margin, ...] = ()


def _turn(
    scene: Scene,
    moving: Mover,
    goal: np.ndarray,
    facing_deg: float,
    members: set[str],
    options: MbtOptions,
) -> Turn:
    """Where the base (or group) turns to ``facing_deg``: on its centre where it ends if it
    has room there, else where it starts; nowhere (``where`` None) when it has room at
    neither, with what the turn at the end sweeps into."""
    turn_deg = _turn_deg(moving.plate, facing_deg)
    if abs(turn_deg) < 1e-9:
        return Turn(0.0, None, ())
    at_end = Plate(
        moving.plate.figure,
        goal,
        moving.plate.u,
        moving.plate.n,
        moving.plate.width_mm,
        moving.plate.depth_mm,
    )
    standing = bool(np.allclose(goal, moving.plate.centre))
    hits = _turn_hits(scene, at_end, turn_deg, members, options, standing)
    end_margin = Margin("turn", abs(hits.room_mm), hits.sigma_mm)
    if not hits.names:
        return Turn(turn_deg, "end", (), (end_margin,))
    at_start = _turn_hits(scene, moving.plate, turn_deg, members, options, True)
    if not at_start.names:
        start_margin = Margin("turn", at_start.room_mm, at_start.sigma_mm)
        return Turn(turn_deg, "start", (), (end_margin, start_margin))
    # refused: it would turn if either end had room, the nearer to having it decides
    nearer = max(hits, at_start, key=lambda h: h.room_mm)
    return Turn(turn_deg, None, hits.names, (Margin("turn", -nearer.room_mm, nearer.sigma_mm),))


def move_answer(
    scene: Scene,
    a: str,
    x: str,
    y: str,
    as_group: Flag = False,
    facing_deg: Degrees | None = None,
) -> MbtMoveAnswer:
    """Whether A may move its centre to (X, Y) mm, and by which way; with ``as_group``,
    A's whole group moves as one, A's centre going to (X, Y); with ``facing_deg``, A ends
    its move facing there (the book sets no cost for a turn: it is free, on the base's
    centre where it ends, or where it starts when it has no room there)."""
    options = options_of(scene)
    unit = unit_of(scene)
    moving = _mover(scene, a, as_group, options)
    start_offset = moving.offset_mm
    members = {p.figure.id for p in moving.members}
    turn = Turn(0.0, None, ())
    if facing_deg is not None:
        # a group turns on its rectangle's centre: A's place in it turns with it
        offset = _rotation(_turn_deg(moving.plate, facing_deg)) @ moving.offset_mm
        goal_xy = np.array([coordinate_mm(x, "X"), coordinate_mm(y, "Y")]) + offset
        turn = _turn(scene, moving, goal_xy, facing_deg, members, options)
        moving = Mover(moving.plate, moving.members, offset, moving.allowance_units)
    mover = moving.plate
    end_plate = turned(mover, turn.turn_deg)
    if turn.where == "start":
        mover = end_plate
    goal = np.array([coordinate_mm(x, "X"), coordinate_mm(y, "Y")]) + moving.offset_mm
    allowance_units = moving.allowance_units
    allowance_mm = unit.to_mm(allowance_units)
    ground = _ground(scene, mover, members, options, goal)
    moved = end_plate.polygon(goal - mover.centre)
    reasons: list[Reason] = []
    minx, miny, maxx, maxy = moved.bounds
    if minx < 0 or miny < 0 or maxx > scene.table.width_mm or maxy > scene.table.depth_mm:
        reasons.append(Reason.OFF_TABLE)
    if any(moved.intersection(g).area > TOUCH_MM2 for _, g in ground.blocking):
        reasons.append(Reason.IMPASSABLE)
    occupied = [
        p.figure.id
        for p in plates_of(scene)
        if p.figure.id not in members
        and penetration_mm(moved, p.polygon()) > options.contact_tolerance_mm
    ]
    if occupied:
        reasons.append(Reason.DESTINATION_OCCUPIED)
    if turn.hits:  # no room to turn where it ends nor where it starts
        reasons.append(Reason.PATH_BLOCKED)
    straight_mm = ground.field.straight_cost_mm(mover.centre, goal)
    straight = np.array([mover.centre, goal])
    cost_mm, points, crossed = straight_mm, straight, list(dict.fromkeys((*occupied, *turn.hits)))
    detour_mm: float | None = None
    by_straight_line = True
    if not reasons:
        way = ground.field.shortest_path(mover.centre, goal, max_cost_mm=allowance_mm)
        way_points = way.points_mm if way.found else straight
        swept = _swept_through(scene, mover, way_points, ground, options) if way.found else ()
        crossed = list(dict.fromkeys((*way.blocked_by, *swept)))
        usable = way.found and not swept
        refused = allowance_verdict(
            usable, way.cost_mm, bool(crossed), allowance_mm, lambda: straight_mm
        )
        if refused is None or (usable and not crossed):
            # within the allowance, or too far by a way that goes round nothing
            cost_mm, points, by_straight_line = way.cost_mm, way_points, False
        else:
            # no way, or the way round what the straight line meets is over the allowance:
            # blocked, and measured by the straight line
            detour_mm = way.cost_mm if usable else None
            refused = Reason.PATH_BLOCKED
        if refused is not None:
            reasons.append(refused)
    if by_straight_line and not at_most(straight_mm, allowance_mm):
        reasons.append(Reason.OVER_ALLOWANCE)
    measured_mm = cost_mm if detour_mm is None else detour_mm
    margins: tuple[Margin, ...] = (
        Margin("allowance", abs(allowance_mm - measured_mm), mover.figure.sigma_mm),
    )
    legal = not reasons
    if legal:  # the room to turn decides too: with less, it turns elsewhere or not at all
        margins += turn.margins
    elif turn.hits and reasons == [Reason.PATH_BLOCKED]:
        # refused for want of room to turn alone: how much deeper than allowed it would go
        margins = turn.margins
    cost = f"{unit.from_mm(cost_mm):.2f} of {allowance_units:g} graduations"
    if legal:
        text = f"{a} may move there: {cost}"
        if crossed:
            text += f", going round {', '.join(crossed)}"
    else:
        text = f"{a} may not move there ({cost}): " + reason_words(reasons)
        if crossed:
            text += f" ({', '.join(crossed)})"
        if detour_mm is not None:
            text += f"; the way round costs {unit.from_mm(detour_mm):.2f} graduations"
    if turn.turn_deg:
        text += "; " + _turn_words(a, turn)
    warnings = _group_warnings(scene, a, moving, options)
    points = _named_path(points, start_offset, moving.offset_mm, turn, len(members) > 1)
    return MbtMoveAnswer(
        question="move",
        message=with_certainty(text, *margins),
        margins=margins,
        mover=a,
        legal=legal,
        reasons=tuple(reasons),
        cost_mm=cost_mm,
        cost_units=unit.from_mm(cost_mm),
        allowance_mm=allowance_mm,
        allowance_units=allowance_units,
        unit=unit.name,
        path_mm=tuple((float(px), float(py)) for px, py in points),
        blocked_by=tuple(crossed),
        warnings=warnings,
        group=tuple(sorted(members)) if len(members) > 1 else (),
        detour_cost_mm=detour_mm,
        detour_cost_units=None if detour_mm is None else unit.from_mm(detour_mm),
        facing_deg=None if facing_deg is None else facing_deg % 360.0,
        turn_deg=turn.turn_deg,
        turns_at=turn.where,
    )


def _named_path(
    points: np.ndarray, start_offset: np.ndarray, end_offset: np.ndarray, turn: Turn, group: bool
) -> np.ndarray:
    """The way (K, 2) table mm of the named base's centre, from the way ``points`` of the
    moving rectangle's centre: in a group that turns, the base's place in it swings round
    the rectangle's centre (``start_offset`` before the turn, ``end_offset`` after it)."""
    before = np.asarray(points - start_offset, dtype=np.float64)
    after = np.asarray(points - end_offset, dtype=np.float64)
    if not group or not turn.turn_deg:
        return after
    if turn.where == "end":  # the group goes, then A swings to its place
        return np.vstack([before, after[-1:]])
    if turn.where == "start":  # A swings to its place, then the group goes
        return np.vstack([before[:1], after])
    return np.vstack([before[:1], after[-1:]])  # no room to turn: from A to its goal


def _turn_words(a: str, turn: Turn) -> str:
    """The turn in words: where the base turns, or what leaves it no room."""
    if turn.where is None:
        return f"no room to turn {abs(turn.turn_deg):g}°: " + ", ".join(turn.hits)
    side = "left" if turn.turn_deg > 0 else "right"
    return f"{a} turns {abs(turn.turn_deg):g}° {side} where it {turn.where}s, at no cost"


def reach_answer(scene: Scene, a: str, as_group: Flag = False) -> MbtReachAnswer:
    """Where A may move its centre within its allowance (with ``as_group``, its group
    moving as one)."""
    options = options_of(scene)
    unit = unit_of(scene)
    moving = _mover(scene, a, as_group, options)
    mover = moving.plate
    members = {p.figure.id for p in moving.members}
    allowance_units = moving.allowance_units
    allowance_mm = unit.to_mm(allowance_units)
    ground = _ground(scene, mover, members, options)
    area = ground.field.reachable_area(mover.centre, allowance_mm)
    back = -moving.offset_mm
    return reach_answer_of(
        MbtReachAnswer,
        a,
        shapely.transform(area, lambda xy: xy + back),
        (allowance_mm, allowance_units, unit.name),
        verb="move its centre",
        within=f"within {in_units(allowance_units, 'graduation', 'g')}",
        group=tuple(sorted(members)) if len(members) > 1 else (),
        warnings=_group_warnings(scene, a, moving, options),
    )


def _group_warnings(scene: Scene, a: str, moving: Mover, options: MbtOptions) -> tuple[str, ...]:
    """Say the base named alone could move with its group, or that its group moves as one."""
    if len(moving.members) > 1:
        others = ", ".join(sorted(p.figure.id for p in moving.members if p.figure.id != a))
        return (
            Said(
                "group_moves_as_one",
                "{base} moves as one with {others}, at its slowest base's pace",
                base=a,
                others=others,
            ),
        )
    group = group_of(scene, moving.plate, options)
    if len(group) > 1:
        others = ", ".join(sorted(p.figure.id for p in group if p.figure.id != a))
        return (
            Said(
                "group_may_move_as_one",
                "{base} moves alone at its own pace; its group with {others} may move as one "
                "at its slowest base's pace (as_group=true)",
                base=a,
                others=others,
            ),
        )
    return ()


def groups_answer(scene: Scene) -> GroupsAnswer:
    """Bases in contact and aligned, by group."""
    options = options_of(scene)
    plates = plates_of(scene)
    links: Links[str] = Links(p.figure.id for p in plates)
    for i, j in near_pairs(plates, options.contact_tolerance_mm).tolist():
        if aligned_friends(plates[i], plates[j], options):
            links.merge(plates[i].figure.id, plates[j].figure.id)
    order = {p.figure.id: k for k, p in enumerate(plates)}
    found = sorted(
        (sorted(subset, key=order.__getitem__) for subset in links.subsets()),
        key=lambda ids: order[ids[0]],
    )
    groups = {ids[0]: ids for ids in found}
    return GroupsAnswer(
        question="groups",
        message=f"{len(groups)} groups: "
        + ", ".join(f"{name} ({len(ids)})" for name, ids in groups.items()),
        groups=groups,
        references={name: name for name in groups},
        sides={name: plates[order[name]].figure.side for name in groups},
    )
