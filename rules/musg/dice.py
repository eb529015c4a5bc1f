"""Dice: the damage roll, counting successes, turn order; the initiative and damage questions."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from arbitre.rules.errors import QuestionError
from arbitre.rules.model import Scene
from arbitre.rules.musg.answers import DamageAnswer, InitiativeAnswer
from arbitre.rules.musg.book import DAMAGE_TABLE, NUMBERS, TABLE_MAX
from arbitre.rules.options import Die, SideCounts, SideDice
from arbitre.rules.ruleset import whole_number


def damage_needed(strength: int, resistance: int) -> int:
    """Minimum roll on 1D6 for a hit of ``strength`` to damage a ``resistance``.

    >>> damage_needed(3, 3)
    4
    >>> damage_needed(12, 1), damage_needed(1, 12)
    (2, 6)
    """
    for name, value in (("strength", strength), ("resistance", resistance)):
        if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= TABLE_MAX:
            raise QuestionError(f"{name} must be an integer from 1 to {TABLE_MAX}, got {value!r}")
    return DAMAGE_TABLE[resistance - 1][strength - 1]


def damages(strength: int, resistance: int, die: int) -> bool:
    """Whether a die (bonuses included) inflicts a damage: a 6 always does, a 1 never.

    >>> [damages(3, 3, die) for die in range(1, 7)]
    [False, False, False, True, True, True]
    """
    needed = damage_needed(strength, resistance)
    if die >= NUMBERS.die_faces:
        return True
    if die <= 1:
        return False
    return die >= needed


def dice_passing(dice: Sequence[int], needed: int) -> int:
    """How many dice show ``needed`` or more.

    >>> dice_passing([3, 4, 5], 4)
    2
    """
    return sum(1 for die in dice if die >= needed)


def initiative_order(
    entries: Mapping[str, tuple[int, int]],
) -> tuple[list[str], list[list[str]]]:
    """Turn order from each side's (die, henchmen); the sides that must roll again.

    The highest die + henchmen starts; on a tie the side with fewer henchmen goes
    first; sides still tied roll again (they are listed together).

    >>> initiative_order({"Marc": (6, 4), "Julien": (4, 8)})
    (['Julien', 'Marc'], [])
    >>> initiative_order({"Marc": (6, 4), "Julien": (2, 8)})
    (['Marc', 'Julien'], [])
    """
    key = {side: (-(die + henchmen), henchmen) for side, (die, henchmen) in entries.items()}
    order = sorted(entries, key=lambda side: key[side])
    ties: list[list[str]] = []
    for side in order:
        if ties and key[ties[-1][0]] == key[side]:
            ties[-1].append(side)
        else:
            ties.append([side])
    return order, [tied for tied in ties if len(tied) > 1]


def initiative_answer(
    scene: Scene,
    dice: SideDice | None = None,
    henchmen: SideCounts | None = None,
) -> InitiativeAnswer:
    """Who starts the turn, from each side's die and henchmen (counted if not given)."""
    counts: dict[str, int] = {}
    for figure in scene.figures:
        counts.setdefault(figure.side, 0)
        if figure.attrs.get("rank") == "henchman":
            counts[figure.side] += 1
    for side, value in (henchmen or {}).items():
        counts[str(side)] = _count(value, f"henchmen[{side}]")
    rolled = {str(side): die_face(value, f"dice[{side}]") for side, value in (dice or {}).items()}
    unknown = sorted(set(rolled) - set(counts))
    if unknown:
        raise QuestionError(f"dice: no side {unknown[0]!r} on the table")
    if not rolled:
        listing = ", ".join(f"{s} +{n}" for s, n in counts.items())
        return InitiativeAnswer(
            question="initiative",
            message=f"each side rolls 1D6 plus its henchmen: {listing}",
            henchmen=counts,
        )
    missing = sorted(set(counts) - set(rolled))
    if missing:
        raise QuestionError(f"dice: no die given for side {missing[0]!r}")
    order, ties = initiative_order({s: (rolled[s], counts[s]) for s in counts})
    scores = {s: rolled[s] + counts[s] for s in counts}
    text = "order: " + ", ".join(f"{s} ({scores[s]})" for s in order)
    if ties:
        text += "; roll again: " + "; ".join(" vs ".join(t) for t in ties)
    return InitiativeAnswer(
        question="initiative",
        message=text,
        henchmen=counts,
        dice=rolled,
        scores=scores,
        order=tuple(order),
        reroll=tuple(tuple(t) for t in ties),
    )


def damage_answer(scene: Scene, f: str, r: str, die: Die | None = None) -> DamageAnswer:
    """The roll a hit of strength F needs against resistance R, and what a given die does."""
    strength = whole_number(f, "F")
    resistance = whole_number(r, "R")
    needed = damage_needed(strength, resistance)
    text = f"strength {strength} against resistance {resistance}: {needed}+ to damage"
    result: bool | None = None
    rolled: int | None = None
    if die is not None:
        rolled = as_whole_number(die, "die")
        result = damages(strength, resistance, rolled)
        text += f"; die {rolled}: " + ("a damage" if result else "no damage")
    return DamageAnswer(
        question="damage",
        message=text,
        strength=strength,
        resistance=resistance,
        needed=needed,
        die=rolled,
        damage=result,
    )


def as_whole_number(value: Any, name: str) -> int:
    """A whole number given as a number or its digits; a `QuestionError` naming ``name``."""
    if isinstance(value, bool):
        raise QuestionError(f"{name} must be a whole number, got {value!r}")
    try:
        number = int(str(value).strip())
    except ValueError:
        raise QuestionError(f"{name} must be a whole number, got {value!r}") from None
    return number


def die_face(value: Any, name: str) -> int:
    """What a die shows, 1 to 6; a `QuestionError` naming ``name`` otherwise."""
    number = as_whole_number(value, name)
    if not 1 <= number <= NUMBERS.die_faces:
        raise QuestionError(f"{name}: a die shows 1 to {NUMBERS.die_faces}, got {value!r}")
    return number


def _count(value: Any, name: str) -> int:
    number = as_whole_number(value, name)
    if number < 0:
        raise QuestionError(f"{name} must be 0 or more, got {value!r}")
    return number
