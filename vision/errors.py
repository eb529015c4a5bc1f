"""The errors of `vision`: bad input, never a detection result.

An image in which no marker is found is a normal, empty result; these exceptions
are raised only when the input itself is malformed or unreadable.
"""

from __future__ import annotations


class VisionError(ValueError):
    """Base class of every error raised by `vision`; the message is one line."""
