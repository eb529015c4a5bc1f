"""Smooth & Rifled scenarios (Annexes I and II): deployment zones, the objective held, and
the assault's fortified position (scenario 4)."""

from __future__ import annotations

import shapely

from arbitre.rules.answers import Margin, Reason, Said, warning_lines, with_certainty
from arbitre.rules.errors import QuestionError, UnknownName
from arbitre.rules.model import Figure, Scene, TerrainFeature, TerrainKind, sigma_between
from arbitre.rules.options import Name
from arbitre.rules.ruleset import coordinate_mm
from arbitre.rules.smooth_and_rifled.answers import (
    SRAssaultAnswer,
    SRDeploymentAnswer,
    SRObjectiveAnswer,
    SRRescueAnswer,
)
from arbitre.rules.smooth_and_rifled.bases import figure_gap_mm, footprints, index_of
from arbitre.rules.smooth_and_rifled.book import MM_PER_CM, NUMBERS, UNIT
from arbitre.rules.smooth_and_rifled.dice import break_point
from arbitre.rules.smooth_and_rifled.geometry import cover_weight, fortified_areas
from arbitre.rules.smooth_and_rifled.groups import is_marker
from arbitre.rules.smooth_and_rifled.options import (
    DeploymentScenario,
    Edge,
    GameFormat,
    SmoothAndRifledOptions,
    Turn,
    options_of,
)
from arbitre.rules.smooth_and_rifled.reasons import reason_words
from arbitre.rules.smooth_and_rifled.tables import morale_question

EDGES = ("x0", "x_max", "y0", "y_max")
"""The table's edges, named in the table frame: x = 0, x = width, y = 0, y = depth."""


def _side_figures(scene: Scene, side: str) -> list[Figure]:
    figures = [f for f in scene.figures if f.side == side]
    if not figures:
        sides = ", ".join(sorted({f.side for f in scene.figures})) or "none"
        raise QuestionError(f"no figure of side {side!r} (sides: {sides})")
    return figures


def _cm(length_mm: float) -> str:
    return f"{length_mm / MM_PER_CM:.1f} cm"


def objective_question(
    scene: Scene,
    side: str,
    x: str,
    y: str,
    turn: Turn | None = None,
    game_format: GameFormat | None = None,
) -> SRObjectiveAnswer:
    """Does SIDE hold the objective at (X, Y) mm (Annexe II, scenario 1).

    "L'objectif est tenu si, à partir du tour 3, au moins une figurine amie se trouve à
    3cm ou moins de celui-ci et s'il n'y a aucune figurine ennemie à moins de 25cm (15cm
    en 15mm)." Distances run from each base's edge to the objective's point. With
    ``game_format``: « Tenir l'objectif donne 20 VM supplémentaires en Moyen Format ou 10 VM
    en Petit Format, ce qui rendra plus difficile d'atteindre le Point de Rupture »: SIDE's
    VM, the bonus when held, and the break point, a third of both rounded up (§7.0).
    """
    options = options_of(scene)
    _side_figures(scene, side)
    point = shapely.Point(coordinate_mm(x, "X"), coordinate_mm(y, "Y"))
    friend_mm = options.mm(NUMBERS.objective_friend_cm)
    enemy_mm = options.mm_or(NUMBERS.objective_enemy_cm, NUMBERS.objective_enemy_15mm_cm)
    prints = footprints(scene)
    gaps = [(float(shapely.distance(prints[i], point)), f) for i, f in enumerate(scene.figures)]
    friends = sorted(
        ((g, f) for g, f in gaps if not scene.are_enemies(side, f.side)), key=lambda p: p[0]
    )
    enemies = sorted(
        ((g, f) for g, f in gaps if scene.are_enemies(side, f.side)), key=lambda p: p[0]
    )
    reasons: list[Reason] = []
    margins: list[Margin] = []
    warnings: list[str] = []
    when: int | None = None
    if turn is not None:
        when = turn
        if when < NUMBERS.objective_from_turn:
            reasons.append(Reason.TOO_EARLY)
    else:
        warnings.append(
            Said(
                "objective_from_turn",
                "an objective is held only from turn {turn}",
                turn=NUMBERS.objective_from_turn,
            )
        )
    if friends:
        gap, nearest = friends[0]
        margins.append(Margin("friend", abs(friend_mm - gap), nearest.sigma_mm))
    if not friends or friends[0][0] > friend_mm:
        reasons.append(Reason.NO_FRIEND_NEAR)
    if enemies:
        gap, nearest = enemies[0]
        margins.append(Margin("enemy", abs(gap - enemy_mm), nearest.sigma_mm))
    if enemies and enemies[0][0] < enemy_mm:
        reasons.append(Reason.ENEMY_NEAR)
    held = not reasons
    vm = bonus = point_vm = None
    if game_format is not None:
        vm = morale_question(scene, side).vm
        bonus = (
            (
                NUMBERS.objective_bonus_vm_small
                if game_format == "small"
                else NUMBERS.objective_bonus_vm_medium
            )
            if held
            else 0
        )
        point_vm = break_point(vm + bonus)
    near_friends = tuple(f.id for g, f in friends if g <= friend_mm)
    near_enemies = tuple(f.id for g, f in enemies if g < enemy_mm)
    if held:
        text = f"{side} holds the objective: {', '.join(near_friends)} within {_cm(friend_mm)}"
        text += f", no enemy within {_cm(enemy_mm)}"
    else:
        text = f"{side} does not hold the objective: " + reason_words(reasons)
        if near_enemies:
            text += f" ({', '.join(near_enemies)} within {_cm(enemy_mm)})"
    return SRObjectiveAnswer(
        question="objective",
        message=with_certainty(text, *margins) + warning_lines(warnings),
        margins=tuple(margins),
        side=side,
        objective_mm=(point.x, point.y),
        held=held,
        reasons=tuple(reasons),
        friends_near=near_friends,
        enemies_near=near_enemies,
        nearest_friend=friends[0][1].id if friends else None,
        nearest_friend_gap_mm=friends[0][0] if friends else None,
        nearest_enemy=enemies[0][1].id if enemies else None,
        nearest_enemy_gap_mm=enemies[0][0] if enemies else None,
        friend_radius_mm=friend_mm,
        enemy_radius_mm=enemy_mm,
        unit=UNIT.name,
        turn=when,
        game_format=game_format,
        vm=vm,
        bonus_vm=bonus,
        break_point=point_vm,
        warnings=tuple(warnings),
    )


def deployment_question(
    scene: Scene,
    side: str,
    edge: Edge | None = None,
    scenario: DeploymentScenario = "standard",
) -> SRDeploymentAnswer:
    """Is every figure of SIDE inside its deployment zone along ``edge`` (Annexe I).

    "Chaque joueur place ses figurines à 30cm (ou 15cm en 15mm) ... Les figurines avec la
    caractéristique Eclaireurs peuvent être déployés jusqu'à 40cm (25cm en 15mm) du bord
    de table." A figure is inside when its whole base is. ``scenario: assault`` (Annexe II,
    scenario 4): « L'attaquant doit se déployer à partir de plusieurs bords de table, en
    plaçant ses figurines à 30cm ou moins de ces bords, Eclaireurs compris »: scouts no
    further than the others, and without ``edge`` each figure from its nearest edge.
    """
    assault = scenario == "assault"
    if edge is None and not assault:
        raise QuestionError(f"deployment needs the side's edge: --with edge={'|'.join(EDGES)}")
    where = edge if edge is not None else "nearest"
    options = options_of(scene)
    figures = _side_figures(scene, side)
    zone_mm = options.mm(NUMBERS.deployment_cm)
    scout_mm = (
        zone_mm
        if assault
        else options.mm_or(NUMBERS.scout_deployment_cm, NUMBERS.scout_deployment_15mm_cm)
    )
    prints = footprints(scene)
    index = {f.id: i for i, f in enumerate(scene.figures)}
    depths: dict[str, float] = {}
    margins: list[Margin] = []
    outside: list[str] = []
    for figure in figures:
        depth = depth_mm(scene, prints[index[figure.id]], edge)
        limit = scout_mm if figure.attrs.get("scout", False) else zone_mm
        depths[figure.id] = depth
        margins.append(Margin(f"zone {figure.id}", abs(limit - depth), figure.sigma_mm))
        if depth > limit:
            outside.append(figure.id)
    reasons = (Reason.OUTSIDE_ZONE,) if outside else ()
    if outside:
        text = f"{side} is not deployed within its zone: {', '.join(outside)} outside"
    else:
        text = f"every figure of {side} is within its zone"
    text += f" ({_cm(zone_mm)} from edge {where}, scouts {_cm(scout_mm)})"
    if assault:
        text += "; scenario 4's attackers, scouts included"
    return SRDeploymentAnswer(
        question="deployment",
        message=with_certainty(text, *margins),
        margins=tuple(margins),
        side=side,
        edge=where,
        legal=not outside,
        reasons=reasons,
        zone_mm=zone_mm,
        scout_zone_mm=scout_mm,
        depth_mm=depths,
        outside=tuple(outside),
        unit=UNIT.name,
    )


def depth_mm(scene: Scene, footprint: shapely.Geometry, edge: Edge | None) -> float:
    """How far a base reaches from a table edge (mm): from ``edge``, else from the nearest."""
    minx, miny, maxx, maxy = footprint.bounds
    depths = {
        "x0": maxx,
        "x_max": scene.table.width_mm - minx,
        "y0": maxy,
        "y_max": scene.table.depth_mm - miny,
    }
    return float(depths[edge] if edge is not None else min(depths.values()))


def rescue_question(scene: Scene, side: str, a: str, edge: Edge | None = None) -> SRRescueAnswer:
    """Scenario 2, the rescue or the capture (Annexe II): has SIDE brought the figure A into
    its deployment zone along ``edge``, and may A move?

    « Pour gagner ce scénario, un joueur doit apporter la figurine du centre dans sa zone de
    déploiement (30cm) ou mettre en déroute l'ennemi. La figurine [...] ne peut bouger que si
    elle est en contact avec une autre figurine et ne peut faire qu'un mouvement par tour. »
    A is in the zone when its whole base is (as a deployment, Annexe I: 15 cm in 15 mm);
    it may move when another base is in contact with it.
    """
    if edge is None:
        raise QuestionError(f"rescue needs SIDE's edge: --with edge={'|'.join(EDGES)}")
    options = options_of(scene)
    _side_figures(scene, side)
    figure = scene.figure(a)
    if figure is None:
        raise UnknownName("figure", a, (f.id for f in scene.figures))
    prints = footprints(scene)
    zone_mm = options.mm(NUMBERS.deployment_cm)
    depth = depth_mm(scene, prints[index_of(scene, figure.id)], edge)
    margins = [Margin("zone", abs(zone_mm - depth), figure.sigma_mm)]
    tolerance = options.contact_tolerance_mm
    others = [
        (figure_gap_mm(scene, figure, other), other)
        for other in scene.figures
        if other.id != figure.id
    ]
    escorts = tuple(
        other.id for gap, other in sorted(others, key=lambda p: p[0]) if gap <= tolerance
    )
    if others:
        gap, nearest = min(others, key=lambda p: p[0])
        margins.append(Margin("contact", abs(gap - tolerance), sigma_between(figure, nearest)))
    rescued = depth <= zone_mm
    reasons = () if rescued else (Reason.OUTSIDE_ZONE,)
    text = (
        f"{figure.id} is {'within' if rescued else 'outside'} {side}'s zone "
        f"({_cm(depth)} from edge {edge}, at most {_cm(zone_mm)})"
    )
    text += (
        f"; it may move with {', '.join(escorts)} in contact"
        if escorts
        else "; no figure in contact: it may not move"
    )
    return SRRescueAnswer(
        question="rescue",
        message=with_certainty(text, *margins),
        margins=tuple(margins),
        side=side,
        figure=figure.id,
        edge=edge,
        rescued=rescued,
        reasons=reasons,
        depth_mm=depth,
        zone_mm=zone_mm,
        escorts=escorts,
        may_move=bool(escorts),
        unit=UNIT.name,
    )


def assault_question(scene: Scene, side: str, position: Name | None = None) -> SRAssaultAnswer:
    """Scenario 4, the assault (Annexe II), for SIDE defending the fortified position.

    « Le périmètre de cette zone ne peut excéder 20% du périmètre de la table ... ceux qui
    offrent un couvert léger doivent être à au moins 25cm de la position fortifiée, les
    couverts lourds à 40cm ... Le défenseur bénéficie d'un bonus de 20 points de VM, réduit
    de 1 par attaquant présent dans le périmètre. Exemple : s'il y a 3 ennemis dans la
    position et que le défenseur a une VM de 16, alors le Point de Rupture est de 11
    (16+17/3). Cependant, si plus de la moitié des défenseurs sont présents dans le
    périmètre, une relance est autorisée pour chaque Test de Moral. » The position is a
    closed linear obstacle marked ``attrs.fortified`` (``position`` names it when there are
    several); a figure is in it when its centre is. Markers (ambushes, ammunition) count
    for neither side.
    """
    options = options_of(scene)
    _side_figures(scene, side)
    area = _position(scene, position)
    ring = area.geometry.exterior
    perimeter_mm = float(ring.length)
    limit_mm = NUMBERS.assault_perimeter_share * 2 * (scene.table.width_mm + scene.table.depth_mm)
    warnings: list[str] = []
    if perimeter_mm > limit_mm:
        warnings.append(
            Said(
                "position_too_large",
                "{position} is {cm} cm round, more than {limit} cm (a fifth of the table's)",
                position=area.id,
                cm=f"{perimeter_mm / MM_PER_CM:.1f}",
                limit=f"{limit_mm / MM_PER_CM:.1f}",
            )
        )
    near = _cover_too_near(scene, options, area)
    for feature, (gap, clear) in near.items():
        warnings.append(
            Said(
                "cover_too_near",
                "{feature} gives cover {cm} cm from {position}: at least {limit} cm",
                feature=feature,
                cm=f"{gap / MM_PER_CM:.1f}",
                position=area.id,
                limit=f"{clear / MM_PER_CM:g}",
            )
        )
    counted = [f for f in scene.figures if not is_marker(f)]
    margins: list[Margin] = []
    inside: dict[str, bool] = {}
    for figure in counted:
        centre = shapely.Point(figure.x_mm, figure.y_mm)
        inside[figure.id] = bool(area.geometry.covers(centre))
        margins.append(Margin(f"inside {figure.id}", float(ring.distance(centre)), figure.sigma_mm))
    attackers = tuple(f.id for f in counted if scene.are_enemies(side, f.side) and inside[f.id])
    defenders = [f for f in counted if not scene.are_enemies(side, f.side)]
    defending = tuple(f.id for f in defenders if inside[f.id])
    vm = morale_question(scene, side).vm
    bonus = max(0, NUMBERS.assault_bonus_vm - len(attackers))
    point = break_point(vm + bonus)
    reroll = 2 * len(defending) > len(defenders)
    text = (
        f"{side} defends {area.id}: VM {vm} + {bonus} ({NUMBERS.assault_bonus_vm} less "
        f"{len(attackers)} attackers inside), a morale test after losing {point} VM; "
        f"{len(defending)} of {len(defenders)} defenders inside: "
        + ("a re-roll for each morale test" if reroll else "no re-roll")
    )
    return SRAssaultAnswer(
        question="assault",
        message=with_certainty(text, *margins) + warning_lines(warnings),
        margins=tuple(margins),
        side=side,
        position=area.id,
        perimeter_mm=perimeter_mm,
        perimeter_limit_mm=limit_mm,
        terrain_too_near={feature: gap for feature, (gap, _) in near.items()},
        attackers_inside=attackers,
        defenders_inside=defending,
        defenders=len(defenders),
        vm=vm,
        bonus_vm=bonus,
        break_point=point,
        reroll=reroll,
        unit=UNIT.name,
        warnings=tuple(warnings),
    )


def _position(scene: Scene, name: str | None) -> TerrainFeature:
    """The fortified position the assault is about: the one named, or the only one."""
    areas = fortified_areas(scene)
    if name is not None:
        chosen = [a for a in areas if a.id == name]
        if not chosen:
            known = ", ".join(a.id for a in areas) or "none"
            raise QuestionError(f"no fortified position {name!r} (fortified positions: {known})")
        return chosen[0]
    if len(areas) != 1:
        raise QuestionError(
            "the assault needs one fortified position: a closed obstacle line with "
            f"attrs.fortified (found {len(areas)}; name one with position=ID)"
        )
    return areas[0]


def _cover_too_near(
    scene: Scene, options: SmoothAndRifledOptions, area: TerrainFeature
) -> dict[str, tuple[float, float]]:
    """Terrain giving cover nearer the position than the book allows: light cover within
    25 cm, heavy within 40 cm; each with its gap and the distance it needed (mm)."""
    light_mm = options.mm(NUMBERS.assault_light_clear_cm)
    heavy_mm = options.mm(NUMBERS.assault_heavy_clear_cm)
    near: dict[str, tuple[float, float]] = {}
    for feature in scene.terrain:
        if feature.id == area.id or feature.kind is TerrainKind.IMPASSABLE:
            continue
        clear = heavy_mm if cover_weight(feature) == "heavy" else light_mm
        gap = float(feature.geometry.distance(area.geometry))
        if gap < clear:
            near[feature.id] = (gap, clear)
    return near
