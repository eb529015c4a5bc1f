"""Smooth & Rifled: the book's numbers (with their §), its guns and moves.

Every measure of the game is base edge to base edge, in cm (28 mm figures); the options
(`arbitre.rules.smooth_and_rifled.options`) set the scale.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType

from arbitre.rules.answers import Unit
from arbitre.rules.errors import QuestionError, shown
from arbitre.rules.model import Figure

MM_PER_CM = 10.0
UNIT = Unit("cm", MM_PER_CM)


@dataclass(frozen=True, slots=True)
class Numbers:
    """The book's distances (cm, 28 mm scale) and angles."""

    chain_cm: float = 3.0
    loose_chain_cm: float = 8.0
    musician_factor: float = 2.0
    single_arc_deg: float = 180.0
    group_arc_deg: float = 90.0
    charge_arc_deg: float = 180.0
    cover_ignore_cm: float = 3.0
    wood_sight_cm: float = 5.0
    same_wood_sight_cm: float = 15.0
    window_sight_cm: float = 30.0
    group_charge_cm: float = 8.0
    fanatic_charge_cm: float = 12.0  # §8.0: « un Fanatique peut charger à 12cm »
    dive_cm: float = 3.0  # §6.7.2: a foot figure dives 3 cm left or right of its place
    dive_rider_cm: float = 12.0  # ... and the rider finishes its move (12 cm)
    assault_perimeter_share: float = 0.2  # Annexe II, scenario 4: 20% of the table's
    assault_light_clear_cm: float = 25.0  # ... light cover at least 25 cm from the position
    assault_heavy_clear_cm: float = 40.0  # ... heavy cover at least 40 cm
    assault_defended_cm: float = 10.0  # ... no free crossing with an enemy within 10 cm
    assault_defended_15mm_cm: float = 5.0  # ... (5 cm in 15 mm, the book's own number)
    assault_bonus_vm: int = 20  # ... the defender's VM bonus, less 1 per attacker inside
    pikes_cm: float = 1.0  # §8.0: pikes cost mounted chargers a die, and near friends' too
    max_attackers: int = 2
    volley_spread_cm: float = 8.0
    strip_width_cm: float = 4.0
    canister_cone_deg: float = 90.0
    default_base_mm: float = 25.0
    max_actions: int = 3
    backwards_cm: float = 3.0  # §6.1: at most 3 cm backwards keeping the facing
    save_radius_cm: float = 5.0  # §6.2.8: the hit passes to the nearest figure within 5 cm
    save_from: int = 4  # §6.2.8: 1-3 the figure is hit, 4-6 the hit passes
    rally_cm: float = 20.0  # §6.2.9: 1 action with a Leader, standard or hero within 20 cm
    rally_actions: tuple[int, int] = (1, 2)
    standard_morale_cm: float = 30.0  # §7.0: most companions within 30 cm
    standard_reroll_cm: float = 40.0  # §8.0: at least 50% of friends within 40 cm
    objective_friend_cm: float = 3.0  # Annexe II scenario 1: a friend within 3 cm
    objective_enemy_cm: float = 25.0  # ... no enemy within 25 cm
    objective_enemy_15mm_cm: float = 15.0  # ... (15 cm in 15 mm, the book's own number)
    objective_from_turn: int = 3
    objective_bonus_vm_small: int = 10  # ... holding it gives 10 VM in the small format
    objective_bonus_vm_medium: int = 20  # ... and 20 in the medium one
    deployment_cm: float = 30.0  # Annexe I: 30 cm from the table edge (15 cm in 15 mm)
    scout_deployment_cm: float = 40.0  # ... scouts 40 cm
    scout_deployment_15mm_cm: float = 25.0  # ... (25 cm in 15 mm, the book's own number)
    withdrawal_cm: float = 15.0  # §6.7.3: fall back 15 cm + 1d6
    spot_cm: float = 30.0  # §6.3: an ambush is never spotted beyond 30 cm
    scout_spot_cm: float = 45.0  # §6.3, §8.0: scouts spot at 45 cm
    auto_spot_cm: float = 15.0  # §6.3: spotted automatically at 15 cm or less
    spot_arc_deg: float = 180.0
    crew_cm: float = 3.0  # Artillerie: gunners within 3 cm of their piece
    gun_turn_deg: float = 90.0  # Artillerie: a gun turns up to 90° for 2 (4) actions
    gun_test_from: int = 3  # Artillerie: a gun shot at by a gun is saved on 3+
    box_test_from: int = 5  # ... its ammunition box on 5+ (tested last)
    ammunition_cm: float = 10.0  # Artillerie: an ammunition box within 10 cm


NUMBERS = Numbers()


@dataclass(frozen=True, slots=True)
class Gun:
    """An artillery piece's numbers (Règles avancées, light and medium guns)."""

    medium_range_cm: float
    canister_cm: float
    explosion_cm: float
    strip_dice: int
    strip_factor: int
    crew: tuple[int, int] = (3, 6)
    gunners_per_die: int = 1  # moves 1d6 cm per gunner (light), per two gunners (medium)
    turn_actions: int = 2  # turns up to 90° for 2 actions (light), 4 (medium)
    test_from: int = 4  # a figure a shot touches is saved on 4+ (light), 5+ (medium), 1 less
    # behind heavy cover


GUNS: Mapping[str, Gun] = MappingProxyType(
    {
        "light": Gun(
            medium_range_cm=60.0, canister_cm=30.0, explosion_cm=20.0, strip_dice=4, strip_factor=1
        ),
        "medium": Gun(
            medium_range_cm=90.0,
            canister_cm=45.0,
            explosion_cm=30.0,
            strip_dice=4,
            strip_factor=2,
            crew=(4, 12),
            gunners_per_die=2,
            turn_actions=4,
            test_from=5,
        ),
    }
)

MOVES_CM: Mapping[tuple[str, str], tuple[float, float]] = MappingProxyType(
    {
        ("infantry", "normal"): (12.0, 8.0),
        ("infantry", "charge"): (12.0, 8.0),
        ("infantry", "column"): (12.0, 8.0),
        ("infantry", "road"): (12.0, 8.0),
        ("infantry_group", "normal"): (8.0, 5.0),
        ("infantry_group", "charge"): (12.0, 8.0),
        ("infantry_group", "column"): (12.0, 8.0),
        ("infantry_group", "road"): (12.0, 8.0),
        ("cavalry", "normal"): (20.0, 12.0),
        ("cavalry", "charge"): (20.0, 12.0),
        ("cavalry", "road"): (20.0, 12.0),
        ("artillery", "normal"): (6.0, 4.0),
        ("artillery", "road"): (16.0, 10.0),
    }
)
"""Move per action (first, later) in cm, by kind of mover and kind of move (§6.1)."""

FIGURE_TYPES = ("infantry", "cavalry", "artillery")


def va_last(figure: Figure) -> int | None:
    """The last number of a figure's VA (``attrs.va``, like ``1/2/2``), a die's face; None
    when the figure gives none.

    >>> va_last(Figure("scout", "blue", 0, 0, attrs={"va": "1/2/4"}))
    4
    """
    return _va_number(figure, -1)


def va_first(figure: Figure) -> int | None:
    """The first number of a figure's VA: the PA its first action costs (§4.0), and an
    opportunity fire (§6.2.6); None when the figure gives none.

    >>> va_first(Figure("line", "blue", 0, 0, attrs={"va": "2/3/4"}))
    2
    """
    return _va_number(figure, 0)


def _va_number(figure: Figure, place: int) -> int | None:
    """A number of the figure's VA (``attrs.va``), 1 to 6, by its place; a hero's 1-1-1
    (§8.0: « Un Héros a les caractéristiques suivantes : VA=1-1-1 et C=6 »); None without."""
    declared = figure.attrs.get("va")
    if declared is None and figure.attrs.get("hero", False):
        return 1
    if declared is None:
        return None
    parts = str(declared).replace("-", "/").split("/") if isinstance(declared, str) else declared
    number = parts[place] if isinstance(parts, list | tuple) and parts else None
    if isinstance(number, str) and number.strip().isdigit():
        number = int(number.strip())
    if isinstance(number, bool) or not isinstance(number, int) or not 1 <= number <= VA_FACES:
        which = "its last number a die's face" if place == -1 else "its first number"
        raise QuestionError(
            f"figure {figure.id!r}: attrs.va must be like 1/2/2, {which} 1 to {VA_FACES}, "
            f"got {shown(declared)}"
        )
    return number


VA_FACES = 6
"""The faces of the die a VA's last number is compared with."""

MIN_RANGE_CM = 1.0
"""The shortest medium range a weapon may give (the book's run from 15 to 90 cm)."""

MAX_RANGE_CM = 3000.0
"""The longest medium range a weapon may give: its extreme range, 3R, is then 90 m, within
the largest table (100 m)."""


def weapon_range_cm(figure: Figure) -> float | None:
    """The weapon's medium range R in cm (``attrs.weapon.medium_range_cm``), None if unarmed."""
    weapon = figure.attrs.get("weapon")
    if weapon is None:
        return None
    if not isinstance(weapon, Mapping) or "medium_range_cm" not in weapon:
        raise QuestionError(f"figure {figure.id!r}: attrs.weapon needs medium_range_cm")
    value = weapon["medium_range_cm"]
    if (
        isinstance(value, bool)
        or not isinstance(value, int | float)
        or not MIN_RANGE_CM <= value <= MAX_RANGE_CM
    ):
        raise QuestionError(
            f"figure {figure.id!r}: attrs.weapon.medium_range_cm must be a number of cm, "
            f"{MIN_RANGE_CM:g} to {MAX_RANGE_CM:g}, got {shown(value)}"
        )
    return float(value)
