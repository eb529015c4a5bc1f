"""The answers of the Smooth & Rifled questions (fields beyond `arbitre.rules.answers`)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from arbitre.rules.answers import Answer, Checked, MoveAnswer, Reason


@dataclass(frozen=True, slots=True)
class SRFireAnswer(Checked):
    """May A shoot at B: arcs, line, sight, band, to-hit, cover."""

    shooter: str = ""
    target: str = ""
    allowed: bool = False
    reasons: tuple[Reason, ...] = ()
    distance_mm: float = 0.0
    distance_units: float = 0.0
    unit: str = ""
    band: str | None = None
    medium_range_mm: float | None = None
    to_hit_2d6: int | None = None
    dice: int = 0
    hit_probability: float | None = None
    arc_deg: float = 0.0
    blocked_by: tuple[str, ...] = ()
    cover: tuple[str, ...] = ()
    cover_level: int | None = None
    cover_grade: str = "none"
    cover_weight: str | None = None
    visible: bool = True
    shooters: tuple[str, ...] = ()
    volleys: dict[str, list[str]] = field(default_factory=dict)
    refused: dict[str, list[str]] = field(default_factory=dict)
    warnings: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class SRMoveAnswer(MoveAnswer):
    """A move of one action, with the kind of mover and move that set its allowance."""

    kind: str = ""
    mode: str = ""
    action_index: int = 1
    running: bool = False


@dataclass(frozen=True, slots=True)
class SRChargeAnswer(Checked):
    """A charge: a figure's straight charge, or a group charge's contacts."""

    charger: str = ""
    target: str = ""
    legal: bool = False
    reasons: tuple[Reason, ...] = ()
    distance_mm: float = 0.0
    distance_units: float = 0.0
    unit: str = ""
    allowance_mm: float = 0.0
    allowance_units: float = 0.0
    group_charge: bool = False
    free_turn: bool = True
    combats: tuple[dict[str, list[str]], ...] = ()
    out_of_melee: tuple[str, ...] = ()
    blocked_by: tuple[str, ...] = ()
    warnings: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class SRTemplateAnswer(Checked):
    """An artillery template: the figures it touches."""

    template: str = ""
    gun: str | None = None
    target: str | None = None
    allowed: bool = True
    reasons: tuple[Reason, ...] = ()
    origin_mm: tuple[float, float] = (0.0, 0.0)
    distance_mm: float | None = None
    distance_units: float | None = None
    unit: str = ""
    band: str | None = None
    to_hit_3d6: int | None = None
    shot_hit_probability: float | None = None
    size_mm: float | None = None
    size_units: float | None = None
    hit: tuple[str, ...] = ()
    friends_hit: tuple[str, ...] = ()
    needed_length_units: dict[str, float] = field(default_factory=dict)
    hit_probability: dict[str, float] = field(default_factory=dict)
    blocked_by: tuple[str, ...] = ()
    warnings: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class SRDamageAnswer(Answer):
    shooter: str = ""
    target: str = ""
    modifier: int = 0
    cover_weight: str | None = None
    die: int | None = None
    outcome: str | None = None
    distribution: dict[str, float] = field(default_factory=dict)
    warnings: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class SRVolleyAnswer(Answer):
    group: str = ""
    target: str = ""
    shooters: tuple[str, ...] = ()
    band: str | None = None
    to_hit_2d6: int | None = None
    dice: int = 0
    hits_distribution: dict[int, float] = field(default_factory=dict)
    order: tuple[str, ...] | None = None
    eligible: tuple[str, ...] = ()
    hits: int | None = None
    hit: tuple[str, ...] = ()
    lost: int = 0
    warnings: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class SRMoraleAnswer(Answer):
    side: str = ""
    vm: int = 0
    break_point: int = 0
    counted: dict[str, int] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class SRMeleeAnswer(Answer):
    attackers: tuple[str, ...] = ()
    defenders: tuple[str, ...] = ()
    attacker_dice: int = 0
    defender_dice: int = 0
    attacker_hits_on: int = 0
    defender_hits_on: int = 0
    odds: dict[str, float] = field(default_factory=dict)
    attacker_hits: int | None = None
    defender_hits: int | None = None
    outcome: tuple[str, ...] = ()
    warnings: tuple[str, ...] = ()


def probability(value: Any) -> float:
    """A Fraction as a float for JSON."""
    return float(value)
