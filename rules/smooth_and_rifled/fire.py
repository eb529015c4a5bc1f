"""Smooth & Rifled fire (§6.2): each shooter's band, arc, line of fire, sight and cover."""

from __future__ import annotations

import math
from dataclasses import dataclass, field

from arbitre.rules.answers import (
    Margin,
    Reason,
    Said,
    least_sure,
    refusing,
    warning_lines,
    with_certainty,
)
from arbitre.rules.errors import QuestionError
from arbitre.rules.model import Figure, Scene, sigma_between
from arbitre.rules.options import Flag
from arbitre.rules.smooth_and_rifled.answers import SRFireAnswer
from arbitre.rules.smooth_and_rifled.bases import figure_gap_mm, footprints, gaps_of, index_of
from arbitre.rules.smooth_and_rifled.book import MM_PER_CM, NUMBERS, UNIT, weapon_range_cm
from arbitre.rules.smooth_and_rifled.dice import (
    BANDS,
    TO_HIT,
    at_least,
    band_of,
    shooting_dice,
    shooting_rerolls,
    volley_dice,
)
from arbitre.rules.smooth_and_rifled.geometry import cover, in_arc, line_of_fire, served_gun, sight
from arbitre.rules.smooth_and_rifled.groups import is_marker, is_mounted, resolve
from arbitre.rules.smooth_and_rifled.options import SmoothAndRifledOptions, options_of
from arbitre.rules.smooth_and_rifled.reasons import reason_words

_CHECKS = {
    Reason.OUT_OF_RANGE: "range",
    Reason.NOT_IN_ARC: "arc",
    Reason.LINE_BLOCKED: "line",
    Reason.NOT_VISIBLE: "sight",
}
"""The margin each refusal of a shot rests on."""


def fire_question(
    scene: Scene, a: str, b: str, aimed: Flag = False, moved: Flag = False
) -> SRFireAnswer:
    """May A (a figure or a group) shoot at B: bands, arc, line, sight, cover and dice (§6.2)."""
    options = options_of(scene)
    is_aimed, has_moved = aimed, moved
    group, lead = resolve(scene, a)
    team = list(group.figures) if group is not None else [lead]
    target = _target(scene, b, team)
    if target.id in {f.id for f in team}:
        raise QuestionError(f"{b!r} cannot shoot at itself")
    arc_deg = NUMBERS.group_arc_deg if group is not None else NUMBERS.single_arc_deg
    friends = [f.id for f in team] if group is not None else []
    global_reasons: list[Reason] = []
    if not scene.are_enemies(lead.side, target.side):
        global_reasons.append(Reason.TARGET_NOT_ENEMY)
    armed = [f for f in team if weapon_range_cm(f) is not None]
    if not armed:
        global_reasons.append(Reason.NO_SHOOTERS)
    shots = [
        _shot(scene, options, f, target, arc_deg, friends, is_aimed, group is not None)
        for f in armed
    ]
    allowed_shots = [s for s in shots if not s.reasons]
    allowed = bool(allowed_shots) and not global_reasons
    pool = allowed_shots or shots
    reported = min(pool, key=lambda s: s.distance_mm) if pool else None

    reasons = list(global_reasons)
    if not allowed_shots:
        for shot in shots:
            reasons.extend(r for r in shot.reasons if r not in reasons)
    warnings: list[str] = gun_target_warning(lead, target)
    refused = {s.figure.id: [r.value for r in s.reasons] for s in shots if s.reasons}
    if group is not None and allowed_shots and refused:
        warnings.extend(
            f"{s.figure.id} cannot shoot ({reason_words(s.reasons)})" for s in shots if s.reasons
        )
    volleys: dict[str, list[str]] = {}
    for shot in allowed_shots:
        assert shot.band is not None
        volleys.setdefault(shot.band, []).append(shot.figure.id)

    distance_mm = reported.distance_mm if reported else figure_gap_mm(scene, lead, target)
    band = reported.band if reported else None
    shelter = cover(scene, options, reported.figure if reported else lead, target)
    to_hit = TO_HIT[band] if band is not None else None
    sniper = bool(reported and reported.figure.attrs.get("sniper", False))
    if group is not None and band is not None:
        volley = len(volleys[band]) if allowed else 0
        dice = volley_dice(volley, aimed=is_aimed, moved=has_moved) if volley else 0
    else:
        dice = shooting_dice(aimed=is_aimed, sniper=sniper, moved=has_moved)
    rerolls = shooting_rerolls(cover=shelter.grade != "none", aimed=is_aimed, sniper=sniper)
    chance = float(at_least(dice, to_hit, rerolls)) if allowed and to_hit else None
    if allowed and band == "extreme" and dice < 3:
        warnings.append(
            Said(
                "extreme_needs_three",
                "13+ cannot be reached on 2 dice: an extreme shot needs 3 dice",
            )
        )
    if shelter.grade != "none":
        features = ", ".join(shelter.features)
        if is_aimed or sniper:
            note = Said(
                "in_cover_aimed",
                "{target} is in cover ({features}): re-roll the 6s",
                target=target.id,
                features=features,
            )
        else:
            note = Said(
                "in_cover",
                "{target} is in cover ({features}): re-roll the 5s and 6s",
                target=target.id,
                features=features,
            )
        warnings.append(note)
    if shelter.grade == "total":
        warnings.append(
            Said(
                "total_cover",
                "{target} is in total cover (obstacle level {level})",
                target=target.id,
                level=shelter.level,
            )
        )
    if allowed and reported is not None:
        warnings.extend(
            _nearest_warnings(scene, options, reported.figure, target, arc_deg, friends)
        )
    if len(volleys) > 1:
        warnings.append(
            "shooters at different bands fire separate volleys: "
            + "; ".join(f"{k}: {', '.join(v)}" for k, v in volleys.items())
        )
    margins = reported.margins if reported else ()
    if not allowed:
        # Refused: each shooter on the check that failed him (not the others), and the
        # answer only as sure as the refusal nearest to going the other way; a target
        # that is no enemy, or no weapon, is refused for certain.
        margins = (
            ()
            if global_reasons
            else least_sure(
                m for shot in shots for m in refusing(shot.margins, shot.reasons, _CHECKS)
            )
        )
    elif reported:
        if shelter.margin_mm is not None:
            # how far the obstacle is from the shooter: his position's doubt alone
            margins = (*margins, Margin("cover", shelter.margin_mm, reported.figure.sigma_mm))
        if shelter.shelter_margin_mm is not None:
            # how far the target stands from the edge of the ground sheltering it: its own
            margins = (*margins, Margin("shelter", shelter.shelter_margin_mm, target.sigma_mm))
        if shelter.crew_margin_mm is not None:
            # how far the gunner stands from the 3 cm about its gun: the two figures' doubt
            served = served_gun(scene, target)
            assert served is not None
            margins = (
                *margins,
                Margin("crew", shelter.crew_margin_mm, sigma_between(target, served)),
            )
    shooter_name = group.name if group is not None else lead.id
    if allowed:
        text = (
            f"{shooter_name} may shoot at {target.id}: {distance_mm / MM_PER_CM:.1f} cm, "
            f"{band} range, {to_hit}+ on {dice}d6"
        )
    else:
        text = f"{shooter_name} may not shoot at {target.id}: " + reason_words(reasons)
    return SRFireAnswer(
        question="fire",
        message=with_certainty(text, *margins) + warning_lines(warnings),
        margins=margins,
        shooter=shooter_name,
        target=target.id,
        allowed=allowed,
        reasons=tuple(reasons),
        distance_mm=distance_mm,
        distance_units=UNIT.from_mm(distance_mm),
        unit=UNIT.name,
        band=band,
        medium_range_mm=reported.medium_range_mm if reported else None,
        to_hit_2d6=to_hit,
        dice=dice,
        hit_probability=chance,
        arc_deg=arc_deg,
        blocked_by=reported.blocked_by if reported else (),
        cover=shelter.features,
        cover_level=shelter.level,
        cover_grade=shelter.grade,
        cover_weight=shelter.weight,
        visible=reported.visible if reported else True,
        shooters=tuple(s.figure.id for s in allowed_shots) if allowed else (),
        volleys=volleys if allowed else {},
        refused=refused,
        warnings=tuple(warnings),
    )


def extreme_allowed(shooter: Figure, *, aimed: bool, group_fire: bool) -> bool:
    """Whether the extreme band (3R, 13+) is open to this shooter (§6.2.1).

    "Portée Extrême : Portée Moyenne X 3 (seulement possible pour les Tireurs d'Elite
    et le tir visé des Groupes armés de fusils)": a sniper always; otherwise only a
    group's aimed fire, with rifled weapons (``attrs.weapon.rifled``). A lone figure
    that is not a sniper never shoots at extreme range, aimed or not.
    """
    if shooter.attrs.get("sniper", False):
        return True
    weapon = shooter.attrs.get("weapon") or {}
    return group_fire and aimed and bool(weapon.get("rifled", False))


@dataclass(slots=True)
class _Shot:
    """One shooter's view of the target."""

    figure: Figure
    distance_mm: float
    medium_range_mm: float
    reasons: list[Reason] = field(default_factory=list)
    margins: tuple[Margin, ...] = ()
    band: str | None = None
    blocked_by: tuple[str, ...] = ()
    visible: bool = True


def _shot(
    scene: Scene,
    options: SmoothAndRifledOptions,
    shooter: Figure,
    target: Figure,
    arc_deg: float,
    friends: list[str],
    aimed: bool,
    group_fire: bool,
) -> _Shot:
    range_cm = weapon_range_cm(shooter)
    assert range_cm is not None
    medium_mm = options.mm(range_cm)
    distance = figure_gap_mm(scene, shooter, target)
    shot = _Shot(shooter, distance, medium_mm)
    if shooter.attrs.get("shaken", False):
        # §6.2.9: « Une figurine Secouée ne peut effectuer aucune Action »: it does not shoot
        shot.reasons.append(Reason.SHAKEN)
    sigma = sigma_between(shooter, target)
    margins: list[Margin] = []
    extreme = extreme_allowed(shooter, aimed=aimed, group_fire=group_fire)
    shot.band = band_of(distance, medium_mm, extreme)
    if shot.band is None:
        shot.reasons.append(Reason.OUT_OF_RANGE)
        reach = (3.0 if extreme else 2.0) * medium_mm
        margins.append(Margin("range", distance - reach, sigma))
    else:
        factors = dict(BANDS)
        names = [name for name, _ in BANDS]
        upper = factors[shot.band] * medium_mm
        position = names.index(shot.band)
        lower = factors[names[position - 1]] * medium_mm if position else None
        edge = upper - distance if lower is None else min(upper - distance, distance - lower)
        margins.append(Margin(f"band {shot.band}", edge, sigma))
    target_print = footprints(scene)[index_of(scene, target.id)]
    inside, arc_margin = in_arc(shooter, target_print, arc_deg)
    if not inside:
        shot.reasons.append(Reason.NOT_IN_ARC)
    margins.append(Margin("arc", arc_margin, sigma))
    line = line_of_fire(scene, options, shooter, target, friends)
    if line.blocked_by:
        shot.reasons.append(Reason.LINE_BLOCKED)
        shot.blocked_by = line.blocked_by
    if math.isfinite(line.margin_mm):
        margins.append(Margin("line", line.margin_mm, line.sigma_mm))
    seen = sight(scene, options, shooter, target)
    shot.visible = seen.visible
    if not seen.visible:
        shot.reasons.append(Reason.NOT_VISIBLE)
    if seen.margin_mm is not None:
        margins.append(Margin("sight", seen.margin_mm, sigma))
    shot.margins = tuple(margins)
    return shot


def gun_target_warning(shooter: Figure, target: Figure) -> list[str]:
    """The warning that small arms harm a gun's crew, not the gun: « Les artilleurs peuvent
    être victimes de tirs »; only « une autre pièce d'artillerie » makes the gun test."""
    if target.type != "artillery" or shooter.type == "artillery":
        return []
    return [
        Said(
            "gun_not_small_arms_target",
            "{gun} is a gun: small arms shoot its gunners; only a gun's shot harms it",
            gun=target.id,
        )
    ]


def _nearest_warnings(
    scene: Scene,
    options: SmoothAndRifledOptions,
    shooter: Figure,
    target: Figure,
    arc_deg: float,
    friends: list[str],
) -> list[str]:
    """Warnings for "shoot the nearest target first": nearer enemies in sight."""
    gaps = gaps_of(scene).row(index_of(scene, shooter.id))
    target_gap = gaps[index_of(scene, target.id)]
    prints = footprints(scene)
    nearer: list[str] = []
    for i, other in enumerate(scene.figures):
        if other.id == target.id or gaps[i] >= target_gap:
            continue
        if not scene.are_enemies(shooter.side, other.side) or other.attrs.get("shaken", False):
            continue
        if is_marker(other):
            continue  # an ambush marker is no target until revealed, an ammunition box none
        if other.type == "artillery" and shooter.type != "artillery":
            continue  # small arms shoot a gun's crew, not the gun (« Tir contre l'artillerie »)
        if is_mounted(target) and not is_mounted(other):
            continue  # cavalry may be shot behind infantry
        if not in_arc(shooter, prints[i], arc_deg)[0]:
            continue
        if line_of_fire(scene, options, shooter, other, friends).blocked_by:
            continue
        if not sight(scene, options, shooter, other).visible:
            continue
        nearer.append(f"{other.id} ({gaps[i] / MM_PER_CM:.1f} cm)")
    if not nearer:
        return []
    return [
        Said(
            "nearest_first",
            "shoot the nearest target first: {nearer} nearer than {target} ({cm} cm)",
            nearer=", ".join(nearer),
            target=target.id,
            cm=f"{target_gap / MM_PER_CM:.1f}",
        )
    ]


def _target(scene: Scene, name: str, shooters: list[Figure]) -> Figure:
    """The figure shot at: the named figure, or the named group's figure nearest the shooters."""
    group, figure = resolve(scene, name)
    if group is None:
        return figure
    rows = [index_of(scene, f.id) for f in shooters]
    gaps = gaps_of(scene).block(rows, [index_of(scene, f.id) for f in group.figures])
    return group.figures[int(gaps.min(axis=0).argmin())]
