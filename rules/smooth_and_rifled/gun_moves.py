"""Smooth & Rifled: a gun moved and turned by its crew (Règles avancées, Artillerie).

Light gun: « une pièce légère peut tourner jusqu'à 90° pour 2 actions. Elle peut aussi
bouger de 1d6 pour chaque artilleur (qui dépenseront chacun une action). » Medium gun:
« une pièce [moyenne] peut tourner jusqu'à 90° pour 4 actions. Elle peut aussi bouger de
1d6 pour deux artilleurs présents (qui dépenseront chacun une action). » The gunners
present are those within 3 cm of the gun; the dice are cm (halved in 15 mm, like every
distance).
"""

from __future__ import annotations

import math

import numpy as np

from arbitre.rules.answers import Margin, Reason, Said, warning_lines, with_certainty
from arbitre.rules.errors import QuestionError
from arbitre.rules.model import Scene, sigma_between
from arbitre.rules.options import Degrees, Dice
from arbitre.rules.ruleset import coordinate_mm
from arbitre.rules.smooth_and_rifled.answers import SRGunMoveAnswer
from arbitre.rules.smooth_and_rifled.bases import place_refusals
from arbitre.rules.smooth_and_rifled.book import GUNS, MM_PER_CM, NUMBERS, UNIT
from arbitre.rules.smooth_and_rifled.dice import at_least
from arbitre.rules.smooth_and_rifled.moves import BLOCKING_TERRAIN
from arbitre.rules.smooth_and_rifled.options import options_of
from arbitre.rules.smooth_and_rifled.reasons import reason_words
from arbitre.rules.smooth_and_rifled.support import crew_of, gun_named


def turn_deg(facing_deg: float, end_deg: float) -> float:
    """The smaller angle between two facings (degrees, 0 to 180).

    >>> turn_deg(90.0, -90.0), turn_deg(350.0, 10.0)
    (180.0, 20.0)
    """
    return abs((end_deg - facing_deg + 180.0) % 360.0 - 180.0)


def gunmove_question(
    scene: Scene,
    a: str,
    x: str,
    y: str,
    facing_deg: Degrees | None = None,
    rolls: Dice | None = None,
) -> SRGunMoveAnswer:
    """May gun A be moved by its crew to (X, Y) mm, and turned to ``facing_deg``.

    The gun moves 1d6 cm for each gunner within 3 cm of it (a light gun), for each two (a
    medium one), each spending an action; the way is straight and its place must be free.
    It turns up to 90° for 2 actions (light) or 4 (medium), more for a larger turn.
    ``rolls``: the dice rolled, which say whether it gets there.
    """
    options = options_of(scene)
    gun = gun_named(scene, a)
    numbers = GUNS[str(gun.attrs.get("gun", "light"))]
    goal = np.array([coordinate_mm(x, "X"), coordinate_mm(y, "Y")])
    crew_mm = options.mm(NUMBERS.crew_cm)
    gunners = crew_of(scene, gun)
    present = [f for gap, f in gunners if gap <= crew_mm]
    margins = [
        Margin(f"crew {f.id}", abs(crew_mm - gap), sigma_between(gun, f)) for gap, f in gunners
    ]
    dice = len(present) // numbers.gunners_per_die
    distance_mm = float(np.hypot(*(goal - gun.xy)))
    pip_mm = options.mm(1.0)
    needed = math.ceil(round(distance_mm / pip_mm, 9))
    reasons: list[Reason] = []
    warnings: list[str] = []
    if distance_mm and not dice:
        reasons.append(Reason.CREW_TOO_FAR)
    reasons += place_refusals(scene, gun, goal, (gun.id,), BLOCKING_TERRAIN)
    chance = float(at_least(dice, needed)) if distance_mm else 1.0
    reached: bool | None = None
    if rolls is not None:
        if len(rolls) != dice:
            raise QuestionError(f"roll {dice} dice for {gun.id}'s move, got {len(rolls)}")
        rolled_mm = sum(rolls) * pip_mm
        reached = rolled_mm >= distance_mm
        margins.append(Margin("gun move", abs(rolled_mm - distance_mm), gun.sigma_mm))
        if not reached and Reason.OVER_ALLOWANCE not in reasons:
            reasons.append(Reason.OVER_ALLOWANCE)
    elif dice and needed > dice * 6:
        reasons.append(Reason.OVER_ALLOWANCE)
    turned = 0.0 if facing_deg is None else turn_deg(gun.facing_deg, facing_deg)
    turns = math.ceil(round(turned / NUMBERS.gun_turn_deg, 9))
    turn_actions = turns * numbers.turn_actions
    if turns > 1:
        warnings.append(
            Said(
                "gun_turns",
                "a turn of {deg} degrees is {turns} turns of at most 90",
                deg=f"{turned:g}",
                turns=turns,
            )
        )
    legal = not reasons
    text = _sentence(gun.id, distance_mm, dice, needed, chance, reached, turned, turn_actions)
    if not legal:
        text = f"{gun.id} may not be moved there: " + reason_words(reasons)
    return SRGunMoveAnswer(
        question="gunmove",
        message=with_certainty(text, *margins) + warning_lines(warnings),
        margins=tuple(margins),
        gun=gun.id,
        legal=legal,
        reasons=tuple(reasons),
        crew=tuple(f.id for f in present),
        dice=dice,
        gunner_actions=dice * numbers.gunners_per_die if distance_mm else 0,
        distance_mm=distance_mm,
        distance_units=UNIT.from_mm(distance_mm),
        unit=UNIT.name,
        needed=needed,
        probability=chance,
        rolls=None if rolls is None else tuple(rolls),
        reached=reached,
        turn_deg=turned,
        turn_actions=turn_actions,
        warnings=tuple(warnings),
    )


def _sentence(
    gun: str,
    distance_mm: float,
    dice: int,
    needed: int,
    chance: float,
    reached: bool | None,
    turned: float,
    turn_actions: int,
) -> str:
    """The gun's move and turn in words."""
    parts = []
    if distance_mm:
        way = f"{distance_mm / MM_PER_CM:.1f} cm on {dice}d6 ({needed}+, {chance:.0%})"
        if reached is not None:
            way += ": it gets there" if reached else ": it falls short"
        parts.append(way)
    if turned:
        parts.append(f"a turn of {turned:g} degrees for {turn_actions} actions")
    return f"{gun} may be moved: " + ("; ".join(parts) or "it stays")
