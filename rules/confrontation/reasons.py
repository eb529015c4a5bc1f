"""The words of Confrontation's reason codes in its English sentences.

The JSON answers keep the codes (``reasons``); a sentence says them in words (French
words come from the page's and the command line's shared catalogue). Its one reason is a
figure's, in contact with no enemy, for which a combat's dice and initiative have no answer.
"""

from __future__ import annotations

from collections.abc import Iterable

from arbitre.rules.answers import Reason, in_words

REASON_WORDS = {
    Reason.NOT_IN_CONTACT: "in contact with no enemy",
}


def reason_words(reasons: Iterable[Reason]) -> str:
    """The reasons in words, for a sentence.

    >>> reason_words([Reason.NOT_IN_CONTACT])
    'in contact with no enemy'
    """
    return in_words(reasons, REASON_WORDS)
