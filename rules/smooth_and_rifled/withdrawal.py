"""Smooth & Rifled: falling back 15 cm + 1d6 before a group charge (§6.7.3)."""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Sequence
from fractions import Fraction

import numpy as np
import shapely

from arbitre.rules.answers import Margin, Reason, Said, warning_lines, with_certainty
from arbitre.rules.errors import QuestionError
from arbitre.rules.model import Figure, Scene
from arbitre.rules.options import Die, Flag
from arbitre.rules.smooth_and_rifled.answers import SRWithdrawalAnswer
from arbitre.rules.smooth_and_rifled.bases import base_of
from arbitre.rules.smooth_and_rifled.book import MM_PER_CM, NUMBERS, UNIT
from arbitre.rules.smooth_and_rifled.dice import FACES
from arbitre.rules.smooth_and_rifled.groups import resolve
from arbitre.rules.smooth_and_rifled.moves import BLOCKING_TERRAIN, OVERLAP_MM2
from arbitre.rules.smooth_and_rifled.options import options_of
from arbitre.rules.smooth_and_rifled.reasons import reason_words


def _combat(figures: Sequence[Figure]) -> int | None:
    """The C most common among the figures (ties: the lowest), None when none is given."""
    values = Counter(int(f.attrs["combat"]) for f in figures if f.attrs.get("combat") is not None)
    if not values:
        return None
    top = max(values.values())
    return min(c for c, n in values.items() if n == top)


def withdrawal_question(
    scene: Scene,
    a: str,
    b: str,
    die: Die | None = None,
    test_die: Die | None = None,
    defensive: Flag = False,
) -> SRWithdrawalAnswer:
    """A, charged by B, falls back 15 cm + 1d6 (§6.7.3).

    "Si un Groupe est chargé par un Groupe ayant le même effectif ou étant plus nombreux,
    le défenseur doit effectuer un Test de Moral et obtenir un résultat inférieur ou égal
    à sa valeur C avec 1d6. Si le Groupe chargé a une valeur C supérieure au Groupe qui
    charge ou occupe une position défensive, il peut relancer après un échec. Si le Test
    est un échec, le défenseur doit reculer, secoué, de 15cm+1d6." "Quand un Groupe en
    Ordre Serré charge un Groupe en Ordre Lâche, celui-ci peut, sans aucun test, se replier
    de 15cm + 1d6, sans être Secoué (Repli). Les figurines individuelles peuvent faire de
    même." Every figure of A moves the same distance straight away from B (from the
    centre of B's figures through the centre of A's); without ``die`` the destinations
    are those of the longest fall-back (15 + 6 cm).
    """
    options = options_of(scene)
    defenders_group, defender = resolve(scene, a)
    attackers_group, charger = resolve(scene, b)
    if not scene.are_enemies(charger.side, defender.side):
        raise QuestionError(f"{b!r} is not an enemy of {a!r}")
    defenders = list(defenders_group.figures) if defenders_group else [defender]
    attackers = list(attackers_group.figures) if attackers_group else [charger]
    warnings: list[str] = []
    close_attack = attackers_group is not None and not attackers_group.loose
    if attackers_group is not None and attackers_group.loose:
        warnings.append(
            Said(
                "loose_cannot_charge",
                "{group} is in loose order: it must close order to charge",
                group=attackers_group.name,
            )
        )
    kind = "none"
    if defenders_group is not None and not defenders_group.loose:
        if close_attack and len(attackers) >= len(defenders):
            kind = "test"
    elif close_attack:
        kind = "fallback"
        if defenders_group is not None:
            warnings.append(
                Said(
                    "may_close_and_hold",
                    "{group} may instead close order and test to hold",
                    group=defenders_group.name,
                )
            )

    rolled, test_roll = die, test_die
    needs: int | None = None
    again = False
    chance: float | None = None
    holds: bool | None = None
    if kind == "test":
        needs = _combat(defenders)
        theirs = _combat(attackers)
        again = defensive or (needs is not None and theirs is not None and needs > theirs)
        if needs is None:
            warnings.append(
                Said("test_needs_combat", "the morale test needs the defenders' C (attrs.combat)")
            )
        else:
            fail = Fraction(FACES - min(needs, FACES), FACES)
            chance = float(1 - (fail * fail if again else fail))
            if test_roll is not None:
                holds = test_roll <= needs
                if not holds and again:
                    warnings.append(Said("reroll_test", "a failed test may be re-rolled once"))
    elif test_roll is not None:
        raise QuestionError(f"{a!r} takes no morale test against {b!r} (a test_die was given)")

    shaken = kind == "test" and holds is not True
    extra_cm = rolled if rolled is not None else FACES
    distance_mm = options.mm(NUMBERS.withdrawal_cm + extra_cm)
    if rolled is None and kind != "none":
        warnings.append(
            Said(
                "longest_fall_back",
                "before the 1d6: destinations at the longest fall-back, {cm} cm",
                cm=f"{distance_mm / MM_PER_CM:g}",
            )
        )
    away = np.mean([f.xy for f in defenders], axis=0) - np.mean([f.xy for f in attackers], axis=0)
    if not np.any(away):
        raise QuestionError(f"{a!r} and {b!r} stand at the same place: no way away")
    step = away / float(np.hypot(*away)) * distance_mm
    reasons: list[Reason] = []
    margins: list[Margin] = []
    destinations: dict[str, tuple[float, float]] = {}
    if kind != "none" and holds is not True:
        blocking = [
            t.geometry
            for t in scene.terrain_of(BLOCKING_TERRAIN)
            if isinstance(t.geometry, shapely.Polygon)
        ]
        room = math.inf
        for figure in defenders:
            x, y = figure.xy + step
            destinations[figure.id] = (float(x), float(y))
            minx, miny, maxx, maxy = base_of(figure).footprint(x, y, figure.facing_deg).bounds
            edge = min(minx, miny, scene.table.width_mm - maxx, scene.table.depth_mm - maxy)
            room = min(room, edge)
            spot = base_of(figure).footprint(x, y, figure.facing_deg)
            if any(spot.intersection(g).area > OVERLAP_MM2 for g in blocking):
                if Reason.IMPASSABLE not in reasons:
                    reasons.append(Reason.IMPASSABLE)
        margins.append(Margin("table edge", abs(room), max(f.sigma_mm for f in defenders)))
        if room < 0:
            reasons.insert(0, Reason.OFF_TABLE)
    name = defenders_group.name if defenders_group else defender.id
    length = (
        f"{distance_mm / MM_PER_CM:g} cm"
        if rolled is not None
        else (
            f"{options.mm(NUMBERS.withdrawal_cm + 1) / MM_PER_CM:g}-"
            f"{options.mm(NUMBERS.withdrawal_cm + FACES) / MM_PER_CM:g} cm"
        )
    )
    if kind == "none":
        text = f"{name} neither tests nor falls back when {b} charges"
    elif kind == "fallback":
        text = f"{name} may fall back {length} from {b} without a test, not shaken"
    elif holds:
        text = f"{name} holds: test {test_roll} <= C {needs}"
    else:
        test = f"1d6 <= C {needs}" if needs is not None else "1d6 <= its C"
        text = f"{name} tests ({test}{', re-roll a failure' if again else ''}); "
        text += (
            f"failed, it falls back {length} shaken"
            if holds is False
            else (f"on a failure it falls back {length} shaken")
        )
    if reasons:
        text += ": " + reason_words(reasons)
    return SRWithdrawalAnswer(
        question="withdrawal",
        message=with_certainty(text, *margins) + warning_lines(warnings),
        margins=tuple(margins),
        group=name,
        charger=attackers_group.name if attackers_group else charger.id,
        kind=kind,
        legal=not reasons,
        reasons=tuple(reasons),
        shaken=shaken and kind == "test",
        test_needs=needs,
        test_reroll=again,
        test_probability=chance,
        test_die=test_roll,
        holds=holds,
        die=rolled,
        distance_mm=distance_mm,
        distance_units=UNIT.from_mm(distance_mm),
        unit=UNIT.name,
        direction_deg=float(math.degrees(math.atan2(step[1], step[0]))),
        destinations=destinations,
        warnings=tuple(warnings),
    )
