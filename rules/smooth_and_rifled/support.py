"""Smooth & Rifled: rules measured around one figure — saves, rally, standards, guns, ambushes.

Each question measures base edge to base edge from one figure to the figures that
help it (or take its hit) and compares the nearest with the book's radius, giving
the margin and "too close to call" when the camera's uncertainty straddles it.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from fractions import Fraction

from arbitre.rules.answers import (
    Margin,
    Reason,
    Said,
    warning_lines,
    with_certainty,
)
from arbitre.rules.errors import QuestionError
from arbitre.rules.model import Figure, Scene, sigma_between
from arbitre.rules.options import Die
from arbitre.rules.smooth_and_rifled.answers import (
    SRGunAnswer,
    SRRallyAnswer,
    SRSaveAnswer,
    SRSpotAnswer,
    SRStandardAnswer,
)
from arbitre.rules.smooth_and_rifled.bases import figure_gap_mm, footprints, index_of
from arbitre.rules.smooth_and_rifled.book import GUNS, MM_PER_CM, NUMBERS, UNIT, va_last
from arbitre.rules.smooth_and_rifled.dice import FACES, above_chance
from arbitre.rules.smooth_and_rifled.geometry import in_arc
from arbitre.rules.smooth_and_rifled.groups import is_leader, is_musician, resolve
from arbitre.rules.smooth_and_rifled.options import VaLast, options_of
from arbitre.rules.smooth_and_rifled.reasons import reason_words

SAVE_ATTRS = ("leader", "senior_officer", "hero", "standard", "musician", "sniper")
"""Figures with a save (§6.2.8): Leaders, heroes, standard-bearers, musicians, snipers."""

TIE_MM = 0.01
"""Gaps closer than this are equal (round bases are polygons to a few micrometres)."""

RALLY_ATTRS = ("leader", "senior_officer", "standard", "hero")
"""Figures whose presence within 20 cm rallies in one action (§6.2.9)."""


def has_save(figure: Figure) -> bool:
    return is_musician(figure) or any(figure.attrs.get(a, False) for a in SAVE_ATTRS)


def _friends(scene: Scene, figure: Figure) -> list[Figure]:
    """Every other figure of the figure's side or of an allied side."""
    return [
        f for f in scene.figures if f.id != figure.id and not scene.are_enemies(figure.side, f.side)
    ]


def _nearest(scene: Scene, figure: Figure, others: Sequence[Figure]) -> list[tuple[float, Figure]]:
    """The others by edge gap from the figure, nearest first (ties by id)."""
    return sorted(
        ((figure_gap_mm(scene, figure, f), f) for f in others), key=lambda p: (p[0], p[1].id)
    )


def _cm(length_mm: float) -> str:
    return f"{length_mm / MM_PER_CM:.1f} cm"


def _figure(scene: Scene, name: str) -> Figure:
    """A figure named by its id (a group's name stands for its Leader)."""
    return resolve(scene, name)[1]


# --- the leaders' save (§6.2.8) ----------------------------------------------------------


def save_question(scene: Scene, a: str, die: Die | None = None) -> SRSaveAnswer:
    """A hit on A, a figure with a save: on 4-6 the nearest figure within 5 cm takes it.

    "Les Leaders, Héros, Porte-étendard, Musiciens et Tireurs d'Elite bénéficient d'une
    Sauvegarde ... sur 1-3, ils sont touchés ; sur 4-6 la figurine la plus proche dans un
    rayon de 5cm est touchée ; s'il n'y a pas de figurine dans un rayon de 5cm, le tir est
    considéré sans effet (d'autres figurines particulières ne peuvent être prises comme
    figurines de substitution)." The substitute is the nearest friendly figure that has
    no save of its own (a figure already hit may take it: two damage rolls); under the
    scene option ``save_substitute: any``, the nearest figure without a save whatever its
    side. Under the default a nearer enemy is named in a warning.
    """
    options = options_of(scene)
    figure = _figure(scene, a)
    radius_mm = options.mm(NUMBERS.save_radius_cm)
    rolled = die
    warnings: list[str] = []
    if not has_save(figure):
        return SRSaveAnswer(
            question="save",
            message=f"{figure.id} has no save (only Leaders, heroes, standard-bearers, "
            "musicians and snipers have one): it takes the hit",
            figure=figure.id,
            reasons=(Reason.NO_SAVE,),
            radius_mm=radius_mm,
            radius_units=UNIT.from_mm(radius_mm),
            unit=UNIT.name,
            die=rolled,
            hit=figure.id,
        )
    anyone = [f for f in scene.figures if f.id != figure.id and not has_save(f)]
    if options.save_substitute == "any":
        ranked = _nearest(scene, figure, anyone)
    else:
        friends = {f.id for f in _friends(scene, figure)}
        ranked = _nearest(scene, figure, [f for f in anyone if f.id in friends])
        warnings.extend(_enemy_nearer(scene, figure, anyone, ranked, radius_mm))
    margins: list[Margin] = []
    substitute: Figure | None = None
    gap: float | None = None
    if ranked:
        first_gap, first = ranked[0]
        sigma = sigma_between(figure, first)
        margins.append(Margin("save radius", abs(radius_mm - first_gap), sigma))
        if first_gap <= radius_mm:
            substitute, gap = first, first_gap
            if len(ranked) > 1 and ranked[1][0] <= radius_mm:
                second_gap, second = ranked[1]
                margins.append(
                    Margin(
                        "nearest",
                        second_gap - first_gap,
                        sigma_between(first, second),
                    )
                )
    tied: tuple[str, ...] = ()
    if substitute is not None and gap is not None:
        tied = tuple(
            f.id
            for g, f in ranked
            if g <= radius_mm and g - gap <= max(2.0 * sigma_between(substitute, f), TIE_MM)
        )
        if len(tied) > 1:
            warnings.append(
                Said(
                    "equally_near",
                    "{figures} are equally near {figure}: the players choose",
                    figures=", ".join(tied),
                    figure=figure.id,
                )
            )
    hit: str | None = None
    if rolled is not None:
        hit = figure.id if rolled < NUMBERS.save_from else (substitute.id if substitute else None)
    passes = Fraction(FACES - NUMBERS.save_from + 1, FACES)
    who = f"{substitute.id} ({_cm(gap or 0.0)})" if substitute else "nobody: the hit is lost"
    if rolled is None:
        text = f"{figure.id} saves on {NUMBERS.save_from}+: the hit then passes to {who}"
    elif rolled < NUMBERS.save_from:
        text = f"{figure.id} rolls {rolled}: the save fails, {figure.id} takes the hit"
    else:
        text = f"{figure.id} rolls {rolled}: the hit passes to {who}"
    if substitute is None and not ranked:
        warnings.append(
            Said("no_substitute", "no figure without a save stands near {figure}", figure=figure.id)
        )
    return SRSaveAnswer(
        question="save",
        message=with_certainty(text, *margins) + warning_lines(warnings),
        margins=tuple(margins),
        figure=figure.id,
        has_save=True,
        substitute=substitute.id if substitute else None,
        tied=tied,
        substitute_gap_mm=gap,
        substitute_gap_units=UNIT.from_mm(gap) if gap is not None else None,
        radius_mm=radius_mm,
        radius_units=UNIT.from_mm(radius_mm),
        unit=UNIT.name,
        pass_probability=float(passes),
        die=rolled,
        hit=hit,
        warnings=tuple(warnings),
    )


def _enemy_nearer(
    scene: Scene,
    figure: Figure,
    anyone: Sequence[Figure],
    friends: Sequence[tuple[float, Figure]],
    radius_mm: float,
) -> list[str]:
    """The warning that an enemy without a save stands within the radius and nearer than
    any friend who could take the hit: the other reading of « la figurine la plus proche »
    would give it the hit."""
    nearest = _nearest(scene, figure, anyone)
    if not nearest or nearest[0][0] > radius_mm:
        return []
    gap, other = nearest[0]
    if not scene.are_enemies(figure.side, other.side):
        return []
    if friends and friends[0][0] <= gap:
        return []
    return [
        Said(
            "save_enemy_nearer",
            "{enemy}, an enemy, stands nearer {figure} ({cm} cm): the hit goes to the nearest "
            "friend (save_substitute: any gives it to the nearest figure)",
            enemy=other.id,
            figure=figure.id,
            cm=f"{gap / MM_PER_CM:.1f}",
        )
    ]


# --- rally (§6.2.9) ----------------------------------------------------------------------


def rally_question(scene: Scene, a: str) -> SRRallyAnswer:
    """Actions a shaken figure spends to rally: 1 with a Leader, standard or hero within 20 cm.

    "Une figurine Secouée peut se ressaisir ; cela lui prend 1 Action si un Leader, un
    Porte-étendard ou un Héro se trouve dans les 20cm, sinon cela lui prend 2 Actions."
    """
    options = options_of(scene)
    figure = _figure(scene, a)
    radius_mm = options.mm(NUMBERS.rally_cm)
    helpers = [
        f
        for f in _friends(scene, figure)
        if is_leader(f) or any(f.attrs.get(k, False) for k in RALLY_ATTRS)
    ]
    ranked = _nearest(scene, figure, helpers)
    warnings: list[str] = []
    if not figure.attrs.get("shaken", False):
        warnings.append(
            Said("not_shaken", "{figure} is not marked shaken (attrs.shaken)", figure=figure.id)
        )
    one, two = NUMBERS.rally_actions
    margins: list[Margin] = []
    helper: Figure | None = None
    gap: float | None = None
    if ranked:
        gap, nearest = ranked[0]
        margins.append(
            Margin(
                "rally radius",
                abs(radius_mm - gap),
                sigma_between(figure, nearest),
            )
        )
        if gap <= radius_mm:
            helper = nearest
    actions = one if helper is not None else two
    enemies = _nearest(
        scene,
        figure,
        [
            f
            for f in scene.figures
            if scene.are_enemies(figure.side, f.side) and not f.attrs.get("ambush", False)
        ],
    )
    toward: tuple[float, Figure] | None = None
    if figure.attrs.get("fanatic", False) and enemies:
        # §8.0: « un Fanatique peut ... enlever son marqueur Secoué en bougeant pendant 1
        # Action à vitesse maximale vers l'ennemi le plus proche »: one action whoever is
        # near, only which enemy is nearest is measured.
        toward = enemies[0]
        actions = one
        margins = []
        if len(enemies) > 1:
            margins.append(
                Margin(
                    "nearest enemy",
                    enemies[1][0] - enemies[0][0],
                    sigma_between(enemies[0][1], enemies[1][1]),
                )
            )
    if toward is not None:
        text = (
            f"{figure.id}, a fanatic, rallies in {actions} action moving at full speed toward "
            f"the nearest enemy, {toward[1].id} ({_cm(toward[0])} away)"
        )
        if helper is not None:
            text += f", or as any figure: {helper.id} is {_cm(gap or 0.0)} away"
    elif helper is not None:
        text = f"{figure.id} rallies in {actions} action: {helper.id} is {_cm(gap or 0.0)} away"
    elif ranked:
        text = (
            f"{figure.id} rallies in {actions} actions: the nearest Leader, standard or hero "
            f"({ranked[0][1].id}) is {_cm(ranked[0][0])} away, more than {_cm(radius_mm)}"
        )
    else:
        text = f"{figure.id} rallies in {actions} actions: no Leader, standard or hero on its side"
    return SRRallyAnswer(
        question="rally",
        message=with_certainty(text, *margins) + warning_lines(warnings),
        margins=tuple(margins),
        figure=figure.id,
        actions=actions,
        helper=helper.id if helper else None,
        helper_gap_mm=gap if ranked else None,
        helper_gap_units=UNIT.from_mm(gap) if ranked and gap is not None else None,
        toward=toward[1].id if toward else None,
        toward_gap_mm=toward[0] if toward else None,
        radius_mm=radius_mm,
        radius_units=UNIT.from_mm(radius_mm),
        unit=UNIT.name,
        warnings=tuple(warnings),
    )


# --- the standard-bearer (§7.0, §8.0) -----------------------------------------------------


def _count_test(
    gaps: Sequence[tuple[float, Figure]], needed: int, radius_mm: float, sigma_of: Figure
) -> tuple[bool, Margin | None]:
    """Whether ``needed`` of the ranked gaps lie within the radius; the deciding margin.

    The deciding figure is the ``needed``-th nearest: the test passes when it is within
    the radius, and its distance to the radius is the margin.
    """
    if needed == 0:
        return True, None
    if needed > len(gaps):
        return False, None
    gap, figure = gaps[needed - 1]
    sigma = sigma_between(sigma_of, figure)
    return gap <= radius_mm, Margin("standard radius", abs(radius_mm - gap), sigma)


def standard_question(scene: Scene, a: str) -> SRStandardAnswer:
    """May A's unit re-roll its morale test for its standard-bearer A.

    §8.0: "vous pouvez relancer un Test de Moral si 50% au moins des figurines amies sont
    à 40cm ou moins d'un Porte-étendard non Secoué" decides (``reroll``). §7.0 says "la
    majorité de ses compagnons sont à 30cm ou moins": reported beside it
    (``majority_within_morale``), with a warning when the two readings differ. The
    companions are the other figures of the standard-bearer's unit (``unit``, else
    ``group``; his whole side when he has neither).
    """
    options = options_of(scene)
    figure = _figure(scene, a)
    if not figure.attrs.get("standard", False):
        raise QuestionError(f"{figure.id!r} is not a standard-bearer (attrs.standard)")
    key = figure.unit if figure.unit is not None else figure.group
    companions = [
        f
        for f in scene.figures
        if f.id != figure.id
        and f.side == figure.side
        and (key is None or (f.unit if f.unit is not None else f.group) == key)
    ]
    ranked = _nearest(scene, figure, companions)
    reroll_mm = options.mm(NUMBERS.standard_reroll_cm)
    morale_mm = options.mm(NUMBERS.standard_morale_cm)
    needed_reroll = math.ceil(len(companions) / 2)
    needed_morale = len(companions) // 2 + 1 if companions else 0
    half_near, reroll_margin = _count_test(ranked, needed_reroll, reroll_mm, figure)
    most_near, morale_margin = _count_test(ranked, needed_morale, morale_mm, figure)
    shaken = bool(figure.attrs.get("shaken", False))
    reasons: list[Reason] = []
    if shaken:
        reasons.append(Reason.STANDARD_SHAKEN)
    if not half_near:
        reasons.append(Reason.TOO_FEW_NEAR)
    reroll = not reasons
    warnings: list[str] = []
    if not shaken and half_near != most_near:
        warnings.append(
            f"§7.0 reads 'most companions within {_cm(morale_mm)}': "
            f"{'met' if most_near else 'not met'} ({len([g for g, _ in ranked if g <= morale_mm])}"
            f" of {needed_morale} needed)"
        )
    within_reroll = tuple(f.id for g, f in ranked if g <= reroll_mm)
    margins = tuple(m for m in (reroll_margin,) if m is not None)
    if reroll:
        text = (
            f"{figure.id}'s unit may re-roll its morale test: {len(within_reroll)} of "
            f"{len(companions)} companions within {_cm(reroll_mm)} ({needed_reroll} needed)"
        )
    else:
        text = (
            f"no re-roll for {figure.id}: "
            + reason_words(reasons)
            + (
                f" ({len(within_reroll)} of {len(companions)} companions within {_cm(reroll_mm)}, "
                f"{needed_reroll} needed)"
            )
        )
    return SRStandardAnswer(
        question="standard",
        message=with_certainty(text, *margins) + warning_lines(warnings),
        margins=margins,
        standard=figure.id,
        reroll=reroll,
        reasons=tuple(reasons),
        companions=tuple(f.id for f in companions),
        within_reroll=within_reroll,
        needed_reroll=needed_reroll,
        reroll_radius_mm=reroll_mm,
        within_morale=tuple(f.id for g, f in ranked if g <= morale_mm),
        needed_morale=needed_morale,
        morale_radius_mm=morale_mm,
        majority_within_morale=most_near,
        unit=UNIT.name,
        warnings=tuple(warnings),
    )


# --- a gun's crew and ammunition (Artillerie) --------------------------------------------


def gun_question(scene: Scene, a: str) -> SRGunAnswer:
    """Are gun A's gunners within 3 cm of it and its ammunition box within 10 cm.

    "Les artilleurs doivent être placés à 3cm ou moins de leur pièce." "Pour chaque pièce
    d'artillerie, vous devez avoir une boîte de munitions à moins de 10cm." Gunners carry
    ``attrs.crew_of: GUN``; the box is a marker with ``attrs.ammunition_of: GUN``.
    """
    options = options_of(scene)
    gun = gun_named(scene, a)
    crew_mm = options.mm(NUMBERS.crew_cm)
    box_mm = options.mm(NUMBERS.ammunition_cm)
    numbers = GUNS[str(gun.attrs.get("gun", "light"))]
    gunners = crew_of(scene, gun)
    boxes = _nearest(
        scene, gun, [f for f in scene.figures if f.attrs.get("ammunition_of") == gun.id]
    )
    margins = [Margin(f"crew {f.id}", abs(crew_mm - g), sigma_between(gun, f)) for g, f in gunners]
    near = tuple(f.id for g, f in gunners if g <= crew_mm)
    away = tuple(f.id for g, f in gunners if g > crew_mm)
    reasons: list[Reason] = []
    warnings: list[str] = []
    if away:
        reasons.append(Reason.CREW_TOO_FAR)
    low, high = numbers.crew
    if not gunners:
        warnings.append(Said("no_gunner", "no gunner names {gun} (attrs.crew_of)", gun=gun.id))
    elif not low <= len(gunners) <= high:
        warnings.append(
            f"a {gun.attrs.get('gun', 'light')} gun has {low} to {high} gunners, "
            f"{gun.id} has {len(gunners)}"
        )
    box: Figure | None = None
    box_gap: float | None = None
    if boxes:
        box_gap, box = boxes[0]
        margins.append(Margin("ammunition", abs(box_mm - box_gap), sigma_between(gun, box)))
    if box_gap is None or box_gap >= box_mm:
        reasons.append(Reason.AMMUNITION_TOO_FAR)
    legal = not reasons
    parts = [f"{len(near)} of {len(gunners)} gunners within {_cm(crew_mm)}"]
    parts.append(
        f"ammunition {box.id} at {_cm(box_gap)}"
        if box and box_gap is not None
        else "no ammunition box"
    )
    text = f"{gun.id} " + ("is served: " if legal else "is not served: ") + ", ".join(parts)
    if away:
        text += f" ({', '.join(away)} too far)"
    return SRGunAnswer(
        question="gun",
        message=with_certainty(text, *margins) + warning_lines(warnings),
        margins=tuple(margins),
        gun=gun.id,
        legal=legal,
        reasons=tuple(reasons),
        crew=near,
        crew_away=away,
        crew_needed=numbers.crew,
        crew_radius_mm=crew_mm,
        ammunition=box.id if box else None,
        ammunition_gap_mm=box_gap,
        ammunition_radius_mm=box_mm,
        unit=UNIT.name,
        warnings=tuple(warnings),
    )


def gun_named(scene: Scene, name: str) -> Figure:
    """The gun a question names (a figure of type artillery)."""
    gun = _figure(scene, name)
    if gun.type != "artillery":
        raise QuestionError(f"{name!r} is not a gun (type: artillery), got type {gun.type!r}")
    return gun


def crew_of(scene: Scene, gun: Figure) -> list[tuple[float, Figure]]:
    """The gun's gunners (``attrs.crew_of``) with their gaps to it (mm), nearest first."""
    return _nearest(scene, gun, [f for f in scene.figures if f.attrs.get("crew_of") == gun.id])


# --- spotting an ambush (§6.3, §6.3.1) ---------------------------------------------------


def _va_last(figure: Figure, va: int | None) -> int | None:
    """The last number of the spotter's VA: the ``va`` extra, else ``attrs.va``."""
    return va if va is not None else va_last(figure)


def spot_question(
    scene: Scene,
    a: str,
    b: str,
    va: VaLast | None = None,
    die: Die | None = None,
    reroll: Die | None = None,
) -> SRSpotAnswer:
    """May A spot the ambush marker B: automatic at 15 cm, a test up to 30 cm (scouts 45).

    "Une Embuscade ne peut pas être repérée à plus de 30cm ... Les figurines avec la
    capacité Scout peuvent repérer à 45cm et peuvent relancer un test raté. Une Embuscade
    est automatiquement détectée par les figurines à 15cm ou moins du marqueur ; la
    visibilité est de 180°." The test (§6.3.1) costs an action and needs 1d6 above the
    last number of the spotter's VA.
    """
    options = options_of(scene)
    spotter = _figure(scene, a)
    marker = _figure(scene, b)
    if spotter.id == marker.id:
        raise QuestionError(f"{a!r} cannot spot itself")
    scout = bool(spotter.attrs.get("scout", False))
    gap = figure_gap_mm(scene, spotter, marker)
    sigma = sigma_between(spotter, marker)
    reach_mm = options.mm(NUMBERS.scout_spot_cm if scout else NUMBERS.spot_cm)
    auto_mm = options.mm(NUMBERS.auto_spot_cm)
    reasons: list[Reason] = []
    warnings: list[str] = []
    if not scene.are_enemies(spotter.side, marker.side):
        reasons.append(Reason.TARGET_NOT_ENEMY)
    if not marker.attrs.get("ambush", False):
        warnings.append(
            Said(
                "not_ambush",
                "{marker} is not marked as an ambush marker (attrs.ambush)",
                marker=marker.id,
            )
        )
    inside, arc_margin = in_arc(
        spotter, footprints(scene)[index_of(scene, marker.id)], NUMBERS.spot_arc_deg
    )
    margins = [Margin("arc", arc_margin, sigma)]
    if not inside:
        reasons.append(Reason.NOT_IN_ARC)
    if gap > reach_mm:
        reasons.append(Reason.OUT_OF_RANGE)
        margins.append(Margin("spotting range", gap - reach_mm, sigma))
    else:
        margins.append(Margin("spotting range", reach_mm - gap, sigma))
        margins.append(Margin("automatic", abs(gap - auto_mm), sigma))
    allowed = not reasons
    automatic = allowed and gap <= auto_mm
    last = _va_last(spotter, va)
    rolled, again = die, reroll
    if again is not None and not scout:
        raise QuestionError(f"only scouts re-roll a failed spotting test; {spotter.id} is no scout")
    chance: float | None = None
    spotted: bool | None = None
    if automatic:
        chance, spotted = 1.0, True
    elif allowed:
        if last is not None:
            chance = float(above_chance(last, again=scout))
        elif rolled is not None:
            raise QuestionError("the test needs the last number of the spotter's VA: --with va=N")
        if rolled is not None and last is not None:
            spotted = rolled > last or (again is not None and again > last)
        if last is None:
            warnings.append(
                Said("give_va", "give va (the last number of the spotter's VA) for the odds")
            )
    else:
        spotted = False if rolled is not None else None
    distance = f"{_cm(gap)}"
    if not allowed:
        text = f"{spotter.id} may not spot {marker.id}: " + reason_words(reasons)
        text += f" ({distance}, at most {_cm(reach_mm)})"
    elif automatic:
        text = (
            f"{marker.id} is spotted by {spotter.id} at once: {distance} (at most {_cm(auto_mm)})"
        )
    else:
        need = f"1d6 above {last}" if last is not None else "1d6 above the last number of its VA"
        text = f"{spotter.id} may try to spot {marker.id} ({distance}): one action, {need}"
        if scout:
            text += ", a scout re-rolls a failure"
        if spotted is not None:
            text += "; spotted" if spotted else "; not spotted"
    return SRSpotAnswer(
        question="spot",
        message=with_certainty(text, *margins) + warning_lines(warnings),
        margins=tuple(margins),
        spotter=spotter.id,
        marker=marker.id,
        allowed=allowed,
        automatic=automatic,
        reasons=tuple(reasons),
        distance_mm=gap,
        distance_units=UNIT.from_mm(gap),
        unit=UNIT.name,
        range_mm=reach_mm,
        automatic_mm=auto_mm,
        scout=scout,
        va=last,
        probability=chance,
        die=rolled,
        reroll=again,
        spotted=spotted,
        warnings=tuple(warnings),
    )
