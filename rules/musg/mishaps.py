"""Mishaps of black-powder weapons: the accident roll and who an explosion catches."""

from __future__ import annotations

from arbitre.rules.answers import Margin, Said, in_units, with_certainty
from arbitre.rules.errors import QuestionError
from arbitre.rules.model import Figure, Scene, sigma_between
from arbitre.rules.musg.answers import ExplosionAnswer
from arbitre.rules.musg.bases import measured_mm, weapon_of
from arbitre.rules.musg.book import NUMBERS, TABLE_MAX
from arbitre.rules.musg.dice import as_whole_number, damage_needed
from arbitre.rules.musg.options import Strength, options_of, unit_of
from arbitre.rules.options import Die, Flag
from arbitre.rules.ruleset import figure_named

KEPT_MARGINS = 3


def _resistance(figure: Figure) -> int | None:
    """``attrs.resistance`` plus ``attrs.armour`` (the damage table's row), when given."""
    if "resistance" not in figure.attrs:
        return None
    total = as_whole_number(figure.attrs["resistance"], f"{figure.id}: attrs.resistance")
    total += as_whole_number(figure.attrs.get("armour", 0), f"{figure.id}: attrs.armour")
    return min(max(total, 1), TABLE_MAX)


def explosion_answer(
    scene: Scene,
    a: str,
    die: Die | None = None,
    artillery: Flag | None = None,
    strength: Strength | None = None,
) -> ExplosionAnswer:
    """Who an exploding black-powder weapon of A hits, and with what strength.

    "Dans le cas de l'utilisation d'armes à feu à poudre noire [...] un 1 sur le jet donne
    lieu à un accident de tir. On jette 1d6. Sur un 1, l'arme explose, elle touche
    automatiquement son porteur ou les figurines à proximité (3 pas dans le cas des pièces
    d'artillerie) avec la force de l'arme." (Tirer). ``die`` is the accident die (1:
    the weapon explodes); ``artillery`` and ``strength`` stand for the weapon's profile.
    A figure without ``attrs.weapon`` is refused: it has nothing to explode.
    """
    options = options_of(scene)
    unit = unit_of(scene)
    bearer = figure_named(scene, a)
    weapon = weapon_of(bearer)
    if weapon is None:
        raise QuestionError(f"{a!r} carries no weapon (attrs.weapon): nothing can explode")
    warnings: list[str] = []
    if not weapon.black_powder:
        warnings.append(
            Said(
                "not_black_powder",
                "{figure}'s {weapon} is not marked black_powder: only black-powder firearms "
                "have shooting accidents",
                figure=a,
                weapon=weapon.kind,
            )
        )
    piece = weapon.artillery if artillery is None else artillery
    force = weapon.strength if strength is None else strength
    explodes = None if die is None else die == NUMBERS.explosion_face
    radius_units = NUMBERS.artillery_blast_pas if piece else 0.0
    radius_mm = unit.to_mm(radius_units)
    distances: dict[str, float] = {a: 0.0}
    caught = [a]
    margins: list[Margin] = []
    if piece:
        near = []
        for other in scene.figures:
            if other.id == bearer.id:
                continue
            d = measured_mm(bearer, other, options)
            sigma = sigma_between(bearer, other)
            margins.append(Margin(f"blast {other.id}", abs(radius_mm - d), sigma))
            if d <= radius_mm:
                near.append((d, other.id))
        for d, ident in sorted(near):
            caught.append(ident)
            distances[ident] = unit.from_mm(d)
    needed: dict[str, int] = {}
    if force is not None:
        for ident in caught:
            row = _resistance(figure_named(scene, ident))
            if row is not None:
                needed[ident] = damage_needed(force, row)
    kept = tuple(sorted(margins, key=lambda m: m.margin_mm)[:KEPT_MARGINS])
    who = (
        f"the piece hits {', '.join(caught)} (every figure within "
        f"{in_units(NUMBERS.artillery_blast_pas, 'pas', 'g')})"
        if piece
        else f"it hits its bearer {a}"
    )
    hit = f"{who}" + (f" with strength {force}" if force is not None else "")
    if explodes is None:
        text = f"on a 1 on the accident die {a}'s weapon explodes: {hit}"
    elif explodes:
        text = f"{a}'s weapon explodes: {hit}"
    else:
        text = f"accident die {die}: {a}'s weapon does not explode"
    return ExplosionAnswer(
        question="explosion",
        message=with_certainty(text, *kept),
        margins=kept,
        figure=a,
        weapon=weapon.kind,
        artillery=piece,
        die=die,
        explodes=explodes,
        radius_mm=radius_mm,
        radius_units=radius_units,
        unit=unit.name,
        caught=tuple(caught) if explodes is not False else (),
        distances_units=distances if explodes is not False else {},
        strength=force,
        damage_needed=needed if explodes is not False else {},
        warnings=tuple(warnings),
    )
