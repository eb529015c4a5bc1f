"""Friends and foes nearby: the cost of leaving a melee, and the support of allies and leaders."""

from __future__ import annotations

from arbitre.rules.answers import Margin, Reason, at_most, counted, in_units, with_certainty
from arbitre.rules.model import Figure, Scene, sigma_between
from arbitre.rules.musg.answers import LeaveAnswer, SupportAnswer
from arbitre.rules.musg.bases import (
    attention_chef_of,
    base_gap_mm,
    command_of,
    measured_mm,
    move_pas_of,
    rank_index,
)
from arbitre.rules.musg.book import NUMBERS
from arbitre.rules.musg.options import options_of, unit_of
from arbitre.rules.musg.reasons import reason_words
from arbitre.rules.ruleset import figure_named


def leave_answer(scene: Scene, a: str) -> LeaveAnswer:
    """The PA and move it costs A to leave the melee it is engaged in."""
    options = options_of(scene)
    unit = unit_of(scene)
    figure = figure_named(scene, a)
    margins: list[Margin] = []
    engaged: list[str] = []
    friends: list[str] = []
    friend_mm = unit.to_mm(NUMBERS.leave_friend_pas)
    for other in scene.figures:
        if other.id == figure.id:
            continue
        sigma = sigma_between(figure, other)
        if scene.are_enemies(figure.side, other.side):
            gap = base_gap_mm(figure, other, options)
            if at_most(gap, options.contact_tolerance_mm):
                engaged.append(other.id)
            margins.append(
                Margin(f"contact {other.id}", abs(options.contact_tolerance_mm - gap), sigma)
            )
        else:
            d = measured_mm(figure, other, options)
            if at_most(d, friend_mm):
                friends.append(other.id)
            margins.append(Margin(f"friend {other.id}", abs(friend_mm - d), sigma))
    move_units = move_pas_of(figure) * NUMBERS.leave_move_fraction if engaged else 0.0
    reasons = () if engaged else (Reason.NOT_IN_CONTACT,)
    points = max(NUMBERS.leave_minimum_points, len(engaged) - len(friends)) if engaged else 0
    if engaged:
        text = (
            f"{a} may leave the melee with {', '.join(engaged)} for {points} PA"
            f" ({len(engaged)} engaged, {counted(len(friends), 'friend')} within "
            f"{in_units(NUMBERS.leave_friend_pas, 'pas', 'g')}), moving "
            f"{in_units(move_units, 'pas', 'g')} away"
            " even in difficult ground"
        )
    else:
        text = f"{a} is {reason_words(reasons)}"
    kept = tuple(sorted(margins, key=lambda m: m.margin_mm)[:3])
    return LeaveAnswer(
        question="leave",
        message=with_certainty(text, *kept),
        margins=kept,
        figure=a,
        allowed=bool(engaged),
        reasons=reasons,
        engaged_with=tuple(engaged),
        friends_near=tuple(friends),
        action_points=points,
        move_mm=unit.to_mm(move_units),
        move_units=move_units,
        unit=unit.name,
    )


def allies_near(scene: Scene, figure: Figure) -> tuple[tuple[str, ...], list[Margin]]:
    """The friends within 3 pas of a figure, nearest first ("Lors du test, le personnage
    gagne +1 à son commandement par allié présent à moins de 3 pas de lui"), and the
    margin of each friend's distance to the 3 pas."""
    options = options_of(scene)
    support_mm = unit_of(scene).to_mm(NUMBERS.support_pas)
    allies: list[tuple[float, str]] = []
    margins: list[Margin] = []
    for other in scene.figures:
        if other.id == figure.id or scene.are_enemies(figure.side, other.side):
            continue
        d = measured_mm(figure, other, options)
        if at_most(d, support_mm):
            allies.append((d, other.id))
        margins.append(
            Margin(f"ally {other.id}", abs(support_mm - d), sigma_between(figure, other))
        )
    return tuple(ident for _, ident in sorted(allies)), margins


def support_answer(scene: Scene, a: str) -> SupportAnswer:
    """Allies within support range of A, and the friends on whose higher Cd it may test."""
    options = options_of(scene)
    unit = unit_of(scene)
    figure = figure_named(scene, a)
    support_mm = unit.to_mm(NUMBERS.support_pas)
    leader_mm = unit.to_mm(NUMBERS.leader_pas)
    allies, margins = allies_near(scene, figure)
    leaders: list[tuple[int, int, float, str]] = []
    chief_near = False
    for other in scene.figures:
        if other.id == figure.id or scene.are_enemies(figure.side, other.side):
            continue
        if _leads(other, figure):
            d = measured_mm(figure, other, options)
            sigma = sigma_between(figure, other)
            if at_most(d, leader_mm):
                cd = command_of(other)
                leaders.append(
                    (-(-1 if cd is None else cd), -(rank_index(other) or 0), d, other.id)
                )
                chief_near = chief_near or other.attrs.get("rank") == "chief"
            margins.append(Margin(f"leader {other.id}", abs(leader_mm - d), sigma))
    leaders.sort()
    attention = attention_chef_of(scene, figure, options, unit)
    if figure.attrs.get("rank") == "chief":  # who is within 1 pas to take a shot for it
        chef_mm = unit.to_mm(NUMBERS.attention_chef_pas)
        margins.extend(
            Margin(
                f"attention chef {other.id}",
                abs(chef_mm - measured_mm(figure, other, options)),
                sigma_between(figure, other),
            )
            for other in scene.figures
            if other.id != figure.id and not scene.are_enemies(figure.side, other.side)
        )
    kept = tuple(sorted(margins, key=lambda m: m.margin_mm)[:3])
    text = (
        f"{a}: {counted(len(allies), 'ally', 'allies')} within "
        f"{in_units(NUMBERS.support_pas, 'pas', 'g')} (+{len(allies)} Cd)"
        + (
            f"; may test on the Cd of {', '.join(x[-1] for x in leaders)} "
            f"within {NUMBERS.leader_pas:g} pas"
            if leaders
            else ""
        )
        + (f"; attention chef: {', '.join(attention)}" if attention else "")
    )
    return SupportAnswer(
        question="support",
        message=with_certainty(text, *kept),
        margins=kept,
        figure=a,
        allies=allies,
        cd_bonus=len(allies),
        leaders=tuple(x[-1] for x in leaders),
        chief_near=chief_near,
        attention_chef=attention,
        support_mm=support_mm,
        support_units=NUMBERS.support_pas,
        leader_mm=leader_mm,
        leader_units=NUMBERS.leader_pas,
        unit=unit.name,
    )


def _leads(other: Figure, figure: Figure) -> bool:
    """Whether ``figure`` may take its end-of-turn test on ``other``'s Cd: "selon un Cd
    supérieur d'un personnage se trouvant à moins de 4 pas de lui" (Fin du tour). With
    both Cds given, a higher Cd; without them, a higher rank stands for it."""
    own, theirs = command_of(figure), command_of(other)
    if own is not None and theirs is not None:
        return theirs > own
    rank, own_rank = rank_index(other), rank_index(figure)
    return rank is not None and (own_rank is None or rank > own_rank)
