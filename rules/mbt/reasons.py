"""The words of MBT's reason codes in its English sentences.

The JSON answers keep the codes (``reasons``); a sentence says them in words (French
words come from the page's and the command line's shared catalogue).
"""

from __future__ import annotations

from collections.abc import Iterable

from arbitre.rules.answers import Reason, in_words

REASON_WORDS = {
    Reason.TARGET_NOT_ENEMY: "the target is not an enemy",
    Reason.NO_SHOOTERS: "not an archer, slinger or chariot",
    Reason.OUT_OF_RANGE: "out of range",
    Reason.NOT_IN_ARC: "outside the arc of fire",
    Reason.NOT_IN_CONTACT: "not in contact",
    Reason.NOT_FACE_TO_FACE: "not face to face",
    Reason.OFF_TABLE: "the destination is off the table",
    Reason.IMPASSABLE: "the destination is on impassable ground",
    Reason.DESTINATION_OCCUPIED: "the destination is occupied",
    Reason.PATH_BLOCKED: "the way is blocked",
    Reason.OVER_ALLOWANCE: "over the allowance",
}


def reason_words(reasons: Iterable[Reason]) -> str:
    """The reasons in words, for a sentence.

    >>> reason_words([Reason.NO_SHOOTERS, Reason.OUT_OF_RANGE])
    'not an archer, slinger or chariot, out of range'
    """
    return in_words(reasons, REASON_WORDS)
