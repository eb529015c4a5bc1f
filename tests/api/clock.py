"""A clock the test moves by hand, for the live table's ``clock``."""

from __future__ import annotations


class Clock:
    """A clock the test moves by hand (seconds)."""

    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now
