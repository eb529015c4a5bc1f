"""When a figure must take a command test of the Actions Passives ("Subir un tir", "Subir
une charge", "Envie de charger", "Apercevoir l'ennemi"), on how many dice, and the Cd it
must roll under; :mod:`~arbitre.rules.musg.reactions` says where a failed test sends it."""

from __future__ import annotations

from typing import Any

from arbitre.rules.answers import Reason, Said, counted, with_certainty
from arbitre.rules.errors import QuestionError
from arbitre.rules.model import Figure, Scene, sigma_between
from arbitre.rules.musg.answers import CommandTestsAnswer
from arbitre.rules.musg.bases import command_of, rank_index, weapon_of
from arbitre.rules.musg.book import NUMBERS, RANKS, TESTS
from arbitre.rules.musg.options import options_of
from arbitre.rules.musg.sight import line_of_sight
from arbitre.rules.musg.support import allies_near
from arbitre.rules.ruleset import figure_named

KEPT_MARGINS = 3

WHEN = {
    "under_fire": "when {other} shoots it",
    "under_charge": "when {other} charges it",
    "urge_to_charge": "to charge {other}",
    "spotting": "the first time it sees {other}",
}
"""When each test is taken, in words."""


def outranks(high: Figure, low: Figure) -> bool | None:
    """Whether ``high`` is "d'un meilleur niveau" than ``low`` (`RANKS`, from the lowest);
    None when a rank is missing and the other does not settle it (no one outranks a
    chief; an extra outranks no one).

    >>> chief, extra = (Figure(r, "x", 0, 0, attrs={"rank": r}) for r in ("chief", "extra"))
    >>> outranks(chief, extra), outranks(extra, chief), outranks(Figure("n", "x", 0, 0), chief)
    (True, False, False)
    """
    top, bottom = rank_index(high), rank_index(low)
    if top is not None and bottom is not None:
        return top > bottom
    if top == 0 or bottom == len(RANKS) - 1:
        return False
    return None


def _stronger_fire(figure: Figure, shooter: Figure) -> tuple[bool | None, dict[str, Any]]:
    """Whether ``figure`` must test under ``shooter``'s fire: "Si un personnage se fait
    tirer dessus par une arme qui possède une force plus grande que la sienne (ou s'il ne
    possède pas d'arme de tir)": the shooter's weapon stronger than its own, or it has
    none. A shooter without a weapon shoots at no one."""
    shot_with, own = weapon_of(shooter), weapon_of(figure)
    fields: dict[str, Any] = {
        "strength": None if shot_with is None else shot_with.strength,
        "own_strength": None if own is None else own.strength,
        "armed": own is not None,
    }
    if shot_with is None:
        return False, fields
    if own is None:
        return True, fields
    if shot_with.strength is None or own.strength is None:
        return None, fields
    return shot_with.strength > own.strength, fields


def tests_answer(scene: Scene, a: str, b: str) -> CommandTestsAnswer:
    """The command tests A takes facing B, and on what it must roll.

    "Subir un tir": B shoots A with a stronger weapon than A's, or A has none. "Subir une
    charge": B, of a better rank, charges A. "Envie de charger": A wants to charge B, of a
    better rank. "Apercevoir l'ennemi": B, of a better rank, comes into A's sight (the
    first time in the game). "Lors du test, le personnage gagne +1 à son commandement par
    allié présent à moins de 3 pas de lui": the roll must be at most Cd + allies.
    """
    options = options_of(scene)
    figure, other = figure_named(scene, a), figure_named(scene, b)
    if figure.id == other.id:
        raise QuestionError(f"{a!r} and {b!r} are the same figure")
    enemies = scene.are_enemies(figure.side, other.side)
    reasons = () if enemies else (Reason.TARGET_NOT_ENEMY,)
    allies, margins = allies_near(scene, figure)
    command = command_of(figure)
    threshold = None if command is None else command + len(allies)
    ranks = {"rank": figure.attrs.get("rank"), "other_rank": other.attrs.get("rank")}
    above = outranks(other, figure)
    fire_due, fire_fields = _stronger_fire(figure, other)
    sight = line_of_sight(scene, figure, other, options)
    in_sight = not sight.blocked
    if above is not False and not in_sight:  # how far the blockers reach past B's sides
        margins.append(sight.margin(sigma_between(figure, other)))
    dues: dict[str, tuple[bool | None, dict[str, Any]]] = {
        "under_fire": (fire_due, fire_fields),
        "under_charge": (above, ranks),
        "urge_to_charge": (above, ranks),
        "spotting": (
            None if above is None and in_sight else bool(above) and in_sight,
            {**ranks, "in_sight": in_sight},
        ),
    }
    dice = dict(NUMBERS.test_dice, under_fire=options.under_fire_dice)
    tests = tuple(
        {
            "test": code,
            "book": TESTS[code],
            "due": due if enemies else False,
            "dice": dice[code],
            "threshold": threshold,
            **fields,
        }
        for code, (due, fields) in dues.items()
    )
    warnings = _missing(a, b, tests, command) if enemies else []
    kept = tuple(sorted(margins, key=lambda m: m.margin_mm)[:KEPT_MARGINS])
    text = _tests_text(a, b, tests, command, allies, reasons)
    return CommandTestsAnswer(
        question="tests",
        message=with_certainty(text, *kept),
        margins=kept,
        figure=a,
        other=b,
        reasons=reasons,
        command=command,
        allies=allies,
        cd_bonus=len(allies),
        tests=tests,
        warnings=tuple(warnings),
    )


def urge_to_charge_notes(figure: Figure, target: Figure) -> list[str]:
    """What the rules say when « Envie de charger » is not due: "s'il s'agit d'un
    personnage d'un meilleur niveau, il faut faire le test" (the same check as ``tests``)."""
    above = outranks(target, figure)
    if above is None:
        return [_give_ranks(figure.id, target.id)]
    if above:
        return []
    return [
        Said(
            "urge_not_due",
            "{other} does not outrank {figure}: « Envie de charger » is due only against a "
            "better rank, so {figure} may charge {other} without the test",
            figure=figure.id,
            other=target.id,
        )
    ]


def _give_ranks(a: str, b: str) -> Said:
    return Said(
        "give_ranks",
        "give the ranks of {figure} and {other} (attrs.rank) to know whether the "
        "rank tests are due",
        figure=a,
        other=b,
    )


def _missing(a: str, b: str, tests: tuple[dict[str, Any], ...], command: int | None) -> list[str]:
    """What the scene must give for the tests to be settled."""
    said: list[str] = []
    if any(t["due"] is None for t in tests if t["test"] == "under_fire"):
        said.append(
            Said(
                "give_strengths",
                "give both weapons' strength (weapon.strength) to know whether {figure} "
                "tests under {other}'s fire",
                figure=a,
                other=b,
            )
        )
    if any(t["due"] is None for t in tests if t["test"] != "under_fire"):
        said.append(_give_ranks(a, b))
    if command is None and any(t["due"] is not False for t in tests):
        said.append(
            Said(
                "give_command",
                "give {figure}'s Cd (attrs.command) to know what the test must roll under",
                figure=a,
            )
        )
    return said


def _tests_text(
    a: str,
    b: str,
    tests: tuple[dict[str, Any], ...],
    command: int | None,
    allies: tuple[str, ...],
    reasons: tuple[Reason, ...],
) -> str:
    if reasons:
        return f"{a} takes no test facing {b}: {b} is not an enemy"
    due = [t for t in tests if t["due"] is True]
    unsettled = [t for t in tests if t["due"] is None]
    if not due and not unsettled:
        return f"{a} takes no test facing {b}"

    def listed(chosen: list[dict[str, Any]]) -> str:
        return ", ".join(
            f"« {t['book']} » on {t['dice']}D6 " + WHEN[t["test"]].format(other=b) for t in chosen
        )

    parts = []
    if due:
        parts.append(f"{a} must test {listed(due)}")
    if unsettled:
        parts.append(f"{a} may have to test {listed(unsettled)} (the scene does not say)")
    fire = tests[0]
    if fire["due"]:
        parts.append(
            f"{a} has no ranged weapon"
            if not fire["armed"]
            else f"{b}'s weapon is stronger ({fire['strength']} > {fire['own_strength']})"
        )
    ranked = tests[1]
    if ranked["due"]:
        parts.append(f"{b} ({ranked['other_rank']}) outranks {a} ({ranked['rank']})")
    if command is not None:
        parts.append(
            f"each passes on a roll at most {command + len(allies)} (Cd {command} + "
            f"{counted(len(allies), 'ally', 'allies')} within 3 paces)"
        )
    return "; ".join(parts)
