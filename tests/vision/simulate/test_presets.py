"""The simulator's ready scenes: their markers, their figures, their names."""

from __future__ import annotations

import numpy as np
import pytest

from arbitre.vision.errors import VisionError
from arbitre.vision.simulate import PRESETS, preset


@pytest.mark.parametrize("name", PRESETS)
def test_presets_keep_marker_sizes_in_pixels_at_any_scale(name: str) -> None:
    full = preset(name, figures=0)
    small = preset(name, scale=0.4, figures=0)
    assert small.camera.image_size[0] == round(0.4 * full.camera.image_size[0])
    for camera, scene in ((full.camera, full.scene), (small.camera, small.scene)):
        corners = [camera.project(m.corners_mm()) for m in scene.markers]
        assert len(corners) == 4  # the anchors
        for quad in corners:
            assert np.all((quad >= 0) & (quad < camera.image_size))
    # Anchor 0, 40 mm: as wide in pixels in both images (the same focal length and distance).
    widths = [
        np.hypot(*np.diff(p.camera.project(p.scene.markers[0].corners_mm()[:2]), axis=0)[0])
        for p in (full, small)
    ]
    assert widths[1] == pytest.approx(widths[0], rel=0.15)


def test_presets_place_figures_with_ids_from_10() -> None:
    chosen = preset("tripod", scale=0.5, figures=9, seed=3)
    ids = [m.id for m in chosen.scene.markers]
    assert ids == [0, 1, 2, 3, *range(10, 19)]
    heights = {m.z_mm for m in chosen.scene.markers[4:]}
    assert heights <= {0.0, 54.0}
    assert all(m.size_mm == 25.0 for m in chosen.scene.markers[4:])


def test_an_unknown_preset_or_a_scale_out_of_range_is_refused() -> None:
    with pytest.raises(VisionError, match="unknown simulator preset 'attic'"):
        preset("attic")
    with pytest.raises(VisionError, match="scale"):
        preset("overhead", scale=2.0)
