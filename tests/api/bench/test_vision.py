"""``arbitre bench vision``'s accuracy part on one seed of every preset.

The targets are the benchmark's own: 99 % of the visible figure markers found, no false
id, and the terrain pieces (a wood, a hill and a hedge reaching 200 mm from markers
glued tipped by up to 4 degrees) placed with a 95th-percentile vertex error of 1.5 mm.
"""

from __future__ import annotations

from arbitre.api.bench.vision import (
    RECALL_TARGETS,
    TARGETS,
    accuracy,
    held_pose,
    held_pose_lines,
    recall,
    recall_lines,
    report_lines,
)


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


def test_the_held_pose_keeps_every_figure_under_arms_and_notices_a_bump() -> None:
    """The bench's own figures, on the overhead 1080p preset: with arms over anchor 0,
    0 and 1, then all four, for 5 s each, no frame is lost, no figure moves more than
    0.5 mm nor its σ grows past 1.25 times; a frame posed alone loses the table when
    every anchor is hidden; a 2° bump is posed afresh within a second."""
    held = held_pose()
    assert held["figures"] == 20
    for arm in held["arms"]:
        kept = arm["held"]
        assert kept["frames"] == 150 and kept["frames_lost"] == 0, arm
        assert kept["moved_mm"] <= TARGETS["held_moved_mm"], arm
        assert kept["sigma_ratio"] <= TARGETS["held_sigma_ratio"], arm
    assert held["arms"][-1]["alone"]["frames_lost"] == 1
    assert held["bump_frames"] is not None and held["bump_frames"] <= 30
    lines = held_pose_lines(held)
    assert len(lines) == 5 and all(line.endswith("ok") for line in lines[1:]), lines


def test_hard_views_are_read_to_their_targets() -> None:
    # A 6 x 4 ft table seen in 4K from its edge (80 figures, 16 mm markers, 2-6 px a
    # module, 1 px of lens blur), the overhead table shaken (5 px of motion blur) and in
    # poor light: plain OpenCV reads about 5 %, 96 % and 100 % of their readable markers.
    rows = recall(1)
    assert [row["view"] for row in rows] == ["tilted4k", "shaken", "harsh"]
    for row in rows:
        assert row["found"] >= RECALL_TARGETS[row["view"]], row
        assert row["false_ids"] == 0 and row["bare_false_ids"] == 0, row
        assert row["median_mm"] <= 0.1, row
    tilted = rows[0]
    assert tilted["readable"] >= 75 and tilted["plain_found"] < 0.2, tilted
    assert all(line.endswith("ok") for line in recall_lines(rows)[1:])
