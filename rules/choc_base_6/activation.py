"""Turn order (rule book §3) and regrouping two friendly groups (§4.2), on any surface.

Each surface finds its own groups and says whether two of them are in contact;
the counting, the tie-break and the six-figure limit are the same everywhere.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Protocol

from arbitre.rules.answers import Answer, Checked, Margin, Reason, warning_lines, with_certainty
from arbitre.rules.choc_base_6.book import NUMBERS
from arbitre.rules.errors import QuestionError
from arbitre.rules.model import Figure


class SidedGroup(Protocol):
    """What turn order and regrouping need of a group: its name, side and figures."""

    @property
    def name(self) -> str: ...

    @property
    def side(self) -> str: ...

    @property
    def figures(self) -> tuple[Figure, ...]: ...


# --- turn order (§3) -----------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class TurnOrderAnswer(Answer):
    """Who activates a group first this turn: the side with the most groups."""

    counts: dict[str, int] = field(default_factory=dict)
    order: tuple[str, ...] = ()
    first: str | None = None
    ties: tuple[tuple[str, ...], ...] = ()
    dice: dict[str, int] = field(default_factory=dict)
    warnings: tuple[str, ...] = ()


def parse_dice(dice: Mapping[str, object] | str | None, sides: Sequence[str]) -> dict[str, int]:
    """The roll-off dice, ``{side: die}`` or ``"side:die,side:die"``.

    >>> parse_dice("blue:5,red:2", ["blue", "red"])
    {'blue': 5, 'red': 2}
    """
    if dice is None:
        return {}
    if isinstance(dice, str):
        pairs: dict[str, object] = {}
        for item in dice.split(","):
            name, colon, value = item.strip().partition(":")
            if not colon:
                raise QuestionError(f"dice takes SIDE:DIE,SIDE:DIE, got {dice!r}")
            pairs[name.strip()] = value.strip()
        dice = pairs
    if not isinstance(dice, Mapping):
        raise QuestionError(f"dice takes SIDE:DIE,SIDE:DIE, got {dice!r}")
    rolled: dict[str, int] = {}
    for side, roll in dice.items():
        if side not in sides:
            raise QuestionError(f"dice: unknown side {side!r} (sides: {', '.join(sides)})")
        try:
            die = int(str(roll))
        except ValueError:
            raise QuestionError(f"dice: {side} rolled {roll!r}, not a number") from None
        if not 1 <= die <= NUMBERS.die_faces:
            raise QuestionError(f"a die shows 1 to {NUMBERS.die_faces}, got {side}:{die}")
        rolled[str(side)] = die
    return rolled


def turn_order_answer(
    groups: Sequence[SidedGroup],
    dice: Mapping[str, object] | str | None = None,
    warnings: Sequence[str] = (),
) -> TurnOrderAnswer:
    """The order of play for the turn (§3): most groups first, ties by 1D6.

    Sides with as many groups roll 1D6 each (``dice``); the highest roll plays
    first. Without the dice, with a die missing for one of the tied sides, or when
    they are equal again, the tie stays open.
    """
    counts: dict[str, int] = {}
    for group in groups:
        counts[group.side] = counts.get(group.side, 0) + 1
    sides = sorted(counts)
    rolled = parse_dice(dice, sides)
    by_count: dict[int, list[str]] = {}
    for side in sides:
        by_count.setdefault(counts[side], []).append(side)
    order: list[str] = []
    ties: list[tuple[str, ...]] = []
    undecided: dict[tuple[str, ...], tuple[str, ...]] = {}
    rolls: list[str] = []
    for count in sorted(by_count, reverse=True):
        tied = by_count[count]
        if len(tied) == 1:
            order.extend(tied)
            continue
        missing = tuple(s for s in tied if s not in rolled)
        if missing:
            # A side without a die might roll above every other: the whole tie stays open.
            order.extend(tied)
            ties.append(tuple(tied))
            undecided[tuple(tied)] = missing
            continue
        # Every side rolled: the higher die plays first, equal dice stay tied.
        ranked = sorted(tied, key=lambda s: (-rolled[s], s))
        order.extend(ranked)
        rolls.append(", ".join(f"{s} {rolled[s]}" for s in ranked))
        for value in sorted({rolled[s] for s in ranked}, reverse=True):
            same = tuple(s for s in ranked if rolled[s] == value)
            if len(same) > 1:
                ties.append(same)
    open_sides = {s for tie in ties for s in tie}
    first = order[0] if order and order[0] not in open_sides else None
    listing = ", ".join(f"{s} ({counts[s]} group{'s' if counts[s] > 1 else ''})" for s in order)
    lines = [f"turn order: {listing}"] + [f"1D6 rolled: {r}" for r in rolls]
    for tie in ties:
        names = " and ".join(tie)
        example = ",".join(f"{s}:{rolled[s] if s in rolled else 'N'}" for s in tie)
        if tie in undecided:
            lines.append(
                f"{names} have as many groups: roll 1D6 (--with dice={example})"
                + _no_die_yet(tie, undecided[tie])
            )
        else:
            lines.append(f"{names} rolled {rolled[tie[0]]} each: roll 1D6 again")
    if first is not None:
        lines.append(f"{first} plays first")
    return TurnOrderAnswer(
        question="turn-order",
        message="; ".join(lines) + warning_lines(warnings),
        counts={s: counts[s] for s in order},
        order=tuple(order),
        first=first,
        ties=tuple(ties),
        dice=rolled,
        warnings=tuple(warnings),
    )


def _no_die_yet(tie: tuple[str, ...], missing: tuple[str, ...]) -> str:
    """Which sides of a partly rolled tie still need their die, or nothing when none rolled."""
    if len(missing) == len(tie):
        return ""
    return f"; no die for {' and '.join(missing)}, so the tie stays open"


# --- regrouping (§4.2) ---------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class RegroupAnswer(Checked):
    """May two friendly groups regroup: exchange figures, and merge into one group."""

    a: str = ""
    b: str = ""
    allowed: bool = False
    transfer: bool = False
    reasons: tuple[Reason, ...] = ()
    figures: int = 0
    manager: str | None = None
    warnings: tuple[str, ...] = ()


_REGROUP_TEXT = {
    Reason.NO_REFERENCE: "no reference figure to measure contact from",
    Reason.NOT_FRIENDLY: "they are not friends",
    Reason.NOT_IN_CONTACT: "they are not in contact",
    Reason.IN_CONTACT_WITH_ENEMY: "in contact with an enemy group",
    Reason.TOO_MANY_FIGURES: "too many figures",
}


def regroup_answer(
    first: SidedGroup,
    second: SidedGroup,
    found: Sequence[tuple[Reason, str]],
    margins: Sequence[Margin],
    warnings: Sequence[str] = (),
    manager: str | None = None,
) -> RegroupAnswer:
    """The verdict on regrouping ``first`` and ``second`` (§4.2).

    ``found`` holds what the surface found against it, each reason with the
    detail to show (which group touches an enemy, how far apart they are).
    Figures may be exchanged when nothing was found; the groups may merge when,
    besides, they hold six figures at most together.
    """
    sides = (first.side, second.side)
    notes = list(warnings)
    if manager is not None and manager not in sides:
        raise QuestionError(f"manager must be {' or '.join(dict.fromkeys(sides))}, got {manager!r}")
    if first.side == second.side:
        manager = first.side
    elif manager is None and Reason.NOT_FRIENDLY not in (r for r, _ in found):
        notes.append(
            f"{first.side} and {second.side} are allies: say which player manages the "
            "group(s) that result, they count for that player next turn (--with manager=SIDE)"
        )
    reasons = list(dict.fromkeys(reason for reason, _ in found))
    because = [f"{_REGROUP_TEXT[reason]}{detail}" for reason, detail in found]
    transfer = not reasons
    total = len(first.figures) + len(second.figures)
    if total > NUMBERS.max_group_size:
        reasons.append(Reason.TOO_MANY_FIGURES)
        because.append(f"{total} figures together, at most {NUMBERS.max_group_size}")
    allowed = not reasons
    pair = f"{first.name} and {second.name}"
    if allowed:
        text = (
            f"{pair} may merge ({total} figures) or exchange figures; "
            "both then end their activation"
        )
    elif transfer:
        text = (
            f"{pair} may not merge ({'; '.join(because)}) but may exchange figures; "
            "both then end their activation"
        )
    else:
        text = f"{pair} may not regroup: {'; '.join(because)}"
    return RegroupAnswer(
        question="regroup",
        message=with_certainty(text, *margins) + warning_lines(notes),
        margins=tuple(margins),
        a=first.name,
        b=second.name,
        allowed=allowed,
        transfer=transfer,
        reasons=tuple(reasons),
        figures=total,
        manager=manager,
        warnings=tuple(notes),
    )
