"""Progress of long calls: a callback told ``(done, total)`` after each step.

Calibration and the benchmarks take an optional `Progress` callback and know nothing of
terminals; the command line turns it into a bar on a terminal, and passes None otherwise.
"""

from __future__ import annotations

from collections.abc import Callable

Progress = Callable[[int, int], None]
"""Called with the steps done so far and the steps in all, ``0 < done <= total``."""


class Steps:
    """Counts the steps of one call and tells a `Progress` callback, if any.

    >>> seen = []
    >>> steps = Steps(3, lambda done, total: seen.append((done, total)))
    >>> steps.advance(); steps.advance(2)
    >>> seen
    [(1, 3), (3, 3)]
    """

    __slots__ = ("done", "total", "_progress")

    def __init__(self, total: int, progress: Progress | None) -> None:
        self.done = 0
        self.total = max(int(total), 1)
        self._progress = progress

    def advance(self, count: int = 1) -> None:
        """Count ``count`` more steps done (never past the total)."""
        self.done = min(self.done + count, self.total)
        if self._progress is not None:
            self._progress(self.done, self.total)
