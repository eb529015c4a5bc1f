"""Smooth & Rifled: what the charged do — fall back 15 cm + 1d6 before a group charge
(§6.7.3), the skirmishers' escape (§3.2), a foot figure's dive under cavalry (§6.7.2)."""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

import numpy as np
import shapely

from arbitre.rules.answers import Margin, Reason, Said, warning_lines, with_certainty
from arbitre.rules.errors import QuestionError
from arbitre.rules.model import Figure, Scene
from arbitre.rules.options import Die, Flag
from arbitre.rules.smooth_and_rifled.answers import (
    ChargeResponse,
    SRDiveAnswer,
    SRWithdrawalAnswer,
)
from arbitre.rules.smooth_and_rifled.bases import OVERLAP_MM2, base_of, place_refusals
from arbitre.rules.smooth_and_rifled.book import MM_PER_CM, NUMBERS, UNIT
from arbitre.rules.smooth_and_rifled.dice import FACES
from arbitre.rules.smooth_and_rifled.groups import Group, is_mounted, resolve
from arbitre.rules.smooth_and_rifled.moves import BLOCKING_TERRAIN, closing_order
from arbitre.rules.smooth_and_rifled.options import SmoothAndRifledOptions, options_of
from arbitre.rules.smooth_and_rifled.reasons import reason_words
from arbitre.rules.smooth_and_rifled.tables import combat_value


def withdrawal_question(
    scene: Scene,
    a: str,
    b: str,
    die: Die | None = None,
    test_die: Die | None = None,
    defensive: Flag = False,
    hold: Flag = False,
) -> SRWithdrawalAnswer:
    """A, charged by B, falls back 15 cm + 1d6 (§6.7.3).

    "Si un Groupe est chargé par un Groupe ayant le même effectif ou étant plus nombreux,
    le défenseur doit effectuer un Test de Moral et obtenir un résultat inférieur ou égal
    à sa valeur C avec 1d6. Si le Groupe chargé a une valeur C supérieure au Groupe qui
    charge ou occupe une position défensive, il peut relancer après un échec. Si le Test
    est un échec, le défenseur doit reculer, secoué, de 15cm+1d6." "Quand un Groupe en
    Ordre Serré charge un Groupe en Ordre Lâche, celui-ci peut, sans aucun test, se replier
    de 15cm + 1d6, sans être Secoué (Repli). Les figurines individuelles peuvent faire de
    même." "Un Groupe en Ordre Lâche peut, plutôt que se replier, passer en Ordre Serré
    (si cela lui est permis) en tant que mouvement d'opportunité. Dans ce cas, le Groupe
    tiendra la charge s'il réussit son test." Skirmishers (§3.2) "ne peuvent passer en
    Ordre Serré. Les Groupes ayant cette caractéristique s'échappent s'ils sont chargés
    par d'autres Groupes, sauf s'ils ont la caractéristique Impétueux, Féroce ou
    Fanatique ; dans ce cas ils peuvent choisir de tenir et recevoir la charge. S'ils
    choisissent de tenir, ils doivent passer le test": ``hold`` is that choice (a loose-order
    group closing order, or such skirmishers holding; a lone figure standing). Every
    figure of A moves the same distance straight away from B (from the centre of B's
    figures through the centre of A's); without ``die`` the destinations are those of the
    longest fall-back (15 + 6 cm).
    """
    options = options_of(scene)
    defenders_group, defender = resolve(scene, a)
    attackers_group, charger = resolve(scene, b)
    if not scene.are_enemies(charger.side, defender.side):
        raise QuestionError(f"{b!r} is not an enemy of {a!r}")
    defenders = list(defenders_group.figures) if defenders_group else [defender]
    attackers = list(attackers_group.figures) if attackers_group else [charger]
    response, warnings = _response(defenders_group, attackers_group, defenders, attackers, hold)
    test: _MoraleTest | None = None
    if response is ChargeResponse.TEST:
        test = _morale_test(defenders, attackers, defensive, test_die)
        warnings.extend(test.warnings)
    elif test_die is not None:
        raise QuestionError(f"{a!r} takes no morale test against {b!r} (a test_die was given)")

    distance_mm = options.mm(NUMBERS.withdrawal_cm + (die if die is not None else FACES))
    if die is None and response is not ChargeResponse.NONE:
        warnings.append(
            Said(
                "longest_fall_back",
                "before the 1d6: destinations at the longest fall-back, {cm} cm",
                cm=f"{distance_mm / MM_PER_CM:g}",
            )
        )
    away = np.mean([f.xy for f in defenders], axis=0) - np.mean([f.xy for f in attackers], axis=0)
    if not np.any(away):
        raise QuestionError(f"{a!r} and {b!r} stand at the same place: no way away")
    step = away / float(np.hypot(*away)) * distance_mm
    holds = test is not None and test.holds is True
    ground = (
        _fall_back(scene, defenders, step)
        if response is not ChargeResponse.NONE and not holds
        else _FallBack({}, (), ())
    )
    name = defenders_group.name if defenders_group else defender.id
    text = _sentence(name, b, response, test, _length(options, die))
    if ground.reasons:
        text += ": " + reason_words(ground.reasons)
    return SRWithdrawalAnswer(
        question="withdrawal",
        message=with_certainty(text, *ground.margins) + warning_lines(warnings),
        margins=ground.margins,
        group=name,
        charger=attackers_group.name if attackers_group else charger.id,
        kind=response,
        legal=not ground.reasons,
        reasons=ground.reasons,
        shaken=test is not None and not holds,
        test_needs=None if test is None else test.needs,
        test_reroll=test is not None and test.reroll,
        test_probability=None if test is None else test.probability,
        test_die=test_die,
        holds=None if test is None else test.holds,
        die=die,
        distance_mm=distance_mm,
        distance_units=UNIT.from_mm(distance_mm),
        unit=UNIT.name,
        direction_deg=float(math.degrees(math.atan2(step[1], step[0]))),
        destinations=ground.destinations,
        warnings=tuple(warnings),
    )


HOLDING_SKIRMISHERS = ("impetuous", "ferocious", "fanatic")
"""The characteristics that let skirmishers hold a charge rather than escape (§3.2)."""


def _response(
    defenders_group: Group | None,
    attackers_group: Group | None,
    defenders: Sequence[Figure],
    attackers: Sequence[Figure],
    hold: bool,
) -> tuple[ChargeResponse, list[str]]:
    """What the charged side does, and the warnings that go with it: a close-order group
    charged by a close-order group as large or larger tests; skirmishers charged by a
    group escape; a loose-order group or a lone figure charged by a close-order group may
    fall back; otherwise neither. ``hold``: the charged side chooses to hold instead."""
    warnings = closing_order(attackers_group)
    close_attack = attackers_group is not None and not attackers_group.loose
    if defenders_group is not None and defenders_group.skirmishers:
        return _skirmishers(defenders_group, close_attack, hold, warnings), warnings
    closing = defenders_group is not None and defenders_group.loose and hold and close_attack
    if closing and defenders_group is not None:
        warnings.append(
            Said(
                "closes_order_to_hold",
                "{group} closes order as an opportunity move to hold the charge",
                group=defenders_group.name,
            )
        )
    if defenders_group is not None and (not defenders_group.loose or closing):
        if close_attack and len(attackers) >= len(defenders):
            return ChargeResponse.TEST, warnings
        return ChargeResponse.NONE, warnings
    if not close_attack or hold:
        return ChargeResponse.NONE, warnings
    if defenders_group is not None:
        warnings.append(
            Said(
                "may_close_and_hold",
                "{group} may instead close order and test to hold",
                group=defenders_group.name,
            )
        )
    return ChargeResponse.FALLBACK, warnings


def _skirmishers(group: Group, charged: bool, hold: bool, warnings: list[str]) -> ChargeResponse:
    """Skirmishers charged (§3.2): they never close order, and escape a group's charge
    (``charged``) unless impetuous, ferocious or fanatic ones choose to ``hold``: they then
    take the test."""
    traits = [name for name in HOLDING_SKIRMISHERS if group.has(name)]
    if hold and not traits:
        raise QuestionError(
            f"{group.name!r} are skirmishers neither impetuous, ferocious nor fanatic: "
            "they cannot hold, they escape (hold=true was given)"
        )
    if not charged:
        return ChargeResponse.NONE
    if hold:
        warnings.append(
            Said(
                "skirmishers_hold",
                "{group} are skirmishers holding the charge (impetuous, ferocious or fanatic): "
                "they take the test",
                group=group.name,
            )
        )
        return ChargeResponse.TEST
    if traits:
        warnings.append(
            Said(
                "skirmishers_may_hold",
                "{group} are skirmishers but impetuous, ferocious or fanatic: they may instead "
                "hold and take the test",
                group=group.name,
            )
        )
    return ChargeResponse.ESCAPE


@dataclass(frozen=True, slots=True)
class _MoraleTest:
    """The charged group's morale test: 1d6 at most its C (``needs``; None when its figures
    give none), once again after a failure when ``reroll``; the chance it holds and, with
    its die, whether it does."""

    needs: int | None
    reroll: bool
    probability: float | None
    die: int | None
    holds: bool | None
    warnings: tuple[str, ...]


def _morale_test(
    defenders: Sequence[Figure], attackers: Sequence[Figure], defensive: bool, die: int | None
) -> _MoraleTest:
    """The defenders' test: re-rolled after a failure when their C is above the chargers'
    or they hold a defensive position."""
    needs = _combat(defenders)
    theirs = _combat(attackers)
    reroll = defensive or (needs is not None and theirs is not None and needs > theirs)
    if needs is None:
        said = Said("test_needs_combat", "the morale test needs the defenders' C (attrs.combat)")
        return _MoraleTest(None, reroll, None, die, None, (said,))
    fail = Fraction(FACES - min(needs, FACES), FACES)
    probability = float(1 - (fail * fail if reroll else fail))
    holds = None if die is None else die <= needs
    warnings: tuple[str, ...] = ()
    if holds is False and reroll:
        warnings = (Said("reroll_test", "a failed test may be re-rolled once"),)
    return _MoraleTest(needs, reroll, probability, die, holds, warnings)


def _combat(figures: Sequence[Figure]) -> int | None:
    """The C most common among the figures (ties: the lowest), None when none is given."""
    values = Counter(c for c in map(combat_value, figures) if c is not None)
    if not values:
        return None
    top = max(values.values())
    return min(c for c, n in values.items() if n == top)


@dataclass(frozen=True, slots=True)
class _FallBack:
    """Where the figures falling back end (centres, table mm), why they may not, and how
    far the nearest stays from the table edge."""

    destinations: dict[str, tuple[float, float]]
    reasons: tuple[Reason, ...]
    margins: tuple[Margin, ...]


def _fall_back(scene: Scene, figures: Sequence[Figure], step: np.ndarray) -> _FallBack:
    """Every figure moved by ``step`` (2,) mm: off the table, or on impassable ground."""
    blocking = [
        t.geometry
        for t in scene.terrain_of(BLOCKING_TERRAIN)
        if isinstance(t.geometry, shapely.Polygon)
    ]
    destinations: dict[str, tuple[float, float]] = {}
    room = math.inf
    impassable = False
    for figure in figures:
        x, y = figure.xy + step
        destinations[figure.id] = (float(x), float(y))
        spot = base_of(figure).footprint(x, y, figure.facing_deg)
        minx, miny, maxx, maxy = spot.bounds
        room = min(room, minx, miny, scene.table.width_mm - maxx, scene.table.depth_mm - maxy)
        impassable = impassable or any(spot.intersection(g).area > OVERLAP_MM2 for g in blocking)
    reasons: list[Reason] = []
    if room < 0:
        reasons.append(Reason.OFF_TABLE)
    if impassable:
        reasons.append(Reason.IMPASSABLE)
    margin = Margin("table edge", abs(room), max(f.sigma_mm for f in figures))
    return _FallBack(destinations, tuple(reasons), (margin,))


def _length(options: SmoothAndRifledOptions, die: int | None) -> str:
    """How far the figures fall back, in words: 15 cm and the die, or its range."""
    if die is not None:
        return f"{options.mm(NUMBERS.withdrawal_cm + die) / MM_PER_CM:g} cm"
    shortest = options.mm(NUMBERS.withdrawal_cm + 1) / MM_PER_CM
    longest = options.mm(NUMBERS.withdrawal_cm + FACES) / MM_PER_CM
    return f"{shortest:g}-{longest:g} cm"


def _sentence(
    name: str, charger: str, response: ChargeResponse, test: _MoraleTest | None, length: str
) -> str:
    """What the charged side ``name`` does when ``charger`` charges (``test``: its morale
    test, when it takes one)."""
    if test is not None:
        return _test_sentence(name, test, length)
    if response is ChargeResponse.FALLBACK:
        return f"{name} may fall back {length} from {charger} without a test, not shaken"
    if response is ChargeResponse.ESCAPE:
        return f"{name} escape {length} from {charger}: skirmishers, no test, not shaken"
    return f"{name} neither tests nor falls back when {charger} charges"


def _test_sentence(name: str, test: _MoraleTest, length: str) -> str:
    """The morale test of the charged side ``name``, and what follows a failure."""
    if test.holds:
        return f"{name} holds: test {test.die} <= C {test.needs}"
    rule = f"1d6 <= C {test.needs}" if test.needs is not None else "1d6 <= its C"
    again = ", re-roll a failure" if test.reroll else ""
    if test.holds is False:
        return f"{name} tests ({rule}{again}); failed, it falls back {length} shaken"
    return f"{name} tests ({rule}{again}); on a failure it falls back {length} shaken"


# --- diving under charging cavalry (§6.7.2) ------------------------------------------------


def dive_question(scene: Scene, a: str, b: str, die: Die | None = None) -> SRDiveAnswer:
    """A, on foot, charged by the horseman B, tries to dive under him (§6.7.2).

    "Quand un Cavalier charge un Piéton, celui-ci peut tenter de plonger sous l'attaquant.
    L'Action réussit si le Piéton obtient un résultat inférieur à sa valeur C. Dans ce cas
    le Cavalier doit terminer son mouvement (12cm) et le Piéton est déplacé de 3cm à gauche
    ou à droite (au choix du joueur) de sa position de départ." Left and right are square to
    the line from B's centre to A's, as B rides; each place is refused when its base would
    be off the table, on impassable ground or on another figure (B rides on).
    """
    options = options_of(scene)
    _, diver = resolve(scene, a)
    _, rider = resolve(scene, b)
    if not scene.are_enemies(diver.side, rider.side):
        raise QuestionError(f"{b!r} is not an enemy of {a!r}")
    if is_mounted(diver) or diver.type == "artillery":
        raise QuestionError(f"{a!r} is not on foot: only a foot figure dives under a horseman")
    if not is_mounted(rider):
        raise QuestionError(f"{b!r} is not cavalry: a figure dives only under a horseman")
    heading = diver.xy - rider.xy
    length = float(np.hypot(*heading))
    if not length:
        raise QuestionError(f"{a!r} and {b!r} stand at the same place: no line of charge")
    side_mm = options.mm(NUMBERS.dive_cm)
    left = np.array([-heading[1], heading[0]]) / length * side_mm
    places = {"left": diver.xy + left, "right": diver.xy - left}
    refused = {
        name: place_refusals(scene, diver, xy, (diver.id, rider.id), BLOCKING_TERRAIN)
        for name, xy in places.items()
    }
    needs = _combat([diver])
    warnings: list[str] = []
    chance: float | None = None
    if needs is None:
        warnings.append(Said("dive_needs_combat", "the dive needs the figure's C (attrs.combat)"))
    else:
        chance = float(Fraction(max(0, min(needs, FACES + 1) - 1), FACES))
    dived = None if die is None or needs is None else die < needs
    if die is not None and needs is None:
        raise QuestionError(f"{a!r} has no C (attrs.combat): a die cannot be judged")
    free = [name for name, reasons in refused.items() if not reasons]
    on_mm = options.mm(NUMBERS.dive_rider_cm)
    rule = f"1d6 below C {needs}" if needs is not None else "1d6 below its C"
    if dived is False:
        text = f"{diver.id} fails to dive under {rider.id} ({die}, {rule}): the charge goes in"
    else:
        text = (
            f"{diver.id} {'dives' if dived else 'may dive'} under {rider.id} ({rule}): "
            f"{side_mm / MM_PER_CM:g} cm {' or '.join(free) or 'nowhere free'}; {rider.id} "
            f"rides on to finish its move ({on_mm / MM_PER_CM:g} cm)"
        )
    return SRDiveAnswer(
        question="dive",
        message=text + warning_lines(warnings),
        diver=diver.id,
        rider=rider.id,
        test_needs=needs,
        probability=chance,
        die=die,
        dived=dived,
        distance_mm=side_mm,
        distance_units=UNIT.from_mm(side_mm),
        unit=UNIT.name,
        destinations={name: (float(xy[0]), float(xy[1])) for name, xy in places.items()},
        refused={name: [r.value for r in reasons] for name, reasons in refused.items() if reasons},
        rider_goes_on_mm=on_mm,
        warnings=tuple(warnings),
    )
