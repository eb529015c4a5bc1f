"""Bounds a process puts on itself: memory it may not pass, whatever a question builds.

A question on a hostile scene could build arrays of gigabytes before any time limit
rings. `cap_memory` makes the system refuse the process more than a fixed amount of
memory beyond what it holds now (``RLIMIT_DATA``, which counts the heap and the large
blocks NumPy maps): past it, the allocation fails with `MemoryError`, which the question's
caller turns into one line, and the process lives on. `in_time` bounds a wait on work
that may never end (a video pipe nobody writes to, a server sending a byte now and then).
"""

from __future__ import annotations

import re
import threading
from collections.abc import Callable
from typing import Any, TypeVar, cast

_T = TypeVar("_T")

QUESTION_MEMORY_BYTES = 400_000_000
"""What a question may take beyond what its process held before: 400 MB. Every question
of the five rule systems on a table of 1,000 figures and 30 terrain pieces takes less than
70 MB; a reach on a 100 m table with 1,000 pieces, 25 MB."""


def cap_memory(extra_bytes: int) -> bool:
    """Refuse this process more than ``extra_bytes`` of data beyond what it holds now;
    False where the system cannot say or do it (not Linux, or a lower limit already)."""
    try:
        import resource

        with open("/proc/self/status", encoding="ascii") as status:
            found = re.search(r"VmData:\s+(\d+) kB", status.read())
    except (ImportError, OSError):
        return False
    if found is None:
        return False
    wanted = int(found.group(1)) * 1024 + extra_bytes
    soft, hard = resource.getrlimit(resource.RLIMIT_DATA)
    if hard != resource.RLIM_INFINITY:
        wanted = min(wanted, hard)
    if soft != resource.RLIM_INFINITY and soft <= wanted:
        return False  # already as tight
    try:
        resource.setrlimit(resource.RLIMIT_DATA, (wanted, hard))
    except (ValueError, OSError):
        return False
    return True


def too_costly(question: str) -> str:
    """The one line for a question that needed more memory than it may take."""
    return (
        f"{question}: the scene is too costly for this question (it would take more than "
        f"{QUESTION_MEMORY_BYTES // 1_000_000:,} MB); simplify its terrain"
    )


def in_time(work: Callable[[], _T], seconds: float) -> _T:
    """What ``work()`` gives, done beside this thread; `TimeoutError` when it has not
    finished within ``seconds`` (it is then left behind, a daemon thread)."""
    got: list[tuple[bool, Any]] = []

    def run() -> None:
        try:
            got.append((True, work()))
        except BaseException as error:  # handed to the caller's thread
            got.append((False, error))

    worker = threading.Thread(target=run, daemon=True)
    worker.start()
    worker.join(seconds)
    if not got:
        raise TimeoutError
    done, value = got[0]
    if not done:
        raise value
    return cast(_T, value)
