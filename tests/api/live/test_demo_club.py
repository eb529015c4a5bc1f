"""The built-in club table: a 6 x 4 ft table, six anchors, sixteen figures, and two
webcams at the middles of its long edges that both see all of it."""

from __future__ import annotations

import numpy as np
import pytest

from arbitre.api.live.demo_club import (
    FIGURES,
    TABLE_MM,
    club_anchors,
    club_cameras,
    demo_club_config,
)


def test_the_two_webcams_face_each_other_across_the_long_edges() -> None:
    # 30 cm back from the middle of each long edge (x = 1830 / 2 = 915; y = -300 and
    # 1220 + 300 = 1520), 1.1 m up.
    first, second = club_cameras()
    assert first.position_mm == pytest.approx([915.0, -300.0, 1100.0])
    assert second.position_mm == pytest.approx([915.0, 1520.0, 1100.0])
    assert first.image_size == second.image_size == (1920, 1080)


def test_anchors_are_at_the_corners_and_the_middles_of_the_long_edges() -> None:
    # 35 mm in from the edges of the 1830 x 1220 mm table (1830 - 35 = 1795,
    # 1220 - 35 = 1185); 4 and 5 at x = 915 on the near and far long edges.
    placed = {m.id: (m.x_mm, m.y_mm) for m in club_anchors()}
    assert placed == {
        0: (35.0, 35.0),
        1: (1795.0, 35.0),
        2: (1795.0, 1185.0),
        3: (35.0, 1185.0),
        4: (915.0, 35.0),
        5: (915.0, 1185.0),
    }


def test_both_webcams_see_every_anchor_and_every_figure_s_head() -> None:
    heads = np.array([[x, y, height] for (*_, height, x, y, _attrs) in FIGURES])
    flat = np.array([[m.x_mm, m.y_mm, 0.0] for m in club_anchors()])
    for camera in club_cameras():
        for points in (heads, flat):
            uv = camera.project(points)
            assert np.all(uv >= 0.0) and np.all(uv < (1920, 1080))


def test_the_live_table_runs_both_cameras_over_sixteen_figures() -> None:
    config = demo_club_config()
    assert (config.table.width_mm, config.table.depth_mm) == TABLE_MM == (1830.0, 1220.0)
    assert len(config.more_cameras) == 1  # the first camera, and one more
    assert dict(config.options) == {"unit_mm": 100}
    # two sides of eight: markers 10-17 (bleus) and 20-27 (rouges)
    markers = sorted(figure.marker for figure in config.roster.figures)
    assert markers == [*range(10, 18), *range(20, 28)]
