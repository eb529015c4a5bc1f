"""The set-up files of a simulated table: camera.yaml, table.yaml and roster.yaml as a user
would write them for the simulator's scene."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from arbitre.calibration.camera import load_camera
from arbitre.calibration.simulated import setup_of, write_setup
from arbitre.calibration.table import load_roster, load_table
from arbitre.vision.simulate import preset

# The overhead table at full size (900 x 600 mm), two figures and three terrain pieces:
# a wood, a 40 mm hill and a 25 mm hedge, in that order, on markers 200, 201 and 202.
SCENE = preset("overhead", figures=2, pieces=3, seed=4)


def test_the_table_holds_the_four_corner_anchors_of_the_scene() -> None:
    # Anchors 0-3, 40 mm, 35 mm in from each corner, counter-clockwise from the origin:
    # (35, 35), (900 - 35, 35), (865, 600 - 35), (35, 565).
    _, table, _ = setup_of(SCENE)
    assert (table.width_mm, table.depth_mm, table.dictionary) == (900.0, 600.0, "DICT_4X4_250")
    assert [(a.id, a.x_mm, a.y_mm, a.size_mm) for a in table.anchors] == [
        (0, 35.0, 35.0, 40.0),
        (1, 865.0, 35.0, 40.0),
        (2, 865.0, 565.0, 40.0),
        (3, 35.0, 565.0, 40.0),
    ]


def test_the_camera_is_the_scene_s_camera() -> None:
    camera, _, _ = setup_of(SCENE)
    assert camera.image_size == SCENE.camera.image_size == (1920, 1080)
    np.testing.assert_array_equal(camera.camera_matrix, SCENE.camera.camera_matrix)
    np.testing.assert_array_equal(camera.dist_coeffs, SCENE.camera.dist_coeffs)


def test_every_other_marker_is_a_figure_at_its_height_or_a_terrain_piece() -> None:
    _, _, roster = setup_of(SCENE)
    figures = [m for m in SCENE.scene.markers if 10 <= m.id < 200]
    assert [(f.marker, f.name, f.marker_height_mm) for f in roster.figures] == [
        (m.id, f"figure {m.id}", m.z_mm) for m in figures
    ]
    # The wood is wood; the hill is difficult ground one level up; the hedge an obstacle
    # line one level up. Each marker sits on its piece: 3 mm on the wood's base, 1 mm on
    # the hill's top (41) and on the hedge's (26).
    pieces = [(t.marker, t.id, t.kind, t.level, t.marker_height_mm) for t in roster.terrain]
    assert pieces == [
        (200, "wood200", "wood", None, 3.0),
        (201, "hill201", "difficult", 1, 41.0),
        (202, "hedge202", "obstacle", 1, 26.0),
    ]
    wood, hill, hedge = roster.terrain
    assert wood.polygon_mm is not None and hill.polygon_mm is not None
    assert hedge.polygon_mm is None and hedge.line_mm is not None
    np.testing.assert_allclose(wood.polygon_mm, SCENE.scene.pieces[0].outline_mm)


def test_the_files_written_read_back_as_the_set_up(tmp_path: Path) -> None:
    files = write_setup(SCENE, tmp_path / "table")
    camera, table, roster = setup_of(SCENE)
    assert load_table(files.table) == table
    assert load_roster(files.roster) == roster
    read = load_camera(files.camera)
    assert read.image_size == camera.image_size
    np.testing.assert_array_equal(read.camera_matrix, camera.camera_matrix)
    np.testing.assert_array_equal(read.dist_coeffs, camera.dist_coeffs)
