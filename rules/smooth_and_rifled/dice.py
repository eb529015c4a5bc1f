"""Smooth & Rifled dice arithmetic: the tables a table assistant can compute exactly.

Every number comes from the rule book: the 2D6 to-hit thresholds by
range band (§6.2.1), the re-rolls for cover (§6.2.3), the damage roll (§6.2.7),
the volley (§6.2.5), the melee dice (§6.7) and the break point (§7.0).
Probabilities are exact fractions.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from types import MappingProxyType

FACES = 6
"""Every die of the game is a d6."""

TO_HIT: Mapping[str, int] = MappingProxyType({"short": 5, "medium": 7, "long": 9, "extreme": 13})
"""Least total on the shooting dice to hit, by range band (normally 2d6)."""

BANDS: tuple[tuple[str, float], ...] = (
    ("short", 0.5),
    ("medium", 1.0),
    ("long", 2.0),
    ("extreme", 3.0),
)
"""Range bands as multiples of the weapon's medium range R: short is up to R/2, etc."""

COVER_REROLL = frozenset({5, 6})
"""Faces the shooter re-rolls (once) when the target is in cover or running."""
AIMED_COVER_REROLL = frozenset({6})
"""Faces re-rolled against cover when the shooter aimed."""
SNIPER_REROLL = frozenset({1})
"""A sniper may re-roll his 1s."""


@dataclass(frozen=True, slots=True)
class DamageTable:
    """The shooting damage roll (§6.2.7): 1d6 plus modifiers; 1-3 shaken, 4+ out of action."""

    out_from: int = 4
    light_cover: int = -1
    heavy_cover: int = -2
    aimed: int = 1


DAMAGE = DamageTable()


@dataclass(frozen=True, slots=True)
class MoraleValues:
    """Moral value (VM) of a side (§7.0); the break point is a third, rounded up."""

    hero: int = 4
    senior_officer: int = 4
    leader: int = 3
    standard: int = 2
    soldier: int = 1
    break_fraction: Fraction = field(default=Fraction(1, 3))


MORALE = MoraleValues()


@dataclass(frozen=True, slots=True)
class MeleeDice:
    """Dice of a melee (§6.7, §6.7.1, 8.0)."""

    base: int = 3
    impetuous: int = 1
    mounted: int = 1
    mounted_charging: int = 1
    shaken: int = -1
    foot_charging_across_obstacle: int = -1
    second_attacker: int = 1
    pikes: int = -1


MELEE = MeleeDice()


def die_pmf(reroll: Iterable[int] = ()) -> dict[int, Fraction]:
    """Faces of one d6 re-rolled once when they show a face of ``reroll``.

    >>> die_pmf({5, 6})[1], die_pmf({5, 6})[6]
    (Fraction(2, 9), Fraction(1, 18))
    """
    again = frozenset(reroll)
    share = Fraction(len(again), FACES) / FACES
    return {
        face: (Fraction(0) if face in again else Fraction(1, FACES)) + share
        for face in range(1, FACES + 1)
    }


def sum_pmf(dice: int, reroll: Iterable[int] = ()) -> dict[int, Fraction]:
    """Distribution of the total of ``dice`` d6 (each re-rolled once on ``reroll``).

    >>> sum_pmf(2)[7]
    Fraction(1, 6)
    >>> sum_pmf(0)
    {0: Fraction(1, 1)}
    """
    if dice < 0:
        raise ValueError(f"a number of dice is at least 0, got {dice!r}")
    one = die_pmf(reroll)
    total: dict[int, Fraction] = {0: Fraction(1)}
    for _ in range(dice):
        following: dict[int, Fraction] = {}
        for value, p in total.items():
            for face, q in one.items():
                following[value + face] = following.get(value + face, Fraction(0)) + p * q
        total = following
    return dict(sorted(total.items()))


def at_least(dice: int, threshold: int, reroll: Iterable[int] = ()) -> Fraction:
    """Chance that ``dice`` d6 total ``threshold`` or more.

    >>> at_least(2, 9)  # a musket at long range: 9+ on 2d6
    Fraction(5, 18)
    >>> at_least(2, 13), at_least(3, 13)
    (Fraction(0, 1), Fraction(7, 27))
    """
    return sum((p for value, p in sum_pmf(dice, reroll).items() if value >= threshold), Fraction(0))


def at_least_rerolling_one(dice: int, threshold: int) -> Fraction:
    """Chance that ``dice`` d6 total ``threshold`` or more when, short of it, one die (the
    lowest, the best choice) is rolled again: a rifled gun (Artillerie: « Les pièces à canon
    rayé peuvent relancer 1d6 pour toucher »).

    >>> at_least_rerolling_one(3, 7)  # 196/216, and 14 of the 20 misses saved
    Fraction(35, 36)
    """
    chance = Fraction(0)
    for faces in itertools.product(range(1, FACES + 1), repeat=dice):
        total = sum(faces)
        if total >= threshold:
            chance += Fraction(1, FACES**dice)
            continue
        needed = threshold - (total - min(faces))
        saved = min(FACES, max(0, FACES + 1 - needed))
        chance += Fraction(saved, FACES ** (dice + 1))
    return chance


def band_of(distance_mm: float, medium_range_mm: float, extreme: bool) -> str | None:
    """The range band of an edge-to-edge distance, or None beyond reach.

    >>> band_of(360.0, 300.0, extreme=False)
    'long'
    >>> band_of(700.0, 300.0, extreme=False), band_of(700.0, 300.0, extreme=True)
    (None, 'extreme')
    """
    for name, factor in BANDS:
        if name == "extreme" and not extreme:
            break
        if distance_mm <= factor * medium_range_mm:
            return name
    return None


def shooting_dice(*, aimed: bool, sniper: bool, moved: bool) -> int:
    """Dice a single figure rolls to hit: 2, 3 when aiming or for a sniper, one less if it moved.

    >>> shooting_dice(aimed=False, sniper=False, moved=False)
    2
    >>> shooting_dice(aimed=True, sniper=False, moved=True)
    2
    """
    return 2 + (1 if aimed or sniper else 0) - (1 if moved else 0)


def shooting_rerolls(*, cover: bool, aimed: bool, sniper: bool) -> frozenset[int]:
    """Faces re-rolled: 5 and 6 against cover (only 6 when aiming), 1 for a sniper. A sniper
    aims without spending an action (§8.0: « n'a pas besoin de dépenser une Action pour
    Viser »): against cover he re-rolls his 6s only, as any figure that aims.

    >>> sorted(shooting_rerolls(cover=True, aimed=False, sniper=True))
    [1, 6]
    >>> sorted(shooting_rerolls(cover=True, aimed=False, sniper=False))
    [5, 6]
    """
    faces: set[int] = set()
    if cover:
        faces |= AIMED_COVER_REROLL if aimed or sniper else COVER_REROLL
    if sniper:
        faces |= SNIPER_REROLL
    return frozenset(faces)


def damage_modifier(cover_weight: str | None, *, aimed: bool) -> int:
    """Modifier of the damage roll: -1 light cover, -2 heavy cover, +1 if the shooter aimed.

    >>> damage_modifier("heavy", aimed=True)
    -1
    """
    modifier = DAMAGE.aimed if aimed else 0
    if cover_weight == "light":
        modifier += DAMAGE.light_cover
    elif cover_weight == "heavy":
        modifier += DAMAGE.heavy_cover
    elif cover_weight is not None:
        raise ValueError(f"cover is 'light' or 'heavy', got {cover_weight!r}")
    return modifier


def damage(die: int, modifier: int) -> str:
    """Outcome of a damage roll: ``shaken`` (1-3) or ``out`` (4+), after the modifier.

    >>> [damage(die, -2) for die in range(1, 7)]
    ['shaken', 'shaken', 'shaken', 'shaken', 'shaken', 'out']
    """
    if not 1 <= die <= FACES:
        raise ValueError(f"a die shows 1 to {FACES}, got {die!r}")
    return "out" if die + modifier >= DAMAGE.out_from else "shaken"


def damage_distribution(modifier: int, *, reroll: bool = False) -> dict[str, Fraction]:
    """Chances of each damage outcome; ``reroll``: a die that puts the figure out is rolled
    once again (veterans and guards, §8.0).

    >>> damage_distribution(0)
    {'shaken': Fraction(1, 2), 'out': Fraction(1, 2)}
    >>> damage_distribution(0, reroll=True)
    {'shaken': Fraction(3, 4), 'out': Fraction(1, 4)}
    """
    counts = {"shaken": Fraction(0), "out": Fraction(0)}
    for die in range(1, FACES + 1):
        counts[damage(die, modifier)] += Fraction(1, FACES)
    if reroll:
        out = counts["out"] * counts["out"]
        counts = {"shaken": 1 - out, "out": out}
    return counts


def volley_dice(shooters: int, *, aimed: bool = False, moved: bool = False) -> int:
    """Dice of a volley: 2 for the first shooter, 1 for each other (4 shooters roll 5d6,
    §6.2.5); a group that aimed gains one die, one only (§6.2.2, §6.4), one that moved
    loses one (§6.2.2).

    >>> volley_dice(4), volley_dice(2, aimed=True), volley_dice(2, aimed=True, moved=True)
    (5, 4, 3)
    """
    if shooters < 1:
        raise ValueError(f"a volley needs at least one shooter, got {shooters!r}")
    return shooters + 1 + (1 if aimed else 0) - (1 if moved else 0)


def volley_hits(total: int, threshold: int) -> int:
    """Hits of a volley: one per whole multiple of the score needed.

    >>> volley_hits(30, 7), volley_hits(6, 7)
    (4, 0)
    """
    return total // threshold


def volley_distribution(
    dice: int, threshold: int, reroll: Iterable[int] = ()
) -> dict[int, Fraction]:
    """Chance of each number of hits of a volley of ``dice`` dice (`volley_dice`).

    >>> volley_distribution(2, 7)
    {0: Fraction(5, 12), 1: Fraction(7, 12)}
    """
    hits: dict[int, Fraction] = {}
    for total, p in sum_pmf(dice, reroll).items():
        n = volley_hits(total, threshold)
        hits[n] = hits.get(n, Fraction(0)) + p
    return dict(sorted(hits.items()))


TRIPLE_FACES = (5, 6)
"""A volley's dice showing three of these expose the target group's Leader (§6.2.5)."""
TRIPLE_COUNT = 3


def has_triple(faces: Iterable[int], *, same_face: bool = True) -> bool:
    """Whether a volley's dice show « un triple 5 ou 6 »: three 5s or three 6s
    (``same_face``), or three dice each a 5 or a 6.

    >>> has_triple([5, 5, 2, 5]), has_triple([5, 6, 6, 1]), has_triple([5, 6, 6], same_face=False)
    (True, False, True)
    """
    rolled = list(faces)
    if same_face:
        return any(rolled.count(face) >= TRIPLE_COUNT for face in TRIPLE_FACES)
    return sum(1 for face in rolled if face in TRIPLE_FACES) >= TRIPLE_COUNT


def triple_chance(dice: int, reroll: Iterable[int] = (), *, same_face: bool = True) -> Fraction:
    """Chance that ``dice`` d6 (each re-rolled once on ``reroll``) show a triple 5 or 6
    (`has_triple`).

    >>> triple_chance(3)  # 555 or 666
    Fraction(1, 108)
    >>> triple_chance(3, same_face=False)  # each of three a 5 or a 6
    Fraction(1, 27)
    """
    face = die_pmf(reroll)
    five, six = face[TRIPLE_FACES[0]], face[TRIPLE_FACES[1]]
    other = 1 - five - six
    below = TRIPLE_COUNT - 1
    miss = Fraction(0)
    if same_face:
        for fives in range(min(below, dice) + 1):
            for sixes in range(min(below, dice - fives) + 1):
                rest = dice - fives - sixes
                ways = math.factorial(dice) // (
                    math.factorial(fives) * math.factorial(sixes) * math.factorial(rest)
                )
                miss += ways * five**fives * six**sixes * other**rest
    else:
        high = five + six
        for count in range(min(below, dice) + 1):
            miss += math.comb(dice, count) * high**count * (1 - high) ** (dice - count)
    return 1 - miss


def above_chance(last: int, *, again: bool = False) -> Fraction:
    """Chance that 1d6 shows more than ``last``, the last number of a VA (the tests of the
    reference sheet: an opportunity shot, §6.2.6, spotting an ambush, §6.3.1), a failure
    rolled once again when ``again``.

    >>> above_chance(3), above_chance(3, again=True)
    (Fraction(1, 2), Fraction(3, 4))
    """
    fail = Fraction(min(max(last, 0), FACES), FACES)
    return 1 - (fail * fail if again else fail)


def morale_value(
    hero: int, senior_officers: int, leaders: int, standards: int, soldiers: int
) -> int:
    """VM of a side: 4 per hero or senior officer, 3 per officer or NCO, 2 per standard, 1 each.

    >>> morale_value(0, 0, 1, 0, 10)  # ten soldiers and a sergeant
    13
    """
    return (
        MORALE.hero * hero
        + MORALE.senior_officer * senior_officers
        + MORALE.leader * leaders
        + MORALE.standard * standards
        + MORALE.soldier * soldiers
    )


def break_point(vm: int) -> int:
    """Losses of VM that force a morale test: a third of the VM, rounded up.

    >>> break_point(13)
    5
    """
    return math.ceil(vm * MORALE.break_fraction)


def hits_pmf(
    dice: int, hit_from: int, reroll: Iterable[int] = (), second_chances: int = 0
) -> dict[int, Fraction]:
    """Chance of each number of dice showing ``hit_from`` or more (a melee's hits), each die
    re-rolled once when it shows a face of ``reroll`` (ferocity, §8.0); then up to
    ``second_chances`` missed dice are rolled again, once each, a fresh die (a melee weapon
    or a standard, §6.7.1).

    >>> hits_pmf(1, 5)
    {0: Fraction(2, 3), 1: Fraction(1, 3)}
    >>> hits_pmf(1, 5, {1})[1]  # 1/3 + 1/6 x 1/3: a 1 re-rolled
    Fraction(7, 18)
    >>> hits_pmf(1, 5, second_chances=1)[1]  # 1/3 + 2/3 x 1/3: a miss rolled again
    Fraction(5, 9)
    """
    face = die_pmf(reroll)
    p = sum((q for value, q in face.items() if value >= hit_from), Fraction(0))
    first = {k: math.comb(dice, k) * p**k * (1 - p) ** (dice - k) for k in range(dice + 1)}
    if second_chances <= 0:
        return first
    fresh = Fraction(max(0, min(FACES, FACES + 1 - hit_from)), FACES)
    hits = {k: Fraction(0) for k in range(dice + 1)}
    for k, chance in first.items():
        again = min(second_chances, dice - k)
        for extra in range(again + 1):
            ways = math.comb(again, extra) * fresh**extra * (1 - fresh) ** (again - extra)
            hits[k + extra] += chance * ways
    return hits


FEROCIOUS_REROLL = frozenset({1})
"""Faces a ferocious side re-rolls in melee (§8.0: « relancent tous les 1 en Mêlée »)."""
AGAINST_FEROCIOUS_REROLL = frozenset({6})
"""Faces re-rolled by the enemies of a ferocious side (« forcent leurs adversaires à relancer
les 6 (une fois par Mêlée) »)."""


def melee_rerolls(*, ferocious: bool, against_ferocious: bool) -> frozenset[int]:
    """Faces a melee side re-rolls once: its 1s when ferocious, its 6s against ferocity.

    >>> sorted(melee_rerolls(ferocious=True, against_ferocious=True))
    [1, 6]
    """
    faces: set[int] = set()
    if ferocious:
        faces |= FEROCIOUS_REROLL
    if against_ferocious:
        faces |= AGAINST_FEROCIOUS_REROLL
    return frozenset(faces)


def count_hits(faces: Iterable[int], hit_from: int) -> int:
    """Hits among rolled faces.

    >>> count_hits([1, 3, 5], 3)
    2
    """
    rolled = list(faces)
    for face in rolled:
        if not 1 <= face <= FACES:
            raise ValueError(f"a die shows 1 to {FACES}, got {face!r}")
    return sum(1 for face in rolled if face >= hit_from)


def contest(first: Mapping[int, Fraction], second: Mapping[int, Fraction]) -> dict[str, Fraction]:
    """Chances that the first side scores more, as many, or fewer hits than the second.

    >>> contest({0: Fraction(1, 2), 1: Fraction(1, 2)}, {0: Fraction(1)})["win"]
    Fraction(1, 2)
    """
    result = {"win": Fraction(0), "tie": Fraction(0), "lose": Fraction(0)}
    for a, p in first.items():
        for b, q in second.items():
            key = "win" if a > b else "tie" if a == b else "lose"
            result[key] += p * q
    return result
