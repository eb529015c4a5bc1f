"""Smooth & Rifled dice questions: damage roll, volley, moral value, melee dice.

The arithmetic is in `arbitre.rules.smooth_and_rifled.dice`; these handlers read the
table for what it depends on (cover, who fires, who is a Leader, combat values).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

from arbitre.rules.answers import Margin, Said, warning_lines, with_certainty
from arbitre.rules.errors import QuestionError, UnknownName
from arbitre.rules.model import Figure, Scene, sigma_between
from arbitre.rules.options import Count, Dice, Die, Flag
from arbitre.rules.smooth_and_rifled.answers import (
    SRDamageAnswer,
    SRMeleeAnswer,
    SRMoraleAnswer,
    SRVolleyAnswer,
    probability,
)
from arbitre.rules.smooth_and_rifled.bases import figure_gap_mm, footprints, gaps_of, index_of
from arbitre.rules.smooth_and_rifled.book import NUMBERS
from arbitre.rules.smooth_and_rifled.dice import (
    FACES,
    MELEE,
    TO_HIT,
    break_point,
    contest,
    count_hits,
    damage,
    damage_distribution,
    damage_modifier,
    has_triple,
    hits_pmf,
    melee_rerolls,
    morale_value,
    shooting_rerolls,
    triple_chance,
    volley_dice,
    volley_distribution,
    volley_hits,
)
from arbitre.rules.smooth_and_rifled.fire import fire_question, gun_target_warning
from arbitre.rules.smooth_and_rifled.geometry import cover, in_arc, line_of_fire, sight
from arbitre.rules.smooth_and_rifled.groups import (
    Group,
    find_groups,
    is_leader,
    is_marker,
    is_mounted,
    resolve,
)
from arbitre.rules.smooth_and_rifled.options import SmoothAndRifledOptions, options_of
from arbitre.rules.smooth_and_rifled.reasons import reason_words


def damage_question(
    scene: Scene,
    a: str,
    b: str,
    die: Die | None = None,
    aimed: Flag = False,
    mount_die: Die | None = None,
) -> SRDamageAnswer:
    """Damage roll of a hit of A on B (§6.2.7): 1-3 shaken, 4-6 out, less for cover.

    A mounted B: « jeter 1d6 pour voir si vous avez touché la monture ou le cavalier. 1-3, la
    monture ; 4-6, le cavalier. Jeter ensuite le d6 pour les dégâts. Si la monture est
    touchée, le cavalier démonte et est Secoué ; le cheval est perdu »: the damage roll
    counts for the rider only; ``mount_die`` (the first d6) names the part hit.
    """
    options = options_of(scene)
    shooters, shooter = resolve(scene, a)
    _, target = resolve(scene, b)
    if not scene.are_enemies(shooter.side, target.side):
        raise QuestionError(f"{b!r} is not an enemy of {a!r}")
    # §8.0: a sniper « n'a pas besoin de dépenser une Action pour Viser »: his own shots are
    # aimed, not his group's volley
    is_aimed = aimed or (shooters is None and bool(shooter.attrs.get("sniper", False)))
    shelter = cover(scene, options, shooter, target)
    weight = shelter.weight if shelter.grade != "none" else None
    modifier = damage_modifier(weight, aimed=is_aimed)
    warnings = gun_target_warning(shooter, target)
    mounted = is_mounted(target)
    if mounted:
        warnings.append(
            Said("mounted_target", "a mounted target: roll 1d6 first, 1-3 the horse, 4-6 the rider")
        )
    elif mount_die is not None:
        raise QuestionError(f"{b!r} is not mounted: no mount_die")
    part = None if mount_die is None else "horse" if mount_die <= HORSE_UP_TO else "rider"
    # « Vétérans : peuvent relancer les jets de Dégâts de Tir ratés », and guards (§8.0)
    reroll = is_veteran(target)
    rolled: int | None = None
    outcome: str | None = None
    if die is not None:
        rolled = die
        if not 1 <= rolled <= FACES:
            raise QuestionError(f"a die shows 1 to {FACES}, got {die!r}")
        outcome = damage(rolled, modifier)
    if part == "horse":
        outcome = "dismounted"  # the rider dismounts, shaken; the horse is lost
    if reroll and outcome in (None, "out"):
        warnings.append(
            Said(
                "damage_reroll",
                "{figure} is a veteran or a guard: a damage roll that puts it out is rolled "
                "again (in the chances)",
                figure=target.id,
            )
        )
    chances = damage_distribution(modifier, reroll=reroll)
    spread = {k: probability(v) for k, v in chances.items()}
    horse = Fraction(HORSE_UP_TO, FACES)
    on_horse = (
        {"dismounted": probability(horse)}
        | {k: probability((1 - horse) * v) for k, v in chances.items()}
        if mounted
        else None
    )
    text = f"damage of {shooter.id} on {target.id}: modifier {modifier:+d}" + (
        ", the horse is hit: the rider dismounts, shaken"
        if part == "horse"
        else f", die {rolled} -> {outcome}"
        if rolled is not None
        else f"; shaken {spread['shaken']:.0%}, out {spread['out']:.0%}"
    )
    return SRDamageAnswer(
        question="damage",
        message=text + warning_lines(warnings),
        shooter=shooter.id,
        target=target.id,
        modifier=modifier,
        cover_weight=weight,
        reroll=reroll,
        die=rolled,
        outcome=outcome,
        distribution=spread,
        mount_die=mount_die,
        part=part,
        mounted_distribution=on_horse,
        warnings=tuple(warnings),
    )


HORSE_UP_TO = 3
"""The mount's die (§6.2.7): 1-3 the horse is hit, 4-6 the rider."""


def volley_question(
    scene: Scene,
    a: str,
    b: str,
    hits: Count | None = None,
    aimed: Flag = False,
    moved: Flag = False,
    rolls: Dice | None = None,
) -> SRVolleyAnswer:
    """Volley of group A at figure B (§6.2.5): dice, hits by multiples, who takes them.

    Extra hits on a loose-order group or single figures go to the figure nearest the
    previous one hit, within 8 cm of it, seen by one of the volley's shooters, in the
    group's arc and not in total cover; on a close-order group the target's owner
    chooses among its figures not in total cover, even out of the arc or of range,
    « Exception : s'il obtient un triple 5 ou 6, le tireur peut choisir de viser le leader
    du Groupe, sans sauvegarde possible ».
    ``rolls``: the volley's dice as they lie (after the cover's re-rolls), which give the
    hits and whether they show that triple.
    """
    options = options_of(scene)
    group, _ = resolve(scene, a)
    if group is None:
        raise QuestionError(f"{a!r} is not a group: a volley is fired by a group")
    verdict = fire_question(scene, a, b, aimed=aimed, moved=moved)
    target = scene.figure(verdict.target)
    assert target is not None
    warnings = list(verdict.warnings)
    if not verdict.allowed or not verdict.volleys:
        codes = reason_words(verdict.reasons)
        return SRVolleyAnswer(
            question="volley",
            message=f"{group.name} may not fire a volley at {target.id}: {codes}",
            group=group.name,
            target=target.id,
            warnings=tuple(warnings),
        )
    band, shooters = max(verdict.volleys.items(), key=lambda item: len(item[1]))
    threshold = TO_HIT[band]
    in_cover = verdict.cover_grade != "none"
    reroll = shooting_rerolls(cover=in_cover, aimed=aimed, sniper=False)
    dice = volley_dice(len(shooters), aimed=aimed, moved=moved)
    spread = volley_distribution(dice, threshold, reroll)
    team = [f for f in group.figures if f.id in shooters]
    prey = _prey(scene, target)
    order: list[str] | None
    target_group = find_groups(scene).of_figure(target.id)
    if target_group.formed and not target_group.loose:
        # « toutes les figurines du groupe cible peuvent être touchées par des multiples,
        # exceptées celles en couvert total. Même si elles sont en-dehors de l'arc de tir ou
        # hors de portée »: total cover alone keeps a figure of a close-order group out.
        order = None
        names = [target.id] + [
            f.id for f in prey if f.id != target.id and _not_in_total_cover(scene, team, f)
        ]
    else:
        eligible = [f for f in prey if _reachable(scene, team, f, [g.id for g in group.figures])]
        # volley_chain: stop (the worked example's « Le prochain devrait être G ... il ne peut
        # être touché. La quatrième touche est perdue »): the chain runs through the figures
        # not in total cover, and ends at one no shooter may hit
        candidates = (
            [f for f in prey if _not_in_total_cover(scene, team, f)]
            if options.volley_chain == "stop"
            else eligible
        )
        order = _chain(
            scene,
            target,
            candidates,
            options.mm(NUMBERS.volley_spread_cm),
            {f.id for f in eligible},
        )
        names = list(order)
    exposed = _leader_exposed(options, target_group, names, dice, reroll, rolls)
    if rolls is not None:
        if len(rolls) != dice:
            raise QuestionError(
                f"roll {dice} dice for the volley of {group.name}, got {len(rolls)}"
            )
        from_dice = volley_hits(sum(rolls), threshold)
        if hits is not None and hits != from_dice:
            raise QuestionError(
                f"hits {hits} contradicts the dice given: {sum(rolls)} makes {from_dice} "
                f"at {threshold} a hit"
            )
        hits = from_dice
    if exposed.exposed:
        warnings.append(
            Said(
                "leader_exposed",
                "a triple 5 or 6: the shooter may give one hit to {leader}, the Leader, "
                "without a save",
                leader=exposed.leader,
            )
        )
    counted: int | None = None
    hit: list[str] = []
    lost = 0
    if hits is not None:
        counted = hits
        if counted < 0:
            raise QuestionError(f"hits must be 0 or more, got {hits!r}")
        if order is not None:
            hit = order[:counted]
            lost = max(0, counted - len(order))
        else:
            lost = max(0, counted - len(names))
    text = (
        f"volley of {group.name} ({len(shooters)} shooters, {band} range): "
        f"{dice}d6, a hit per {threshold}"
    )
    if order is not None:
        text += f"; hits go to {', '.join(order)}"
    if counted is not None and order is not None:
        text += f"; {counted} hits: {', '.join(hit) or 'none'}" + (f", {lost} lost" if lost else "")
    return SRVolleyAnswer(
        question="volley",
        message=text,
        group=group.name,
        target=target.id,
        shooters=tuple(shooters),
        band=band,
        to_hit_2d6=threshold,
        dice=dice,
        hits_distribution={k: probability(v) for k, v in spread.items()},
        order=None if order is None else tuple(order),
        eligible=tuple(names),
        hits=counted,
        hit=tuple(hit),
        lost=lost,
        rolls=None if rolls is None else tuple(rolls),
        leader=exposed.leader,
        leader_exposed_probability=exposed.probability,
        leader_exposed=exposed.exposed,
        warnings=tuple(warnings),
    )


@dataclass(frozen=True, slots=True)
class _Exposed:
    """Whether a volley may pick a close-order group's Leader (§6.2.5): the Leader, the
    chance of the triple and, with the dice, whether they show it."""

    leader: str | None = None
    probability: float | None = None
    exposed: bool | None = None


def _leader_exposed(
    options: SmoothAndRifledOptions,
    target_group: Group,
    eligible: Sequence[str],
    dice: int,
    reroll: frozenset[int],
    rolls: Sequence[int] | None,
) -> _Exposed:
    """The triple 5 or 6 that lets the shooter hit a close-order group's Leader with no save:
    only against a close-order group whose Leader may be hit (not in total cover)."""
    leader = target_group.leader
    if not target_group.formed or target_group.loose or leader is None:
        return _Exposed()
    if leader.id not in eligible:
        return _Exposed(leader.id, 0.0, False if rolls is not None else None)
    same = options.leader_triple == "same_face"
    chance = float(triple_chance(dice, reroll, same_face=same))
    shown = None if rolls is None else has_triple(rolls, same_face=same)
    return _Exposed(leader.id, chance, shown)


def _prey(scene: Scene, target: Figure) -> list[Figure]:
    """Figures that may take a volley's extra hits: the target's group, else its unit; never
    a gun (small arms shoot its gunners: « Tir contre l'artillerie ») nor a marker."""
    group = find_groups(scene).of_figure(target.id)
    kin = (
        list(group.figures)
        if group.formed
        else [
            f
            for f in scene.figures
            if f.side == target.side
            and (f.id == target.id or (f.unit is not None and f.unit == target.unit))
        ]
    )
    return [f for f in kin if f.id == target.id or not (is_marker(f) or f.type == "artillery")]


def _reachable(scene: Scene, team: Sequence[Figure], figure: Figure, friends: list[str]) -> bool:
    """Some shooter of the volley has the figure in the group arc, a clear line and sight."""
    options = options_of(scene)
    prints = footprints(scene)
    for shooter in team:
        if not in_arc(shooter, prints[index_of(scene, figure.id)], NUMBERS.group_arc_deg)[0]:
            continue
        if line_of_fire(scene, options, shooter, figure, friends).blocked_by:
            continue
        if not sight(scene, options, shooter, figure).visible:
            continue
        if cover(scene, options, shooter, figure).grade == "total":
            continue
        return True
    return False


def _not_in_total_cover(scene: Scene, team: Sequence[Figure], figure: Figure) -> bool:
    """Some shooter of the volley sees the figure out of total cover (§6.2.4)."""
    options = options_of(scene)
    return any(cover(scene, options, shooter, figure).grade != "total" for shooter in team)


def _chain(
    scene: Scene,
    target: Figure,
    eligible: list[Figure],
    spread_mm: float,
    hittable: set[str] | None = None,
) -> list[str]:
    """The target, then each time the eligible figure nearest the previous one (<= spread);
    the chain ends at a figure not ``hittable`` (the hit is lost)."""
    gaps = gaps_of(scene)
    order = [target.id]
    last = index_of(scene, target.id)
    left = [index_of(scene, f.id) for f in eligible if f.id != target.id]
    while left:
        from_last = gaps.block([last], left)[0]
        k = int(from_last.argmin())
        nearest = left[k]
        if from_last[k] > spread_mm:
            break
        if hittable is not None and scene.figures[nearest].id not in hittable:
            break
        order.append(scene.figures[nearest].id)
        left.remove(nearest)
        last = nearest
    return order


def morale_question(scene: Scene, side: str) -> SRMoraleAnswer:
    """Moral value (VM) of a side from the figures on the table, and its break point (§7.0).

    « 4 par Héros ou Officier Supérieur, 3 pour chaque Officier ou NCO, 2 pour chaque
    Porte-étendard, 1 par soldat »: men only; guns, ammunition boxes and ambush markers are
    not counted (the figures a marker hides are the players' to add)."""
    every = [f for f in scene.figures if f.side == side]
    if not every:
        raise QuestionError(f"no figure of side {side!r} on the table")
    figures = [f for f in every if not is_marker(f) and f.type != "artillery"]
    hidden = [f.id for f in every if f.attrs.get("ambush", False)]
    warnings = (
        [
            Said(
                "ambush_not_counted",
                "ambush markers ({markers}) are not counted: add the VM of the figures they hide",
                markers=", ".join(hidden),
            )
        ]
        if hidden
        else []
    )
    counted = {"hero": 0, "senior_officer": 0, "leader": 0, "standard": 0, "soldier": 0}
    for figure in figures:
        if figure.attrs.get("hero", False):
            counted["hero"] += 1
        elif figure.attrs.get("senior_officer", False):
            counted["senior_officer"] += 1
        elif is_leader(figure):
            counted["leader"] += 1
        elif figure.attrs.get("standard", False):
            counted["standard"] += 1
        else:
            counted["soldier"] += 1
    vm = morale_value(
        counted["hero"],
        counted["senior_officer"],
        counted["leader"],
        counted["standard"],
        counted["soldier"],
    )
    point = break_point(vm)
    return SRMoraleAnswer(
        question="morale",
        message=f"{side}: VM {vm}, a morale test after losing {point} VM" + warning_lines(warnings),
        side=side,
        vm=vm,
        break_point=point,
        counted=counted,
        warnings=tuple(warnings),
    )


HERO_COMBAT = 6
"""§8.0: « Un Héros a les caractéristiques suivantes : VA=1-1-1 et C=6 »."""


def combat_value(figure: Figure) -> int | None:
    """A figure's C: ``attrs.combat``, else 6 for a hero (§8.0), else None."""
    value = figure.attrs.get("combat")
    if isinstance(value, int) and not isinstance(value, bool):
        return value
    return HERO_COMBAT if figure.attrs.get("hero", False) else None


def _combat(figure: Figure) -> int:
    value = combat_value(figure)
    if value is None:
        raise QuestionError(f"figure {figure.id!r} needs attrs.combat (its C value)")
    return value


def _side_dice(
    fighters: list[Figure],
    enemies: list[Figure],
    *,
    charging: bool,
    across: bool,
    pikes: bool = False,
    mounted_keep_impetus: bool = False,
) -> int:
    """Dice of one side of a melee: 3, modifiers of its first figure, +1 for a second figure,
    one less for mounted chargers meeting pikes; ``mounted_keep_impetus``: impetuous cavalry
    keeps its die against horse (option ``impetuous_vs_mounted: mounted_only``)."""
    lead = fighters[0]
    dice = MELEE.base + (MELEE.pikes if pikes else 0)
    enemy_mounted = any(is_mounted(e) for e in enemies)
    impetus = not enemy_mounted or (mounted_keep_impetus and is_mounted(lead))
    if lead.attrs.get("impetuous", False) and charging and impetus:
        dice += MELEE.impetuous
    if is_mounted(lead):
        dice += MELEE.mounted + (MELEE.mounted_charging if charging else 0)
    if lead.attrs.get("shaken", False):
        dice += MELEE.shaken
    if charging and across and not is_mounted(lead):
        dice += MELEE.foot_charging_across_obstacle
    return max(1, dice + MELEE.second_attacker * (len(fighters) - 1))


def is_veteran(figure: Figure) -> bool:
    """Veterans win a tied melee, and so do guards (§8.0: « Gardes : [...] Elles bénéficient
    également des mêmes avantages que les troupes classées Vétérans »)."""
    return bool(figure.attrs.get("veteran", False) or figure.attrs.get("guard", False))


def _veterans_win_ties(
    odds: dict[str, Fraction], attackers: list[Figure], defenders: list[Figure]
) -> dict[str, Fraction]:
    """The odds once a tie goes to the veterans (§8.0: « Un Vétéran gagne une Mêlée en cas
    d'égalité »): when every figure of one side is a veteran (or a guard) and none of the
    other is, that side's ties are wins."""
    if all(map(is_veteran, attackers)) and not any(map(is_veteran, defenders)):
        return {"win": odds["win"] + odds["tie"], "tie": Fraction(0), "lose": odds["lose"]}
    if all(map(is_veteran, defenders)) and not any(map(is_veteran, attackers)):
        return {"win": odds["win"], "tie": Fraction(0), "lose": odds["lose"] + odds["tie"]}
    return odds


def _weapon_rerolls(fighters: list[Figure]) -> int:
    """Missed dice a melee side rolls again: one for each of its figures with a melee weapon
    or a standard (§6.7.1: « Les figurines avec une arme de mêlée du type sabres, épées,
    baïonnettes et les Porte-étendard peuvent relancer un dé »)."""
    return sum(
        1 for f in fighters if f.attrs.get("melee_weapon", False) or f.attrs.get("standard", False)
    )


def _pikes(
    scene: Scene, attackers: list[Figure], defenders: list[Figure], charging: bool
) -> tuple[list[str], list[Margin]]:
    """The pikes that take a die from mounted chargers (§8.0): « Piques : elles retirent 1d6
    aux troupes montées qui les chargent ou qui chargent toute figurine amie à 1cm ou
    moins. » A defender with pikes, or a friend of the defenders with pikes within 1 cm
    (edge to edge) of one of them; the margins of those near the 1 cm."""
    if not charging or not is_mounted(attackers[0]):
        return [], []
    limit_mm = options_of(scene).mm(NUMBERS.pikes_cm)
    side = defenders[0].side
    pikemen = [
        f
        for f in scene.figures
        if f.attrs.get("pikes", False) and not scene.are_enemies(side, f.side)
    ]
    counted: list[str] = []
    margins: list[Margin] = []
    for pikeman in pikemen:
        if pikeman.id in {d.id for d in defenders}:
            counted.append(pikeman.id)
            continue
        gap, near = min(
            ((figure_gap_mm(scene, pikeman, d), d) for d in defenders), key=lambda p: p[0]
        )
        if gap <= limit_mm:
            counted.append(pikeman.id)
        margins.append(Margin("pikes", abs(limit_mm - gap), sigma_between(pikeman, near)))
    return counted, margins


def _figures(scene: Scene, names: str) -> list[Figure]:
    found = []
    for name in names.split(","):
        figure = scene.figure(name.strip())
        if figure is None:
            raise UnknownName("figure", name.strip(), (f.id for f in scene.figures))
        found.append(figure)
    return found


def _check_sides(scene: Scene, attackers: list[Figure], defenders: list[Figure]) -> None:
    """Refuse a melee with a figure named twice, friends facing, or enemies side by side."""
    named = [f.id for f in attackers + defenders]
    for fid in named:
        if named.count(fid) > 1:
            raise QuestionError(f"{fid!r} is named twice: a figure fights once, on one side")
    for side in (attackers, defenders):
        if len(side) == 2 and scene.are_enemies(side[0].side, side[1].side):
            raise QuestionError(
                f"{side[0].id!r} and {side[1].id!r} are enemies: they cannot fight on one side"
            )
    for attacker in attackers:
        for defender in defenders:
            if not scene.are_enemies(attacker.side, defender.side):
                raise QuestionError(f"{defender.id!r} is not an enemy of {attacker.id!r}")


def melee_question(
    scene: Scene,
    a: str,
    b: str,
    charging: Flag = True,
    across_obstacle: Flag = False,
    rolls_a: Dice | None = None,
    rolls_b: Dice | None = None,
) -> SRMeleeAnswer:
    """Melee of A (one or two figures, ``a1,a2``) against B (§6.7): dice, hits, odds.

    Each side rolls 3d6 (plus modifiers; +1d6 for a second figure) and hits on every
    die at least the enemy's C (the lower C of two enemies).
    """
    attackers, defenders = _figures(scene, a), _figures(scene, b)
    if len(attackers) > 2 or len(defenders) > 2 or (len(attackers) == 2 and len(defenders) == 2):
        raise QuestionError("a melee is one against one, or two against one")
    _check_sides(scene, attackers, defenders)
    is_charging, across = charging, across_obstacle
    pikes, margins = _pikes(scene, attackers, defenders, is_charging)
    dice_a = _side_dice(
        attackers,
        defenders,
        charging=is_charging,
        across=across,
        pikes=bool(pikes),
        mounted_keep_impetus=options_of(scene).impetuous_vs_mounted == "mounted_only",
    )
    dice_b = _side_dice(defenders, attackers, charging=False, across=False)
    hits_on_a = min(_combat(f) for f in defenders)
    hits_on_b = min(_combat(f) for f in attackers)
    fierce_a, fierce_b = (
        bool(side[0].attrs.get("ferocious", False)) for side in (attackers, defenders)
    )
    again_a = melee_rerolls(ferocious=fierce_a, against_ferocious=fierce_b)
    again_b = melee_rerolls(ferocious=fierce_b, against_ferocious=fierce_a)
    weapons_a, weapons_b = (_weapon_rerolls(side) for side in (attackers, defenders))
    odds = _veterans_win_ties(
        contest(
            hits_pmf(dice_a, hits_on_a, again_a, weapons_a),
            hits_pmf(dice_b, hits_on_b, again_b, weapons_b),
        ),
        attackers,
        defenders,
    )
    warnings = [
        Said(
            "ferocious",
            "{side} ferocious: they re-roll their 1s, {enemy} their 6s, once (in the odds)",
            side="+".join(f.id for f in fierce),
            enemy="+".join(f.id for f in other),
        )
        for fierce, other, is_fierce in (
            (attackers, defenders, fierce_a),
            (defenders, attackers, fierce_b),
        )
        if is_fierce
    ]
    warnings.extend(
        Said(
            "melee_reroll",
            "{side}: a melee weapon or a standard re-rolls one missed die each ({count}, "
            "in the odds)",
            side="+".join(f.id for f in side),
            count=count,
        )
        for side, count in ((attackers, weapons_a), (defenders, weapons_b))
        if count
    )
    hits_a = hits_b = None
    outcome: list[str] = []
    if (rolls_a is None) != (rolls_b is None):
        given, missing = ("rolls_a", "rolls_b") if rolls_b is None else ("rolls_b", "rolls_a")
        raise QuestionError(
            f"{given} was given without {missing}: give both sides' dice, or neither"
        )
    if rolls_a is not None and rolls_b is not None:
        faces_a, faces_b = list(rolls_a), list(rolls_b)
        if len(faces_a) != dice_a or len(faces_b) != dice_b:
            raise QuestionError(
                f"roll {dice_a} dice for {a} and {dice_b} for {b}, got "
                f"{len(faces_a)} and {len(faces_b)}"
            )
        try:
            hits_a, hits_b = count_hits(faces_a, hits_on_a), count_hits(faces_b, hits_on_b)
        except ValueError as error:
            raise QuestionError(str(error)) from None
        outcome = _resolve(attackers, defenders, hits_a, hits_b)
        if again_a or again_b or weapons_a or weapons_b:
            warnings.append(
                Said(
                    "rolls_after_rerolls",
                    "the dice given are counted as they lie: give them after the re-rolls",
                )
            )
    text = (
        f"{'+'.join(f.id for f in attackers)} roll {dice_a}d6 hitting on {hits_on_a}+; "
        f"{'+'.join(f.id for f in defenders)} roll {dice_b}d6 hitting on {hits_on_b}+"
    )
    text += "; " + (
        ", ".join(outcome)
        if outcome
        else f"win {float(odds['win']):.0%}, tie {float(odds['tie']):.0%}"
    )
    if pikes:
        warnings.append(
            Said(
                "pikes",
                "pikes ({pikes}): the mounted chargers roll one die less",
                pikes=", ".join(pikes),
            )
        )
    return SRMeleeAnswer(
        question="melee",
        message=with_certainty(text, *margins) + warning_lines(warnings),
        margins=tuple(margins),
        pikes=tuple(pikes),
        attacker_reroll_faces=tuple(sorted(again_a)),
        defender_reroll_faces=tuple(sorted(again_b)),
        attacker_weapon_rerolls=weapons_a,
        defender_weapon_rerolls=weapons_b,
        attackers=tuple(f.id for f in attackers),
        defenders=tuple(f.id for f in defenders),
        attacker_dice=dice_a,
        defender_dice=dice_b,
        attacker_hits_on=hits_on_a,
        defender_hits_on=hits_on_b,
        odds={k: probability(v) for k, v in odds.items()},
        attacker_hits=hits_a,
        defender_hits=hits_b,
        outcome=tuple(outcome),
        warnings=tuple(warnings),
    )


def _resolve(
    attackers: list[Figure], defenders: list[Figure], hits_a: int, hits_b: int
) -> list[str]:
    """Who wins: more hits; a tie makes both recoil 1 cm (a veteran wins it).

    Two against one: a lone figure 2 or more hits ahead eliminates both; otherwise
    its hits go one each, the lower C first, the pair's hits one each, and each
    pairing is settled on its own.
    """
    if len(attackers) == len(defenders):
        return [_duel(attackers[0], hits_a, defenders[0], hits_b)]
    lone, lone_hits, pair, pair_hits = (
        (defenders[0], hits_b, attackers, hits_a)
        if len(attackers) == 2
        else (attackers[0], hits_a, defenders, hits_b)
    )
    if lone_hits - pair_hits >= 2:
        return [f"{lone.id} eliminates {pair[0].id} and {pair[1].id}"]
    ordered = sorted(pair, key=_combat)
    given = [lone_hits // 2 + (1 if k < lone_hits % 2 else 0) for k in range(2)]
    taken = [pair_hits // 2 + (1 if k < pair_hits % 2 else 0) for k in range(2)]
    return [_duel(lone, given[k], ordered[k], taken[k]) for k in range(2)]


def _duel(first: Figure, first_hits: int, second: Figure, second_hits: int) -> str:
    if first_hits == second_hits:
        for figure, other in ((first, second), (second, first)):
            if is_veteran(figure) and not is_veteran(other):
                return f"{figure.id} (veteran) beats {other.id}"
        return f"{first.id} and {second.id} tie: both recoil 1 cm"
    winner, loser = (first, second) if first_hits > second_hits else (second, first)
    return f"{winner.id} beats {loser.id}"
