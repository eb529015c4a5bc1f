"""The memory a server takes, for ``arbitre bench serve``: the resident memory of its
process and of every process it started (the question desk's workers), sampled."""

from __future__ import annotations

import os
import threading
from pathlib import Path

SAMPLE_S = 0.02


def tree_rss(root: int, leave_out: int | None = None) -> int | None:
    """The resident bytes of process ``root`` and its descendants, without process
    ``leave_out`` and its own; None where the system does not say (not Linux)."""
    total, pending = 0, [root]
    while pending:
        pid = pending.pop()
        if pid == leave_out:
            continue
        proc = Path(f"/proc/{pid}")
        try:
            for line in (proc / "status").read_text(encoding="ascii").splitlines():
                if line.startswith("VmRSS:"):
                    total += int(line.split()[1]) * 1024
            for task in (proc / "task").iterdir():
                pending += [int(child) for child in (task / "children").read_text().split()]
        except (OSError, ValueError):  # gone meanwhile, or no /proc
            if pid == root:
                return None
    return total


class PeakMemory:
    """The highest `tree_rss` of this process, beyond what it was at the start, while
    the ``with`` block runs (``leave_out``: a process of clients, not the server's)."""

    def __init__(self, leave_out: int | None = None) -> None:
        self.leave_out = leave_out
        self.start = tree_rss(os.getpid(), leave_out)
        self.peak = self.start
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._sample, daemon=True)

    @property
    def beyond_start(self) -> int | None:
        """Bytes at the peak beyond the start; None where not measured."""
        if self.start is None or self.peak is None:
            return None
        return self.peak - self.start

    def __enter__(self) -> PeakMemory:
        if self.start is not None:
            self._thread.start()
        return self

    def __exit__(self, *_exc: object) -> None:
        self._stop.set()
        if self._thread.is_alive():
            self._thread.join()

    def _sample(self) -> None:
        while not self._stop.wait(SAMPLE_S):
            now = tree_rss(os.getpid(), self.leave_out)
            if now is not None and self.peak is not None:
                self.peak = max(self.peak, now)
