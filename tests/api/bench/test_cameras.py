"""``arbitre bench serve``'s club section: several cameras tracking the figures at once."""

from __future__ import annotations

from arbitre.api.bench.cameras import SET_UPS, cameras_lines, run_cameras_bench
from arbitre.calibration.progress import Steps


def test_the_club_cameras_bench_tracks_the_figures_both_cameras_see() -> None:
    seen: list[tuple[int, int]] = []
    one = tuple(s for s in SET_UPS if s.preset == "club1080")
    rows = run_cameras_bench(1.0, Steps(3, lambda *step: seen.append(step)), one)
    assert seen == [(1, 3), (2, 3), (3, 3)]  # rendered, one camera alone, both
    (row,) = rows
    assert len(row["fps_each"]) == 2 and min(row["fps_each"]) > 0 and row["fps_alone"] > 0
    # Two 1080p cameras at opposite edges read the markers of the near half of the table
    # each (the bench vision's club section: 62 % of 80 found with two): far more than
    # one camera's 30 %.
    assert row["figures_tracked"] >= 40
    assert len(cameras_lines(rows)) == 2
