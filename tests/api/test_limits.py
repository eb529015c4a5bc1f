"""Work a hostile scene can make is bounded by the process itself: its memory capped, its
time limit kept even inside loops no signal interrupts."""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from arbitre.api.limits import too_costly
from arbitre.api.live import desk
from tests.console import run_console

CAPPED = """
import numpy as np
from arbitre.api.limits import cap_memory
assert cap_memory(200_000_000)
small = np.ones(100_000_000, dtype=np.uint8)  # 100 MB: within the cap
try:
    np.ones(400_000_000, dtype=np.uint8)  # 400 MB: past it
except MemoryError:
    print("refused")
"""

STUCK = """
import signal, time
from arbitre.api.cli import ask, common
common.OWN_PROCESS = True  # as `entry` says it
with ask.within_time_limit(1.0, "reach: stopped after 1 s"):
    signal.pthread_sigmask(signal.SIG_BLOCK, [signal.SIGALRM])  # as a compiled loop would
    time.sleep(60)
"""


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="RLIMIT_DATA is Linux's")
def test_a_capped_process_is_refused_memory_past_its_cap_and_lives_on() -> None:
    done = subprocess.run(
        [sys.executable, "-c", CAPPED], capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "refused"


@pytest.mark.skipif(not hasattr(__import__("signal"), "pthread_sigmask"), reason="POSIX")
def test_the_time_limit_ends_work_no_signal_reaches() -> None:
    started = time.monotonic()
    done = subprocess.run([sys.executable, "-c", STUCK], capture_output=True, text=True, timeout=60)
    spent = time.monotonic() - started
    assert done.returncode == 2
    assert done.stderr == "arbitre: reach: stopped after 1 s\n"
    assert spent < 1.0 + 2.0 + 10.0  # the limit, the watch's grace, the start of Python


def test_a_worker_past_its_memory_answers_in_one_line(monkeypatch: pytest.MonkeyPatch) -> None:
    def hungry(*_args: Any) -> Any:
        raise MemoryError

    monkeypatch.setattr(desk, "ask", hungry)
    document = {"ruleset": "musg", "table": {"width_mm": 900, "depth_mm": 600}, "figures": []}
    ok, found = desk.answer_scene(document, "reach", ["a"], {}, "scene", {})
    assert (ok, found) == (False, {"detail": too_costly("reach")})
    assert "\n" not in too_costly("reach")


def test_a_caller_running_the_command_line_in_its_process_keeps_its_own_bounds() -> None:
    # A test runner (or any program) calling `app` in its own process: no memory cap
    # is put on it, and no watch could end it.
    import resource

    from typer.testing import CliRunner

    from arbitre.api.cli import app

    before = resource.getrlimit(resource.RLIMIT_DATA)
    example = Path(__file__).resolve().parents[2] / "examples" / "cb6-skirmish.yaml"
    result = CliRunner().invoke(app, ["ask", str(example), "groups"])
    assert result.exit_code == 0, result.output
    assert resource.getrlimit(resource.RLIMIT_DATA) == before
    # `main` too (what the `arbitre` command runs, but in this process)
    assert run_console("ask", str(example), "groups")[0] == 0
    assert resource.getrlimit(resource.RLIMIT_DATA) == before
