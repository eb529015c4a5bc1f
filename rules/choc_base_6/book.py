"""The Choc Base 6 book: its numbers, figure potentials and impacts.

The impact and potentials arithmetic is the same on every surface; each surface
passes its own groups and its own verdict on whether a shot or a combat is allowed.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass
from typing import Literal, Protocol

from arbitre.rules.answers import (
    FireAnswer,
    ImpactAnswer,
    PotentialsAnswer,
    Said,
    Unit,
    warning_lines,
)
from arbitre.rules.choc_base_6.reasons import reason_words
from arbitre.rules.errors import QuestionError
from arbitre.rules.model import Figure, TerrainKind


@dataclass(frozen=True, slots=True)
class Numbers:
    """The rule book's numbers (§2.3.2, Action « Tir », ANNEXE 1)."""

    pj: int = 2
    pa: int = 2
    pi: int = 2
    wounded_pa: int = 1
    wounded_pi: int = 1
    wounded_pj: int = 1
    range_units: float = 3.0
    sniper_range_units: float = 5.0
    max_group_size: int = 6
    die_faces: int = 6


NUMBERS = Numbers()
MAX_BONUS = 10
"""The largest ``attrs.pa_bonus`` or ``attrs.pi_bonus`` a figure may carry, either way."""
ImpactAction = Literal["fire", "close"]
"""The ``action`` option of ``impact``: a shot or a close combat."""
BonusTo = Literal["pi", "impact"]
"""The ``bonus_to`` option of ``impact``: the group bonus (ANNEXE 1, « +1 à l'impact global du
groupe ») added to the PI total before the die, or to the impact after it."""
BLOCKING_TERRAIN = (TerrainKind.IMPASSABLE, TerrainKind.BUILDING)
TOUCH_MM = 1e-6  # bases closer than this to touching count as touching, not overlapping
SHOOTER_TYPE = "TD"
CLOSE_COMBAT_TYPE = "CR"


def group_too_big(name: str, count: int) -> Said:
    """The note on a group of more figures than a group may hold."""
    return Said(
        "group_too_big",
        "group {group} has {count} figures (at most {most})",
        group=name,
        count=count,
        most=NUMBERS.max_group_size,
    )


# --- figure potentials -----------------------------------------------------------------


def _bonus(figure: Figure, key: str) -> int:
    value = figure.attrs.get(key, 0)
    if isinstance(value, bool) or not isinstance(value, int):
        raise QuestionError(f"figure {figure.id!r}: attrs.{key} must be an integer, got {value!r}")
    return value


def figure_pa(figure: Figure) -> int:
    """Advance potential: 2, 1 when wounded, plus ``attrs.pa_bonus`` kept in full; a malus
    takes it down to 0 at most (the figure cannot move).

    >>> figure_pa(Figure("rider", "blue", 0, 0, wounded=True, attrs={"pa_bonus": 2}))
    3
    >>> figure_pa(Figure("mired", "blue", 0, 0, attrs={"pa_bonus": -5}))
    0
    """
    base = NUMBERS.wounded_pa if figure.wounded else NUMBERS.pa
    return max(0, base + _bonus(figure, "pa_bonus"))


def figure_pi(figure: Figure) -> int:
    """Impact potential: 2, 1 when wounded, plus ``attrs.pi_bonus``; 0 at least."""
    base = NUMBERS.wounded_pi if figure.wounded else NUMBERS.pi
    return max(0, base + _bonus(figure, "pi_bonus"))


def figure_pj(figure: Figure) -> int:
    return NUMBERS.wounded_pj if figure.wounded else NUMBERS.pj


def is_close_combat(figure: Figure) -> bool:
    """Whether a figure is CR: every figure that is not TD, one without a type too
    (§2.3.1: « Les CR sont TOUTES les autres figurines »).

    >>> brave, archer = Figure("brave", "red", 0, 0), Figure("archer", "red", 0, 0, type="TD")
    >>> is_close_combat(brave), is_close_combat(archer)
    (True, False)
    """
    return figure.type != SHOOTER_TYPE


def is_sniper(figure: Figure) -> bool:
    return bool(figure.attrs.get("sniper", False))


def impact(pi_total: int, die: int) -> int:
    """Impact of a shot or a close combat: PI total less the die, a die above the total counting 0.

    >>> [impact(3, die) for die in range(1, 7)]
    [2, 1, 0, 3, 3, 3]
    """
    if not 1 <= die <= NUMBERS.die_faces:
        raise QuestionError(f"a die shows 1 to {NUMBERS.die_faces}, got {die!r}")
    return pi_total - die if die <= pi_total else pi_total


def impact_distribution(pi_total: int) -> dict[int, int]:
    """How many of the six faces give each impact.

    >>> impact_distribution(8)
    {2: 1, 3: 1, 4: 1, 5: 1, 6: 1, 7: 1}
    """
    counts: dict[int, int] = defaultdict(int)
    for die in range(1, NUMBERS.die_faces + 1):
        counts[impact(pi_total, die)] += 1
    return dict(sorted(counts.items()))


def impact_answer(
    attacker: GroupLike,
    target: GroupLike,
    action: str,
    die: int | None,
    bonus: int,
    fire: Callable[[], FireAnswer],
    in_contact: Callable[[], bool | None],
    bonus_to: BonusTo = "pi",
    enemies: bool = True,
) -> LossAnswer:
    """The impact of a shot or a close combat, on any CB6 surface, and whether it removes
    the target group (an impact of at least its PJ, §4.2).

    ``fire`` and ``in_contact`` ask the surface's own rules whether the action is
    allowed (``in_contact`` gives None when it cannot be measured; ``enemies`` whether the
    target is an enemy, as a close combat needs); the arithmetic
    is the same everywhere. The group bonus is added to the PI total before the die
    (``bonus_to: pi``, the reading) or to the impact after it (``bonus_to: impact``).
    """
    warnings: list[str] = []
    if action == "fire":
        verdict = fire()
        counted = [f for f in attacker.figures if f.id in verdict.shooters]
        if not verdict.allowed:
            why = reason_words(verdict.reasons)
            warnings.append(f"{attacker.name} may not shoot at {target.name} ({why})")
    elif action == "close":
        counted = [f for f in attacker.figures if is_close_combat(f)]
        touching = in_contact()
        if not enemies:
            warnings.append(
                Said(
                    "not_enemies",
                    "{a} and {b} are not enemies: no close combat between friends",
                    a=attacker.name,
                    b=target.name,
                )
            )
        if touching is None:
            warnings.append(
                Said(
                    "contact_unmeasured",
                    "whether {a} is in contact with {b} cannot be measured (no reference figure)",
                    a=attacker.name,
                    b=target.name,
                )
            )
        elif not touching:
            warnings.append(
                Said(
                    "not_in_contact",
                    "{a} is not in contact with {b}",
                    a=attacker.name,
                    b=target.name,
                )
            )
    else:
        raise QuestionError(f"action must be 'fire' or 'close', got {action!r}")
    before, after = (bonus, 0) if bonus_to == "pi" else (0, bonus)
    pi_total = max(0, sum(figure_pi(f) for f in counted) + before)  # a malus stops at 0
    faces = {f: max(0, impact(pi_total, f) + after) for f in range(1, NUMBERS.die_faces + 1)}
    target_pj = sum(figure_pj(f) for f in target.figures)
    removing = sum(1 for value in faces.values() if value >= target_pj)
    what = "shot" if action == "fire" else "close combat"
    added = f" + bonus {after}" if after else ""
    spread: dict[int, int] | None = None
    result: int | None = None
    if die is None:
        counts: dict[int, int] = defaultdict(int)
        for value in faces.values():
            counts[value] += 1
        spread = dict(sorted(counts.items()))
        listing = ", ".join(f"{value}: {n}/6" for value, n in spread.items())
        text = (
            f"{what} of {attacker.name} on {target.name}: PI {pi_total}{added}; impact {listing}"
            f"; {removing}/6 remove {target.name} ({target_pj} PJ)"
        )
    else:
        result = faces[die]
        text = (
            f"{what} of {attacker.name} on {target.name}: PI {pi_total}, die {die}{added}"
            f" -> impact {result}"
        )
        if result >= target_pj:
            text += f", at least the {target_pj} PJ of {target.name}: the group is removed"
    return LossAnswer(
        target_pj=target_pj,
        removes_target=None if result is None else result >= target_pj,
        removing_faces=removing,
        bonus_to=bonus_to,
        question="impact",
        message=text + warning_lines(warnings),
        attacker=attacker.name,
        target=target.name,
        action=action,
        pi=pi_total,
        counted=tuple(f.id for f in counted),
        die=die,
        impact=result,
        distribution=spread,
        warnings=tuple(warnings),
    )


def potentials_answer(group: GroupLike, unit: Unit, where: str = "") -> PotentialsAnswer:
    """PJ, PA and PI of a group (rule book §2.3.2), on any CB6 surface."""
    pj = sum(figure_pj(f) for f in group.figures)
    pa = min(figure_pa(f) for f in group.figures)
    pi_fire = sum(figure_pi(f) for f in group.figures if f.type == SHOOTER_TYPE)
    pi_close = sum(figure_pi(f) for f in group.figures if is_close_combat(f))
    return PotentialsAnswer(
        question="potentials",
        message=f"{group.name}{where}: {pj} PJ, PA {pa}, PI {pi_fire} shooting, "
        f"PI {pi_close} close combat",
        group=group.name,
        figures=tuple(f.id for f in group.figures),
        pj=pj,
        pa=pa,
        pa_mm=unit.to_mm(pa),
        pi_fire=pi_fire,
        pi_close=pi_close,
        unit=unit.name,
    )


@dataclass(frozen=True, slots=True)
class LossAnswer(ImpactAnswer):
    """An impact and what it does to the target group: removed when the impact reaches its
    PJ (« Si l'impact est de 3 ou plus, le nombre de PJ du groupe est atteint ou dépassé, et
    les deux figurines sont éliminés », §4.2).

    ``removes_target`` is None when no die is given; ``removing_faces`` counts the faces
    (of 6) that remove it.
    """

    target_pj: int = 0
    removes_target: bool | None = None
    removing_faces: int = 0
    bonus_to: str = "pi"


class GroupLike(Protocol):
    """What the impact arithmetic needs of a group: its name and figures."""

    @property
    def name(self) -> str: ...

    @property
    def figures(self) -> tuple[Figure, ...]: ...
