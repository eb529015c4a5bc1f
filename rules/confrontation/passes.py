"""Passes of arms: who attacks whom, pass after pass, once the combat dice are placed.

"Une passe d'armes représente le temps nécessaire à un combattant pour effectuer une
attaque contre chacun des adversaires impliqués dans le même combat que lui." (§7,
Résoudre une Passe d'Arme) In a duel each fighter with an attack die left attacks once a
pass; one against several, each of the several attacks the lone figure once a pass, and
the lone figure attacks each of them once, as far as its attack dice go ("Un combattant
ne peut pas attaquer deux fois le même adversaire au cours d'une passe d'armes"). Passes
follow one another "jusqu'à ce que plus aucun combattant n'ait de dé d'attaque ou que
tous les combattants d'un des deux camps soient éliminés".
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Literal

from arbitre.rules.answers import Said, counted, warning_lines
from arbitre.rules.confrontation.answers import PassesAnswer
from arbitre.rules.confrontation.combats import combat_of
from arbitre.rules.confrontation.dice import dice_of_split
from arbitre.rules.confrontation.options import AttackDice, Partition
from arbitre.rules.errors import QuestionError
from arbitre.rules.model import Scene
from arbitre.rules.ruleset import figure_named


def attack_dice_of(
    combat: Sequence[str], dice: Mapping[str, int], attack: Mapping[str, int] | None
) -> dict[str, int]:
    """Each fighter's attack dice: as ``attack`` gives them, every combat die for a fighter
    it leaves out; `QuestionError` for a figure not in the combat or more dice than it has.

    >>> attack_dice_of(["nain", "bushi"], {"nain": 2, "bushi": 2}, {"bushi": 1})
    {'nain': 2, 'bushi': 1}
    """
    given = dict(attack or {})
    for ident, count in given.items():
        if ident not in dice:
            raise QuestionError(f"attack: {ident!r} is not in this combat ({', '.join(combat)})")
        if count > dice[ident]:
            raise QuestionError(
                f"attack: {ident!r} has {dice[ident]} combat dice, got {count} attack dice"
            )
    return {ident: given.get(ident, dice[ident]) for ident in combat}


def passes_of(
    combat: Sequence[str], attack: Mapping[str, int], first: Sequence[str] = ()
) -> list[list[dict[str, Any]]]:
    """The passes of arms of a combat (lone figure first, then its opponents): in each,
    every fighter with attack dice left, its attacks and the opponents it may aim at (when
    it has fewer attacks than those, its player chooses which); the fighters of ``first``
    (the camp that won the initiative) attack first.

    >>> [[(a["attacker"], a["attacks"]) for a in p] for p in passes_of(
    ...     ["nain", "bushi", "ashigaru"], {"nain": 3, "bushi": 2, "ashigaru": 1})]
    [[('nain', 2), ('bushi', 1), ('ashigaru', 1)], [('nain', 1), ('bushi', 1)]]
    """
    centre, *others = combat
    left = dict(attack)
    order = sorted(combat, key=lambda ident: ident not in first)
    passes: list[list[dict[str, Any]]] = []
    while any(left[ident] > 0 for ident in combat):
        this_pass: list[dict[str, Any]] = []
        for ident in order:
            targets = list(others) if ident == centre else [centre]
            attacks = min(left[ident], len(targets))
            if attacks == 0:
                continue
            left[ident] -= attacks
            this_pass.append(
                {
                    "attacker": ident,
                    "attacks": attacks,
                    "targets": targets,
                    "choose": attacks < len(targets),
                }
            )
        passes.append(this_pass)
    return passes


def passes_answer(
    scene: Scene,
    a: str,
    attack: AttackDice | None = None,
    first: Literal["own", "opponents"] | None = None,
    partition: Partition | None = None,
) -> PassesAnswer:
    """The passes of arms of the combat of A, its fighters' attack dice placed (``attack``;
    a fighter it leaves out, and every fighter without it, attacks with all its dice);
    ``first``: the camp that won the initiative, A's (``own``) or its opponents'."""
    found = combat_of(scene, a, partition)
    figure, notes = found.figure, found.notes
    if found.combat is None:
        return found.missing(PassesAnswer, "passes", a)
    combat, index = found.combat, found.index
    dice = dice_of_split([combat])
    attacks = attack_dice_of(combat, dice, attack)
    own = [i for i in combat if not scene.are_enemies(figure.side, figure_named(scene, i).side)]
    leading = {"own": own, "opponents": [i for i in combat if i not in own], None: []}[first]
    passes = passes_of(combat, attacks, leading)
    warnings: list[str] = list(notes)
    if attack is None:
        warnings.append(
            Said(
                "every_die_attacks",
                "every combat die counted as an attack die: give attack (each fighter's "
                "attack dice) once they are placed",
            )
        )
    text = _passes_text(passes, combat[0], leading, first is None)
    return PassesAnswer(
        question="passes",
        message=text + warning_lines(warnings),
        figure=a,
        combat=combat,
        partition=index,
        dice_by_figure=dice,
        attack_dice=attacks,
        defence_dice={ident: dice[ident] - attacks[ident] for ident in combat},
        passes=tuple(tuple(one) for one in passes),
        count=len(passes),
        first=first,
        warnings=tuple(warnings),
    )


def _passes_text(
    passes: Sequence[Sequence[Mapping[str, Any]]],
    centre: str,
    leading: Sequence[str],
    unordered: bool,
) -> str:
    """The passes in words; with no camp known to lead (``unordered``), each pass shows the
    lone figure's attacks and its opponents' apart (" | "), in no order."""
    if not passes:
        return "no pass of arms: no fighter has an attack die (every combat die in defence)"

    def line(one: Sequence[Mapping[str, Any]]) -> str:
        if not unordered:
            return ", ".join(_attack_words(entry) for entry in one)
        camps = (
            [e for e in one if e["attacker"] == centre],
            [e for e in one if e["attacker"] != centre],
        )
        return " | ".join(", ".join(_attack_words(e) for e in camp) for camp in camps if camp)

    if unordered:
        leads = (
            "the camp that won the initiative attacks first in each (below, the two camps "
            "apart by '|', in no order: give first, own or opponents, to order them)"
        )
    else:
        leads = ", ".join(leading) + (" attack" if len(leading) > 1 else " attacks")
        leads += " first in each"
    return (
        f"{counted(len(passes), 'pass', 'passes')} of arms at most (fewer if a camp is wiped "
        f"out); {leads}" + "".join(f"\npass {k}: {line(one)}" for k, one in enumerate(passes, 1))
    )


def _attack_words(entry: Mapping[str, Any]) -> str:
    targets = entry["targets"]
    if entry["choose"]:
        return f"{entry['attacker']} {entry['attacks']} of {' / '.join(targets)}"
    return f"{entry['attacker']} on {' + '.join(targets)}"
