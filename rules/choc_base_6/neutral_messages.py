"""The sentences of neutral-surface answers: why a shot or a move is refused."""

from __future__ import annotations

import math
from collections.abc import Sequence

from arbitre.rules.answers import Reason, Unit
from arbitre.rules.choc_base_6.neutral_groups import Group
from arbitre.rules.choc_base_6.reasons import NEUTRAL_REASON_WORDS


def fire_message(
    shooter: Group,
    target: Group,
    allowed: bool,
    reasons: Sequence[Reason],
    distance_mm: float,
    unit: Unit,
    blocked_by: Sequence[str],
    pi_total: int,
    unmeasured: Sequence[str] = (),
) -> str:
    at = f"{unit.from_mm(distance_mm):.2f} {unit.name}"
    if allowed:
        return f"{shooter.name} may shoot at {target.name} at {at}, PI {pi_total}"
    because = []
    for reason in reasons:
        sentence = NEUTRAL_REASON_WORDS[reason]
        if reason is Reason.LINE_BLOCKED:
            sentence += " " + ", ".join(blocked_by)
        if reason is Reason.OUT_OF_RANGE:
            sentence += f" ({at})"
        if reason is Reason.NO_REFERENCE:
            sentence += " " + ", ".join(unmeasured)
        because.append(sentence)
    return f"{shooter.name} may not shoot at {target.name}: " + "; ".join(because)


def move_message(
    name: str,
    legal: bool,
    reasons: Sequence[Reason],
    cost_mm: float,
    allowance_units: int,
    straight_mm: float,
    unit: Unit,
    blocked_by: Sequence[str],
    occupied: Sequence[str],
) -> str:
    cost = f"{unit.from_mm(cost_mm):.2f} {unit.name}" if math.isfinite(cost_mm) else "no path"
    allowance = f"{allowance_units} {unit.name}"
    if legal:
        detour = "" if cost_mm <= straight_mm + 0.05 else " (around the obstacles)"
        return f"{name} may move there: {cost}{detour}, allowance {allowance}"
    because = []
    for reason in reasons:
        sentence = NEUTRAL_REASON_WORDS[reason]
        if reason is Reason.DESTINATION_OCCUPIED:
            sentence += " " + ", ".join(occupied)
        if reason is Reason.PATH_BLOCKED and blocked_by:
            sentence += " by " + ", ".join(blocked_by)
        if reason in (Reason.OVER_ALLOWANCE, Reason.PATH_BLOCKED):
            sentence += f" ({cost}, allowance {allowance})"
        because.append(sentence)
    return f"{name} may not move there: " + "; ".join(because)
