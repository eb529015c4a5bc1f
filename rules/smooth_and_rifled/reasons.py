"""The words of Smooth & Rifled's reason codes in its English sentences.

The JSON answers keep the codes (``reasons``); a sentence says them in words (French
words come from the page's and the command line's shared catalogue).
"""

from __future__ import annotations

from collections.abc import Iterable

from arbitre.rules.answers import Reason, in_words

REASON_WORDS = {
    Reason.OUT_OF_RANGE: "out of range",
    Reason.NO_SHOOTERS: "no figure with a weapon to shoot",
    Reason.TARGET_NOT_ENEMY: "the target is not an enemy",
    Reason.LINE_BLOCKED: "the line of fire is blocked",
    Reason.NOT_IN_ARC: "outside the arc",
    Reason.NOT_VISIBLE: "the target cannot be seen",
    Reason.OVER_ALLOWANCE: "over the allowance",
    Reason.PATH_BLOCKED: "the way is blocked",
    Reason.OBSTACLE_CROSSING: "crosses an obstacle",
    Reason.DESTINATION_OCCUPIED: "the destination is occupied",
    Reason.IMPASSABLE: "the destination is on impassable ground",
    Reason.OFF_TABLE: "the destination is off the table",
    Reason.CHARGE_SHORT: "the charge falls short",
    Reason.BACKWARDS_TOO_FAR: "too far backwards",
    Reason.NO_SAVE: "no save",
    Reason.STANDARD_SHAKEN: "the standard-bearer is shaken",
    Reason.TOO_FEW_NEAR: "too few companions near",
    Reason.NO_FRIEND_NEAR: "no friend near",
    Reason.ENEMY_NEAR: "an enemy is near",
    Reason.TOO_EARLY: "too early in the game",
    Reason.OUTSIDE_ZONE: "outside the deployment zone",
    Reason.CREW_TOO_FAR: "the crew is too far",
    Reason.AMMUNITION_TOO_FAR: "the ammunition is too far",
    Reason.MUST_CLOSE_ORDER: "in loose order, it must close order first",
    Reason.SKIRMISHERS_NO_GROUP_CHARGE: "skirmishers never charge as a group",
    Reason.NOT_AT_OBSTACLE: "not standing before an obstacle it crosses",
    Reason.CROSSING_DEFENDED: "an enemy stands near where it crosses the fortified position",
    Reason.SHAKEN: "shaken, it takes no action",
}


def reason_words(reasons: Iterable[Reason]) -> str:
    """The reasons in words, for a sentence.

    >>> reason_words([Reason.OBSTACLE_CROSSING, Reason.OVER_ALLOWANCE])
    'crosses an obstacle, over the allowance'
    """
    return in_words(reasons, REASON_WORDS)
