"""The answer types of fire, moves, reach, impacts and potentials, shared by the rule systems'
own answers; `arbitre.rules.answers` gives them too (importing this module when one is
first used: a distance or a contact needs none of them).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, TypeVar

import shapely

from arbitre.rules.answers import Answer, Checked, Reason, reach_words, warning_lines
from arbitre.rules.geometry import area_answer


@dataclass(frozen=True, slots=True)
class FireAnswer(Checked):
    shooter: str = ""
    target: str = ""
    allowed: bool = False
    reasons: tuple[Reason, ...] = ()
    distance_mm: float = 0.0
    distance_units: float = 0.0
    unit: str = ""
    band: str | None = None
    blocked_by: tuple[str, ...] = ()
    cover: tuple[str, ...] = ()
    warnings: tuple[str, ...] = ()
    shooters: tuple[str, ...] = ()
    pi: int = 0


@dataclass(frozen=True, slots=True)
class MoveAnswer(Checked):
    mover: str = ""
    legal: bool = False
    reasons: tuple[Reason, ...] = ()
    cost_mm: float = 0.0
    cost_units: float = 0.0
    allowance_mm: float = 0.0
    allowance_units: float = 0.0
    unit: str = ""
    path_mm: tuple[tuple[float, float], ...] = ()
    blocked_by: tuple[str, ...] = ()
    warnings: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class ReachAnswer(Answer):
    mover: str = ""
    area_mm2: float = 0.0
    polygons_mm: tuple[tuple[tuple[float, float], ...], ...] = ()
    holes_mm: tuple[tuple[tuple[tuple[float, float], ...], ...], ...] = ()
    allowance_mm: float = 0.0
    allowance_units: float = 0.0
    unit: str = ""
    warnings: tuple[str, ...] = ()


ReachT = TypeVar("ReachT", bound=ReachAnswer)


def reach_answer_of(
    kind: type[ReachT],
    mover: str,
    area: shapely.Geometry,
    allowance: tuple[float, float, str],
    *,
    verb: str = "move",
    within: str,
    warnings: tuple[str, ...] = (),
    **more: Any,
) -> ReachT:
    """A reach answer of ``kind`` (`ReachAnswer` or a rule system's own): where ``mover``
    may go, the reachable ``area`` snapped and measured (`area_answer`), its allowance
    (mm, units, the unit's name), and the sentence of `reach_words` (``verb``,
    ``within``) with its ``warnings``; ``more``: the kind's own fields."""
    found = area_answer(area)
    allowance_mm, allowance_units, unit = allowance
    return kind(
        question="reach",
        message=reach_words(mover, verb, len(found.polygons), found.area_mm2, within)
        + warning_lines(warnings),
        mover=mover,
        area_mm2=found.area_mm2,
        polygons_mm=found.polygons_mm,
        holes_mm=found.holes_mm,
        allowance_mm=allowance_mm,
        allowance_units=allowance_units,
        unit=unit,
        warnings=warnings,
        **more,
    )


@dataclass(frozen=True, slots=True)
class ImpactAnswer(Answer):
    attacker: str = ""
    target: str = ""
    action: str = ""
    pi: int = 0
    counted: tuple[str, ...] = ()
    die: int | None = None
    impact: int | None = None
    distribution: dict[int, int] | None = None
    warnings: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class PotentialsAnswer(Answer):
    group: str = ""
    figures: tuple[str, ...] = ()
    pj: int = 0
    pa: int = 0
    pa_mm: float = 0.0
    pi_fire: int = 0
    pi_close: int = 0
    unit: str = ""
