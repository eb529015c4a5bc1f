"""Smooth & Rifled artillery templates (Règles avancées): round shot, canister, explosion.

Each answers with the figures touched: a figure is touched when its base lies even
partly in the template. Shots are measured from the gun's muzzle
(``attrs.muzzle_mm``, else the middle of the front of the gun's base).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from fractions import Fraction

import numpy as np
import shapely

from arbitre.rules.answers import (
    Margin,
    Reason,
    Said,
    deciding,
    warning_lines,
    with_certainty,
)
from arbitre.rules.errors import QuestionError
from arbitre.rules.model import Figure, Scene
from arbitre.rules.options import Degrees
from arbitre.rules.ruleset import coordinate_mm
from arbitre.rules.smooth_and_rifled.answers import SRTemplateAnswer
from arbitre.rules.smooth_and_rifled.bases import footprints, gaps_of, index_of
from arbitre.rules.smooth_and_rifled.book import GUNS, MM_PER_CM, NUMBERS, Gun
from arbitre.rules.smooth_and_rifled.dice import (
    TO_HIT,
    at_least,
    at_least_rerolling_one,
    band_of,
    sum_pmf,
)
from arbitre.rules.smooth_and_rifled.geometry import (
    cover,
    hits_in,
    muzzle,
    sector,
    strip_lengths_mm,
)
from arbitre.rules.smooth_and_rifled.groups import resolve
from arbitre.rules.smooth_and_rifled.options import Calibre, LengthCm, options_of

ARTILLERY_DICE = 3
"""Artillery always rolls 3d6 to hit, with no re-roll for cover."""


def _gun(scene: Scene, name: str) -> tuple[Figure, Gun]:
    _, figure = resolve(scene, name)
    if figure.type != "artillery":
        raise QuestionError(f"{name!r} is not a gun (type: artillery), got type {figure.type!r}")
    return figure, GUNS[str(figure.attrs.get("gun", "light"))]


def _crew(scene: Scene, gun: Figure) -> list[str]:
    """The gun and the figures in contact with it (they stand behind the muzzle)."""
    gaps = gaps_of(scene).row(index_of(scene, gun.id))
    tolerance = options_of(scene).contact_tolerance_mm
    return [f.id for i, f in enumerate(scene.figures) if gaps[i] <= tolerance]


def roundshot_question(
    scene: Scene, a: str, b: str, length_cm: LengthCm | None = None
) -> SRTemplateAnswer:
    """Round shot of gun A at figure B: the target and a 4 cm wide strip behind it.

    With ``length_cm`` (the 4d6 rolled, already doubled for a medium gun) the strip's
    figures are listed; without it, each figure's chance to be touched.
    """
    options = options_of(scene)
    gun, numbers = _gun(scene, a)
    _, target = resolve(scene, b)
    origin = muzzle(gun)
    prints = footprints(scene)
    target_print = prints[index_of(scene, target.id)]
    distance = float(shapely.Point(origin).distance(target_print))
    medium = options.mm(numbers.medium_range_cm)
    band = band_of(distance, medium, extreme=bool(gun.attrs.get("rifled", False)))
    reasons: list[Reason] = []
    warnings: list[str] = []
    margins: list[Margin] = []
    if band is None:
        reasons.append(Reason.OUT_OF_RANGE)
    crew = _crew(scene, gun)
    segment = shapely.LineString([origin, target.xy])
    blockers = [
        f.id
        for i, f in enumerate(scene.figures)
        if f.id not in crew and f.id != target.id and segment.intersects(prints[i])
    ]
    if blockers:
        reasons.append(Reason.LINE_BLOCKED)
    width = options.mm(NUMBERS.strip_width_cm)
    needed, _, _ = strip_lengths_mm(scene, origin, target, width, crew)
    hit: list[str] = [target.id]
    chances: dict[str, float] = {}
    size_mm: float | None = None
    if length_cm is not None:
        size_mm = options.mm(length_cm)
        for name, need in sorted(needed.items(), key=lambda item: item[1]):
            if need <= size_mm:
                hit.append(name)
            margins.append(Margin(f"strip {name}", abs(size_mm - need), 0.0))
    else:
        totals = sum_pmf(numbers.strip_dice)
        for name, need in sorted(needed.items(), key=lambda item: item[1]):
            chance = sum(
                (
                    p
                    for total, p in totals.items()
                    if options.mm(total * numbers.strip_factor) >= need
                ),
                Fraction(0),
            )
            chances[name] = float(chance)
        chances[target.id] = 1.0
        hit = [target.id]
        warnings.append(
            f"strip length: {numbers.strip_dice}d6 cm"
            + (f" x{numbers.strip_factor}" if numbers.strip_factor > 1 else "")
        )
    to_hit = TO_HIT[band] if band is not None else None
    rifled = bool(gun.attrs.get("rifled", False))
    if rifled and to_hit is not None:
        warnings.append(Said("rifled_reroll", "a rifled gun re-rolls 1d6 to hit (in the chance)"))
    shot_chance: float | None = None
    if to_hit is not None:
        shot_chance = float(
            at_least_rerolling_one(ARTILLERY_DICE, to_hit)
            if rifled
            else at_least(ARTILLERY_DICE, to_hit)
        )
    text = (
        f"round shot of {gun.id} at {target.id}: {distance / MM_PER_CM:.1f} cm"
        + (f", {band} range, {to_hit}+ on 3d6" if band else ", out of range")
        + (f"; touches {', '.join(hit)}" if length_cm is not None else "")
    )
    if blockers:
        text += f"; the line is blocked by {', '.join(blockers)}"
    return SRTemplateAnswer(
        question="roundshot",
        message=with_certainty(text, *margins),
        margins=tuple(margins),
        template="roundshot",
        gun=gun.id,
        target=target.id,
        allowed=not reasons,
        reasons=tuple(reasons),
        origin_mm=(float(origin[0]), float(origin[1])),
        distance_mm=distance,
        distance_units=distance / MM_PER_CM,
        unit="cm",
        band=band,
        to_hit_3d6=to_hit,
        shot_hit_probability=shot_chance,
        size_mm=size_mm,
        size_units=None if size_mm is None else size_mm / MM_PER_CM,
        hit=tuple(hit),
        friends_hit=tuple(n for n in hit if _friend(scene, gun, n)),
        needed_length_units={n: need / MM_PER_CM for n, need in needed.items()},
        hit_probability=chances,
        test_needs=test_needs(scene, gun, numbers, [*hit, *chances]),
        blocked_by=tuple(blockers),
        warnings=tuple(warnings),
    )


def test_needs(scene: Scene, gun: Figure, numbers: Gun, names: Iterable[str]) -> dict[str, int]:
    """The die each figure a shot of ``gun`` touches must make to be saved (Artillerie):
    « Le test est réussi sur 4+ ou 3+ si la figurine est derrière un couvert lourd » (a
    medium gun: « 5+ (4+ en couvert lourd) »); a gun shot at by a gun « sur 3+ », its
    ammunition box « de 5+ ». Heavy cover is the cover a figure has against the gun."""
    options = options_of(scene)
    needs: dict[str, int] = {}
    for name in names:
        figure = scene.figure(name)
        if figure is None:
            continue
        if figure.type == "artillery":
            needs[name] = NUMBERS.gun_test_from
        elif figure.attrs.get("ammunition_of") is not None:
            needs[name] = NUMBERS.box_test_from
        else:
            shelter = cover(scene, options, gun, figure)
            heavy = shelter.grade != "none" and shelter.weight == "heavy"
            needs[name] = numbers.test_from - (1 if heavy else 0)
    return needs


def _friend(scene: Scene, gun: Figure, name: str) -> bool:
    other = scene.figure(name)
    return other is not None and not scene.are_enemies(gun.side, other.side)


def _touching(
    scene: Scene,
    gun: Figure | None,
    region: shapely.Geometry,
    exclude: list[str],
    exact: Callable[[str], float] | None = None,
) -> tuple[list[str], list[str], tuple[Margin, ...]]:
    """Figures touched by a template, friends of the gun among them, and the deciding margin."""
    margins_by_figure = hits_in(scene, region, exclude)
    if exact is not None:
        margins_by_figure = {name: exact(name) for name in margins_by_figure}
    # a base touching the template is hit: the arcs of templates and of round bases are
    # drawn as chords, up to about 0.015 mm inside them, so touching is met within that
    hit = [name for name, margin in margins_by_figure.items() if margin >= -CHORD_SLACK_MM]
    friends = [name for name in hit if gun is not None and _friend(scene, gun, name)]
    every = [
        Margin(f"template {name}", abs(m), _sigma(scene, name))
        for name, m in margins_by_figure.items()
    ]
    decisive = deciding(every)
    return hit, friends, () if decisive is None else (decisive,)


def _sigma(scene: Scene, name: str) -> float:
    figure = scene.figure(name)
    return 0.0 if figure is None else figure.sigma_mm


CHORD_SLACK_MM = 0.02
"""How far apart a base and a template may be drawn and still touch: their arcs are
chords (1 degree steps on a 45 cm reach: 0.017 mm inside the arc)."""


def canister_question(scene: Scene, a: str, facing_deg: Degrees | None = None) -> SRTemplateAnswer:
    """Canister of gun A: every figure, even friends, within 30 cm (45) in a 90 degree cone."""
    options = options_of(scene)
    gun, numbers = _gun(scene, a)
    facing = gun.facing_deg if facing_deg is None else facing_deg
    origin = muzzle(gun)
    radius = options.mm(numbers.canister_cm)
    cone = sector(origin, facing, NUMBERS.canister_cone_deg, radius)
    hit, friends, margins = _touching(scene, gun, cone, [gun.id])
    warnings = []
    if friends:
        warnings.append(
            f"friends in the cone ({', '.join(friends)}): fire only on an officer's order"
        )
    text = f"canister of {gun.id} towards {facing:g} deg, {radius / MM_PER_CM:g} cm: touches " + (
        ", ".join(hit) or "nobody"
    )
    return SRTemplateAnswer(
        question="canister",
        message=with_certainty(text, *margins) + warning_lines(warnings),
        margins=margins,
        template="canister",
        gun=gun.id,
        origin_mm=(float(origin[0]), float(origin[1])),
        unit="cm",
        size_mm=radius,
        size_units=radius / MM_PER_CM,
        hit=tuple(hit),
        friends_hit=tuple(friends),
        test_needs=test_needs(scene, gun, numbers, hit),
        warnings=tuple(warnings),
    )


def explosion_question(
    scene: Scene, x: str, y: str, calibre: Calibre = "light"
) -> SRTemplateAnswer:
    """An ammunition box exploding at (X, Y): everything within 20 cm (30 cm for a medium gun)."""
    options = options_of(scene)
    gun = GUNS[calibre]
    point = np.array([coordinate_mm(x, "X"), coordinate_mm(y, "Y")])
    radius = options.mm(gun.explosion_cm)
    disc = shapely.Point(point).buffer(radius, quad_segs=64)
    prints = footprints(scene)
    centre = shapely.Point(point)

    def inside_mm(name: str) -> float:
        return radius - float(centre.distance(prints[index_of(scene, name)]))

    hit, _, margins = _touching(scene, None, disc, [], inside_mm)
    text = f"explosion at ({point[0]:g}, {point[1]:g}), {radius / MM_PER_CM:g} cm: touches " + (
        ", ".join(hit) or "nobody"
    )
    return SRTemplateAnswer(
        question="explosion",
        message=with_certainty(text, *margins),
        margins=margins,
        template="explosion",
        origin_mm=(float(point[0]), float(point[1])),
        unit="cm",
        size_mm=radius,
        size_units=radius / MM_PER_CM,
        hit=tuple(hit),
    )
