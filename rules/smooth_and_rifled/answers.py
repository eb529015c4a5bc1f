"""The answers of the Smooth & Rifled questions (fields beyond `arbitre.rules.answers`)."""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
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
    crossed: tuple[str, ...] = ()
    building: str | None = None
    action_points: int | None = None


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
    test_needs: dict[str, int] = field(default_factory=dict)
    """The die each figure touched must make to be saved (round shot, canister)."""
    blocked_by: tuple[str, ...] = ()
    warnings: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class SRDamageAnswer(Answer):
    shooter: str = ""
    target: str = ""
    modifier: int = 0
    cover_weight: str | None = None
    reroll: bool = False
    die: int | None = None
    outcome: str | None = None
    distribution: dict[str, float] = field(default_factory=dict)
    mount_die: int | None = None
    part: str | None = None
    mounted_distribution: dict[str, float] | None = None
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
    rolls: tuple[int, ...] | None = None
    leader: str | None = None
    leader_exposed_probability: float | None = None
    leader_exposed: bool | None = None
    warnings: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class SRMoraleAnswer(Answer):
    side: str = ""
    vm: int = 0
    break_point: int = 0
    counted: dict[str, int] = field(default_factory=dict)
    warnings: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class SRMeleeAnswer(Checked):
    """A melee's dice, hits and odds (§6.7); its margins are those of the pikes' 1 cm."""

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
    pikes: tuple[str, ...] = ()
    attacker_reroll_faces: tuple[int, ...] = ()
    defender_reroll_faces: tuple[int, ...] = ()
    attacker_weapon_rerolls: int = 0
    defender_weapon_rerolls: int = 0
    warnings: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class SRSaveAnswer(Checked):
    """The leaders' save (§6.2.8): who takes a hit on a figure with a save."""

    figure: str = ""
    has_save: bool = False
    reasons: tuple[Reason, ...] = ()
    substitute: str | None = None
    tied: tuple[str, ...] = ()
    substitute_gap_mm: float | None = None
    substitute_gap_units: float | None = None
    radius_mm: float = 0.0
    radius_units: float = 0.0
    unit: str = ""
    pass_probability: float = 0.0
    die: int | None = None
    hit: str | None = None
    warnings: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class SRRallyAnswer(Checked):
    """Rallying a shaken figure (§6.2.9): 1 action with a helper within 20 cm, else 2."""

    figure: str = ""
    actions: int = 2
    helper: str | None = None
    helper_gap_mm: float | None = None
    helper_gap_units: float | None = None
    toward: str | None = None
    toward_gap_mm: float | None = None
    radius_mm: float = 0.0
    radius_units: float = 0.0
    unit: str = ""
    warnings: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class SRStandardAnswer(Checked):
    """The standard-bearer's re-roll of a morale test (§7.0, §8.0)."""

    standard: str = ""
    reroll: bool = False
    reasons: tuple[Reason, ...] = ()
    companions: tuple[str, ...] = ()
    within_reroll: tuple[str, ...] = ()
    needed_reroll: int = 0
    reroll_radius_mm: float = 0.0
    within_morale: tuple[str, ...] = ()
    needed_morale: int = 0
    morale_radius_mm: float = 0.0
    majority_within_morale: bool = False
    unit: str = ""
    warnings: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class SRObjectiveAnswer(Checked):
    """Scenario 1's objective: a friend within 3 cm and no enemy within 25 cm."""

    side: str = ""
    objective_mm: tuple[float, float] = (0.0, 0.0)
    held: bool = False
    reasons: tuple[Reason, ...] = ()
    friends_near: tuple[str, ...] = ()
    enemies_near: tuple[str, ...] = ()
    nearest_friend: str | None = None
    nearest_friend_gap_mm: float | None = None
    nearest_enemy: str | None = None
    nearest_enemy_gap_mm: float | None = None
    friend_radius_mm: float = 0.0
    enemy_radius_mm: float = 0.0
    unit: str = ""
    turn: int | None = None
    game_format: str | None = None
    vm: int | None = None
    bonus_vm: int | None = None
    break_point: int | None = None
    warnings: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class SRRescueAnswer(Checked):
    """Scenario 2's figure to rescue: in SIDE's zone (30 cm), and whether it may move."""

    side: str = ""
    figure: str = ""
    edge: str = ""
    rescued: bool = False
    reasons: tuple[Reason, ...] = ()
    depth_mm: float = 0.0
    zone_mm: float = 0.0
    escorts: tuple[str, ...] = ()
    may_move: bool = False
    unit: str = ""
    warnings: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class SRDeploymentAnswer(Checked):
    """Deployment zones (Annexe I): every figure within 30 cm of its edge (scouts 40)."""

    side: str = ""
    edge: str = ""
    legal: bool = False
    reasons: tuple[Reason, ...] = ()
    zone_mm: float = 0.0
    scout_zone_mm: float = 0.0
    depth_mm: dict[str, float] = field(default_factory=dict)
    outside: tuple[str, ...] = ()
    unit: str = ""
    warnings: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class SRSpotAnswer(Checked):
    """Spotting an ambush marker (§6.3, §6.3.1)."""

    spotter: str = ""
    marker: str = ""
    allowed: bool = False
    automatic: bool = False
    reasons: tuple[Reason, ...] = ()
    distance_mm: float = 0.0
    distance_units: float = 0.0
    unit: str = ""
    range_mm: float = 0.0
    automatic_mm: float = 0.0
    scout: bool = False
    va: int | None = None
    probability: float | None = None
    die: int | None = None
    reroll: int | None = None
    spotted: bool | None = None
    warnings: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class SRGunAnswer(Checked):
    """A gun's crew within 3 cm and its ammunition box within 10 cm (Artillerie)."""

    gun: str = ""
    legal: bool = False
    reasons: tuple[Reason, ...] = ()
    crew: tuple[str, ...] = ()
    crew_away: tuple[str, ...] = ()
    crew_needed: tuple[int, int] = (0, 0)
    crew_radius_mm: float = 0.0
    ammunition: str | None = None
    ammunition_gap_mm: float | None = None
    ammunition_radius_mm: float = 0.0
    unit: str = ""
    warnings: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class SRAssaultAnswer(Checked):
    """Scenario 4, the assault (Annexe II): the fortified position's set-up and the
    defender's break point and re-roll."""

    side: str = ""
    position: str = ""
    perimeter_mm: float = 0.0
    perimeter_limit_mm: float = 0.0
    terrain_too_near: dict[str, float] = field(default_factory=dict)
    attackers_inside: tuple[str, ...] = ()
    defenders_inside: tuple[str, ...] = ()
    defenders: int = 0
    vm: int = 0
    bonus_vm: int = 0
    break_point: int = 0
    reroll: bool = False
    unit: str = ""
    warnings: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class SRGunMoveAnswer(Checked):
    """A gun moved and turned by its crew (Artillerie): the dice, their chance, the turn."""

    gun: str = ""
    legal: bool = False
    reasons: tuple[Reason, ...] = ()
    crew: tuple[str, ...] = ()
    dice: int = 0
    gunner_actions: int = 0
    distance_mm: float = 0.0
    distance_units: float = 0.0
    unit: str = ""
    needed: int = 0
    probability: float = 0.0
    rolls: tuple[int, ...] | None = None
    reached: bool | None = None
    turn_deg: float = 0.0
    turn_actions: int = 0
    warnings: tuple[str, ...] = ()


class ChargeResponse(StrEnum):
    """What a group or figure does when charged (§6.7.3): the ``kind`` of a withdrawal."""

    NONE = "none"
    """Neither tests nor falls back."""
    TEST = "test"
    """Tests its morale (1d6 at most its C), and falls back shaken on a failure: a
    close-order group charged by a close-order group as large or larger."""
    FALLBACK = "fallback"
    """May fall back without a test, not shaken: a loose-order group or a lone figure
    charged by a close-order group."""
    ESCAPE = "escape"
    """Falls back without a test, not shaken, and must: skirmishers charged by a group
    (§3.2), unless impetuous, ferocious or fanatic ones choose to hold (and test)."""


@dataclass(frozen=True, slots=True)
class SRWithdrawalAnswer(Checked):
    """A charged group's fall-back of 15 cm + 1d6 (§6.7.3)."""

    group: str = ""
    charger: str = ""
    kind: ChargeResponse = ChargeResponse.NONE
    legal: bool = True
    reasons: tuple[Reason, ...] = ()
    shaken: bool = False
    test_needs: int | None = None
    test_reroll: bool = False
    test_probability: float | None = None
    test_die: int | None = None
    holds: bool | None = None
    die: int | None = None
    distance_mm: float = 0.0
    distance_units: float = 0.0
    unit: str = ""
    direction_deg: float = 0.0
    destinations: dict[str, tuple[float, float]] = field(default_factory=dict)
    warnings: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class SRDiveAnswer(Checked):
    """A foot figure diving under charging cavalry (§6.7.2)."""

    diver: str = ""
    rider: str = ""
    test_needs: int | None = None
    probability: float | None = None
    die: int | None = None
    dived: bool | None = None
    distance_mm: float = 0.0
    distance_units: float = 0.0
    unit: str = ""
    destinations: dict[str, tuple[float, float]] = field(default_factory=dict)
    refused: dict[str, list[str]] = field(default_factory=dict)
    rider_goes_on_mm: float = 0.0
    warnings: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class SROpportunityAnswer(Checked):
    """An opportunity shot (§6.2.6): the test, its cost, and the shot if it passes."""

    shooter: str = ""
    target: str = ""
    allowed: bool = False
    reasons: tuple[Reason, ...] = ()
    distance_mm: float = 0.0
    distance_units: float = 0.0
    unit: str = ""
    band: str | None = None
    to_hit_2d6: int | None = None
    dice: int = 0
    rerolled_faces: tuple[int, ...] = ()
    hit_probability: float | None = None
    shooters: tuple[str, ...] = ()
    test_above: int | None = None
    test_reroll: bool = False
    test_probability: float | None = None
    action_points: int | None = None
    probability: float | None = None
    die: int | None = None
    reroll: int | None = None
    may_fire: bool | None = None
    warnings: tuple[str, ...] = ()


def probability(value: Any) -> float:
    """A Fraction as a float for JSON."""
    return float(value)
