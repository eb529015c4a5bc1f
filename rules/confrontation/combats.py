"""Confrontation's combats: the melees' splits, each figure's combat dice and the initiative."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

from arbitre.rules.answers import Reason, Said, counted, warning_lines
from arbitre.rules.confrontation.answers import DiceAnswer, InitiativeAnswer, MeleesAnswer
from arbitre.rules.confrontation.contacts import doubtful_contacts
from arbitre.rules.confrontation.dice import (
    check_die,
    dice_of_split,
    ini_of,
    initiative_odds,
    initiative_score,
)
from arbitre.rules.confrontation.melees import combat_of_figure, find_melees, in_melee, melee_of
from arbitre.rules.confrontation.options import Partition
from arbitre.rules.confrontation.reasons import reason_words
from arbitre.rules.model import Figure, Scene
from arbitre.rules.options import Die
from arbitre.rules.ruleset import figure_named

A = TypeVar("A")


def melees_answer(scene: Scene) -> MeleesAnswer:
    """Every legal split of the melees on the table, and the one proposed."""
    melees = find_melees(scene)
    lines = []
    for melee in melees:
        head = ", ".join(melee.figures)
        if not melee.partitions:
            lines.append(f"melee {head}: {melee.reason}")
            continue
        more = "+" if melee.truncated else ""
        proposal = "; ".join(_combat_words(c) for c in melee.proposal or ())
        ways = "way" if len(melee.partitions) == 1 and not more else "ways"
        lines.append(
            f"melee {head}: {len(melee.partitions)}{more} {ways} to split; proposed: {proposal}"
            + (f" ({melee.reason})" if melee.exhausted else "")
        )
    text = counted(len(melees), "melee") + "".join(f"\n{line}" for line in lines)
    notes = doubtful_contacts(scene)
    return MeleesAnswer(
        question="melees",
        message=text + warning_lines(notes),
        melees=melees,
        truncated=any(m.truncated for m in melees),
        warnings=notes,
    )


@dataclass(frozen=True, slots=True)
class CombatOf:
    """A figure's combat as a question finds it: ``combat`` (its lone figure first), the
    split's ``index`` and whether it is the proposal; when it has none, the ``reasons``
    and ``none`` (why, in words); ``notes``, the doubtful contacts of its melee."""

    figure: Figure
    combat: tuple[str, ...] | None
    index: int | None
    from_proposal: bool
    notes: tuple[Said, ...]
    reasons: tuple[Reason, ...] = ()
    none: str = ""

    def missing(self, kind: Callable[..., A], question: str, a: str, what: str = "combat") -> A:
        """The answer of a question about A's combat when A has none: why, as ``kind``."""
        return kind(
            question=question,
            message=f"{self.none}: no {what}" + warning_lines(self.notes),
            figure=a,
            reasons=self.reasons,
            warnings=self.notes,
        )


def combat_of(scene: Scene, a: str, partition: int | None) -> CombatOf:
    """The combat of A in split ``partition`` of its melee (the proposal by default)."""
    figure = figure_named(scene, a)
    found = combat_of_figure(scene, figure.id, partition)
    notes = doubtful_contacts(scene, melee_of(scene, figure.id))
    if found is not None:
        return CombatOf(figure, *found, notes)
    if in_melee(scene, figure.id):
        return CombatOf(
            figure, None, None, False, notes, (), f"the melee of {a} {_unsplit(scene, figure.id)}"
        )
    why = (Reason.NOT_IN_CONTACT,)
    return CombatOf(figure, None, None, False, notes, why, f"{a} is {reason_words(why)}")


def dice_answer(scene: Scene, a: str, partition: Partition | None = None) -> DiceAnswer:
    """The combat dice of A in a split of its melee (the proposed one by default)."""
    found = combat_of(scene, a, partition)
    figure, notes = found.figure, found.notes
    if found.combat is None:
        return found.missing(DiceAnswer, "dice", a, "combat dice")
    combat, index, from_proposal = found.combat, found.index, found.from_proposal
    dice = dice_of_split([combat])
    opponents = _opponents(combat, figure.id)
    where = "the proposed split" if from_proposal else f"split {index}"
    return DiceAnswer(
        question="dice",
        message=f"{a} rolls {dice[figure.id]} combat dice (1 + {len(opponents)} "
        f"{'opponent' if len(opponents) == 1 else 'opponents'}: {', '.join(opponents)}) in {where}"
        + warning_lines(notes),
        figure=a,
        dice=dice[figure.id],
        opponents=opponents,
        combat=combat,
        partition=index,
        from_proposal=from_proposal,
        dice_by_figure=dice,
        warnings=notes,
    )


def initiative_answer(
    scene: Scene,
    a: str,
    partition: Partition | None = None,
    die: Die | None = None,
    opponent_die: Die | None = None,
) -> InitiativeAnswer:
    """The initiative of the combat of A: each camp's roller and score, the odds or the winner."""
    found = combat_of(scene, a, partition)
    figure, notes = found.figure, found.notes
    if found.combat is None:
        return found.missing(InitiativeAnswer, "initiative", a)
    combat, index = found.combat, found.index
    members = [figure_named(scene, ident) for ident in combat]
    own = [f for f in members if not scene.are_enemies(figure.side, f.side)]
    other = [f for f in members if scene.are_enemies(figure.side, f.side)]
    camps: dict[str, dict[str, Any]] = {}
    for key, camp, roll in (("own", own, die), ("opponents", other, opponent_die)):
        best = max(camp, key=lambda f: (ini_of(f), -combat.index(f.id)))
        score = initiative_score(ini_of(best), len(camp))
        entry: dict[str, Any] = {
            "figures": [f.id for f in camp],
            "roller": best.id,
            "ini": ini_of(best),
            "bonus": len(camp) - 1,
            "score": score,
        }
        if roll is not None:
            check_die(roll)
            entry["die"] = roll
            entry["total"] = score + roll
        camps[key] = entry
    odds = initiative_odds(camps["own"]["score"], camps["opponents"]["score"])
    winner: str | None = None
    own_camp, their_camp = camps["own"], camps["opponents"]
    if "total" in own_camp and "total" in their_camp:
        if own_camp["total"] != their_camp["total"]:
            winner = "own" if own_camp["total"] > their_camp["total"] else "opponents"
            text = (
                f"{'the camp of ' + a if winner == 'own' else 'the opponents of ' + a} "
                f"win the initiative {max(own_camp['total'], their_camp['total'])} "
                f"to {min(own_camp['total'], their_camp['total'])}"
            )
        else:
            winner = "tie"
            text = f"initiative tied at {own_camp['total']}"
    else:
        text = (
            f"initiative of {a}'s camp: {own_camp['roller']} INI {own_camp['ini']} "
            f"+ {own_camp['bonus']} + 1D6 against {their_camp['roller']} INI "
            f"{their_camp['ini']} + {their_camp['bonus']} + 1D6; "
            f"wins {odds['win']}/36, ties {odds['tie']}/36"
        )
    return InitiativeAnswer(
        question="initiative",
        message=text + warning_lines(notes),
        figure=a,
        combat=combat,
        partition=index,
        camps=camps,
        winner=winner,
        odds=odds,
        warnings=notes,
    )


def _unsplit(scene: Scene, figure_id: str) -> str:
    """Why the melee of a figure gives it no combat: no legal split, or none found."""
    for melee in find_melees(scene):
        if figure_id in melee.figures and melee.exhausted:
            return f"was not split ({melee.reason})"
    return "has no legal split"


def _opponents(combat: Sequence[str], figure_id: str) -> tuple[str, ...]:
    centre, *others = combat
    return tuple(others) if figure_id == centre else (centre,)


def _combat_words(combat: Sequence[str]) -> str:
    centre, *others = combat
    return f"{centre} vs {' + '.join(others)}"
