"""Smooth & Rifled: opportunity fire (§6.2.6), a shot of the inactive side at a moving enemy.

"Le joueur inactif doit avoir gardé en réserve le nombre de PA nécessaire et réussir un
test en faisant plus, avec 1d6, que le dernier nombre de sa VA ... En cas de réussite, il
peut utiliser une Action pour tirer ; en cas d'échec, les PA sont quand même dépensés. Le
tireur ne peut Viser, sauf si l'ordre de Viser lui avait été donné lors de sa phase
d'Activation précédente ... Si le tireur avait eu l'ordre de Viser et a raté son test de
tir d'Opportunité, il peut relancer son d6." "Si le tir d'Opportunité cible une troupe qui
charge le tireur, la distance de tir est toujours la portée Moyenne et les 5 et 6 ne sont
pas relancés." A running target (§6.2.3) is shot as one in cover.
"""

from __future__ import annotations

from dataclasses import dataclass

from arbitre.rules.answers import Reason, Said, warning_lines, with_certainty
from arbitre.rules.errors import QuestionError
from arbitre.rules.model import Scene
from arbitre.rules.options import Die, Flag
from arbitre.rules.smooth_and_rifled.answers import SROpportunityAnswer
from arbitre.rules.smooth_and_rifled.book import UNIT, va_first, va_last
from arbitre.rules.smooth_and_rifled.dice import (
    TO_HIT,
    above_chance,
    at_least,
    shooting_dice,
    shooting_rerolls,
    volley_dice,
)
from arbitre.rules.smooth_and_rifled.fire import fire_question
from arbitre.rules.smooth_and_rifled.groups import resolve
from arbitre.rules.smooth_and_rifled.options import VaLast
from arbitre.rules.smooth_and_rifled.reasons import reason_words

CHARGED_BAND = "medium"
"""The band of an opportunity shot at troops charging the shooter, whatever the distance."""


def opportunity_question(
    scene: Scene,
    a: str,
    b: str,
    va: VaLast | None = None,
    aimed: Flag = False,
    charging: Flag = False,
    running: Flag = False,
    die: Die | None = None,
    reroll: Die | None = None,
) -> SROpportunityAnswer:
    """May A (a figure or a group) fire at B in opportunity, and with what chance (§6.2.6).

    ``va``: the last number of A's VA (else ``attrs.va``); ``aimed``: A kept an order to aim
    from its last activation and has done nothing since (it aims, and re-rolls a failed
    test); ``charging``: B charges A (medium range whatever the distance, no re-roll of 5s
    and 6s); ``running``: B declared three moves (its 5s and 6s re-rolled, as for cover);
    ``die``, ``reroll``: the test's dice.
    """
    group, lead = resolve(scene, a)
    verdict = fire_question(scene, a, b, aimed=aimed)
    shooters = list(verdict.shooters)
    reasons = list(verdict.reasons)
    margins = verdict.margins
    if charging:
        # The range is no matter against a charge: shooters refused for it alone may fire.
        shooters += [s for s, why in verdict.refused.items() if why == [Reason.OUT_OF_RANGE]]
        if shooters:
            reasons = [r for r in reasons if r in (Reason.TARGET_NOT_ENEMY, Reason.NO_SHOOTERS)]
        margins = tuple(m for m in margins if not m.what.startswith(("band", "range")))
    allowed = bool(shooters) and not reasons
    band = CHARGED_BAND if charging and allowed else verdict.band if allowed else None
    to_hit = TO_HIT[band] if band is not None else None
    sniper = group is None and bool(lead.attrs.get("sniper", False))
    if group is not None:
        # §6.2.5: « Si toutes les figurines du Groupe n'ont pas la même portée, diviser le Tir
        # Groupé en 2 salves »: the volley at the band answered is its own shooters'; against
        # a charge every shooter is at medium range, one volley.
        volley = len(shooters) if charging else len(verdict.volleys.get(band or "", ()))
        dice = volley_dice(volley, aimed=aimed) if volley else 0
    else:
        dice = shooting_dice(aimed=aimed, sniper=sniper, moved=False)
    sheltered = (verdict.cover_grade != "none" or running) and not charging
    faces = shooting_rerolls(cover=sheltered, aimed=aimed, sniper=sniper)
    hit = float(at_least(dice, to_hit, faces)) if to_hit is not None and dice else None
    last = va if va is not None else va_last(lead)
    test = _test(last, aimed, die, reroll)
    cost = va_first(lead)
    warnings = list(verdict.warnings)
    if charging:  # against a charge every shooter is at medium range: one volley
        warnings = [w for w in warnings if not w.startswith("shooters at different bands")]
    if cost is None:
        warnings.append(
            Said(
                "opportunity_cost",
                "an opportunity shot costs the PA of {shooter}'s first action (attrs.va)",
                shooter=lead.id,
            )
        )
    if last is None:
        warnings.append(
            Said("opportunity_va", "give va (the last number of the shooter's VA) for the test")
        )
    overall = hit * test.probability if hit is not None and test.probability is not None else None
    name = group.name if group is not None else lead.id
    text = _sentence(name, verdict.target, allowed, reasons, band, to_hit, dice, test, cost)
    return SROpportunityAnswer(
        question="opportunity",
        message=with_certainty(text, *margins) + warning_lines(warnings),
        margins=tuple(margins),
        shooter=name,
        target=verdict.target,
        allowed=allowed,
        reasons=tuple(reasons),
        distance_mm=verdict.distance_mm,
        distance_units=UNIT.from_mm(verdict.distance_mm),
        unit=UNIT.name,
        band=band,
        to_hit_2d6=to_hit,
        dice=dice if allowed else 0,
        rerolled_faces=tuple(sorted(faces)),
        hit_probability=hit if allowed else None,
        shooters=tuple(shooters) if allowed else (),
        test_above=last,
        test_reroll=aimed,
        test_probability=test.probability,
        action_points=cost,
        probability=overall if allowed else None,
        die=die,
        reroll=reroll,
        may_fire=None if test.passed is None else test.passed and allowed,
        warnings=tuple(warnings),
    )


@dataclass(frozen=True, slots=True)
class _Test:
    """The opportunity test: 1d6 above the last number of the VA, a failure re-rolled when
    the shooter kept an order to aim; its chance and, with the dice, whether it passed."""

    probability: float | None
    passed: bool | None


def _test(last: int | None, aimed: bool, die: int | None, reroll: int | None) -> _Test:
    if reroll is not None and not aimed:
        raise QuestionError("only a shooter that kept an order to aim re-rolls the test")
    if last is None:
        if die is not None:
            raise QuestionError("the test needs the last number of the shooter's VA: va=N")
        return _Test(None, None)
    chance = float(above_chance(last, again=aimed))
    if die is None:
        return _Test(chance, None)
    return _Test(chance, die > last or (reroll is not None and reroll > last))


def _sentence(
    name: str,
    target: str,
    allowed: bool,
    reasons: list[Reason],
    band: str | None,
    to_hit: int | None,
    dice: int,
    test: _Test,
    cost: int | None,
) -> str:
    """The answer in words: whether the shot may be made, its test, and its dice."""
    if not allowed:
        return f"{name} may not fire at {target} in opportunity: " + reason_words(reasons)
    paid = f"{cost} PA" if cost is not None else "the PA of a first action"
    if test.passed is False:
        return f"{name} fails the opportunity test: {paid} spent, no shot"
    shot = f"{band} range, {to_hit}+ on {dice}d6"
    if test.passed:
        return f"{name} fires at {target} in opportunity ({paid}): {shot}"
    return f"{name} may fire at {target} in opportunity ({paid}, if the test passes): {shot}"
