"""Shooting: the zone a target must stand in, range, and the shot's outcome."""

from __future__ import annotations

import math

import shapely

from arbitre.rules.answers import (
    Margin,
    Reason,
    with_certainty,
)
from arbitre.rules.mbt.answers import MbtFireAnswer
from arbitre.rules.mbt.book import NUMBERS
from arbitre.rules.mbt.combat import combat_result, combat_side
from arbitre.rules.mbt.options import options_of, unit_of
from arbitre.rules.mbt.plates import Plate, layout_of, penetration_mm, plate_pair
from arbitre.rules.mbt.reasons import reason_words
from arbitre.rules.model import Scene, sigma_between
from arbitre.rules.options import Die


def _shooting_zone(shooter: Plate, arc: str, reach_mm: float) -> shapely.Polygon:
    """Where a target must at least partly stand: the strip ahead, or the 90-degree arc."""
    left, right = shooter.corner(1, 1), shooter.corner(1, -1)
    if arc == "front":
        ahead = reach_mm * shooter.u
        return shapely.Polygon([right, left, left + ahead, right + ahead])
    apex = shooter.corner(1, 0)
    far = reach_mm * 2.0
    half = math.radians(45.0)
    u, n = shooter.u, shooter.n
    return shapely.Polygon(
        [
            apex,
            apex + far * (math.cos(half) * u - math.sin(half) * n),
            apex + far * u * 1.0 / math.cos(half),
            apex + far * (math.cos(half) * u + math.sin(half) * n),
        ]
    )


def fire_answer(
    scene: Scene, a: str, b: str, die_a: Die | None = None, die_b: Die | None = None
) -> MbtFireAnswer:
    """Whether archers A may shoot at B; with the dice, the outcome."""
    options = options_of(scene)
    unit = unit_of(scene)
    shooter, target = plate_pair(scene, a, b)
    reasons: list[Reason] = []
    margins: list[Margin] = []
    sigma = sigma_between(shooter.figure, target.figure)
    if not scene.are_enemies(shooter.figure.side, target.figure.side):
        reasons.append(Reason.TARGET_NOT_ENEMY)
    chariot = bool(shooter.figure.attrs.get("chariot", False))
    if not (shooter.figure.attrs.get("archer", False) or chariot):
        reasons.append(Reason.NO_SHOOTERS)
    layout = layout_of(scene)
    target_shape = layout.polygon(target)
    gap = float(shapely.distance(layout.polygon(shooter), target_shape))
    range_mm = unit.to_mm(NUMBERS.shot_range_units)
    if gap > range_mm:
        reasons.append(Reason.OUT_OF_RANGE)
    margins.append(Margin("range", abs(range_mm - gap), sigma))
    if not chariot:
        zone = _shooting_zone(shooter, options.arc, range_mm + shooter.width_mm)
        inside = penetration_mm(zone, target_shape)
        if inside <= 0.0:
            reasons.append(Reason.NOT_IN_ARC)
            margins.append(Margin("arc", float(shapely.distance(zone, target_shape)), sigma))
        else:
            margins.append(Margin("arc", inside, sigma))
    side_a = combat_side(scene, shooter, target, options, die_a)
    side_b = combat_side(scene, target, shooter, options, die_b)
    allowed = not reasons
    result = combat_result(
        scene, shooter, target, side_a, side_b, options, unit, None, may_lose_a=False
    )
    at = f"{unit.from_mm(gap):.2f} graduations"
    # "Un éléphant qui doit reculer panique", after a shot as after a melee
    panic = allowed and bool(result.get("panic", False))
    if allowed:
        text = f"{a} may shoot at {b} at {at}"
        if result["outcome"] is not None:
            text += f": {side_a.total} against {side_b.total}, {result['outcome']}"
        if panic:
            text += " - the elephant panics"
    else:
        text = f"{a} may not shoot at {b} ({at}): " + reason_words(reasons)
    return MbtFireAnswer(
        question="fire",
        message=with_certainty(text, *margins),
        margins=tuple(margins),
        shooter=a,
        target=b,
        allowed=allowed,
        reasons=tuple(reasons),
        distance_mm=gap,
        distance_units=unit.from_mm(gap),
        unit=unit.name,
        band="normal" if gap <= range_mm else None,
        shooters=(a,) if Reason.NO_SHOOTERS not in reasons else (),
        score_a=sum(side_a.points.values()),
        score_b=sum(side_b.points.values()),
        total_a=side_a.total,
        total_b=side_b.total,
        outcome=result["outcome"] if allowed else None,
        panic=panic,
        warnings=tuple(result.get("warnings", ())) if panic else (),
    )
