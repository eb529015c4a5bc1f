"""The words of Choc Base 6's reason codes in its English sentences.

The JSON answers keep the codes (``reasons``); a sentence says them in words (French
words come from the page's and the command line's shared catalogue). A neutral-surface
refusal names what it is about after some of its words ("the line of fire crosses the
wood"), hence its own few.
"""

from __future__ import annotations

from collections.abc import Iterable

from arbitre.rules.answers import Reason, in_words

REASON_WORDS = {
    Reason.NOT_IN_GRID: "off the grid",
    Reason.TARGET_NOT_ENEMY: "the target is not an enemy",
    Reason.NO_SHOOTERS: "no TD figure in the group",
    Reason.IN_CONTACT_WITH_ENEMY: "the shooters are in contact with an enemy group",
    Reason.TARGET_IN_CONTACT: "the target is in contact with an enemy group",
    Reason.OUT_OF_RANGE: "out of range",
    Reason.LINE_BLOCKED: "no clear line of fire",
    Reason.NO_REFERENCE: "no reference figure to measure from",
    Reason.OFF_TABLE: "the destination is off the table",
    Reason.IMPASSABLE: "the destination is on impassable ground",
    Reason.DESTINATION_OCCUPIED: "the destination is occupied",
    Reason.PATH_BLOCKED: "the way is blocked",
    Reason.OVER_ALLOWANCE: "too far",
    Reason.NOT_FRIENDLY: "they are not friends",
    Reason.NOT_IN_CONTACT: "they are not in contact",
    Reason.TOO_MANY_FIGURES: "too many figures",
}

NEUTRAL_REASON_WORDS = {
    **REASON_WORDS,
    Reason.LINE_BLOCKED: "the line of fire crosses",
    Reason.DESTINATION_OCCUPIED: "the destination overlaps",
    Reason.NO_REFERENCE: "no reference figure to measure from in",
}
"""The neutral surface's words, each followed by the names it is about where it needs them."""


def reason_words(reasons: Iterable[Reason]) -> str:
    """The reasons in words, for a sentence.

    >>> reason_words([Reason.OUT_OF_RANGE, Reason.LINE_BLOCKED])
    'out of range, no clear line of fire'
    """
    return in_words(reasons, REASON_WORDS)
