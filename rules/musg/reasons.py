"""The words of M.U.S.G.'s reason codes in its English sentences.

The JSON answers keep the codes (``reasons``); a sentence says them in words (French
words come from the page's and the command line's shared catalogue). A refused move
names what some reasons are about after their words ("the destination overlaps b1").
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from arbitre.rules.answers import Reason

REASON_WORDS = {
    Reason.TARGET_NOT_ENEMY: "the target is not an enemy",
    Reason.NO_SHOOTERS: "the shooter has no ranged weapon (attrs.weapon)",
    Reason.TARGET_ENGAGED: "the target is engaged in melee with a friend",
    Reason.OUT_OF_RANGE: "out of range",
    Reason.NOT_VISIBLE: "the target cannot be seen",
    Reason.OFF_TABLE: "the destination is off the table",
    Reason.IMPASSABLE: "the destination is on impassable ground",
    Reason.DESTINATION_OCCUPIED: "the destination overlaps",
    Reason.PATH_BLOCKED: "the way is blocked",
    Reason.OVER_ALLOWANCE: "too far",
    Reason.CHARGE_SHORT: "the charge ends out of contact",
    Reason.NOT_IN_CONTACT: "not engaged in a melee",
    Reason.TOO_FEW_ACTION_POINTS: "too few action points left (a run costs 2 PA)",
}


def reason_words(reasons: Iterable[Reason], about: Mapping[Reason, str] | None = None) -> str:
    """The reasons in words, for a sentence, each followed by what ``about`` adds to it.

    >>> reason_words([Reason.OUT_OF_RANGE, Reason.NOT_VISIBLE])
    'out of range; the target cannot be seen'
    >>> reason_words([Reason.DESTINATION_OCCUPIED], {Reason.DESTINATION_OCCUPIED: " b1"})
    'the destination overlaps b1'
    """
    added = about or {}
    return "; ".join(REASON_WORDS[reason] + added.get(reason, "") for reason in reasons)
