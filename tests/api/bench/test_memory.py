"""The memory a server takes, for ``arbitre bench serve``: its own and its workers'."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from arbitre.api.bench.memory import tree_rss

MB = 1_000_000
HOLDS_100_MB = (
    "import time, numpy as np\n"
    "held = np.ones(100_000_000, np.uint8)  # 100 MB, every page written\n"
    "print('ready', flush=True)\n"
    "time.sleep(60)\n"
)

pytestmark = pytest.mark.skipif(not Path("/proc/self/status").exists(), reason="no /proc")


@pytest.fixture()
def worker() -> Iterator[subprocess.Popen[str]]:
    """A process of this one holding 100 MB, as a question desk's worker might."""
    process = subprocess.Popen(
        [sys.executable, "-c", HOLDS_100_MB], stdout=subprocess.PIPE, text=True
    )
    assert process.stdout is not None and process.stdout.readline() == "ready\n"
    yield process
    process.kill()
    process.wait()
    process.stdout.close()


def test_a_process_s_memory_is_its_resident_bytes(worker: subprocess.Popen[str]) -> None:
    # The worker starts no process of its own: its tree is itself.
    status = Path(f"/proc/{worker.pid}/status").read_text(encoding="ascii")
    (kb,) = [int(line.split()[1]) for line in status.splitlines() if line.startswith("VmRSS:")]
    # Read a moment apart: the same within a few MB (the worker only sleeps).
    assert tree_rss(worker.pid) == pytest.approx(kb * 1024, abs=5 * MB)


def test_the_workers_count_with_their_server_unless_left_out(
    worker: subprocess.Popen[str],
) -> None:
    alone = tree_rss(worker.pid)
    assert alone is not None and alone >= 100 * MB  # its 100 MB, and Python's own
    with_it = tree_rss(os.getpid())
    without = tree_rss(os.getpid(), leave_out=worker.pid)
    assert with_it is not None and without is not None
    assert with_it - without == pytest.approx(alone, abs=5 * MB)


def test_a_process_that_is_not_there_has_no_memory_said() -> None:
    # Linux gives process ids up to 2**22 (4,194,304): this one cannot be running.
    assert tree_rss(2**22 + 1) is None


def test_the_peak_is_measured_beyond_the_start() -> None:
    # 80 MB written and held for 0.3 s: the sampling, every 0.02 s, sees it; let go
    # before the block ends, it still counts. In a process of its own: here, a process
    # an earlier test started could end meanwhile and take its memory off the tree's.
    probe = (
        "import time\n"
        "import numpy as np\n"
        "from arbitre.api.bench.memory import PeakMemory\n"
        "with PeakMemory() as peak:\n"
        f"    held = np.ones({80 * MB}, np.uint8)\n"
        "    time.sleep(0.3)\n"
        "    del held\n"
        "print(peak.beyond_start)\n"
    )
    run = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, timeout=60, check=True
    )
    assert 75 * MB <= int(run.stdout) <= 120 * MB
