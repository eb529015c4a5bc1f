"""The simulator's ready scenes: their markers, their figures, their names."""

from __future__ import annotations

import numpy as np
import pytest

from arbitre.vision.errors import VisionError
from arbitre.vision.simulate import PRESETS, preset
from arbitre.vision.simulate.presets import PIECE_REACH_MM


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


def test_pieces_come_in_turn_with_their_markers_on_them() -> None:
    # Wood, hill, hedge in turn on markers 200, 201, 202: the wood flat (its marker on a
    # 3 mm base), the hill 40 mm high and the hedge 25 mm (each marker 1 mm over the top);
    # the hedge is a line. Each reaches PIECE_REACH_MM (200 mm) from its marker at its
    # farthest vertex (to 0.01 mm: the vertices are rounded to hundredths of a mm).
    chosen = preset("overhead", figures=2, pieces=3, seed=4)
    pieces = chosen.scene.pieces
    assert [(p.marker.id, p.kind, p.area.height_mm, p.marker.z_mm) for p in pieces] == [
        (200, "wood", 0.0, 3.0),
        (201, "hill", 40.0, 41.0),
        (202, "hedge", 25.0, 26.0),
    ]
    assert [p.line for p in pieces] == [False, False, True]
    for piece in pieces:
        reach = np.hypot(*np.asarray(piece.outline_mm).T).max()
        assert reach == pytest.approx(PIECE_REACH_MM, abs=0.01)
        assert piece.marker in chosen.scene.markers and piece.area in chosen.scene.areas
