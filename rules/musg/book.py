"""The rule book's numbers as data: ranks, modes, bands, the damage table, weapons."""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from arbitre.rules.answers import at_most
from arbitre.rules.model import TerrainKind

RANKS = ("extra", "henchman", "subchief", "chief")
"""Ranks from the lowest (figurant) to the highest (chef)."""

BANDS = ("short", "medium", "long")
BOW_KINDS = ("bow", "crossbow", "thrown")
"""The weapons of the book's "armes de jet ou de tir sans poudre (arc, arbalète)": a 1 to hit
sends their missile astray ("thrown": a javelin, an axe, a knife)."""
SLOW_KINDS = ("musket", "crossbow")
"""Weapon kinds the book names as slow to reload ("fusil à un coup, mousquet, arbalète"):
a shot with one costs 2 PA unless its profile says ``slow: false``. A weapon marked
``artillery: true`` is heavy ("une arme lourde"; the book's « canons », « pièces
d'artillerie ») and slow by default too."""


@dataclass(frozen=True, slots=True)
class Numbers:
    """The rule book's numbers (Actions Actives, Jet de couvert, Tests, Fin du tour).

    ``test_dice``: the d6 each test rolls against the Cd ("Il lance 1d6" for « Subir un
    tir », 2d6 for the others); ``command_most``: the highest Cd a scene may give.
    """

    move_factor: Mapping[str, float] = field(
        default_factory=lambda: {"walk": 1.0, "run": 1.5, "charge": 1.5}
    )
    action_points: Mapping[str, int] = field(
        default_factory=lambda: {"walk": 1, "run": 2, "charge": 1}
    )
    failed_charge_points: int = 2
    shot_points: Mapping[bool, int] = field(default_factory=lambda: {False: 1, True: 2})
    failed_charge_fraction: float = 0.5
    charge_strength_bonus: int = 1
    difficult_factor: float = 2.0
    leave_move_fraction: float = 0.5
    leave_friend_pas: float = 1.0
    leave_minimum_points: int = 1
    support_pas: float = 3.0
    leader_pas: float = 4.0
    attention_chef_pas: float = 1.0
    cover_fraction: float = 0.5
    cover_roll: Mapping[str, int] = field(
        default_factory=lambda: {"short": 3, "medium": 4, "long": 5}
    )
    bow_interception_face: int = 6
    die_faces: int = 6
    accident_face: int = 1
    explosion_face: int = 1
    artillery_blast_pas: float = 3.0
    charge_recoil_penalty: int = 1
    test_dice: Mapping[str, int] = field(
        default_factory=lambda: {
            "under_fire": 1,
            "under_charge": 2,
            "urge_to_charge": 2,
            "spotting": 2,
        }
    )
    command_most: int = 20


TESTS = {
    "under_fire": "Subir un tir",
    "under_charge": "Subir une charge",
    "urge_to_charge": "Envie de charger",
    "spotting": "Apercevoir l'ennemi",
}
"""The command tests of the Actions Passives, by code, with the book's names."""


NUMBERS = Numbers()

# "Tableau des dommages": row R (resistance + armour) 1-12, column F (strength) 1-12,
# the minimum roll on 1D6 to inflict a damage. Transcribed from the rule book.
DAMAGE_TABLE: tuple[tuple[int, ...], ...] = (
    (4, 4, 3, 3, 2, 2, 2, 2, 2, 2, 2, 2),  # R 1
    (4, 4, 4, 3, 3, 2, 2, 2, 2, 2, 2, 2),  # R 2
    (5, 4, 4, 4, 3, 3, 2, 2, 2, 2, 2, 2),  # R 3
    (5, 5, 4, 4, 4, 3, 3, 2, 2, 2, 2, 2),  # R 4
    (6, 5, 5, 4, 4, 4, 3, 3, 2, 2, 2, 2),  # R 5
    (6, 6, 5, 5, 4, 4, 4, 3, 3, 2, 2, 2),  # R 6
    (6, 6, 6, 5, 5, 4, 4, 4, 3, 3, 2, 2),  # R 7
    (6, 6, 6, 6, 5, 5, 4, 4, 4, 3, 3, 2),  # R 8
    (6, 6, 6, 6, 6, 5, 5, 4, 4, 4, 3, 3),  # R 9
    (6, 6, 6, 6, 6, 6, 5, 5, 4, 4, 4, 3),  # R 10
    (6, 6, 6, 6, 6, 6, 6, 5, 5, 4, 4, 4),  # R 11
    (6, 6, 6, 6, 6, 6, 6, 6, 5, 5, 4, 4),  # R 12
)
TABLE_MAX = len(DAMAGE_TABLE)

COSTLY_TERRAIN = {TerrainKind.DIFFICULT: 2.0, TerrainKind.WOOD: 2.0}
BLOCKING_TERRAIN = (TerrainKind.IMPASSABLE, TerrainKind.BUILDING)
COVER_TERRAIN = (TerrainKind.OBSTACLE, TerrainKind.WOOD, TerrainKind.BUILDING)
TOUCH_MM = 1e-6
BOUNDS_SLACK_MM = 1.0  # shapes whose boxes are this far apart cannot meet


def cover_roll_needed(band: str) -> int:
    """The roll on 1D6 a shot needs to pass an obstacle at this range band.

    >>> [cover_roll_needed(band) for band in BANDS]
    [3, 4, 5]
    """
    return NUMBERS.cover_roll[band]


@dataclass(frozen=True, slots=True)
class Weapon:
    """A ranged weapon's profile: kind and the far end of each range band, in pas; ``slow``
    for a weapon slow to reload or heavy, whose shot costs 2 PA (Tirer)."""

    kind: str
    short_pas: float
    medium_pas: float
    long_pas: float
    strength: int | None = None
    black_powder: bool = False
    artillery: bool = False
    slow: bool = False

    def band(self, distance_pas: float) -> str | None:
        """The range band of a distance, None beyond long range.

        >>> Weapon("pistol", 4, 8, 12).band(8.0), Weapon("pistol", 4, 8, 12).band(12.5)
        ('medium', None)
        """
        for name, limit in zip(BANDS, self.limits_pas, strict=True):
            if at_most(distance_pas, limit):
                return name
        return None

    @property
    def limits_pas(self) -> tuple[float, float, float]:
        return (self.short_pas, self.medium_pas, self.long_pas)


def parse_weapon(raw: Any, where: str) -> Weapon:
    """``attrs.weapon``: ``{kind, short_pas, medium_pas, long_pas}`` or ``{kind, range_pas}``."""
    if not isinstance(raw, Mapping):
        raise ValueError(f"{where}: expected a mapping, got {raw!r}")
    kind = raw.get("kind", "firearm")
    if not isinstance(kind, str):
        raise ValueError(f"{where}.kind: expected a name, got {kind!r}")
    unknown = set(raw) - {
        "kind",
        "short_pas",
        "medium_pas",
        "long_pas",
        "range_pas",
        "strength",
        "black_powder",
        "artillery",
        "slow",
    }
    if unknown:
        raise ValueError(f"{where}.{sorted(unknown)[0]}: unknown key (a typo?)")
    extra: dict[str, Any] = {}
    if "strength" in raw:
        strength = raw["strength"]
        if (
            isinstance(strength, bool)
            or not isinstance(strength, int)
            or not 1 <= strength <= TABLE_MAX
        ):
            raise ValueError(
                f"{where}.strength: expected a whole number 1-{TABLE_MAX}, got {strength!r}"
            )
        extra["strength"] = strength
    for key in ("black_powder", "artillery", "slow"):
        if key in raw:
            if not isinstance(raw[key], bool):
                raise ValueError(f"{where}.{key}: expected true or false, got {raw[key]!r}")
            extra[key] = raw[key]
    extra.setdefault("slow", kind in SLOW_KINDS or extra.get("artillery", False))
    if "range_pas" in raw:
        both = sorted({"short_pas", "medium_pas", "long_pas"} & set(raw))
        if both:
            raise ValueError(
                f"{where}: give range_pas or the bands (short_pas, medium_pas, long_pas),"
                f" not both ({both[0]} with range_pas)"
            )
        far = positive_number(raw["range_pas"], f"{where}.range_pas")
        return Weapon(kind, far / 3.0, 2.0 * far / 3.0, far, **extra)
    limits = []
    for key in ("short_pas", "medium_pas", "long_pas"):
        if key not in raw:
            raise ValueError(f"{where}.{key}: missing (or give range_pas)")
        limits.append(positive_number(raw[key], f"{where}.{key}"))
    if not limits[0] <= limits[1] <= limits[2]:
        raise ValueError(f"{where}: bands must grow short <= medium <= long, got {limits!r}")
    return Weapon(kind, limits[0], limits[1], limits[2], **extra)


def positive_number(value: Any, where: str) -> float:
    """A finite number above 0, as a float; a `ValueError` naming ``where`` otherwise."""
    if isinstance(value, bool) or not isinstance(value, int | float) or not value > 0:
        raise ValueError(f"{where}: expected a positive number, got {value!r}")
    if not math.isfinite(value):
        raise ValueError(f"{where}: expected a finite number, got {value!r}")
    return float(value)
