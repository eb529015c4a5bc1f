"""Smooth & Rifled scenarios (Annexes I and II): deployment zones and the objective held."""

from __future__ import annotations

import shapely

from arbitre.rules.answers import Margin, Reason, Said, warning_lines, with_certainty
from arbitre.rules.errors import QuestionError
from arbitre.rules.model import Figure, Scene
from arbitre.rules.ruleset import coordinate_mm
from arbitre.rules.smooth_and_rifled.answers import SRDeploymentAnswer, SRObjectiveAnswer
from arbitre.rules.smooth_and_rifled.bases import footprints
from arbitre.rules.smooth_and_rifled.book import MM_PER_CM, NUMBERS, UNIT
from arbitre.rules.smooth_and_rifled.options import Edge, Turn, options_of
from arbitre.rules.smooth_and_rifled.reasons import reason_words

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
    scene: Scene, side: str, x: str, y: str, turn: Turn | None = None
) -> SRObjectiveAnswer:
    """Does SIDE hold the objective at (X, Y) mm (Annexe II, scenario 1).

    "L'objectif est tenu si, à partir du tour 3, au moins une figurine amie se trouve à
    3cm ou moins de celui-ci et s'il n'y a aucune figurine ennemie à moins de 25cm (15cm
    en 15mm)." Distances run from each base's edge to the objective's point.
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
        warnings=tuple(warnings),
    )


def deployment_question(scene: Scene, side: str, edge: Edge | None = None) -> SRDeploymentAnswer:
    """Is every figure of SIDE inside its deployment zone along ``edge`` (Annexe I).

    "Chaque joueur place ses figurines à 30cm (ou 15cm en 15mm) ... Les figurines avec la
    caractéristique Eclaireurs peuvent être déployés jusqu'à 40cm (25cm en 15mm) du bord
    de table." A figure is inside when its whole base is.
    """
    if edge is None:
        raise QuestionError(f"deployment needs the side's edge: --with edge={'|'.join(EDGES)}")
    where = edge
    options = options_of(scene)
    figures = _side_figures(scene, side)
    zone_mm = options.mm(NUMBERS.deployment_cm)
    scout_mm = options.mm_or(NUMBERS.scout_deployment_cm, NUMBERS.scout_deployment_15mm_cm)
    prints = footprints(scene)
    index = {f.id: i for i, f in enumerate(scene.figures)}
    depths: dict[str, float] = {}
    margins: list[Margin] = []
    outside: list[str] = []
    for figure in figures:
        minx, miny, maxx, maxy = prints[index[figure.id]].bounds
        depth = {
            "x0": maxx,
            "x_max": scene.table.width_mm - minx,
            "y0": maxy,
            "y_max": scene.table.depth_mm - miny,
        }[where]
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
