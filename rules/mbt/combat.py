"""Facing and combat: points, outcome, supports, recoil and its blockers."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import shapely

from arbitre.rules.answers import ContactAnswer, Reason, Said, Unit, with_certainty
from arbitre.rules.mbt.answers import CombatAnswer, FacingAnswer, MbtContactAnswer, Side
from arbitre.rules.mbt.book import (
    DEFAULT_FIGURES,
    ELEPHANT_FIGURES,
    NEAR_SLACK_MM,
    NUMBERS,
    TOUCH_MM2,
)
from arbitre.rules.mbt.options import MbtOptions, options_of, unit_of
from arbitre.rules.mbt.plates import (
    Plate,
    aligned_friends,
    contact_gap,
    contact_kind,
    edge_contact,
    face_to_face,
    layout_of,
    penetration_mm,
    plate_of,
    plate_pair,
    plates_of,
    terrain_barred_to,
)
from arbitre.rules.mbt.reasons import reason_words
from arbitre.rules.model import Figure, Scene
from arbitre.rules.options import Die
from arbitre.rules.ruleset import Gap


def edge_or_corner(answer: ContactAnswer, found: Gap, options: MbtOptions) -> MbtContactAnswer:
    """The ``contact`` answer (from the bases' `contact_gap` ``found``) told as MBT tells it:
    whether A and B touch by an edge or a corner, and which edges."""
    a, b, gap = answer.a, answer.b, answer.gap_mm
    kind: str | None = None
    edges: tuple[str, ...] = ()
    if answer.contact:
        kind, edges = contact_kind(plate_of(found.first), plate_of(found.second), options)
        text = f"{a} and {b} touch by {'an edge' if kind == 'edge' else 'a corner'}" + (
            f" ({edges[0]} of {a} on {edges[1]} of {b})" if edges else ""
        )
    else:
        text = f"{a} and {b} are not in contact (gap {gap:.1f} mm)"
    return MbtContactAnswer(
        question=answer.question,
        message=with_certainty(text, *answer.margins),
        margins=answer.margins,
        a=a,
        b=b,
        contact=answer.contact,
        gap_mm=gap,
        threshold_mm=answer.threshold_mm,
        kind=kind,
        edges=edges,
    )


def facing_answer(scene: Scene, a: str, b: str) -> FacingAnswer:
    """Whether A and B are face to face; if A contacts B otherwise, how B turns to face A.

    Only an enemy turns: "Quand une plaquette contacte une plaquette adverse [...]
    l'unité contactée aligne aussitôt son front sur le front de l'attaquant."
    """
    options = options_of(scene)
    attacker, target = plate_pair(scene, a, b)
    found = contact_gap(attacker, target, options)
    touching, margin = found.gap_mm <= found.threshold_mm, found.margin()
    face = face_to_face(attacker, target, options)
    turns: str | None = None
    new_facing = new_x = new_y = None
    reasons: tuple[Reason, ...] = ()
    enemies = scene.are_enemies(attacker.figure.side, target.figure.side)
    if not enemies or not touching:
        reasons = (
            *(() if enemies else (Reason.TARGET_NOT_ENEMY,)),
            *(() if touching else (Reason.NOT_IN_CONTACT,)),
        )
        text = f"{b} does not turn to face {a}: {reason_words(reasons)}"
    elif face:
        text = f"{a} and {b} are face to face"
    else:
        engaged = [
            other.figure.id
            for other in plates_of(scene)
            if other.figure.id not in (attacker.figure.id, target.figure.id)
            and scene.are_enemies(other.figure.side, target.figure.side)
            and face_to_face(other, target, options)
        ]
        if engaged:
            text = f"{b} does not turn: it is already face to face with {', '.join(engaged)}"
        else:
            turns = b
            new_facing = (attacker.figure.facing_deg + 180.0) % 360.0
            front = attacker.corner(1, 0)
            centre = front + target.depth_mm / 2 * attacker.u
            new_x, new_y = float(centre[0]), float(centre[1])
            text = (
                f"{b} turns to face {a}: facing {new_facing:.1f} deg, centre "
                f"({new_x:.1f}, {new_y:.1f}) mm, its front on {a}'s front"
            )
    return FacingAnswer(
        question="facing",
        message=with_certainty(text, margin),
        margins=(margin,),
        a=a,
        b=b,
        contact=touching,
        face_to_face=face,
        turns=turns,
        new_facing_deg=new_facing,
        new_x_mm=new_x,
        new_y_mm=new_y,
        reasons=reasons,
    )


def combat_answer(
    scene: Scene,
    a: str,
    b: str,
    die_a: Die | None = None,
    die_b: Die | None = None,
    die_panic: Die | None = None,
) -> CombatAnswer:
    """The combat of A against B; with the dice, its outcome and the recoil."""
    options = options_of(scene)
    unit = unit_of(scene)
    first, second = plate_pair(scene, a, b)
    reasons: list[Reason] = []
    if not scene.are_enemies(first.figure.side, second.figure.side):
        reasons.append(Reason.TARGET_NOT_ENEMY)
    found = contact_gap(first, second, options)
    touching, margin = found.gap_mm <= found.threshold_mm, found.margin()
    if not touching:
        reasons.append(Reason.NOT_IN_CONTACT)
    elif not face_to_face(first, second, options):
        reasons.append(Reason.NOT_FACE_TO_FACE)
    side_a = combat_side(scene, first, second, options, die_a)
    side_b = combat_side(scene, second, first, options, die_b)
    result = combat_result(
        scene, first, second, side_a, side_b, options, unit, die_panic, may_lose_a=True
    )
    allowed = not reasons
    text = _combat_text(a, b, allowed, reasons, side_a, side_b, result)
    return CombatAnswer(
        question="combat",
        message=with_certainty(text, margin),
        margins=(margin,),
        a=a,
        b=b,
        allowed=allowed,
        reasons=tuple(reasons),
        score_a=sum(side_a.points.values()),
        score_b=sum(side_b.points.values()),
        points_a=side_a.points,
        points_b=side_b.points,
        total_a=side_a.total,
        total_b=side_b.total,
        unit=unit.name,
        **(result if allowed else {}),
    )


def base_figures(figure: Figure) -> int:
    """Fighting figures on a base: ``attrs.figures``, else the default for its kind.

    >>> base_figures(Figure("a", "x", 0, 0, type="infantry", attrs={"heavy": True}))
    4
    """
    count = figure.attrs.get("figures")
    if isinstance(count, int) and not isinstance(count, bool):
        return count
    if figure.attrs.get("elephant", False):
        return ELEPHANT_FIGURES
    return DEFAULT_FIGURES[(str(figure.type), bool(figure.attrs.get("heavy", False)))]


def combat_points(figure: Figure, supports: int = 0, rear_support: bool = False) -> dict[str, int]:
    """What a base adds to its die, item by item.

    >>> combat_points(Figure("g", "x", 0, 0, type="infantry",
    ...                      attrs={"heavy": True, "general": True}), 1, True)
    {'figures': 4, 'heavy': 1, 'general': 1, 'support': 1, 'rear_support': 1}
    """
    attrs = figure.attrs
    points = {"figures": base_figures(figure)}
    if attrs.get("elephant", False):
        points["elephant"] = NUMBERS.elephant_bonus
    if attrs.get("heavy", False):
        points["heavy"] = NUMBERS.heavy_bonus
    if attrs.get("general", False):
        points["general"] = NUMBERS.general_bonus
    if supports:
        points["support"] = NUMBERS.support_bonus * supports
    if rear_support:
        points["rear_support"] = NUMBERS.rear_support_bonus
    return points


def outcome(total_a: int, total_b: int) -> tuple[str, int]:
    """``(result, loser)``: ``tie`` (loser 0), ``eliminated`` or ``recoil``; loser 1 = A, 2 = B.

    >>> outcome(7, 7), outcome(10, 5), outcome(9, 5), outcome(4, 9)
    (('tie', 0), ('eliminated', 2), ('recoil', 2), ('eliminated', 1))
    """
    if total_a == total_b:
        return "tie", 0
    winner, loser = max(total_a, total_b), min(total_a, total_b)
    beaten = 2 if total_a > total_b else 1
    if winner >= NUMBERS.elimination_ratio * loser:
        return "eliminated", beaten
    return "recoil", beaten


def _rear_support(scene: Scene, plate: Plate, options: MbtOptions) -> str | None:
    """A second infantry base aligned behind an infantry base: its id."""
    if plate.figure.type != "infantry":
        return None
    layout = layout_of(scene)
    near = layout.gaps_mm(plate) <= options.contact_tolerance_mm + NEAR_SLACK_MM
    for other, close in zip(layout.plates, near, strict=True):
        if not close or other.figure.id == plate.figure.id or other.figure.type != "infantry":
            continue
        if other.figure.side != plate.figure.side:
            continue
        pair = edge_contact(plate, other, options.contact_tolerance_mm, options.align_tolerance_deg)
        if (
            pair is not None
            and pair[:2] == ("back", "front")
            and aligned_friends(plate, other, options)
        ):
            return other.figure.id
    return None


def combat_side(
    scene: Scene, own: Plate, enemy: Plate, options: MbtOptions, die: int | None
) -> Side:
    """One side of a combat or a shot: ``own`` against ``enemy``, its points and, with its
    die, its total."""
    layout = layout_of(scene)
    touching = layout.gaps_mm(enemy) <= options.contact_tolerance_mm
    supports = tuple(
        other.figure.id
        for other, touches in zip(layout.plates, touching, strict=True)
        if touches
        and other.figure.id not in (own.figure.id, enemy.figure.id)
        and not scene.are_enemies(own.figure.side, other.figure.side)
    )
    rear = _rear_support(scene, own, options)
    points = combat_points(own.figure, len(supports), rear is not None)
    total = None if die is None else die + sum(points.values())
    return Side(own.figure.id, points["figures"], points, supports, rear, die, total)


def combat_result(
    scene: Scene,
    first: Plate,
    second: Plate,
    side_a: Side,
    side_b: Side,
    options: MbtOptions,
    unit: Unit,
    die_panic: int | None,
    *,
    may_lose_a: bool,
) -> dict[str, Any]:
    """The outcome of a combat (or of a shot, where A may not lose: ``may_lose_a``) once
    both sides' dice are known: ``outcome``, ``loser``, the recoil and whether it is
    blocked, an elephant's panic; only ``outcome: None`` before the dice."""
    result: dict[str, Any] = {"outcome": None}
    if side_a.total is None or side_b.total is None:
        return result
    verdict, beaten = outcome(side_a.total, side_b.total)
    result["outcome"] = verdict
    if beaten == 0:
        return result
    loser, winner = (first, second) if beaten == 1 else (second, first)
    result["loser"] = loser.figure.id
    if beaten == 1 and not may_lose_a:
        result["outcome"] = "shooter fails"
        return result
    if verdict != "recoil":
        return result
    result["recoil_mm"] = loser.depth_mm
    result["recoil_units"] = unit.from_mm(loser.depth_mm)
    if loser.figure.attrs.get("elephant", False):
        result["panic"] = True
        result["warnings"] = (
            Said(
                "elephant_panics",
                "an elephant that must recoil panics: roll 1D6 (1 ahead, 2 left, 3 right, "
                "4-6 back); it tramples every base it meets, another elephant panics in turn",
            ),
        )
        if die_panic is not None:
            result["panic_direction"] = NUMBERS.panic[die_panic]
        return result
    blocked = recoil_blockers(scene, loser, winner, options)
    result["recoil_blocked"] = bool(blocked)
    result["recoil_blocked_by"] = blocked
    if blocked:
        result["outcome"] = "eliminated"
    return result


def recoil_blockers(
    scene: Scene, loser: Plate, winner: Plate, options: MbtOptions
) -> tuple[str, ...]:
    """What stops a base recoiling by its depth: the table edge, impassable terrain, a base
    in the way, or an enemy front it would come to touch (one it touched already does not)."""
    layout = layout_of(scene)
    shift = -loser.depth_mm * loser.u
    moved = loser.polygon(shift)
    swept = shapely.convex_hull(shapely.union(loser.polygon(), moved))
    found: list[str] = []
    minx, miny, maxx, maxy = moved.bounds
    if minx < 0 or miny < 0 or maxx > scene.table.width_mm or maxy > scene.table.depth_mm:
        found.append("table edge")
    found.extend(
        ident
        for ident, g in terrain_barred_to(scene, loser.figure, options)
        if swept.intersection(g).area > TOUCH_MM2
    )
    near = shapely.distance(swept, layout.polygons) <= options.contact_tolerance_mm + NEAR_SLACK_MM
    for other, shape, close in zip(layout.plates, layout.polygons, near, strict=True):
        if not close or other.figure.id in (loser.figure.id, winner.figure.id):
            continue
        if penetration_mm(swept, shape) > options.contact_tolerance_mm:
            found.append(other.figure.id)
        elif scene.are_enemies(loser.figure.side, other.figure.side):
            # an enemy front it did not touch before the recoil
            front = shapely.LineString(other.edge("front"))
            before = float(shapely.distance(loser.polygon(), front))
            after = float(shapely.distance(moved, front))
            if after <= options.contact_tolerance_mm < before:
                found.append(other.figure.id)
    return tuple(found)


def _combat_text(
    a: str,
    b: str,
    allowed: bool,
    reasons: Sequence[Reason],
    side_a: Side,
    side_b: Side,
    result: Mapping[str, Any],
) -> str:
    score = f"{a} +{sum(side_a.points.values())}, {b} +{sum(side_b.points.values())}"
    if not allowed:
        return f"{a} and {b} may not fight ({reason_words(reasons)}); {score}"
    if result.get("outcome") is None:
        return f"{a} against {b}: each rolls 1D6; {score}"
    text = f"{a} {side_a.total} against {b} {side_b.total}: {result['outcome']}"
    if result.get("loser"):
        text += f" ({result['loser']})"
    if result.get("recoil_blocked_by"):
        text += " - recoil blocked by " + ", ".join(result["recoil_blocked_by"])
    if result.get("panic"):
        text += " - the elephant panics" + (
            f" ({result['panic_direction']})" if result.get("panic_direction") else ""
        )
    return text
