"""Shooting accidents of archaic weapons (a 1 on the shot): who an exploding black-powder
weapon catches, and who a bow's or crossbow's stray missile takes on the line."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

import numpy as np
import shapely

from arbitre.rules.answers import Margin, Said, in_units, with_certainty
from arbitre.rules.errors import QuestionError
from arbitre.rules.model import Figure, Scene, sigma_between
from arbitre.rules.musg.answers import ExplosionAnswer, StrayAnswer
from arbitre.rules.musg.bases import measured_mm, scene_footprints, weapon_of
from arbitre.rules.musg.book import BOW_KINDS, NUMBERS, TABLE_MAX, Weapon
from arbitre.rules.musg.dice import as_whole_number, damage_needed
from arbitre.rules.musg.options import Strength, options_of, unit_of
from arbitre.rules.musg.sight import figures_on_line
from arbitre.rules.options import Dice, Die, Flag
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
    A figure without ``attrs.weapon`` is refused: it has nothing to explode; so is a bow
    or a crossbow, whose accident is a stray missile ("Dans le cas d'armes de jet ou de
    tir sans poudre (arc, arbalète), on trace une ligne du tireur à la cible": `stray`).
    """
    options = options_of(scene)
    unit = unit_of(scene)
    bearer = figure_named(scene, a)
    weapon = weapon_of(bearer)
    if weapon is None:
        raise QuestionError(f"{a!r} carries no weapon (attrs.weapon): nothing can explode")
    if weapon.kind in BOW_KINDS:
        raise QuestionError(
            f"the {missile_weapon(weapon.kind)} of {a!r} does not explode (only black-powder"
            " weapons do): its accident is a stray missile taking a figure on the line (ask"
            f" stray {a} TARGET)"
        )
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


def stray_answer(
    scene: Scene,
    a: str,
    b: str,
    dice: Dice | None = None,
    strength: Strength | None = None,
) -> StrayAnswer:
    """Who takes A's missile when A rolls a 1 shooting at B with a bow, a crossbow or a
    thrown weapon.

    "Dans le cas d'armes de jet ou de tir sans poudre (arc, arbalète), on trace une ligne
    du tireur à la cible. Ensuite, on regarde quelles figurines se trouvent avant la cible
    et on lance 1d6 à chacune. La première qui fait 6 se prend le projectile à la place de
    la cible et on effectue les dégâts comme un tir normal." (Tirer). ``dice`` are the
    figures' 1D6, nearest first; ``strength`` stands for the weapon's. With no 6 among
    all of them the missile takes no one (the 1 missed the target).
    """
    options = options_of(scene)
    shooter, target = figure_named(scene, a), figure_named(scene, b)
    if shooter.id == target.id:
        raise QuestionError(f"{a!r} and {b!r} are the same figure")
    weapon = _bow_of(shooter)
    on_line = figures_on_line(scene, shooter, target, options)
    rolls = list(dice or ())
    if len(rolls) > len(on_line):
        raise QuestionError(
            f"dice: at most one die for each figure on the line from {a} to {b}"
            f" ({', '.join(on_line) or 'none'}), got {len(rolls)}"
        )
    face = NUMBERS.bow_interception_face
    hit = next((ident for ident, roll in zip(on_line, rolls, strict=False) if roll == face), None)
    lost: bool | None = None  # whether it takes no one; None until the dice say
    if hit is not None:
        lost = False
    elif len(rolls) == len(on_line):
        lost = True
    force = weapon.strength if strength is None else strength
    needed: dict[str, int] = {}
    if force is not None and not lost:
        for ident in on_line if hit is None else (hit,):
            row = _resistance(figure_named(scene, ident))
            if row is not None:
                needed[ident] = damage_needed(force, row)
    kept = tuple(sorted(_line_margins(scene, shooter, target, on_line), key=_narrow))
    kept = kept[:KEPT_MARGINS]
    text = _stray_text(a, b, weapon.kind, on_line, rolls, hit, lost, force, needed)
    return StrayAnswer(
        question="stray",
        message=with_certainty(text, *kept),
        margins=kept,
        figure=a,
        target=b,
        weapon=weapon.kind,
        interposed=on_line,
        dice=tuple(rolls),
        hit=hit,
        lost=lost,
        strength=force,
        damage_needed=needed,
    )


def _bow_of(shooter: Figure) -> Weapon:
    """A shooter's bow, crossbow or thrown weapon; any other weapon is refused, naming its
    own mishap."""
    weapon = weapon_of(shooter)
    if weapon is None:
        raise QuestionError(f"{shooter.id!r} carries no weapon (attrs.weapon)")
    if weapon.kind not in BOW_KINDS:
        accident = (
            f"its accident is an explosion (ask explosion {shooter.id})"
            if weapon.black_powder
            else "only archaic weapons have shooting accidents"
        )
        raise QuestionError(
            f"the {weapon.kind} of {shooter.id!r} is no bow, crossbow or thrown weapon"
            f" (weapon.kind): {accident}"
        )
    return weapon


def _narrow(margin: Margin) -> float:
    return margin.margin_mm


def _line_margins(
    scene: Scene, shooter: Figure, target: Figure, on_line: Sequence[str]
) -> Iterable[Margin]:
    """For each base near the line shooter -> target, how far the line may shift sideways
    before it changes whether it crosses that base: its depth into a base it crosses,
    its distance from one it misses."""
    options = options_of(scene)
    line = shapely.LineString([shooter.xy, target.xy])
    if line.length == 0.0:
        return
    ahead = (target.xy - shooter.xy) / line.length
    normal = np.array([-ahead[1], ahead[0]])
    shapes = scene_footprints(scene, options)
    near = shapes.near(line.bounds)
    for figure, shape, close in zip(shapes.figures, shapes.polygons, near, strict=True):
        if not close or figure.id in (shooter.id, target.id):
            continue
        if figure.id in on_line:
            offsets = (shapely.get_coordinates(shape) - shooter.xy) @ normal
            margin_mm = float(min(offsets.max(), -offsets.min()))
        else:
            margin_mm = float(shapely.distance(line, shape))
        sigma = max(
            sigma_between(shooter, figure, along=normal),
            sigma_between(target, figure, along=normal),
        )
        yield Margin(f"line {figure.id}", margin_mm, sigma)


def missile_weapon(kind: str) -> str:
    """A bow kind as a sentence names it: "thrown" is a thrown weapon.

    >>> missile_weapon("thrown"), missile_weapon("bow")
    ('thrown weapon', 'bow')
    """
    return "thrown weapon" if kind == "thrown" else kind


def _stray_text(
    a: str,
    b: str,
    kind: str,
    on_line: Sequence[str],
    rolls: Sequence[int],
    hit: str | None,
    lost: bool | None,
    force: int | None,
    needed: dict[str, int],
) -> str:
    face = NUMBERS.bow_interception_face
    kind = missile_weapon(kind)
    if not on_line:
        return f"on a 1 with its {kind}, {a}'s missile at {b} takes no one: no figure on the line"
    head = f"on a 1 with its {kind}, {a}'s missile at {b}"
    if not rolls:
        text = (
            f"{head}: {', '.join(on_line)} each roll 1D6 in turn, nearest first;"
            f" the first {face} takes the missile"
        )
    else:
        said = ", ".join(f"{i} {r}" for i, r in zip(on_line, rolls, strict=False))
        if hit is not None:
            text = f"{head}: {said}: {hit} takes the missile"
        elif lost:
            text = f"{head}: {said}: no {face}, it takes no one"
        else:
            text = f"{head}: {said}: still to roll {', '.join(on_line[len(rolls) :])}"
    if force is not None and needed:
        text += f" (strength {force}: " + ", ".join(f"{i} {n}+" for i, n in needed.items()) + ")"
    return text
