"""The fire question: range bands, targets engaged in melee, cover rolls and bow interception."""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any

from arbitre.rules.answers import Margin, Reason, Said, Unit, in_units, with_certainty
from arbitre.rules.errors import QuestionError
from arbitre.rules.model import Figure, Scene, sigma_between
from arbitre.rules.musg.answers import CoverRoll, MusgFireAnswer
from arbitre.rules.musg.bases import (
    attention_chef_of,
    base_gap_mm,
    measured_mm,
    scene_footprints,
    weapon_of,
)
from arbitre.rules.musg.book import BOW_KINDS, NUMBERS, Weapon, cover_roll_needed
from arbitre.rules.musg.options import options_of, unit_of
from arbitre.rules.musg.reasons import reason_words
from arbitre.rules.musg.sight import Sight, figures_on_line, line_of_sight
from arbitre.rules.ruleset import figure_named


def fire_answer(scene: Scene, a: str, b: str) -> MusgFireAnswer:
    """May A shoot at B: range band, sight, cover rolls, figures that may take the shot, and
    the PA it costs ("Tirer (1 PA)"; "Tirer avec une arme à rechargement lent ou une arme
    lourde (2 PA)")."""
    options = options_of(scene)
    unit = unit_of(scene)
    shooter, target = figure_named(scene, a), figure_named(scene, b)
    if shooter.id == target.id:
        raise QuestionError(f"{a!r} and {b!r} are the same figure")
    reasons: list[Reason] = []
    margins: list[Margin] = []
    warnings: list[str] = []
    if not scene.are_enemies(shooter.side, target.side):
        reasons.append(Reason.TARGET_NOT_ENEMY)
    weapon = weapon_of(shooter)
    if weapon is None:
        reasons.append(Reason.NO_SHOOTERS)

    shapes = scene_footprints(scene, options)
    reach = options.contact_tolerance_mm
    low_x, low_y, high_x, high_y = shapes.of(target, options).bounds
    near = shapes.near((low_x - reach, low_y - reach, high_x + reach, high_y + reach))
    engaged = [
        f.id
        for f, close in zip(shapes.figures, near, strict=True)
        if close
        and f.id not in (shooter.id, target.id)
        and not scene.are_enemies(shooter.side, f.side)
        and scene.are_enemies(target.side, f.side)
        and base_gap_mm(f, target, options) <= options.contact_tolerance_mm
    ]
    if engaged:
        reasons.append(Reason.TARGET_ENGAGED)

    distance_mm = measured_mm(shooter, target, options)
    sigma = sigma_between(shooter, target)
    band: str | None = None
    if weapon is not None:
        band, range_margins = _band(weapon, distance_mm, unit, sigma)
        margins.extend(range_margins)
        if band is None:
            reasons.append(Reason.OUT_OF_RANGE)

    sight = line_of_sight(scene, shooter, target, options)
    if sight.blocked:
        reasons.append(Reason.NOT_VISIBLE)
    margins.append(sight.margin(sigma))
    in_cover = sight.hidden_fraction > NUMBERS.cover_fraction
    cover_rolls: list[dict[str, Any]] = []
    if in_cover:
        for obstacle, obstacle_mm in sight.obstacle_distances_mm.items():
            obstacle_band = band
            if weapon is not None:
                obstacle_band = weapon.band(unit.from_mm(obstacle_mm)) or band
            if obstacle_band is None:
                continue
            roll = CoverRoll(
                obstacle,
                obstacle_mm,
                unit.from_mm(obstacle_mm),
                obstacle_band,
                cover_roll_needed(obstacle_band),
            )
            cover_rolls.append(
                {
                    "obstacle": roll.obstacle,
                    "distance_mm": roll.distance_mm,
                    "distance_units": roll.distance_units,
                    "unit": unit.name,
                    "band": roll.band,
                    "needed": roll.needed,
                }
            )
    interposed: tuple[str, ...] = ()
    if weapon is not None and weapon.kind in BOW_KINDS:
        interposed = figures_on_line(scene, shooter, target, options)
        if interposed:
            warnings.append(
                Said(
                    "bow_interception",
                    "on a 1 to hit, each of {figures} rolls 1D6 in turn; the first {face} "
                    "takes the missile",
                    figures=", ".join(interposed),
                    face=NUMBERS.bow_interception_face,
                )
            )
    attention = attention_chef_of(scene, target, options, unit)
    elevation = {shooter.id: _elevation_mm(shooter), target.id: _elevation_mm(target)}
    dominates = _dominating(shooter.id, target.id, elevation)
    if dominates is not None:
        low = target.id if dominates == shooter.id else shooter.id
        warnings.append(
            Said(
                "domination",
                "{high} stands {mm} mm higher than {low}: the book counts domination in "
                "shooting but gives no modifier; apply the one the players agreed",
                high=dominates,
                mm=f"{abs(elevation[shooter.id] - elevation[target.id]):g}",
                low=low,
            )
        )
    allowed = not reasons
    text = _fire_message(a, b, allowed, reasons, distance_mm, unit, band, sight, cover_rolls)
    if allowed and weapon is not None:
        text += f"; {NUMBERS.shot_points[weapon.slow]} PA" + (
            " (slow to reload or heavy)" if weapon.slow else ""
        )
    decisive = tuple(margins)
    return MusgFireAnswer(
        question="fire",
        message=with_certainty(text, *decisive),
        margins=decisive,
        shooter=a,
        target=b,
        allowed=allowed,
        reasons=tuple(reasons),
        distance_mm=distance_mm,
        distance_units=unit.from_mm(distance_mm),
        unit=unit.name,
        band=band,
        blocked_by=tuple(engaged) + (sight.blockers if sight.blocked else ()),
        cover=tuple(r["obstacle"] for r in cover_rolls) if in_cover else (),
        warnings=tuple(warnings),
        shooters=(shooter.id,) if weapon is not None else (),
        hidden_fraction=sight.hidden_fraction,
        hidden_by=dict(sight.hidden_by),
        cover_rolls=tuple(cover_rolls),
        interposed=interposed,
        attention_chef=attention,
        weapon=None if weapon is None else weapon.kind,
        elevation_mm=elevation,
        dominates=dominates,
        action_points=None if weapon is None else NUMBERS.shot_points[weapon.slow],
    )


def _elevation_mm(figure: Figure) -> float:
    """How high a figure stands on scenery it climbed (``attrs.elevation_mm``, default 0)."""
    value = figure.attrs.get("elevation_mm", 0.0)
    if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value):
        raise QuestionError(f"{figure.id}: attrs.elevation_mm must be a number, got {value!r}")
    if not 0.0 <= value <= 10_000.0:
        raise QuestionError(f"{figure.id}: attrs.elevation_mm must be 0-10000, got {value!r}")
    return float(value)


def _dominating(shooter: str, target: str, elevation: Mapping[str, float]) -> str | None:
    """Who stands higher (the book's "domination"), if either does by a millimetre or more."""
    difference = elevation[shooter] - elevation[target]
    if abs(difference) < 1.0:
        return None
    return shooter if difference > 0 else target


def _band(
    weapon: Weapon, distance_mm: float, unit: Unit, sigma: float
) -> tuple[str | None, list[Margin]]:
    limits_mm = [unit.to_mm(limit) for limit in weapon.limits_pas]
    band = weapon.band(unit.from_mm(distance_mm))
    margins = [Margin("range", abs(limits_mm[-1] - distance_mm), sigma)]
    if band is not None:
        nearest = min(abs(limit - distance_mm) for limit in limits_mm[:-1])
        margins.append(Margin("band", nearest, sigma))
    return band, margins


def _fire_message(
    a: str,
    b: str,
    allowed: bool,
    reasons: Sequence[Reason],
    distance_mm: float,
    unit: Unit,
    band: str | None,
    sight: Sight,
    cover_rolls: Sequence[Mapping[str, Any]],
) -> str:
    at = in_units(unit.from_mm(distance_mm), "pas")
    hidden = f"{sight.hidden_fraction:.0%} hidden"
    if allowed:
        text = f"{a} may shoot at {b} at {at} ({band} range), {hidden}"
        if cover_rolls:
            rolls = ", ".join(f"{r['obstacle']} {r['needed']}+" for r in cover_rolls)
            text += f"; in cover, cover rolls: {rolls}"
        return text
    return f"{a} may not shoot at {b} ({at}, {hidden}): " + reason_words(reasons)
