"""The answers M.U.S.G. questions give beyond the common ones."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from arbitre.rules.answers import Answer, Checked, FireAnswer, MoveAnswer, ReachAnswer, Reason


@dataclass(frozen=True, slots=True)
class CoverRoll:
    """One obstacle a shot in cover must pass: where it is and the roll it needs."""

    obstacle: str
    distance_mm: float
    distance_units: float
    band: str
    needed: int


@dataclass(frozen=True, slots=True)
class MusgFireAnswer(FireAnswer):
    hidden_fraction: float = 0.0
    hidden_by: dict[str, float] = field(default_factory=dict)
    cover_rolls: tuple[dict[str, Any], ...] = ()
    interposed: tuple[str, ...] = ()
    attention_chef: tuple[str, ...] = ()
    weapon: str | None = None
    elevation_mm: dict[str, float] = field(default_factory=dict)
    dominates: str | None = None
    action_points: int | None = None


@dataclass(frozen=True, slots=True)
class MusgMoveAnswer(MoveAnswer):
    mode: str = "walk"
    action_points: int = 1
    contact_with: tuple[str, ...] = ()
    pa_left: int | None = None
    failed_move_mm: float | None = None
    failed_move_units: float | None = None
    failed_to_mm: tuple[float, float] | None = None
    failed_path_mm: tuple[tuple[float, float], ...] = ()
    failed_in_difficult: str | None = None


@dataclass(frozen=True, slots=True)
class MusgReachAnswer(ReachAnswer):
    mode: str = "walk"


@dataclass(frozen=True, slots=True)
class LeaveAnswer(Checked):
    figure: str = ""
    allowed: bool = False
    reasons: tuple[Reason, ...] = ()
    engaged_with: tuple[str, ...] = ()
    friends_near: tuple[str, ...] = ()
    action_points: int = 0
    move_mm: float = 0.0
    move_units: float = 0.0
    unit: str = ""


@dataclass(frozen=True, slots=True)
class SupportAnswer(Checked):
    figure: str = ""
    allies: tuple[str, ...] = ()
    cd_bonus: int = 0
    leaders: tuple[str, ...] = ()
    chief_near: bool = False
    attention_chef: tuple[str, ...] = ()
    support_mm: float = 0.0
    support_units: float = 0.0
    leader_mm: float = 0.0
    leader_units: float = 0.0
    unit: str = ""


@dataclass(frozen=True, slots=True)
class InitiativeAnswer(Answer):
    henchmen: dict[str, int] = field(default_factory=dict)
    dice: dict[str, int] = field(default_factory=dict)
    scores: dict[str, int] = field(default_factory=dict)
    order: tuple[str, ...] = ()
    reroll: tuple[tuple[str, ...], ...] = ()


@dataclass(frozen=True, slots=True)
class DamageAnswer(Answer):
    strength: int = 0
    resistance: int = 0
    needed: int = 0
    die: int | None = None
    damage: bool | None = None


@dataclass(frozen=True, slots=True)
class ExplosionAnswer(Checked):
    figure: str = ""
    weapon: str | None = None
    artillery: bool = False
    die: int | None = None
    explodes: bool | None = None
    radius_mm: float = 0.0
    radius_units: float = 0.0
    unit: str = ""
    caught: tuple[str, ...] = ()
    distances_units: dict[str, float] = field(default_factory=dict)
    strength: int | None = None
    damage_needed: dict[str, int] = field(default_factory=dict)
    warnings: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class StrayAnswer(Checked):
    """Who takes a bow's or crossbow's missile on a 1: the figures on the line before the
    target (``interposed``, nearest first), the ``dice`` they rolled, the one that ``hit``
    (the first 6), and whether the missile is ``lost`` (no 6 among them all; None until
    the dice say)."""

    figure: str = ""
    target: str = ""
    weapon: str | None = None
    interposed: tuple[str, ...] = ()
    dice: tuple[int, ...] = ()
    hit: str | None = None
    lost: bool | None = None
    strength: int | None = None
    damage_needed: dict[str, int] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class CommandTestsAnswer(Checked):
    """The command tests a figure takes facing another: one entry in ``tests`` per test
    (``test``, ``book``, ``due``: true, false or null when the scene does not say,
    ``dice``, ``threshold``: pass on a roll at most this, null without a Cd, and what
    decides it: ``rank`` and ``other_rank``, or ``strength`` and ``own_strength``)."""

    figure: str = ""
    other: str = ""
    reasons: tuple[Reason, ...] = ()
    command: int | None = None
    allies: tuple[str, ...] = ()
    cd_bonus: int = 0
    tests: tuple[dict[str, Any], ...] = ()
    warnings: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class ReactionAnswer(Checked):
    """The 1d3-pas move of a failed test: one entry in ``moves`` per die face considered
    (the die given, or 1, 2 and 3): ``die``, ``kind`` (``cover`` or ``back``), ``cover``,
    ``destination_mm``, ``moved_mm``, ``moved_units``, ``full``, ``blocked_by`` and, for
    a charge, ``resistance_penalty``."""

    figure: str = ""
    source: str = ""
    die: int | None = None
    moves: tuple[dict[str, Any], ...] = ()
    unit: str = ""


@dataclass(frozen=True, slots=True)
class BalkAnswer(Checked):
    """The move of a failed « Envie de charger »: the figure walks its move straight away
    from the one it wanted to charge (``destination_mm``, ``moved_mm``, ``moved_units``,
    ``cost_mm``, ``cost_units``: difficult ground counted double), for the charge's PA
    (``action_points``); ``full`` is false when ``blocked_by`` stops it short. A target
    that is no enemy is refused (``reasons``: ``target_not_enemy``; no move); a warning
    says when the test is not due (the target does not outrank the figure)."""

    figure: str = ""
    target: str = ""
    reasons: tuple[Reason, ...] = ()
    action_points: int = 0
    allowance_mm: float = 0.0
    allowance_units: float = 0.0
    destination_mm: tuple[float, float] = (0.0, 0.0)
    moved_mm: float = 0.0
    moved_units: float = 0.0
    cost_mm: float = 0.0
    cost_units: float = 0.0
    full: bool = True
    blocked_by: tuple[str, ...] = ()
    unit: str = ""
    warnings: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class FleeAnswer(Checked):
    """The table edge a figure that failed its end-of-turn test heads for: the nearest
    (``edge``: ``x0``, ``x_max``, ``y0`` or ``y_max``), how far its base stands from it
    (``gap_mm``, ``gap_units``) and how far it must go to be wholly off the table
    (``off_mm``, ``off_units``); ``gaps_mm`` gives every edge's gap."""

    figure: str = ""
    edge: str = ""
    gap_mm: float = 0.0
    gap_units: float = 0.0
    off_mm: float = 0.0
    off_units: float = 0.0
    gaps_mm: dict[str, float] = field(default_factory=dict)
    unit: str = ""
