"""Names of figures, sides, groups and terrain pieces: one line of text.

A name is printed on one line of an answer and written into scene and roster files,
which must read back as written. Control characters, line separators and lone
surrogates break both; scenes and rosters refuse them alike through `one_line_name`.

This module sits below the four parts of the package and imports none of them.
"""

from __future__ import annotations

import re

NOT_IN_NAMES = re.compile(r"[\x00-\x1f\x7f-\x9f\u2028\u2029\ud800-\udfff]")
"""Control characters, line separators and lone surrogates: a name is one line of text."""

NOT_IN_TEXT = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f\u2028\u2029\ud800-\udfff]")
"""The same, but tabs and newlines: free text (a figure's ``attrs``) may hold several lines."""


def one_line_name(value: str) -> str:
    """``value`` if it is one line of text, else `ValueError`.

    >>> one_line_name("Chef alpin")
    'Chef alpin'
    >>> one_line_name("a\\nb")
    Traceback (most recent call last):
    ...
    ValueError: a name is one line of text, without control characters
    """
    if NOT_IN_NAMES.search(value):
        raise ValueError("a name is one line of text, without control characters")
    return value
