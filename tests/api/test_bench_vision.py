"""``arbitre bench vision``'s accuracy part on one seed of every preset.

The targets are the benchmark's own: 99 % of the visible figure markers found, no false
id, and the terrain pieces (a wood, a hill and a hedge reaching 200 mm from markers
glued tipped by up to 4 degrees) placed with a 95th-percentile vertex error of 1.5 mm.
"""

from __future__ import annotations

from arbitre.api.bench.vision import TARGETS, accuracy, report_lines


def test_every_preset_places_figures_and_tilted_terrain_pieces_on_target() -> None:
    rows = accuracy(1)
    assert [row["preset"] for row in rows] == ["overhead", "tripod", "4k", "harsh"]
    for row in rows:
        assert row["false_ids"] == 0, row
        assert row["found"] >= TARGETS["found"], row
        assert row["p95_mm"] <= TARGETS["p95_mm"], row
        assert row["pieces"] == 3 and row["pieces_found"] == 1.0, row
        assert row["vertex_p95_mm"] <= TARGETS["vertex_p95_mm"], row
    report = {"accuracy": rows, "speed": {}, "certainty": {"by_offset": []}}
    lines = report_lines({**report, "calibration": {"error": "not run"}})
    assert all("MISS" not in line for line in lines[1:5]), lines


def test_the_untracked_frame_is_marked_against_its_target() -> None:
    def speed_line(untracked_ratio: float) -> str:
        row = {"ms": 10.0, "fps": 100.0, "baseline_ms": 10.0, "ratio": 1.0}
        row |= {"untracked_ms": 10.0 * untracked_ratio, "untracked_ratio": untracked_ratio}
        report = {"accuracy": [], "speed": {"1080p": row}, "certainty": {"by_offset": []}}
        lines = report_lines({**report, "calibration": {"error": "not run"}})
        return next(line for line in lines if "untracked frame" in line)

    limit = TARGETS["untracked_ratio"]
    assert speed_line(limit).endswith("ok")
    assert speed_line(limit + 0.01).endswith("MISS")
