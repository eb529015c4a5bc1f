"""How long ``arbitre ask SCENE distance A B`` takes from a cold start, against a bare
Python that imports what any question needs (numpy, shapely, yaml), timed in the same
run: the command line should answer within `TARGET_RATIO` times that start.
"""

from __future__ import annotations

import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import yaml

from arbitre.api.bench.rules import question_arguments, ruleset_scene_data

TARGET_RATIO = 3.0
RULESETS = ("choc-base-6", "smooth-and-rifled", "musg", "mbt", "confrontation")
BASELINE = "import numpy, shapely, yaml"


def _median_s(command: list[str], repeat: int) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        subprocess.run(command, check=True, capture_output=True)
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def cli_start_report(repeat: int = 5) -> dict[str, Any]:
    """Median wall time of ``distance`` under each rule system and of the bare start."""
    baseline_s = _median_s([sys.executable, "-c", BASELINE], repeat)
    rows = []
    with tempfile.TemporaryDirectory() as folder:
        for ruleset in RULESETS:
            document = ruleset_scene_data(ruleset, figures=12)
            path = Path(folder) / f"{ruleset}.yaml"
            path.write_text(yaml.safe_dump(document), encoding="utf-8")
            command = [sys.executable, "-m", "arbitre", "ask", str(path), "distance"]
            command += question_arguments("distance", document)
            seconds = _median_s(command, repeat)
            rows.append({"ruleset": ruleset, "ms": seconds * 1e3, "ratio": seconds / baseline_s})
    return {"baseline": BASELINE, "baseline_ms": baseline_s * 1e3, "questions": rows}


def cli_start_lines(report: dict[str, Any]) -> list[str]:
    lines = [
        f"command line, cold start (baseline: python -c '{report['baseline']}', "
        f"{report['baseline_ms']:.0f} ms):"
    ]
    for row in report["questions"]:
        verdict = "ok" if row["ratio"] <= TARGET_RATIO else "SLOW"
        lines.append(
            f"{row['ruleset']:>17} ask ... distance: {row['ms']:.0f} ms, "
            f"x{row['ratio']:.2f} the baseline (target x{TARGET_RATIO:g}) {verdict}"
        )
    return lines
