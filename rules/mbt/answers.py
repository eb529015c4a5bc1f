"""MBT's answer types: what its questions return, beyond the common answers."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from arbitre.rules.answers import (
    Checked,
    ContactAnswer,
    FireAnswer,
    MoveAnswer,
    ReachAnswer,
    Reason,
)


@dataclass(frozen=True, slots=True)
class MbtContactAnswer(ContactAnswer):
    kind: str | None = None
    edges: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class FacingAnswer(Checked):
    a: str = ""
    b: str = ""
    contact: bool = False
    face_to_face: bool = False
    turns: str | None = None
    new_facing_deg: float | None = None
    new_x_mm: float | None = None
    new_y_mm: float | None = None
    reasons: tuple[Reason, ...] = ()


@dataclass(frozen=True, slots=True)
class Side:
    """One side of a combat: its base and the points it adds to its die."""

    base: str
    figures: int
    points: dict[str, int]
    supports: tuple[str, ...]
    rear_support: str | None
    die: int | None
    total: int | None


@dataclass(frozen=True, slots=True)
class CombatAnswer(Checked):
    a: str = ""
    b: str = ""
    allowed: bool = False
    reasons: tuple[Reason, ...] = ()
    score_a: int = 0
    score_b: int = 0
    points_a: dict[str, int] = field(default_factory=dict)
    points_b: dict[str, int] = field(default_factory=dict)
    total_a: int | None = None
    total_b: int | None = None
    outcome: str | None = None
    loser: str | None = None
    recoil_mm: float = 0.0
    recoil_units: float = 0.0
    unit: str = ""
    recoil_blocked: bool | None = None
    recoil_blocked_by: tuple[str, ...] = ()
    panic: bool = False
    panic_direction: str | None = None
    warnings: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class MbtFireAnswer(FireAnswer):
    """A shot; with the dice, its ``outcome`` (``panic``: the target is an elephant that
    must recoil, and panics)."""

    score_a: int = 0
    score_b: int = 0
    total_a: int | None = None
    total_b: int | None = None
    outcome: str | None = None
    panic: bool = False


@dataclass(frozen=True, slots=True)
class MbtMoveAnswer(MoveAnswer):
    """A move; with a new facing, ``turn_deg`` (counter-clockwise, the shorter way) and
    ``turns_at`` (``start`` or ``end``; null when it does not turn, or has no room)."""

    group: tuple[str, ...] = ()
    detour_cost_mm: float | None = None
    detour_cost_units: float | None = None
    facing_deg: float | None = None
    turn_deg: float = 0.0
    turns_at: str | None = None


@dataclass(frozen=True, slots=True)
class MbtReachAnswer(ReachAnswer):
    group: tuple[str, ...] = ()
    warnings: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class PanicAnswer(Checked):
    """A panicking elephant's way and the chain it sets off.

    ``runs`` holds one entry per elephant that panics, in turn: ``elephant``, ``die``,
    ``direction``, ``from_mm`` and ``to_mm`` (its centre), ``moved_mm`` /
    ``moved_units``, ``length_mm`` (the way it would go unhindered), ``stopped_by``,
    ``trampled`` and ``sets_off`` (the elephants it meets, that panic next).
    """

    elephant: str = ""
    runs: tuple[dict[str, Any], ...] = ()
    chain: tuple[str, ...] = ()
    destroyed: tuple[str, ...] = ()
    waiting: tuple[str, ...] = ()
    unit: str = ""


@dataclass(frozen=True, slots=True)
class VictoryAnswer(Checked):
    """Who has won: ``winner`` (null while none has), each side's ``losses`` (bases lost
    and objectives its enemies hold), ``bases_lost``, ``general_taken``, and the side
    holding each objective (``objectives``, null when none or both)."""

    winner: str | None = None
    losses: Mapping[str, int] = field(default_factory=dict)
    bases_lost: Mapping[str, int] = field(default_factory=dict)
    general_taken: Mapping[str, bool] = field(default_factory=dict)
    objectives: Mapping[str, str | None] = field(default_factory=dict)
    losses_to_win: int = 3
    warnings: tuple[str, ...] = ()
